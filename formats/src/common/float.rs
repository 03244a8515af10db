//! Decimal to binary floating point from a significand the lexer has already folded, so
//! a float's digits are read once: Clinger's fast path where one exact operation is
//! enough, and the Eisel-Lemire algorithm for the rest (Daniel Lemire, "Number Parsing
//! at a Gigabyte per Second", Software: Practice and Experience 51(8), 2021, sections 5
//! and 6). Where neither can decide (a decimal too near halfway between two floats) the
//! caller parses the text with std, which is exact in every case.

mod powers;

use powers::POWERS_OF_FIVE;

use super::fold_digits;

/// The powers of ten that `f64` holds exactly.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The exponent of the first and the last entry of [`POWERS_OF_FIVE`]. Below the first,
/// any significand of 19 digits rounds to zero; above the last, to infinity.
const SMALLEST_POWER: i64 = -342;
const LARGEST_POWER: i64 = 308;

/// Explicit significand bits of `f64`, its exponent bias, and the biased exponent of
/// infinity.
const MANTISSA_BITS: u32 = 52;
const MINIMUM_EXPONENT: i32 = -1023;
const INFINITE_POWER: i32 = 0x7FF;

/// The `f64` nearest to `significand × 10^exponent` (ties to even), where `significand`
/// holds every significant digit of the decimal (so at most 19 of them): `None` when it
/// cannot be decided without the decimal's text. Out of range, it is infinity or zero,
/// as std's parse gives; the caller applies the sign.
#[inline]
pub(crate) fn decimal_to_f64(significand: u64, exponent: i64) -> Option<f64> {
    match exact_decimal_to_f64(significand, exponent) {
        Some(value) => Some(value),
        None => eisel_lemire(significand, exponent).map(f64::from_bits),
    }
}

/// [`decimal_to_f64`] where Clinger's fast path decides it (most decimals of up to 15
/// digits), small enough to inline into a parse loop: `None` for the rest.
#[inline(always)]
pub(crate) fn exact_decimal_to_f64(significand: u64, exponent: i64) -> Option<f64> {
    // A significand up to 2^53 and a power of ten up to 22 are both exact, so one
    // correctly rounded operation gives the correctly rounded result.
    if significand <= 1 << 53 && (-22..=22).contains(&exponent) {
        let m = significand as f64;
        return Some(if exponent < 0 {
            m / POW10[(-exponent) as usize]
        } else {
            m * POW10[exponent as usize]
        });
    }
    None
}

/// The bits of the `f64` nearest to `w × 10^q`, or `None` where the 128-bit product
/// leaves the rounding in doubt.
#[inline(never)]
fn eisel_lemire(mut w: u64, q: i64) -> Option<u64> {
    const INFINITY: u64 = (INFINITE_POWER as u64) << MANTISSA_BITS;
    if w == 0 || q < SMALLEST_POWER {
        return Some(0);
    }
    if q > LARGEST_POWER {
        return Some(INFINITY);
    }
    let leading_zeros = w.leading_zeros();
    w <<= leading_zeros;
    let (lo, hi) = product(w, q);
    // The truncated power may have lost a carry into the bits that matter; outside this
    // range of exponents that cannot be ruled out (the paper, section 5).
    if lo == u64::MAX && !(-27..=55).contains(&q) {
        return None;
    }
    // The product's top bit is bit 127 or 126: keep the significand's bits plus two
    // below them (one to round with, one to tell a tie).
    let upper = (hi >> 63) as u32;
    let shift = upper + 64 - MANTISSA_BITS - 3;
    let mut mantissa = hi >> shift;
    let mut power2 = binary_exponent(q) + upper as i32 - leading_zeros as i32 - MINIMUM_EXPONENT;
    if power2 <= 0 {
        // Subnormal (or zero): shift into place, then round half up; a carry out makes
        // the smallest normal number, whose bits are the same.
        if 1 - power2 >= 64 {
            return Some(0);
        }
        mantissa >>= 1 - power2;
        mantissa += mantissa & 1;
        return Some(mantissa >> 1);
    }
    // Exactly halfway is only possible for small exponents and a product with nothing
    // below the kept bits: then round to even rather than up.
    if lo <= 1 && (-4..=23).contains(&q) && mantissa & 3 == 1 && mantissa << shift == hi {
        mantissa &= !1;
    }
    mantissa += mantissa & 1;
    mantissa >>= 1;
    if mantissa >= 2 << MANTISSA_BITS {
        mantissa = 1 << MANTISSA_BITS;
        power2 += 1;
    }
    mantissa &= !(1 << MANTISSA_BITS);
    if power2 >= INFINITE_POWER {
        return Some(INFINITY);
    }
    Some(mantissa | (power2 as u64) << MANTISSA_BITS)
}

