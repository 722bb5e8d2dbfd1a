//! One generic suite, run on every field (Goldilocks and its extension, BN254 and BLS12-381
//! Fr, and BLS12-377's 384-bit Fq): every order, algorithm and core size against the
//! O(n²) definition; inverse ∘ forward = identity at sizes that exercise the four-step
//! recursion; cosets and LDEs against direct evaluation; batches in both layouts against
//! single transforms; typed errors for bad shapes.

use rand::rngs::StdRng;
use rand::RngCore;
use zkaccel_bls12_377::Fq as Bls377Fq;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_bn254::Fr as Bn;
use zkaccel_field::ExtensionField;
use zkaccel_field_testing::{random_prime, rng};
use zkaccel_goldilocks::{Goldilocks, Goldilocks2};
use zkaccel_ntt::{
    bit_reverse, lde, ntt, Algorithm, Layout, LdeInput, NttError, NttField, NttPlan, Order,
};

trait Sample: NttField {
    fn sample(rng: &mut StdRng) -> Self;
}

impl Sample for Goldilocks {
    fn sample(rng: &mut StdRng) -> Self {
        random_prime(rng as &mut dyn RngCore)
    }
}
impl Sample for Goldilocks2 {
    fn sample(rng: &mut StdRng) -> Self {
        Goldilocks2::from_base_slice(&[Goldilocks::sample(rng), Goldilocks::sample(rng)]).unwrap()
    }
}
impl Sample for Bn {
    fn sample(rng: &mut StdRng) -> Self {
        random_prime(rng as &mut dyn RngCore)
    }
}
impl Sample for Bls {
    fn sample(rng: &mut StdRng) -> Self {
        random_prime(rng as &mut dyn RngCore)
    }
}
impl Sample for Bls377Fq {
    fn sample(rng: &mut StdRng) -> Self {
        random_prime(rng as &mut dyn RngCore)
    }
}

fn random_vec<F: Sample>(rng: &mut StdRng, n: usize) -> Vec<F> {
    (0..n).map(|_| F::sample(rng)).collect()
}

/// `Σ_i x[i]·(shift·ω^k)^i` for every `k`, with `ω` the size-n root or its inverse.
fn naive<F: NttField>(x: &[F], inverse: bool, shift: F) -> Vec<F> {
    let log_n = x.len().trailing_zeros() as usize;
    naive_with_root(x, F::two_adic_generator(log_n).unwrap(), inverse, shift)
}

/// [`naive`] with the size-n root `w` given.
fn naive_with_root<F: NttField>(x: &[F], mut w: F, inverse: bool, shift: F) -> Vec<F> {
    let n = x.len();
    if inverse {
        w = w.inverse();
    }
    (0..n)
        .map(|k| {
            let point = shift * w.exp_u64(k as u64);
            x.iter().rev().fold(F::ZERO, |acc, &c| acc * point + c)
        })
        .collect()
}

fn reversed<F: Copy + Send + Sync>(x: &[F]) -> Vec<F> {
    let mut y = x.to_vec();
    bit_reverse(&mut y, 1).unwrap();
    y
}

const ORDERS: [Order; 4] = [Order::NN, Order::NR, Order::RN, Order::RR];

fn algorithms() -> Vec<Algorithm> {
    let mut a = vec![Algorithm::Radix2];
    a.extend([1, 2, 3, 12].map(|core_log| Algorithm::FourStep { core_log }));
    a
}

/// `values` laid out in `order`'s input order, and the expected output in its output order.
fn arrange<F: Copy + Send + Sync>(order: Order, input: &[F], output: &[F]) -> (Vec<F>, Vec<F>) {
    let i = if order.input_reversed() {
        reversed(input)
    } else {
        input.to_vec()
    };
    let o = if order.output_reversed() {
        reversed(output)
    } else {
        output.to_vec()
    };
    (i, o)
}

fn against_definition<F: Sample>() {
    let mut rng = rng();
    for log_n in 0..=7 {
        let x = random_vec::<F>(&mut rng, 1 << log_n);
        let n_inv = F::from_u64_reduced(1 << log_n).inverse();
        let forward = naive(&x, false, F::ONE);
        let inverse: Vec<F> = naive(&x, true, F::ONE).iter().map(|&v| v * n_inv).collect();
        for algorithm in algorithms() {
            let plan = NttPlan::<F>::with_algorithm(7, algorithm).unwrap();
            for parallel in [false, true] {
                let plan = plan.clone().parallel(parallel);
                for order in ORDERS {
                    let (mut got, want) = arrange(order, &x, &forward);
                    plan.forward(&mut got, order).unwrap();
                    assert_eq!(got, want, "forward 2^{log_n} {order:?} {algorithm:?}");
                    let (mut got, want) = arrange(order, &x, &inverse);
                    plan.inverse(&mut got, order).unwrap();
                    assert_eq!(got, want, "inverse 2^{log_n} {order:?} {algorithm:?}");
                }
            }
        }
    }
}

