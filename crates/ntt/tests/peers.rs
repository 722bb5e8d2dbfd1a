//! Differential tests on random inputs: BN254 and BLS12-381 against ark-poly 0.5's
//! `Radix2EvaluationDomain` (FFT, inverse, coset FFT, LDE), Goldilocks and Goldilocks² against
//! Plonky3 0.8's `p3-dft` (`Radix2DFTSmallBatch` and `Radix2Dit`: DFT of a vector and of an
//! index-major batch, inverse, `coset_lde_batch`). Their outputs are the expected values.

use ark_ff::{BigInteger, PrimeField as ArkPrimeField};
use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};
use p3_dft::{Radix2DFTSmallBatch, Radix2Dit, TwoAdicSubgroupDft};
use p3_field::extension::BinomialExtensionField;
use p3_field::{BasedVectorSpace, PrimeField64};
use p3_matrix::dense::RowMajorMatrix;
use rand::RngCore;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_bn254::Fr as Bn;
use zkaccel_field::{ExtensionField, PrimeField};
use zkaccel_field_testing::{random_prime, rng};
use zkaccel_goldilocks::{Goldilocks, Goldilocks2};
use zkaccel_ntt::{lde, Layout, LdeInput, NttField, NttPlan, Order};

fn to_ark<F: PrimeField, A: ArkPrimeField>(x: &F) -> A {
    A::from_le_bytes_mod_order(&x.to_bytes_le())
}

fn from_ark<F: PrimeField, A: ArkPrimeField>(x: &A) -> F {
    F::from_bytes_le(&x.into_bigint().to_bytes_le()).expect("canonical")
}

fn against_ark_poly<F: PrimeField + NttField, A: ArkPrimeField>() {
    let mut rng = rng();
    for log_n in [0usize, 1, 5, 10, 13] {
        let n = 1 << log_n;
        let x: Vec<F> = (0..n)
            .map(|_| random_prime(&mut rng as &mut dyn RngCore))
            .collect();
        let theirs: Vec<A> = x.iter().map(to_ark).collect();
        let domain = Radix2EvaluationDomain::<A>::new(n).unwrap();
        let back = |v: Vec<A>| v.iter().map(from_ark).collect::<Vec<F>>();
        let plan = NttPlan::<F>::with_algorithm(
            log_n.max(1),
            zkaccel_ntt::Algorithm::FourStep { core_log: 4 },
        )
        .unwrap();

        let mut ours = x.clone();
        plan.forward(&mut ours, Order::NN).unwrap();
        assert_eq!(ours, back(domain.fft(&theirs)), "fft 2^{log_n}");
        let mut ours = x.clone();
        plan.inverse(&mut ours, Order::NN).unwrap();
        assert_eq!(ours, back(domain.ifft(&theirs)), "ifft 2^{log_n}");

        let coset = domain.get_coset(A::GENERATOR).unwrap();
        let mut ours = x.clone();
        plan.coset_forward(&mut ours, F::GENERATOR, Order::NN)
            .unwrap();
        assert_eq!(ours, back(coset.fft(&theirs)), "coset fft 2^{log_n}");
        let mut ours = x.clone();
        plan.coset_inverse(&mut ours, F::GENERATOR, Order::NN)
            .unwrap();
        assert_eq!(ours, back(coset.ifft(&theirs)), "coset ifft 2^{log_n}");

        if log_n <= 10 {
            let big = Radix2EvaluationDomain::<A>::new(n << 3)
                .unwrap()
                .get_coset(A::GENERATOR)
                .unwrap();
            assert_eq!(lde(&x, 3).unwrap(), back(big.fft(&theirs)), "lde 2^{log_n}");
        }
    }
}

#[test]
fn bn254_matches_ark_poly() {
    against_ark_poly::<Bn, ark_bn254::Fr>();
}

#[test]
fn bls12_381_matches_ark_poly() {
    against_ark_poly::<Bls, ark_bls12_381::Fr>();
}

type P3 = p3_goldilocks::Goldilocks;
type P3Ext = BinomialExtensionField<P3, 2>;

/// Goldilocks and Goldilocks² elements as Plonky3's.
trait ToP3: NttField {
    type P: p3_field::TwoAdicField;
    fn to_p3(&self) -> Self::P;
    fn from_p3(x: &Self::P) -> Self;
    fn sample(rng: &mut dyn RngCore) -> Self;
}

impl ToP3 for Goldilocks {
    type P = P3;
    fn to_p3(&self) -> P3 {
        P3::new(self.as_canonical_u64())
    }
    fn from_p3(x: &P3) -> Self {
        Goldilocks::new_canonical(x.as_canonical_u64()).unwrap()
    }
    fn sample(rng: &mut dyn RngCore) -> Self {
        random_prime(rng)
    }
}

