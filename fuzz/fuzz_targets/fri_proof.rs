//! libFuzzer target: see `zkaccel_fuzz::fri_proof`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| zkaccel_fuzz::fri_proof(data));