fn roundtrip<F: Sample>(max_log: usize) {
    let mut rng = rng();
    for core_log in [2, 5, 12] {
        let plan = NttPlan::<F>::with_algorithm(max_log, Algorithm::FourStep { core_log }).unwrap();
        for log_n in [max_log - 2, max_log] {
            let x = random_vec::<F>(&mut rng, 1 << log_n);
            for order in ORDERS {
                let mut y = x.clone();
                plan.forward(&mut y, order).unwrap();
                let back = match order {
                    Order::NN => Order::NN,
                    Order::NR => Order::RN,
                    Order::RN => Order::NR,
                    Order::RR => Order::RR,
                };
                plan.inverse(&mut y, back).unwrap();
                assert_eq!(y, x, "2^{log_n} core 2^{core_log} {order:?}");
            }
        }
        // The four-step plan agrees with plain radix-2.
        let x = random_vec::<F>(&mut rng, 1 << max_log);
        let radix2 = NttPlan::<F>::with_algorithm(max_log, Algorithm::Radix2).unwrap();
        let (mut a, mut b) = (x.clone(), x);
        plan.forward(&mut a, Order::NR).unwrap();
        radix2.forward(&mut b, Order::NR).unwrap();
        assert_eq!(a, b, "four-step core 2^{core_log} vs radix-2");
    }
}

fn cosets_and_ldes<F: Sample>() {
    let mut rng = rng();
    let plan = NttPlan::<F>::with_algorithm(10, Algorithm::FourStep { core_log: 3 }).unwrap();
    // The extension's fill replaces the first `log_blowup` stages: check it inside one
    // row, spanning a whole row, beyond a row (blowup > core) and on the radix-2 plan.
    let plans = [
        plan.clone(),
        plan.clone().parallel(false),
        NttPlan::<F>::with_algorithm(10, Algorithm::Radix2).unwrap(),
    ];
    for log_n in [0, 1, 4, 6] {
        let x = random_vec::<F>(&mut rng, 1 << log_n);
        let shift = F::sample(&mut rng);
        let on_coset = naive(&x, false, shift);
        for order in ORDERS {
            let (mut got, want) = arrange(order, &x, &on_coset);
            plan.coset_forward(&mut got, shift, order).unwrap();
            assert_eq!(got, want, "coset 2^{log_n} {order:?}");
            let (mut back, want) = arrange(order, &on_coset, &x);
            plan.coset_inverse(&mut back, shift, order).unwrap();
            assert_eq!(back, want, "inverse coset 2^{log_n} {order:?}");
        }
        for log_blowup in (0..=4).filter(|b| log_n + b <= 10) {
            let mut padded = x.clone();
            padded.resize(x.len() << log_blowup, F::ZERO);
            let want = naive(&padded, false, shift);
            let evaluations = naive(&x, false, F::ONE);
            for (p, plan) in plans.iter().enumerate() {
                let what = format!("lde 2^{log_n} blowup 2^{log_blowup} plan {p}");
                assert_eq!(plan.lde(&x, log_blowup, shift).unwrap(), want, "{what}");
                assert_eq!(
                    plan.lde_from_evaluations(&evaluations, log_blowup, shift)
                        .unwrap(),
                    want,
                    "{what} from evaluations"
                );
            }
        }
    }
    // Batches in both layouts equal each polynomial's extension: rows of one radix-8 pass
    // after the fill (the twiddles on it), of other lengths, and a blowup beyond a row.
    for (log_n, count) in [(2usize, 3usize), (4, 5), (6, 2), (7, 9)] {
        let polys: Vec<Vec<F>> = (0..count)
            .map(|_| random_vec::<F>(&mut rng, 1 << log_n))
            .collect();
        let shift = F::sample(&mut rng);
        for log_blowup in (0..=4).filter(|b| log_n + b <= 10) {
            let single: Vec<Vec<F>> = polys
                .iter()
                .map(|p| plan.lde(p, log_blowup, shift).unwrap())
                .collect();
            let rows = 1usize << (log_n + log_blowup);
            let want: Vec<F> = (0..rows)
                .flat_map(|i| single.iter().map(move |p| p[i]))
                .collect();
            let index_major: Vec<F> = (0..1usize << log_n)
                .flat_map(|i| polys.iter().map(move |p| p[i]))
                .collect();
            for plan in &plans[..2] {
                let what = format!("batch 2^{log_n}×{count} blowup 2^{log_blowup}");
                let got = plan
                    .lde_batch(
                        &index_major,
                        count,
                        Layout::IndexMajor,
                        log_blowup,
                        shift,
                        LdeInput::Coefficients,
                    )
                    .unwrap();
                assert_eq!(got, want, "index-major {what}");
                let got = plan
                    .lde_batch(
                        &polys.concat(),
                        count,
                        Layout::PolynomialMajor,
                        log_blowup,
                        shift,
                        LdeInput::Coefficients,
                    )
                    .unwrap();
                assert_eq!(got, single.concat(), "polynomial-major {what}");
                // In place: the inputs' own allocations grown into the outputs, from an exact
                // capacity and from a larger one.
                for spare in [0, 5] {
                    for (layout, data, want) in [
                        (Layout::IndexMajor, &index_major, &want),
                        (Layout::PolynomialMajor, &polys.concat(), &single.concat()),
                    ] {
                        let mut values = Vec::with_capacity(data.len() + spare);
                        values.extend_from_slice(data);
                        plan.lde_batch_in_place(
                            &mut values,
                            count,
                            layout,
                            log_blowup,
                            shift,
                            LdeInput::Coefficients,
                        )
                        .unwrap();
                        assert_eq!(&values, want, "in place {layout:?} {what} spare {spare}");
                    }
                }
            }
        }
    }
    // The convenience functions use the multiplicative generator as the shift.
    let x = random_vec::<F>(&mut rng, 16);
    let mut padded = x.clone();
    padded.resize(64, F::ZERO);
    assert_eq!(lde(&x, 2).unwrap(), naive(&padded, false, F::GENERATOR));
}