/// The high 128 bits of `w × 5^q` (`w` normalized), as `(low, high)` halves: the first
/// half of the power is enough unless the bits that decide the rounding are all ones.
#[inline]
fn product(w: u64, q: i64) -> (u64, u64) {
    const MASK: u64 = u64::MAX >> (MANTISSA_BITS + 3);
    let (high5, low5) = POWERS_OF_FIVE[(q - SMALLEST_POWER) as usize];
    let first = u128::from(w) * u128::from(high5);
    let (mut lo, mut hi) = (first as u64, (first >> 64) as u64);
    if hi & MASK == MASK {
        let second = ((u128::from(w) * u128::from(low5)) >> 64) as u64;
        let (sum, carry) = lo.overflowing_add(second);
        lo = sum;
        hi += u64::from(carry);
    }
    (lo, hi)
}

/// `floor(log2(10^q)) + 63`, exact over the table's range: 217706 / 2^16 is log2(10)
/// to the precision that needs.
#[inline]
fn binary_exponent(q: i64) -> i32 {
    (((152_170 + 65_536) * q as i32) >> 16) + 63
}

/// The value of `text` when it is a plain decimal, `-`? then digits, then `.` and digits
/// or not, with at most 19 digits in all and nothing else: correctly rounded from the
/// folded digits (what std's parse gives, without reading the text again).
#[inline]
pub(crate) fn plain_decimal(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let (negative, start) = match bytes.first() {
        Some(b'-') => (true, 1),
        _ => (false, 0),
    };
    let (int_end, significand) = fold_digits(bytes, start, 0);
    let digits = int_end - start;
    if digits == 0 || digits > 19 {
        return None;
    }
    let (end, value) = match bytes.get(int_end) {
        Some(b'.') => fraction_after(bytes, int_end, digits, significand)?,
        _ => (int_end, decimal_to_f64(significand, 0)?),
    };
    if end != bytes.len() {
        return None;
    }
    Some(if negative { -value } else { value })
}

