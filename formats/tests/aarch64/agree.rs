// Checks the NEON string scan of scan/neon.rs (module `neon` of block.rs)
// against a naive scan: every stop byte at every place of runs to 130 bytes, and random
// bytes from every start. Built and run by run.sh.
#![allow(dead_code)]

fn naive<const QUOTE: u8, const DEL: bool>(bytes: &[u8], i: usize) -> usize {
    let mut i = i;
    while i < bytes.len() {
        let b = bytes[i];
        if b == QUOTE || b == b'\\' || b < 0x20 || (DEL && b == 0x7F) {
            return i;
        }
        i += 1;
    }
    i
}

fn find_string_special_words<const QUOTE: u8, const DEL: bool>(bytes: &[u8], i: usize) -> usize {
    naive::<QUOTE, DEL>(bytes, i)
}

include!("block.rs");

fn check<const QUOTE: u8, const DEL: bool>(bytes: &[u8], start: usize, checks: &mut u64) {
    let want = naive::<QUOTE, DEL>(bytes, start);
    let got = neon::find_string_special::<QUOTE, DEL>(bytes, start);
    assert_eq!(got, want, "long scan {:?} from {}", bytes, start);
    match neon::special_mask16::<QUOTE, DEL>(bytes, start) {
        None => assert!(bytes.len() - start < 16),
        Some(mask) => {
            assert!(bytes.len() - start >= 16);
            let mut want_mask = 0u64;
            for k in 0..16 {
                if naive::<QUOTE, DEL>(bytes, start + k) == start + k {
                    want_mask |= 0xF << (4 * k);
                }
            }
            assert_eq!(mask, want_mask, "mask {:?} from {}", bytes, start);
            if mask != 0 {
                assert_eq!(start + neon::first_flagged(mask), want);
            }
        }
    }
    *checks += 1;
}

fn main() {
    const PLAIN: [u8; 11] = [
        b'a', 0x20, 0x21, 0x7E, 0x80, 0xFF, 0xC3, b'&', b'0', 0x5B, 0x5D,
    ];
    let stops = [b'"', b'\\', 0x00, 0x1F, 0x7F, b'\'', 0x20, 0x80, 0xFF];
    let mut checks = 0u64;
    for len in 0..=130usize {
        for &start in [0usize, 1, 7, 8, 15, 16, 17, 31, 32, 33]
            .iter()
            .filter(|&&s| s <= len)
        {
            for at in (start..len).map(Some).chain(std::iter::once(None)) {
                for &stop in &stops {
                    let mut bytes: Vec<u8> = (0..len).map(|i| PLAIN[i % PLAIN.len()]).collect();
                    if let Some(at) = at {
                        bytes[at] = stop;
                    }
                    check::<b'"', false>(&bytes, start, &mut checks);
                    check::<b'\'', true>(&bytes, start, &mut checks);
                }
            }
        }
    }
    // Random bytes, stops sparse and dense, every start.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..20_000 {
        let len = (next() % 200) as usize;
        let density = 1 + round % 64;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                let r = next();
                if r % density as u64 == 0 {
                    stops[(r >> 8) as usize % stops.len()]
                } else {
                    PLAIN[(r >> 16) as usize % PLAIN.len()] ^ ((r >> 24) as u8 & 0x40)
                }
            })
            .collect();
        for start in 0..=len {
            check::<b'"', false>(&bytes, start, &mut checks);
            check::<b'\'', true>(&bytes, start, &mut checks);
        }
    }
    println!("NEON scan agrees with the naive scan: {} checks", checks);
}