fn batches<F: Sample>() {
    let mut rng = rng();
    // Rows of the four-step split of 3 (one radix-8 pass: the twiddles ride on it), 4 and 2
    // (they take a pass of their own), 6, and columns split again; with a core of 2^7, the
    // columns of 2^6 points a field with cheap roots of order 64 takes (Goldilocks on
    // AVX-512: rows of 4), else the core's split.
    let shapes = [
        (0, 3, 2),
        (3, 5, 2),
        (6, 4, 2),
        (7, 9, 12),
        (5, 40, 3),
        (8, 3, 6),
        (8, 7, 4),
        (8, 6, 3),
        (8, 5, 7),
        (8, 16, 7),
    ];
    for (log_n, count, core_log) in shapes {
        let n = 1usize << log_n;
        let polys: Vec<Vec<F>> = (0..count).map(|_| random_vec(&mut rng, n)).collect();
        let plan = NttPlan::<F>::with_algorithm(8, Algorithm::FourStep { core_log }).unwrap();
        for order in ORDERS {
            for inverse in [false, true] {
                let single: Vec<Vec<F>> = polys
                    .iter()
                    .map(|p| {
                        let mut p = p.clone();
                        if inverse {
                            plan.inverse(&mut p, order).unwrap();
                        } else {
                            plan.forward(&mut p, order).unwrap();
                        }
                        p
                    })
                    .collect();
                let mut poly_major: Vec<F> = polys.concat();
                let mut index_major: Vec<F> = (0..n)
                    .flat_map(|i| polys.iter().map(move |p| p[i]))
                    .collect();
                // One thread walks the polynomials one after another (sharing the row
                // twiddles like the parallel batch, through its own path).
                let mut one_by_one: Vec<F> = polys.concat();
                for (data, layout, plan) in [
                    (&mut poly_major, Layout::PolynomialMajor, plan.clone()),
                    (
                        &mut one_by_one,
                        Layout::PolynomialMajor,
                        plan.clone().parallel(false),
                    ),
                    (&mut index_major, Layout::IndexMajor, plan.clone()),
                ] {
                    if inverse {
                        plan.inverse_batch(data, count, layout, order).unwrap();
                    } else {
                        plan.forward_batch(data, count, layout, order).unwrap();
                    }
                }
                assert_eq!(poly_major, single.concat(), "{order:?} 2^{log_n}×{count}");
                assert_eq!(
                    one_by_one,
                    single.concat(),
                    "one thread {order:?} 2^{log_n}×{count}"
                );
                let want: Vec<F> = (0..n)
                    .flat_map(|i| single.iter().map(move |p| p[i]))
                    .collect();
                assert_eq!(index_major, want, "index-major {order:?} 2^{log_n}×{count}");
            }
        }
    }
}

/// A plan on another convention's roots (`root^3`, also of order `2^s`, as plonky2's are a
/// power of Plonky3's) transforms by those roots, in every algorithm; a root of smaller
/// order is a typed error.
fn other_roots<F: Sample>() {
    let mut rng = rng();
    let s = F::TWO_ADICITY;
    let top = F::two_adic_generator(s).unwrap();
    let root = top * top * top;
    for algorithm in algorithms() {
        let plan = NttPlan::<F>::with_two_adic_root(7, algorithm, root).unwrap();
        for log_n in [0, 1, 3, 6, 7] {
            let x = random_vec::<F>(&mut rng, 1 << log_n);
            let w = root.exp_power_of_2(s - log_n);
            let mut got = x.clone();
            plan.forward(&mut got, Order::NN).unwrap();
            assert_eq!(got, naive_with_root(&x, w, false, F::ONE), "2^{log_n}");
            let shift = F::sample(&mut rng);
            let mut got = x.clone();
            plan.coset_forward(&mut got, shift, Order::NN).unwrap();
            assert_eq!(got, naive_with_root(&x, w, false, shift), "coset 2^{log_n}");
            plan.coset_inverse(&mut got, shift, Order::NN).unwrap();
            assert_eq!(got, x, "coset inverse 2^{log_n}");
        }
    }
    for bad in [F::ONE, F::NEG_ONE, top.square(), F::ZERO] {
        assert_eq!(
            NttPlan::<F>::with_two_adic_root(4, Algorithm::Radix2, bad).err(),
            Some(NttError::NotPrimitiveRoot { two_adicity: s })
        );
    }
}

