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
    Some((n, (whole >> s).wrapping_mul(super::digits::INVERSE_POW5[s])))
}
