use super::digits::leading_digits;
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
