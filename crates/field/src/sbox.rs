//! The power-map S-box `x ↦ x^d` shared by MiMC and Poseidon: the multiplication schedules of
//! AMAZE's exponentiation units, and the check that `x^d` permutes a prime field.

use core::ops::Mul;

use crate::{limbs, PrimeField};

/// `x^d` for any type with a multiplication, using the schedule AMAZE's x^7 unit uses
/// (`x², x³ = x²·x, x⁴ = x²·x², x⁷ = x⁴·x³`: four products, three on the critical path) and
/// the analogous ones for `d = 3, 5`; square-and-multiply otherwise.
#[inline(always)]
pub fn pow_sbox<T: Copy + Mul<Output = T>>(x: T, d: u64) -> T {
    match d {
        3 => x * x * x,
        5 => {
            let x2 = x * x;
            let x4 = x2 * x2;
            x4 * x
        }
        7 => {
            let x2 = x * x;
            let x3 = x2 * x;
            let x4 = x2 * x2;
            x4 * x3
        }
        _ => {
            let mut acc = x;
            for i in (0..63 - d.leading_zeros()).rev() {
                acc = acc * acc;
                if (d >> i) & 1 == 1 {
                    acc = acc * x;
                }
            }
            acc
        }
    }
}

/// Number of multiplications [`pow_sbox`] performs.
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
