#![doc = include_str!("../README.md")]

pub mod bench;

use ark_ff::{BigInteger, Field as ArkField, PrimeField as ArkPrimeField};

use num_bigint::BigUint;
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use zkaccel_field::{batch_inverse, limbs, Field, FieldError, PrimeField, TwoAdicField};

/// Number of random samples each property is checked on.
pub const SAMPLES: usize = 200;

/// A deterministic generator so failures reproduce.
pub fn rng() -> StdRng {
    StdRng::seed_from_u64(0x7a6b_6163_6365_6c00)
}

/// The edge values `0, 1, 2, −1, −2`, then `random` uniform elements.
pub fn edge_and_random<F: PrimeField>(rng: &mut dyn RngCore, random: usize) -> Vec<F> {
    let mut values = vec![F::ZERO, F::ONE, F::TWO, F::NEG_ONE, -F::TWO];
    values.extend((0..random).map(|_| random_prime::<F>(rng)));
    values
}

/// A uniformly random element of a prime field, reduced from 64 more bits than it needs.
pub fn random_prime<F: PrimeField>(rng: &mut dyn RngCore) -> F {
    let n = F::Limbs::default().as_ref().len() + 1;
    let v: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
    F::from_limbs_reduced(&v)
}

fn to_big(limbs_le: &[u64]) -> BigUint {
    let mut bytes = vec![0u8; 8 * limbs_le.len()];
    limbs::to_bytes_le(limbs_le, &mut bytes);
    BigUint::from_bytes_le(&bytes)
}

fn is_probable_prime(n: &BigUint) -> bool {
    let one = BigUint::from(1u8);
    let two = BigUint::from(2u8);
    if *n < two {
        return false;
    }
    for small in [2u32, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        let s = BigUint::from(small);
        if *n == s {
            return true;
        }
        if (n % &s) == BigUint::from(0u8) {
            return false;
        }
    }
    let n1 = n - &one;
    let s = n1.trailing_zeros().unwrap_or(0);
    let d = &n1 >> s;
    'witness: for a in [2u32, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41] {
        let mut x = BigUint::from(a).modpow(&d, n);
        if x == one || x == n1 {
            continue;
        }
        for _ in 1..s {
            x = x.modpow(&two, n);
            if x == n1 {
                continue 'witness;
            }
        }
        return false;
    }
    true
}

/// Ring axioms, negation, doubling, squaring, sums and products.
pub fn check_ring_axioms<F: Field>(sample: impl Fn(&mut StdRng) -> F) {
    let mut rng = rng();
    for _ in 0..SAMPLES {
        let (a, b, c) = (sample(&mut rng), sample(&mut rng), sample(&mut rng));
        assert_eq!(a + b, b + a, "addition commutes");
        assert_eq!(a * b, b * a, "multiplication commutes");
        assert_eq!((a + b) + c, a + (b + c), "addition associates");
        assert_eq!((a * b) * c, a * (b * c), "multiplication associates");
        assert_eq!(a * (b + c), a * b + a * c, "distributivity");
        assert_eq!(a + F::ZERO, a);
        assert_eq!(a * F::ONE, a);
        assert_eq!(a * F::ZERO, F::ZERO);
        let a_copy = a;
        assert_eq!(a - a_copy, F::ZERO);
        assert_eq!(a + (-a), F::ZERO);
        assert_eq!(a - b, a + (-b));
        assert_eq!(-(-a), a);
        assert_eq!(a.double(), a + a);
        assert_eq!(a.square(), a * a);
        assert_eq!(a * F::NEG_ONE, -a);
        assert_eq!([a, b, c].into_iter().sum::<F>(), a + b + c);
        assert_eq!([a, b, c].into_iter().product::<F>(), a * b * c);
        let mut d = a;
        d += b;
        d -= c;
        d *= a;
        assert_eq!(d, (a + b - c) * a);
    }
    assert_eq!(F::ONE + F::ONE, F::TWO);
    assert_eq!(F::NEG_ONE + F::ONE, F::ZERO);
    assert_eq!(
        F::from_u64_reduced(5) * F::from_u64_reduced(7),
        F::from_u64_reduced(35)
    );
    assert_ne!(F::ZERO, F::ONE);
}

