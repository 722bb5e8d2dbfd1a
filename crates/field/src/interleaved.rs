//! [`Interleaved`]: `K` scalars advanced together, the portable packing of latency-bound
//! kernels.

use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use crate::traits::{Algebra, Field, PackedField};

/// `K` independent field elements operated on together with portable code: the operations of
/// the `K` lanes are independent, so a kernel whose every lane is one long dependency chain
/// (a permutation, a cipher) overlaps `K` chains in the pipeline, the software form of the
/// interleaved pipelines of AMAZE and AcclMT. It is the packing such kernels take where a
/// field offers no SIMD packing (or `ZKACCEL_SIMD` is off).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interleaved<F, const K: usize>(pub [F; K]);

impl<F: Field, const K: usize> Add for Interleaved<F, K> {
    type Output = Self;
    #[inline(always)]
    fn add(mut self, rhs: Self) -> Self {
        // Plain loops, no closures: a closure would not inherit a caller's target features.
        for (o, r) in self.0.iter_mut().zip(rhs.0) {
            *o += r;
        }
        self
    }
}

impl<F: Field, const K: usize> Sub for Interleaved<F, K> {
    type Output = Self;
    #[inline(always)]
    fn sub(mut self, rhs: Self) -> Self {
        for (o, r) in self.0.iter_mut().zip(rhs.0) {
            *o -= r;
        }
        self
    }
}

impl<F: Field, const K: usize> Mul for Interleaved<F, K> {
    type Output = Self;
    #[inline(always)]
    fn mul(mut self, rhs: Self) -> Self {
        for (o, r) in self.0.iter_mut().zip(rhs.0) {
            *o *= r;
        }
        self
    }
}

impl<F: Field, const K: usize> Neg for Interleaved<F, K> {
    type Output = Self;
    #[inline(always)]
    fn neg(mut self) -> Self {
        for o in &mut self.0 {
            *o = -*o;
        }
        self
    }
}

impl<F: Field, const K: usize> AddAssign for Interleaved<F, K> {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl<F: Field, const K: usize> SubAssign for Interleaved<F, K> {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}

impl<F: Field, const K: usize> MulAssign for Interleaved<F, K> {
    #[inline(always)]
    fn mul_assign(&mut self, rhs: Self) {
        *self = *self * rhs;
    }
}

impl<F: Field, const K: usize> Algebra for Interleaved<F, K> {}

impl<F: Field, const K: usize> PackedField for Interleaved<F, K> {
    type Scalar = F;
    type Cpu = ();
    const WIDTH: usize = K;
    #[inline(always)]
    fn detect() -> Option<()> {
        Some(())
    }
    /// # Panics
    /// Panics when `slice.len() != K`.
    #[inline(always)]
    fn from_slice(_: (), slice: &[F]) -> Self {
        Self(slice.try_into().expect("slice length must equal WIDTH"))
    }
    #[inline(always)]
    fn broadcast(_: (), x: F) -> Self {
        Self([x; K])
    }
    /// # Panics
    /// Panics when `out.len() != K`.
    #[inline(always)]
    fn write_to_slice(&self, out: &mut [F]) {
        out.copy_from_slice(&self.0);
    }
}
