//! Byte scanning shared by the formats' string lexers and writers.

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

/// Sixteen bytes at once with SSE2, which every x86_64 CPU has.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[allow(unsafe_code)]
mod sse2 {
    use std::arch::x86_64::*;

    /// One bit for each of the 16 bytes from `i` that [`super::find_string_special`]
    /// stops at; `None` when fewer than 16 are left.
    #[inline(always)]
    pub(super) fn special_mask16<const QUOTE: u8, const DEL: bool>(
        bytes: &[u8],
        i: usize,
    ) -> Option<u32> {
        let chunk: &[u8; 16] = bytes.get(i..i.checked_add(16)?)?.try_into().ok()?;
        // SAFETY: `chunk` is 16 readable bytes (the load is unaligned), and SSE2 is
        // enabled at compile time (the module's `cfg`).
        unsafe {
            let block = _mm_loadu_si128(chunk.as_ptr().cast());
            let mut hits = _mm_or_si128(
                _mm_or_si128(
                    _mm_cmpeq_epi8(block, _mm_set1_epi8(QUOTE as i8)),
                    _mm_cmpeq_epi8(block, _mm_set1_epi8(b'\\' as i8)),
                ),
                // A control byte is one that the unsigned minimum with 0x1F leaves as it is.
                _mm_cmpeq_epi8(_mm_min_epu8(block, _mm_set1_epi8(0x1F)), block),
            );
            if DEL {
                hits = _mm_or_si128(hits, _mm_cmpeq_epi8(block, _mm_set1_epi8(0x7F)));
            }
            Some(_mm_movemask_epi8(hits) as u32)
        }
    }

    /// How many ASCII digits lead the 16 bytes from `i`, and their value; `None` when
    /// fewer than 16 bytes are left. See [`super::fold_digits16`].
    #[inline(always)]
    pub(super) fn leading_digits16(bytes: &[u8], i: usize) -> Option<(usize, u64)> {
        /// Sixteen bytes of all ones, then sixteen of zeros: the sixteen from `16 - n`
        /// keep the first `n` lanes of a block and clear the rest.
        static KEEP: [u8; 32] = {
            let mut keep = [0; 32];
            let mut k = 0;
            while k < 16 {
                keep[k] = 0xFF;
                k += 1;
            }
            keep
        };
        let chunk: &[u8; 16] = bytes.get(i..i.checked_add(16)?)?.try_into().ok()?;
        // SAFETY: `chunk` is 16 readable bytes (the load is unaligned), and so are the
        // 16 bytes of `KEEP` from `16 - n`, as `n` is at most 16 (the mask's bits above
        // the sixteenth are clear, so its complement's are set). SSE2 is enabled at
        // compile time (the module's `cfg`).
        let (whole, n) = unsafe {
            let digits = _mm_sub_epi8(
                _mm_loadu_si128(chunk.as_ptr().cast()),
                _mm_set1_epi8(b'0' as i8),
            );
            // A digit is a byte that the unsigned minimum with 9 leaves as it is.
            let is_digit = _mm_cmpeq_epi8(_mm_min_epu8(digits, _mm_set1_epi8(9)), digits);
            let n = (!(_mm_movemask_epi8(is_digit) as u32)).trailing_zeros() as usize;
            let digits = _mm_and_si128(digits, _mm_loadu_si128(KEEP.as_ptr().add(16 - n).cast()));
            // Pairs of digits (x10: SSSE3's `pmaddubsw` would do it in one step, but a
            // choice made at compile time would leave the tests, built for any x86_64,
            // checking the other), then pairs of those (x100) as 32-bit lanes, packed to 16
            // bits again and paired (x10000): two lanes of eight digits each.
            let pairs = _mm_add_epi16(
                _mm_mullo_epi16(
                    _mm_and_si128(digits, _mm_set1_epi16(0xFF)),
                    _mm_set1_epi16(10),
                ),
                _mm_srli_epi16(digits, 8),
            );
            let quads = _mm_madd_epi16(pairs, _mm_set1_epi32(0x0001_0064));
            let eights = _mm_madd_epi16(_mm_packs_epi32(quads, quads), _mm_set1_epi32(0x0001_2710));
            let eights = _mm_cvtsi128_si64(eights) as u64;
            ((eights & 0xFFFF_FFFF) * 100_000_000 + (eights >> 32), n)
        };
        // The cleared lanes were zeros after the digits: `whole` is their value times
        // 10^s = 2^s 5^s. Shifted down by `s`, then multiplied by 5^-s modulo 2^64, it
        // divides exactly.
        let s = 16 - n;
        Some((n, (whole >> s).wrapping_mul(super::INVERSE_POW5[s])))
    }
}

