#![doc = include_str!("../README.md")]

use zkaccel_fp384::{Fp384, Fp384Config};

/// The parameters of BLS12-377's base field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FqConfig;

impl Fp384Config for FqConfig {
    const NAME: &'static str = "BLS12-377 Fq";
    /// `0x01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001`.
    const MODULUS: [u64; 6] = [
        0x8508c00000000001,
        0x170b5d4430000000,
        0x1ef3622fba094800,
        0x1a22d9f300f5138f,
        0xc63b05c06ca1493b,
        0x01ae3a4617c510ea,
    ];
    const GENERATOR: u64 = 15;
}

/// An element of BLS12-377's base field.
pub type Fq = Fp384<FqConfig>;
