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
