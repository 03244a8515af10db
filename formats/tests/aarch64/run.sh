#!/usr/bin/env bash
# Checks the NEON string scan of formats/src/common/scan/ on aarch64, from an x86_64
# Debian machine: no aarch64 standard library comes with the rustup toolchain here, so the
# NEON module (scan/neon.rs) is compiled alone, with Debian's rustc and its arm64 standard
# library, and run under qemu-user. Not part of CI.
#
#   bash formats/tests/aarch64/run.sh           agreement with a naive scan, and the NEON
#                                               tests of scan/tests.rs
#   bash formats/tests/aarch64/run.sh --count   also instructions executed, words and NEON,
#                                               over corpus files (slow: qemu traces each)
#
# Installs with apt when missing: qemu-user-static, gcc-aarch64-linux-gnu, rustc and
# libstd-rust-dev:arm64 (the arm64 architecture is added to dpkg for it).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
scan="$repo/formats/src/common/scan"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if ! command -v qemu-aarch64-static >/dev/null || ! command -v aarch64-linux-gnu-gcc >/dev/null \
    || [ ! -d /usr/lib/rustlib/aarch64-unknown-linux-gnu ]; then
    dpkg --add-architecture arm64
    apt-get update -q
    apt-get install -y -q qemu-user-static gcc-aarch64-linux-gnu rustc libstd-rust-dev:arm64
fi

{ echo 'mod neon {'; cat "$scan/neon.rs"; echo '}'; } >"$work/block.rs"
# The tests, from the naive scan they compare with to the helper after them; made callable.
sed -n '/^fn naive_special(/,/^fn each_stop_at_each_place(/p' "$scan/tests.rs" | sed '$d' >"$work/tests_block.rs"
sed -n '/^fn each_stop_at_each_place(/,/^}$/p' "$scan/tests.rs" >>"$work/tests_block.rs"
sed -i 's/^#\[test\]$//; s/^fn block_and_word/pub fn block_and_word/; s/^fn neon_sixteen/pub fn neon_sixteen/' \
    "$work/tests_block.rs"
# The word scan count.rs compares with, as scan/mod.rs has it: word, bytes_equal,
# bytes_below, first_flagged, special_flags and find_string_special_words.
{
    sed -n '/^\/\/\/ Eight bytes as a little-endian word/,/^}$/p' "$scan/mod.rs"
    sed -n '/^\/\/\/ The high bit of each byte of `w` equal/,/^\/\/\/ The offset of the first byte at or after/p' "$scan/mod.rs" | sed '$d'
    sed -n '/^\/\/\/ The flags of the bytes of `w` that/,/^\/\/\/ The offset of the first byte at or after `i` that is not/p' "$scan/mod.rs" | sed '$d'
} | sed 's/pub(crate) //' >"$work/prelude.rs"
cp "$here"/agree.rs "$here"/tests.rs "$here"/count.rs "$work/"

run() { qemu-aarch64-static -L /usr/aarch64-linux-gnu "$@"; }
build() {
    /usr/bin/rustc -O --edition 2021 --target aarch64-unknown-linux-gnu \
        -C linker=aarch64-linux-gnu-gcc "$work/$1.rs" -o "$work/$1"
}
build agree && run "$work/agree"
build tests && run "$work/tests"

if [ "${1:-}" = "--count" ]; then
    build count
    for file in twitter.json simdjson-gsoc-2018.json citm_catalog.json simdjson-twitterescaped.json; do
        line="$file"
        for scan_with in none words neon; do
            n=$(run -singlestep -d exec,nochain "$work/count" "$scan_with" \
                "$repo/testdata/corpus/json/$file" 2>&1 >/dev/null | grep -c '^Trace')
            line="$line $scan_with=$n"
        done
        echo "instructions executed: $line (none: the program without the scan)"
    done
fi
