//! Lazily reduced elements for long dependent chains of products (a MiMC cipher, a power map):
//! values stay in `[0, 2p)` between operations, so a product skips CIOS's final conditional
//! subtraction and an addition of a canonical element needs only one. This is sound when
//! `4p < 2^256` ([`LazyFp256::SUPPORTED`]; BN254 Fr, not BLS12-381 Fr).
//!
//! Products run on the assembly kernel when the CPU has BMI2 and ADX (operands and result in
//! registers, so nothing makes a round trip through memory between dependent products), and
//! on portable CIOS otherwise; [`LazyFp256::square`] runs an assembly squaring kernel (26
//! `mulx` instead of 32) there. The additions and the portable squaring are plain Rust
//! (`#[inline(always)]`): a caller that compiles its chain inside a
//! `#[target_feature(enable = "bmi2,adx")]` function gets `mulx` code for them too.
//! [`LazyFp256::mul_pair`] runs two products by one factor interleaved, and
//! [`SboxArithmetic::product_and_square`] a product and a squaring interleaved (58 `mulx`),
//! which is what the middle step of the x^7 S-box needs.

use core::marker::PhantomData;
use core::ops::Mul;

use zkaccel_field::limbs::{adc, mac, select_words};
use zkaccel_field::modmul::U256;
use zkaccel_symmetric::sbox::SboxArithmetic;

#[cfg(feature = "kernels")]
use crate::arith::mont_mul_lazy_using;
use crate::arith::{
    add_words, backend as backend_in_use, mont_mul_lazy, mont_mul_pair_lazy,
    mont_product_and_square_lazy_adx, mont_square_lazy_adx, reduce_once, sub_words,
};
use crate::{Fp256, Fp256Config, MulBackend};

/// An element of `Fp256<C>` in Montgomery form, represented by a value in `[0, 2p)`.
pub struct LazyFp256<C>(pub(crate) U256, pub(crate) PhantomData<C>);

copy_for_every_config!(LazyFp256);

impl<C: Fp256Config> LazyFp256<C> {
    /// Whether the field leaves room for lazy reduction: `4p < 2^256`.
    pub const SUPPORTED: bool = C::MODULUS[3] < 1 << 62;

    /// `x`, or `None` when the field does not support lazy reduction.
    #[inline(always)]
    pub fn new(x: Fp256<C>) -> Option<Self> {
        Self::SUPPORTED.then_some(Self(x.0, PhantomData))
    }

    /// `self + c` for a canonical `c`, again below `2p`: the sum minus `p` when that does not
    /// borrow (a sum below `3p` then lands below `2p`), else the sum.
    #[inline(always)]
    pub fn add_canonical(self, c: Fp256<C>) -> Self {
        self.add_then_reduce(c.0, C::MODULUS)
    }

    /// `self + a + b` for canonical `a` and `b`, again below `2p`: the sum (below `4p`, which
    /// `4p < 2^256` lets four words hold) minus `2p` when that does not borrow, else the sum;
    /// `a + b` is never reduced on its own.
    #[inline(always)]
    pub fn add_two_canonical(self, a: Fp256<C>, b: Fp256<C>) -> Self {
        // a + b < 2p: no carry out of four words.
        self.add_then_reduce(add_words(&a.0, &b.0).0, Self::TWO_P)
    }

    /// Whether the assembly squaring kernels may run: `5p < 2^256`. Their first row adds
    /// `a_0` times the doubled words of `a` (below `4p`) and `m·p` before the first shift, below
    /// `2^64·5p`, which five words hold only then (BN254 Fr; not every field with `4p < 2^256`,
    /// whose squarings then run on the product kernel).
    const SQUARING_KERNELS: bool = {
        let (p, bound) = (C::MODULUS, 0x3333_3333_3333_3333_u64);
        // p ≤ ⌊(2^256 − 1)/5⌋, the word 0x33…33 four times, compared from the top word down.
        let mut i = 4;
        let mut below = true;
        while i > 0 {
            i -= 1;
            if p[i] != bound {
                below = p[i] < bound;
                break;
            }
        }
        below
    };