/// Inverses, batch inversion (and its error on zero), and exponentiation.
pub fn check_inverse_and_pow<F: Field>(sample: impl Fn(&mut StdRng) -> F) {
    let mut rng = rng();
    assert_eq!(F::ZERO.try_inverse(), None);
    assert_eq!(F::ONE.inverse(), F::ONE);
    let order = F::multiplicative_group_order();
    let mut batch = Vec::new();
    for _ in 0..SAMPLES {
        let a = sample(&mut rng);
        if a.is_zero() {
            continue;
        }
        assert_eq!(a * a.inverse(), F::ONE);
        assert_eq!(a.exp_u64(0), F::ONE);
        assert_eq!(a.exp_u64(1), a);
        assert_eq!(a.exp_u64(7), a * a * a * a * a * a * a);
        assert_eq!(a.exp_u64(13), a.exp_limbs(&[13, 0, 0]));
        assert_eq!(a.exp_power_of_2(3), a.exp_u64(8));
        assert_eq!(a.exp_limbs(&order), F::ONE, "Lagrange: a^|F*| = 1");
        batch.push(a);
    }
    let inv = batch_inverse(&batch).unwrap();
    for (a, i) in batch.iter().zip(&inv) {
        assert_eq!(*a * *i, F::ONE);
    }
    assert!(batch_inverse::<F>(&[]).unwrap().is_empty());
    batch[3] = F::ZERO;
    assert_eq!(
        batch_inverse(&batch),
        Err(FieldError::ZeroInBatch { index: 3 })
    );
}

/// A prime factor of a group order: a `u128`, or a decimal string for larger ones.
pub trait Factor: Copy {
    /// The factor's value.
    fn value(self) -> BigUint;
}

impl Factor for u128 {
    fn value(self) -> BigUint {
        BigUint::from(self)
    }
}

impl Factor for &str {
    /// # Panics
    /// Panics when the string is not a decimal number (a defect in the test's table).
    fn value(self) -> BigUint {
        self.parse().expect("a factor written in decimal")
    }
}

/// The generator generates: given the factorisation of `|F*|` as (prime, exponent) pairs, checks
/// the factorisation itself, then that `GENERATOR^(|F*|/q) ≠ 1` for every prime `q`.
pub fn check_generator<F: Field, Q: Factor>(factors: &[(Q, u32)]) {
    check_is_generator(F::GENERATOR, factors);
}

/// `g` generates `F*` (another library's convention, say), checked as [`check_generator`].
pub fn check_is_generator<F: Field, Q: Factor>(g: F, factors: &[(Q, u32)]) {
    let order = to_big(&F::multiplicative_group_order());
    let mut product = BigUint::from(1u8);
    for &(q, e) in factors {
        let q = q.value();
        assert!(is_probable_prime(&q), "factor {q} is not prime");
        product *= q.pow(e);
    }
    assert_eq!(product, order, "the factorisation multiplies out to |F*|");
    for &(q, _) in factors {
        let q = q.value();
        let e = &order / &q;
        assert_ne!(
            g.exp_limbs(&e.to_u64_digits()),
            F::ONE,
            "generator has order dividing |F*|/{q}"
        );
    }
}

/// Square roots of squares, and `None` for a non-residue (the generator).
pub fn check_sqrt<F: Field>(sample: impl Fn(&mut StdRng) -> F) {
    let mut rng = rng();
    assert_eq!(F::ZERO.sqrt(), Some(F::ZERO));
    assert_eq!(F::GENERATOR.sqrt(), None, "a generator is never a square");
    for _ in 0..SAMPLES / 4 {
        let a = sample(&mut rng);
        let sq = a.square();
        let r = sq.sqrt().expect("a square has a root");
        assert_eq!(r.square(), sq);
        assert!(r == a || r == -a);
        if !a.is_zero() {
            assert_eq!(
                (sq * F::GENERATOR).sqrt(),
                None,
                "square times non-residue is a non-residue"
            );
        }
    }
}

/// Roots of unity of every two-adic order, their consistency, and the error past the
/// two-adicity.
pub fn check_two_adic<F: TwoAdicField>() {
    let s = F::TWO_ADICITY;
    let order = to_big(&F::multiplicative_group_order());
    assert_eq!(
        order.trailing_zeros(),
        Some(s as u64),
        "TWO_ADICITY is the 2-adic valuation of |F*|"
    );
    let mut prev: Option<F> = None;
    for bits in 0..=s {
        let g = F::two_adic_generator(bits).unwrap();
        assert_eq!(g.exp_power_of_2(bits), F::ONE, "order divides 2^{bits}");
        if bits > 0 {
            assert_ne!(
                g.exp_power_of_2(bits - 1),
                F::ONE,
                "order is exactly 2^{bits}"
            );
        }
        if let Some(p) = prev {
            assert_eq!(g.square(), p, "generator(bits)^2 = generator(bits-1)");
        }
        prev = Some(g);
    }
    assert!(matches!(
        F::two_adic_generator(s + 1),
        Err(FieldError::TwoAdicityExceeded { requested, max, .. }) if requested == s + 1 && max == s
    ));
}

