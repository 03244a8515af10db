//! Byte scanning shared by the formats' string lexers and writers.

/// The offset of the first byte at or after `i` that is `QUOTE`, `\`, a control
/// character (below 0x20) or, when `DEL`, 0x7F; or `bytes.len()`. Eight bytes at a time.
///
/// JSON strings stop at `"`, `\` and controls; TOML's also at DEL, and its literal
/// strings at `'` (a backslash there is plain text, so the caller steps over it).
#[inline]
pub fn find_string_special<const QUOTE: u8, const DEL: bool>(bytes: &[u8], mut i: usize) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |x: u64| x.wrapping_sub(LO) & !x;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        // A byte is flagged when it is zero after the xor, or below 0x20; the lowest
        // flagged byte is always exact (later ones may be false positives from borrows).
        let mut flagged = zero_byte(w ^ (LO * u64::from(QUOTE)))
            | zero_byte(w ^ (LO * u64::from(b'\\')))
            | (w.wrapping_sub(LO * 0x20) & !w);
        if DEL {
            flagged |= zero_byte(w ^ (LO * 0x7F));
        }
        let flagged = flagged & HI;
        if flagged != 0 {
            return i + (flagged.trailing_zeros() / 8) as usize;
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

/// A writer's output as a `String`. Every writer emits only UTF-8 (text comes from
/// `&str`, the rest is ASCII), so this never replaces anything; it is lossy rather than
/// panicking only to keep `unwrap` out of library code.
pub fn utf8_output(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
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
    }
}
