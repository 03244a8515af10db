//! The direct path against the RawValue path, one module per format: the direct path may
//! fall back whenever it likes, but must never succeed with a value the RawValue path
//! would not produce.

mod json;
mod plist;
mod toml;
mod xml;
mod yaml;
