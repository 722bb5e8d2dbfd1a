//! Algebraic properties: the optimised (sparse and linear partial-round) permutations equal the
//! textbook definition on random parameters and states, every batch kernel equals the
//! single-state permutation, and bad parameters are typed errors.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_bn254::Fr as Bn;
use zkaccel_field::{Field, PrimeField};
use zkaccel_field::{Interleaved, PackedField};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_plonky2::Plonky2Poseidon;
use zkaccel_poseidon::kernels::{permute_lanes_with, PartialRounds};
use zkaccel_poseidon::reference::reference_params;
use zkaccel_poseidon::PoseidonField;
use zkaccel_poseidon::{
    check_alpha, permute_textbook, Matrix, Poseidon, PoseidonError, PoseidonParams, UniformRounds,
};
use zkaccel_presets::{CircomPoseidon, NeptunePoseidon, Strength};

fn random<F: PrimeField>(rng: &mut impl Rng) -> F {
    let bytes: Vec<u8> = (0..64).map(|_| rng.gen()).collect();
    F::from_bytes_le_reduced(&bytes)
}

/// Random parameters: random constants and a random Cauchy MDS matrix (all minors invertible
/// with overwhelming probability).
fn random_params<F: PrimeField>(
    rng: &mut impl Rng,
    t: usize,
    alpha: u64,
    rf: usize,
    rp: usize,
) -> PoseidonParams<F> {
    let rc = (0..(rf + rp) * t).map(|_| random(rng)).collect();
    let xs: Vec<F> = (0..t).map(|_| random(rng)).collect();
    let ys: Vec<F> = (0..t).map(|_| random(rng)).collect();
    let mds = Matrix::cauchy(&xs, &ys).unwrap();
    PoseidonParams::new(t, alpha, rf, rp, rc, mds.entries().to_vec()).unwrap()
}

/// The batch entry points' lane bounds: every packing width of the field on this CPU, and
/// the bounds that mean the portable kernel.
fn lane_bounds<F: PrimeField>() -> Vec<usize> {
    let mut bounds = F::packing_widths();
    bounds.extend([0, usize::MAX]);
    bounds
}

fn check_fast_equals_textbook<F: PrimeField + PoseidonField>(
    seed: u64,
    t: usize,
    alpha: u64,
    rf: usize,
    rp: usize,
) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let p = Poseidon::new(random_params::<F>(&mut rng, t, alpha, rf, rp)).unwrap();
    let states: Vec<F> = (0..t * 21).map(|_| random(&mut rng)).collect();
    let mut want = states.clone();
    for s in want.chunks_mut(t) {
        p.permute_textbook(s).unwrap();
    }
    let mut one = states.clone();
    for s in one.chunks_mut(t) {
        p.permute(s).unwrap();
    }
    assert_eq!(one, want, "sparse form, t = {t}, R_P = {rp}");
    for lanes in lane_bounds::<F>() {
        let mut many = states.clone();
        p.permute_many_within(lanes, &mut many).unwrap();
        assert_eq!(many, want, "within {lanes} lanes, t = {t}, R_P = {rp}");
    }
    let mut par = states;
    p.permute_many(&mut par).unwrap();
    assert_eq!(par, want, "multi-threaded, t = {t}");
}

/// Every form of the partial rounds on the scalar field and on interleaved lanes (the SIMD
/// packings run their preferred form through the batch kernels above).
fn check_every_form_equals_textbook<F: PrimeField + PoseidonField>(
    seed: u64,
    t: usize,
    alpha: u64,
    rf: usize,
    rp: usize,
) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let p = Poseidon::new(random_params::<F>(&mut rng, t, alpha, rf, rp)).unwrap();
    let k = p.kernel_constants();
    for form in [
        PartialRounds::Sparse,
        PartialRounds::Linear,
        PartialRounds::Latency,
    ] {
        let states: Vec<F> = (0..2 * t).map(|_| random(&mut rng)).collect();
        let mut want = states.clone();
        for s in want.chunks_mut(t) {
            p.permute_textbook(s).unwrap();
        }
        let mut got = states.clone();
        permute_lanes_with::<F>(k, (), &mut got[..t], form);
        assert_eq!(
            got[..t],
            want[..t],
            "{form:?} form, scalar, t = {t}, R_P = {rp}"
        );
        let mut lanes: Vec<Interleaved<F, 2>> = (0..t)
            .map(|i| Interleaved([states[i], states[t + i]]))
            .collect();
        permute_lanes_with::<Interleaved<F, 2>>(k, (), &mut lanes, form);
        for (i, lane) in lanes.iter().enumerate() {
            let mut two = [F::ZERO; 2];
            lane.write_to_slice(&mut two);
            assert_eq!(
                two,
                [want[i], want[t + i]],
                "{form:?} form, interleaved, t = {t}"
            );
        }
    }
}

