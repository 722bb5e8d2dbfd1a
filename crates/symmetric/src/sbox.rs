//! The power-map S-box `x ↦ x^d` shared by MiMC and Poseidon: the multiplication schedules of
//! AMAZE's exponentiation units, and the check that `x^d` permutes a prime field.

use core::ops::Mul;

use zkaccel_field::{limbs, PackedField, PrimeField};

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

    /// `self²` (named apart from [`zkaccel_field::Algebra::square`], which a type may also have).
    #[inline(always)]
    fn sbox_square(&self) -> Self {
        self.product(self)
    }

    /// `(self·a, self²)`: x^7's middle step, which a type may run as one kernel.
    #[inline(always)]
    fn product_and_square(&self, a: &Self) -> (Self, Self) {
        (self.product(a), self.sbox_square())
    }
}

/// `x^d` for any type with a multiplication (squarings as products): [`pow_sbox_with`]'s
/// schedules.
#[inline(always)]
pub fn pow_sbox<T: Copy + Mul<Output = T>>(x: T, d: u64) -> T {
    pow_sbox_with(&Products(x), d).0
}

/// `x^d` for packed lanes ([`pow_sbox_with`]'s schedules), the squarings on
/// [`zkaccel_field::Algebra::square`], which a packed type may run on a squaring kernel.
#[inline(always)]
pub fn pow_sbox_packed<P: PackedField>(x: P, d: u64) -> P {
    pow_sbox_with(&PackedSquarings(x), d).0
}

/// A packed value whose S-box squarings are [`zkaccel_field::Algebra::square`] ([`pow_sbox_packed`]).
#[derive(Clone, Copy)]
struct PackedSquarings<P>(P);

impl<P: PackedField> Mul for PackedSquarings<P> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self(self.0 * rhs.0)
    }
}

impl<P: PackedField> SboxArithmetic for PackedSquarings<P> {
    #[inline(always)]
    fn sbox_square(&self) -> Self {
        Self(self.0.square())
    }
}

/// `x^d` with the schedules of AMAZE's exponentiation units: x^7 as `x², (x³, x⁴) = (x²·x, (x²)²),
/// x⁷ = x⁴·x³` (four products, three on the critical path, the middle two one step),
/// x^5 as `x⁴·x` with `x⁴ = (x²)²`, x^3 as `x²·x`; square-and-multiply otherwise.
#[inline(always)]
pub fn pow_sbox_with<T: SboxArithmetic>(x: &T, d: u64) -> T {
    match d {
        3 => x.sbox_square().product(x),
        5 => x.sbox_square().sbox_square().product(x),
        7 => {
            let x2 = x.sbox_square();
            let (x3, x4) = x2.product_and_square(x);
            x4.product(&x3)
        }
        _ => {
            let mut acc = *x;
            for i in (0..63 - d.leading_zeros()).rev() {
                acc = acc.sbox_square();
                if (d >> i) & 1 == 1 {
                    acc = acc.product(x);
                }
            }
            acc
        }
    }
}

/// Values an S-box schedule works on ([`run_sbox_schedule`]): register 0 holds `x` at the start
/// and `x^d` at the end.
pub const SBOX_REGISTERS: usize = 4;

/// One step of an S-box schedule on [`SBOX_REGISTERS`] values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SboxStep {
    /// `registers[dst] ← registers[src]²`.
    Square {
        /// The operand's register.
        src: u8,
        /// The result's register.
        dst: u8,
    },
    /// `registers[dst] ← registers[a]·registers[b]`.
    Product {
        /// The first operand's register.
        a: u8,
        /// The second operand's register.
        b: u8,
        /// The result's register.
        dst: u8,
    },
}

impl SboxStep {
    /// The register the step writes, as [`run_sbox_schedule`] indexes it.
    pub fn destination(self) -> usize {
        match self {
            SboxStep::Square { dst, .. } | SboxStep::Product { dst, .. } => {
                usize::from(dst) % SBOX_REGISTERS
            }
        }
    }
}