    /// `2p`, which four words hold (`4p < 2^256`).
    pub(crate) const TWO_P: U256 = {
        let p = C::MODULUS;
        [
            p[0] << 1,
            p[1] << 1 | p[0] >> 63,
            p[2] << 1 | p[1] >> 63,
            p[3] << 1 | p[2] >> 63,
        ]
    };

    /// `self + t − m` where that does not borrow, else `self + t`, for `self + t < 2^256`. Both
    /// candidates are computed side by side (`t − m` does not depend on `self`), so only one
    /// carry chain and a select sit on a chain's critical path.
    #[inline(always)]
    fn add_then_reduce(self, t: U256, m: U256) -> Self {
        let (n, _) = sub_words(&t, &m);
        let (s, _) = add_words(&self.0, &t);
        // x + (t − m) carries out of 2^256 exactly when x + t ≥ m.
        let (d, carry) = add_words(&self.0, &n);
        // The choice depends on the data (a branch would be mispredicted about half the time
        // on random values): select without one.
        Self(select_words(carry != 0, d, s), PhantomData)
    }

    /// `self²`, below `2p` for `self` below `2p`: the assembly squaring kernel when the CPU has
    /// BMI2 and ADX (the lazy CIOS with each off-diagonal product computed once against the
    /// doubled words of `self`: 26 `mulx` instead of the product's 32) and `5p < 2^256` (else
    /// the product kernel on `(self, self)`), the portable squaring otherwise.
    ///
    /// The portable squaring needs ten word products too, but its reduction runs after the
    /// whole square is summed, so in a dependent chain (where latency decides) it lost to the
    /// product kernel; the assembly squaring keeps the reduction interleaved and beats it
    /// (`PERF.md`, "The ADX kernels"). All give the same representation.
    #[inline(always)]
    pub fn square(self) -> Self {
        self.square_using(MulBackend::Adx)
    }

    /// [`LazyFp256::square`] on a chosen kernel: [`MulBackend::Adx`] is the assembly squaring
    /// kernel (the portable squaring on a CPU without it), [`MulBackend::Portable`] the
    /// portable squaring.
    #[inline(always)]
    pub fn square_using(self, backend: MulBackend) -> Self {
        if backend == MulBackend::Adx && backend_in_use() == MulBackend::Adx {
            if Self::SQUARING_KERNELS {
                if let Some(square) = mont_square_lazy_adx(&self.0, &C::MODULUS, C::MONT.inv) {
                    return Self(square, PhantomData);
                }
            }
            return self * self;
        }
        self.square_portable()
    }

    /// The ten products of a squaring (off-diagonal ones doubled), then four Montgomery
    /// reduction steps.
    #[inline(always)]
    fn square_portable(self) -> Self {
        let a = self.0;
        let (p, inv) = (C::MODULUS, C::MONT.inv);
        // Off-diagonal products a_i·a_j (i < j) in words 1..7.
        let (t1, c) = mac(0, a[0], a[1], 0);
        let (t2, c) = mac(0, a[0], a[2], c);
        let (t3, t4) = mac(0, a[0], a[3], c);
        let (t3, c) = mac(t3, a[1], a[2], 0);
        let (t4, t5) = mac(t4, a[1], a[3], c);
        let (t5, t6) = mac(t5, a[2], a[3], 0);
        // Doubled.
        let t7 = t6 >> 63;
        let t6 = (t6 << 1) | (t5 >> 63);
        let t5 = (t5 << 1) | (t4 >> 63);
        let t4 = (t4 << 1) | (t3 >> 63);
        let t3 = (t3 << 1) | (t2 >> 63);
        let t2 = (t2 << 1) | (t1 >> 63);
        let t1 = t1 << 1;
        // Plus the squares a_i² on words 2i, 2i + 1.
        let (t0, c) = mac(0, a[0], a[0], 0);
        let (t1, k) = adc(t1, c, 0);
        let (lo, hi) = mac(0, a[1], a[1], 0);
        let (t2, k) = adc(t2, lo, k);
        let (t3, k) = adc(t3, hi, k);
        let (lo, hi) = mac(0, a[2], a[2], 0);
        let (t4, k) = adc(t4, lo, k);
        let (t5, k) = adc(t5, hi, k);
        let (lo, hi) = mac(0, a[3], a[3], 0);
        let (t6, k) = adc(t6, lo, k);
        let (t7, _) = adc(t7, hi, k);
        let mut t = [t0, t1, t2, t3, t4, t5, t6, t7];
        // Four reduction steps; `top` carries into the next step's high word.
        let mut top = 0;
        for i in 0..4 {
            let m = t[i].wrapping_mul(inv);
            let (_, c) = mac(t[i], m, p[0], 0);
            let (v, c) = mac(t[i + 1], m, p[1], c);
            t[i + 1] = v;
            let (v, c) = mac(t[i + 2], m, p[2], c);
            t[i + 2] = v;
            let (v, c) = mac(t[i + 3], m, p[3], c);
            t[i + 3] = v;
            let (v, k) = adc(t[i + 4], c, top);
            t[i + 4] = v;
            top = k;
        }
        Self([t[4], t[5], t[6], t[7]], PhantomData)
    }

