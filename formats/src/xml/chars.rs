//! XML's character classes: byte tables built at compile time for the parser's scanning
//! loops, and the `Char`, `NameStartChar` and `NameChar` productions (the writer checks
//! names and text with them too).

use crate::common::{bytes_below, bytes_equal, first_flagged, word};

/// A `[bool; 256]` byte-class table, built at compile time.
macro_rules! table {
    (|$b:ident| $e:expr) => {{
        let mut t = [false; 256];
        let mut i = 0;
        while i < 256 {
            let $b = i as u8;
            t[i] = $e;
            i += 1;
        }
        t
    }};
}

/// Bytes that need attention inside an attribute value.
pub(super) static ATTR_SPECIAL: [bool; 256] = table!(|b| {
    matches!(b, b'"' | b'\'' | b'<' | b'&' | b'\t' | b'\n' | b'\r' | 0xEF) || b < 0x20
});
/// ASCII bytes that may start a name (non-ASCII is decided by [`is_name_start`]).
pub(super) static NAME_START: [bool; 256] =
    table!(|b| b.is_ascii_alphabetic() || b == b'_' || b == b':' || b >= 0x80);
/// ASCII bytes that may continue a name, but `:` (non-ASCII is decided by
/// [`is_name_char`]).
pub(super) static NAME_PLAIN: [bool; 256] =
    table!(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));

/// Rare bytes in character data, comments, PIs and CDATA: control characters other
/// than tab and newline (so `\r` too) and `0xEF`, the lead byte of U+FFFE and U+FFFF.
#[inline(always)]
pub(super) fn rare_in_text(x: u8) -> bool {
    ((x < 0x20) & (x != b'\t') & (x != b'\n')) | (x == 0xEF)
}

/// Rare bytes in attribute values: every control character (tab, newline and CR are
/// normalized to spaces) and `0xEF`.
#[inline(always)]
pub(super) fn rare_in_attribute(x: u8) -> bool {
    (x < 0x20) | (x == 0xEF)
}

/// The offset of the first byte of `s` for which `rare` holds. `rare` must imply
/// "below 0x20 or 0xEF": eight bytes at a time are tested for that with word
/// arithmetic (no branch per byte), and only a word that may hold one is looked at
/// byte by byte.
#[inline(always)]
pub(super) fn first_rare(s: &[u8], rare: fn(u8) -> bool) -> Option<usize> {
    let mut chunks = s.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut chunks {
        let w = word(chunk);
        if bytes_below(w, 0x20) | bytes_equal(w, 0xEF) != 0 {
            if let Some(p) = chunk.iter().position(|&x| rare(x)) {
                return Some(base + p);
            }
        }
        base += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&x| rare(x))
        .map(|p| base + p)
}

/// The first byte from `from` that character data cannot take as is: `<`, `&`, `]`, or
/// a rare byte.
///
/// The first 32 bytes are tested a word at a time for all of them at once (text in a
/// document of records is mostly a short value, where `memchr3`'s set-up costs more than
/// the scan); beyond them, `memchr3` finds the markup and [`first_rare`] the rare bytes
/// before it.
#[inline]
pub(super) fn scan_text(b: &[u8], from: usize) -> usize {
    let mut i = from;
    let mut words = 0;
    while let Some(chunk) = b.get(i..i + 8) {
        if words == 4 {
            return scan_text_long(b, i);
        }
        let w = word(chunk);
        let flags = bytes_equal(w, b'<')
            | bytes_equal(w, b'&')
            | bytes_equal(w, b']')
            | bytes_below(w, 0x20)
            | bytes_equal(w, 0xEF);
        if flags == 0 {
            i += 8;
        } else {
            let at = i + first_flagged(flags);
            if !matches!(b[at], b'\t' | b'\n') {
                return at;
            }
            i = at + 1;
        }
        words += 1;
    }
    while let Some(&x) = b.get(i) {
        if matches!(x, b'<' | b'&' | b']') || rare_in_text(x) {
            return i;
        }
        i += 1;
    }
    i
}

