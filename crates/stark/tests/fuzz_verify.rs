//! A mutation fuzzer for proof decoding and verification: each input is a valid proof's
//! encoding with structured damage (flipped bits, overwritten words with field-element edge
//! cases and huge lengths, truncation, insertion, duplication of a chunk, random tails), fed
//! to `decode` and `verify` with the statement pinned. An input that differs from the valid
//! encoding must be rejected with an error; a panic or an accepted forgery stops the run and
//! prints the input's index and seed so it can be replayed.
//!
//! `ZKACCEL_FUZZ_INPUTS=1000000 ZKACCEL_FUZZ_SEED=7 cargo test --release -p zkaccel-stark
//! --test fuzz_verify -- --nocapture` (default 30000 inputs, seed 1; inputs run on all
//! threads; a run takes well under a second per 10^4 inputs, so CI runs the default twice).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use zkaccel_field::Field;
use zkaccel_fri::{FriConfig, FriReductionStrategy};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_kernel_trace::NoTrace;
use zkaccel_plonky2::Plonky2Goldilocks;
use zkaccel_plonky2::{decode_stark_proof, Plonky2Encoding as _};
use zkaccel_stark::{prove, verify, Air, FactorialAir, FibonacciAir, StarkConfig, VerifyMode};

type S = Plonky2Goldilocks;

/// Goldilocks' modulus and its neighbours, little-endian words a decoder must handle.
const EDGE_WORDS: [u64; 8] = [
    0,
    1,
    0xffff_ffff_0000_0000,
    0xffff_ffff_0000_0001,
    0xffff_ffff_0000_0002,
    u64::MAX,
    1 << 32,
    1 << 20,
];

/// Decodes and verifies: `Ok` when accepted, else whether decoding had succeeded.
type Check = dyn Fn(&[u8]) -> Result<(), bool> + Sync;

struct Case {
    name: &'static str,
    bytes: Vec<u8>,
    check: Box<Check>,
}

fn case<A: Air + Copy + 'static>(
    name: &'static str,
    air: A,
    config: StarkConfig,
    degree_bits: usize,
    (trace, pis): (Vec<Vec<Goldilocks>>, Vec<Goldilocks>),
) -> Case {
    let bytes = prove::<_, S>(&air, &config, trace, &pis, &mut NoTrace)
        .expect("a valid trace proves")
        .to_bytes()
        .expect("a proof encodes");
    Case {
        name,
        bytes,
        check: Box::new(move |b| {
            let proof =
                decode_stark_proof::<_, S>(&air, &config, degree_bits, b).map_err(|_| false)?;
            verify(&air, &config, degree_bits, &proof, VerifyMode::Strict).map_err(|_| true)
        }),
    }
}

fn mutate(original: &[u8], rng: &mut impl Rng) -> Vec<u8> {
    let mut b = original.to_vec();
    for _ in 0..rng.gen_range(1..=3) {
        if b.is_empty() {
            b.push(rng.gen());
            continue;
        }
        let len = b.len();
        let at = rng.gen_range(0..len);
        match rng.gen_range(0..8) {
            0 => {
                for _ in 0..rng.gen_range(1..=8) {
                    let i = rng.gen_range(0..len);
                    b[i] ^= 1 << rng.gen_range(0..8);
                }
            }
            1 | 2 => {
                // A word at an element boundary (the encoding is 8-byte aligned throughout).
                let at = at / 8 * 8;
                let word = if rng.gen_bool(0.5) {
                    EDGE_WORDS[rng.gen_range(0..EDGE_WORDS.len())]
                } else {
                    rng.gen()
                };
                let end = (at + 8).min(len);
                b[at..end].copy_from_slice(&word.to_le_bytes()[..end - at]);
            }
            3 => b.truncate(at),
            4 => {
                let extra: Vec<u8> = (0..rng.gen_range(1..64)).map(|_| rng.gen()).collect();
                b.splice(at..at, extra);
            }
            5 => {
                let end = rng.gen_range(at..=len.min(at + 256));
                let chunk = b[at..end].to_vec();
                let to = rng.gen_range(0..=len);
                b.splice(to..to, chunk);
            }
            6 => {
                let end = rng.gen_range(at..=len.min(at + 256));
                b.drain(at..end);
            }
            _ => b.extend((0..rng.gen_range(1..32)).map(|_| rng.gen::<u8>())),
        }
    }
    b
}

