//! libFuzzer target: see `zkaccel_fuzz::model_inputs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| zkaccel_fuzz::model_inputs(data));