/// The transforms' small-block hooks against the transform's definition, for the field's
/// own kernels or the trait's defaults: the last three (four) DIF stages take every block of
/// 8 (16) elements in natural order to its DFT in bit-reversed order, and the first three
/// (four) DIT stages the other way round, with the forward and the inverse roots; block
/// counts on both sides of the kernels' tiles of eight blocks; a twiddle table one short
/// panics (their documented precondition).
pub fn check_small_ntt_blocks<F: zkaccel_ntt::NttField>() {
    let mut rng = rng();
    for log in [3usize, 4] {
        let n = 1usize << log;
        let rev = |i: usize| i.reverse_bits() >> (usize::BITS as usize - log);
        for inverse in [false, true] {
            let w = F::two_adic_generator(log).unwrap();
            let w = if inverse { w.inverse() } else { w };
            let powers: Vec<F> = (0..n as u64).map(|k| w.exp_u64(k)).collect();
            // The stage of half-size h takes the powers of ω_{2h} = ω_n^{n/2h}.
            let stage = |h: usize| -> Vec<F> { (0..h).map(|j| powers[j * n / (2 * h)]).collect() };
            let (tw8, tw4, tw2) = (stage(8.min(n / 2)), stage(4), stage(2));
            for blocks in [0usize, 1, 7, 8, 9, 16, 23] {
                let x: Vec<F> = (0..n * blocks)
                    .map(|_| F::from_u64_reduced(rng.next_u64()))
                    .collect();
                let dft = |b: &[F], k: usize| -> F {
                    (0..n).fold(F::ZERO, |acc, i| acc + b[i] * powers[(i * k) % n])
                };
                let (mut want_dif, mut want_dit) = (x.clone(), x.clone());
                for ((b, dif), dit) in x
                    .chunks_exact(n)
                    .zip(want_dif.chunks_exact_mut(n))
                    .zip(want_dit.chunks_exact_mut(n))
                {
                    let reversed: Vec<F> = (0..n).map(|i| b[rev(i)]).collect();
                    for k in 0..n {
                        dif[rev(k)] = dft(b, k);
                        dit[k] = dft(&reversed, k);
                    }
                }
                let what = format!("{n}-point blocks × {blocks}, inverse {inverse}");
                let (mut dif, mut dit) = (x.clone(), x.clone());
                if n == 8 {
                    F::dif_last_three_stages(&mut dif, &tw4, &tw2);
                    F::dit_first_three_stages(&mut dit, &tw4, &tw2);
                } else {
                    F::dif_last_four_stages(&mut dif, &tw8, &tw4, &tw2);
                    F::dit_first_four_stages(&mut dit, &tw8, &tw4, &tw2);
                }
                assert_eq!(dif, want_dif, "DIF, {what}");
                assert_eq!(dit, want_dit, "DIT, {what}");
                // A table one short is refused (the hooks' documented panic), not read past.
                if blocks > 0 {
                    let short = |t: &[F]| t[..t.len() - 1].to_vec();
                    let refused = |f: &dyn Fn(&mut [F])| {
                        let mut y = x.clone();
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&mut y)))
                            .is_err()
                    };
                    if n == 8 {
                        assert!(refused(&|y| F::dif_last_three_stages(
                            y,
                            &short(&tw4),
                            &tw2
                        )));
                        assert!(refused(&|y| F::dit_first_three_stages(
                            y,
                            &tw4,
                            &short(&tw2)
                        )));
                    } else {
                        assert!(refused(&|y| F::dif_last_four_stages(
                            y,
                            &short(&tw8),
                            &tw4,
                            &tw2
                        )));
                        assert!(refused(&|y| F::dit_first_four_stages(
                            y,
                            &tw8,
                            &tw4,
                            &short(&tw2)
                        )));
                    }
                }
            }
        }
    }
}