fn errors<F: Sample>() {
    let plan = NttPlan::<F>::new(4).unwrap();
    for len in [0usize, 3, 12] {
        let mut v = vec![F::ONE; len];
        assert_eq!(
            plan.forward(&mut v, Order::NN),
            Err(NttError::NotPowerOfTwo { len })
        );
        assert_eq!(ntt(&mut v, Order::NN), Err(NttError::NotPowerOfTwo { len }));
    }
    let mut v = vec![F::ONE; 32];
    assert!(matches!(
        plan.inverse(&mut v, Order::RR),
        Err(NttError::TooLarge {
            log_n: 5,
            max: 4,
            ..
        })
    ));
    assert!(matches!(
        plan.lde(&v[..16], 1, F::GENERATOR),
        Err(NttError::TooLarge { log_n: 5, .. })
    ));
    assert!(matches!(
        NttPlan::<F>::new(F::TWO_ADICITY + 1),
        Err(NttError::TooLarge { .. })
    ));
    assert_eq!(
        plan.coset_forward(&mut v[..8], F::ZERO, Order::NN),
        Err(NttError::ZeroShift)
    );
    assert!(matches!(
        plan.forward_batch(&mut v[..12], 5, Layout::IndexMajor, Order::NN),
        Err(NttError::BatchShape { len: 12, count: 5 })
    ));
    assert!(matches!(
        plan.forward_batch(&mut v[..12], 0, Layout::PolynomialMajor, Order::NN),
        Err(NttError::BatchShape { len: 12, count: 0 })
    ));
    // Nothing was changed by a rejected call.
    assert!(v.iter().all(|&x| x == F::ONE));
}

macro_rules! suite {
    ($name:ident, $field:ty, $roundtrip_log:expr) => {
        mod $name {
            use super::*;
            #[test]
            fn against_the_definition() {
                against_definition::<$field>();
            }
            #[test]
            fn inverse_after_forward_is_identity() {
                roundtrip::<$field>($roundtrip_log);
            }
            #[test]
            fn cosets_and_low_degree_extensions() {
                cosets_and_ldes::<$field>();
            }
            #[test]
            fn batches_in_both_layouts() {
                batches::<$field>();
            }
            #[test]
            fn another_convention_of_roots() {
                other_roots::<$field>();
            }
            #[test]
            fn bad_shapes_are_typed_errors() {
                errors::<$field>();
            }
        }
    };
}

suite!(goldilocks, Goldilocks, 13);
suite!(goldilocks2, Goldilocks2, 11);
suite!(bn254, Bn, 11);
suite!(bls12_381, Bls, 11);
// The 384-bit field (six words), the FPGA NTT paper's wide configuration.
suite!(bls12_377_fq, Bls377Fq, 10);

/// For satisfied constraints (`c = a∘b` on the domain), `A·B − C = H·Z` as polynomials:
/// checked at a random point.
fn groth16_identity<F: Sample>() {
    let mut rng = rng();
    let plan = NttPlan::<F>::new(8).unwrap();
    for len in [1usize, 5, 64, 200] {
        let m = len.next_power_of_two();
        let a = random_vec::<F>(&mut rng, len);
        let b = random_vec::<F>(&mut rng, len);
        let c: Vec<F> = a.iter().zip(&b).map(|(x, y)| *x * *y).collect();
        let h = zkaccel_ntt::groth16_h(&plan, &a, &b, &c).unwrap();
        assert_eq!(h.len(), m - 1);
        let coefficients = |v: &[F]| {
            let mut v = v.to_vec();
            v.resize(m, F::ZERO);
            plan.inverse(&mut v, Order::NN).unwrap();
            v
        };
        let eval = |p: &[F], x: F| p.iter().rev().fold(F::ZERO, |acc, &k| acc * x + k);
        let x = F::sample(&mut rng);
        let (pa, pb, pc) = (coefficients(&a), coefficients(&b), coefficients(&c));
        let lhs = eval(&pa, x) * eval(&pb, x) - eval(&pc, x);
        let z = x.exp_u64(m as u64) - F::ONE;
        assert_eq!(lhs, eval(&h, x) * z, "{len} constraints");
    }
    assert!(matches!(
        zkaccel_ntt::groth16_h(&plan, &[F::ONE], &[], &[F::ONE]),
        Err(NttError::EvaluationCounts { a: 1, b: 0, c: 1 })
    ));
}

#[test]
fn groth16_h_divides_exactly_for_satisfied_constraints() {
    groth16_identity::<Goldilocks>();
    groth16_identity::<Bn>();
    groth16_identity::<Bls>();
}

