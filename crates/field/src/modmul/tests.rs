use num_bigint::BigUint;
use proptest::prelude::*;

use super::*;
use crate::limbs;

const BN254_FR: &str =
    "21888242871839275222246405745257275088548364400416034343698204186575808495617";
const BLS12_381_FR: &str =
    "52435875175126190479447740508185965837690552500527637822603658699938581184513";

fn u256(s: &str) -> U256 {
    let v = limbs::parse(s, 4).unwrap();
    [v[0], v[1], v[2], v[3]]
}

fn big(a: &[u64]) -> BigUint {
    let mut bytes = vec![0u8; 8 * a.len()];
    limbs::to_bytes_le(a, &mut bytes);
    BigUint::from_bytes_le(&bytes)
}

fn below(p: &U256, raw: U256) -> U256 {
    let r = limbs::rem(&raw, p);
    [r[0], r[1], r[2], r[3]]
}

fn moduli() -> Vec<U256> {
    vec![u256(BN254_FR), u256(BLS12_381_FR)]
}

#[test]
fn derived_montgomery_constants_match_bigint() {
    for p in moduli() {
        let m = Montgomery256::new(p);
        let pb = big(&p);
        let r = BigUint::from(1u8) << 256u32;
        assert_eq!(big(&m.r), &r % &pb);
        assert_eq!(big(&m.r2), (&r * &r) % &pb);
        assert_eq!(
            (big(&[m.inv]) * &pb + 1u8) % (BigUint::from(1u8) << 64u32),
            BigUint::from(0u8)
        );
        assert_eq!((big(&m.inv_full) * &pb + 1u8) % &r, BigUint::from(0u8));
    }
}

#[test]
fn barrett_constants_match_bigint() {
    for p in moduli() {
        let b = Barrett256::new(p).unwrap();
        let pb = big(&p);
        assert_eq!(b.n, (&pb - 1u8).bits() as u32);
        assert_eq!(big(&b.z), (BigUint::from(1u8) << (2 * b.n)) / &pb);
    }
    // AMAZE's RTL constant for BN254 (mimc.md §3): BARRETT_R = ⌊2^508/p⌋, 255 bits, n + 1 = 255
    // residue bits.
    let b = Barrett256::new(u256(BN254_FR)).unwrap();
    assert_eq!(b.n, 254);
    assert_eq!(limbs::bit_len(&b.z), 255);
    assert_eq!(b.residue_bits, 255);
    // BLS12-381 Fr needs one more residue bit (module doc).
    assert_eq!(
        Barrett256::new(u256(BLS12_381_FR)).unwrap().residue_bits,
        257
    );
}

#[test]
fn invalid_moduli_are_rejected() {
    assert!(Montgomery256::try_new([4, 0, 0, 0]).is_err());
    assert!(Barrett256::new([1, 0, 0, 0]).is_err());
    assert!(RussianPeasant256::new([7, 0, 0, 1 << 63]).is_err());
    assert!(RussianPeasant256::new([7, 0, 0, 0]).is_ok());
}

fn check_all(p: &U256, a: U256, b: U256) -> Result<(), TestCaseError> {
    let (a, b) = (below(p, a), below(p, b));
    let expected = (big(&a) * big(&b)) % big(p);
    let mont = Montgomery256::new(*p);
    let am = mont.to_montgomery(&a);
    let bm = mont.to_montgomery(&b);
    prop_assert_eq!(
        big(&mont.from_montgomery(&mont.mul(&am, &bm))),
        expected.clone()
    );
    prop_assert_eq!(mont.mul(&am, &bm), mont.mul_three_products(&am, &bm));
    prop_assert_eq!(big(&mont.mul_mod(&a, &b)), expected.clone());
    prop_assert_eq!(
        big(&Barrett256::new(*p).unwrap().mul_mod(&a, &b)),
        expected.clone()
    );
    prop_assert_eq!(
        big(&RussianPeasant256::new(*p).unwrap().mul_mod(&a, &b)),
        expected
    );
    Ok(())
}

proptest! {
    #[test]
    fn algorithms_agree_with_bigint_bn254(a in prop::array::uniform4(any::<u64>()), b in prop::array::uniform4(any::<u64>())) {
        check_all(&u256(BN254_FR), a, b)?;
    }

    #[test]
    fn algorithms_agree_with_bigint_bls12_381(a in prop::array::uniform4(any::<u64>()), b in prop::array::uniform4(any::<u64>())) {
        check_all(&u256(BLS12_381_FR), a, b)?;
    }

    #[test]
    fn algorithms_agree_on_random_odd_moduli(p in prop::array::uniform4(any::<u64>()), a in prop::array::uniform4(any::<u64>()), b in prop::array::uniform4(any::<u64>())) {
        let mut p = p;
        p[0] |= 1;
        p[3] &= u64::MAX >> 1;
        prop_assume!(limbs::bit_len(&p) > 2);
        check_all(&p, a, b)?;
    }
}

