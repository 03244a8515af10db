//! What every format shares: positions and spans, the error shell, the caret renderer
//! and the parse limits. Formats keep only their own error kinds.

mod error;
mod limits;
mod position;
mod render;

pub use error::Error;
pub use limits::Limits;
pub use position::{position_at, LineIndex, Span};
pub use quarry_raw_value::Position;
pub use render::render_snippet;