/// Encoding round trips (bytes in both orders, decimal, hex) and rejection of non-canonical
/// and malformed encodings.
pub fn check_prime_encodings<F: PrimeField>() {
    let mut rng = rng();
    let p = F::modulus();
    for i in 0..SAMPLES {
        let a: F = if i == 0 {
            F::ZERO
        } else if i == 1 {
            F::NEG_ONE
        } else {
            random_prime(&mut rng)
        };
        let le = a.to_bytes_le();
        assert_eq!(le.len(), F::NUM_BYTES);
        assert_eq!(F::from_bytes_le(&le).unwrap(), a);
        let be = a.to_bytes_be();
        assert_eq!(F::from_bytes_be(&be).unwrap(), a);
        assert_eq!(F::from_str_canonical(&a.to_decimal_string()).unwrap(), a);
        assert_eq!(F::from_str_canonical(&a.to_hex_string()).unwrap(), a);
        assert_eq!(a.to_string(), a.to_decimal_string(), "Display is decimal");
        assert_eq!(a.to_decimal_string().parse::<F>().unwrap(), a);
        assert_eq!(F::from_canonical_limbs(a.to_canonical_limbs()).unwrap(), a);
        assert_eq!(
            to_big(a.to_canonical_limbs().as_ref()).to_string(),
            a.to_decimal_string()
        );
    }
    // p, p + 1 and 2^bits − 1 are non-canonical in every encoding.
    let mut p_plus_1 = p;
    limbs::add_assign(p_plus_1.as_mut(), &[1]);
    let mut all_ones = F::Limbs::default();
    all_ones.as_mut().fill(u64::MAX);
    for bad in [p, p_plus_1, all_ones] {
        let mut bytes = vec![0u8; F::NUM_BYTES];
        limbs::to_bytes_le(bad.as_ref(), &mut bytes);
        assert!(matches!(
            F::from_bytes_le(&bytes),
            Err(FieldError::NonCanonical { .. })
        ));
        bytes.reverse();
        assert!(matches!(
            F::from_bytes_be(&bytes),
            Err(FieldError::NonCanonical { .. })
        ));
        assert!(matches!(
            F::from_canonical_limbs(bad),
            Err(FieldError::NonCanonical { .. })
        ));
        let dec = limbs::to_decimal(bad.as_ref());
        assert!(
            matches!(
                F::from_str_canonical(&dec),
                Err(FieldError::NonCanonical { .. })
            ),
            "{dec}"
        );
        // Reducing is the explicit alternative.
        let reduced = F::from_str_reduced(&dec).unwrap();
        assert_eq!(
            to_big(reduced.to_canonical_limbs().as_ref()),
            to_big(bad.as_ref()) % to_big(p.as_ref())
        );
        bytes.reverse();
        assert_eq!(F::from_bytes_le_reduced(&bytes), reduced);
    }
    assert_eq!(F::from_limbs_reduced(p.as_ref()), F::ZERO);
    // Reducing integers of any length agrees with big-integer arithmetic.
    let mut rng = crate::rng();
    for len in 0..9 {
        for _ in 0..20 {
            let v: Vec<u64> = (0..len)
                .map(|_| match rng.next_u64() % 4 {
                    0 => u64::MAX,
                    1 => 0,
                    _ => rng.next_u64(),
                })
                .collect();
            let got = F::from_limbs_reduced(&v);
            assert_eq!(
                to_big(got.to_canonical_limbs().as_ref()),
                to_big(&v) % to_big(p.as_ref()),
                "{v:?}"
            );
        }
    }
    // A number far larger than the limbs is non-canonical too, not malformed.
    let huge = "9".repeat(200);
    assert!(matches!(
        F::from_str_canonical(&huge),
        Err(FieldError::NonCanonical { .. })
    ));
    // Wrong lengths.
    for len in [0, F::NUM_BYTES - 1, F::NUM_BYTES + 1] {
        assert!(matches!(
            F::from_bytes_le(&vec![0u8; len]),
            Err(FieldError::WrongLength { .. })
        ));
        assert!(matches!(
            F::from_bytes_be(&vec![0u8; len]),
            Err(FieldError::WrongLength { .. })
        ));
    }
    // Malformed strings.
    for bad in ["", "  ", "0x", "12z", "0xg1", "-1", "1.5", "１２", "0b101"] {
        assert!(
            matches!(
                F::from_str_canonical(bad),
                Err(FieldError::Malformed { .. })
            ),
            "{bad:?}"
        );
    }
    assert_eq!(
        F::from_str_canonical(" 0x0A ").unwrap(),
        F::from_u64_reduced(10)
    );
    assert_eq!(
        F::from_str_canonical("0X0a").unwrap(),
        F::from_u64_reduced(10)
    );
    // Ordering follows the canonical integers.
    assert!(F::ZERO < F::ONE && F::ONE < F::NEG_ONE);
}

/// `from_str_reduced` on strings of any length agrees with big-integer arithmetic (decimal and
/// hexadecimal, chunk boundaries, leading zeros, surrounding blanks), rejects what is not a
/// number, and parses a 200,000-digit number (a quadratic parser would not return).
pub fn check_reduced_parsing<F: PrimeField>() {
    let p = to_big(F::modulus().as_ref());
    let mut rng = crate::rng();
    let digit = |rng: &mut StdRng, radix: u32| {
        char::from_digit(rng.next_u32() % radix, radix).expect("a digit")
    };
    for len in (1..=60).chain([95, 96, 97, 300, 1000]) {
        for (radix, prefix) in [(10u32, ""), (16, "0x"), (16, "0X")] {
            let body: String = (0..len).map(|_| digit(&mut rng, radix)).collect();
            let text = format!(" {prefix}{body}\t");
            let want = BigUint::parse_bytes(body.as_bytes(), radix).expect("digits") % &p;
            let got = F::from_str_reduced(&text).unwrap();
            assert_eq!(to_big(got.to_canonical_limbs().as_ref()), want, "{text:?}");
        }
    }
    let zeros = format!("{}7", "0".repeat(500));
    assert_eq!(F::from_str_reduced(&zeros).unwrap(), F::from_u64_reduced(7));
    for bad in ["", " ", "0x", "12z", "0xg1", "-1", "1.5", "１２", "9é"] {
        assert!(
            matches!(F::from_str_reduced(bad), Err(FieldError::Malformed { .. })),
            "{bad:?}"
        );
    }
    let long = "9".repeat(200_000);
    let want = BigUint::parse_bytes(long.as_bytes(), 10).expect("digits") % &p;
    let got = F::from_str_reduced(&long).unwrap();
    assert_eq!(to_big(got.to_canonical_limbs().as_ref()), want);
}