// NEON-BEGIN (formats/tests/aarch64/run.sh compiles from here to NEON-END alone for
// aarch64, with Debian's rustc, and runs it under qemu against a naive scan.)
/// Sixteen bytes at once with NEON, which every aarch64 CPU has: a string's first
/// sixteen, then 32 at a time.
#[cfg(all(
    target_arch = "aarch64",
    target_feature = "neon",
    target_endian = "little"
))]
#[allow(unsafe_code)]
mod neon {
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
}
// NEON-END

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2 {
    use std::arch::x86_64::*;

    /// One bit for each of the 32 bytes of `block` that [`super::find_string_special`]
    /// stops at.
    ///
    /// # Safety
    /// The CPU must have AVX2; called from AVX2 functions only, which it is inlined into.
    #[inline(always)]
    unsafe fn block_mask<const QUOTE: u8, const DEL: bool>(block: __m256i) -> u32 {
        let quote = _mm256_set1_epi8(QUOTE as i8);
        let backslash = _mm256_set1_epi8(b'\\' as i8);
        // A control byte is one that the unsigned minimum with 0x1F leaves unchanged.
        let below = _mm256_set1_epi8(0x1F);
        let mut hits = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_cmpeq_epi8(block, quote),
                _mm256_cmpeq_epi8(block, backslash),
            ),
            _mm256_cmpeq_epi8(_mm256_min_epu8(block, below), block),
        );
        if DEL {
            hits = _mm256_or_si256(hits, _mm256_cmpeq_epi8(block, _mm256_set1_epi8(0x7F)));
        }
        _mm256_movemask_epi8(hits) as u32
    }

    /// [`block_mask`] of the 32 bytes from `i`.
    ///
    /// # Safety
    /// As [`block_mask`], and the 32 bytes from `i` must be in `bytes`.
    #[inline(always)]
    unsafe fn special_mask<const QUOTE: u8, const DEL: bool>(bytes: &[u8], i: usize) -> u32 {
        // SAFETY: the caller's.
        unsafe { block_mask::<QUOTE, DEL>(_mm256_loadu_si256(bytes.as_ptr().add(i).cast())) }
    }

    /// [`super::find_string_special`] 32 bytes at a time.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn find_string_special<const QUOTE: u8, const DEL: bool>(
        bytes: &[u8],
        mut i: usize,
    ) -> usize {
        while i + 32 <= bytes.len() {
            // SAFETY: the 32 bytes from `i` are in `bytes` (checked by the loop); the
            // caller has AVX2.
            let mask = unsafe { special_mask::<QUOTE, DEL>(bytes, i) };
            if mask != 0 {
                return i + mask.trailing_zeros() as usize;
            }
            i += 32;
        }
        super::find_string_special_words::<QUOTE, DEL>(bytes, i)
    }

    /// [`super::decode_string_runs`] 32 bytes at a time.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn decode_string_runs<const QUOTE: u8, const DEL: bool>(
        bytes: &[u8],
        mut i: usize,
        out: &mut Vec<u8>,
        escapes: &impl super::Escapes,
    ) -> usize {
        loop {
            // SAFETY: the caller has AVX2.
            i = unsafe { copy_string_run::<QUOTE, DEL>(bytes, i, out) };
            match escapes.decode(i, out) {
                Some(next) => i = next,
                None => return i,
            }
        }
    }

    /// Appends the bytes from `i` up to the first that [`super::find_string_special`]
    /// stops at onto `out`, 32 at a time: each block is stored whole past the end of
    /// `out` and the length moved up to the first special byte in it. Returns that
    /// byte's offset.
    ///
    /// # Safety
    /// The CPU must have AVX2. Called from an AVX2 function only, which it is inlined
    /// into (its intrinsics then compile to instructions, not calls).
    #[inline(always)]
    unsafe fn copy_string_run<const QUOTE: u8, const DEL: bool>(
        bytes: &[u8],
        mut i: usize,
        out: &mut Vec<u8>,
    ) -> usize {
        // Blocks only while `out` has room for one: growing it for a block's slack would
        // grow it sooner and further than the bytes need (an allocation more, now and
        // then); the words push exactly the run.
        while i + 32 <= bytes.len() && out.capacity() - out.len() >= 32 {
            // SAFETY: the 32 bytes from `i` are in `bytes` (checked by the loop); the
            // caller has AVX2.
            let block = unsafe { _mm256_loadu_si256(bytes.as_ptr().add(i).cast()) };
            let mask = unsafe { block_mask::<QUOTE, DEL>(block) };
            let take = if mask == 0 {
                32
            } else {
                mask.trailing_zeros() as usize
            };
            // SAFETY: the loop checked there is room for 32 more bytes past `out.len()`,
            // which the unaligned store fills; the length then grows by `take` <= 32 of
            // them, all written. `out` is bytes, so no invariant holds on what they are.
            unsafe {
                let len = out.len();
                _mm256_storeu_si256(out.as_mut_ptr().add(len).cast(), block);
                out.set_len(len + take);
            }
            if mask != 0 {
                return i + take;
            }
            i += 32;
        }
        super::copy_string_run_words::<QUOTE, DEL>(bytes, i, out)
    }
}

/// `10^n` for the `n` digits (0 to 16) a step of [`fold_digits16`] folds at once.
#[cfg_attr(
    not(all(target_arch = "x86_64", target_feature = "sse2")),
    allow(dead_code)
)]
const POW10_16: [u64; 17] = {
    let mut pow = [1; 17];
    let mut n = 1;
    while n < 17 {
        pow[n] = pow[n - 1] * 10;
        n += 1;
    }
    pow
};

