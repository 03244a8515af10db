/// What a writer does with a map entry whose value is null, in a format that has no
/// null (TOML, property lists).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NullEntries {
    /// Fail with an error naming the entry's path (the default: no silent loss).
    #[default]
    Reject,
    /// Leave the entry out, as the `toml` and `plist` crates do for `None` fields: it
    /// reads back as absent, which an `Option` field decodes as `None`. A null inside an
    /// array or at the top is still an error.
    Skip,
}