/// The uniform rounds (one constant vector per round, dense or sparse layers: the hardware
/// engines' form) equal the textbook permutation; their layers' entries equal their action.
fn check_uniform_equals_textbook<F: PrimeField + PoseidonField>(
    seed: u64,
    t: usize,
    alpha: u64,
    rf: usize,
    rp: usize,
) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let params = random_params::<F>(&mut rng, t, alpha, rf, rp);
    let uniform = UniformRounds::derive(&params).unwrap();
    assert_eq!(uniform.rounds(), rf + rp);
    for _ in 0..3 {
        let state: Vec<F> = (0..t).map(|_| random(&mut rng)).collect();
        let mut want = state.clone();
        permute_textbook(&params, &mut want);
        let mut got = state;
        uniform.permute(&mut got).unwrap();
        assert_eq!(got, want, "uniform rounds, t = {t}, R_F = {rf}, R_P = {rp}");
    }
    let z: Vec<F> = (0..t).map(|_| random(&mut rng)).collect();
    for r in 0..uniform.rounds() {
        let layer = uniform.linear(r);
        let by_entries: Vec<F> = (0..t)
            .map(|i| (0..t).fold(F::ZERO, |acc, j| acc + layer.get(i, j) * z[j]))
            .collect();
        assert_eq!(layer.apply(&z), by_entries, "round {r}'s layer");
    }
    assert!(matches!(
        uniform.permute(&mut vec![F::ZERO; t + 1]),
        Err(PoseidonError::InputLength { .. })
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn uniform_rounds_equal_textbook(seed: u64, t in 2usize..14, rf in 1usize..4, rp in 0usize..20) {
        check_uniform_equals_textbook::<Goldilocks>(seed, t, 7, 2 * rf, rp);
        check_uniform_equals_textbook::<Bls>(seed, t.min(6), 5, 2 * rf, rp);
    }

    #[test]
    fn goldilocks_fast_equals_textbook(seed: u64, t in 2usize..14, rp in 0usize..70) {
        check_fast_equals_textbook::<Goldilocks>(seed, t, 7, 4, rp % 12);
        check_every_form_equals_textbook::<Goldilocks>(seed, t, 7, 4, rp);
    }

    #[test]
    fn bn254_fast_equals_textbook(seed: u64, t in 2usize..7, rp in 0usize..30) {
        check_fast_equals_textbook::<Bn>(seed, t, 5, 4, rp % 8);
        check_every_form_equals_textbook::<Bn>(seed, t, 5, 4, rp);
    }

    #[test]
    fn bls12_381_fast_equals_textbook(seed: u64, t in 2usize..7, rp in 0usize..30) {
        check_fast_equals_textbook::<Bls>(seed, t, 5, 2, rp % 8);
        check_every_form_equals_textbook::<Bls>(seed, t, 5, 2, rp);
    }
}

#[test]
fn plonky2_kernels_on_edge_words() {
    // Extremes: p − 1 everywhere, 2^63 + j, non-canonical words near 2^64, zeros.
    let h = Plonky2Poseidon::get().permutation();
    let p = zkaccel_goldilocks::ORDER;
    let states: Vec<Goldilocks> = (0..12 * 32)
        .map(|i| match (i / 12) % 4 {
            0 => Goldilocks::new_reduced(p - 1),
            1 => Goldilocks::new_reduced((1 << 63) + (i as u64 % 12)),
            2 => Goldilocks::new_reduced(u64::MAX - (i as u64 % 12)),
            _ => Goldilocks::ZERO,
        })
        .collect();
    let mut want = states.clone();
    for s in want.chunks_mut(12) {
        h.permute_textbook(s).unwrap();
    }
    for lanes in lane_bounds::<Goldilocks>() {
        let mut got = states.clone();
        h.permute_many_within(lanes, &mut got).unwrap();
        assert_eq!(got, want, "within {lanes} lanes");
    }
}

/// The single permutation (AVX-512 registers where the CPU has them) against the portable
/// kernel and the textbook permutation, on edge words and random states.
fn check_single_plonky2(state: [Goldilocks; 12]) {
    let h = Plonky2Poseidon::get();
    let mut want = state;
    h.permutation().permute_textbook(&mut want).unwrap();
    let mut portable = state;
    h.permute_portable(&mut portable);
    assert_eq!(portable, want, "portable kernel on {state:?}");
    let mut single = state;
    h.permute(&mut single);
    assert_eq!(single, want, "single permutation on {state:?}");
}

#[test]
fn plonky2_single_permutation_on_edge_words() {
    let p = zkaccel_goldilocks::ORDER;
    let words = [0, 1, p - 1, p - 2, 1 << 63, (1 << 32) - 1, 1 << 32, p >> 1];
    for (k, &a) in words.iter().enumerate() {
        for &b in &words {
            // Every lane an edge word, lanes 8–11 (the second register) differing.
            let state: [Goldilocks; 12] = core::array::from_fn(|i| {
                Goldilocks::new_reduced(if i < 8 { a } else { b }.wrapping_add((i * k) as u64 % 3))
            });
            check_single_plonky2(state);
        }
    }
}

proptest! {
    #[test]
    fn plonky2_single_permutation_matches(words in proptest::array::uniform12(any::<u64>())) {
        check_single_plonky2(words.map(Goldilocks::new_reduced));
    }
}

#[test]
fn fp256_kernels_on_edge_values() {
    fn check<F: PrimeField + PoseidonField>() {
        // neptune's arity 8 (t = 9) and arity 2 (t = 3), states of p − 1, zero and small values;
        // 37 states: whole groups of every kernel's lanes and a remainder.
        for arity in [2, 8] {
            let h = NeptunePoseidon::<F>::new(arity, Strength::Standard).unwrap();
            let p = h.permutation();
            let t = p.width();
            let states: Vec<F> = (0..t * 37)
                .map(|i| match (i / t) % 3 {
                    0 => -F::ONE,
                    1 => F::ZERO,
                    _ => F::from_u64_reduced(i as u64),
                })
                .collect();
            let mut want = states.clone();
            for s in want.chunks_mut(t) {
                p.permute_textbook(s).unwrap();
            }
            for lanes in lane_bounds::<F>() {
                let mut got = states.clone();
                p.permute_many_within(lanes, &mut got).unwrap();
                assert_eq!(got, want, "within {lanes} lanes, {}, t = {t}", F::NAME);
            }
        }
    }
    check::<Bn>();
    check::<Bls>();
}

#[test]
fn converted_constants_are_made_once_per_representation() {
    let h = NeptunePoseidon::<Bn>::new(2, Strength::Standard).unwrap();
    let p = h.permutation();
    let calls = AtomicUsize::new(0);
    let double = |x: Bn| {
        calls.fetch_add(1, Ordering::Relaxed);
        x + x
    };
    let first = p.converted_constants(double);
    let made = calls.load(Ordering::Relaxed);
    assert!(made >= p.kernel_constants().partial_scalars().len());
    let again = p.converted_constants(double);
    assert!(Arc::ptr_eq(&first, &again));
    assert_eq!(calls.load(Ordering::Relaxed), made, "converted twice");
    let doubled: Vec<Bn> = p
        .kernel_constants()
        .partial_scalars()
        .iter()
        .map(|&x| x + x)
        .collect();
    assert_eq!(first.partial_scalars(), &doubled[..]);
    // Another representation beside it; clones share what was made.
    let tagged = p.converted_constants(|x: Bn| (x, 7u8));
    assert_eq!(
        tagged.partial_scalars()[0],
        (p.kernel_constants().partial_scalars()[0], 7)
    );
    assert!(Arc::ptr_eq(&p.clone().converted_constants(double), &first));
    assert_eq!(calls.load(Ordering::Relaxed), made);
}

#[test]
fn uniform_rounds_equal_every_preset() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    fn check<F: PrimeField + PoseidonField>(params: &PoseidonParams<F>, rng: &mut impl Rng) {
        let uniform = UniformRounds::derive(params).unwrap();
        let p = Poseidon::new(params.clone()).unwrap();
        let t = params.width();
        for state in [vec![F::ZERO; t], vec![F::NEG_ONE; t]]
            .into_iter()
            .chain((0..4).map(|_| (0..t).map(|_| random(rng)).collect()))
        {
            let mut want = state.clone();
            p.permute(&mut want).unwrap();
            let mut got = state;
            uniform.permute(&mut got).unwrap();
            assert_eq!(got, want, "t = {t}");
        }
    }
    for arity in [2, 4, 8, 11] {
        for strength in [Strength::Standard, Strength::Strengthened] {
            check(
                &zkaccel_presets::neptune::params::<Bls>(arity, strength).unwrap(),
                &mut rng,
            );
        }
    }
    for t in 2..=17 {
        check(&zkaccel_presets::circomlib::params(t).unwrap(), &mut rng);
    }
}

