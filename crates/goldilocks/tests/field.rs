//! The generic field suite on Goldilocks and its quadratic extension, differential tests against
//! Plonky3's `p3-goldilocks`, and the SIMD paths against the scalar one.

use p3_field::extension::BinomialExtensionField;
use p3_field::{
    BasedVectorSpace, Field as P3Field, PrimeCharacteristicRing, PrimeField64,
    TwoAdicField as P3TwoAdic,
};
use rand::rngs::StdRng;
use rand::{Rng, RngCore};
use zkaccel_field::{Algebra, ExtensionField, Field, TwoAdicField};
use zkaccel_field_testing::{random_prime, rng, SAMPLES};
use zkaccel_goldilocks::{Goldilocks, Goldilocks2};
use zkaccel_ntt::WritePrefetch;
use zkaccel_poseidon::PoseidonField;

type P3 = p3_goldilocks::Goldilocks;
type P3Ext = BinomialExtensionField<P3, 2>;

fn sample(rng: &mut StdRng) -> Goldilocks {
    random_prime(rng)
}

/// A twiddle for the butterfly kernels: as often as not `±2^s` (`s < 64`, which the AVX-512
/// kernels apply by shifts, or `64 ≤ s < 192`, which they do not), else a random element.
fn twiddle_sample(rng: &mut StdRng) -> Goldilocks {
    let s = rng.next_u64();
    let power = Goldilocks::new_reduced(2).exp_u64(s % 192);
    match (s >> 8) % 4 {
        0 => power,
        1 => -power,
        _ => sample(rng),
    }
}

fn sample_ext(rng: &mut StdRng) -> Goldilocks2 {
    Goldilocks2::new(sample(rng), sample(rng))
}

/// |GF(p)*| = p − 1 = 2^32 · 3 · 5 · 17 · 257 · 65537.
const FACTORS: &[(u128, u32)] = &[(2, 32), (3, 1), (5, 1), (17, 1), (257, 1), (65537, 1)];
/// |GF(p²)*| = (p − 1)(p + 1), p + 1 = 2 · 7 · 179 · 7361031152998637.
const EXT_FACTORS: &[(u128, u32)] = &[
    (2, 33),
    (3, 1),
    (5, 1),
    (17, 1),
    (257, 1),
    (65537, 1),
    (7, 1),
    (179, 1),
    (7361031152998637, 1),
];

mod goldilocks {
    use super::*;
    zkaccel_field_testing::test_field!(Goldilocks, sample, FACTORS);
    zkaccel_field_testing::test_prime_field!(Goldilocks);
    zkaccel_field_testing::test_two_adic_field!(Goldilocks);
}

/// Every x86 packing lane by lane, the ones [`Field::run_packed`] passes over on this CPU
/// included: with IFMA it takes the IFMA packings, so plain AVX-512F would otherwise only be
/// tested on CPUs without IFMA.
#[cfg(target_arch = "x86_64")]
#[test]
fn every_x86_packing_lane_by_lane() {
    use zkaccel_field_testing::check_packed_lanes;
    use zkaccel_goldilocks::x86_64::{
        PackedGoldilocksAvx2, PackedGoldilocksAvx512, PackedGoldilocksIfma,
        PackedGoldilocksIfmaPair,
    };
    use zkaccel_poseidon::PoseidonPacking;
    fn check<P: PoseidonPacking<Scalar = Goldilocks>>(xs: &[Goldilocks], ys: &[Goldilocks]) {
        if let Some(cpu) = P::detect() {
            check_packed_lanes::<P>(cpu, xs, ys);
        }
    }
    let mut r = rng();
    // Edge words (p − 1, non-canonical words near 2^64, zero) and random elements.
    let mut xs: Vec<Goldilocks> = [0, 1, zkaccel_goldilocks::ORDER - 1, u64::MAX, 1 << 63]
        .into_iter()
        .map(Goldilocks::new_reduced)
        .collect();
    xs.extend((0..123).map(|_| sample(&mut r)));
    let ys: Vec<Goldilocks> = (0..128).map(|_| sample(&mut r)).collect();
    check::<PackedGoldilocksAvx2>(&xs, &ys);
    check::<PackedGoldilocksAvx512>(&xs, &ys);
    check::<PackedGoldilocksIfma>(&xs, &ys);
    check::<PackedGoldilocksIfmaPair>(&xs, &ys);
}

mod goldilocks2 {
    use super::*;
    zkaccel_field_testing::test_field!(Goldilocks2, sample_ext, EXT_FACTORS);
    zkaccel_field_testing::test_two_adic_field!(Goldilocks2);
}

fn to_p3(x: Goldilocks) -> P3 {
    P3::from_u64(x.as_canonical_u64())
}

fn from_p3(x: P3) -> Goldilocks {
    Goldilocks::new_canonical(x.as_canonical_u64()).unwrap()
}

fn ext_to_p3(x: Goldilocks2) -> P3Ext {
    P3Ext::from_basis_coefficients_slice(&[to_p3(x.0[0]), to_p3(x.0[1])]).unwrap()
}

fn ext_from_p3(x: P3Ext) -> Goldilocks2 {
    let c = x.as_basis_coefficients_slice();
    Goldilocks2::new(from_p3(c[0]), from_p3(c[1]))
}

#[test]
fn arithmetic_matches_plonky3() {
    let mut rng = rng();
    for _ in 0..10 * SAMPLES {
        let (a, b) = (sample(&mut rng), sample(&mut rng));
        assert_eq!(from_p3(to_p3(a) * to_p3(b)), a * b);
        assert_eq!(from_p3(to_p3(a) + to_p3(b)), a + b);
        assert_eq!(from_p3(to_p3(a) - to_p3(b)), a - b);
        assert_eq!(from_p3(-to_p3(a)), -a);
        assert_eq!(from_p3(to_p3(a).inverse()), a.inverse());
        let (x, y) = (sample_ext(&mut rng), sample_ext(&mut rng));
        assert_eq!(ext_from_p3(ext_to_p3(x) * ext_to_p3(y)), x * y);
        assert_eq!(ext_from_p3(ext_to_p3(x).inverse()), x.inverse());
    }
}

