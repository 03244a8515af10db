//! A fast hasher for the parsers' key indexes, seeded at random per index.
//!
//! Keys come from untrusted input, so the hash is seeded (an attacker cannot pick keys
//! that collide for every seed) and every word goes through a folded 64×64→128-bit
//! multiply, which mixes high bits into low ones (hash tables pick buckets by the low
//! bits). It is much cheaper than std's SipHash on short keys, which is all a
//! document's keys are.

use std::hash::{BuildHasher, Hasher, RandomState};

const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

/// The high and low halves of `a * b`, xored.
#[inline]
fn folded_multiply(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

/// Builds [`KeyHasher`]s with one random seed.
#[derive(Debug, Clone, Copy)]
pub struct KeyHashState {
    seed: u64,
}

impl Default for KeyHashState {
    fn default() -> Self {
        KeyHashState {
            seed: RandomState::new().hash_one(MULTIPLIER) | 1,
        }
    }
}

impl BuildHasher for KeyHashState {
    type Hasher = KeyHasher;
    #[inline]
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher {
            state: self.seed,
            seed: self.seed,
        }
    }
}

/// The hasher of [`KeyHashState`].
#[derive(Debug, Clone)]
pub struct KeyHasher {
    state: u64,
    seed: u64,
}

impl KeyHasher {
    #[inline]
    fn mix(&mut self, word: u64) {
        self.state = folded_multiply(self.state ^ word, MULTIPLIER ^ self.seed);
    }
}

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.mix(u64::from_le_bytes(chunk.try_into().unwrap_or_default()));
        }
        // The tail's bytes in fixed-size loads (a copy of a variable length would be a
        // call to memcpy): two overlapping halves, or the first, middle and last byte.
        let rest = chunks.remainder();
        let n = rest.len();
        let tail = if n >= 4 {
            let half = |at: usize| {
                u64::from(u32::from_le_bytes(
                    rest[at..at + 4].try_into().unwrap_or_default(),
                ))
            };
            half(0) | half(n - 4) << 32
        } else if n > 0 {
            u64::from(rest[0]) | u64::from(rest[n / 2]) << 8 | u64::from(rest[n - 1]) << 16
        } else {
            0
        };
        // The length goes in with the tail, so "a" and "a\0" differ.
        self.mix(tail ^ ((bytes.len() as u64) << 56));
    }

    #[inline]
    fn write_u8(&mut self, byte: u8) {
        self.mix(u64::from(byte));
    }

    #[inline]
    fn finish(&self) -> u64 {
        folded_multiply(self.state, self.seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn equal_keys_hash_equal_and_near_keys_spread() {
        let state = KeyHashState::default();
        assert_eq!(state.hash_one("key"), state.hash_one("key"));
        assert_ne!(state.hash_one("a"), state.hash_one("a\0"));
        // Keys that differ only in high bits of one word still land in different
        // buckets of a small table (the low bits differ).
        let buckets: HashSet<u64> = (0..64u8)
            .map(|i| state.hash_one(format!("f{:02}", i)) & 127)
            .collect();
        assert!(buckets.len() > 32, "{} buckets", buckets.len());
        let high: HashSet<u64> = (0..64u8)
            .map(|i| state.hash_one([b'a', b'a', b'a', b'a', b'a', b'a', b'a', 0x80 | i]) & 127)
            .collect();
        assert!(high.len() > 32, "{} buckets", high.len());
    }

    #[test]
    fn seeds_differ_between_indexes() {
        let (a, b) = (KeyHashState::default(), KeyHashState::default());
        assert_ne!(a.hash_one("key"), b.hash_one("key"));
    }
}
