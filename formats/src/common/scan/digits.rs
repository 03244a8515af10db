//! Runs of ASCII digits folded into integers, eight at a step (sixteen with SSE2) and
//! a whole integer of up to fifteen digits at once: every lexer's integers, and the
//! significands that `float.rs` converts.

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use super::sse2;

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
pub(super) const INVERSE_POW5: [u64; 17] = {
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