/// [`scan_text`] past its first words: `memchr3`, then the rare bytes before what it found.
#[inline(never)]
fn scan_text_long(b: &[u8], from: usize) -> usize {
    let rest = &b[from..];
    let end = memchr::memchr3(b'<', b'&', b']', rest).unwrap_or(rest.len());
    from + first_rare(&rest[..end], rare_in_text).unwrap_or(end)
}

/// The first byte from `from` that an attribute value cannot take as is: its quote,
/// `&`, `<`, or a rare byte before them.
#[inline]
pub(super) fn scan_attribute(b: &[u8], from: usize, quote: u8) -> usize {
    let rest = &b[from.min(b.len())..];
    let end = memchr::memchr3(quote, b'&', b'<', rest).unwrap_or(rest.len());
    from + first_rare(&rest[..end], rare_in_attribute).unwrap_or(end)
}

// [4] NameStartChar ::= ":" | [A-Z] | "_" | [a-z] | [#xC0-#xD6] | [#xD8-#xF6] | [#xF8-#x2FF]
//                     | [#x370-#x37D] | [#x37F-#x1FFF] | [#x200C-#x200D] | [#x2070-#x218F]
//                     | [#x2C00-#x2FEF] | [#x3001-#xD7FF] | [#xF900-#xFDCF] | [#xFDF0-#xFFFD]
//                     | [#x10000-#xEFFFF]
/// XML 1.0 (fifth edition) `NameStartChar`.
#[inline]
pub(crate) fn is_name_start(c: char) -> bool {
    matches!(c,
        ':' | 'A'..='Z' | '_' | 'a'..='z'
        | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}' | '\u{F8}'..='\u{2FF}'
        | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}' | '\u{200C}'..='\u{200D}'
        | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}' | '\u{3001}'..='\u{D7FF}'
        | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}' | '\u{10000}'..='\u{EFFFF}')
}

// [4a] NameChar ::= NameStartChar | "-" | "." | [0-9] | #xB7 | [#x0300-#x036F] | [#x203F-#x2040]
/// XML 1.0 (fifth edition) `NameChar`.
#[inline]
pub(crate) fn is_name_char(c: char) -> bool {
    is_name_start(c)
        || matches!(c, '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

// [2] Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
/// XML's `Char` production.
#[inline]
pub(crate) fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// True when `s` is a valid XML `Name`.
pub(crate) fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(is_name_start) && chars.all(is_name_char)
}

#[inline]
// [3] S ::= (#x20 | #x9 | #xD | #xA)+    (one of them)
pub(super) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::for_each_placement;

    fn naive_text_stop(b: &[u8], from: usize) -> usize {
        (from..b.len())
            .find(|&i| matches!(b[i], b'<' | b'&' | b']') || rare_in_text(b[i]))
            .unwrap_or(b.len().max(from))
    }

    /// The words, the byte tail and the long scan stop where a byte loop stops: every
    /// start and length up to 80 bytes (past the four words), each kind of byte at each
    /// place, over fillers that stop nothing (tab and newline among them).
    #[test]
    fn scan_text_stops_where_a_byte_loop_stops() {
        let fillers = [b'a', b' ', b'\t', b'\n', 0xC3, 0xEE, 0x7F];
        let bytes_at = [
            b'<', b'&', b']', 0x00, b'\r', 0x1F, 0xEF, b'\t', b'\n', b'>',
        ];
        for_each_placement(&fillers, &bytes_at, 80, |text, from| {
            assert_eq!(
                scan_text(text, from),
                naive_text_stop(text, from),
                "{text:?} from {from}"
            );
        });
    }

    proptest::proptest! {
        #[test]
        fn scan_text_matches_a_byte_loop(text: Vec<u8>, from in 0usize..90) {
            proptest::prop_assert_eq!(scan_text(&text, from), naive_text_stop(&text, from));
        }
    }
}
