#![doc = include_str!("../README.md")]

pub mod butterflies;
pub mod chains;
pub mod cpu;
mod error;
mod interleaved;
pub mod limbs;
pub mod modmul;
mod ops;
pub mod prefetch;
#[cfg(target_arch = "x86_64")]
pub mod radix52;
pub mod sbox;
mod traits;

pub use error::FieldError;
pub use interleaved::Interleaved;
pub use ops::{
    batch_inverse, batch_inverse_in_place, mul_slices_by_eights, split_two_adic, tonelli_shanks,
};
pub use traits::{
    Algebra, ExtensionField, Field, PackedField, PackedKernel, PrimeField, TwoAdicField,
};

/// The [`TwoAdicField`] butterfly methods of a field whose products are fastest in batches:
/// `mul_slices` is the type's inherent `mul_assign_slices(a, b)` (equal lengths), and the
/// butterflies are [`butterflies::dif_batched`] and its siblings (the sums first, then the
/// products as one batch). Expand it inside `impl TwoAdicField for …`.
#[macro_export]
macro_rules! batched_butterflies {
    () => {
        #[inline]
        fn mul_slices(a: &mut [Self], b: &[Self]) {
            Self::mul_assign_slices(a, &b[..a.len()]);
        }
        #[inline]
        fn mul_by_constant(a: &mut [Self], w: Self) {
            $crate::butterflies::mul_by_constant_batched(a, w);
        }
        #[inline]
        fn dif_butterflies(lo: &mut [Self], hi: &mut [Self], tw: &[Self]) {
            $crate::butterflies::dif_batched(lo, hi, tw);
        }
        #[inline]
        fn dit_butterflies(lo: &mut [Self], hi: &mut [Self], tw: &[Self]) {
            $crate::butterflies::dit_batched(lo, hi, tw);
        }
        #[inline]
        fn dif_butterflies_same(lo: &mut [Self], hi: &mut [Self], w: Self) {
            $crate::butterflies::dif_same_batched(lo, hi, w);
        }
        #[inline]
        fn dit_butterflies_same(lo: &mut [Self], hi: &mut [Self], w: Self) {
            $crate::butterflies::dit_same_batched(lo, hi, w);
        }
    };
}

/// The [`PackedField`] items of a packing that reduces every product: a sum of constant
/// products is a plain packed value built with [`PackedField::mul_constant_add`] (`Split` and
/// `Accumulator` are `Self`). Expand it inside `impl PackedField for …`.
#[macro_export]
macro_rules! reduced_sums {
    () => {
        type Split = Self;
        type Accumulator = Self;
        #[inline(always)]
        fn split(self, _: <Self as $crate::PackedField>::Cpu) -> Self {
            self
        }
        #[inline(always)]
        fn empty_sum(cpu: <Self as $crate::PackedField>::Cpu) -> Self {
            <Self as $crate::PackedField>::broadcast(
                cpu,
                <<Self as $crate::PackedField>::Scalar as $crate::Field>::ZERO,
            )
        }
        #[inline(always)]
        fn accumulate(
            cpu: <Self as $crate::PackedField>::Cpu,
            acc: &mut Self,
            x: &Self,
            c: &<Self as $crate::PackedField>::Constant,
        ) {
            *acc = <Self as $crate::PackedField>::mul_constant_add(cpu, *x, c, *acc);
        }
        #[inline(always)]
        fn reduce_sum(acc: Self) -> Self {
            acc
        }
    };
}
