//! The BLS12-381 scalar field `Fr`, the field of Filecoin's neptune Poseidon, Zcash Sapling and
//! bellman's Groth16:
//! `r = 52435875175126190479447740508185965837690552500527637822603658699938581184513`.
//!
//! Generator 7 and two-adicity 32, as arkworks' `ark-bls12-381` (with which it is tested to
//! agree on every operation and on its roots of unity).
//!
//! ```
//! use zkaccel_bls12_381::Fr;
//! use zkaccel_field::{Field, PrimeField, TwoAdicField};
//!
//! let x: Fr = "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000000".parse()?;
//! assert_eq!(x, -Fr::ONE);
//! assert_eq!(Fr::TWO_ADICITY, 32);
//! # Ok::<(), zkaccel_field::FieldError>(())
//! ```

use zkaccel_fp256::{Fp256, Fp256Config};

/// The parameters of BLS12-381's scalar field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FrConfig;

impl Fp256Config for FrConfig {
    const NAME: &'static str = "BLS12-381 Fr";
    /// `0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001`.
    const MODULUS: [u64; 4] = [
        0xffffffff00000001,
        0x53bda402fffe5bfe,
        0x3339d80809a1d805,
        0x73eda753299d7d48,
    ];
    const GENERATOR: u64 = 7;
}

/// An element of BLS12-381's scalar field.
pub type Fr = Fp256<FrConfig>;