/// A positive count from the environment variable `name`, else `default`.
fn env_count(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v:?} is not a count")),
        Err(_) => default,
    }
}

#[test]
fn mutated_proofs_are_rejected_without_panics() {
    let inputs = env_count("ZKACCEL_FUZZ_INPUTS", 30_000);
    let seed = env_count("ZKACCEL_FUZZ_SEED", 1);
    let small = StarkConfig {
        fri_config: FriConfig {
            rate_bits: 1,
            cap_height: 1,
            proof_of_work_bits: 2,
            reduction_strategy: FriReductionStrategy::ConstantArityBits(2, 1),
            num_query_rounds: 3,
        },
        security_bits: 5,
        num_challenges: 2,
    };
    let mut fast = StarkConfig::standard_fast();
    fast.fri_config.num_query_rounds = 4;
    fast.fri_config.proof_of_work_bits = 1;
    fast.security_bits = 5;
    let g = Goldilocks::from_u64_reduced;
    let cases = [
        case(
            "fibonacci 2^3",
            FibonacciAir,
            small.clone(),
            3,
            FibonacciAir::trace(8, g(0), g(1)).unwrap(),
        ),
        case(
            "factorial 2^4",
            FactorialAir,
            small,
            4,
            FactorialAir::trace(16).unwrap(),
        ),
        case(
            "fibonacci 2^5 (rate 3, cap 4)",
            FibonacciAir,
            fast,
            5,
            FibonacciAir::trace(32, g(3), g(5)).unwrap(),
        ),
    ];
    for c in &cases {
        assert!(
            (c.check)(&c.bytes).is_ok(),
            "{}: the valid proof is rejected",
            c.name
        );
    }
    let started = Instant::now();
    let (by_decoder, by_verifier, identical) =
        (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    let failure = (0..inputs).into_par_iter().find_map_any(|i| {
        let input_seed = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ i;
        let mut rng = rand::rngs::StdRng::seed_from_u64(input_seed);
        let c = &cases[(i % cases.len() as u64) as usize];
        let bytes = mutate(&c.bytes, &mut rng);
        match catch_unwind(AssertUnwindSafe(|| (c.check)(&bytes))) {
            Err(_) => Some(format!("input {i} ({}): PANIC", c.name)),
            Ok(Ok(())) if bytes != c.bytes => Some(format!(
                "input {i} ({}): a different encoding ({} bytes) was ACCEPTED",
                c.name,
                bytes.len()
            )),
            Ok(Ok(())) => {
                identical.fetch_add(1, Ordering::Relaxed);
                None
            }
            Ok(Err(decoded)) => {
                let counter = if decoded { &by_verifier } else { &by_decoder };
                counter.fetch_add(1, Ordering::Relaxed);
                None
            }
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    if let Some(f) = failure {
        panic!("{f}; replay with ZKACCEL_FUZZ_SEED={seed}");
    }
    if inputs >= 1000 {
        // The mutations must reach both the decoder's and the verifier's checks.
        assert!(
            by_decoder.load(Ordering::Relaxed) > 0 && by_verifier.load(Ordering::Relaxed) > 0,
            "the mutations no longer reach both checks"
        );
    }
    println!(
        "{inputs} mutated proofs (seed {seed}, {} proofs of {}): {} rejected by the decoder, {} \
         decoded and rejected by the verifier, {} unchanged and accepted; no panic, no forgery \
         accepted; {seconds:.1} s on {} threads",
        cases.len(),
        cases.iter().map(|c| c.name).collect::<Vec<_>>().join(", "),
        by_decoder.load(Ordering::Relaxed),
        by_verifier.load(Ordering::Relaxed),
        identical.load(Ordering::Relaxed),
        rayon::current_num_threads()
    );
}
