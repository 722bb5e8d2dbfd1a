//! The S-box `x ↦ x^d` with the multiplication schedules of AMAZE's exponentiation units.

use core::ops::Mul;

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
