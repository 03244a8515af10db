//! Standard base64 (RFC 4648, with padding): how bytes travel through formats that
//! have no binary type (JSON, YAML, TOML, XML text).

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

const fn decode_table() -> [u8; 256] {
    let mut table = [0xFF; 256];
    let mut i = 0;
    while i < 64 {
        table[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    table
}

const DECODE: [u8; 256] = decode_table();

/// Encodes `bytes` as padded standard base64.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let sextets = [n >> 18, n >> 12, n >> 6, n].map(|s| ALPHABET[(s & 63) as usize] as char);
        out.push(sextets[0]);
        out.push(sextets[1]);
        out.push(if chunk.len() > 1 { sextets[2] } else { '=' });
        out.push(if chunk.len() > 2 { sextets[3] } else { '=' });
    }
    out
}

/// Decodes padded or unpadded standard base64, ignoring ASCII whitespace.
/// Returns `None` on any other character or a malformed length.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut acc = 0u32;
    let mut bits = 0u32;
    let mut padding = 0;
    for &c in text.as_bytes() {
        if c.is_ascii_whitespace() {
            continue;
        }
        if c == b'=' {
            padding += 1;
            continue;
        }
        if padding > 0 {
            return None;
        }
        let v = DECODE[c as usize];
        if v == 0xFF {
            return None;
        }
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // A final group of 1 sextet cannot encode a byte; leftover bits must be zero-free.
    if bits >= 6 || padding > 2 {
        return None;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc4648_vectors() {
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in cases {
            assert_eq!(encode(plain.as_bytes()), encoded);
            assert_eq!(decode(encoded).unwrap(), plain.as_bytes());
        }
    }

    #[test]
    fn rejects_garbage_and_accepts_whitespace() {
        assert_eq!(decode("Zm9v\n YmFy").unwrap(), b"foobar");
        assert!(decode("Zm9v!").is_none());
        assert!(decode("Z").is_none());
        assert!(decode("Zg==Zg").is_none());
    }

    proptest::proptest! {
        #[test]
        fn round_trips(bytes: Vec<u8>) {
            proptest::prop_assert_eq!(decode(&encode(&bytes)).unwrap(), bytes);
        }
    }
}
