//! Whole-document UTF-8 validation: every parser validates its input once, up front.
//!
//! `simdutf8` checks the input with SIMD chosen at run time (AVX2 or SSE4.2 on x86-64,
//! NEON on aarch64; std's validator where neither is present), so a portable build
//! gets the fast path too. On text that is not mostly ASCII (prose in other scripts,
//! emoji) it is much faster than std's validator or a table-driven DFA, which steps
//! one byte at a time after every non-ASCII byte. On failure,
//! std's validator finds the exact offset (errors are rare; the position must match
//! std's).

use super::word;

/// The length below which simdutf8 does not use SIMD (its block size).
const SHORT: usize = 64;

/// `input` as text, or the offset where it stops being valid UTF-8 (as
/// `Utf8Error::valid_up_to` gives it).
#[inline]
pub fn validate(input: &[u8]) -> Result<&str, usize> {
    // Below 64 bytes simdutf8 hands the input to std's validator, which steps a byte at a
    // time until it reaches an aligned word: most of a short document's validation. A
    // short ASCII document is
    // proved text by a word-at-a-time check instead.
    if input.len() < SHORT {
        if let Some(text) = ascii(input) {
            return Ok(text);
        }
    }
    simdutf8::basic::from_utf8(input).map_err(|_| match std::str::from_utf8(input) {
        Ok(_) => input.len(),
        Err(e) => e.valid_up_to(),
    })
}

/// The character that the UTF-16 surrogate pair `high` (0xD800 to 0xDBFF) and `low`
/// (0xDC00 to 0xDFFF) names: JSON's `\uXXXX\uXXXX` and OpenStep's `\U` escapes.
#[inline(always)]
pub fn from_surrogates(high: u32, low: u32) -> u32 {
    0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
}

