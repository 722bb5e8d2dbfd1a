//! libFuzzer target: see `zkaccel_fuzz::merkle_commitment`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| zkaccel_fuzz::merkle_commitment(data));
