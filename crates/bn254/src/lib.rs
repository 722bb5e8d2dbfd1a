//! The BN254 (alt_bn128) scalar field `Fr`, the field of circomlib, AMAZE's MiMC and Groth16 on
//! Ethereum:
//! `r = 21888242871839275222246405745257275088548364400416034343698204186575808495617`.
//!
//! Generator 5 and two-adicity 28, as arkworks' `ark-bn254` (with which it is tested to agree
//! on every operation and on its roots of unity).
//!
//! ```
//! use zkaccel_bn254::Fr;
//! use zkaccel_field::{Field, PrimeField, TwoAdicField};
//!
//! let x: Fr = "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000000".parse()?;
//! assert_eq!(x, -Fr::ONE);
//! assert!(Fr::from_str_canonical("21888242871839275222246405745257275088548364400416034343698204186575808495617").is_err());
//! assert_eq!(Fr::TWO_ADICITY, 28);
//! # Ok::<(), zkaccel_field::FieldError>(())
//! ```

use zkaccel_fp256::{Fp256, Fp256Config};

/// The parameters of BN254's scalar field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FrConfig;

impl Fp256Config for FrConfig {
    const NAME: &'static str = "BN254 Fr";
    /// `0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001`.
    const MODULUS: [u64; 4] = [
        0x43e1f593f0000001,
        0x2833e84879b97091,
        0xb85045b68181585d,
        0x30644e72e131a029,
    ];
    const GENERATOR: u64 = 5;
}

/// An element of BN254's scalar field.
pub type Fr = Fp256<FrConfig>;
