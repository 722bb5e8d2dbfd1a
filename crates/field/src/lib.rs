#![doc = include_str!("../README.md")]

pub mod cpu;
mod error;
mod interleaved;
pub mod limbs;
pub mod modmul;
mod ops;
#[cfg(target_arch = "x86_64")]
pub mod radix52;
mod traits;

pub use error::FieldError;
pub use interleaved::Interleaved;
pub use ops::{
    batch_inverse, batch_inverse_in_place, mul_slices_by_eights, split_two_adic, tonelli_shanks,
};
pub use traits::{
    Algebra, ExtensionField, Field, PackedField, PackedKernel, PrimeField, TwoAdicField,
};

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
