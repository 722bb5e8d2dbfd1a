//! libFuzzer target: see `zkaccel_fuzz::field_bytes`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| zkaccel_fuzz::field_bytes(data));