/// `bytes` as text when every byte is ASCII: std's word-at-a-time check, where
/// `from_utf8` would classify each byte again (a short document's validation, and
/// [`ascii_from`] past sixteen bytes).
#[inline]
pub fn ascii(bytes: &[u8]) -> Option<&str> {
    if !bytes.is_ascii() {
        return None;
    }
    // SAFETY: every byte is ASCII (checked just above), and ASCII is UTF-8.
    #[allow(unsafe_code)]
    Some(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// Appends UTF-16 `bytes` (big-endian, or little-endian with `little`) to `out` as
/// UTF-8, and says whether they were well formed: an unpaired surrogate or an odd byte
/// at the end is not, and then `out` holds what came before it. encoding_rs decodes long
/// text a word of Basic Latin at a time, where std's `char::decode_utf16`, pushed a `char`
/// at a time, would dominate; a short string (a name, a key) is decoded by that plain
/// loop, since encoding_rs's decoder setup would cost more than the string.
#[cfg(feature = "xml")]
pub fn push_utf16(bytes: &[u8], little: bool, out: &mut String) -> bool {
    if bytes.len() <= 2 * SHORT_UTF16_UNITS {
        return push_short_utf16(bytes, little, out);
    }
    let encoding = if little {
        encoding_rs::UTF_16LE
    } else {
        encoding_rs::UTF_16BE
    };
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let Some(room) = decoder.max_utf8_buffer_length_without_replacement(bytes.len()) else {
        return false;
    };
    out.reserve(room);
    let (result, _) = decoder.decode_to_string_without_replacement(bytes, out, true);
    result == encoding_rs::DecoderResult::InputEmpty
}

/// UTF-16 strings of up to this many code units go through [`push_short_utf16`].
#[cfg(feature = "xml")]
const SHORT_UTF16_UNITS: usize = 32;

/// [`push_utf16`] for a short string: each unit (or surrogate pair) encoded straight
/// into a buffer on the stack, which is appended once. `String::push` per `char` would
/// check the room and branch on the `char`'s length again for every one.
#[cfg(feature = "xml")]
#[inline]
fn push_short_utf16(bytes: &[u8], little: bool, out: &mut String) -> bool {
    let mut buf = [0u8; 3 * SHORT_UTF16_UNITS];
    let (len, well_formed) = short_utf16(bytes, little, &mut buf);
    // SAFETY: `short_utf16` wrote the UTF-8 of whole scalar values into `buf[..len]`.
    #[allow(unsafe_code)]
    out.push_str(unsafe { std::str::from_utf8_unchecked(&buf[..len]) });
    well_formed
}

/// UTF-16 `bytes` (big-endian, or little-endian with `little`) as a `String` of their
/// own with room for exactly their text, or `None` when they are not well formed (an
/// unpaired surrogate, an odd byte at the end). A short string is encoded on the stack
/// and copied once into its exact allocation, with no scratch buffer in between.
#[cfg(feature = "xml")]
#[inline]
pub fn utf16_string(bytes: &[u8], little: bool) -> Option<String> {
    if bytes.len() > 2 * SHORT_UTF16_UNITS {
        let mut out = String::new();
        return push_utf16(bytes, little, &mut out).then_some(out);
    }
    let mut buf = [0u8; 3 * SHORT_UTF16_UNITS];
    let (len, well_formed) = short_utf16(bytes, little, &mut buf);
    if !well_formed {
        return None;
    }
    // SAFETY: `short_utf16` wrote the UTF-8 of whole scalar values into `buf[..len]`.
    #[allow(unsafe_code)]
    Some(quarry_raw_value::pull::owned_string(unsafe {
        std::str::from_utf8_unchecked(&buf[..len])
    }))
}

/// Encodes up to [`SHORT_UTF16_UNITS`] units of UTF-16 `bytes` as UTF-8 into `buf`;
/// returns how many bytes it wrote and whether `bytes` were well formed (when not,
/// `buf` holds the text before the first malformed unit). `buf[..len]` always holds the
/// UTF-8 of whole scalar values.
///
/// Four units at a time while they are ASCII (one word tested, four bytes written):
/// text in Latin scripts is mostly ASCII between its accented letters.
#[cfg(feature = "xml")]
#[inline(always)]
fn short_utf16(bytes: &[u8], little: bool, buf: &mut [u8; 3 * SHORT_UTF16_UNITS]) -> (usize, bool) {
    // Each unit is at most three bytes of UTF-8, and a surrogate pair (two units) four.
    debug_assert!(bytes.len() <= 2 * SHORT_UTF16_UNITS);
    // The bits of a little-endian word of four units that are set only when a unit is
    // not ASCII: each unit's high byte, and the top bit of its low byte.
    let not_ascii: u64 = if little {
        0xFF80_FF80_FF80_FF80
    } else {
        0x80FF_80FF_80FF_80FF
    };
    let unit_at = |i: usize| {
        let pair = [bytes[i], bytes[i + 1]];
        u32::from(if little {
            u16::from_le_bytes(pair)
        } else {
            u16::from_be_bytes(pair)
        })
    };
    let end = bytes.len() & !1;
    let mut well_formed = bytes.len() % 2 == 0;
    let (mut i, mut len) = (0, 0);
    while i < end {
        if let Some(four) = bytes.get(i..i + 8) {
            let w = word(four);
            if w & not_ascii == 0 {
                // The four low bytes, gathered from every other byte of the word.
                let mut x = (if little { w } else { w >> 8 }) & 0x00FF_00FF_00FF_00FF;
                x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
                x = (x | x >> 16) & 0xFFFF_FFFF;
                buf[len..len + 4].copy_from_slice(&(x as u32).to_le_bytes());
                len += 4;
                i += 8;
                continue;
            }
        }
        let unit = unit_at(i);
        i += 2;
        match unit {
            0..=0x7F => {
                buf[len] = unit as u8;
                len += 1;
            }
            0x80..=0x7FF => {
                buf[len] = 0xC0 | (unit >> 6) as u8;
                buf[len + 1] = 0x80 | (unit & 0x3F) as u8;
                len += 2;
            }
            0xD800..=0xDBFF => {
                let low = if i < end { unit_at(i) } else { 0 };
                if !(0xDC00..=0xDFFF).contains(&low) {
                    well_formed = false;
                    break;
                }
                i += 2;
                let code = 0x10000 + ((unit - 0xD800) << 10 | (low - 0xDC00));
                buf[len] = 0xF0 | (code >> 18) as u8;
                buf[len + 1] = 0x80 | (code >> 12 & 0x3F) as u8;
                buf[len + 2] = 0x80 | (code >> 6 & 0x3F) as u8;
                buf[len + 3] = 0x80 | (code & 0x3F) as u8;
                len += 4;
            }
            0xDC00..=0xDFFF => {
                well_formed = false;
                break;
            }
            _ => {
                buf[len] = 0xE0 | (unit >> 12) as u8;
                buf[len + 1] = 0x80 | (unit >> 6 & 0x3F) as u8;
                buf[len + 2] = 0x80 | (unit & 0x3F) as u8;
                len += 3;
            }
        }
    }
    // Each arm above writes the standard encoding of one scalar value (ASCII; two bytes
    // below 0x800; four for a surrogate pair, whose code is 0x10000..=0x10FFFF; three
    // for every other unit, surrogates excluded), and a malformed unit stops the loop
    // before writing.
    (len, well_formed)
}

/// The first `len` bytes of `rest` as text when every one is ASCII (`None` as well when
/// `rest` is shorter than `len`), read a word at a time with no byte loop: a string of up
/// to sixteen bytes is one or two words (the second overlapping the first), and one
/// shorter than a word is read as the word at its start, masked to its length, when
/// `rest` holds eight bytes there. std's check steps through the bytes after the last
/// whole word one at a time: most of the check of a binary plist's keys, which are
/// shorter than a word.
#[inline(always)]
pub fn ascii_from(rest: &[u8], len: usize) -> Option<&str> {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let bytes = rest.get(..len)?;
    let high = match (len, rest.get(..8)) {
        (0, _) => 0,
        (1..=7, Some(window)) => word(window) & (u64::MAX >> (64 - 8 * len)),
        (8..=16, _) => word(&bytes[..8]) | word(&bytes[len - 8..]),
        _ => return ascii(bytes),
    };
    if high & HIGH != 0 {
        return None;
    }
    // SAFETY: every byte of `bytes` is ASCII (its words' high bits are clear, and the
    // mask kept only its own bytes of a wider window), and ASCII is UTF-8.
    #[allow(unsafe_code)]
    Some(unsafe { std::str::from_utf8_unchecked(bytes) })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The edges of every byte class, and a few from inside each.
    const EDGES: [u8; 26] = [
        0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
        0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFE, 0xFF,
    ];

    /// (Compared by length: a wrongly accepted `str` must not be printed.)
    fn agrees(bytes: &[u8]) {
        let std = std::str::from_utf8(bytes).map_or_else(|e| Err(e.valid_up_to()), |s| Ok(s.len()));
        assert_eq!(validate(bytes).map(str::len), std, "{bytes:02X?}");
    }

    #[test]
    fn agrees_with_std_on_every_short_sequence_of_class_edges() {
        for &a in &EDGES {
            agrees(&[a]);
            for &b in &EDGES {
                agrees(&[a, b]);
                for &c in &EDGES {
                    agrees(&[a, b, c]);
                    for &d in &EDGES {
                        agrees(&[a, b, c, d]);
                        // After a run of ASCII long enough for the fast skip.
                        let mut long = vec![b'x'; 17];
                        long.extend_from_slice(&[a, b, c, d]);
                        agrees(&long);
                    }
                }
            }
        }
    }

    #[test]
    fn agrees_with_std_on_every_two_byte_sequence() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                agrees(&[a, b]);
            }
        }
    }

    #[test]
    fn agrees_with_std_on_short_text_with_a_non_ascii_byte_anywhere() {
        // Every length around the short path's bound, with each byte in turn replaced by
        // a lone continuation byte, a lead byte, and a whole two-byte character.
        for len in 0..=SHORT + 2 {
            let ascii = vec![b'a'; len];
            agrees(&ascii);
            for at in 0..len {
                for bad in [&[0x80][..], &[0xC3], &[0xC3, 0xA9], &[0xFF]] {
                    let mut bytes = ascii.clone();
                    bytes.splice(at..at + 1, bad.iter().copied());
                    agrees(&bytes);
                }
            }
        }
    }

    /// `ascii_from(rest, len)` against std's check of the first `len` bytes.
    fn ascii_from_agrees(rest: &[u8], len: usize) {
        let std = rest.get(..len).filter(|b| b.is_ascii()).map(<[u8]>::len);
        assert_eq!(
            ascii_from(rest, len).map(str::len),
            std,
            "{rest:02X?} {len}"
        );
    }

    #[test]
    fn ascii_from_reads_only_its_own_bytes_at_every_length() {
        // Every length around the one- and two-word paths, with no byte after the string,
        // a few, and a word's worth; the bytes after it are non-ASCII, so a mask that kept
        // one of them would fail; and each of the string's own bytes made non-ASCII in turn.
        for len in 0..=40 {
            for after in [0, 1, 3, 7, 8, 20] {
                let mut rest = vec![b'k'; len];
                rest.extend(std::iter::repeat_n(0xE9, after));
                ascii_from_agrees(&rest, len);
                ascii_from_agrees(&rest, len + 1);
                for at in 0..len {
                    for bad in [0x80, 0xC3, 0xFF] {
                        let mut bytes = rest.clone();
                        bytes[at] = bad;
                        ascii_from_agrees(&bytes, len);
                    }
                }
            }
        }
    }

    /// `push_utf16` against std's `String::from_utf16` of the same units, both byte
    /// orders, after a prefix that must be kept.
    #[cfg(feature = "xml")]
    fn push_utf16_agrees(units: &[u16]) {
        let std = String::from_utf16(units).ok();
        for little in [false, true] {
            let bytes: Vec<u8> = units
                .iter()
                .flat_map(|u| {
                    if little {
                        u.to_le_bytes()
                    } else {
                        u.to_be_bytes()
                    }
                })
                .collect();
            let mut out = String::from("kept");
            let ok = push_utf16(&bytes, little, &mut out);
            assert_eq!(ok, std.is_some(), "{units:04X?}");
            // Well formed or not, `out` gains the text before the first unpaired surrogate.
            let before: String = char::decode_utf16(units.iter().copied())
                .map_while(Result::ok)
                .collect();
            assert_eq!(out, format!("kept{before}"), "{units:04X?}");
            // As a `String` of its own: all or nothing, with no slack when short.
            let own = utf16_string(&bytes, little);
            assert_eq!(own, std, "{units:04X?}");
            if let Some(own) = own.filter(|_| units.len() <= SHORT_UTF16_UNITS) {
                assert_eq!(own.capacity(), own.len(), "{units:04X?}");
            }
            // An odd byte at the end is malformed.
            let mut odd = bytes.clone();
            odd.push(b'a');
            assert!(
                !push_utf16(&odd, little, &mut String::new()),
                "{units:04X?}"
            );
            assert_eq!(utf16_string(&odd, little), None, "{units:04X?}");
        }
    }

    #[cfg(feature = "xml")]
    #[test]
    fn push_utf16_agrees_with_std_on_every_kind_of_unit() {
        // ASCII, two- and three-byte UTF-8, surrogate pairs, lone and reversed surrogates,
        // in runs long and short enough for a decoder's word-at-a-time path.
        let ascii: Vec<u16> = (0..40).map(|i| u16::from(b'a') + i % 26).collect();
        let kinds: [&[u16]; 8] = [
            &[0x41],
            &[0xE9],
            &[0x20AC],
            &[0xD83D, 0xDE00],
            &[0xD800],
            &[0xDC00],
            &[0xDC00, 0xD800],
            &[0xFFFF],
        ];
        push_utf16_agrees(&[]);
        // Runs of ASCII of every length around the four-unit step, between other units.
        for run in 0..10 {
            for kind in kinds {
                let mut units: Vec<u16> = ascii[..run].to_vec();
                units.extend_from_slice(kind);
                units.extend_from_slice(&ascii[..run]);
                push_utf16_agrees(&units);
                // A unit with a clear high byte but its low byte's top bit set.
                units.push(0x00FF);
                push_utf16_agrees(&units);
            }
        }
        for kind in kinds {
            for at in [0, 1, 7, 8, 15, 16, 33, 40] {
                let mut units = ascii.clone();
                units.splice(at..at, kind.iter().copied());
                push_utf16_agrees(&units);
                push_utf16_agrees(&units[at..]);
            }
        }
    }

    proptest::proptest! {
        #[cfg(feature = "xml")]
        #[test]
        fn push_utf16_agrees_with_std_on_arbitrary_units(units: Vec<u16>) {
            push_utf16_agrees(&units);
        }

        #[cfg(feature = "xml")]
        #[test]
        fn push_utf16_agrees_with_std_on_text(text: String) {
            let units: Vec<u16> = text.encode_utf16().collect();
            push_utf16_agrees(&units);
        }

        #[test]
        fn ascii_from_agrees_with_std_on_arbitrary_bytes(rest: Vec<u8>, len in 0usize..48) {
            ascii_from_agrees(&rest, len);
        }

        #[test]
        fn agrees_with_std_on_arbitrary_bytes(bytes: Vec<u8>) {
            agrees(&bytes);
        }

        #[test]
        fn agrees_with_std_on_text_with_one_byte_changed(text: String, at: usize, byte: u8) {
            let mut bytes = text.into_bytes();
            agrees(&bytes);
            if !bytes.is_empty() {
                let at = at % bytes.len();
                bytes[at] = byte;
                agrees(&bytes);
            }
        }
    }
}
