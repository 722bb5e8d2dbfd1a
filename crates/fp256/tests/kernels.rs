//! The 256-bit fields' kernels against integer arithmetic, on BN254 Fr, BLS12-381 Fr and
//! `2^254 − 245` (the widest modulus lazy reduction allows): the lazily reduced scalar chains
//! ([`LazyFp256`]), the lazy AVX2 and hybrid lanes, and the canonical multiplication kernels
//! and algorithms (Montgomery on each back end, Barrett, Russian peasant, the IFMA and AVX2
//! packings) against each other and against `num-bigint`.
//!
//! [`LazyFp256`]: zkaccel_fp256::kernels::LazyFp256

use num_bigint::BigUint;
use rand::rngs::StdRng;
use zkaccel_field::{limbs, Field, PrimeField};
use zkaccel_field_testing::{check_packed_lanes, edge_and_random, random_prime, rng, SAMPLES};

fn to_big(limbs_le: &[u64]) -> BigUint {
    let mut bytes = vec![0u8; 8 * limbs_le.len()];
    limbs::to_bytes_le(limbs_le, &mut bytes);
    BigUint::from_bytes_le(&bytes)
}

/// The value of one lane of a lazily reduced radix-2^29 representation (nine limbs, least
/// significant first), after asserting its invariant: the eight low limbs normalised (below
/// 2^29) and the value below `bound`.
fn radix29_lazy_value(limbs: &[u64; 9], bound: &BigUint, what: &str) -> BigUint {
    assert!(
        limbs[..8].iter().all(|&l| l < 1 << 29),
        "{what}: limbs {limbs:x?}"
    );
    let value = limbs
        .iter()
        .rev()
        .fold(BigUint::ZERO, |acc, &l| (acc << 29) + l);
    assert!(value < *bound, "{what}: value out of bounds");
    value
}