/// The bit-reversal permutation against its definition (bits reversed one at a time), for
/// sizes on both sides of the blocked path and for wide points; bad shapes are errors.
#[test]
fn bit_reversal_permutes_points() {
    let rev =
        |i: usize, bits: usize| (0..bits).fold(0, |r, k| r | ((i >> k) & 1) << (bits - 1 - k));
    fn check<T: Copy + Send + Sync + PartialEq + core::fmt::Debug>(
        of: impl Fn(usize) -> T,
        rev: impl Fn(usize, usize) -> usize,
    ) {
        // 2^18 elements: the parallel blocked path.
        for log_n in (0..=15).chain([18]) {
            for width in [1usize, 3] {
                let n = 1usize << log_n;
                let mut v: Vec<T> = (0..n * width).map(&of).collect();
                bit_reverse(&mut v, width).unwrap();
                for (i, point) in v.chunks(width).enumerate() {
                    let j = rev(i, log_n);
                    let want: Vec<T> = (0..width).map(|k| of(j * width + k)).collect();
                    assert_eq!(point, &want[..], "2^{log_n} width {width} point {i}");
                }
            }
        }
    }
    // Four-byte elements; eight-byte words (moved in vectors where the CPU has AVX-512);
    // eight-byte pairs aligned to four (moved one by one).
    check(|i| i as u32, rev);
    check(|i| (i as u64) << 32 | 0xdead, rev);
    check(|i| [i as u32, !(i as u32)], rev);
    assert_eq!(
        bit_reverse(&mut [0u8; 12], 4),
        Err(NttError::NotPowerOfTwo { len: 3 })
    );
    assert!(matches!(
        bit_reverse(&mut [0u8; 10], 4),
        Err(NttError::PointWidth { len: 10, width: 4 })
    ));
    assert!(matches!(
        bit_reverse(&mut [0u8; 10], 0),
        Err(NttError::PointWidth { len: 10, width: 0 })
    ));
    // No points at all, and eight-byte words that are not a power of two of them.
    assert_eq!(
        bit_reverse(&mut [0u64; 0], 1),
        Err(NttError::NotPowerOfTwo { len: 0 })
    );
    let mut words = vec![7u64; 3 << 10];
    assert_eq!(
        bit_reverse(&mut words, 1),
        Err(NttError::NotPowerOfTwo { len: 3 << 10 })
    );
    assert!(
        words.iter().all(|&w| w == 7),
        "a refused reversal moved nothing"
    );
}

/// A plan that advises huge pages for its outputs (large enough, 4 MiB and up, for the advice
/// to be given) computes the same extensions.
#[test]
fn huge_page_advice_changes_no_output() {
    let mut rng = rng();
    let x = random_vec::<Goldilocks>(&mut rng, 1 << 16);
    let plan = NttPlan::<Goldilocks>::new(19).unwrap();
    let advising = plan.clone().advising_huge_pages(true);
    let shift = <Goldilocks as zkaccel_field::Field>::GENERATOR;
    assert_eq!(
        advising.lde(&x, 3, shift).unwrap(),
        plan.lde(&x, 3, shift).unwrap()
    );
    for layout in [Layout::IndexMajor, Layout::PolynomialMajor] {
        assert_eq!(
            advising
                .lde_batch(&x, 4, layout, 3, shift, LdeInput::Evaluations)
                .unwrap(),
            plan.lde_batch(&x, 4, layout, 3, shift, LdeInput::Evaluations)
                .unwrap(),
            "{layout:?}"
        );
    }
}

/// Outputs of 4 MiB and more have their pages mapped ahead (`MADV_POPULATE_WRITE` on Linux):
/// the borrowing call (a fresh output), the in-place call (the input's allocation grown, only
/// its new part mapped) and a reused buffer (nothing mapped) give the same extensions, in both
/// layouts, and each polynomial's equals the radix-2 plan's extension of it alone. The input
/// (3·2^16 elements) is past the size from which an index-major input is copied or moved in
/// chunks over the rayon pool (2^17), with a last chunk shorter than the others.
#[test]
fn mapped_ahead_outputs_change_no_output() {
    use zkaccel_field::Field;
    let mut rng = rng();
    let (log_n, count, k) = (16usize, 3usize, 2usize);
    let x = random_vec::<Goldilocks>(&mut rng, count << log_n);
    let plan = NttPlan::<Goldilocks>::new(log_n + k).unwrap();
    let radix2 = NttPlan::<Goldilocks>::with_algorithm(log_n + k, Algorithm::Radix2).unwrap();
    let shift = Goldilocks::from_u64_reduced(7);
    let input = LdeInput::Coefficients;
    let alone: Vec<Vec<Goldilocks>> = x
        .chunks(1 << log_n)
        .map(|p| radix2.lde(p, k, shift).unwrap())
        .collect();
    let polynomial_major = alone.concat();
    let index_major: Vec<Goldilocks> = (0..1usize << (log_n + k))
        .flat_map(|i| alone.iter().map(move |p| p[i]))
        .collect();
    let x_index_major: Vec<Goldilocks> = (0..1usize << log_n)
        .flat_map(|i| x.chunks(1 << log_n).map(move |p| p[i]))
        .collect();
    for (layout, data, want) in [
        (Layout::PolynomialMajor, &x, &polynomial_major),
        (Layout::IndexMajor, &x_index_major, &index_major),
    ] {
        let fresh = plan
            .lde_batch(data, count, layout, k, shift, input)
            .unwrap();
        assert!(fresh == *want, "{layout:?} fresh output");
        let mut grown = data.clone();
        plan.lde_batch_in_place(&mut grown, count, layout, k, shift, input)
            .unwrap();
        assert!(grown == *want, "{layout:?} in place");
        let mut reused = vec![Goldilocks::ZERO; want.len()];
        plan.lde_batch_into(data, count, layout, k, shift, input, &mut reused)
            .unwrap();
        assert!(reused == *want, "{layout:?} into a reused buffer");
    }
}