/// Differential test against an arkworks prime field on random inputs: arithmetic, inverse,
/// square roots, the generator and every two-adic root, and the byte encodings (arkworks
/// serialises field elements as canonical little-endian bytes).
pub fn check_against_arkworks<F: PrimeField + TwoAdicField, A: ArkPrimeField>() {
    let to_ark = |x: F| A::from_le_bytes_mod_order(&x.to_bytes_le());
    let from_ark = |x: A| {
        F::from_bytes_le(&x.into_bigint().to_bytes_le()).expect("arkworks output is canonical")
    };
    assert_eq!(
        to_big(F::modulus().as_ref()),
        BigUint::from_bytes_le(&A::MODULUS.to_bytes_le()),
        "same modulus"
    );
    assert_eq!(
        from_ark(A::GENERATOR),
        F::GENERATOR,
        "same multiplicative generator"
    );
    assert_eq!(F::TWO_ADICITY as u32, A::TWO_ADICITY, "same two-adicity");
    assert_eq!(
        from_ark(A::TWO_ADIC_ROOT_OF_UNITY),
        F::two_adic_generator(F::TWO_ADICITY).unwrap()
    );
    let mut rng = rng();
    for _ in 0..10 * SAMPLES {
        let (a, b) = (random_prime::<F>(&mut rng), random_prime::<F>(&mut rng));
        let (x, y) = (to_ark(a), to_ark(b));
        assert_eq!(from_ark(x * y), a * b);
        assert_eq!(from_ark(x + y), a + b);
        assert_eq!(from_ark(x - y), a - b);
        assert_eq!(from_ark(-x), -a);
        assert_eq!(from_ark(x.square()), a.square());
        if let Some(xi) = ArkField::inverse(&x) {
            assert_eq!(from_ark(xi), a.inverse());
        }
        assert_eq!(
            x.sqrt().is_some(),
            a.sqrt().is_some(),
            "same quadratic residuosity"
        );
    }
}

/// A packed type against its scalar field, lane by lane, on consecutive groups of `xs` and
/// `ys`: the round trip through the lanes, broadcasts, sums, differences, products, negations,
/// the derived operations, a chain of products (which must stay canonical in every lane), and
/// Poseidon's linear combinations ([`zkaccel_poseidon::PoseidonPacking`]). `cpu` proves the
/// type's instructions are there.
pub fn check_packed_lanes<P: zkaccel_poseidon::PoseidonPacking>(
    cpu: P::Cpu,
    xs: &[P::Scalar],
    ys: &[P::Scalar],
) {
    let w = P::WIDTH;
    let lanes = |p: P| {
        let mut out = vec![P::Scalar::ZERO; w];
        p.write_to_slice(&mut out);
        out
    };
    for (x, y) in xs.chunks_exact(w).zip(ys.chunks_exact(w)) {
        let (px, py) = (P::from_slice(cpu, x), P::from_slice(cpu, y));
        assert_eq!(lanes(px), x, "round trip");
        assert_eq!(lanes(P::broadcast(cpu, y[0])), vec![y[0]; w], "broadcast");
        let (sum, diff, prod, neg) = (lanes(px + py), lanes(px - py), lanes(px * py), lanes(-px));
        let square = lanes(px.square());
        // The derived operations of the one base algebra trait, lane by lane.
        let (double, cube, pow8) = (
            lanes(px.double()),
            lanes(px.cube()),
            lanes(px.exp_power_of_2(3)),
        );
        for i in 0..w {
            assert_eq!(sum[i], x[i] + y[i]);
            assert_eq!(diff[i], x[i] - y[i]);
            assert_eq!(prod[i], x[i] * y[i]);
            assert_eq!(neg[i], -x[i]);
            assert_eq!(square[i], x[i] * x[i], "square");
            assert_eq!(double[i], x[i] + x[i], "double");
            assert_eq!(cube[i], x[i] * x[i] * x[i], "cube");
            let x2 = x[i] * x[i];
            let x4 = x2 * x2;
            assert_eq!(pow8[i], x4 * x4, "x^(2^3)");
        }
        let (mut chain, mut expected) = (px, x.to_vec());
        for _ in 0..20 {
            chain = chain.square() * py;
            for i in 0..w {
                expected[i] = expected[i] * expected[i] * y[i];
            }
        }
        assert_eq!(lanes(chain), expected, "chain");
    }
    check_packed_linear_combinations::<P>(cpu, xs, ys);
}

