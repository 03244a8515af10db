//! TOML: each table of a top-level array of tables (`[[package]]`) is a record. A TOML
//! table may be reopened anywhere below (`[package.metadata]` after other tables), so a
//! record is complete only when the document is: the one TOML parser reads the document
//! through the RawValue path, and the records are handed to the sink from it.

use quarry_formats::common::{EntryKey, Span};
use quarry_formats::toml;
use quarry_raw_value::RawValue;

use crate::error::Error;
use crate::feed::{syntax_error, walk_record, After, Flow};
use crate::sink::Sink;
use crate::Options;

/// A TOML document's records.
pub(crate) fn feed<S: Sink>(
    bytes: &[u8],
    options: &Options,
    sink: &mut S,
    after: &mut After<'_, S>,
) -> Result<(), Error> {
    let document = toml::parse_with_limits(bytes, options.limits).map_err(syntax_error)?;
    let RawValue::Map(entries) = &document else {
        return Ok(());
    };
    let is_tables = |value: &RawValue<'_>| {
        matches!(value, RawValue::Seq(items)
            if !items.is_empty() && items.iter().all(|item| matches!(item, RawValue::Map(_))))
    };
    let found = match &options.records_at {
        Some(name) => entries.iter().find(|(key, _)| key == name),
        None => entries.iter().find(|(_, value)| is_tables(value)),
    };
    let Some((key, RawValue::Seq(records))) = found else {
        return Err(Error::new(match &options.records_at {
            Some(name) => format!("no array of tables `{name}` at the top of the document"),
            None => "no array of tables at the top of the document".to_owned(),
        }));
    };
    for (index, record) in records.iter().enumerate() {
        if let Err(misfit) = walk_record(record, sink, "a table") {
            let place = locate(bytes, key, index, sink.refused_field().unwrap_or_default());
            return Err(Error::new(misfit).at(Some(index as u64 + 1), place.0, place.1));
        }
        if after(sink) == Flow::Stop {
            break;
        }
    }
    Ok(())
}

/// The line and column of record `index` of the array of tables `key` (of its `field`,
/// names from the record down, when one is given), from the tree door (read only when
/// an error is reported).
#[cold]
fn locate(bytes: &[u8], key: &str, index: usize, field: &[String]) -> (u64, u64) {
    use quarry_formats::TreeNode;
    let Ok(tree) = toml::parse_tree(bytes) else {
        return (1, 1);
    };
    let record = tree.root().get(key).and_then(|tables| tables.at(index));
    let span = record.map(|node| find(node, field).unwrap_or_else(|| node.span()));
    match span {
        Some(span) => {
            let at = quarry_formats::common::position_at(bytes, span.start);
            (at.line as u64, at.column as u64)
        }
        None => (1, 1),
    }
}

/// The key at `field` (names from `node` down, through the tables of any array on the
/// way), the first met.
fn find<'d, N>(node: N, field: &[String]) -> Option<Span>
where
    N: quarry_formats::TreeNode<'d, Key = EntryKey<'d>>,
{
    let (first, rest) = field.split_first()?;
    for (key, value) in node.entries() {
        if key.name != first {
            continue;
        }
        if rest.is_empty() {
            return Some(key.span);
        }
        let found = find(value, rest).or_else(|| value.items().find_map(|item| find(item, rest)));
        if found.is_some() {
            return found;
        }
    }
    None
}
