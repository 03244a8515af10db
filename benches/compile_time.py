#!/usr/bin/env python3
"""Compile time of quarry's derive against serde_derive, per type.

Generates a scratch crate with N structs of 10 fields each (strings, integers, a Vec, an
Option, a bool, a float) three times: with `#[derive(quarry::Decode, quarry::Encode)]`, with
`#[derive(serde::Deserialize, serde::Serialize)]`, and with no derive (the baseline). Builds
each in debug mode after the dependencies are built, best of several runs, and prints the
cost per type: (time - baseline) / N.

Usage: python3 benches/compile_time.py [N] [RUNS]     (default 50 types, 3 runs)
"""
import os
import subprocess
import sys
import tempfile
import time

N = int(sys.argv[1]) if len(sys.argv) > 1 else 50
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FIELDS = """    pub name: String,
    pub host: String,
    pub port: u16,
    pub retries: u32,
    pub timeout_ms: u64,
    pub ratio: f64,
    pub enabled: bool,
    pub tags: Vec<String>,
    pub owner: Option<String>,
    pub weight: i64,
"""

DERIVES = {
    "quarry": "#[derive(quarry::Decode, quarry::Encode)]",
    "serde": "#[derive(serde::Deserialize, serde::Serialize)]",
    "none": "",
}


def write_crate(root, derive):
    os.makedirs(os.path.join(root, "src"), exist_ok=True)
    with open(os.path.join(root, "Cargo.toml"), "w") as f:
        f.write(f"""[package]
name = "derive-cost"
version = "0.0.0"
edition = "2021"

[dependencies]
quarry = {{ path = "{REPO}" }}
serde = {{ version = "1", features = ["derive"] }}

[workspace]
""")
    with open(os.path.join(root, "src", "lib.rs"), "w") as f:
        for i in range(N):
            f.write(f"{derive}\npub struct Config{i} {{\n{FIELDS}}}\n\n")


def build_seconds(root, target):
    env = dict(os.environ, CARGO_TARGET_DIR=target)
    subprocess.run(["cargo", "build", "-q"], cwd=root, env=env, check=True)  # dependencies
    best = None
    for _ in range(RUNS):
        os.utime(os.path.join(root, "src", "lib.rs"))
        start = time.perf_counter()
        subprocess.run(["cargo", "build", "-q"], cwd=root, env=env, check=True)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best


def main():
    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, "target")
        times = {}
        for name, derive in DERIVES.items():
            root = os.path.join(tmp, name)
            write_crate(root, derive)
            times[name] = build_seconds(root, target)
        base = times["none"]
        print(f"{N} structs x 10 fields, debug build, best of {RUNS}")
        print(f"baseline (no derive): {base:.2f} s")
        for name in ("quarry", "serde"):
            per_type = (times[name] - base) / N * 1000
            print(f"{name}: {times[name]:.2f} s total, {per_type:.1f} ms per type (Decode+Encode / Deserialize+Serialize)")


if __name__ == "__main__":
    main()