/// Lazily reduced chains ([`zkaccel_fp256::kernels::LazyFp256`]) agree with the canonical operations,
/// checked by big-integer arithmetic: long chains of squarings, products, pairs of products,
/// additions of canonical elements (`p − 1` among them, which pushes the lazy values towards
/// `2p`) and of two lazy values from edge and random starts, and the S-box schedules on lazy values. The run-time
/// chosen product kernel, the portable one, the portable squaring and the interleaved pair
/// give the same representation at every step. Lazy reduction is offered exactly when `4p < 2^256`.
fn check_fp256_lazy_chains<C: zkaccel_fp256::Fp256Config>() {
    use zkaccel_fp256::{kernels::LazyFp256, Fp256, MulBackend};
    use zkaccel_symmetric::sbox::{pow_sbox_with, SboxArithmetic};
    let p = to_big(&C::MODULUS);
    let fits = &p * 4u32 < BigUint::from(1u8) << 256;
    assert_eq!(LazyFp256::<C>::SUPPORTED, fits);
    if !fits {
        assert!(LazyFp256::new(Fp256::<C>::ONE).is_none());
        return;
    }
    let mut rng = rng();
    let starts = edge_and_random::<Fp256<C>>(&mut rng, 32);
    let canonical = |x: Fp256<C>| to_big(&x.to_canonical_u256());
    for &start in &starts {
        let mut lazy = LazyFp256::new(start).expect("4p < 2^256");
        let (mut exact, mut expected) = (start, canonical(start));
        for step in 0..300 {
            let c = if step % 3 == 0 {
                Fp256::<C>::NEG_ONE
            } else {
                random_prime::<Fp256<C>>(&mut rng)
            };
            // Two canonical summands at once, `p − 1` among them.
            let c2 = if step % 4 == 0 {
                Fp256::<C>::NEG_ONE
            } else {
                random_prime::<Fp256<C>>(&mut rng)
            };
            let two = lazy.add_two_canonical(c, c2);
            assert!(
                to_big(&two.representation()) < &p * 2u32,
                "two summands below 2p, step {step}"
            );
            assert_eq!(two.reduce(), exact + c + c2, "two summands, step {step}");
            // A sum of two lazy values.
            let both = two + lazy;
            assert!(
                to_big(&both.representation()) < &p * 2u32,
                "lazy sum below 2p, step {step}"
            );
            assert_eq!(
                both.reduce(),
                exact + c + c2 + exact,
                "lazy sum, step {step}"
            );
            lazy = lazy.add_canonical(c);
            exact += c;
            expected = (expected + canonical(c)) % &p;
            // Equal representations: `reduce` gives the canonical Montgomery form only if the
            // lazy value stayed below 2p.
            assert_eq!(lazy.reduce(), exact, "sum, step {step}");
            assert_eq!(canonical(exact), expected, "sum, step {step}");
            let square = lazy.square();
            assert_eq!(square.reduce(), exact * exact, "square, step {step}");
            assert_eq!(
                lazy.square_using(MulBackend::Portable).representation(),
                square.representation(),
                "squaring kernels, step {step}"
            );
            assert_eq!(
                lazy.mul_using(lazy, MulBackend::Adx).representation(),
                square.representation(),
                "squaring and product kernels, step {step}"
            );
            assert_eq!(
                (lazy * lazy).reduce(),
                exact * exact,
                "product, step {step}"
            );
            let cube = square * lazy;
            assert_eq!(
                cube.representation(),
                square
                    .mul_using(lazy, MulBackend::Portable)
                    .representation(),
                "product kernels, step {step}"
            );
            let (cube_again, fourth) = square.mul_pair(lazy, square);
            assert_eq!(
                cube_again.representation(),
                cube.representation(),
                "pair, step {step}"
            );
            assert_eq!(
                fourth.representation(),
                (square * square).representation(),
                "pair, step {step}"
            );
            let (cube_once_more, fourth_again) = square.product_and_square(&lazy);
            assert_eq!(
                (
                    cube_once_more.representation(),
                    fourth_again.representation()
                ),
                (cube.representation(), fourth.representation()),
                "product and square, step {step}"
            );
            lazy = cube * square;
            exact = exact * exact * exact * exact * exact;
            expected = expected.modpow(&BigUint::from(5u8), &p);
            assert_eq!(lazy.reduce(), exact, "x^5, step {step}");
            assert_eq!(canonical(exact), expected, "x^5, step {step}");
        }
    }
    for &x in &starts {
        let lazy = LazyFp256::new(x).expect("4p < 2^256");
        for d in [3, 5, 7, 11, 17] {
            let expected = to_big(&x.to_canonical_u256()).modpow(&BigUint::from(d), &p);
            let power = pow_sbox_with(&lazy, d).reduce();
            assert_eq!(canonical(power), expected, "x^{d}");
        }
    }
    // The largest representations: `v` whose Montgomery form is `p − 1` (`v = −2^-256 mod p`),
    // and `v + v` left unreduced at `2p − 2`, squared and multiplied (the squaring kernels'
    // first row is at its widest there).
    let r_inv = (BigUint::from(1u8) << 256u32).modpow(&(&p - 2u32), &p);
    let v_big = &p - r_inv;
    let v = Fp256::<C>::from_canonical_limbs(limbs_of(&v_big)).expect("below p");
    let top = LazyFp256::new(v).expect("4p < 2^256");
    assert_eq!(
        to_big(&top.representation()),
        &p - 1u32,
        "Montgomery form p − 1"
    );
    let widest = top.add_two_canonical(v, Fp256::<C>::ZERO);
    assert_eq!(to_big(&widest.representation()), &p * 2u32 - 2u32, "2p − 2");
    assert_eq!(
        to_big(&(widest + widest).representation()),
        &p * 2u32 - 4u32,
        "(2p − 2) + (2p − 2)"
    );
    assert_eq!(
        to_big(&(widest + top).representation()),
        &p - 3u32,
        "(2p − 2) + (p − 1)"
    );
    let two_v = (&v_big * 2u32) % &p;
    for (x, x_big) in [(top, &v_big), (widest, &two_v)] {
        let square_big = x_big * x_big % &p;
        assert_eq!(canonical(x.square().reduce()), square_big, "widest square");
        assert_eq!(canonical((x * x).reduce()), square_big, "widest product");
        let (product, square) = x.product_and_square(&widest);
        assert_eq!(
            canonical(square.reduce()),
            square_big,
            "widest product and square"
        );
        assert_eq!(
            canonical(product.reduce()),
            x_big * &two_v % &p,
            "widest product and square"
        );
    }
}

/// The four little-endian words of `x < 2^256`.
fn limbs_of(x: &BigUint) -> [u64; 4] {
    let mut words = x.to_u64_digits();
    words.resize(4, 0);
    words.try_into().expect("four words")
}

