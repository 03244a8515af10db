//! Byte scanning shared by the formats' string lexers and writers.
//!
//! The portable scans are here. The SIMD steps are in one module per instruction set,
//! each compiled only where its target has it: `sse2` (every x86_64 CPU: a string's
//! first sixteen bytes, sixteen digits at once), `avx2` (x86_64 CPUs that have it,
//! detected at run time: 32 bytes at a time) and `neon` (aarch64). `digits` folds runs
//! of ASCII digits, for every lexer's integers and for the significands `float.rs`
//! converts; `tests` checks each path against a naive loop.

mod digits;
#[cfg(test)]
mod tests;

/// Sixteen bytes at once with SSE2, which every x86_64 CPU has.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[allow(unsafe_code)]
mod sse2;

/// Sixteen bytes at once with NEON, which every aarch64 CPU has: a string's first
/// sixteen, then 32 at a time.
#[cfg(all(
    target_arch = "aarch64",
    target_feature = "neon",
    target_endian = "little"
))]
#[allow(unsafe_code)]
mod neon;

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2;

pub(crate) use digits::{
    digits_value, fold_digits, fold_digits16, plain_integer, twenty_digits_fit_u64, window_integer,
};

/// Whether the CPU has the instructions of x86-64-v3 that the hot loops gain from (AVX2,
/// BMI1, BMI2, LZCNT, POPCNT): the test before a call of a function compiled with
/// `#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]`. A build for the baseline
/// x86-64, as a crate from the registry is, then runs them as a build for the host would.
/// Each test is a load of a flag std detects once.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_x86_64_v3() -> bool {
    std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt")
}

/// Eight bytes as a little-endian word (`chunk` holds exactly eight).
#[inline(always)]
pub(crate) fn word(chunk: &[u8]) -> u64 {
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(chunk);
    u64::from_le_bytes(bytes)
}

/// `a == b`, without a call to `memcmp` when they are at most 16 bytes long (names,
/// keys): two overlapping loads from each end, of eight bytes or of four, or the first,
/// middle and last byte. A call to `memcmp`, or a byte loop, per key costs more than the
/// rest of a lookup by key (XML's end tags and runs of names, quarry-arrow's columns).
#[inline(always)]
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => a.first_chunk::<4>() == b.first_chunk() && a.last_chunk::<4>() == b.last_chunk(),
        8..=16 => a.first_chunk::<8>() == b.first_chunk() && a.last_chunk::<8>() == b.last_chunk(),
        _ => a == b,
    }
}

/// The high bit of each byte of `w` equal to `byte`. Of several flags (this one or
/// [`bytes_below`]'s, or'ed together), the lowest is always exact; later ones may be
/// false positives from a borrow.
#[inline(always)]
pub(crate) fn bytes_equal(w: u64, byte: u8) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    let x = w ^ (LO * u64::from(byte));
    x.wrapping_sub(LO) & !x & 0x8080_8080_8080_8080
}

/// The high bit of each byte of `w` below `bound` (at most 0x80), lowest flag exact as
/// for [`bytes_equal`].
#[inline(always)]
pub(crate) fn bytes_below(w: u64, bound: u8) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    w.wrapping_sub(LO * u64::from(bound)) & !w & 0x8080_8080_8080_8080
}

/// The index of the byte of the lowest flag (a word's flags are not 0).
#[inline(always)]
pub(crate) fn first_flagged(flags: u64) -> usize {
    (flags.trailing_zeros() / 8) as usize
}

/// The offset of the first byte at or after `i` that is `QUOTE`, `\`, a control
/// character (below 0x20) or, when `DEL`, 0x7F; or `bytes.len()`.
///
/// JSON strings stop at `"`, `\` and controls; TOML's also at DEL, and its literal
/// strings at `'` (a backslash there is plain text, so the caller steps over it).
///
/// The first 16 bytes are tested at once with SSE2 (which every x86_64 CPU has) or NEON
/// (every aarch64 CPU; other targets take two words of eight bytes), inline: JSON keys
/// and most values end there. Past them, 32 bytes at a time with AVX2 where the CPU has
/// it (detected at run time, so a portable build takes it too) or with NEON, else words.
///
/// The first test is straight-line code, not the first pass of the block loop: a loop
/// entered for every string costs short strings more than it saves long ones.
#[inline(always)]
pub fn find_string_special<const QUOTE: u8, const DEL: bool>(bytes: &[u8], mut i: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if let Some(mask) = sse2::special_mask16::<QUOTE, DEL>(bytes, i) {
        if mask != 0 {
            return i + mask.trailing_zeros() as usize;
        }
        return find_string_special_long::<QUOTE, DEL>(bytes, i + 16);
    }
    #[cfg(all(
        target_arch = "aarch64",
        target_feature = "neon",
        target_endian = "little"
    ))]
    if let Some(mask) = neon::special_mask16::<QUOTE, DEL>(bytes, i) {
        if mask != 0 {
            return i + neon::first_flagged(mask);
        }
        return find_string_special_long::<QUOTE, DEL>(bytes, i + 16);
    }
    for _ in 0..2 {
        let Some(chunk) = bytes.get(i..i + 8) else {
            return find_string_special_words::<QUOTE, DEL>(bytes, i);
        };
        let flagged = special_flags::<QUOTE, DEL>(word(chunk));
        if flagged != 0 {
            return i + first_flagged(flagged);
        }
        i += 8;
    }
    find_string_special_long::<QUOTE, DEL>(bytes, i)
}

