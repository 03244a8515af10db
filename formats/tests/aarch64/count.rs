// Instruction counts, under qemu, of the string scan on aarch64: the words against NEON.
// Scans a file from after each stop byte to the next (`count.rs none|words|neon FILE`).
// Built and run by run.sh --count.
#![allow(dead_code)]

// word, bytes_equal, bytes_below, first_flagged, special_flags and
// find_string_special_words, as scan/mod.rs has them.
include!("prelude.rs");

include!("block.rs");

// As scan/mod.rs's find_string_special on targets without SIMD.
#[inline(always)]
fn find_words(bytes: &[u8], mut i: usize) -> usize {
    for _ in 0..2 {
        let chunk = match bytes.get(i..i + 8) {
            Some(c) => c,
            None => return find_string_special_words::<b'"', false>(bytes, i),
        };
        let flagged = special_flags::<b'"', false>(word(chunk));
        if flagged != 0 {
            return i + first_flagged(flagged);
        }
        i += 8;
    }
    find_string_special_words::<b'"', false>(bytes, i)
}

// As scan/mod.rs's find_string_special on aarch64.
#[inline(always)]
fn find_neon(bytes: &[u8], i: usize) -> usize {
    if let Some(mask) = neon::special_mask16::<b'"', false>(bytes, i) {
        if mask != 0 {
            return i + neon::first_flagged(mask);
        }
        return neon::find_string_special::<b'"', false>(bytes, i + 16);
    }
    find_words(bytes, i)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&args[2]).unwrap();
    let neon = args[1] == "neon";
    let none = args[1] == "none";
    let mut i = 0;
    let mut stops = 0usize;
    // Every string of the file from its first byte: scan from after each quote.
    while !none && i < bytes.len() {
        let at = if neon {
            find_neon(&bytes, i)
        } else {
            find_words(&bytes, i)
        };
        stops += 1;
        i = at + 1;
    }
    println!("{} stops", stops);
}