/// The lazily reduced AVX2 lanes ([`zkaccel_fp256::kernels::LazyPackedFp256Avx2`]) against big-integer
/// arithmetic, lane by lane, where the CPU has AVX2: long chains of additions of canonical
/// elements (runs of `p − 1`, which push the lanes to the bound where `p` is subtracted),
/// squarings, products, the S-box schedules and MiMC rounds on unreduced sums
/// (`power_of_sum`) from edge and random starts. At every step each lane's representation is
/// checked itself: its eight low limbs below `2^29`, its value below
/// `2p + 2^234` and congruent to the element times `2^261` modulo `p`.
fn check_fp256_lazy_packed_avx2<C: zkaccel_fp256::Fp256Config>() {
    #[cfg(target_arch = "x86_64")]
    {
        use zkaccel_fp256::kernels::LazyPackedFp256Avx2;
        use zkaccel_fp256::{Avx2, Fp256, PackedFp256Avx2};
        use zkaccel_symmetric::sbox::{pow_sbox_with, SboxArithmetic};
        let Some(cpu) = Avx2::detect() else {
            return;
        };
        let p = to_big(&C::MODULUS);
        let bound = &p * 2u32 + (BigUint::from(1u8) << 234);
        let r261 = (BigUint::from(1u8) << 261) % &p;
        let canonical = |x: Fp256<C>| to_big(&x.to_canonical_u256());
        let check = |lazy: LazyPackedFp256Avx2<C>, expected: &[BigUint; 4], what: &str| {
            for (lane, limbs) in lazy.representation().iter().enumerate() {
                let value = radix29_lazy_value(limbs, &bound, &format!("{what}: lane {lane}"));
                assert_eq!(
                    &value % &p,
                    &expected[lane] * &r261 % &p,
                    "{what}: lane {lane}"
                );
            }
            let reduced = lazy.reduce().to_elements();
            for lane in 0..4 {
                assert_eq!(canonical(reduced[lane]), expected[lane], "{what}: reduce");
            }
        };
        let mut rng = rng();
        let starts = edge_and_random::<Fp256<C>>(&mut rng, 27);
        for group in starts.chunks_exact(4) {
            let group: [Fp256<C>; 4] = group.try_into().expect("chunks of four");
            let mut lazy = LazyPackedFp256Avx2::new(PackedFp256Avx2::from_elements(cpu, &group));
            let mut expected = group.map(canonical);
            check(lazy, &expected, "load");
            for step in 0..200 {
                // Runs of p − 1 between random addends: sums of many canonical values.
                let c: [Fp256<C>; 4] = core::array::from_fn(|_| {
                    if step % 5 < 3 {
                        Fp256::<C>::NEG_ONE
                    } else {
                        random_prime::<Fp256<C>>(&mut rng)
                    }
                });
                lazy = lazy.add_canonical(PackedFp256Avx2::from_elements(cpu, &c));
                for lane in 0..4 {
                    expected[lane] = (&expected[lane] + canonical(c[lane])) % &p;
                }
                check(lazy, &expected, &format!("sum, step {step}"));
                if step % 4 != 3 {
                    continue;
                }
                let square = lazy.sbox_square();
                let squares = expected.clone().map(|e| e.modpow(&BigUint::from(2u8), &p));
                check(square, &squares, &format!("square, step {step}"));
                check(lazy * lazy, &squares, &format!("product, step {step}"));
                // A MiMC round on the lanes, the sum unreduced into the kernels (d > 1) or
                // reduced (d = 1): (x + a + b)^d, with a = p − 1 in some steps.
                let d_round = [1, 3, 5, 7, 11][step / 4 % 5];
                let a: [Fp256<C>; 4] = core::array::from_fn(|lane| {
                    if (step + lane) % 3 == 0 {
                        Fp256::<C>::NEG_ONE
                    } else {
                        random_prime::<Fp256<C>>(&mut rng)
                    }
                });
                let b: [Fp256<C>; 4] = core::array::from_fn(|_| random_prime(&mut rng));
                let round = lazy.power_of_sum(
                    PackedFp256Avx2::from_elements(cpu, &a),
                    PackedFp256Avx2::from_elements(cpu, &b),
                    d_round,
                );
                let rounds: [BigUint; 4] = core::array::from_fn(|lane| {
                    ((&expected[lane] + canonical(a[lane]) + canonical(b[lane])) % &p)
                        .modpow(&BigUint::from(d_round), &p)
                });
                check(
                    round,
                    &rounds,
                    &format!("(x + a + b)^{d_round}, step {step}"),
                );
                let d = [3, 5, 7, 11][step / 4 % 4];
                lazy = pow_sbox_with(&lazy, d);
                expected = expected.map(|e| e.modpow(&BigUint::from(d), &p));
                check(lazy, &expected, &format!("x^{d}, step {step}"));
            }
        }
    }
}