/// [`find_string_special`] past its first 16 bytes: 32 bytes at a time where the CPU
/// has AVX2 (detected once, then a load and a test) and on aarch64 (NEON), else a word
/// at a time.
#[inline(never)]
fn find_string_special_long<const QUOTE: u8, const DEL: bool>(bytes: &[u8], i: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    if bytes.len() - i >= 32 && std::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 was detected just above.
        #[allow(unsafe_code)]
        return unsafe { avx2::find_string_special::<QUOTE, DEL>(bytes, i) };
    }
    #[cfg(all(
        target_arch = "aarch64",
        target_feature = "neon",
        target_endian = "little"
    ))]
    {
        neon::find_string_special::<QUOTE, DEL>(bytes, i)
    }
    #[cfg(not(all(
        target_arch = "aarch64",
        target_feature = "neon",
        target_endian = "little"
    )))]
    {
        find_string_special_words::<QUOTE, DEL>(bytes, i)
    }
}

/// What [`decode_string_runs`] stops at besides a run: a format's escapes.
pub(crate) trait Escapes {
    /// Decodes the escape at `i` (and any escapes right after it that it takes in the
    /// same step) onto `out` and returns the offset after them; `None` if there is none
    /// at `i` (the closing quote, a control character, the end) or it is malformed, which
    /// ends the string there. Implemented `#[inline(always)]`, so the loop over a
    /// string's runs keeps it inline.
    fn decode(&self, i: usize, out: &mut Vec<u8>) -> Option<usize>;
}

/// Decodes a string's runs onto `out`: appends the bytes from `i` up to the first that
/// [`find_string_special`] stops at (or the end of `bytes`), hands that byte's offset to
/// `escapes`, and goes on from the offset it returns (after an escape it decoded onto
/// `out`) until it returns `None`. Returns the offset it stopped at: the closing quote,
/// or what the caller must explain as an error.
///
/// With AVX2 (detected once a string, at run time) each block of 32 bytes is stored
/// whole past the end of `out`, while it has room for one, and the length cut back to
/// the run: a run costs a load, a
/// test and a store per block instead of a scan and then a copy, and the loop over a
/// string's escapes stays in one function. Without it, a scan and a copy per run.
///
/// Made for strings with escapes, whose runs between escapes are long (escaped-articles:
/// 32 bytes on average); a string without one is borrowed from the input, not copied.
#[inline]
pub(crate) fn decode_string_runs<const QUOTE: u8, const DEL: bool>(
    bytes: &[u8],
    i: usize,
    out: &mut Vec<u8>,
    escapes: &impl Escapes,
) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 was detected just above.
        #[allow(unsafe_code)]
        return unsafe { avx2::decode_string_runs::<QUOTE, DEL>(bytes, i, out, escapes) };
    }
    decode_string_runs_words::<QUOTE, DEL>(bytes, i, out, escapes)
}

/// [`decode_string_runs`] by a scan and then a copy per run.
#[inline(always)]
fn decode_string_runs_words<const QUOTE: u8, const DEL: bool>(
    bytes: &[u8],
    mut i: usize,
    out: &mut Vec<u8>,
    escapes: &impl Escapes,
) -> usize {
    loop {
        i = copy_string_run_words::<QUOTE, DEL>(bytes, i, out);
        match escapes.decode(i, out) {
            Some(next) => i = next,
            None => return i,
        }
    }
}

/// Appends the bytes from `i` up to the first that [`find_string_special`] stops at
/// (or the end) onto `out`; returns that byte's offset. The scan is NEON's on aarch64,
/// a word at a time elsewhere.
#[inline(always)]
fn copy_string_run_words<const QUOTE: u8, const DEL: bool>(
    bytes: &[u8],
    i: usize,
    out: &mut Vec<u8>,
) -> usize {
    #[cfg(all(
        target_arch = "aarch64",
        target_feature = "neon",
        target_endian = "little"
    ))]
    let end = neon::find_string_special::<QUOTE, DEL>(bytes, i).min(bytes.len());
    #[cfg(not(all(
        target_arch = "aarch64",
        target_feature = "neon",
        target_endian = "little"
    )))]
    let end = find_string_special_words::<QUOTE, DEL>(bytes, i).min(bytes.len());
    out.extend_from_slice(&bytes[i.min(end)..end]);
    end
}

