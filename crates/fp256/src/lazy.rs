//! Lazily reduced elements for long dependent chains of products (a MiMC cipher, a power map):
//! values stay in `[0, 2p)` between operations, so a product skips CIOS's final conditional
//! subtraction and an addition of a canonical element needs only one. This is sound when
//! `4p < 2^256` ([`LazyFp256::SUPPORTED`]; BN254 Fr, not BLS12-381 Fr).
//!
//! The operations are plain Rust (`#[inline(always)]`), so a caller that compiles its chain
//! inside a `#[target_feature(enable = "bmi2,adx")]` function gets `mulx` code with every
//! value in registers — no round trip through memory between dependent products, which is
//! what bounds the latency of [`Fp256`]'s assembly kernel in a chain.

use core::marker::PhantomData;
use core::ops::Mul;

use zkaccel_field::limbs::adc;
use zkaccel_field::modmul::U256;

use crate::arith::{mont_mul_unreduced, reduce_once};
use crate::{Fp256, Fp256Config};

/// An element of `Fp256<C>` in Montgomery form, represented by a value in `[0, 2p)`.
pub struct LazyFp256<C>(U256, PhantomData<C>);

impl<C> Clone for LazyFp256<C> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C> Copy for LazyFp256<C> {}

impl<C: Fp256Config> LazyFp256<C> {
    /// Whether the field leaves room for lazy reduction: `4p < 2^256`.
    pub const SUPPORTED: bool = C::MODULUS[3] < 1 << 62;

    /// `x`, or `None` when the field does not support lazy reduction.
    #[inline(always)]
    pub fn new(x: Fp256<C>) -> Option<Self> {
        Self::SUPPORTED.then_some(Self(x.0, PhantomData))
    }

    /// `self + c` for a canonical `c`, again below `2p` (one conditional subtraction of `p`
    /// from a sum below `3p`).
    #[inline(always)]
    pub fn add_canonical(self, c: Fp256<C>) -> Self {
        let (a, b) = (self.0, c.0);
        let (s0, k) = adc(a[0], b[0], 0);
        let (s1, k) = adc(a[1], b[1], k);
        let (s2, k) = adc(a[2], b[2], k);
        let (s3, _) = adc(a[3], b[3], k);
        Self(reduce_once([s0, s1, s2, s3], &C::MODULUS), PhantomData)
    }

    /// The element, fully reduced.
    #[inline(always)]
    pub fn reduce(self) -> Fp256<C> {
        Fp256::from_mont(reduce_once(self.0, &C::MODULUS))
    }
}

impl<C: Fp256Config> Mul for LazyFp256<C> {
    type Output = Self;
    /// The Montgomery product without its final subtraction (below `2p` for inputs below `2p`).
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        Self(
            mont_mul_unreduced(&self.0, &rhs.0, &C::MODULUS, C::MONT.inv),
            PhantomData,
        )
    }
}
