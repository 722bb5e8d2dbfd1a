//! Byte equality with starky 1.1.0 on stable Rust: `vectors/starky.json` holds starky's
//! proofs (written by `peers/tests/starky_compat.rs`, which checks on every run that they
//! still are starky's); this proves each case with zkaccel and compares, and verifies the
//! stored proofs.

use serde_json::Value;
use sha3::{Digest, Sha3_256};
use zkaccel_field::Field;
use zkaccel_fri::{FriConfig, FriReductionStrategy};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_kernel_trace::NoTrace;
use zkaccel_plonky2::Plonky2Goldilocks;
use zkaccel_plonky2::{decode_stark_proof, Plonky2Encoding as _};
use zkaccel_stark::{prove, verify, FactorialAir, FibonacciAir, StarkConfig, VerifyMode};

type S = Plonky2Goldilocks;

fn config(name: &str) -> StarkConfig {
    match name {
        "standard_fast" => StarkConfig::standard_fast(),
        "small" => StarkConfig {
            fri_config: FriConfig {
                rate_bits: 2,
                cap_height: 2,
                proof_of_work_bits: 4,
                reduction_strategy: FriReductionStrategy::ConstantArityBits(2, 2),
                num_query_rounds: 10,
            },
            security_bits: 24,
            num_challenges: 1,
        },
        other => panic!("unknown configuration {other}"),
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn our_proofs_are_starkys_bytes() {
    let file: Value =
        serde_json::from_str(include_str!("../../../vectors/starky.json")).expect("valid JSON");
    let cases = file["cases"].as_array().unwrap();
    assert!(cases.len() >= 5);
    for case in cases {
        let air = case["air"].as_str().unwrap();
        let config = config(case["config"].as_str().unwrap());
        let log_rows = case["log_rows"].as_u64().unwrap() as usize;
        let size = case["size"].as_u64().unwrap() as usize;
        let bytes = match air {
            "fibonacci" => {
                let (trace, pis) =
                    FibonacciAir::trace(1 << log_rows, Goldilocks::ZERO, Goldilocks::ONE).unwrap();
                let proof =
                    prove::<_, S>(&FibonacciAir, &config, trace, &pis, &mut NoTrace).unwrap();
                proof.to_bytes().unwrap()
            }
            _ => {
                let (trace, pis) = FactorialAir::trace(1 << log_rows).unwrap();
                let proof =
                    prove::<_, S>(&FactorialAir, &config, trace, &pis, &mut NoTrace).unwrap();
                proof.to_bytes().unwrap()
            }
        };
        let name = format!("{air} 2^{log_rows} {}", case["config"]);
        assert_eq!(bytes.len(), size, "{name}");
        if let Some(want) = case.get("proof_hex") {
            assert!(
                hex(&bytes) == want.as_str().unwrap(),
                "{name}: differs from starky's"
            );
            // starky's proof verifies here.
            match air {
                "fibonacci" => {
                    let p = decode_stark_proof::<_, S>(&FibonacciAir, &config, log_rows, &bytes)
                        .unwrap();
                    verify(&FibonacciAir, &config, log_rows, &p, VerifyMode::Strict).unwrap();
                }
                _ => {
                    let p = decode_stark_proof::<_, S>(&FactorialAir, &config, log_rows, &bytes)
                        .unwrap();
                    verify(&FactorialAir, &config, log_rows, &p, VerifyMode::Strict).unwrap();
                }
            }
        } else {
            let want = case["proof_sha3_256"].as_str().unwrap();
            assert_eq!(hex(&Sha3_256::digest(&bytes)), want, "{name}");
        }
    }
}
