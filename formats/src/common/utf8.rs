//! Whole-document UTF-8 validation, faster than `std::str::from_utf8` on text that is
//! not mostly ASCII (prose in other scripts, emoji): every parser validates its input
//! once, up front, and this was a third of decoding such a document.
//!
//! A shift-based DFA: each byte's table entry packs, for every state, the next state
//! as a shift amount, so a step is one load and one shift with no branch, and runs of
//! ASCII are skipped sixteen bytes at a time. On failure, std's validator finds the
//! exact offset (errors are rare; the position must match std's).

/// States, as shift amounts (6 bits per state in a table entry).
const ACCEPT: u32 = 0;
const REJECT: u32 = 6;
/// One continuation byte to go.
const CONT1: u32 = 12;
/// Two to go.
const CONT2: u32 = 18;
/// After `E0`: `A0..=BF`, then one.
const E0: u32 = 24;
/// After `ED`: `80..=9F` (no surrogates), then one.
const ED: u32 = 30;
/// Three to go.
const CONT3: u32 = 36;
/// After `F0`: `90..=BF`, then two.
const F0: u32 = 42;
/// After `F4`: `80..=8F` (nothing above U+10FFFF), then two.
const F4: u32 = 48;

/// A table entry: the next state from each state listed (every other state rejects).
const fn entry(moves: &[(u32, u32)]) -> u64 {
    let mut row = 0u64;
    let mut state = 0;
    while state <= F4 {
        row |= (REJECT as u64) << state;
        state += 6;
    }
    let mut i = 0;
    while i < moves.len() {
        let (from, to) = moves[i];
        row &= !(63u64 << from);
        row |= (to as u64) << from;
        i += 1;
    }
    row
}

static TABLE: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b {
            0x00..=0x7F => entry(&[(ACCEPT, ACCEPT)]),
            0x80..=0x8F => entry(&[
                (CONT1, ACCEPT),
                (CONT2, CONT1),
                (ED, CONT1),
                (CONT3, CONT2),
                (F4, CONT2),
            ]),
            0x90..=0x9F => entry(&[
                (CONT1, ACCEPT),
                (CONT2, CONT1),
                (ED, CONT1),
                (CONT3, CONT2),
                (F0, CONT2),
            ]),
            0xA0..=0xBF => entry(&[
                (CONT1, ACCEPT),
                (CONT2, CONT1),
                (E0, CONT1),
                (CONT3, CONT2),
                (F0, CONT2),
            ]),
            0xC2..=0xDF => entry(&[(ACCEPT, CONT1)]),
            0xE0 => entry(&[(ACCEPT, E0)]),
            0xED => entry(&[(ACCEPT, ED)]),
            0xE1..=0xEF => entry(&[(ACCEPT, CONT2)]),
            0xF0 => entry(&[(ACCEPT, F0)]),
            0xF1..=0xF3 => entry(&[(ACCEPT, CONT3)]),
            0xF4 => entry(&[(ACCEPT, F4)]),
            // C0, C1 and F5..=FF never appear in UTF-8.
            _ => entry(&[]),
        };
        b += 1;
    }
    table
};

/// `input` as text, or the offset where it stops being valid UTF-8 (as
/// `Utf8Error::valid_up_to` gives it).
pub fn validate(input: &[u8]) -> Result<&str, usize> {
    if !is_utf8(input) {
        return Err(match std::str::from_utf8(input) {
            Ok(_) => input.len(),
            Err(e) => e.valid_up_to(),
        });
    }
    #[allow(unsafe_code)]
    // SAFETY: `is_utf8` accepted every byte: the DFA accepts exactly the well-formed
    // UTF-8 of RFC 3629 (no overlongs, surrogates or code points above U+10FFFF),
    // checked against std's validator exhaustively for every sequence of up to four
    // bytes over each byte class's edges and by property tests on arbitrary input.
    Ok(unsafe { std::str::from_utf8_unchecked(input) })
}

/// Whether `input` is well-formed UTF-8.
fn is_utf8(input: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut state = ACCEPT;
    let mut i = 0;
    while i < input.len() {
        // Between characters, skip ASCII sixteen bytes at a time.
        if state == ACCEPT {
            while let Some(chunk) = input.get(i..i + 16) {
                let mut words = [0u8; 16];
                words.copy_from_slice(chunk);
                let low = u64::from_le_bytes([
                    words[0], words[1], words[2], words[3], words[4], words[5], words[6], words[7],
                ]);
                let high = u64::from_le_bytes([
                    words[8], words[9], words[10], words[11], words[12], words[13], words[14],
                    words[15],
                ]);
                if (low | high) & HIGH != 0 {
                    break;
                }
                i += 16;
            }
        }
        // Then up to sixteen steps of the DFA (the shift takes the low six bits of the
        // state, so no mask is needed between steps), and one check.
        let end = input.len().min(i + 16);
        for &b in &input[i..end] {
            state = (TABLE[b as usize] >> (state & 63)) as u32;
        }
        state &= 63;
        if state == REJECT {
            return false;
        }
        i = end;
    }
    state == ACCEPT
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

    proptest::proptest! {
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