/// The magnitude of a decimal whose integer part, `digits` digits folded into
/// `significand`, ends at `int_end` in `bytes`, where a `.` and at least one digit
/// follow, with at most 19 digits in all: where its fraction ends and its value. `None`
/// when the fraction is missing or too long, or the rounding needs the text; what comes
/// after the fraction is the caller's to check.
#[inline]
pub(crate) fn fraction_after(
    bytes: &[u8],
    int_end: usize,
    digits: usize,
    significand: u64,
) -> Option<(usize, f64)> {
    let (end, significand) = fold_digits(bytes, int_end + 1, significand);
    let fraction = end - int_end - 1;
    if fraction == 0 || digits + fraction > 19 {
        return None;
    }
    Some((end, decimal_to_f64(significand, -(fraction as i64))?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// std's correctly rounded parse of `w e q`.
    fn std_parse(w: u64, q: i64) -> f64 {
        format!("{w}e{q}").parse().unwrap()
    }

    fn agrees(w: u64, q: i64) {
        if let Some(value) = decimal_to_f64(w, q) {
            assert_eq!(value.to_bits(), std_parse(w, q).to_bits(), "{w}e{q}");
        }
    }

    #[test]
    fn hard_cases_round_as_std_does() {
        let cases: &[(u64, i64)] = &[
            (9_007_199_254_740_993, 0),     // 2^53 + 1: a tie, to even
            (9_007_199_254_740_995, 0),     // a tie, up to even
            (22_250_738_585_072_011, -324), // just below the smallest normal
            (22_250_738_585_072_014, -324), // the smallest normal
            (49_406_564_584_124_654, -340), // the smallest subnormal
            (24_703_282_292_062_327, -340), // below half of it: zero
            (24_703_282_292_062_328, -340), // just above half: the smallest subnormal
            (17_976_931_348_623_157, 292),  // the largest finite
            (17_976_931_348_623_159, 292),  // beyond: infinity
            (1, 23),                        // past Clinger's powers
            (123_456_789_012_345_678, -38),
            (3, -324),
            (1, -342),
            (1, -343),
            (9_999_999_999_999_999_999, -343), // rounds to zero below the table
            (1, 308),
            (1, 309),
            (7_205_759_403_792_794, -17), // 0.072057594037927940: near halfway
        ];
        for &(w, q) in cases {
            let value = decimal_to_f64(w, q).unwrap_or_else(|| std_parse(w, q));
            assert_eq!(value.to_bits(), std_parse(w, q).to_bits(), "{w}e{q}");
        }
        // Decided without the text, not left to std.
        assert_eq!(decimal_to_f64(17_976_931_348_623_157, 292), Some(f64::MAX));
        assert_eq!(decimal_to_f64(1, 309), Some(f64::INFINITY));
        assert_eq!(decimal_to_f64(1, -343), Some(0.0));
    }

    #[test]
    fn every_exponent_rounds_as_std_does() {
        // A fixed pseudo-random walk over significands of every length, at every
        // exponent the table covers and a few beyond it.
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut decided = 0;
        for q in SMALLEST_POWER - 20..=LARGEST_POWER + 20 {
            for digits in 1..=19u32 {
                for _ in 0..6 {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    let w = state % 10u64.pow(digits);
                    agrees(w, q);
                    decided += usize::from(decimal_to_f64(w, q).is_some());
                }
            }
        }
        // Nearly every case is decided here; std is the rare fallback.
        assert!(decided > 78_000, "{decided}");
    }

    proptest::proptest! {
        #[test]
        fn random_decimals_round_as_std_does(w in 0u64..10_000_000_000_000_000_000, q in -360i64..330) {
            agrees(w, q);
        }

        #[test]
        fn the_floats_own_shortest_digits_come_back(bits: u64) {
            let f = f64::from_bits(bits);
            proptest::prop_assume!(f.is_finite() && f > 0.0);
            // The shortest round-trip digits, as significand and exponent.
            let text = format!("{f:e}");
            let (digits, exp) = text.split_once('e').unwrap();
            let fraction = digits.split_once('.').map_or("", |(_, f)| f);
            let w: u64 = digits.replace('.', "").parse().unwrap();
            let q = exp.parse::<i64>().unwrap() - fraction.len() as i64;
            if let Some(value) = decimal_to_f64(w, q) {
                proptest::prop_assert_eq!(value.to_bits(), bits);
            }
        }
    }

    /// Just enough unsigned big-integer arithmetic to check the table: little-endian
    /// 32-bit limbs, no leading zero limbs.
    #[derive(Clone, Debug, PartialEq, Eq)]
    struct Big(Vec<u32>);

    impl PartialOrd for Big {
        fn partial_cmp(&self, other: &Big) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }

    impl Ord for Big {
        /// More limbs is larger; then the highest limb that differs decides.
        fn cmp(&self, other: &Big) -> std::cmp::Ordering {
            self.0
                .len()
                .cmp(&other.0.len())
                .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
        }
    }

    impl Big {
        fn from_u128(v: u128) -> Big {
            let mut limbs: Vec<u32> = (0..4).map(|i| (v >> (32 * i)) as u32).collect();
            Big::trim(&mut limbs);
            Big(limbs)
        }
        fn trim(limbs: &mut Vec<u32>) {
            while limbs.last() == Some(&0) {
                limbs.pop();
            }
        }
        fn pow2(n: u32) -> Big {
            Big::from_u128(1).shl(n)
        }
        fn pow5(n: u32) -> Big {
            (0..n).fold(Big::from_u128(1), |acc, _| acc.mul(&Big::from_u128(5)))
        }
        fn bits(&self) -> u32 {
            match self.0.last() {
                None => 0,
                Some(top) => 32 * (self.0.len() as u32 - 1) + (32 - top.leading_zeros()),
            }
        }
        fn mul(&self, other: &Big) -> Big {
            let mut out = vec![0u32; self.0.len() + other.0.len()];
            for (i, &a) in self.0.iter().enumerate() {
                let mut carry = 0u64;
                for (j, &b) in other.0.iter().enumerate() {
                    let t = u64::from(a) * u64::from(b) + u64::from(out[i + j]) + carry;
                    out[i + j] = t as u32;
                    carry = t >> 32;
                }
                out[i + other.0.len()] = carry as u32;
            }
            Big::trim(&mut out);
            Big(out)
        }
        fn shl(&self, n: u32) -> Big {
            let (words, bits) = ((n / 32) as usize, n % 32);
            let mut out = vec![0u32; words];
            let mut carry = 0u32;
            for &limb in &self.0 {
                out.push((limb << bits) | carry);
                carry = if bits == 0 { 0 } else { limb >> (32 - bits) };
            }
            out.push(carry);
            Big::trim(&mut out);
            Big(out)
        }
        fn minus_one(&self) -> Big {
            let mut out = self.0.clone();
            for limb in &mut out {
                let (v, borrow) = limb.overflowing_sub(1);
                *limb = v;
                if !borrow {
                    break;
                }
            }
            Big::trim(&mut out);
            Big(out)
        }
    }

    /// An entry is right when it is the top 128 bits of the power, exactly as the
    /// module doc says: checked by multiplication and comparison only.
    #[test]
    fn the_powers_of_five_are_exact() {
        for q in SMALLEST_POWER..=LARGEST_POWER {
            let (high, low) = POWERS_OF_FIVE[(q - SMALLEST_POWER) as usize];
            let entry = (u128::from(high) << 64) | u128::from(low);
            assert!(entry >> 127 == 1, "5^{q} is normalized");
            let c = Big::from_u128(entry);
            let c_next = Big::from_u128(entry + 1);
            if q >= 0 {
                // Truncated: c × 2^s ≤ 5^q < (c + 1) × 2^s, or 5^q × 2^s = c.
                let p = Big::pow5(q as u32);
                let bits = p.bits();
                if bits <= 128 {
                    assert_eq!(p.shl(128 - bits), c, "5^{q}");
                } else {
                    let s = bits - 128;
                    assert!(c.shl(s) <= p && p < c_next.shl(s), "5^{q}");
                }
                continue;
            }
            // c = floor(2^b / p) + 1, then halved until under 2^128 (by 2^s):
            // (c × 2^s - 1) × p ≤ 2^b < ((c + 1) × 2^s - 1) × p.
            let p = Big::pow5((-q) as u32);
            let z = p.bits();
            let b = if q >= -27 { z + 127 } else { 2 * z + 128 };
            let two_b = Big::pow2(b);
            let exact = |s: u32| {
                c.shl(s).minus_one().mul(&p) <= two_b && two_b < c_next.shl(s).minus_one().mul(&p)
            };
            let s = (b + 1).saturating_sub(z + 128);
            assert!(exact(s) || exact(s + 1), "5^{q}");
        }
    }

    #[test]
    fn plain_decimals_are_what_std_parses_and_the_rest_is_left_to_it() {
        for text in [
            "0",
            "-0",
            "0.0",
            "-0.0",
            "1",
            "12.5",
            "-12.5",
            "0.1",
            "0.3",
            "123456.789",
            "9007199254740993",
            "1234567890123456789",
            "0.123456789012345678",
            "3.0000000000000004",
            "-9999999999.999999999",
        ] {
            let value = plain_decimal(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(
                value.to_bits(),
                text.parse::<f64>().unwrap().to_bits(),
                "{text}"
            );
        }
        for text in [
            "",
            "-",
            ".5",
            "5.",
            "-.5",
            "+1",
            "1e5",
            "1.5e3",
            " 1",
            "1 ",
            "1.2.3",
            "0x10",
            "inf",
            "NaN",
            "12345678901234567890",
            "1.0000000000000000000",
            "--1",
            "1_000",
        ] {
            assert_eq!(plain_decimal(text), None, "{text:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn plain_decimals_agree_with_std(
            negative in proptest::prelude::any::<bool>(),
            int in "[0-9]{1,12}",
            fraction in proptest::option::of("[0-9]{0,12}"),
        ) {
            let mut text = String::from(if negative { "-" } else { "" });
            text.push_str(&int);
            if let Some(fraction) = &fraction {
                text.push('.');
                text.push_str(fraction);
            }
            let std = text.parse::<f64>().unwrap();
            match plain_decimal(&text) {
                Some(value) => proptest::prop_assert_eq!(value.to_bits(), std.to_bits(), "{}", text),
                // Left to std: a point without digits after it, or more than 19 digits.
                None => proptest::prop_assert!(
                    text.ends_with('.') || int.len() + fraction.map_or(0, |f| f.len()) > 19,
                    "{}", text
                ),
            }
        }
    }
}