/// The hybrid lanes ([`zkaccel_fp256::kernels::LazyHybridFp256`]: four AVX2 lanes and two scalar lanes
/// in one interleaved kernel), where the CPU has AVX2, BMI2 and ADX: on a field without room
/// for lazy reduction no value can be built; otherwise, along chains of additions of canonical
/// elements (runs of `p − 1` between random ones), squarings, products and the S-box
/// schedules from edge and random starts, every lane's representation equals what its own
/// kind's kernels give ([`zkaccel_fp256::kernels::LazyPackedFp256Avx2`], [`zkaccel_fp256::kernels::LazyFp256`],
/// each checked against big integers by its own suite), and the reduced lanes equal
/// big-integer arithmetic.
fn check_fp256_lazy_hybrid<C: zkaccel_fp256::Fp256Config>() {
    #[cfg(target_arch = "x86_64")]
    {
        use zkaccel_fp256::kernels::{LazyFp256, LazyHybridFp256, LazyPackedFp256Avx2};
        use zkaccel_fp256::{Avx2, Fp256, MulBackend, PackedFp256Avx2};
        use zkaccel_symmetric::sbox::{pow_sbox_with, SboxArithmetic};
        let Some(cpu) = Avx2::detect() else {
            return;
        };
        let mut rng = rng();
        let starts = edge_and_random::<Fp256<C>>(&mut rng, 30);
        let first: [Fp256<C>; 6] = starts[..6].try_into().expect("six starts");
        let adx = zkaccel_field::cpu::Bmi2Adx::detect().is_some();
        let buildable = LazyHybridFp256::from_elements(cpu, &first).is_some();
        assert_eq!(buildable, adx && LazyFp256::<C>::SUPPORTED);
        if !buildable {
            return;
        }
        let p = to_big(&C::MODULUS);
        let canonical = |x: Fp256<C>| to_big(&x.to_canonical_u256());
        type Parts<C> = (LazyPackedFp256Avx2<C>, [LazyFp256<C>; 2]);
        let same =
            |hybrid: LazyHybridFp256<C>, parts: Parts<C>, expected: &[BigUint; 6], what: &str| {
                let (v, s) = hybrid.parts();
                assert_eq!(
                    v.representation(),
                    parts.0.representation(),
                    "{what}: vector lanes"
                );
                for (lane, (ours, theirs)) in s.iter().zip(&parts.1).enumerate() {
                    assert_eq!(
                        ours.representation(),
                        theirs.representation(),
                        "{what}: scalar lane {lane}"
                    );
                }
                let reduced = hybrid.reduce();
                for lane in 0..6 {
                    assert_eq!(
                        canonical(reduced[lane]),
                        expected[lane],
                        "{what}: lane {lane}"
                    );
                }
            };
        // The scalar lanes' products on the assembly kernel, as in the hybrid one.
        let scalar_product = |x: LazyFp256<C>, y: LazyFp256<C>| x.mul_using(y, MulBackend::Adx);
        for group in starts.chunks_exact(6) {
            let group: [Fp256<C>; 6] = group.try_into().expect("chunks of six");
            let mut hybrid = LazyHybridFp256::from_elements(cpu, &group).expect("buildable");
            let mut parts = hybrid.parts();
            let mut expected = group.map(canonical);
            same(hybrid, parts, &expected, "load");
            for step in 0..120 {
                let c: [Fp256<C>; 6] = core::array::from_fn(|_| {
                    if step % 5 < 3 {
                        Fp256::<C>::NEG_ONE
                    } else {
                        random_prime::<Fp256<C>>(&mut rng)
                    }
                });
                let cv = PackedFp256Avx2::from_elements(cpu, &[c[0], c[1], c[2], c[3]]);
                hybrid = hybrid.add_canonical(cv, [c[4], c[5]]);
                parts = (
                    parts.0.add_canonical(cv),
                    [
                        parts.1[0].add_canonical(c[4]),
                        parts.1[1].add_canonical(c[5]),
                    ],
                );
                for lane in 0..6 {
                    expected[lane] = (&expected[lane] + canonical(c[lane])) % &p;
                }
                same(hybrid, parts, &expected, &format!("sum, step {step}"));
                if step % 3 != 2 {
                    continue;
                }
                let squares = expected.clone().map(|e| e.modpow(&BigUint::from(2u8), &p));
                let square_parts = (parts.0.sbox_square(), parts.1.map(|s| scalar_product(s, s)));
                same(
                    hybrid.sbox_square(),
                    square_parts,
                    &squares,
                    &format!("square, step {step}"),
                );
                same(
                    hybrid * hybrid,
                    square_parts,
                    &squares,
                    &format!("product, step {step}"),
                );
                // A product of two different values: by the square.
                let cubes = expected.clone().map(|e| e.modpow(&BigUint::from(3u8), &p));
                let cube_parts = (
                    square_parts.0 * parts.0,
                    [
                        scalar_product(square_parts.1[0], parts.1[0]),
                        scalar_product(square_parts.1[1], parts.1[1]),
                    ],
                );
                same(
                    hybrid.sbox_square() * hybrid,
                    cube_parts,
                    &cubes,
                    &format!("cube, step {step}"),
                );
                let d = [3, 5, 7, 11][step / 3 % 4];
                hybrid = pow_sbox_with(&hybrid, d);
                parts = hybrid.parts();
                expected = expected.map(|e| e.modpow(&BigUint::from(d), &p));
                let reduced = hybrid.reduce();
                for lane in 0..6 {
                    assert_eq!(
                        canonical(reduced[lane]),
                        expected[lane],
                        "x^{d}, step {step}"
                    );
                }
            }
        }
        // MiMC rounds, `x ← (x + a + b)^d`, with the sum unreduced in the vector lanes: every
        // result is again a hybrid value (eight low vector limbs normalised, vector values below
        // 2p + 2^234, scalar values below 2p) and right, for `d = 1` (no kernel) too.
        use zkaccel_fp256::kernels::HybridCanonical;
        use zkaccel_symmetric::sbox::{sbox_schedule, SBOX_REGISTERS};
        let two_p = &p * 2u32;
        let vector_bound = &two_p + (BigUint::from(1u8) << 234);
        let in_range = |hybrid: LazyHybridFp256<C>, what: &str| {
            let (v, s) = hybrid.parts();
            for (lane, limbs) in v.representation().iter().enumerate() {
                radix29_lazy_value(limbs, &vector_bound, &format!("{what}: vector lane {lane}"));
            }
            for (lane, x) in s.iter().enumerate() {
                assert!(
                    to_big(&x.representation()) < two_p,
                    "{what}: scalar lane {lane}"
                );
            }
        };
        for group in starts.chunks_exact(6) {
            let group: [Fp256<C>; 6] = group.try_into().expect("chunks of six");
            let state = LazyHybridFp256::from_elements(cpu, &group).expect("buildable");
            let mut registers = [state; SBOX_REGISTERS];
            let mut expected = group.map(canonical);
            for step in 0..60 {
                let pick = |edge: bool, rng: &mut StdRng| {
                    if edge {
                        Fp256::<C>::NEG_ONE
                    } else {
                        random_prime::<Fp256<C>>(rng)
                    }
                };
                let a: [Fp256<C>; 6] = core::array::from_fn(|_| pick(step % 4 < 2, &mut rng));
                let b = pick(step % 4 != 1, &mut rng);
                let d = [1, 3, 5, 7, 7, 11][step % 6];
                let schedule = sbox_schedule(d).expect("d > 0");
                LazyHybridFp256::power_of_sum(
                    &mut registers,
                    &HybridCanonical::from_elements(cpu, &a),
                    &HybridCanonical::broadcast(cpu, b),
                    &schedule,
                );
                for lane in 0..6 {
                    let sum = &expected[lane] + canonical(a[lane]) + canonical(b);
                    expected[lane] = sum.modpow(&BigUint::from(d), &p);
                }
                let what = format!("(x + a + b)^{d}, step {step}");
                in_range(registers[0], &what);
                let reduced = registers[0].reduce();
                for lane in 0..6 {
                    assert_eq!(
                        canonical(reduced[lane]),
                        expected[lane],
                        "{what}: lane {lane}"
                    );
                }
            }
        }
        // Whole ciphers, `x_{i+1} = (x_i + key + c_i)^d` and then `x_n + key`, with the next
        // round's addend added inside the last product's kernel: against the same rounds on
        // integers, for no round, one, two and many, each exponent (d = 1 takes the round by
        // round path), keys and constants at p − 1 (sums near 2p, so both sides of the scalar
        // lanes' select) and zero as well as random.
        use zkaccel_fp256::kernels::HybridBroadcast;
        for (g, group) in starts.chunks_exact(6).enumerate() {
            let group: [Fp256<C>; 6] = group.try_into().expect("chunks of six");
            let state = LazyHybridFp256::from_elements(cpu, &group).expect("buildable");
            let d = [1, 3, 5, 7, 11][g % 5];
            let schedule = sbox_schedule(d).expect("d > 0");
            for rounds in [0, 1, 2, 17] {
                let key: [Fp256<C>; 6] = core::array::from_fn(|lane| match (lane + g) % 3 {
                    0 => Fp256::<C>::NEG_ONE,
                    1 => random_prime::<Fp256<C>>(&mut rng),
                    _ => Fp256::<C>::ZERO,
                });
                let constants: Vec<Fp256<C>> = (0..rounds)
                    .map(|i| match i % 4 {
                        0 | 1 => Fp256::<C>::NEG_ONE,
                        2 => Fp256::<C>::ZERO,
                        _ => random_prime::<Fp256<C>>(&mut rng),
                    })
                    .collect();
                let broadcast: Vec<HybridBroadcast<C>> = constants
                    .iter()
                    .map(|&c| HybridBroadcast::new(cpu, c))
                    .collect();
                let out = state.power_of_sum_rounds(
                    &HybridCanonical::from_elements(cpu, &key),
                    &broadcast,
                    &schedule,
                );
                for lane in 0..6 {
                    let k = canonical(key[lane]);
                    let mut x = canonical(group[lane]);
                    for &c in &constants {
                        x = (x + &k + canonical(c)).modpow(&BigUint::from(d), &p);
                    }
                    assert_eq!(
                        canonical(out[lane]),
                        (x + k) % &p,
                        "E_k with x^{d}, {rounds} rounds, group {g}, lane {lane}"
                    );
                }
            }
        }
        // The Feistel chain `u_1 = u_0^d + v`, `u_{i+1} = u_i^d + u_{i−1} + s_i`: against
        // integers for one, two, three and many steps, `v` and the steps at p − 1 (vector sums
        // near 4p, so both sides of the subtraction of 2p), zero and random, and a long chain
        // of steps all p − 1 (without the subtraction its values would drift up by about p/2
        // every two steps, past what the kernels take); d = 4, whose schedule ends with a
        // squaring, takes the path that adds after the kernel; no chain for the empty schedule
        // of d = 1.
        for (g, group) in starts.chunks_exact(6).enumerate() {
            let group: [Fp256<C>; 6] = group.try_into().expect("chunks of six");
            let first = LazyHybridFp256::from_elements(cpu, &group).expect("buildable");
            let d = [3, 4, 5, 7, 11][g % 5];
            let schedule = sbox_schedule(d).expect("d > 0");
            for n in [1usize, 2, 3, 40, 400] {
                let v: [Fp256<C>; 6] = core::array::from_fn(|lane| match (lane + g + n) % 3 {
                    0 => Fp256::<C>::NEG_ONE,
                    1 => random_prime::<Fp256<C>>(&mut rng),
                    _ => Fp256::<C>::ZERO,
                });
                let steps: Vec<Fp256<C>> = (1..n)
                    .map(|i| match i % 4 {
                        _ if n > 40 => Fp256::<C>::NEG_ONE,
                        0 | 1 => Fp256::<C>::NEG_ONE,
                        2 => Fp256::<C>::ZERO,
                        _ => random_prime::<Fp256<C>>(&mut rng),
                    })
                    .collect();
                let broadcast: Vec<HybridBroadcast<C>> = steps
                    .iter()
                    .map(|&s| HybridBroadcast::new(cpu, s))
                    .collect();
                let v_hybrid = LazyHybridFp256::from_elements(cpu, &v).expect("buildable");
                let out = LazyHybridFp256::feistel_chain(first, v_hybrid, &broadcast, &schedule)
                    .expect("the schedule ends in register 0");
                let power = |x: &BigUint| x.modpow(&BigUint::from(d), &p);
                for lane in 0..6 {
                    let mut before = canonical(group[lane]);
                    let mut now = (power(&before) + canonical(v[lane])) % &p;
                    for &s in &steps {
                        let next = (power(&now) + &before + canonical(s)) % &p;
                        before = core::mem::replace(&mut now, next);
                    }
                    let what = format!("Feistel chain, x^{d}, n = {n}, group {g}, lane {lane}");
                    assert_eq!(canonical(out[0][lane]), now, "{what}: u_n");
                    assert_eq!(canonical(out[1][lane]), before, "{what}: u_(n-1)");
                    assert_eq!(canonical(out[2][lane]), power(&now), "{what}: u_n^d");
                }
            }
            let identity = sbox_schedule(1).expect("d > 0");
            assert!(LazyHybridFp256::feistel_chain(first, first, &[], &identity).is_none());
        }
    }
}