#[test]
fn wide_states_fall_back_to_textbook() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let p = Poseidon::new(random_params::<Goldilocks>(&mut rng, 40, 7, 2, 3)).unwrap();
    let s: Vec<Goldilocks> = (0..80).map(|_| random(&mut rng)).collect();
    let mut want = s.clone();
    for c in want.chunks_mut(40) {
        p.permute_textbook(c).unwrap();
    }
    let mut got = s;
    p.permute_many(&mut got).unwrap();
    assert_eq!(got, want);
}

#[test]
fn bad_parameters_are_typed_errors() {
    // x^3 is not a permutation of BN254 or BLS12-381 Fr; x^3 and x^5 are not on Goldilocks.
    assert!(matches!(
        check_alpha::<Bn>(3),
        Err(PoseidonError::AlphaNotPermutation { gcd: 3, .. })
    ));
    assert!(matches!(
        check_alpha::<Bls>(3),
        Err(PoseidonError::AlphaNotPermutation { .. })
    ));
    assert!(matches!(
        check_alpha::<Goldilocks>(5),
        Err(PoseidonError::AlphaNotPermutation { .. })
    ));
    assert!(check_alpha::<Goldilocks>(7).is_ok());
    assert!(matches!(
        check_alpha::<Bn>(1),
        Err(PoseidonError::AlphaTooSmall(1))
    ));
    let z = |n| vec![Goldilocks::ONE; n];
    assert_eq!(
        PoseidonParams::new(1, 7, 8, 0, z(8), z(1)).unwrap_err(),
        PoseidonError::WidthTooSmall(1)
    );
    assert_eq!(
        PoseidonParams::new(3, 7, 7, 0, z(21), z(9)).unwrap_err(),
        PoseidonError::FullRounds(7)
    );
    assert!(matches!(
        PoseidonParams::new(3, 7, 8, 1, z(20), z(9)),
        Err(PoseidonError::ConstantCount {
            expected: 27,
            actual: 20
        })
    ));
    assert!(matches!(
        PoseidonParams::new(3, 7, 8, 0, z(24), z(8)),
        Err(PoseidonError::MdsShape {
            expected: 9,
            actual: 8
        })
    ));
    // An all-ones matrix is singular.
    assert!(matches!(
        PoseidonParams::new(3, 7, 8, 0, z(24), z(9)),
        Err(PoseidonError::MdsSingular { .. })
    ));
    assert!(matches!(
        reference_params::<Bn>(3, 3, 8, 57),
        Err(PoseidonError::AlphaNotPermutation { .. })
    ));
    let p = Plonky2Poseidon::get().permutation();
    assert!(matches!(
        p.permute(&mut z(11)),
        Err(PoseidonError::InputLength {
            expected: 12,
            actual: 11
        })
    ));
    assert!(p.permute_many(&mut z(13)).is_err());
}