/// The inverse of `5^s` modulo 2^64, for `s` from 0 to 16: multiplying a multiple of
/// `5^s` by it divides exactly.
#[cfg_attr(
    not(all(target_arch = "x86_64", target_feature = "sse2")),
    allow(dead_code)
)]
const INVERSE_POW5: [u64; 17] = {
    // Newton's iteration for the inverse of 5: correct to 3 bits at the start (5 * 5 =
    // 1 mod 8), twice as many each step.
    let mut inverse: u64 = 5;
    let mut step = 0;
    while step < 5 {
        inverse = inverse.wrapping_mul(2u64.wrapping_sub(5u64.wrapping_mul(inverse)));
        step += 1;
    }
    let mut pow = [1u64; 17];
    let mut s = 1;
    while s < 17 {
        pow[s] = pow[s - 1].wrapping_mul(inverse);
        s += 1;
    }
    pow
};

/// `10^n` for the `n` digits (0 to 8) a step folds at once.
const POW10: [u64; 9] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
];

/// The integer part of a number at `i`, `-?` then digits without a leading zero, 15
/// bytes at most, read from the sixteen bytes at `i`, with the byte after it inside them.
///
/// Both words are loaded at once, and the sign only selects between them: where a
/// scan reads the sign, then the digits after it, then the byte after those, a list of
/// integers waited on three loads in a row per number.
///
/// `None` when fewer than sixteen bytes are left, when the digits and the byte after
/// them do not fit in them, for a leading zero and for `-0`: the caller scans the
/// general way (which also reports errors).
#[inline(always)]
pub(crate) fn window_integer(bytes: &[u8], i: usize) -> Option<WindowInteger> {
    let window: &[u8; 16] = bytes.get(i..i.checked_add(16)?)?.try_into().ok()?;
    let (lo, hi) = window.split_at(8);
    let lo = u64::from_le_bytes(lo.try_into().ok()?);
    let hi = u64::from_le_bytes(hi.try_into().ok()?);
    let negative = lo as u8 == b'-';
    // The digits, past the sign; the byte shifted in at the top is no digit.
    let (d0, d1) = if negative {
        ((lo >> 8) | (hi << 56), (hi >> 8) | (0xFF << 56))
    } else {
        (lo, hi)
    };
    let digits = match non_digits(d0) {
        0 => 8 + non_digits(d1).trailing_zeros() / 8,
        mask => mask.trailing_zeros() / 8,
    } as usize;
    let len = usize::from(negative) + digits;
    if digits == 0 || len > 15 || (d0 as u8 == b'0' && (digits > 1 || negative)) {
        return None;
    }
    Some(WindowInteger {
        words: (d0, d1),
        digits,
        negative,
        after: window[len],
    })
}

/// The integer part [`window_integer`] read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WindowInteger {
    /// The sixteen bytes from its first digit on.
    words: (u64, u64),
    /// How many digits it has (1 to 15).
    pub digits: usize,
    /// Whether a `-` came first.
    pub negative: bool,
    /// The byte after the digits.
    pub after: u8,
}

impl WindowInteger {
    /// The length of the sign and the digits, in bytes.
    #[inline(always)]
    pub fn len(&self) -> usize {
        usize::from(self.negative) + self.digits
    }

    /// Its value without the sign (below 10^15).
    #[inline(always)]
    pub fn magnitude(&self) -> u64 {
        let (d0, d1) = self.words;
        if self.digits <= 8 {
            leading_digits_value(d0, self.digits)
        } else {
            eight_digits_value(d0.to_le_bytes()) * POW10[self.digits - 8]
                + leading_digits_value(d1, self.digits - 8)
        }
    }

    /// [`WindowInteger::magnitude`] for the integer part of a decimal, which is usually
    /// one digit (`0.5`, `-3.25`): that digit is its value, where the fold shifts it to
    /// the top of a word of `0`s and multiplies three times. Integers keep the plain fold,
    /// which a branch on one digit only slows.
    #[inline(always)]
    pub fn decimal_magnitude(&self) -> u64 {
        if self.digits == 1 {
            self.words.0 & 0xF
        } else {
            self.magnitude()
        }
    }
}

/// A plain integer at `i`: [`window_integer`] when the byte after it is none of `.`,
/// `e`, `E` (then it is a float's integer part), with its value and length in bytes.
#[inline(always)]
pub(crate) fn plain_integer(bytes: &[u8], i: usize) -> Option<(i64, usize)> {
    let int = window_integer(bytes, i)?;
    if matches!(int.after, b'.' | b'e' | b'E') {
        return None;
    }
    let value = int.magnitude() as i64;
    Some((if int.negative { -value } else { value }, int.len()))
}