#[test]
fn batched_lde_rejects_bad_shapes() {
    use zkaccel_field::Field;
    use zkaccel_ntt::{Layout, LdeInput};
    let plan = NttPlan::<Goldilocks>::new(10).unwrap();
    let g = Goldilocks::GENERATOR;
    let x = vec![Goldilocks::ONE; 24];
    for layout in [Layout::IndexMajor, Layout::PolynomialMajor] {
        for input in [LdeInput::Coefficients, LdeInput::Evaluations] {
            let lde = |data: &[Goldilocks], count, k, shift| {
                plan.lde_batch(data, count, layout, k, shift, input)
            };
            // No polynomials, a length that is not `count` equal parts, a part that is not a
            // power of two.
            assert_eq!(
                lde(&x, 0, 1, g),
                Err(NttError::BatchShape { len: 24, count: 0 })
            );
            assert_eq!(
                lde(&x, 5, 1, g),
                Err(NttError::BatchShape { len: 24, count: 5 })
            );
            assert_eq!(lde(&x, 4, 1, g), Err(NttError::NotPowerOfTwo { len: 6 }));
            // A zero shift; an extension past the plan, or past usize.
            assert_eq!(lde(&x, 3, 1, Goldilocks::ZERO), Err(NttError::ZeroShift));
            assert!(matches!(lde(&x, 3, 8, g), Err(NttError::TooLarge { .. })));
            assert!(matches!(
                lde(&x, 3, 70, g),
                Err(NttError::SizeOverflow { .. })
            ));
            // The input is left alone and the output is in the layout asked for.
            assert_eq!(lde(&x, 3, 2, g).unwrap().len(), 96);
            assert_eq!(x, vec![Goldilocks::ONE; 24]);
            // Into a caller's buffer: a refused call leaves it as it was.
            let mut out = vec![Goldilocks::TWO; 5];
            let into = |out: &mut Vec<Goldilocks>, count, k| {
                plan.lde_batch_into(&x, count, layout, k, g, input, out)
            };
            assert_eq!(
                into(&mut out, 5, 1),
                Err(NttError::BatchShape { len: 24, count: 5 })
            );
            assert!(matches!(
                into(&mut out, 3, 8),
                Err(NttError::TooLarge { .. })
            ));
            assert_eq!(out, vec![Goldilocks::TWO; 5]);
            // In place: a refused call leaves the values (and their allocation) as they were.
            let mut values = x.clone();
            let capacity = values.capacity();
            for (count, k, shift) in [
                (0, 1, g),
                (5, 1, g),
                (4, 1, g),
                (3, 1, Goldilocks::ZERO),
                (3, 8, g),
                (3, 70, g),
            ] {
                assert!(plan
                    .lde_batch_in_place(&mut values, count, layout, k, shift, input)
                    .is_err());
                assert_eq!(values, x, "{count} {k}");
                assert_eq!(values.capacity(), capacity);
            }
            // No values at all: refused as the borrowing call refuses them, nothing allocated.
            for count in [0, 1, 3] {
                let mut empty: Vec<Goldilocks> = Vec::new();
                let in_place = plan.lde_batch_in_place(&mut empty, count, layout, 1, g, input);
                assert!(in_place.is_err(), "{count}");
                assert_eq!(
                    in_place,
                    plan.lde_batch(&[], count, layout, 1, g, input).map(drop)
                );
                assert!(empty.is_empty() && empty.capacity() == 0);
            }
        }
    }
}

/// `lde_batch_into` equals `lde_batch` whatever the buffer held: too small (reallocated),
/// larger than needed with old values in it (reused), and the same buffer again; so does
/// `lde_batch_in_place` on the input itself.
#[test]
fn batched_lde_into_a_reused_buffer_equals_a_fresh_one() {
    use zkaccel_ntt::{Layout, LdeInput};
    let mut rng = rng();
    for algorithm in algorithms() {
        let plan = NttPlan::<Goldilocks>::with_algorithm(11, algorithm).unwrap();
        for layout in [Layout::IndexMajor, Layout::PolynomialMajor] {
            for input in [LdeInput::Coefficients, LdeInput::Evaluations] {
                let mut out = vec![Goldilocks::sample(&mut rng); 3];
                for (log_n, count, k) in [(5, 3, 2), (4, 2, 1), (6, 3, 3), (3, 1, 0)] {
                    let x = random_vec::<Goldilocks>(&mut rng, count << log_n);
                    let shift = Goldilocks::sample(&mut rng);
                    let want = plan.lde_batch(&x, count, layout, k, shift, input).unwrap();
                    plan.lde_batch_into(&x, count, layout, k, shift, input, &mut out)
                        .unwrap();
                    assert_eq!(
                        out, want,
                        "{algorithm:?} {layout:?} {input:?} 2^{log_n}x{count}"
                    );
                    let mut values = x.clone();
                    plan.lde_batch_in_place(&mut values, count, layout, k, shift, input)
                        .unwrap();
                    assert_eq!(
                        values, want,
                        "in place {algorithm:?} {layout:?} {input:?} 2^{log_n}x{count}"
                    );
                }
            }
        }
    }
}