/// A packing's linear-combination hooks against the scalar sums, lane by lane: prepared and
/// broadcast constants, dot products with constants (40 terms, past every packing's chunking,
/// and none), with small integer constants (up to `2^20 − 1`), multiply-adds, the throughput
/// squaring and the unreduced sums.
fn check_packed_linear_combinations<P: zkaccel_poseidon::PoseidonPacking>(
    cpu: P::Cpu,
    xs: &[P::Scalar],
    ys: &[P::Scalar],
) {
    const TERMS: usize = 40;
    let (w, n) = (P::WIDTH, xs.len().min(ys.len()));
    if n == 0 {
        return;
    }
    let lanes = |p: P| {
        let mut out = vec![P::Scalar::ZERO; w];
        p.write_to_slice(&mut out);
        out
    };
    // Term k: lane i holds xs[(k·w + i) mod n]·ys[k mod n]; its constant is ys[(3k + 1) mod n].
    let values: Vec<Vec<P::Scalar>> = (0..TERMS)
        .map(|k| (0..w).map(|i| xs[(k * w + i) % n] * ys[k % n]).collect())
        .collect();
    let packed: Vec<P> = values.iter().map(|v| P::from_slice(cpu, v)).collect();
    let constants: Vec<P::Scalar> = (0..TERMS).map(|k| ys[(3 * k + 1) % n]).collect();
    let prepared: Vec<P::Constant> = constants
        .iter()
        .map(|&c| P::prepare_constant(cpu, c))
        .collect();
    let small: Vec<u32> = (0..TERMS)
        .map(|k| {
            if k % 5 == 0 {
                (1 << 20) - 1
            } else {
                (k as u32 * 7919) % (1 << 20)
            }
        })
        .collect();
    let expect = |coeff: &dyn Fn(usize) -> P::Scalar, terms: usize| -> Vec<P::Scalar> {
        (0..w)
            .map(|i| (0..terms).fold(P::Scalar::ZERO, |acc, k| acc + values[k][i] * coeff(k)))
            .collect()
    };
    for terms in [0, 1, 3, 12, 17, TERMS] {
        let dot = lanes(P::dot_constants(cpu, &packed[..terms], &prepared[..terms]));
        assert_eq!(
            dot,
            expect(&|k| constants[k], terms),
            "dot_constants, {terms} terms"
        );
        let dot = lanes(P::dot_small_constants(
            cpu,
            &packed[..terms],
            &small[..terms],
        ));
        let want = expect(&|k| P::Scalar::from_u64_reduced(u64::from(small[k])), terms);
        assert_eq!(dot, want, "dot_small_constants, {terms} terms");
        if terms <= P::MAX_LAZY_TERMS {
            let mut acc = P::empty_sum(cpu);
            for (x, c) in packed[..terms].iter().zip(&prepared) {
                P::accumulate(cpu, &mut acc, &x.split(cpu), c);
            }
            let sum = lanes(P::reduce_sum(acc));
            assert_eq!(
                sum,
                expect(&|k| constants[k], terms),
                "unreduced sum, {terms} terms"
            );
        }
    }
    for (k, (x, c)) in packed.iter().zip(&prepared).enumerate() {
        let acc = packed[(k + 1) % TERMS];
        let got = lanes(P::mul_constant_add(cpu, *x, c, acc));
        let bc = lanes(P::broadcast_constant(cpu, c));
        let sq = lanes(x.square_for_throughput());
        let square = lanes(x.square());
        for i in 0..w {
            assert_eq!(square[i], values[k][i] * values[k][i], "square");
            assert_eq!(
                got[i],
                values[k][i] * constants[k] + values[(k + 1) % TERMS][i]
            );
            assert_eq!(bc[i], constants[k], "broadcast_constant");
            assert_eq!(sq[i], values[k][i] * values[k][i], "square_for_throughput");
        }
    }
}

/// Every packing a field's [`Field::run_packed`] can choose on this CPU
/// ([`Field::packing_widths`]; only the scalar one with `ZKACCEL_SIMD=off`), each through
/// [`check_packed_lanes`] on `n` samples: the dispatch runs a kernel written once over
/// packings, and Poseidon's dispatch
/// ([`zkaccel_poseidon::PoseidonField::run_poseidon_packed`]) chooses the same packing for
/// every bound. Returns the lane counts it checked.
pub fn check_packings<F: zkaccel_poseidon::PoseidonField>(
    sample: impl Fn(&mut StdRng) -> F,
    n: usize,
) -> Vec<usize> {
    struct Check<'a, F> {
        xs: &'a [F],
        ys: &'a [F],
    }
    impl<F: zkaccel_poseidon::PoseidonField> zkaccel_poseidon::PoseidonKernel<F> for Check<'_, F> {
        type Output = usize;
        fn run<P: zkaccel_poseidon::PoseidonPacking<Scalar = F>>(self, cpu: P::Cpu) -> usize {
            check_packed_lanes::<P>(cpu, self.xs, self.ys);
            P::WIDTH
        }
    }
    /// The width [`Field::run_packed_within`] chooses.
    struct Width;
    impl<F: Field> zkaccel_field::PackedKernel<F> for Width {
        type Output = usize;
        fn run<P: zkaccel_field::PackedField<Scalar = F>>(self, _: P::Cpu) -> usize {
            P::WIDTH
        }
    }
    let mut rng = StdRng::seed_from_u64(0x5041_434b);
    let xs: Vec<F> = (0..n).map(|_| sample(&mut rng)).collect();
    let ys: Vec<F> = (0..n).map(|_| sample(&mut rng)).collect();
    let widths = F::packing_widths();
    assert_eq!(widths.last(), Some(&1), "the scalar packing comes last");
    assert!(widths.windows(2).all(|w| w[0] > w[1]), "widest first");
    if zkaccel_field::cpu::features().forced_portable {
        assert_eq!(
            widths,
            [1],
            "ZKACCEL_SIMD=off leaves the scalar packing alone"
        );
    }
    let checked: Vec<usize> = widths
        .iter()
        .map(|&w| F::run_poseidon_packed(w, Check { xs: &xs, ys: &ys }))
        .collect();
    assert_eq!(
        checked, widths,
        "run_poseidon_packed chose the widest packing that fits"
    );
    let generic: Vec<usize> = widths
        .iter()
        .map(|&w| F::run_packed_within(w, Width))
        .collect();
    assert_eq!(generic, widths, "run_packed_within chose the same packings");
    assert_eq!(F::run_packed(Width), widths[0]);
    assert_eq!(
        F::run_poseidon_packed(usize::MAX, Check { xs: &xs, ys: &ys }),
        widths[0]
    );
    // A bound below every SIMD width (0 included) leaves the scalar packing.
    assert_eq!(F::run_packed_within(0, Width), 1);
    assert_eq!(F::run_poseidon_packed(0, Check { xs: &xs, ys: &ys }), 1);
    checked
}

