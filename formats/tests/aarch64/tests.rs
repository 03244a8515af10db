// Runs the NEON tests of scan/tests.rs, their text taken from it (tests_block.rs), on
// aarch64, with scan/neon.rs (block.rs). find_string_special is composed as scan/mod.rs
// composes it where sixteen bytes are left; where fewer are, a naive scan stands in for
// scan/mod.rs's words.
// Built and run by run.sh (as root: it may install with apt).
#![allow(dead_code)]
fn find_string_special_words<const QUOTE: u8, const DEL: bool>(
    bytes: &[u8],
    mut i: usize,
) -> usize {
    while let Some(&b) = bytes.get(i) {
        if b == QUOTE || b == b'\\' || b < 0x20 || (DEL && b == 0x7F) {
            return i;
        }
        i += 1;
    }
    i
}
fn find_string_special<const QUOTE: u8, const DEL: bool>(bytes: &[u8], i: usize) -> usize {
    if let Some(mask) = neon::special_mask16::<QUOTE, DEL>(bytes, i) {
        if mask != 0 {
            return i + neon::first_flagged(mask);
        }
        return neon::find_string_special::<QUOTE, DEL>(bytes, i + 16);
    }
    find_string_special_words::<QUOTE, DEL>(bytes, i)
}
include!("block.rs");
mod tests {
    use super::*;
    include!("tests_block.rs");
}
fn main() {
    tests::block_and_word_scans_find_every_stop_at_every_place();
    tests::neon_sixteen_byte_masks_flag_exactly_the_stops();
    println!("the NEON tests of scan/tests.rs passed");
}