/// A probe for where the finishing step runs (it breaks the step's contract on purpose): it
/// overwrites every element with 7, so an output is 7 only if the step reached it after all
/// arithmetic (a step run earlier would be scaled or transformed away, one missed leaves the
/// transform's value).
fn overwrite_with_seven(values: &mut [Goldilocks]) {
    values.fill(Goldilocks::new_reduced(7));
}

/// `finishing_outputs_with` runs its step on every output of every transform kind, order,
/// batch layout and algorithm (the recursive four-step passes included), after the last
/// arithmetic; a value-preserving step (the canonical words) leaves random transforms equal
/// to a plain plan's.
#[test]
fn finishing_reaches_every_output_after_the_arithmetic() {
    let mut rng = rng();
    let orders = [Order::NN, Order::NR, Order::RN, Order::RR];
    let shift = Goldilocks::sample(&mut rng);
    let seven = Goldilocks::new_reduced(7);
    for algorithm in algorithms() {
        let plain = NttPlan::<Goldilocks>::with_algorithm(9, algorithm).unwrap();
        let probing = plain.clone().finishing_outputs_with(overwrite_with_seven);
        let canonical = plain.clone().finishing_outputs_with(|v| {
            Goldilocks::canonical_words_mut(v);
        });
        for log_n in [0usize, 1, 3, 7, 9] {
            let n = 1usize << log_n;
            let x = random_vec::<Goldilocks>(&mut rng, n);
            let all_seven = |v: &[Goldilocks], what: &str| {
                if let Some(i) = v.iter().position(|&y| y != seven) {
                    panic!("{algorithm:?} 2^{log_n} {what}: output {i} was not finished last");
                }
            };
            for order in orders {
                type Run = fn(&NttPlan<Goldilocks>, &mut [Goldilocks], Goldilocks, Order);
                let kinds: [(&str, Run); 4] = [
                    ("forward", |p, v, _, o| p.forward(v, o).unwrap()),
                    ("inverse", |p, v, _, o| p.inverse(v, o).unwrap()),
                    ("coset forward", |p, v, s, o| {
                        p.coset_forward(v, s, o).unwrap()
                    }),
                    ("coset inverse", |p, v, s, o| {
                        p.coset_inverse(v, s, o).unwrap()
                    }),
                ];
                for (what, run) in kinds {
                    let mut v = x.clone();
                    run(&probing, &mut v, shift, order);
                    all_seven(&v, &format!("{what} {order:?}"));
                    // A value-preserving step: the same elements as the plain plan's, canonical.
                    let (mut a, mut b) = (x.clone(), x.clone());
                    run(&plain, &mut a, shift, order);
                    run(&canonical, &mut b, shift, order);
                    assert_eq!(a, b, "{algorithm:?} 2^{log_n} {what} {order:?}");
                    assert!(b.iter().all(|e| e.as_raw_u64() < zkaccel_goldilocks::ORDER));
                }
                for layout in [Layout::PolynomialMajor, Layout::IndexMajor] {
                    for inverse in [false, true] {
                        let mut v = x.repeat(3);
                        if inverse {
                            probing.inverse_batch(&mut v, 3, layout, order).unwrap();
                        } else {
                            probing.forward_batch(&mut v, 3, layout, order).unwrap();
                        }
                        all_seven(&v, &format!("batch {layout:?} inverse {inverse} {order:?}"));
                    }
                }
            }
        }
    }
}

fn all_canonical(values: &[Goldilocks]) -> bool {
    values
        .iter()
        .all(|x| x.as_raw_u64() < zkaccel_goldilocks::ORDER)
}

fn raw_words(values: &[Goldilocks]) -> Vec<u64> {
    values.iter().map(Goldilocks::as_raw_u64).collect()
}