/// plonky2's convention (pinned against plonky2 itself in `peers/tests/plonky2_ntt.rs`): its
/// generator generates, and its subgroup generators are that generator's powers, of exact
/// order `2^bits`, distinct from Plonky3's from 8 points on.
#[test]
fn plonky2_generator_and_roots() {
    zkaccel_field_testing::check_is_generator(Goldilocks::PLONKY2_GENERATOR, FACTORS);
    for bits in 0..=32 {
        let w = Goldilocks::plonky2_two_adic_generator(bits).unwrap();
        assert_eq!(w.exp_power_of_2(bits), Goldilocks::ONE);
        if bits > 0 {
            assert_eq!(
                w.exp_power_of_2(bits - 1),
                -Goldilocks::ONE,
                "order 2^{bits}"
            );
        }
        let plonky3 = Goldilocks::two_adic_generator(bits).unwrap();
        assert_eq!(w == plonky3, bits <= 2, "2^{bits}");
    }
    assert!(Goldilocks::plonky2_two_adic_generator(33).is_err());
}

#[test]
fn roots_and_generators_match_plonky3() {
    assert_eq!(from_p3(P3::GENERATOR), Goldilocks::GENERATOR);
    for bits in 0..=32 {
        assert_eq!(
            from_p3(P3::two_adic_generator(bits)),
            Goldilocks::two_adic_generator(bits).unwrap()
        );
    }
    assert_eq!(ext_from_p3(P3Ext::GENERATOR), Goldilocks2::GENERATOR);
    for bits in 0..=33 {
        assert_eq!(
            ext_from_p3(P3Ext::two_adic_generator(bits)),
            Goldilocks2::two_adic_generator(bits).unwrap(),
            "bits = {bits}"
        );
    }
}

#[test]
fn extension_embeds_base() {
    let mut rng = rng();
    for _ in 0..SAMPLES {
        let (a, b) = (sample(&mut rng), sample(&mut rng));
        let x = sample_ext(&mut rng);
        assert_eq!(
            Goldilocks2::from_base(a) * Goldilocks2::from_base(b),
            Goldilocks2::from_base(a * b)
        );
        assert_eq!(x * a, x * Goldilocks2::from_base(a));
        assert_eq!(x + a, x + Goldilocks2::from_base(a));
        assert_eq!(Goldilocks2::from_base_slice(x.as_base_slice()).unwrap(), x);
        assert_eq!(x * x.conjugate(), Goldilocks2::from_base(x.norm()));
    }
    assert!(Goldilocks2::from_base_slice(&[Goldilocks::ONE]).is_err());
    // X² = 7.
    let x = Goldilocks2::new(Goldilocks::ZERO, Goldilocks::ONE);
    assert_eq!(x.square(), Goldilocks2::from_u64_reduced(7));
}

