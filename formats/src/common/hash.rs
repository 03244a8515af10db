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

/// An index of the names in a caller's list, by position: a hash table of positions
/// that hashes each name once, with a seed of its own. Growing moves each entry by the
/// hash bits it keeps, and a lookup compares a name's text only where those bits match.
/// For lists that only ever gain names; the caller keeps the names.
#[derive(Debug, Clone)]
pub(crate) struct NameIndex {
    state: KeyHashState,
    /// Per slot, the top 32 bits of a name's hash and its position ([`NameIndex::EMPTY`]
    /// for none). A power of two long, at most half full.
    slots: Box<[(u32, u32)]>,
    len: usize,
}

impl NameIndex {
    /// The position of an empty slot (no list reaches it: positions are `u32`s below it).
    const EMPTY: u32 = u32::MAX;

    /// An empty index with room for `names` names before it grows.
    pub(crate) fn with_capacity(names: usize) -> Self {
        let slots = (2 * names).next_power_of_two().max(8);
        NameIndex {
            state: KeyHashState::default(),
            slots: vec![(0, Self::EMPTY); slots].into_boxed_slice(),
            len: 0,
        }
    }

    /// The top 32 bits of `name`'s hash.
    #[inline]
    fn hash(&self, name: &str) -> u32 {
        let mut hasher = self.state.build_hasher();
        hasher.write(name.as_bytes());
        (hasher.finish() >> 32) as u32
    }

    /// The position of `name`, where `name_at` gives the name at each indexed position.
    #[inline]
    pub(crate) fn get<'n>(&self, name: &str, name_at: impl Fn(u32) -> &'n str) -> Option<u32> {
        let hash = self.hash(name);
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let (bits, at) = self.slots[i];
            if at == Self::EMPTY {
                return None;
            }
            if bits == hash && name_at(at) == name {
                return Some(at);
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds `name` at `position` (`name` is not in the index, and `position` is below
    /// `u32::MAX`).
    pub(crate) fn insert(&mut self, name: &str, position: u32) {
        debug_assert!(position != Self::EMPTY);
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let hash = self.hash(name);
        self.place(hash, position);
        self.len += 1;
    }

    /// Puts an entry in the first empty slot from where its hash points.
    fn place(&mut self, hash: u32, position: u32) {
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        while self.slots[i].1 != Self::EMPTY {
            i = (i + 1) & mask;
        }
        self.slots[i] = (hash, position);
    }

    /// Doubles the slots, moving every entry by its kept hash bits.
    #[cold]
    fn grow(&mut self) {
        let doubled = vec![(0, Self::EMPTY); 2 * self.slots.len()].into_boxed_slice();
        let old = std::mem::replace(&mut self.slots, doubled);
        for &(hash, position) in old.iter().filter(|&&(_, at)| at != Self::EMPTY) {
            self.place(hash, position);
        }
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

    #[test]
    fn a_name_index_finds_every_name_added_by_its_text_as_it_grows() {
        // Names alike in their first and last eight bytes and their length, which a hash
        // of those alone would put in one slot.
        let names: Vec<String> = (0..300)
            .map(|i| format!("abcdefgh{i:04}ijklmnop"))
            .collect();
        let mut index = NameIndex::with_capacity(4);
        for (n, name) in names.iter().enumerate() {
            assert_eq!(
                index.get(name, |at| &names[at as usize]),
                None,
                "{name} before"
            );
            index.insert(name, n as u32);
            for (m, added) in names[..=n].iter().enumerate() {
                assert_eq!(index.get(added, |at| &names[at as usize]), Some(m as u32));
            }
            assert_eq!(index.get("absent", |at| &names[at as usize]), None);
        }
        assert!(
            index.slots.len() >= 2 * names.len(),
            "{} slots",
            index.slots.len()
        );
        // Only the text decides: an entry with the very hash bits of "b" is not "b".
        let mut index = NameIndex::with_capacity(1);
        let hash = index.hash("b");
        let mask = index.slots.len() - 1;
        index.slots[hash as usize & mask] = (hash, 0);
        assert_eq!(index.get("b", |_| "a"), None);
        assert_eq!(index.get("b", |_| "b"), Some(0));
    }
}