impl ToP3 for Goldilocks2 {
    type P = P3Ext;
    fn to_p3(&self) -> P3Ext {
        let c = self.as_base_slice();
        P3Ext::from_basis_coefficients_slice(&[c[0].to_p3(), c[1].to_p3()]).unwrap()
    }
    fn from_p3(x: &P3Ext) -> Self {
        let c: &[P3] = x.as_basis_coefficients_slice();
        Goldilocks2::from_base_slice(&[Goldilocks::from_p3(&c[0]), Goldilocks::from_p3(&c[1])])
            .unwrap()
    }
    fn sample(rng: &mut dyn RngCore) -> Self {
        Goldilocks2::from_base_slice(&[random_prime(rng), random_prime(rng)]).unwrap()
    }
}

fn against_plonky3<F: ToP3>() {
    let mut rng = rng();
    let small_batch = Radix2DFTSmallBatch::<F::P>::default();
    let dit = Radix2Dit::<F::P>::default();
    let back = |v: &[F::P]| v.iter().map(F::from_p3).collect::<Vec<F>>();
    for (log_n, width) in [(0usize, 1usize), (3, 2), (9, 1), (12, 3), (14, 1), (8, 17)] {
        let n = 1 << log_n;
        let x: Vec<F> = (0..n * width).map(|_| F::sample(&mut rng)).collect();
        let theirs: Vec<F::P> = x.iter().map(F::to_p3).collect();
        let plan = NttPlan::<F>::new(log_n + 3).unwrap();

        // Index-major batch (Plonky3's row-major matrix with `width` columns).
        let mut ours = x.clone();
        plan.forward_batch(&mut ours, width, Layout::IndexMajor, Order::NN)
            .unwrap();
        let mat = RowMajorMatrix::new(theirs.clone(), width);
        assert_eq!(
            ours,
            back(&small_batch.dft_batch(mat.clone()).values),
            "dft 2^{log_n}×{width}"
        );
        assert_eq!(
            ours,
            back(&dit.dft_batch(mat.clone()).values),
            "Radix2Dit 2^{log_n}×{width}"
        );
        let mut ours = x.clone();
        plan.inverse_batch(&mut ours, width, Layout::IndexMajor, Order::NN)
            .unwrap();
        assert_eq!(
            ours,
            back(&small_batch.idft_batch(mat.clone()).values),
            "idft 2^{log_n}×{width}"
        );

        // LDE from evaluations onto the coset GENERATOR·K, |K| = 8n (each column).
        let shift = F::GENERATOR;
        let want = back(&small_batch.coset_lde_batch(mat, 3, shift.to_p3()).values);
        for col in 0..width {
            let column: Vec<F> = (0..n).map(|i| x[i * width + col]).collect();
            let got = plan.lde_from_evaluations(&column, 3, shift).unwrap();
            let expected: Vec<F> = (0..n << 3).map(|i| want[i * width + col]).collect();
            assert_eq!(got, expected, "lde 2^{log_n} column {col}");
        }
        batched_lde_matches(&plan, &x, width, &small_batch);
    }
    // Sizes whose extension crosses the four-step core (2^12) in both passes.
    for (log_n, width) in [(11usize, 5usize), (13, 2)] {
        let x: Vec<F> = (0..width << log_n).map(|_| F::sample(&mut rng)).collect();
        batched_lde_matches(
            &NttPlan::<F>::new(log_n + 3).unwrap(),
            &x,
            width,
            &small_batch,
        );
    }
    // Single points whose four-step split may put the columns on the cheap roots (2^15 and
    // 2^16 on AVX-512 Goldilocks), and one on each side of them: four polynomials one after
    // another (a batch that shares its row twiddles where a polynomial fits half the
    // level-2 cache) and a single vector (with its input check), forward and inverse.
    for log_n in [14usize, 15, 16, 17] {
        let plan = NttPlan::<F>::new(log_n).unwrap();
        let x: Vec<F> = (0..4 << log_n).map(|_| F::sample(&mut rng)).collect();
        let (mut fwd, mut inv) = (Vec::new(), Vec::new());
        for p in x.chunks(1 << log_n) {
            let theirs: Vec<F::P> = p.iter().map(F::to_p3).collect();
            fwd.extend(back(&small_batch.dft(theirs.clone())));
            inv.extend(back(&small_batch.idft(theirs)));
        }
        let mut ours = x.clone();
        plan.forward_batch(&mut ours, 4, Layout::PolynomialMajor, Order::NN)
            .unwrap();
        assert_eq!(ours, fwd, "dft of 4 × 2^{log_n}, polynomial-major");
        let mut ours = x.clone();
        plan.inverse_batch(&mut ours, 4, Layout::PolynomialMajor, Order::NN)
            .unwrap();
        assert_eq!(ours, inv, "idft of 4 × 2^{log_n}, polynomial-major");
        let mut one = x[..1 << log_n].to_vec();
        plan.forward(&mut one, Order::NN).unwrap();
        assert_eq!(one, fwd[..1 << log_n], "dft 2^{log_n}");
    }
    // A single vector.
    let x: Vec<F> = (0..1 << 11).map(|_| F::sample(&mut rng)).collect();
    let mut ours = x.clone();
    zkaccel_ntt::ntt(&mut ours, Order::NN).unwrap();
    assert_eq!(
        ours,
        back(&small_batch.dft(x.iter().map(F::to_p3).collect()))
    );
    // The coset shift convention: the same multiplicative generator.
    assert_eq!(F::GENERATOR.to_p3(), <F::P as p3_field::Field>::GENERATOR);
}