/// The chain of power maps for one input, written out here as the reference: `x ← (x + k +
/// c)^d` for each `c`, `x^d` by [`Field::exp_u64`], then `x + k`.
fn reference_power_chain<F: Field>(x: F, k: F, constants: &[F], d: u64) -> F {
    constants.iter().fold(x, |x, &c| (x + k + c).exp_u64(d)) + k
}

/// The Feistel chain for one input, written out here as the reference: the MiMC Feistel
/// rounds on the halves `(xL_0, xR_0) = (u, v)`, `t ← (xL_i + a_i)^d`, `(xL, xR) ← (xR + t,
/// xL)` (the last round swaps nothing), with round offsets `a_0 = a_1 = 0` and `a_{i+2} = a_i +
/// steps[i]`, so that the chain's values are `u_i = xL_i + a_i` (see [`zkaccel_mimc::MimcField::feistel_chain`]).
fn reference_feistel_chain<F: Field>(u: F, v: F, steps: &[F], d: u64) -> (F, F) {
    let mut offsets = vec![F::ZERO, F::ZERO];
    for (i, &s) in steps.iter().enumerate() {
        offsets.push(offsets[i] + s);
    }
    let rounds = offsets.len();
    let (mut l, mut r) = (u, v);
    for &a in &offsets[..rounds - 1] {
        let t = (l + a).exp_u64(d);
        (l, r) = (r + t, l);
    }
    let t = (l + offsets[rounds - 1]).exp_u64(d);
    // The chain's outputs: u_{R−1} = xL_{R−1} + a_{R−1}, and u_{R−2} + u_{R−1}^d where
    // u_{R−2} = xR_{R−1} + a_{R−2}.
    (l + offsets[rounds - 1], r + offsets[rounds - 2] + t)
}