/// Hostile sizes are typed errors before any table is built (each of these used to build a
/// t × t matrix, hang, or truncate R_F into the 10-bit Grain seed).
#[test]
fn sizes_past_the_limits_are_typed_errors() {
    use zkaccel_poseidon::grain::{GrainLfsr, GrainSeed};
    use zkaccel_poseidon::limits::{MAX_FULL_ROUNDS, MAX_PARTIAL_ROUNDS, MAX_WIDTH};
    use zkaccel_poseidon::reference::reference_params_auto;
    let limit = |r: Result<(), PoseidonError>, what: &str| match r {
        Err(PoseidonError::Limit { what: w, .. }) => assert_eq!(w, what),
        other => panic!("{what}: {other:?}"),
    };
    for arity in [MAX_WIDTH, 1 << 20, usize::MAX] {
        limit(
            NeptunePoseidon::<Bls>::new(arity, Strength::Standard).map(drop),
            "arity",
        );
    }
    limit(reference_params::<Bn>(100_000, 5, 8, 57).map(drop), "width");
    limit(reference_params_auto::<Bn>(100_000, 5).map(drop), "width");
    limit(
        reference_params::<Bn>(3, 5, 2000, 57).map(drop),
        "full rounds",
    );
    limit(
        reference_params::<Bn>(3, 5, MAX_FULL_ROUNDS + 2, 57).map(drop),
        "full rounds",
    );
    limit(
        reference_params::<Bn>(3, 5, 8, MAX_PARTIAL_ROUNDS + 1).map(drop),
        "partial rounds",
    );
    let seed = GrainSeed {
        field: 1,
        sbox: 0,
        field_bits: 254,
        width: 3,
        full_rounds: 2000,
        partial_rounds: 57,
    };
    limit(
        GrainLfsr::round_constants::<Bn>(seed).map(drop),
        "full rounds",
    );
    limit(
        PoseidonParams::<Bn>::new(MAX_WIDTH + 1, 5, 8, 1, vec![], vec![]).map(drop),
        "width",
    );
    assert!(matches!(
        CircomPoseidon::for_inputs(usize::MAX),
        Err(PoseidonError::WidthNotDefined {
            preset: "circomlib",
            ..
        })
    ));
    // The largest accepted shape passes the checks, and the widest tree hash builds.
    zkaccel_poseidon::limits::check_shape(MAX_WIDTH, MAX_FULL_ROUNDS, MAX_PARTIAL_ROUNDS).unwrap();
    let widest = NeptunePoseidon::<Bls>::new(MAX_WIDTH - 1, Strength::Standard).unwrap();
    assert_eq!(widest.arity(), MAX_WIDTH - 1);
}

