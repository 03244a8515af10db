//! What every format shares: positions and spans, the error shell, the caret renderer
//! the parse limits, byte scanning, the lists kept between documents, and the one tree
//! vocabulary ([`Tree`], [`TreeNode`]).
//! Formats keep only their own error kinds.

mod error;
mod float;
mod hash;
mod limits;
mod nulls;
mod path;
mod position;
mod render;
mod scan;
mod sink;
mod spare;
mod tree;
mod utf8;

pub use error::Error;
pub(crate) use float::{decimal_to_f64, exact_decimal_to_f64, fraction_after, plain_decimal};
pub(crate) use hash::{KeyHashState, NameIndex};
pub use limits::Limits;
pub use nulls::NullEntries;
pub(crate) use path::follow_path;
pub use position::{position_at, LineCursor, LineIndex, Span};
pub use quarry_raw_value::Position;
pub use render::render_snippet;
#[cfg(test)]
pub(crate) use scan::for_each_placement;
#[cfg(target_arch = "x86_64")]
pub(crate) use scan::has_x86_64_v3;
/// For quarry-arrow and the conformance tests, which compare keys as the parsers do.
#[doc(hidden)]
pub use scan::same_bytes;
pub(crate) use scan::{bare_key_end, bytes_below, bytes_equal, digits_value, first_flagged};
pub(crate) use scan::{decode_string_runs, find_string_special, utf8_output, Escapes};
pub(crate) use scan::{fold_digits, fold_digits16, twenty_digits_fit_u64};
pub(crate) use scan::{plain_integer, window_integer};
pub(crate) use scan::{skip_spaces, word};
pub(crate) use sink::{Sink, CHUNK};
#[cfg(test)]
pub(crate) use spare::SPARE_BYTES;
pub(crate) use spare::{keep_spare, take_spare};
pub use tree::{Comment, EntryKey, HasSpan, Tree, TreeNode};
pub(crate) use tree::{Entry, FlatNode, NumberedNode, Siblings};
pub(crate) use utf8::{ascii_from, from_surrogates, validate as validate_utf8};
#[cfg(feature = "xml")]
pub(crate) use utf8::{push_utf16, utf16_string};