/// The chains of power maps ([`zkaccel_mimc::MimcField::power_chain`], [`zkaccel_mimc::MimcField::feistel_chain`], their batch
/// forms, and the kernels written once over packings on every packing this CPU offers, lane
/// bounds 0 and `usize::MAX` included) against the reference loops above, on batches of every
/// length up to 37 (whole groups of 16, 8, 6 and 4 lanes and remainders), with `p − 1` among
/// the inputs; empty batches are batches, and unequal lengths are errors that write nothing.
pub fn check_power_chains<F: zkaccel_mimc::MimcField>(sample: impl Fn(&mut StdRng) -> F) {
    use zkaccel_field::FieldError;
    use zkaccel_mimc::chains::{feistel_chains_packed, power_chains_packed};
    let mut rng = StdRng::seed_from_u64(0x4348_4149);
    let pick = |i: usize, rng: &mut StdRng| {
        if i % 7 == 3 {
            F::NEG_ONE
        } else {
            sample(rng)
        }
    };
    let mut widths = F::packing_widths();
    widths.extend([0, usize::MAX]);
    for (d, rounds) in [(3u64, 1usize), (5, 2), (7, 9), (11, 3)] {
        let constants: Vec<F> = (0..rounds).map(|i| pick(i, &mut rng)).collect();
        for n in [0usize, 1, 5, 16, 37] {
            let xs: Vec<F> = (0..n).map(|i| pick(i, &mut rng)).collect();
            let ks: Vec<F> = (0..n).map(|i| pick(i + 1, &mut rng)).collect();
            let want: Vec<F> = xs
                .iter()
                .zip(&ks)
                .map(|(&x, &k)| reference_power_chain(x, k, &constants, d))
                .collect();
            let one: Vec<F> = xs
                .iter()
                .zip(&ks)
                .map(|(&x, &k)| F::power_chain(x, k, &constants, d))
                .collect();
            assert_eq!(one, want, "power_chain, d = {d}, n = {n}");
            let mut got = xs.clone();
            F::power_chains(&mut got, &ks, &constants, d).expect("equal lengths");
            assert_eq!(got, want, "power_chains, d = {d}, n = {n}");
            for &lanes in &widths {
                let mut got = xs.clone();
                power_chains_packed(lanes, &mut got, &ks, &constants, d).expect("equal lengths");
                assert_eq!(got, want, "power_chains_packed({lanes}), d = {d}, n = {n}");
            }
            // The Feistel chain takes the same inputs as its halves, the constants as steps.
            let steps = &constants[..rounds - 1];
            let want: Vec<(F, F)> = xs
                .iter()
                .zip(&ks)
                .map(|(&u, &v)| reference_feistel_chain(u, v, steps, d))
                .collect();
            let one: Vec<(F, F)> = xs
                .iter()
                .zip(&ks)
                .map(|(&u, &v)| F::feistel_chain(u, v, steps, d))
                .collect();
            assert_eq!(one, want, "feistel_chain, d = {d}, n = {n}");
            let (mut us, mut vs) = (xs.clone(), ks.clone());
            F::feistel_chains(&mut us, &mut vs, steps, d).expect("equal lengths");
            let got: Vec<(F, F)> = us.into_iter().zip(vs).collect();
            assert_eq!(got, want, "feistel_chains, d = {d}, n = {n}");
            for &lanes in &widths {
                let (mut us, mut vs) = (xs.clone(), ks.clone());
                feistel_chains_packed(lanes, &mut us, &mut vs, steps, d).expect("equal lengths");
                let got: Vec<(F, F)> = us.into_iter().zip(vs).collect();
                assert_eq!(
                    got, want,
                    "feistel_chains_packed({lanes}), d = {d}, n = {n}"
                );
            }
            if n == 0 {
                continue;
            }
            let unequal = Err(FieldError::UnequalLengths {
                left: n,
                right: n - 1,
            });
            let mut got = xs.clone();
            assert_eq!(F::power_chains(&mut got, &ks[1..], &constants, d), unequal);
            assert_eq!(got, xs, "power_chains wrote on an error");
            let (mut us, mut vs) = (xs.clone(), ks[1..].to_vec());
            assert_eq!(F::feistel_chains(&mut us, &mut vs, steps, d), unequal);
            assert_eq!(us, xs, "feistel_chains wrote on an error");
            for &lanes in &widths {
                let mut got = xs.clone();
                let outcome = power_chains_packed(lanes, &mut got, &ks[1..], &constants, d);
                assert_eq!(outcome, unequal);
                assert_eq!(got, xs, "power_chains_packed wrote on an error");
                let (mut us, mut vs) = (xs.clone(), ks[1..].to_vec());
                assert_eq!(
                    feistel_chains_packed(lanes, &mut us, &mut vs, steps, d),
                    unequal
                );
                assert_eq!(us, xs, "feistel_chains_packed wrote on an error");
            }
        }
    }
}

/// Stamps out the generic [`Field`] tests for a type. `$sample` is a
/// `fn(&mut StdRng) -> $f`; `$factors` the factorisation of `|F*|`.
#[macro_export]
macro_rules! test_field {
    ($f:ty, $sample:expr, $factors:expr) => {
        #[test]
        fn ring_axioms() {
            $crate::check_ring_axioms::<$f>($sample);
        }
        #[test]
        fn inverse_and_pow() {
            $crate::check_inverse_and_pow::<$f>($sample);
        }
        #[test]
        fn generator() {
            $crate::check_generator::<$f, _>($factors);
        }
        #[test]
        fn sqrt() {
            $crate::check_sqrt::<$f>($sample);
        }
        #[test]
        fn packings() {
            $crate::check_packings::<$f>($sample, 64);
        }
        #[test]
        fn power_chains() {
            $crate::check_power_chains::<$f>($sample);
        }
    };
}

/// Stamps out the encoding tests for a [`PrimeField`].
#[macro_export]
macro_rules! test_prime_field {
    ($f:ty) => {
        #[test]
        fn prime_encodings() {
            $crate::check_prime_encodings::<$f>();
        }
        #[test]
        fn reduced_parsing() {
            $crate::check_reduced_parsing::<$f>();
        }
    };
}

/// Stamps out the root-of-unity tests for a [`TwoAdicField`].
#[macro_export]
macro_rules! test_two_adic_field {
    ($f:ty) => {
        #[test]
        fn two_adic_roots() {
            $crate::check_two_adic::<$f>();
        }

        #[test]
        fn small_ntt_blocks() {
            $crate::check_small_ntt_blocks::<$f>();
        }
    };
}