/// With `ZKACCEL_SIMD=off` (CI's second test run) the batch kernel has the scalar field's
/// packing alone; otherwise the packings follow the CPU. Either way the scalar one comes last.
#[test]
fn packing_choice_follows_the_cpu_switch() {
    use zkaccel_field::cpu::{features, Avx2, Avx512Ifma};
    let f = features();
    let goldilocks = Goldilocks::packing_widths();
    let bn = Bn::packing_widths();
    let bn_product = zkaccel_fp256::Fp256::<zkaccel_bn254::FrConfig>::mul_backend();
    if f.forced_portable {
        assert_eq!(goldilocks, vec![1]);
        assert_eq!(bn, vec![1]);
        assert_eq!(bn_product, zkaccel_fp256::MulBackend::Portable);
    } else {
        assert_eq!(goldilocks.len() > 1, Avx2::detect().is_some());
        assert_eq!(
            bn.len() > 1,
            Avx2::detect().is_some() || Avx512Ifma::detect().is_some()
        );
        assert_eq!(bn_product == zkaccel_fp256::MulBackend::Adx, f.bmi2_adx,);
    }
    assert_eq!(goldilocks.last(), Some(&1));
}

/// A slice that is not whole states is an error on every batch entry point, and nothing is
/// permuted.
#[test]
fn partial_states_are_errors_on_every_entry_point() {
    let p = Plonky2Poseidon::get().permutation();
    let original: Vec<Goldilocks> = (0..12 * 5 + 7).map(Goldilocks::new_reduced).collect();
    let want = PoseidonError::InputLength {
        expected: 12 * 6,
        actual: 12 * 5 + 7,
    };
    type Entry = Box<dyn Fn(&mut [Goldilocks]) -> Result<(), PoseidonError>>;
    let mut entries: Vec<(String, Entry)> = vec![
        (
            "Poseidon::permute_many".into(),
            Box::new(|s| p.permute_many(s)),
        ),
        (
            "Poseidon::permute_many_single_thread".into(),
            Box::new(|s| p.permute_many_single_thread(s)),
        ),
    ];
    for lanes in lane_bounds::<Goldilocks>() {
        entries.push((
            format!("permute_many_within({lanes})"),
            Box::new(move |s| p.permute_many_within(lanes, s)),
        ));
    }
    assert!(entries.len() >= 5);
    for (name, entry) in &entries {
        let mut states = original.clone();
        assert_eq!(entry(&mut states), Err(want.clone()), "{name}");
        assert_eq!(states, original, "{name} permuted a partial batch");
        let mut whole = original[..60].to_vec();
        entry(&mut whole).unwrap();
        assert_ne!(whole, original[..60], "{name}");
        // An empty batch is whole states: nothing to do, and no error. A lone state (fewer
        // states than any packing's lanes) takes the portable path and is still permuted.
        entry(&mut []).unwrap();
        let mut lone = original[..12].to_vec();
        let mut want = lone.clone();
        p.permute_textbook(&mut want).unwrap();
        entry(&mut lone).unwrap();
        assert_eq!(lone, want, "{name} on one state");
    }
    let bn = NeptunePoseidon::<Bn>::new(2, Strength::Standard).unwrap();
    let mut odd = vec![Bn::ONE; 3 * 4 + 1];
    assert!(matches!(
        bn.permutation().permute_many_single_thread(&mut odd),
        Err(PoseidonError::InputLength { .. })
    ));
}
