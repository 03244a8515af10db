// formats/tests/aarch64/run.sh compiles this file alone for aarch64, with Debian's rustc,
// and runs it under qemu against a naive scan.

use std::arch::aarch64::*;

/// All ones in each byte of `block` that [`super::find_string_special`] stops at.
#[inline(always)]
#[allow(unused_unsafe)]
fn block_hits<const QUOTE: u8, const DEL: bool>(block: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is enabled at compile time (the module's `cfg`), and these
    // intrinsics read and write registers only.
    unsafe {
        let mut hits = vorrq_u8(
            vorrq_u8(
                vceqq_u8(block, vdupq_n_u8(QUOTE)),
                vceqq_u8(block, vdupq_n_u8(b'\\')),
            ),
            vcltq_u8(block, vdupq_n_u8(0x20)),
        );
        if DEL {
            hits = vorrq_u8(hits, vceqq_u8(block, vdupq_n_u8(0x7F)));
        }
        hits
    }
}

/// Four bits for each byte of `hits` (each all ones or all zeros), the first byte's
/// lowest: NEON has no move of a byte mask, and narrowing each 16-bit lane by four
/// bits keeps a nibble of each of its two bytes.
#[inline(always)]
#[allow(unused_unsafe)]
fn nibble_mask(hits: uint8x16_t) -> u64 {
    // SAFETY: as in `block_hits`.
    unsafe {
        let narrowed = vshrn_n_u16::<4>(vreinterpretq_u16_u8(hits));
        vget_lane_u64::<0>(vreinterpret_u64_u8(narrowed))
    }
}

/// The offset, within its sixteen bytes, of the first byte a [`nibble_mask`] flags.
#[inline(always)]
pub(super) fn first_flagged(mask: u64) -> usize {
    (mask.trailing_zeros() / 4) as usize
}

/// A [`nibble_mask`] of the 16 bytes from `i` that [`super::find_string_special`]
/// stops at; `None` when fewer than 16 are left.
#[inline(always)]
pub(super) fn special_mask16<const QUOTE: u8, const DEL: bool>(
    bytes: &[u8],
    i: usize,
) -> Option<u64> {
    let chunk: &[u8; 16] = bytes.get(i..i.checked_add(16)?)?.try_into().ok()?;
    // SAFETY: `chunk` is 16 readable bytes (the load is unaligned), and NEON is
    // enabled at compile time.
    let block = unsafe { vld1q_u8(chunk.as_ptr()) };
    Some(nibble_mask(block_hits::<QUOTE, DEL>(block)))
}

/// [`super::find_string_special`] 32 bytes at a time, then 16, then a word at a time.
#[inline(never)]
pub(super) fn find_string_special<const QUOTE: u8, const DEL: bool>(
    bytes: &[u8],
    mut i: usize,
) -> usize {
    while i + 32 <= bytes.len() {
        // SAFETY: the 32 bytes from `i` are in `bytes` (checked by the loop); the
        // loads are unaligned, and NEON is enabled at compile time.
        let (low, high) = unsafe {
            let at = bytes.as_ptr().add(i);
            (vld1q_u8(at), vld1q_u8(at.add(16)))
        };
        let (low, high) = (
            block_hits::<QUOTE, DEL>(low),
            block_hits::<QUOTE, DEL>(high),
        );
        // SAFETY: as in `block_hits`.
        #[allow(unused_unsafe)]
        let any = unsafe { vmaxvq_u8(vorrq_u8(low, high)) };
        if any != 0 {
            let mask = nibble_mask(low);
            if mask != 0 {
                return i + first_flagged(mask);
            }
            return i + 16 + first_flagged(nibble_mask(high));
        }
        i += 32;
    }
    if let Some(mask) = special_mask16::<QUOTE, DEL>(bytes, i) {
        if mask != 0 {
            return i + first_flagged(mask);
        }
        i += 16;
    }
    super::find_string_special_words::<QUOTE, DEL>(bytes, i)
}