/// The flags of the bytes of `w` that [`find_string_special`] stops at.
#[inline(always)]
fn special_flags<const QUOTE: u8, const DEL: bool>(w: u64) -> u64 {
    let mut flagged = bytes_equal(w, QUOTE) | bytes_equal(w, b'\\') | bytes_below(w, 0x20);
    if DEL {
        flagged |= bytes_equal(w, 0x7F);
    }
    flagged
}

/// [`find_string_special`] a word at a time.
#[inline]
fn find_string_special_words<const QUOTE: u8, const DEL: bool>(
    bytes: &[u8],
    mut i: usize,
) -> usize {
    while let Some(chunk) = bytes.get(i..i + 8) {
        let flagged = special_flags::<QUOTE, DEL>(word(chunk));
        if flagged != 0 {
            return i + first_flagged(flagged);
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if b == QUOTE || b == b'\\' || b < 0x20 || (DEL && b == 0x7F) {
            return i;
        }
        i += 1;
    }
    i
}

/// The offset of the first byte at or after `i` that is not a space, or `bytes.len()`:
/// an indentation, counted eight bytes at a time (the trailing zero bytes of a word
/// xor eight spaces).
#[inline]
pub(crate) fn skip_spaces(bytes: &[u8], mut i: usize) -> usize {
    const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);
    while let Some(chunk) = bytes.get(i..i + 8) {
        let other = u64::from_le_bytes(chunk.try_into().expect("eight bytes")) ^ SPACES;
        if other != 0 {
            return i + (other.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while bytes.get(i) == Some(&b' ') {
        i += 1;
    }
    i
}

/// The offset of the first byte at or after `i` that cannot be in a TOML bare key (one
/// of `A-Za-z0-9_-`), or `bytes.len()`: eight bytes at a time, so the key's end costs no
/// mispredicted branch, as a byte loop's exit would on every key. The tail is read as a
/// word padded with zero bytes, which stop it.
#[inline(always)]
pub(crate) fn bare_key_end(bytes: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = bytes.get(i..i + 8) {
        let stops = non_bare_key_flags(word(chunk));
        if stops != 0 {
            return i + first_flagged(stops);
        }
        i += 8;
    }
    let rest = bytes.get(i..).unwrap_or_default();
    let mut tail = [0u8; 8];
    tail[..rest.len()].copy_from_slice(rest);
    (i + first_flagged(non_bare_key_flags(u64::from_le_bytes(tail)))).min(bytes.len())
}

/// The high bit of each byte of `w` that cannot be in a TOML bare key. Exact in every
/// byte: each test runs on the low seven bits, where no sum carries into the next byte.
#[inline(always)]
fn non_bare_key_flags(w: u64) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte of `x` at least `bound` (a 7-bit byte plus at most 0x80
    // stays below 0x100).
    let at_least = |x: u64, bound: u8| x.wrapping_add(LO * u64::from(0x80 - bound)) & HI;
    let x = w & !HI;
    let digit = at_least(x, b'0') & !at_least(x, b'9' + 1);
    let lower = x | (LO * 0x20);
    let letter = at_least(lower, b'a') & !at_least(lower, b'z' + 1);
    // A byte of `x ^ c` is zero exactly when it is `c`; adding 0x7F sets the high bit of
    // every other.
    let equal = |c: u8| !(x ^ (LO * u64::from(c))).wrapping_add(LO * 0x7F) & HI;
    let key = (digit | letter | equal(b'_') | equal(b'-')) & !w;
    !key & HI
}

/// A writer's output as a `String`. Every writer emits only UTF-8 (text comes from
/// `&str`, the rest is ASCII), so this never replaces anything; it is lossy rather than
/// panicking only to keep `unwrap` out of library code.
pub fn utf8_output(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Test support for the scans: every text shorter than `max_len` bytes of one `filler`
/// with at most one of `bytes` at any place in it, checked from every start.
#[cfg(test)]
pub(crate) fn for_each_placement(
    fillers: &[u8],
    bytes: &[u8],
    max_len: usize,
    mut check: impl FnMut(&[u8], usize),
) {
    for len in 0..max_len {
        for &filler in fillers {
            for at in (0..len).chain([usize::MAX]) {
                for &byte in bytes {
                    let mut text = vec![filler; len];
                    if at < len {
                        text[at] = byte;
                    }
                    for start in 0..=len {
                        check(&text, start);
                    }
                }
            }
        }
    }
}
