//! The openstep plist reader through both doors and the validator: no panic, the three agree,
//! the tree converts to the same RawValue, and the value writes back to itself through
//! the binary, XML and OpenStep writers.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quarry_formats::plist::PlistFormat;

#[path = "plist_common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    common::run(PlistFormat::OpenStep, data);
});