/// The schedule for `x^d` as data, for [`run_sbox_schedule`], or `None` for `d = 0` (`x^0` is
/// not a product of `x`s). It is [`pow_sbox_with`]'s, except that x⁴ is a squaring instead of
/// the second product of a pair (a data schedule has no pair step): x^7 is
/// `x², x³ = x²·x, x⁴ = (x²)², x⁷ = x⁴·x³` (three steps on the critical path); x^3, x^5 and
/// every other exponent square and multiply. The number of steps is [`sbox_multiplications`].
pub fn sbox_schedule(d: u64) -> Option<Vec<SboxStep>> {
    use SboxStep::{Product, Square};
    if d == 0 {
        return None;
    }
    if d == 7 {
        return Some(vec![
            Square { src: 0, dst: 1 },
            Product { a: 1, b: 0, dst: 2 },
            Square { src: 1, dst: 3 },
            Product { a: 3, b: 2, dst: 0 },
        ]);
    }
    // Square and multiply with the accumulator in register 1 (x stays in 0); the first
    // squaring reads x itself, the last step writes register 0.
    let mut steps = Vec::new();
    for i in (0..63 - d.leading_zeros()).rev() {
        let src = if steps.is_empty() { 0 } else { 1 };
        steps.push(Square { src, dst: 1 });
        if (d >> i) & 1 == 1 {
            steps.push(Product { a: 1, b: 0, dst: 1 });
        }
    }
    match steps.last_mut() {
        Some(Square { dst, .. } | Product { dst, .. }) => *dst = 0,
        None => {} // d = 1: x itself.
    }
    Some(steps)
}

/// Runs an S-box schedule ([`sbox_schedule`]) on `registers`, `x` in register 0 and `x^d` left
/// there. A loop over the steps, so the compiled loop holds each kind of operation once, not
/// once per step: for kernels of several hundred instructions that are inlined (the
/// interleaved kernels of `zkaccel-fp256`), the unrolled x^7 did not fit the CPU's cache of
/// decoded instructions. Register numbers are taken modulo [`SBOX_REGISTERS`].
#[inline(always)]
pub fn run_sbox_schedule<T: SboxArithmetic>(
    registers: &mut [T; SBOX_REGISTERS],
    steps: &[SboxStep],
) {
    let r = |i: u8| usize::from(i) % SBOX_REGISTERS;
    for step in steps {
        match *step {
            SboxStep::Square { src, dst } => registers[r(dst)] = registers[r(src)].sbox_square(),
            SboxStep::Product { a, b, dst } => {
                registers[r(dst)] = registers[r(a)].product(&registers[r(b)]);
            }
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
        fn sbox_square(&self) -> Self {
            bump(&SQUARES);
            Self(self.0 * self.0)
        }
        fn product_and_square(&self, a: &Self) -> (Self, Self) {
            bump(&PAIRS);
            (Self(self.0 * a.0), Self(self.0 * self.0))
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
            // Squarings go through the hook: x^7 has one squaring and one product-and-square,
            // every other exponent ⌊log2 d⌋ squarings.
            let expected_squares = if d == 7 { 1 } else { 63 - d.leading_zeros() };
            assert_eq!(squares, expected_squares, "squarings, d = {d}");
            assert_eq!(pairs, u32::from(d == 7), "pairs, d = {d}");
        }
    }

    #[test]
    fn schedules_as_data_compute_the_power() {
        assert_eq!(sbox_schedule(0), None);
        let x = 0x9e37_79b9_7f4a_7c15_u64;
        for d in 1..=64 {
            let steps = sbox_schedule(d).expect("d > 0");
            assert_eq!(
                steps.len() as u32,
                sbox_multiplications(d),
                "steps, d = {d}"
            );
            let mut registers = [Products(Wrapping(x)); SBOX_REGISTERS];
            // Garbage in the scratch registers must not matter.
            for (i, r) in registers.iter_mut().enumerate().skip(1) {
                *r = Products(Wrapping(i as u64 * 0x1234_5678_9abc));
            }
            run_sbox_schedule(&mut registers, &steps);
            assert_eq!(registers[0].0 .0, x.wrapping_pow(d as u32), "d = {d}");
        }
        // x^7: three steps on the critical path (x², then x³ and x⁴ side by side, then x⁷).
        let steps = sbox_schedule(7).expect("d > 0");
        let ready_at = steps
            .iter()
            .fold([0u32; SBOX_REGISTERS], |mut ready, step| {
                let (inputs, dst) = match *step {
                    SboxStep::Square { src, dst } => (vec![src], dst),
                    SboxStep::Product { a, b, dst } => (vec![a, b], dst),
                };
                let start = inputs
                    .iter()
                    .map(|&i| ready[usize::from(i)])
                    .max()
                    .unwrap_or(0);
                ready[usize::from(dst)] = start + 1;
                ready
            });
        assert_eq!(ready_at[0], 3);
    }
}
