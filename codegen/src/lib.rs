//! The `#[derive(Decode, Encode)]` macros of quarry.
//!
//! Empty for now: the derive (with its direct JSON path, constraints and the serde
//! bridge) is its own piece of work. Until it lands, implement
//! `quarry::Decode`/`quarry::Encode` by hand or use the std impls.
