//! zkaccel's Goldilocks NTTs against plonky2 1.1.0's `fft`, `ifft`, `coset_fft` and the
//! low-degree extension its `PolynomialBatch::from_values` computes, on random inputs of every
//! size up to 2^12 (and 2^16 for the extension), under both of our algorithms. plonky2 picked
//! another multiplicative generator than Plonky3 (whose convention is our default), so the
//! plans here are made on plonky2's roots (`NttPlan::with_two_adic_root`) and its coset shift.

use plonky2::field::fft::{fft, fft_root_table, ifft};
use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::field::polynomial::{PolynomialCoeffs, PolynomialValues};
use plonky2::field::types::Field as _;
use rand::{Rng, SeedableRng};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_ntt::{Algorithm, NttPlan, Order};
use zkaccel_peers::{from_plonky2, to_plonky2};

fn random(rng: &mut impl Rng, n: usize) -> Vec<Goldilocks> {
    (0..n)
        .map(|_| Goldilocks::new_reduced(rng.gen_range(0..zkaccel_goldilocks::ORDER)))
        .collect()
}

fn theirs(x: &[Goldilocks]) -> Vec<GoldilocksField> {
    x.iter().map(|&v| to_plonky2(v)).collect()
}

fn ours(x: &[GoldilocksField]) -> Vec<Goldilocks> {
    x.iter().map(|&v| from_plonky2(v)).collect()
}

/// Plans on plonky2's roots of unity: the default four-step one, a small-core one and
/// radix-2, so both the row/column split and the plain path meet plonky2 at every size.
fn plans(max_log_n: usize) -> Vec<NttPlan<Goldilocks>> {
    let root = Goldilocks::plonky2_two_adic_generator(32).unwrap();
    [
        Algorithm::FourStep {
            core_log: zkaccel_ntt::DEFAULT_CORE_LOG,
        },
        Algorithm::FourStep { core_log: 3 },
        Algorithm::Radix2,
    ]
    .into_iter()
    .map(|algorithm| NttPlan::with_two_adic_root(max_log_n, algorithm, root).unwrap())
    .collect()
}

/// plonky2's constants are ours: its generator and every subgroup root.
#[test]
fn plonky2_conventions() {
    assert_eq!(
        from_plonky2(GoldilocksField::MULTIPLICATIVE_GROUP_GENERATOR),
        Goldilocks::PLONKY2_GENERATOR
    );
    for bits in 0..=32 {
        assert_eq!(
            from_plonky2(GoldilocksField::primitive_root_of_unity(bits)),
            Goldilocks::plonky2_two_adic_generator(bits).unwrap()
        );
    }
}

#[test]
fn forward_inverse_and_coset_match_plonky2() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let plans = plans(12);
    // plonky2's coset shift (`Field::coset_shift`) is its generator, not Plonky3's 7.
    let shift = Goldilocks::PLONKY2_GENERATOR;
    assert_eq!(to_plonky2(shift), GoldilocksField::coset_shift());
    for log_n in 0..=12 {
        let x = random(&mut rng, 1 << log_n);
        let want_fft = ours(&fft(PolynomialCoeffs::new(theirs(&x))).values);
        let want_ifft = ours(&ifft(PolynomialValues::new(theirs(&x))).coeffs);
        let want_coset = ours(
            &PolynomialCoeffs::new(theirs(&x))
                .coset_fft(to_plonky2(shift))
                .values,
        );
        for plan in &plans {
            let mut v = x.clone();
            plan.forward(&mut v, Order::NN).unwrap();
            assert_eq!(v, want_fft, "fft 2^{log_n}");
            let mut v = x.clone();
            plan.inverse(&mut v, Order::NN).unwrap();
            assert_eq!(v, want_ifft, "ifft 2^{log_n}");
            let mut v = x.clone();
            plan.coset_forward(&mut v, shift, Order::NN).unwrap();
            assert_eq!(v, want_coset, "coset fft 2^{log_n}");
        }
    }
}

/// plonky2's `PolynomialBatch::from_values` extension of one polynomial: `ifft`, zero-pad to
/// `2^rate_bits` times the length, then `coset_fft_with_options` by the coset shift with the
/// zero factor and a root table, as its commitment code calls them.
fn plonky2_lde(values: &[Goldilocks], rate_bits: usize) -> Vec<Goldilocks> {
    let coeffs = ifft(PolynomialValues::new(theirs(values)));
    let table = fft_root_table(values.len() << rate_bits);
    let lde = coeffs.lde(rate_bits).coset_fft_with_options(
        GoldilocksField::coset_shift(),
        Some(rate_bits),
        Some(&table),
    );
    ours(&lde.values)
}

#[test]
fn low_degree_extension_matches_plonky2() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    let plans = plans(20);
    let shift = Goldilocks::PLONKY2_GENERATOR;
    for (log_n, rate_bits) in [(0, 1), (1, 3), (5, 1), (8, 2), (10, 3), (12, 4), (16, 3)] {
        let x = random(&mut rng, 1 << log_n);
        let want = plonky2_lde(&x, rate_bits);
        for plan in &plans {
            let got = plan.lde_from_evaluations(&x, rate_bits, shift).unwrap();
            assert_eq!(got, want, "2^{log_n} blowup 2^{rate_bits}");
        }
    }
}
