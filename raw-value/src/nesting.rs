//! The recursion limit of decoders that decode the same value again.
//!
//! A decoder that reads a value's parts (a struct's fields, a list's items, an externally
//! tagged enum's content) goes one level deeper into the input at each step, and the
//! parser's depth limit (`Limits::max_depth`) bounds that. A decoder that hands the same
//! value on does not: an untagged enum tries its variants on it, a newtype decodes its
//! field from it, an internally tagged enum decodes a newtype variant from the same map
//! (less one tag key), a struct decodes a flattened field from its own leftover keys. A
//! type that holds itself on such a path (an untagged `Wrap(Box<Self>)` tried before a
//! scalar variant) would recurse on one value until the stack overflowed. Each of those
//! decoders holds a [`Nested`] while it decodes (unless what it hands the value to is one
//! of std's scalars or strings, or a std container of them, which cannot lead back); past
//! [`RECURSION_LIMIT`] of them on the thread, decoding stops with
//! [`DecodeErrorKind::RecursionLimitReached`] (the direct path falls back, and the
//! RawValue path reports it). The derive also refuses, at compile time, the cycles it can
//! see: an untagged enum's newtype variant, a newtype, or a flattened field holding the
//! type itself.
//!
//! The limit counts only those decoders, so a recursive struct is bounded by the input's
//! depth alone. A recursive untagged enum (a JSON-like `Value`) takes one per level of
//! input, and the limit is four times the default depth limit: a type with an untagged
//! enum and a newtype at every level (two per level) reads the deepest document the
//! parsers accept with room to spare, and a cycle on one value stops well inside the
//! 2 MiB stack of a spawned thread, even in a debug build.

use std::cell::Cell;

use crate::{DecodeErrorKind, DecodeErrors, Fallback};

/// How many decoders that decode the same value again ([`Nested`]) may nest on a thread.
pub const RECURSION_LIMIT: u32 = 512;

thread_local! {
    static NESTING: Cell<u32> = const { Cell::new(0) };
}

/// Held by a decoder that decodes the value it was given again, as its own or another
/// type, while it does: derived untagged enums, newtypes, internally tagged enums and
/// structs with flattened fields hold one, and so should a hand-written decoder that does
/// the same with a type that may lead back to its own. Dropping it leaves the level.
#[must_use = "the level is left when the guard is dropped"]
pub struct Nested(());

impl Nested {
    /// Enters one level; [`DecodeErrorKind::RecursionLimitReached`] past
    /// [`RECURSION_LIMIT`].
    #[inline]
    pub fn enter() -> Result<Nested, DecodeErrors> {
        if enter() {
            Ok(Nested(()))
        } else {
            Err(limit_reached())
        }
    }

    /// [`Nested::enter`] for a direct path, which falls back at the limit (the RawValue
    /// path then reports it).
    #[inline]
    pub fn enter_direct() -> Result<Nested, Fallback> {
        if enter() {
            Ok(Nested(()))
        } else {
            Err(Fallback)
        }
    }
}

impl Drop for Nested {
    #[inline]
    fn drop(&mut self) {
        NESTING.with(|n| n.set(n.get() - 1));
    }
}

#[inline]
fn enter() -> bool {
    NESTING.with(|n| {
        let depth = n.get();
        let room = depth < RECURSION_LIMIT;
        if room {
            n.set(depth + 1);
        }
        room
    })
}

#[cold]
#[inline(never)]
fn limit_reached() -> DecodeErrors {
    DecodeErrors::new(DecodeErrorKind::RecursionLimitReached(RECURSION_LIMIT))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Levels are entered up to the limit and left when their guards drop, in any order
    /// of early returns: the count is back at zero after.
    #[test]
    fn levels_are_entered_to_the_limit_and_left_on_drop() {
        fn descend(levels: u32) -> Result<u32, DecodeErrors> {
            let _level = Nested::enter()?;
            if levels == 0 {
                Ok(0)
            } else {
                descend(levels - 1).map(|d| d + 1)
            }
        }
        assert_eq!(descend(RECURSION_LIMIT - 1).unwrap(), RECURSION_LIMIT - 1);
        let err = descend(RECURSION_LIMIT).unwrap_err();
        assert!(err.is_recursion_limit());
        assert_eq!(
            err.iter().next().unwrap().kind,
            DecodeErrorKind::RecursionLimitReached(RECURSION_LIMIT)
        );
        assert_eq!(NESTING.with(Cell::get), 0);
        let held: Vec<Nested> = (0..RECURSION_LIMIT)
            .map(|_| Nested::enter_direct().unwrap())
            .collect();
        assert!(Nested::enter_direct().is_err());
        drop(held);
        assert_eq!(NESTING.with(Cell::get), 0);
    }
}