#[test]
fn edge_values() {
    for p in moduli() {
        let mut pm1 = p;
        limbs::sub_assign(&mut pm1, &[1]);
        for a in [[0u64; 4], [1, 0, 0, 0], pm1] {
            for b in [[0u64; 4], [1, 0, 0, 0], pm1] {
                check_all(&p, a, b).unwrap();
            }
        }
    }
}

/// `a·b·R^{-1} mod p` and the derived constants of the `N`-word Montgomery core, against
/// big-integer arithmetic (not against another Montgomery implementation).
fn check_words<const N: usize>(p: [u64; N], a: [u64; N], b: [u64; N]) -> Result<(), TestCaseError> {
    let m = MontgomeryWords::<N>::new(p);
    let pb = big(&p);
    let r = BigUint::from(1u8) << (64 * N as u32);
    prop_assert_eq!(big(&m.r), &r % &pb);
    prop_assert_eq!(big(&m.r2), (&r * &r) % &pb);
    prop_assert_eq!(
        (BigUint::from(m.inv) * BigUint::from(p[0]) + 1u8) % (BigUint::from(1u8) << 64u32),
        BigUint::from(0u8)
    );
    prop_assert_eq!(
        (big(&m.neg_inverse()) * &pb + 1u8) % &r,
        BigUint::from(0u8),
        "P'·p ≡ −1 mod R"
    );
    let reduce = |x: [u64; N]| -> [u64; N] {
        let v = limbs::rem(&x, &p);
        core::array::from_fn(|i| v.get(i).copied().unwrap_or(0))
    };
    let (a, b) = (reduce(a), reduce(b));
    let r_inv = r.modinv(&pb).expect("R is invertible modulo an odd p");
    prop_assert_eq!(big(&m.mul(&a, &b)), big(&a) * big(&b) % &pb * &r_inv % &pb);
    prop_assert_eq!(big(&m.add(&a, &b)), (big(&a) + big(&b)) % &pb);
    prop_assert_eq!(big(&m.sub(&a, &b)), (big(&a) + &pb - big(&b)) % &pb);
    prop_assert_eq!(big(&m.from_montgomery(&m.to_montgomery(&a))), big(&a));
    Ok(())
}

proptest! {
    #[test]
    fn word_serial_montgomery_agrees_with_bigint(
        p in prop::array::uniform6(any::<u64>()),
        a in prop::array::uniform6(any::<u64>()),
        b in prop::array::uniform6(any::<u64>()),
        top in 0u32..64,
    ) {
        // Odd moduli of every size up to six full words (the top word shifted down by `top`).
        let mut p = p;
        p[0] |= 1;
        p[5] >>= top;
        prop_assume!(p[1..].iter().any(|&w| w != 0));
        check_words(p, a, b)?;
        let p4 = [p[0], p[1], p[2], p[3] | 1 << 62];
        check_words(p4, [a[0], a[1], a[2], a[3]], [b[0], b[1], b[2], b[3]])?;
    }
}

/// The no-carry CIOS's boundary: the largest top word it takes (`2^63 − 2`) and the smallest
/// it leaves to the general CIOS (`2^63 − 1`), with the largest operands (`p − 1`, `p − 2`)
/// and the Montgomery constants, against big integers; and which path each modulus takes.
#[test]
fn no_carry_cios_boundary() {
    for top in [(u64::MAX >> 1) - 1, u64::MAX >> 1, u64::MAX >> 2, u64::MAX] {
        for low in [1u64, u64::MAX, 0x8000_0000_0000_0001] {
            let p = [low, u64::MAX, 0, 7, u64::MAX - 2, top];
            let m = MontgomeryWords::<6>::new(p);
            assert_eq!(m.no_carry(), top < u64::MAX >> 1, "{top:#x}");
            let mut pm1 = p;
            limbs::sub_assign(&mut pm1, &[1]);
            let mut pm2 = pm1;
            limbs::sub_assign(&mut pm2, &[1]);
            for (a, b) in [(pm1, pm1), (pm1, pm2), (m.r2, pm1), (m.r, m.r2)] {
                check_words(p, a, b).unwrap();
            }
        }
    }
}