    /// `(self·a, self·b)`, the two products interleaved on the assembly kernel when the CPU
    /// has BMI2 and ADX (about 1.75 times one product's latency instead of twice), as two
    /// products otherwise.
    #[inline(always)]
    pub fn mul_pair(self, a: Self, b: Self) -> (Self, Self) {
        let (x, y) = mont_mul_pair_lazy(&a.0, &b.0, &self.0, &C::MODULUS, C::MONT.inv);
        (Self(x, PhantomData), Self(y, PhantomData))
    }

    #[cfg(feature = "kernels")]
    /// The product on a chosen kernel; one the CPU lacks falls back to the portable code. Both
    /// kernels give the same representation (for tests and benchmarks).
    pub fn mul_using(self, rhs: Self, backend: MulBackend) -> Self {
        Self(
            mont_mul_lazy_using(backend, &self.0, &rhs.0, &C::MODULUS, C::MONT.inv),
            PhantomData,
        )
    }

    #[cfg(feature = "kernels")]
    /// The words held, a Montgomery-form value in `[0, 2p)`: one element has two
    /// representations, so this is for tests of the representation itself.
    #[inline(always)]
    pub fn representation(self) -> [u64; 4] {
        self.0
    }

    /// The element, fully reduced.
    #[inline(always)]
    pub fn reduce(self) -> Fp256<C> {
        Fp256::from_mont(reduce_once(self.0, &C::MODULUS))
    }
}

impl<C: Fp256Config> SboxArithmetic for LazyFp256<C> {
    #[inline(always)]
    fn sbox_square(&self) -> Self {
        LazyFp256::square(*self)
    }

    /// `(self·a, self²)` on the assembly product-and-square kernel (58 `mulx`, the two loops
    /// interleaved) when the CPU has BMI2 and ADX and `5p < 2^256`, on the pair kernel when
    /// only `4p < 2^256`, else a product and a squaring.
    #[inline(always)]
    fn product_and_square(&self, a: &Self) -> (Self, Self) {
        if !Self::SQUARING_KERNELS {
            return self.mul_pair(*a, *self);
        }
        match mont_product_and_square_lazy_adx(&a.0, &self.0, &C::MODULUS, C::MONT.inv) {
            Some((x, y)) => (Self(x, PhantomData), Self(y, PhantomData)),
            None => (*self * *a, LazyFp256::square(*self)),
        }
    }
}

impl<C: Fp256Config> core::ops::Add for LazyFp256<C> {
    type Output = Self;
    /// `self + rhs`, again below `2p`: the sum (below `4p`) minus `2p` when that does not
    /// borrow, else the sum. `rhs − 2p` is computed beside `self`'s chain, so when `rhs` is
    /// ready first only one carry chain and a select follow `self`.
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        self.add_then_reduce(rhs.0, Self::TWO_P)
    }
}

impl<C: Fp256Config> Mul for LazyFp256<C> {
    type Output = Self;
    /// The Montgomery product without its final subtraction (below `2p` for inputs below `2p`),
    /// on the assembly kernel when the CPU has BMI2 and ADX.
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self(
            mont_mul_lazy(&self.0, &rhs.0, &C::MODULUS, C::MONT.inv),
            PhantomData,
        )
    }
}
