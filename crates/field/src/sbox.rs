//! The power-map S-box `x ↦ x^d` shared by MiMC and Poseidon: the multiplication schedules of
//! AMAZE's exponentiation units, and the check that `x^d` permutes a prime field.

use core::ops::Mul;

use crate::{limbs, PrimeField};

/// The operations the S-box schedules are written in. The defaults are products; a type with a
/// cheaper squaring, or a kernel that runs two products by one factor together, overrides them
/// (the lazily reduced 256-bit elements of `zkaccel-fp256` do both).
///
/// The operands are references: a packed element can be hundreds of bytes, and a kernel that
/// reads its operands from memory (as the AVX2 assembly does) then reads them where they are,
/// where by-value operands cost a copy each, which the compiler may make a `memcpy` call.
pub trait SboxArithmetic: Copy + Mul<Output = Self> {
    /// `self·rhs`.
    #[inline(always)]
    fn product(&self, rhs: &Self) -> Self {
        *self * *rhs
    }

    /// `self²`.
    #[inline(always)]
    fn square(&self) -> Self {
        self.product(self)
    }

    /// `(self·a, self·b)`.
    #[inline(always)]
    fn mul_pair(&self, a: &Self, b: &Self) -> (Self, Self) {
        (self.product(a), self.product(b))
    }
}

/// `x^d` for any type with a multiplication (squarings as products): [`pow_sbox_with`]'s
/// schedules.
#[inline(always)]
pub fn pow_sbox<T: Copy + Mul<Output = T>>(x: T, d: u64) -> T {
    pow_sbox_with(&Products(x), d).0
}

/// `x^d` with the schedules of AMAZE's exponentiation units: x^7 as `x², (x³, x⁴) = x²·(x, x²),
/// x⁷ = x⁴·x³` (four products, three on the critical path, the middle two by one factor),
/// x^5 as `x⁴·x` with `x⁴ = (x²)²`, x^3 as `x²·x`; square-and-multiply otherwise.
#[inline(always)]
pub fn pow_sbox_with<T: SboxArithmetic>(x: &T, d: u64) -> T {
    match d {
        3 => x.square().product(x),
        5 => x.square().square().product(x),
        7 => {
            let x2 = x.square();
            let (x3, x4) = x2.mul_pair(x, &x2);
            x4.product(&x3)
        }
        _ => {
            let mut acc = *x;
            for i in (0..63 - d.leading_zeros()).rev() {
                acc = acc.square();
                if (d >> i) & 1 == 1 {
                    acc = acc.product(x);
                }
            }
            acc
        }
    }
}

/// A value whose S-box operations are the defaults: [`pow_sbox`] for any `Mul` type.
#[derive(Clone, Copy)]
struct Products<T>(T);

impl<T: Copy + Mul<Output = T>> Mul for Products<T> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self(self.0 * rhs.0)
    }
}

impl<T: Copy + Mul<Output = T>> SboxArithmetic for Products<T> {}

/// Number of multiplications (squarings included) [`pow_sbox`] and [`pow_sbox_with`] perform.
pub fn sbox_multiplications(d: u64) -> u32 {
    match d {
        3 => 2,
        5 => 3,
        7 => 4,
        _ => (63 - d.leading_zeros()) + d.count_ones() - 1,
    }
}

/// `gcd(d, p − 1)` for the field `F`: `x ↦ x^d` is a permutation of `F` exactly when this is 1
/// (so `x^3` is not one on BN254 or BLS12-381 Fr, nor `x^3`, `x^5` on Goldilocks).
pub fn power_map_gcd<F: PrimeField>(d: u64) -> u64 {
    let mut p_minus_1 = F::modulus();
    limbs::sub_assign(p_minus_1.as_mut(), &[1]);
    let rem = limbs::div_small(&mut p_minus_1.as_ref().to_vec(), d.max(1));
    gcd(d, rem)
}

/// The greatest common divisor of two integers.
pub fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::cell::Cell;
    use core::num::Wrapping;

    thread_local! {
        static PRODUCTS: Cell<u32> = const { Cell::new(0) };
        static SQUARES: Cell<u32> = const { Cell::new(0) };
        static PAIRS: Cell<u32> = const { Cell::new(0) };
    }

    /// Arithmetic mod 2^64 that counts its operations and overrides both S-box hooks.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Counted(Wrapping<u64>);

    impl Mul for Counted {
        type Output = Self;
        fn mul(self, rhs: Self) -> Self {
            bump(&PRODUCTS);
            Self(self.0 * rhs.0)
        }
    }

    impl SboxArithmetic for Counted {
        fn square(&self) -> Self {
            bump(&SQUARES);
            Self(self.0 * self.0)
        }
        fn mul_pair(&self, a: &Self, b: &Self) -> (Self, Self) {
            bump(&PAIRS);
            (Self(self.0 * a.0), Self(self.0 * b.0))
        }
    }

    fn bump(counter: &'static std::thread::LocalKey<Cell<u32>>) {
        counter.with(|c| c.set(c.get() + 1));
    }

    fn reset() {
        for counter in [&PRODUCTS, &SQUARES, &PAIRS] {
            counter.with(|c| c.set(0));
        }
    }

    fn counts() -> (u32, u32, u32) {
        (
            PRODUCTS.with(Cell::get),
            SQUARES.with(Cell::get),
            PAIRS.with(Cell::get),
        )
    }

    #[test]
    fn schedules_compute_the_power_and_use_the_hooks() {
        let x = 0x9e37_79b9_7f4a_7c15_u64;
        for d in 1..=64 {
            let expected = x.wrapping_pow(d as u32);
            assert_eq!(pow_sbox(Wrapping(x), d).0, expected, "pow_sbox, d = {d}");
            reset();
            assert_eq!(
                pow_sbox_with(&Counted(Wrapping(x)), d).0 .0,
                expected,
                "pow_sbox_with, d = {d}"
            );
            let (products, squares, pairs) = counts();
            assert_eq!(
                products + squares + 2 * pairs,
                sbox_multiplications(d),
                "multiplication count, d = {d}"
            );
            // Squarings go through the hook: x^7 has one squaring and one pair, every other
            // exponent ⌊log2 d⌋ squarings.
            let expected_squares = if d == 7 { 1 } else { 63 - d.leading_zeros() };
            assert_eq!(squares, expected_squares, "squarings, d = {d}");
            assert_eq!(pairs, u32::from(d == 7), "pairs, d = {d}");
        }
    }
}