/// `checking_inputs_with`: accepted inputs transform as on a plain plan; one refused word
/// anywhere (first, middle, last column group: the groups transformed before it are undone)
/// makes every transform kind return `InputRejected` with the caller's words exactly as they
/// were — on one thread (groups in order) and on the default pool, for the algorithms whose
/// first pass has one group, several groups, and recursive columns.
#[test]
fn checked_transforms_refuse_and_leave_the_words_unchanged() {
    let mut rng = rng();
    let shift = Goldilocks::sample(&mut rng);
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let algorithms = [
        Algorithm::Radix2,
        Algorithm::FourStep { core_log: 4 },
        Algorithm::FourStep { core_log: 5 },
        // Sequential, columns of 2^3 and 2^5 points in one group of 128 (two run chunks
        // per row): a refusal puts back the radix-8 blocks before it, in earlier rows and
        // in earlier chunks of its own (the check rides on the first radix-8 pass).
        Algorithm::FourStep { core_log: 7 },
        Algorithm::FourStep { core_log: 12 },
    ];
    for algorithm in algorithms {
        let sequential = algorithm == (Algorithm::FourStep { core_log: 7 });
        let plain = NttPlan::<Goldilocks>::with_algorithm(12, algorithm)
            .unwrap()
            .parallel(!sequential);
        let checked = plain
            .clone()
            .finishing_outputs_with(|v| {
                Goldilocks::canonical_words_mut(v);
            })
            .checking_inputs_with(all_canonical);
        let sizes: &[usize] = if sequential {
            &[10, 12]
        } else {
            &[0, 3, 9, 10]
        };
        for &log_n in sizes {
            let n = 1usize << log_n;
            let x = random_vec::<Goldilocks>(&mut rng, n);
            type Run = fn(
                &NttPlan<Goldilocks>,
                &mut [Goldilocks],
                Goldilocks,
                Order,
            ) -> Result<(), NttError>;
            let kinds: [(&str, Run); 6] = [
                ("forward", |p, v, _, o| p.forward(v, o)),
                ("inverse", |p, v, _, o| p.inverse(v, o)),
                ("coset forward", |p, v, s, o| p.coset_forward(v, s, o)),
                ("coset inverse", |p, v, s, o| p.coset_inverse(v, s, o)),
                ("batch", |p, v, _, o| {
                    p.forward_batch(v, v.len().min(2), Layout::PolynomialMajor, o)
                }),
                ("inverse batch", |p, v, _, o| {
                    p.inverse_batch(v, v.len().min(2), Layout::IndexMajor, o)
                }),
            ];
            for order in [Order::NN, Order::NR, Order::RN, Order::RR] {
                for (what, run) in kinds {
                    let case = format!("{algorithm:?} 2^{log_n} {what} {order:?}");
                    let (mut a, mut b) = (x.clone(), x.clone());
                    run(&plain, &mut a, shift, order).unwrap();
                    run(&checked, &mut b, shift, order).unwrap();
                    assert_eq!(a, b, "{case}");
                    // Small words too: put back by the inverse transform, they could come
                    // back as `w + p` but for the finishing step.
                    let small: Vec<Goldilocks> =
                        (0..n as u64).map(Goldilocks::new_reduced).collect();
                    for (at, input) in [0, n / 2 + 1, 3 * n / 4 + 70, n - 1]
                        .into_iter()
                        .flat_map(|at| [(at.min(n - 1), &x), (at.min(n - 1), &small)])
                    {
                        for pool in [Some(&one_thread), None] {
                            let mut v = input.clone();
                            let mut bad = [zkaccel_goldilocks::ORDER + at as u64];
                            v[at] = Goldilocks::slice_from_words_mut(&mut bad)[0];
                            let before = raw_words(&v);
                            let result = match pool {
                                Some(p) => p.install(|| run(&checked, &mut v, shift, order)),
                                None => run(&checked, &mut v, shift, order),
                            };
                            assert_eq!(result, Err(NttError::InputRejected), "{case} at {at}");
                            assert_eq!(raw_words(&v), before, "{case} at {at}: words changed");
                        }
                    }
                }
            }
        }
    }
}

/// The checked single-point path where the four-step split puts the columns on the cheap
/// roots (2^15 points, core 2^12, on AVX-512 Goldilocks: 2^6 × 2^9): accepted inputs give the
/// plain plan's outputs, and a refused word in the last column group leaves every word as it
/// was (the groups before it undone).
#[test]
fn checked_single_points_on_the_cheap_split_refuse_and_leave_the_words_unchanged() {
    let mut rng = rng();
    let log_n = 15;
    let plain = NttPlan::<Goldilocks>::new(log_n).unwrap();
    let checked = plain.clone().checking_inputs_with(all_canonical);
    let x = random_vec::<Goldilocks>(&mut rng, 1 << log_n);
    for order in [Order::NN, Order::NR] {
        let (mut a, mut b) = (x.clone(), x.clone());
        plain.forward(&mut a, order).unwrap();
        checked.forward(&mut b, order).unwrap();
        assert_eq!(a, b, "{order:?}");
        let mut v = x.clone();
        let at = (1 << log_n) - 3;
        let mut bad = [zkaccel_goldilocks::ORDER + 5];
        v[at] = Goldilocks::slice_from_words_mut(&mut bad)[0];
        let before = raw_words(&v);
        assert_eq!(
            checked.forward(&mut v, order),
            Err(NttError::InputRejected),
            "{order:?}"
        );
        assert_eq!(raw_words(&v), before, "{order:?}: words changed");
    }
}

/// A core size past the field's two-adicity is a typed error before any arithmetic on it
/// (`usize::MAX` wrapped to a zero-sized table in release builds, and panicked in debug ones).
#[test]
fn a_core_past_the_two_adicity_is_refused() {
    use zkaccel_ntt::{Algorithm, NttError, NttPlan, TwoAdicField};
    type F = zkaccel_goldilocks::Goldilocks;
    for core_log in [F::TWO_ADICITY + 1, 64, usize::MAX - 1, usize::MAX] {
        let plan = NttPlan::<F>::with_algorithm(10, Algorithm::FourStep { core_log });
        assert!(
            matches!(plan, Err(NttError::TooLarge { log_n, .. }) if log_n == core_log),
            "core_log {core_log}: {:?}",
            plan.err()
        );
    }
    // The bounds themselves are accepted.
    for core_log in [1, F::TWO_ADICITY] {
        assert!(NttPlan::<F>::with_algorithm(10, Algorithm::FourStep { core_log }).is_ok());
    }
}