/// Every multiplication path of a 256-bit field agrees on random and edge inputs: the run-time
/// chosen kernel, the assembly and portable kernels, the papers' reference algorithms (CIOS,
/// Algorithm 1 of the NTT paper, Barrett, Russian peasant), and the packed IFMA and AVX2 types
/// where the CPU has them.
fn check_fp256_kernels<C: zkaccel_fp256::Fp256Config>() {
    use zkaccel_field::modmul::MulAlgorithm;
    use zkaccel_fp256::{Fp256, MulBackend};
    type F<C> = Fp256<C>;
    let mut rng = rng();
    let values = edge_and_random::<F<C>>(&mut rng, SAMPLES);
    let p = to_big(&C::MODULUS);
    for (i, &a) in values.iter().enumerate() {
        for &b in values.iter().skip(i % 7).step_by(17) {
            let expected = (to_big(&a.to_canonical_u256()) * to_big(&b.to_canonical_u256())) % &p;
            let fast = a * b;
            assert_eq!(to_big(&fast.to_canonical_u256()), expected);
            assert_eq!(a.mul_using(b, MulBackend::Adx), fast);
            assert_eq!(a.mul_using(b, MulBackend::Portable), fast);
            for alg in MulAlgorithm::ALL {
                assert_eq!(a.mul_with(b, alg), fast, "{alg:?}");
            }
            let m = C::MONT;
            let (am, bm) = (
                m.to_montgomery(&a.to_canonical_u256()),
                m.to_montgomery(&b.to_canonical_u256()),
            );
            assert_eq!(m.mul_three_products(&am, &bm), m.mul(&am, &bm));
        }
    }
    // Batches: the IFMA kernel (eight lanes, odd tail) against one-at-a-time products, on every
    // pairing of edge values and random values.
    use zkaccel_fp256::BatchBackend;
    let n = values.len();
    let xs: Vec<F<C>> = (0..n * 5 + 3).map(|i| values[i % n]).collect();
    let ys: Vec<F<C>> = (0..n * 5 + 3)
        .map(|i| values[(i / n + 7 * i) % n])
        .collect();
    let expected: Vec<F<C>> = xs.iter().zip(&ys).map(|(x, y)| *x * *y).collect();
    for backend in [BatchBackend::Ifma, BatchBackend::Scalar] {
        let mut out = xs.clone();
        F::<C>::mul_assign_slices_using(backend, &mut out, &ys);
        assert_eq!(out, expected, "{backend:?}");
    }
    let mut out = xs.clone();
    F::<C>::mul_assign_slices(&mut out, &ys);
    assert_eq!(out, expected);
    // The packed types against scalar arithmetic, lane by lane.
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = zkaccel_fp256::Ifma::detect() {
        use zkaccel_fp256::PackedFp256Ifma;
        check_packed_lanes::<PackedFp256Ifma<C>>(cpu, &xs, &ys);
        assert_eq!(
            PackedFp256Ifma::broadcast(cpu, xs[3]).to_elements(),
            [xs[3]; 8]
        );
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = zkaccel_fp256::Avx2::detect() {
        use zkaccel_fp256::PackedFp256Avx2;
        check_packed_lanes::<PackedFp256Avx2<C>>(cpu, &xs, &ys);
        assert_eq!(
            PackedFp256Avx2::broadcast(cpu, xs[3]).to_elements(),
            [xs[3]; 4]
        );
        // A broadcast kept as one lane's limbs: every value (edge ones included) comes back in
        // all four lanes, and a sum with it equals the sum with the full broadcast.
        for (&x, &y) in xs.iter().zip(&ys) {
            let compact = zkaccel_fp256::BroadcastFp256Avx2::new(cpu, x);
            assert_eq!(compact.get().to_elements(), [x; 4]);
            let sum = PackedFp256Avx2::broadcast(cpu, y) + compact.get();
            assert_eq!(sum.to_elements(), [y + x; 4]);
        }
    }
}

/// The chain kernels behind `MimcField::power_chains` and `MimcField::feistel_chains` (hybrid, AVX2
/// and lazy scalar lanes; each falls back where the CPU or the modulus does not allow it)
/// against one chain at a time (`MimcField::power_chain`, `MimcField::feistel_chain`, whose agreement
/// with a plain loop `zkaccel-field-testing` checks), on batches that fill whole groups of six
/// and four lanes and leave remainders, inputs of `p − 1` among random ones; unequal lengths
/// are errors that write nothing.
fn check_fp256_chain_kernels<C: zkaccel_fp256::Fp256Config>() {
    use zkaccel_field::FieldError;
    use zkaccel_fp256::kernels::{
        feistel_chains_hybrid, power_chains_avx2, power_chains_hybrid, power_chains_lazy,
    };
    use zkaccel_fp256::Fp256;
    use zkaccel_mimc::MimcField;
    type F<C> = Fp256<C>;
    type Kernel<C> = fn(&mut [F<C>], &[F<C>], &[F<C>], u64) -> Result<(), FieldError>;
    let kernels: [(&str, Kernel<C>); 3] = [
        ("hybrid", power_chains_hybrid),
        ("avx2", power_chains_avx2),
        ("lazy", power_chains_lazy),
    ];
    let mut rng = rng();
    let pick = |i: usize, rng: &mut StdRng| {
        if i % 5 == 2 {
            F::<C>::NEG_ONE
        } else {
            random_prime(rng)
        }
    };
    for d in [5u64, 7] {
        let constants: Vec<F<C>> = (0..9).map(|i| pick(i, &mut rng)).collect();
        for n in [0usize, 1, 4, 6, 7, 13, 25] {
            let xs: Vec<F<C>> = (0..n).map(|i| pick(i, &mut rng)).collect();
            let ks: Vec<F<C>> = (0..n).map(|i| pick(i + 1, &mut rng)).collect();
            let want: Vec<F<C>> = xs
                .iter()
                .zip(&ks)
                .map(|(&x, &k)| F::<C>::power_chain(x, k, &constants, d))
                .collect();
            for (name, kernel) in kernels {
                let mut got = xs.clone();
                kernel(&mut got, &ks, &constants, d).expect("equal lengths");
                assert_eq!(got, want, "{name}, d = {d}, n = {n}");
                if n > 0 {
                    let mut got = xs.clone();
                    let outcome = kernel(&mut got, &ks[1..], &constants, d);
                    let unequal = FieldError::UnequalLengths {
                        left: n,
                        right: n - 1,
                    };
                    assert_eq!(outcome, Err(unequal), "{name}");
                    assert_eq!(got, xs, "{name} wrote on an error");
                }
            }
            let steps = &constants[..7];
            let want: Vec<(F<C>, F<C>)> = xs
                .iter()
                .zip(&ks)
                .map(|(&u, &v)| F::<C>::feistel_chain(u, v, steps, d))
                .collect();
            let (mut us, mut vs) = (xs.clone(), ks.clone());
            feistel_chains_hybrid(&mut us, &mut vs, steps, d).expect("equal lengths");
            let got: Vec<(F<C>, F<C>)> = us.into_iter().zip(vs).collect();
            assert_eq!(got, want, "Feistel hybrid, d = {d}, n = {n}");
            if n > 0 {
                let (mut us, mut vs) = (xs.clone(), ks[1..].to_vec());
                assert!(feistel_chains_hybrid(&mut us, &mut vs, steps, d).is_err());
                assert_eq!(us, xs, "the Feistel hybrid kernel wrote on an error");
            }
        }
    }
}

/// The suite on one configuration.
macro_rules! kernel_tests {
    ($name:ident, $config:ty) => {
        mod $name {
            #[test]
            fn lazy_chains_agree_with_canonical_arithmetic() {
                super::check_fp256_lazy_chains::<$config>();
            }

            #[test]
            fn lazy_avx2_lanes_agree_with_integers() {
                super::check_fp256_lazy_packed_avx2::<$config>();
            }

            #[test]
            fn lazy_hybrid_lanes_agree_with_integers() {
                super::check_fp256_lazy_hybrid::<$config>();
            }

            #[test]
            fn chain_kernels_agree_with_single_chains() {
                super::check_fp256_chain_kernels::<$config>();
            }

            #[test]
            fn multiplication_kernels_and_algorithms_agree() {
                super::check_fp256_kernels::<$config>();
            }
        }
    };
}

kernel_tests!(bn254, zkaccel_bn254::FrConfig);
kernel_tests!(bls12_381, zkaccel_bls12_381::FrConfig);
kernel_tests!(wide_modulus, crate::WideConfig);

/// `p = 2^254 − 245`, the largest prime below `2^254` (checked with 16 Miller–Rabin bases
/// when it was chosen; Fermat's test below): wide enough that a squaring's first row (`a_0` times the doubled
/// words of `a`, plus `m·p`) would overflow five words for some inputs, so `LazyFp256` must
/// not use the squaring kernels there (BN254 Fr, the other lazily reduced field, is below
/// `2^256/5`). The lazy AVX2 and hybrid lanes' bounds (`2p + 2^234`, the top-limb thresholds
/// for subtracting `p` and `2p`) are at their widest, and so are the canonical kernels' and
/// packed lanes' (the IFMA and AVX2 squaring kernels among them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
struct WideConfig;

impl zkaccel_fp256::Fp256Config for WideConfig {
    const NAME: &'static str = "2^254 - 245";
    const MODULUS: [u64; 4] = [
        0xffff_ffff_ffff_ff0b,
        0xffff_ffff_ffff_ffff,
        0xffff_ffff_ffff_ffff,
        0x3fff_ffff_ffff_ffff,
    ];
    /// Not used by these tests (only products, squarings and sums are).
    const GENERATOR: u64 = 3;
}

#[test]
fn wide_modulus_is_in_the_range_it_tests() {
    use zkaccel_fp256::Fp256Config;
    let m = WideConfig::MODULUS;
    assert!(m[3] < 1 << 62, "4p < 2^256");
    // 5p ≥ 2^256: p above 0x3333…33.
    assert!(m[3] > 0x3333_3333_3333_3333);
    let p = to_big(&m);
    assert_eq!(p, (BigUint::from(1u8) << 254) - 245u32);
    for base in [2u32, 3, 5, 7, 11, 13] {
        let one = BigUint::from(base).modpow(&(&p - 1u32), &p);
        assert_eq!(one, BigUint::from(1u8), "Fermat base {base}");
    }
}
