//! The direct path against the RawValue path, one module per format: the direct path may
//! fall back whenever it likes, but must never succeed with a value the RawValue path
//! would not produce. Each format's property test also checks that the direct path is
//! taken at all ([`mostly_direct`]): agreement alone would hold of a direct path that
//! fell back on every document.

mod json;
mod plist;
mod toml;
mod xml;
mod yaml;

use std::cell::Cell;
use std::fmt::Debug;

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// What one generated document did: whether the RawValue path decoded it, and whether
/// the direct path read it (which the case has checked gives the same value).
pub(crate) struct Seen {
    pub(crate) decoded: bool,
    pub(crate) direct: bool,
}

/// Runs `case` on documents drawn from `documents`, as `proptest!` runs a test (the same
/// configuration, `PROPTEST_CASES` included, and regressions kept beside
/// `source_file`), then checks that the direct path read at least `percent` percent of
/// the documents the RawValue path decoded.
///
/// Each format sets its `percent` well below the share measured over 5,000 cases, so
/// that the default 256 cases (a few dozen decoded documents) do not fail by chance,
/// and far above what a direct path that falls back on most documents reads.
///
/// A case that fails is shrunk and reported as `proptest!` reports it.
pub(crate) fn mostly_direct<S>(
    source_file: &'static str,
    documents: S,
    percent: usize,
    case: impl Fn(S::Value) -> Result<Seen, TestCaseError>,
) where
    S: Strategy,
    S::Value: Debug,
{
    let (decoded, direct) = (Cell::new(0usize), Cell::new(0usize));
    let mut runner = TestRunner::new(Config {
        source_file: Some(source_file),
        ..Config::default()
    });
    let result = runner.run(&documents, |document| {
        let seen = case(document)?;
        decoded.set(decoded.get() + usize::from(seen.decoded));
        direct.set(direct.get() + usize::from(seen.direct));
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}\n{runner}");
    }
    let (decoded, direct) = (decoded.get(), direct.get());
    assert!(
        decoded > 0 && direct * 100 >= decoded * percent,
        "the direct path read {direct} of the {decoded} documents the RawValue path decoded; \
         at least {percent}% must be read directly"
    );
}
