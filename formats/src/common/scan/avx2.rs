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