/// `lde_batch` in both layouts, from evaluations and from coefficients, against Plonky3's
/// `coset_lde_batch` on the row-major matrix `x` of `width` columns (blowups 2 and 8).
fn batched_lde_matches<F: ToP3>(
    plan: &NttPlan<F>,
    x: &[F],
    width: usize,
    p3: &Radix2DFTSmallBatch<F::P>,
) {
    let n = x.len() / width;
    let back = |v: &[F::P]| v.iter().map(F::from_p3).collect::<Vec<F>>();
    let shift = F::GENERATOR;
    let column_major = |m: &[F], rows: usize| -> Vec<F> {
        (0..width)
            .flat_map(|c| (0..rows).map(move |r| m[r * width + c]))
            .collect()
    };
    // The coefficients, as Plonky3's inverse transform gives them.
    let coefficients = back(
        &p3.idft_batch(RowMajorMatrix::new(x.iter().map(F::to_p3).collect(), width))
            .values,
    );
    for k in [1usize, 3] {
        if n.trailing_zeros() as usize + k > plan.max_log_n() {
            continue;
        }
        let mat = RowMajorMatrix::new(x.iter().map(F::to_p3).collect(), width);
        let want = back(&p3.coset_lde_batch(mat, k, shift.to_p3()).values);
        for (input, data) in [
            (LdeInput::Evaluations, x),
            (LdeInput::Coefficients, &coefficients[..]),
        ] {
            let got = plan
                .lde_batch(data, width, Layout::IndexMajor, k, shift, input)
                .unwrap();
            assert_eq!(
                got, want,
                "index-major {input:?} 2^{n}×{width} blowup 2^{k}"
            );
            let got = plan
                .lde_batch(
                    &column_major(data, n),
                    width,
                    Layout::PolynomialMajor,
                    k,
                    shift,
                    input,
                )
                .unwrap();
            assert_eq!(
                got,
                column_major(&want, n << k),
                "polynomial-major {input:?} 2^{n}×{width} blowup 2^{k}"
            );
        }
    }
}

#[test]
fn goldilocks_matches_plonky3() {
    against_plonky3::<Goldilocks>();
}

#[test]
fn goldilocks2_matches_plonky3() {
    against_plonky3::<Goldilocks2>();
}

/// bellman's H computation redone with ark-poly's domains.
fn ark_h<A: ArkPrimeField>(a: &[A], b: &[A], c: &[A]) -> Vec<A> {
    let domain = Radix2EvaluationDomain::<A>::new(a.len()).unwrap();
    let m = domain.size();
    let coset = domain.get_coset(A::GENERATOR).unwrap();
    let on_coset = |v: &[A]| coset.fft(&domain.ifft(v));
    let (ea, eb, ec) = (on_coset(a), on_coset(b), on_coset(c));
    let z_inv = ark_ff::Field::inverse(&(ark_ff::Field::pow(&A::GENERATOR, [m as u64]) - A::one()))
        .unwrap();
    let q: Vec<A> = ea
        .iter()
        .zip(&eb)
        .zip(&ec)
        .map(|((x, y), z)| (*x * y - z) * z_inv)
        .collect();
    let mut h = coset.ifft(&q);
    h.truncate(m - 1);
    h
}

fn groth16_h_against_ark<F: PrimeField + NttField, A: ArkPrimeField>() {
    let mut rng = rng();
    for len in [1usize, 2, 7, 100, 1024] {
        let sample = |rng: &mut rand::rngs::StdRng| -> Vec<F> {
            (0..len)
                .map(|_| random_prime(rng as &mut dyn RngCore))
                .collect()
        };
        let (a, b, c) = (sample(&mut rng), sample(&mut rng), sample(&mut rng));
        let plan =
            NttPlan::<F>::with_algorithm(11, zkaccel_ntt::Algorithm::FourStep { core_log: 5 })
                .unwrap();
        let ours = zkaccel_ntt::groth16_h(&plan, &a, &b, &c).unwrap();
        let conv = |v: &[F]| v.iter().map(to_ark::<F, A>).collect::<Vec<A>>();
        let theirs: Vec<F> = ark_h(&conv(&a), &conv(&b), &conv(&c))
            .iter()
            .map(from_ark)
            .collect();
        assert_eq!(ours, theirs, "{len} constraints");
    }
}

#[test]
fn groth16_h_matches_ark_poly() {
    groth16_h_against_ark::<Bn, ark_bn254::Fr>();
    groth16_h_against_ark::<Bls, ark_bls12_381::Fr>();
}
