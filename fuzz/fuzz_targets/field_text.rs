//! libFuzzer target: see `zkaccel_fuzz::field_text`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| zkaccel_fuzz::field_text(data));