/// The high bit of each byte of `word` that is not an ASCII digit, and perhaps of
/// bytes after the first such: the first one flagged is always right.
#[inline(always)]
fn non_digits(word: u64) -> u64 {
    let x = word ^ 0x3030_3030_3030_3030;
    // A byte is a digit exactly when its `x` is below 10: then adding 0x76 leaves the
    // high bit clear, and so does `x` itself. (A carry out of a non-digit byte can only
    // flag bytes after it, never the first one flagged.)
    (x.wrapping_add(0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
}

/// The value of the first `digits` (1 to 8) bytes of `word`, all ASCII digits: they are
/// moved to the top of a word of `0`s.
#[inline(always)]
fn leading_digits_value(word: u64, digits: usize) -> u64 {
    // The `0`s fill the low `8 - digits` bytes: `0x30` bytes shifted down by `digits`,
    // written as one byte fewer shifted by `digits - 1` so that eight digits shift by 56.
    let word = (word << (8 * (8 - digits))) | (0x0030_3030_3030_3030 >> (8 * (digits - 1)));
    eight_digits_value(word.to_le_bytes())
}

/// Skips the digits at `i`, folding them into `value` (wrapping past 19 digits);
/// returns the offset of the first non-digit and the folded value.
///
/// Eight bytes at a time: a full word of digits folds in one step, and a word where
/// the digits end folds its leading digits in one step too (shifted to the top of a
/// word of `0`s), so a number of up to eight digits takes one step.
#[inline]
pub(crate) fn fold_digits(bytes: &[u8], mut i: usize, mut value: u64) -> (usize, u64) {
    while let Some(chunk) = bytes
        .get(i..i + 8)
        .and_then(|c| <[u8; 8]>::try_from(c).ok())
    {
        let digits = leading_digits(chunk);
        if digits == 8 {
            value = value
                .wrapping_mul(100_000_000)
                .wrapping_add(eight_digits_value(chunk));
            i += 8;
            continue;
        }
        if digits > 0 {
            value = value
                .wrapping_mul(POW10[digits])
                .wrapping_add(leading_digits_value(u64::from_le_bytes(chunk), digits));
        }
        return (i + digits, value);
    }
    while let Some(&b @ b'0'..=b'9') = bytes.get(i) {
        value = value.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
        i += 1;
    }
    (i, value)
}

/// [`fold_digits`] that folds up to sixteen digits in one step where SSE2 is there
/// (every x86_64 CPU): a float's fraction, which in real data often has fifteen to
/// seventeen digits, where the word-at-a-time fold takes two or three steps and a
/// step to find the end. At the end of the input, and on other CPUs, it is
/// [`fold_digits`].
#[inline(always)]
pub(crate) fn fold_digits16(bytes: &[u8], i: usize, value: u64) -> (usize, u64) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if let Some((digits, folded)) = sse2::leading_digits16(bytes, i) {
        let value = value.wrapping_mul(POW10_16[digits]).wrapping_add(folded);
        if digits < 16 {
            return (i + digits, value);
        }
        return fold_digits(bytes, i + 16, value);
    }
    fold_digits(bytes, i, value)
}

/// Whether twenty digits, the first not `0`, spell a number below 2^64: compared with
/// `u64::MAX`'s digits as three big-endian integers, which order as the bytes do.
#[inline]
pub(crate) fn twenty_digits_fit_u64(digits: &[u8; 20]) -> bool {
    let key = |d: &[u8; 20]| {
        let word = |at: usize| u64::from_be_bytes(d[at..at + 8].try_into().expect("eight bytes"));
        (
            word(0),
            word(8),
            u32::from_be_bytes([d[16], d[17], d[18], d[19]]),
        )
    };
    key(digits) <= key(b"18446744073709551615")
}

/// The value of `digits` (all ASCII digits, leading zeros allowed) when it fits `u64`:
/// up to nineteen significant digits fold exactly, and a twentieth is checked on, so
/// long ids never take the slower `str` parse.
pub(crate) fn digits_value(digits: &[u8]) -> Option<u64> {
    let first = digits
        .iter()
        .position(|&b| b != b'0')
        .unwrap_or(digits.len());
    let digits = &digits[first..];
    match digits.len() {
        0..=19 => Some(fold_digits(digits, 0, 0).1),
        // Below 2^64 the wrapping fold is exact.
        20 => twenty_digits_fit_u64(digits.try_into().ok()?).then(|| fold_digits(digits, 0, 0).1),
        _ => None,
    }
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

/// How many of the eight bytes, from the first, are ASCII digits.
#[inline]
pub(crate) fn leading_digits(chunk: [u8; 8]) -> usize {
    (non_digits(u64::from_le_bytes(chunk)).trailing_zeros() / 8) as usize
}

/// The value of exactly eight ASCII digits, combined pairwise in one register:
/// digits to pairs (x10), pairs to quads (x100), quads to the whole (x10000).
#[inline]
pub(crate) fn eight_digits_value(chunk: [u8; 8]) -> u64 {
    let v = u64::from_le_bytes(chunk).wrapping_sub(0x3030_3030_3030_3030);
    let v = (v.wrapping_mul(10) + (v >> 8)) & 0x00FF_00FF_00FF_00FF;
    let v = (v.wrapping_mul(100) + (v >> 16)) & 0x0000_FFFF_0000_FFFF;
    v.wrapping_mul(10_000).wrapping_add(v >> 32) & 0xFFFF_FFFF
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast integer path takes every plain integer of up to 15 digits with room for
    /// the byte after it, from every offset, and leaves the rest to the general scan.
    #[test]
    fn plain_integers_are_read_in_one_step() {
        let pad = "                ";
        for digits in 1..=16usize {
            for negative in [false, true] {
                let magnitude: u64 = "987654321098765432"[..digits].parse().unwrap();
                let number = if negative {
                    format!("-{magnitude}")
                } else {
                    magnitude.to_string()
                };
                for lead in 0..3 {
                    let text = format!("{}{number},{pad}", " ".repeat(lead));
                    let read = plain_integer(text.as_bytes(), lead);
                    if number.len() < 16 {
                        let value = i64::try_from(magnitude).unwrap();
                        let value = if negative { -value } else { value };
                        assert_eq!(read, Some((value, number.len())), "{text:?}");
                    } else {
                        assert_eq!(read, None, "{text:?}");
                    }
                }
            }
        }
        for text in ["0,", "-0,", "01,", "1.5", "1e5", "2E5", "-", "-x", "x", ","] {
            let text = format!("{text}{pad}");
            let expected = (text.starts_with("0,")).then_some((0, 1));
            assert_eq!(plain_integer(text.as_bytes(), 0), expected, "{text:?}");
        }
        // Fewer than sixteen bytes left.
        assert_eq!(plain_integer(b"12345,         ", 0), None);
    }

    /// Every length to 40 (each load size and the memcmp beyond), equal and with one
    /// byte changed at each place.
    #[test]
    fn same_bytes_is_slice_equality() {
        for n in 0..=40usize {
            let a: Vec<u8> = (0..n as u8).map(|i| b'a' + i % 26).collect();
            assert!(same_bytes(&a, &a.clone()), "{n}");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!same_bytes(&a, &b), "{n} {at}");
            }
            let mut longer = a.clone();
            longer.push(b'z');
            assert!(!same_bytes(&a, &longer) && !same_bytes(&longer, &a), "{n}");
        }
    }

    /// The words and a byte loop agree: every start and length up to 70 bytes (every
    /// alignment and word boundary), with each kind of stopping byte at each place, and
    /// with no stopping byte at all.
    #[test]
    fn every_path_of_the_string_scan_stops_where_a_byte_loop_stops() {
        fn naive(bytes: &[u8], i: usize, quote: u8, del: bool) -> usize {
            (i..bytes.len())
                .find(|&j| {
                    let b = bytes[j];
                    b == quote || b == b'\\' || b < 0x20 || (del && b == 0x7F)
                })
                .unwrap_or(bytes.len())
        }
        let fillers = [b'a', 0x80, 0xFF, 0x20, 0x7E, b'\''];
        let stops = [b'"', b'\\', 0x00, 0x1F, 0x7F, b'\'', 0x20];
        for_each_placement(&fillers, &stops, 70, |bytes, start| {
            assert_eq!(
                find_string_special::<b'"', false>(bytes, start),
                naive(bytes, start, b'"', false),
                "{bytes:?} from {start}"
            );
            assert_eq!(
                find_string_special::<b'\'', true>(bytes, start),
                naive(bytes, start, b'\'', true),
                "{bytes:?} from {start}"
            );
        });
    }

    /// Every byte value, at every place of every length to 20 and from every start, stops
    /// a bare key's scan exactly where a byte loop over `A-Za-z0-9_-` stops.
    #[test]
    fn bare_key_end_stops_where_a_byte_loop_stops() {
        let naive = |bytes: &[u8], i: usize| {
            (i..bytes.len())
                .find(|&j| !(bytes[j].is_ascii_alphanumeric() || matches!(bytes[j], b'_' | b'-')))
                .unwrap_or(bytes.len())
        };
        for stop in 0..=255u8 {
            for len in 0..=20usize {
                for at in 0..=len {
                    let mut bytes: Vec<u8> = (0..len).map(|k| b"aZ09_-zA"[k % 8]).collect();
                    if at < len {
                        bytes[at] = stop;
                    }
                    for start in 0..=len {
                        assert_eq!(
                            bare_key_end(&bytes, start),
                            naive(&bytes, start),
                            "{bytes:?} from {start}"
                        );
                    }
                }
            }
        }
    }

    /// Every run of 0 to 20 spaces, from every start in it, ended by each kind of byte
    /// (or by the end): the word count stops where a byte loop stops.
    #[test]
    fn skip_spaces_stops_at_the_first_other_byte() {
        for len in 0..=20 {
            for end in [
                None,
                Some(b'\n'),
                Some(b'\t'),
                Some(b'"'),
                Some(0x80),
                Some(0),
            ] {
                let mut bytes = vec![b' '; len];
                bytes.extend(end);
                bytes.extend_from_slice(b"   x");
                let first_other = bytes.iter().position(|&b| b != b' ').unwrap();
                for start in 0..=len {
                    assert_eq!(
                        skip_spaces(&bytes, start),
                        first_other,
                        "{bytes:?} from {start}"
                    );
                }
                let all = vec![b' '; len];
                assert_eq!(skip_spaces(&all, 0), len);
            }
        }
    }

    /// The first byte at or after `start` that a string scan stops at, byte by byte.
    fn naive_special(bytes: &[u8], start: usize, quote: u8, del: bool) -> usize {
        bytes[start..]
            .iter()
            .position(|&b| b == quote || b == b'\\' || b < 0x20 || (del && b == 0x7F))
            .map_or(bytes.len(), |p| start + p)
    }

    /// [`plain`] bytes with `stops` (place, byte) strewn in, those past `len` left out.
    fn strewn(len: usize, stops: &[(usize, u8)]) -> Vec<u8> {
        let mut bytes = plain(len);
        for &(at, stop) in stops {
            if at < len {
                bytes[at] = stop;
            }
        }
        bytes
    }

    /// Bytes no scan stops at (for either quote), high bytes and the edges of the ranges
    /// among them, cycled to `len`.
    fn plain(len: usize) -> Vec<u8> {
        const PLAIN: [u8; 9] = [b'a', 0x20, 0x21, 0x7E, 0x80, 0xFF, 0xC3, b'&', b'0'];
        (0..len).map(|i| PLAIN[i % PLAIN.len()]).collect()
    }

    /// Every stop byte at every place of runs up to 130 bytes (four 32-byte blocks and
    /// their edges), from starts at every alignment that matters, against the naive
    /// scan: the block path (where the CPU has it) and the word path agree with it.
    #[test]
    fn block_and_word_scans_find_every_stop_at_every_place() {
        each_stop_at_each_place(&[0, 1, 7, 8, 15, 16, 17, 31, 32, 33], |bytes, start| {
            let want = naive_special(&bytes, start, b'"', false);
            assert_eq!(find_string_special::<b'"', false>(&bytes, start), want);
            assert_eq!(
                find_string_special_words::<b'"', false>(&bytes, start),
                want
            );
            let want = naive_special(&bytes, start, b'\'', true);
            assert_eq!(find_string_special::<b'\'', true>(&bytes, start), want);
            assert_eq!(
                find_string_special_words::<b'\'', true>(&bytes, start),
                want
            );
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") && bytes.len() - start >= 32 {
                // SAFETY: AVX2 was detected.
                #[allow(unsafe_code)]
                let found = unsafe { avx2::find_string_special::<b'"', false>(&bytes, start) };
                assert_eq!(found, naive_special(&bytes, start, b'"', false));
            }
            #[cfg(all(
                target_arch = "aarch64",
                target_feature = "neon",
                target_endian = "little"
            ))]
            {
                let found = neon::find_string_special::<b'\'', true>(&bytes, start);
                assert_eq!(found, naive_special(&bytes, start, b'\'', true));
            }
        });
    }

    /// NEON's 16-byte test flags exactly the nibbles of the stop bytes of a window, at
    /// every start near the end of the input.
    #[cfg(all(
        target_arch = "aarch64",
        target_feature = "neon",
        target_endian = "little"
    ))]
    #[test]
    fn neon_sixteen_byte_masks_flag_exactly_the_stops() {
        masks_flag_exactly_the_stops(4, |bytes, start, toml_literal| {
            if toml_literal {
                neon::special_mask16::<b'\'', true>(bytes, start)
            } else {
                neon::special_mask16::<b'"', false>(bytes, start)
            }
        });
    }

    /// The 16-byte test finds every stop byte at every place of a window, and nothing
    /// else, at every start near the end of the input.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[test]
    fn sixteen_byte_masks_flag_exactly_the_stops() {
        masks_flag_exactly_the_stops(1, |bytes, start, toml_literal| {
            if toml_literal {
                sse2::special_mask16::<b'\'', true>(bytes, start).map(u64::from)
            } else {
                sse2::special_mask16::<b'"', false>(bytes, start).map(u64::from)
            }
        });
    }

    /// A 16-byte test, `mask` (of the window of `bytes` from `start`, for a TOML literal
    /// string or else a JSON string), sets the `bits` bits of each stop byte of the window
    /// and no others, at every start near the end of the input.
    #[allow(dead_code)]
    fn masks_flag_exactly_the_stops(bits: u32, mask: impl Fn(&[u8], usize, bool) -> Option<u64>) {
        let byte_flag = (1u64 << bits) - 1;
        each_stop_at_each_place(&[0, 1, 7, 8, 15, 16, 17], |bytes, start| {
            for (quote, del) in [(b'"', false), (b'\'', true)] {
                let got = mask(&bytes, start, del);
                if bytes.len() - start < 16 {
                    assert_eq!(got, None);
                    continue;
                }
                let want = (0..16)
                    .filter(|&k| naive_special(&bytes, start + k, quote, del) == start + k)
                    .fold(0u64, |mask, k| mask | byte_flag << (bits * k as u32));
                assert_eq!(got, Some(want), "{bytes:?} from {start}");
            }
        });
    }

    /// Runs of every length to 130 bytes (four 32-byte blocks and their edges), with no
    /// stop byte or one of each kind at each place, from each of `starts` (within the
    /// run): `check` gets the run and the start.
    fn each_stop_at_each_place(starts: &[usize], mut check: impl FnMut(Vec<u8>, usize)) {
        let stops = [b'"', b'\\', 0x00, 0x1F, 0x7F, b'\''];
        for len in 0..=130 {
            for &start in starts.iter().filter(|&&start| start <= len) {
                for at in (start..len).map(Some).chain([None]) {
                    for stop in stops {
                        let mut bytes = plain(len);
                        if let Some(at) = at {
                            bytes[at] = stop;
                        }
                        check(bytes, start);
                    }
                }
            }
        }
    }

    /// A naive [`decode_string_runs`] with the test's escape rule: a backslash and the
    /// byte after it become that byte, doubled; the quote ends the string; anything
    /// else that stops the scan is an error (its offset).
    fn naive_decode(
        bytes: &[u8],
        mut i: usize,
        quote: u8,
        del: bool,
    ) -> (Vec<u8>, Result<usize, usize>) {
        let mut out = Vec::new();
        loop {
            let stop = naive_special(bytes, i, quote, del);
            out.extend_from_slice(&bytes[i..stop]);
            match bytes.get(stop) {
                Some(&b) if b == quote => return (out, Ok(stop)),
                Some(b'\\') if stop + 1 < bytes.len() => {
                    out.extend_from_slice(&[bytes[stop + 1]; 2]);
                    i = stop + 2;
                }
                _ => return (out, Err(stop)),
            }
        }
    }

    /// Both paths of [`decode_string_runs`] (AVX2 where the CPU has it, and words) with
    /// the escape rule of [`naive_decode`]: the bytes decoded, and where it ended.
    fn decode_both(
        bytes: &[u8],
        i: usize,
        quote: u8,
        del: bool,
    ) -> [(Vec<u8>, Result<usize, usize>); 3] {
        /// The test's escapes: a backslash and the byte after it, that byte doubled.
        struct Doubled<'a>(&'a [u8]);
        impl Escapes for Doubled<'_> {
            fn decode(&self, i: usize, out: &mut Vec<u8>) -> Option<usize> {
                match self.0.get(i) {
                    Some(b'\\') if i + 1 < self.0.len() => {
                        out.extend_from_slice(&[self.0[i + 1]; 2]);
                        Some(i + 2)
                    }
                    _ => None,
                }
            }
        }
        let special = &Doubled(bytes);
        let ended = |end: usize| match bytes.get(end) {
            Some(&b) if b == quote => Ok(end),
            _ => Err(end),
        };
        // The block path with room for blocks from the start, the block path growing
        // its output from a tight one, and the words.
        let mut roomy = Vec::with_capacity(1024);
        roomy.extend_from_slice(b"kept");
        let mut outs = [roomy, b"kept".to_vec(), b"kept".to_vec()];
        let [roomy, tight, words] = &mut outs;
        let ends = match (quote, del) {
            (b'"', false) => [
                ended(decode_string_runs::<b'"', false>(bytes, i, roomy, special)),
                ended(decode_string_runs::<b'"', false>(bytes, i, tight, special)),
                ended(decode_string_runs_words::<b'"', false>(
                    bytes, i, words, special,
                )),
            ],
            _ => [
                ended(decode_string_runs::<b'\'', true>(bytes, i, roomy, special)),
                ended(decode_string_runs::<b'\'', true>(bytes, i, tight, special)),
                ended(decode_string_runs_words::<b'\'', true>(
                    bytes, i, words, special,
                )),
            ],
        };
        let mut results = ends.map(|end| (Vec::new(), end));
        for (result, out) in results.iter_mut().zip(&outs) {
            assert_eq!(&out[..4], b"kept");
            result.0 = out[4..].to_vec();
        }
        results
    }

    /// Every length to 130 (every block boundary and tail), from several starts, with a
    /// quote, an escape or another stop byte at every place.
    #[test]
    fn string_runs_decode_like_a_naive_loop_at_every_place() {
        each_stop_at_each_place(&[0, 1, 7, 8, 31, 32, 33], |mut bytes, start| {
            // A quote to end it, past an escape one time in two.
            if bytes.len() % 2 == 0 {
                bytes.extend_from_slice(b"\\\"ab\"");
            } else {
                bytes.extend_from_slice(b"'\"");
            }
            for (quote, del) in [(b'"', false), (b'\'', true)] {
                let want = naive_decode(&bytes, start, quote, del);
                for got in decode_both(&bytes, start, quote, del) {
                    assert_eq!(got, want, "{bytes:?} from {start}");
                }
            }
        });
    }

    /// Every run of 0 to 40 digits, ended by each byte next to the digits in ASCII, a
    /// byte with the high bit set (then more digits) or the end of the input, from every
    /// offset in a block: the sixteen-digit fold gives what a naive loop gives.
    #[test]
    fn sixteen_digit_folds_end_where_a_naive_loop_does() {
        for len in 0..=40 {
            for stop in [
                None,
                Some(b'/'),
                Some(b':'),
                Some(b'.'),
                Some(0xB0),
                Some(0x00),
            ] {
                for pad in 0..16 {
                    let mut bytes = vec![b'9'; pad];
                    bytes.extend((0..len).map(|k| b'0' + (k * 7 % 10) as u8));
                    if let Some(stop) = stop {
                        // Digits past the stop, inside the block, must not count.
                        bytes.push(stop);
                        bytes.extend_from_slice(b"7777777777777777");
                    }
                    let naive = bytes[pad..pad + len].iter().fold(3u64, |m, &d| {
                        m.wrapping_mul(10).wrapping_add(u64::from(d - b'0'))
                    });
                    assert_eq!(
                        fold_digits16(&bytes, pad, 3),
                        (pad + len, naive),
                        "{len} digits then {stop:?} from {pad}"
                    );
                }
            }
        }
    }

    proptest::proptest! {
        /// Long runs with escapes, quotes and other stop bytes strewn in, ending
        /// anywhere: both paths decode as a naive loop does.
        #[test]
        fn string_runs_decode_like_a_naive_loop(
            len in 0usize..400,
            stops in proptest::collection::vec((0usize..400, proptest::sample::select(vec![b'"', b'\\', 0u8, 0x1F, 0x7F, b'\'', 0xC3])), 0..8),
            start in 0usize..70,
        ) {
            let bytes = strewn(len, &stops);
            let start = start.min(len);
            for (quote, del) in [(b'"', false), (b'\'', true)] {
                let want = naive_decode(&bytes, start, quote, del);
                for got in decode_both(&bytes, start, quote, del) {
                    proptest::prop_assert_eq!(got, want.clone());
                }
            }
        }

        /// Long plain runs with a few stop bytes strewn in, at any start: the block path
        /// is taken (random bytes stop within a few bytes, so it rarely is).
        #[test]
        fn long_runs_scan_like_a_naive_search(
            len in 0usize..300,
            stops in proptest::collection::vec((0usize..300, proptest::sample::select(vec![b'"', b'\\', 0u8, 0x1F, 0x7F, b'\''])), 0..4),
            start in 0usize..70,
        ) {
            let bytes = strewn(len, &stops);
            let start = start.min(len);
            proptest::prop_assert_eq!(find_string_special::<b'"', false>(&bytes, start), naive_special(&bytes, start, b'"', false));
            proptest::prop_assert_eq!(find_string_special::<b'\'', true>(&bytes, start), naive_special(&bytes, start, b'\'', true));
        }

        #[test]
        fn matches_a_naive_search(bytes: Vec<u8>, start in 0usize..64) {
            let start = start.min(bytes.len());
            let naive = |quote: u8, del: bool| {
                bytes[start..]
                    .iter()
                    .position(|&b| b == quote || b == b'\\' || b < 0x20 || (del && b == 0x7F))
                    .map_or(bytes.len(), |p| start + p)
            };
            proptest::prop_assert_eq!(find_string_special::<b'"', false>(&bytes, start), naive(b'"', false));
            proptest::prop_assert_eq!(find_string_special::<b'\'', true>(&bytes, start), naive(b'\'', true));
        }

        #[test]
        fn digit_runs_fold_like_a_naive_loop(text in "[0-9]{0,30}[a.]?[0-9]{0,3}", start in 0u64..10) {
            let bytes = text.as_bytes();
            let end = bytes.iter().position(|b| !b.is_ascii_digit()).unwrap_or(bytes.len());
            let naive = bytes[..end].iter().fold(start, |m, &d| m.wrapping_mul(10).wrapping_add(u64::from(d - b'0')));
            proptest::prop_assert_eq!(fold_digits(bytes, 0, start), (end, naive));
            proptest::prop_assert_eq!(fold_digits16(bytes, 0, start), (end, naive));
        }

        /// Any bytes may follow the digits (a non-ASCII byte carries in the word test),
        /// and the run may end anywhere in or past the sixteen-byte window, at any
        /// alignment: both folds agree with a naive loop.
        #[test]
        fn digit_runs_before_any_bytes_fold_like_a_naive_loop(digits in "[0-9]{0,40}", tail in proptest::collection::vec(proptest::num::u8::ANY, 0..20), pad in 0usize..17, start: u64) {
            let mut bytes = vec![b'x'; pad];
            bytes.extend_from_slice(digits.as_bytes());
            bytes.extend_from_slice(&tail);
            let end = pad + bytes[pad..].iter().position(|b| !b.is_ascii_digit()).unwrap_or(bytes.len() - pad);
            let naive = bytes[pad..end].iter().fold(start, |m, &d| m.wrapping_mul(10).wrapping_add(u64::from(d - b'0')));
            proptest::prop_assert_eq!(fold_digits(&bytes, pad, start), (end, naive));
            proptest::prop_assert_eq!(fold_digits16(&bytes, pad, start), (end, naive));
        }

        /// Digit strings of every length around twenty, with leading zeros, on both
        /// sides of `u64::MAX`: their value as std reads it.
        #[test]
        fn digit_values_are_std_s(zeros in 0usize..4, digits in "[1-9][0-9]{0,21}") {
            let text = format!("{}{digits}", "0".repeat(zeros));
            proptest::prop_assert_eq!(digits_value(text.as_bytes()), text.parse::<u64>().ok());
        }

        #[test]
        fn leading_digits_matches_naive(chunk: [u8; 8], digits in 0usize..=8) {
            let mut chunk = chunk;
            for b in &mut chunk[..digits] {
                *b = b'0' + *b % 10;
            }
            let naive = chunk.iter().take_while(|b| b.is_ascii_digit()).count();
            proptest::prop_assert_eq!(leading_digits(chunk), naive);
        }

        #[test]
        fn numbers_fold_like_a_naive_loop(number in 0u64..u64::MAX, tail in "[ ,.eE\\]}a-z]{0,9}", pad in 0usize..9) {
            let text = format!("{}{number}{tail}", " ".repeat(pad));
            let (end, value) = fold_digits(text.as_bytes(), pad, 0);
            proptest::prop_assert_eq!((end, value), (pad + number.to_string().len(), number));
        }
    }
}