/// The 128-bit accumulation in the extension product against the textbook formula in base-field
/// arithmetic, on non-canonical words that maximise every carry.
#[test]
fn extension_product_on_extreme_words() {
    let p = 0xFFFF_FFFF_0000_0001u64;
    let words = [0, 1, p - 1, p, p + 1, u64::MAX - 1, u64::MAX, 1 << 63];
    let w = Goldilocks::from_u64_reduced(7);
    for &a0 in &words {
        for &a1 in &words {
            for &b0 in &words {
                for &b1 in &words {
                    let [a0, a1, b0, b1] = [a0, a1, b0, b1].map(Goldilocks::new_reduced);
                    let x = Goldilocks2::new(a0, a1) * Goldilocks2::new(b0, b1);
                    assert_eq!(
                        x,
                        Goldilocks2::new(a0 * b0 + w * a1 * b1, a0 * b1 + a1 * b0)
                    );
                }
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use super::*;
    use zkaccel_goldilocks::x86_64::*;

    /// Words that stress every carry and borrow: canonical and non-canonical extremes.
    fn edge_words() -> Vec<u64> {
        let p = 0xFFFF_FFFF_0000_0001u64;
        vec![
            0,
            1,
            2,
            0xFFFF_FFFF,
            1 << 32,
            p - 1,
            p,
            p + 1,
            u64::MAX - 1,
            u64::MAX,
            1 << 63,
            (1 << 63) - 1,
        ]
    }

    fn inputs(rng: &mut impl RngCore, n: usize) -> Vec<Goldilocks> {
        let edges = edge_words();
        (0..n)
            .map(|i| {
                let w = if i < edges.len() * edges.len() {
                    edges[if i % 2 == 0 {
                        i / edges.len()
                    } else {
                        i % edges.len()
                    }]
                } else if rng.gen_bool(0.1) {
                    edges[rng.gen_range(0..edges.len())]
                } else {
                    rng.next_u64()
                };
                Goldilocks::new_reduced(w)
            })
            .collect()
    }

    #[test]
    fn every_backend_matches_scalar() {
        let mut rng = rng();
        let edges = edge_words();
        // All pairs of edge words, then random words; odd length exercises the remainders.
        let mut a: Vec<Goldilocks> = Vec::new();
        let mut b: Vec<Goldilocks> = Vec::new();
        for &x in &edges {
            for &y in &edges {
                a.push(Goldilocks::new_reduced(x));
                b.push(Goldilocks::new_reduced(y));
            }
        }
        a.extend(inputs(&mut rng, 2003));
        b.extend(inputs(&mut rng, 2003));
        for backend in [Backend::Avx512, Backend::Avx2, Backend::Scalar] {
            for (name, kernel, op) in [
                (
                    "mul",
                    mul_assign_slices_with as fn(Backend, &mut [Goldilocks], &[Goldilocks]),
                    (|x, y| x * y) as fn(Goldilocks, Goldilocks) -> Goldilocks,
                ),
                ("add", add_assign_slices_with, |x, y| x + y),
                ("sub", sub_assign_slices_with, |x, y| x - y),
            ] {
                let mut out = a.clone();
                kernel(backend, &mut out, &b);
                for i in 0..a.len() {
                    let expected = op(a[i], b[i]);
                    assert_eq!(
                        out[i],
                        expected,
                        "{backend:?} {name} {:?} {:?}",
                        a[i].as_raw_u64(),
                        b[i].as_raw_u64()
                    );
                }
            }
            for &w in &b[..50] {
                let mut out = a.clone();
                mul_assign_constant_with(backend, &mut out, w);
                for (i, (&got, &x)) in out.iter().zip(&a).enumerate() {
                    assert_eq!(got, x * w, "{backend:?} constant {i} {:?}", w.as_raw_u64());
                }
            }
        }
    }

    #[test]
    fn packed_types_match_scalar() {
        let mut rng = rng();
        if let Some(cpu) = Avx2::detect() {
            for _ in 0..SAMPLES {
                let x: [Goldilocks; 4] = inputs(&mut rng, 4).try_into().unwrap();
                let y: [Goldilocks; 4] = inputs(&mut rng, 4).try_into().unwrap();
                let (px, py) = (
                    PackedGoldilocksAvx2::from_array(cpu, x),
                    PackedGoldilocksAvx2::from_array(cpu, y),
                );
                for i in 0..4 {
                    assert_eq!((-px).to_array()[i], -x[i]);
                    assert_eq!((px * py).to_array()[i], x[i] * y[i]);
                }
                assert_eq!(
                    PackedGoldilocksAvx2::broadcast(cpu, x[0]).to_array(),
                    [x[0]; 4]
                );
            }
        }
        if let Some(cpu) = Avx512::detect() {
            for _ in 0..SAMPLES {
                let x: [Goldilocks; 8] = inputs(&mut rng, 8).try_into().unwrap();
                let y: [Goldilocks; 8] = inputs(&mut rng, 8).try_into().unwrap();
                let (px, py) = (
                    PackedGoldilocksAvx512::from_array(cpu, x),
                    PackedGoldilocksAvx512::from_array(cpu, y),
                );
                for i in 0..8 {
                    assert_eq!((-px).to_array()[i], -x[i]);
                    assert_eq!((px - py).to_array()[i], x[i] - y[i]);
                }
            }
        }
    }

    /// The reference for every dot kernel: products and sums one by one.
    fn naive_dot(xs: &[Goldilocks], ys: &[Goldilocks]) -> Goldilocks {
        xs.iter()
            .zip(ys)
            .fold(Goldilocks::ZERO, |acc, (&x, &y)| acc + x * y)
    }

    /// Vectors of edge words (2^64 − 1, p, p − 1, 2^32 ± 1, 0…) and random words.
    fn dot_inputs(rng: &mut StdRng, n: usize) -> Vec<Vec<Goldilocks>> {
        let edges = edge_words();
        let mut out: Vec<Vec<Goldilocks>> = edges
            .iter()
            .map(|&e| vec![Goldilocks::new_reduced(e); n])
            .collect();
        for _ in 0..64 {
            out.push(inputs(rng, n));
        }
        out
    }

    /// The 52-bit accumulator at its largest sum: `MAX_TERMS` products of words near `2^64`
    /// (every accumulator near its bound), and small-constant dots with the largest constants.
    #[test]
    fn ifma_sums_at_their_bounds() {
        let Some(cpu) = Avx512Ifma::detect() else {
            return;
        };
        let n = Accumulator52::MAX_TERMS;
        for (xw, cw) in [
            (u64::MAX, u64::MAX),
            (u64::MAX, (1 << 52) - 1),
            ((1 << 52) - 1, u64::MAX),
        ] {
            let x = Goldilocks::new_reduced(xw);
            let c = Goldilocks::new_reduced(cw);
            let px = PackedGoldilocksAvx512::broadcast(cpu.avx512(), x).split52(cpu);
            let mut acc = Accumulator52::new(cpu);
            for _ in 0..n {
                acc.add_product(&px, &Split52Constant::new(c));
            }
            let want = x * c * Goldilocks::new_reduced(n as u64);
            assert_eq!(acc.reduce().to_array(), [want; 8], "{xw:#x}·{cw:#x}");
        }
        // Sixteen constants just below 2^20 whose sum stays below 2^32.
        let cs = [(1u32 << 20) - 1; 16];
        let x = Goldilocks::new_reduced(u64::MAX);
        let px = [PackedGoldilocksAvx512::broadcast(cpu.avx512(), x); 16];
        let want = x * Goldilocks::new_reduced(16 * ((1 << 20) - 1));
        assert_eq!(
            PackedGoldilocksAvx512::dot_small_ifma(cpu, &px, &cs).to_array(),
            [want; 8]
        );
    }

    /// The circulant-plus-diagonal product (Poseidon's width-12 MDS layer) on both kernels,
    /// against the matrix product written out, for plonky2's constants and for the largest
    /// constants the kernels allow, on edge words and random states.
    #[test]
    fn circulant12_kernels_match_the_matrix_product() {
        let Some(cpu) = Avx512::detect() else {
            return;
        };
        let plonky2_circ = [17, 15, 41, 16, 2, 28, 13, 13, 39, 18, 34, 20];
        let mut plonky2_diag = [0; 12];
        plonky2_diag[0] = 8;
        // Every constant below 2^20 and Σ circ + max diag < 2^32.
        let largest = [(1u32 << 20) - 1; 12];
        let mut rng = rng();
        let mut states: Vec<[Goldilocks; 12]> = edge_words()
            .iter()
            .map(|&e| [Goldilocks::new_reduced(e); 12])
            .collect();
        states.extend(
            (0..64).map(|_| -> [Goldilocks; 12] { inputs(&mut rng, 12).try_into().unwrap() }),
        );
        for (circ, diag) in [(plonky2_circ, plonky2_diag), (largest, largest)] {
            for s in &states {
                let want: Vec<Goldilocks> = (0..12)
                    .map(|i| {
                        (0..12).fold(Goldilocks::ZERO, |acc, j| {
                            let d = if i == j { diag[i] } else { 0 };
                            let m = u64::from(circ[(j + 12 - i) % 12]) + u64::from(d);
                            acc + Goldilocks::new_reduced(m) * s[j]
                        })
                    })
                    .collect();
                let lo = PackedGoldilocksAvx512::from_array(cpu, s[..8].try_into().unwrap());
                let mut upper = [Goldilocks::new_reduced(u64::MAX); 8];
                upper[..4].copy_from_slice(&s[8..]);
                let hi = PackedGoldilocksAvx512::from_array(cpu, upper);
                let check = |(a, b): (PackedGoldilocksAvx512, PackedGoldilocksAvx512), what| {
                    let mut got = a.to_array().to_vec();
                    got.extend_from_slice(&b.to_array()[..4]);
                    assert_eq!(got, want, "{what}, circ {circ:?}, state {s:?}");
                };
                check(
                    PackedGoldilocksAvx512::circulant12_small(lo, hi, &circ, &diag),
                    "AVX-512F",
                );
                if let Some(ifma) = Avx512Ifma::detect() {
                    check(
                        PackedGoldilocksAvx512::circulant12_small_ifma(ifma, lo, hi, &circ, &diag),
                        "IFMA",
                    );
                }
            }
        }
    }

    #[test]
    fn dot_kernels_match_naive() {
        let mut rng = rng();
        for n in [1usize, 2, 11, 12, 16] {
            let vs = dot_inputs(&mut rng, n);
            for xs in &vs {
                for ys in vs.iter().step_by(7) {
                    let want = naive_dot(xs, ys);
                    assert_eq!(Goldilocks::dot_product(xs, ys), want, "n = {n}");
                    assert_eq!(
                        Goldilocks::mul_add(xs[0], ys[0], ys[n - 1]),
                        xs[0] * ys[0] + ys[n - 1]
                    );
                    let small: Vec<u32> =
                        ys.iter().map(|y| (y.as_raw_u64() % 1000) as u32).collect();
                    let small_el: Vec<Goldilocks> = small
                        .iter()
                        .map(|&c| Goldilocks::new_reduced(c as u64))
                        .collect();
                    assert_eq!(
                        Goldilocks::dot_product_small(xs, &small),
                        naive_dot(xs, &small_el)
                    );
                    if let Some(cpu) = Avx512::detect() {
                        let px: Vec<PackedGoldilocksAvx512> = xs
                            .iter()
                            .map(|&x| PackedGoldilocksAvx512::broadcast(cpu, x))
                            .collect();
                        assert_eq!(
                            PackedGoldilocksAvx512::dot_constants16(&px, ys).to_array(),
                            [want; 8]
                        );
                        assert_eq!(
                            PackedGoldilocksAvx512::dot_small(&px, &small).to_array(),
                            [naive_dot(xs, &small_el); 8]
                        );
                    }
                    if let Some(cpu) = Avx512Ifma::detect() {
                        let px: Vec<PackedGoldilocksAvx512> = xs
                            .iter()
                            .map(|&x| PackedGoldilocksAvx512::broadcast(cpu.avx512(), x))
                            .collect();
                        let mut acc = Accumulator52::new(cpu);
                        for (x, &y) in px.iter().zip(ys) {
                            acc.add_product(&x.split52(cpu), &Split52Constant::new(y));
                        }
                        assert_eq!(acc.reduce().to_array(), [want; 8]);
                        assert_eq!(
                            PackedGoldilocksAvx512::dot_small_ifma(cpu, &px, &small).to_array(),
                            [naive_dot(xs, &small_el); 8]
                        );
                    }
                    if let Some(cpu) = Avx2::detect() {
                        let px: Vec<PackedGoldilocksAvx2> = xs
                            .iter()
                            .map(|&x| PackedGoldilocksAvx2::broadcast(cpu, x))
                            .collect();
                        assert_eq!(
                            PackedGoldilocksAvx2::dot_small(&px, &small).to_array(),
                            [naive_dot(xs, &small_el); 4]
                        );
                    }
                }
            }
        }
    }
}

/// The NTT butterflies (SIMD when present) against the scalar formulas, for lengths around
/// the 4- and 8-lane boundaries.
#[test]
fn butterflies_match_their_definition() {
    use zkaccel_goldilocks::butterflies::*;
    let mut rng = rng();
    for len in 0..40 {
        let lo: Vec<Goldilocks> = (0..len).map(|_| sample(&mut rng)).collect();
        let hi: Vec<Goldilocks> = (0..len).map(|_| sample(&mut rng)).collect();
        let tw: Vec<Goldilocks> = (0..len).map(|_| sample(&mut rng)).collect();
        let w = sample(&mut rng);
        for dif in [false, true] {
            for same in [false, true] {
                let (mut a, mut b) = (lo.clone(), hi.clone());
                match (dif, same) {
                    (true, false) => dif_butterflies(&mut a, &mut b, &tw),
                    (false, false) => dit_butterflies(&mut a, &mut b, &tw),
                    (true, true) => dif_butterflies_same(&mut a, &mut b, w),
                    (false, true) => dit_butterflies_same(&mut a, &mut b, w),
                }
                for j in 0..len {
                    let t = if same { w } else { tw[j] };
                    let (x, y) = if dif {
                        (lo[j] + hi[j], (lo[j] - hi[j]) * t)
                    } else {
                        (lo[j] + hi[j] * t, lo[j] - hi[j] * t)
                    };
                    assert_eq!(
                        (a[j], b[j]),
                        (x, y),
                        "len {len} pair {j} dif {dif} same {same}"
                    );
                }
            }
        }
        let (mut a, mut b) = (lo.clone(), hi.clone());
        add_sub_runs(&mut a, &mut b);
        for j in 0..len {
            assert_eq!(
                (a[j], b[j]),
                (lo[j] + hi[j], lo[j] - hi[j]),
                "len {len} pair {j} unit"
            );
        }
        // Every backend this CPU has (AVX2 and scalar too where AVX-512 is present) against
        // the same formulas.
        #[cfg(target_arch = "x86_64")]
        for backend in [
            zkaccel_goldilocks::x86_64::Backend::Avx512,
            zkaccel_goldilocks::x86_64::Backend::Avx2,
            zkaccel_goldilocks::x86_64::Backend::Scalar,
        ] {
            for dif in [false, true] {
                for kind in 0..3 {
                    let tws = match kind {
                        0 => RunTwiddles::PerPair(&tw),
                        1 => RunTwiddles::Same(w),
                        _ => RunTwiddles::Unit,
                    };
                    let (mut a, mut b) = (lo.clone(), hi.clone());
                    butterflies_with(backend, &mut a, &mut b, tws, dif);
                    for j in 0..len {
                        let t = if kind == 0 { tw[j] } else { w };
                        let expected = match (kind, dif) {
                            (2, _) => (lo[j] + hi[j], lo[j] - hi[j]),
                            (_, true) => (lo[j] + hi[j], (lo[j] - hi[j]) * t),
                            (_, false) => (lo[j] + hi[j] * t, lo[j] - hi[j] * t),
                        };
                        assert_eq!(
                            (a[j], b[j]),
                            expected,
                            "{backend:?} len {len} pair {j} dif {dif} kind {kind}"
                        );
                    }
                }
            }
        }
    }
}

/// The radix-8 blocks across eight runs (SIMD when present) against the twelve butterflies
/// written out pair by pair, for lengths around the 4- and 8-lane boundaries and the layered
/// kernel's (from 32 elements, chunks of 512): one twiddle per slot with and without the unit
/// twiddles, with and without point scales, and a twiddle per element.
#[test]
fn three_stages_across_runs_match_their_butterflies() {
    use zkaccel_goldilocks::butterflies::{
        dif_three_stages, dif_three_stages_same, dif_three_stages_scaled, dit_three_stages,
        dit_three_stages_same, dit_three_stages_scaled,
    };
    let mut rng = rng();
    // (half-size, first point, slot of w) of every butterfly, DIT order; DIF runs it reversed.
    let pairs: Vec<(usize, usize, usize)> =
        [(1, [0, 2, 4, 6]), (2, [0, 1, 4, 5]), (4, [0, 1, 2, 3])]
            .iter()
            .flat_map(|&(h, ms)| ms.map(|m| (h, m, h - 1 + m % h)))
            .collect();
    for len in (0..40).chain([64, 100, 511, 513, 1100]) {
        let runs: Vec<Vec<Goldilocks>> = (0..8)
            .map(|_| (0..len).map(|_| sample(&mut rng)).collect())
            .collect();
        // `None`: one twiddle per slot (`Some(unit)` says whether slots 0, 1, 3 are one);
        // otherwise a table per slot.
        for unit in [Some(false), Some(true), None] {
            let tables: Vec<Vec<Goldilocks>> = (0..7)
                .map(|i| {
                    let same = twiddle_sample(&mut rng);
                    (0..len)
                        .map(|_| match unit {
                            Some(true) if [0, 1, 3].contains(&i) => Goldilocks::ONE,
                            Some(_) => same,
                            None => twiddle_sample(&mut rng),
                        })
                        .collect()
                })
                .collect();
            let points: [Goldilocks; 8] = core::array::from_fn(|_| sample(&mut rng));
            for (dif, scaled) in [(false, false), (true, false), (false, true), (true, true)] {
                if scaled && unit.is_none() {
                    continue;
                }
                let mut got = runs.clone();
                {
                    let mut views: [&mut [Goldilocks]; 8] = got
                        .iter_mut()
                        .map(|r| r.as_mut_slice())
                        .collect::<Vec<_>>()
                        .try_into()
                        .expect("eight runs");
                    let slices: [&[Goldilocks]; 7] = core::array::from_fn(|i| tables[i].as_slice());
                    let same: [Goldilocks; 7] =
                        core::array::from_fn(|i| tables[i].first().copied().unwrap_or_default());
                    match (unit, dif, scaled) {
                        (Some(u), true, false) => {
                            dif_three_stages_same(&mut views, &same, u, &mut none())
                        }
                        (Some(u), false, false) => {
                            dit_three_stages_same(&mut views, &same, u, &mut none())
                        }
                        (Some(u), true, true) => {
                            dif_three_stages_scaled(&mut views, &same, u, &points, &mut none())
                        }
                        (Some(u), false, true) => {
                            dit_three_stages_scaled(&mut views, &same, u, &points, &mut none())
                        }
                        (None, true, _) => dif_three_stages(&mut views, &slices),
                        (None, false, _) => dit_three_stages(&mut views, &slices),
                    }
                }
                for j in 0..len {
                    let mut v: Vec<Goldilocks> = runs.iter().map(|r| r[j]).collect();
                    if scaled && dif {
                        (0..8).for_each(|m| v[m] *= points[m]);
                    }
                    let order: Vec<_> = if dif {
                        pairs.iter().rev().collect()
                    } else {
                        pairs.iter().collect()
                    };
                    for &(h, m, slot) in order {
                        let (x, y, t) = (v[m], v[m + h], tables[slot][j]);
                        (v[m], v[m + h]) = if dif {
                            (x + y, (x - y) * t)
                        } else {
                            (x + y * t, x - y * t)
                        };
                    }
                    if scaled && !dif {
                        (0..8).for_each(|m| v[m] *= points[m]);
                    }
                    let out: Vec<Goldilocks> = got.iter().map(|r| r[j]).collect();
                    assert_eq!(
                        out, v,
                        "len {len} element {j} dif {dif} unit {unit:?} scaled {scaled}"
                    );
                }
            }
        }
    }
}

/// The 8-point NTT blocks (transposed AVX-512 when present) against the radix-2 stages
/// written out one butterfly at a time.
#[cfg(target_arch = "x86_64")]
#[test]
fn eight_point_blocks_match_the_radix2_stages() {
    use zkaccel_goldilocks::x86_64::{dif_last_three_stages, dit_first_three_stages};
    let mut rng = rng();
    for inverse in [false, true] {
        let root = |bits: usize| {
            let w = Goldilocks::two_adic_generator(bits).unwrap();
            if inverse {
                w.inverse()
            } else {
                w
            }
        };
        let (w8, w4) = (root(3), root(2));
        let tw4 = [Goldilocks::ONE, w8, w8 * w8, w8 * w8 * w8];
        let tw2 = [Goldilocks::ONE, w4];
        for blocks in [0usize, 1, 7, 8, 9, 16, 23] {
            let x: Vec<Goldilocks> = (0..8 * blocks).map(|_| sample(&mut rng)).collect();
            for dif in [true, false] {
                let mut want = x.clone();
                for b in want.chunks_exact_mut(8) {
                    let stages: [usize; 3] = if dif { [4, 2, 1] } else { [1, 2, 4] };
                    for h in stages {
                        let tw: &[Goldilocks] = match h {
                            4 => &tw4,
                            2 => &tw2,
                            _ => &[Goldilocks::ONE],
                        };
                        for s in (0..8).step_by(2 * h) {
                            for j in 0..h {
                                let (u, v) = (b[s + j], b[s + j + h]);
                                if dif {
                                    b[s + j] = u + v;
                                    b[s + j + h] = (u - v) * tw[j];
                                } else {
                                    b[s + j] = u + v * tw[j];
                                    b[s + j + h] = u - v * tw[j];
                                }
                            }
                        }
                    }
                }
                let mut got = x.clone();
                if dif {
                    dif_last_three_stages(&mut got, &tw4, &tw2);
                } else {
                    dit_first_three_stages(&mut got, &tw4, &tw2);
                }
                assert_eq!(got, want, "{blocks} blocks, dif {dif}, inverse {inverse}");
            }
        }
    }
}

/// A row of radix-8 blocks over contiguous wide points (SIMD when present, whole row in one
/// kernel) against the twelve butterflies of each block written out, with and without point
/// scales, for widths around the vector boundaries.
#[test]
fn block_rows_match_their_butterflies() {
    use zkaccel_goldilocks::butterflies::three_stages_block_row;
    let mut rng = rng();
    // (half-size, first point, slot) of every butterfly of a block, DIT order.
    let pairs: Vec<(usize, usize, usize)> =
        [(1, [0, 2, 4, 6]), (2, [0, 1, 4, 5]), (4, [0, 1, 2, 3])]
            .iter()
            .flat_map(|&(hh, ms)| ms.map(|m| (hh, m, hh - 1 + m % hh)))
            .collect();
    for (h, rows) in [
        (1usize, 1usize),
        (1, 600),
        (2, 1),
        (2, 9),
        (4, 1),
        (4, 3),
        (8, 1),
        (16, 2),
        (64, 1),
    ] {
        for width in [1usize, 2, 3, 7, 8, 9, 16, 17] {
            let data: Vec<Goldilocks> = (0..rows * 8 * h * width)
                .map(|_| sample(&mut rng))
                .collect();
            let t: Vec<Vec<Goldilocks>> = [h, 2 * h, 4 * h]
                .iter()
                .map(|&len| (0..len).map(|_| twiddle_sample(&mut rng)).collect())
                .collect();
            let points: Vec<Goldilocks> = (0..8 * h).map(|_| sample(&mut rng)).collect();
            for dif in [false, true] {
                // Scales are for one row.
                for scaled in [false, rows == 1] {
                    let mut got = data.clone();
                    // With a region to prefetch for writing, which changes no value.
                    let region = vec![Goldilocks::ONE; got.len()];
                    three_stages_block_row(
                        &mut got,
                        h,
                        width,
                        [&t[0], &t[1], &t[2]],
                        dif,
                        scaled.then_some(&points[..]),
                        &mut WritePrefetch::new(&region),
                    );
                    assert!(region.iter().all(|&x| x == Goldilocks::ONE));
                    let mut want = data.clone();
                    for (j, row) in (0..rows).flat_map(|row| (0..h).map(move |j| (j, row))) {
                        let base = row * 8 * h * width;
                        // Slot twiddles of block `j`; the unit ones are one for `j = 0`.
                        let w = [
                            t[0][j],
                            t[1][j],
                            t[1][j + h],
                            t[2][j],
                            t[2][j + h],
                            t[2][j + 2 * h],
                            t[2][j + 3 * h],
                        ];
                        let w: Vec<Goldilocks> = w
                            .iter()
                            .enumerate()
                            .map(|(i, &x)| {
                                if j == 0 && [0, 1, 3].contains(&i) {
                                    Goldilocks::ONE
                                } else {
                                    x
                                }
                            })
                            .collect();
                        for e in 0..width {
                            let at = |m: usize| base + (j + m * h) * width + e;
                            let mut v: Vec<Goldilocks> = (0..8).map(|m| want[at(m)]).collect();
                            if scaled && dif {
                                (0..8).for_each(|m| v[m] *= points[j + m * h]);
                            }
                            let order: Vec<_> = if dif {
                                pairs.iter().rev().collect()
                            } else {
                                pairs.iter().collect()
                            };
                            for &(hh, m, slot) in order {
                                let (x, y) = (v[m], v[m + hh]);
                                (v[m], v[m + hh]) = if dif {
                                    (x + y, (x - y) * w[slot])
                                } else {
                                    (x + y * w[slot], x - y * w[slot])
                                };
                            }
                            if scaled && !dif {
                                (0..8).for_each(|m| v[m] *= points[j + m * h]);
                            }
                            (0..8).for_each(|m| want[at(m)] = v[m]);
                        }
                    }
                    assert_eq!(
                        got, want,
                        "h {h} rows {rows} width {width} dif {dif} scaled {scaled}"
                    );
                }
            }
        }
    }
}

/// The block-row kernel refuses, by its documented panic and before writing anything, every
/// shape it cannot run: a length that is not whole rows, a zero width or half-size, stage
/// tables shorter than their stages, too few point scales, and scales for more than one row
/// (the AVX-512 kernel where present, the portable one under `ZKACCEL_SIMD=off`).
#[test]
fn block_rows_refuse_bad_shapes() {
    use zkaccel_goldilocks::butterflies::three_stages_block_row;
    let mut rng = rng();
    let (h, width) = (2usize, 9usize);
    let row: Vec<Goldilocks> = (0..8 * h * width).map(|_| sample(&mut rng)).collect();
    let t: Vec<Vec<Goldilocks>> = [h, 2 * h, 4 * h]
        .iter()
        .map(|&len| (0..len).map(|_| sample(&mut rng)).collect())
        .collect();
    let points: Vec<Goldilocks> = (0..8 * h).map(|_| sample(&mut rng)).collect();
    let two_rows = [row.clone(), row.clone()].concat();
    let tables = [&t[0][..], &t[1][..], &t[2][..]];
    type Case<'a> = (
        &'a str,
        Vec<Goldilocks>,
        usize,
        usize,
        [&'a [Goldilocks]; 3],
        Option<&'a [Goldilocks]>,
    );
    let cases: Vec<Case> = vec![
        (
            "not whole rows",
            row[..row.len() - 1].to_vec(),
            h,
            width,
            tables,
            None,
        ),
        ("zero width", row.clone(), h, 0, tables, None),
        ("zero half-size", row.clone(), 0, width, tables, None),
        (
            "short first table",
            row.clone(),
            h,
            width,
            [&t[0][..h - 1], &t[1][..], &t[2][..]],
            None,
        ),
        (
            "short last table",
            row.clone(),
            h,
            width,
            [&t[0][..], &t[1][..], &t[2][..4 * h - 1]],
            None,
        ),
        (
            "too few scales",
            row.clone(),
            h,
            width,
            tables,
            Some(&points[..8 * h - 1]),
        ),
        (
            "scales for two rows",
            two_rows,
            h,
            width,
            tables,
            Some(&points[..]),
        ),
    ];
    for (what, data, h, width, t, scales) in cases {
        refused_untouched(what, &data, |got, dif| {
            three_stages_block_row(got, h, width, t, dif, scales, &mut none())
        });
    }
}

/// Runs `kernel` on a copy of `data` for both transform directions and requires a panic that
/// left the copy as it was: a hostile shape refused before any point is written.
fn refused_untouched(what: &str, data: &[Goldilocks], kernel: impl Fn(&mut [Goldilocks], bool)) {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    for dif in [false, true] {
        let mut got = data.to_vec();
        let refused = catch_unwind(AssertUnwindSafe(|| kernel(&mut got, dif)));
        assert!(refused.is_err(), "{what} (dif {dif}) was accepted");
        assert_eq!(got, data, "{what} (dif {dif}) touched the data");
    }
}

/// The layered block-row kernel for one to four stages (the NTT's passes of one, two and four
/// stages over contiguous wide points) against its butterflies written out pair by pair: short
/// and long blocks, several rows, widths around the vector boundaries and points so wide that
/// a block is run in segments (a column group of a four-step column pass), with and without
/// point scales. Where it has no kernel (no AVX-512F, `ZKACCEL_SIMD=off`, a width of one) it
/// must say so and leave the data as it was.
#[test]
fn stage_block_rows_match_their_butterflies() {
    use zkaccel_goldilocks::butterflies::stages_block_row;
    let mut rng = rng();
    let narrow = [(1usize, 1usize), (1, 300), (2, 5), (4, 1), (8, 3), (32, 1)]
        .into_iter()
        .flat_map(|(h, rows)| [1usize, 2, 7, 8, 9, 17].map(|width| (h, rows, width)));
    // Wider than two level-1 chunks for every stage count, with a segment tail.
    let wide = [(1, 1, 4100), (2, 2, 4100), (4, 1, 2100), (1, 1, 1100)];
    let shapes: Vec<(usize, usize, usize)> = narrow.chain(wide).collect();
    for stages in 1..=4usize {
        let r = 1usize << stages;
        for &(h, rows, width) in &shapes {
            {
                let data: Vec<Goldilocks> = (0..rows * r * h * width)
                    .map(|_| sample(&mut rng))
                    .collect();
                let t: Vec<Vec<Goldilocks>> = (0..stages)
                    .map(|s| (0..h << s).map(|_| twiddle_sample(&mut rng)).collect())
                    .collect();
                let tables: Vec<&[Goldilocks]> = t.iter().map(|v| v.as_slice()).collect();
                let points: Vec<Goldilocks> = (0..r * h).map(|_| sample(&mut rng)).collect();
                for dif in [false, true] {
                    for scaled in [false, rows == 1] {
                        let mut got = data.clone();
                        let ran = stages_block_row(
                            &mut got,
                            h,
                            width,
                            &tables,
                            dif,
                            scaled.then_some(&points[..]),
                            &mut none(),
                        );
                        if !ran {
                            assert_eq!(got, data, "declined, but wrote");
                            continue;
                        }
                        let mut want = data.clone();
                        for row in 0..rows {
                            for j in 0..h {
                                for e in 0..width {
                                    let at = |m: usize| (row * r * h + j + m * h) * width + e;
                                    let mut v: Vec<Goldilocks> =
                                        (0..r).map(|m| want[at(m)]).collect();
                                    if scaled && dif {
                                        (0..r).for_each(|m| v[m] *= points[j + m * h]);
                                    }
                                    let order: Vec<usize> = if dif {
                                        (0..stages).rev().collect()
                                    } else {
                                        (0..stages).collect()
                                    };
                                    for s in order {
                                        let half = 1 << s;
                                        for m in (0..r).filter(|m| m & half == 0) {
                                            let slot = m % half;
                                            let w = if j == 0 && slot == 0 {
                                                Goldilocks::ONE
                                            } else {
                                                t[s][slot * h + j]
                                            };
                                            let (x, y) = (v[m], v[m + half]);
                                            (v[m], v[m + half]) = if dif {
                                                (x + y, (x - y) * w)
                                            } else {
                                                (x + y * w, x - y * w)
                                            };
                                        }
                                    }
                                    if scaled && !dif {
                                        (0..r).for_each(|m| v[m] *= points[j + m * h]);
                                    }
                                    (0..r).for_each(|m| want[at(m)] = v[m]);
                                }
                            }
                        }
                        assert_eq!(
                            got, want,
                            "{stages} stages h {h} rows {rows} width {width} dif {dif} scaled {scaled}"
                        );
                    }
                }
            }
        }
    }
}

/// The layered block-row kernel refuses every shape it cannot run, before writing anything:
/// no stage or five, a length that is not whole rows, a short stage table, too few scales,
/// scales for two rows; for narrow points and for points wide enough to run in segments.
#[test]
fn stage_block_rows_refuse_bad_shapes() {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use zkaccel_goldilocks::butterflies::stages_block_row;
    let mut rng = rng();
    // Narrow points, and points wide enough to run in segments.
    for width in [9usize, 4100] {
        let h = 4usize;
        let t: Vec<Vec<Goldilocks>> = (0..5)
            .map(|s| (0..h << s).map(|_| sample(&mut rng)).collect())
            .collect();
        let tables: Vec<&[Goldilocks]> = t.iter().map(|v| v.as_slice()).collect();
        let row: Vec<Goldilocks> = (0..4 * h * width).map(|_| sample(&mut rng)).collect();
        let points: Vec<Goldilocks> = (0..4 * h).map(|_| sample(&mut rng)).collect();
        let two_rows = [row.clone(), row.clone()].concat();
        let short = [tables[0], &t[1][..2 * h - 1]];
        type Case<'a> = (
            &'a str,
            Vec<Goldilocks>,
            &'a [&'a [Goldilocks]],
            Option<&'a [Goldilocks]>,
        );
        let cases: Vec<Case> = vec![
            ("no stage", row.clone(), &tables[..0], None),
            ("five stages", row.clone(), &tables[..5], None),
            (
                "not whole rows",
                row[..row.len() - 1].to_vec(),
                &tables[..2],
                None,
            ),
            ("short table", row.clone(), &short, None),
            (
                "too few scales",
                row.clone(),
                &tables[..2],
                Some(&points[..4 * h - 1]),
            ),
            (
                "scales for two rows",
                two_rows,
                &tables[..2],
                Some(&points[..]),
            ),
        ];
        for (what, data, t, scales) in cases {
            refused_untouched(what, &data, |got, dif| {
                stages_block_row(got, h, width, t, dif, scales, &mut none());
            });
        }
    }
    // Row lengths that overflow (and would wrap to zero, of which an empty slice is a
    // multiple) or are zero: refused, with the library's message, not a later slicing panic.
    let empty: &[&[Goldilocks]] = &[&[], &[]];
    for (h, width) in [(1usize << 62, 2usize), (usize::MAX, 1), (0, 9), (4, 0)] {
        let refused = catch_unwind(AssertUnwindSafe(|| {
            stages_block_row(&mut [], h, width, empty, false, None, &mut none())
        }));
        let message = refused.expect_err("an impossible row was accepted");
        let text = message
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| message.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        assert!(
            text.contains("rows of 2^stages"),
            "h {h} width {width}: {text}"
        );
    }
}

/// The run butterflies refuse mismatched runs and short twiddle tables on every backend, by a
/// panic before any element is written (they are kernels with documented preconditions; the
/// NTT plans check shapes and return errors before calling them).
#[cfg(target_arch = "x86_64")]
#[test]
fn run_butterflies_refuse_bad_shapes_untouched() {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use zkaccel_goldilocks::butterflies::{add_sub_runs, butterflies_with, RunTwiddles};
    use zkaccel_goldilocks::x86_64::Backend;
    let mut rng = rng();
    let lo: Vec<Goldilocks> = (0..17).map(|_| sample(&mut rng)).collect();
    let hi: Vec<Goldilocks> = (0..16).map(|_| sample(&mut rng)).collect();
    let short_tw: Vec<Goldilocks> = (0..15).map(|_| sample(&mut rng)).collect();
    let w = sample(&mut rng);
    for backend in [Backend::Avx512, Backend::Avx2, Backend::Scalar] {
        for dif in [false, true] {
            for (name, tw, lo_len) in [
                (
                    "mismatched, per pair",
                    RunTwiddles::PerPair(&short_tw[..]),
                    17,
                ),
                ("mismatched, same", RunTwiddles::Same(w), 17),
                ("mismatched, unit", RunTwiddles::Unit, 17),
                ("short table", RunTwiddles::PerPair(&short_tw[..]), 16),
            ] {
                let (mut a, mut b) = (lo[..lo_len].to_vec(), hi.clone());
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    butterflies_with(backend, &mut a, &mut b, tw, dif)
                }));
                assert!(outcome.is_err(), "{backend:?} {name} dif {dif}: accepted");
                assert_eq!(
                    (&a[..], &b[..]),
                    (&lo[..lo_len], &hi[..]),
                    "{name}: written"
                );
            }
        }
    }
    let (mut a, mut b) = (lo.clone(), hi.clone());
    assert!(catch_unwind(AssertUnwindSafe(|| add_sub_runs(&mut a, &mut b))).is_err());
    assert_eq!((a, b), (lo, hi));
}

/// No region to prefetch: the kernels' argument where a test has nothing to write next.
fn none() -> WritePrefetch<'static> {
    WritePrefetch::none()
}
