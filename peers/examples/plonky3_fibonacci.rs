//! Plonky3's uni-stark proving the Fibonacci AIR (its own protocol and hash: Poseidon2 over
//! Goldilocks, width 8, its FRI), for context beside starky and zkaccel: not the same proof,
//! so its time is reported, not compared. Blowup 2, 84 queries and 16 bits of query grinding,
//! as starky's `standard_fast_config`.
//!
//! `RUSTC_BOOTSTRAP=1 cargo run --release --manifest-path peers/Cargo.toml --features
//! plonky3-stark --example plonky3_fibonacci -- LOG_ROWS [ROUNDS]` (set `RAYON_NUM_THREADS`).

use std::time::Instant;

use p3_air::{Air, AirBuilder, BaseAir, WindowAccess};
use p3_challenger::DuplexChallenger;
use p3_commit::ExtensionMmcs;
use p3_dft::Radix2DitParallel;
use p3_field::extension::BinomialExtensionField;
use p3_field::{Field, PrimeCharacteristicRing, PrimeField64};
use p3_fri::{FriParameters, TwoAdicFriPcs};
use p3_goldilocks::{Goldilocks, Poseidon2Goldilocks};
use p3_matrix::dense::RowMajorMatrix;
use p3_merkle_tree::MerkleTreeMmcs;
use p3_symmetric::{PaddingFreeSponge, TruncatedPermutation};
use p3_uni_stark::{prove, verify, StarkConfig};
use rand_010::SeedableRng;

/// Two columns; public inputs a, b and the last row's second column.
struct FibonacciAir;

impl<F> BaseAir<F> for FibonacciAir {
    fn width(&self) -> usize {
        2
    }
    fn num_public_values(&self) -> usize {
        3
    }
    fn max_constraint_degree(&self) -> Option<usize> {
        Some(2)
    }
}

impl<AB: AirBuilder> Air<AB> for FibonacciAir {
    fn eval(&self, builder: &mut AB) {
        let main = builder.main();
        let pis = builder.public_values();
        let (a, b, x) = (pis[0], pis[1], pis[2]);
        let local: &[AB::Var] = main.current_slice();
        let next: &[AB::Var] = main.next_slice();
        let (l0, l1, n0, n1) = (local[0], local[1], next[0], next[1]);
        let mut first = builder.when_first_row();
        first.assert_eq(l0, a);
        first.assert_eq(l1, b);
        let mut transition = builder.when_transition();
        transition.assert_eq(l1, n0);
        transition.assert_eq(l0 + l1, n1);
        builder.when_last_row().assert_eq(l1, x);
    }
}

type Val = Goldilocks;
type Perm = Poseidon2Goldilocks<8>;
type Hash = PaddingFreeSponge<Perm, 8, 4, 4>;
type Compress = TruncatedPermutation<Perm, 2, 4, 8>;
type ValMmcs =
    MerkleTreeMmcs<<Val as Field>::Packing, <Val as Field>::Packing, Hash, Compress, 2, 4>;
type Challenge = BinomialExtensionField<Val, 2>;
type ChallengeMmcs = ExtensionMmcs<Val, Challenge, ValMmcs>;
type Challenger = DuplexChallenger<Val, Perm, 8, 4>;
type Pcs = TwoAdicFriPcs<Val, Radix2DitParallel<Val>, ValMmcs, ChallengeMmcs>;
type Config = StarkConfig<Pcs, Challenge, Challenger>;

fn config() -> Config {
    let mut rng = rand_010::rngs::SmallRng::seed_from_u64(1);
    let perm = Perm::new_from_rng_128(&mut rng);
    let val_mmcs = ValMmcs::new(Hash::new(perm.clone()), Compress::new(perm.clone()), 0);
    let fri = FriParameters {
        log_blowup: 1,
        log_final_poly_len: 0,
        max_log_arity: 1,
        num_queries: 84,
        batch_proof_of_work_bits: 0,
        commit_proof_of_work_bits: 0,
        query_proof_of_work_bits: 16,
        mmcs: ChallengeMmcs::new(val_mmcs.clone()),
    };
    Config::new(
        Pcs::new(Radix2DitParallel::default(), val_mmcs, fri),
        Challenger::new(perm),
    )
}

fn trace(log_rows: usize) -> (RowMajorMatrix<Val>, Vec<Val>) {
    let n = 1 << log_rows;
    let mut values = Vec::with_capacity(2 * n);
    let (mut u, mut v) = (Val::ZERO, Val::ONE);
    for _ in 0..n {
        values.extend([u, v]);
        (u, v) = (v, u + v);
    }
    let last = values[2 * n - 1];
    (
        RowMajorMatrix::new(values, 2),
        vec![Val::ZERO, Val::ONE, last],
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let log_rows: usize = args.get(1).map_or(16, |a| a.parse().expect("LOG_ROWS"));
    let rounds: usize = args.get(2).map_or(3, |a| a.parse().expect("ROUNDS"));
    let config = config();
    let (t, pis) = trace(log_rows);
    let mut best = f64::MAX;
    let mut proof = None;
    for _ in 0..rounds {
        let started = Instant::now();
        proof = Some(prove(&config, &FibonacciAir, t.clone(), &pis).expect("proves"));
        best = best.min(started.elapsed().as_secs_f64());
    }
    verify(&config, &FibonacciAir, &proof.expect("a round ran"), &pis).expect("verifies");
    println!(
        "Plonky3 uni-stark Fibonacci 2^{log_rows} (Poseidon2 Goldilocks width 8, blowup 2, 84 \
         queries, 16 grinding bits), {} threads: {best:.3} s (last row {})",
        rayon::current_num_threads(),
        pis[2].as_canonical_u64()
    );
}
