#![doc = include_str!("../README.md")]

use std::fmt::Write as _;

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use thiserror::Error;
use zkaccel_field::modmul::MontgomeryWords;
use zkaccel_field::{limbs, PrimeField};

pub mod acclmt;
pub mod amaze;
pub mod mont;
pub mod ntt;
pub mod program;

/// One file of vectors: its name (a bench reads it under this name) and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VectorFile {
    /// The file's name, without a directory.
    pub name: String,
    /// The file's contents.
    pub text: String,
}

/// Why vectors could not be produced.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum HwVectorError {
    /// More than one file holds (the files are built in memory before an atomic write).
    #[error("{got} {what}: at most {max} in one file")]
    TooLarge {
        /// What was counted.
        what: &'static str,
        /// How many were asked for.
        got: u64,
        /// The most one file holds.
        max: u64,
    },
    /// A √N×√N transform of an odd `log_n` (its two passes are of equal size).
    #[error("log_n = {log_n}: must be even (two passes of equal size)")]
    OddLogN {
        /// The size asked for.
        log_n: u32,
    },
    /// A preset's field other than its own.
    #[error("the {preset} preset is over {own}, not {asked}")]
    PresetField {
        /// The preset.
        preset: &'static str,
        /// Its field.
        own: &'static str,
        /// The field asked for.
        asked: &'static str,
    },
    /// An exponent or round numbers for a preset that has its own.
    #[error(
        "alpha and round numbers set up the reference instance; the {preset} preset has its own"
    )]
    PresetRounds {
        /// The preset.
        preset: &'static str,
    },
    /// An S-box exponent the datapath does not take.
    #[error("alpha = {alpha}: the S-box takes 3, 5 or 7")]
    Alpha {
        /// The exponent asked for.
        alpha: u64,
    },
    /// A tree of `2^log_leaves` leaves whose arity is no power of two dividing it.
    #[error("2^{log_leaves} leaves is no power of the arity {arity}: give the depth (a tree of arity^depth leaves)")]
    LeavesNotAPower {
        /// log2 of the leaves asked for.
        log_leaves: u32,
        /// The arity.
        arity: u32,
    },
    /// A tree of more elements than one file holds.
    #[error("{arity}^{depth} leaves of arity {arity}: at most 2^19 elements (arity^(depth + 1))")]
    TreeTooLarge {
        /// The arity.
        arity: u32,
        /// The depth asked for.
        depth: u32,
    },
    /// An arity the engine or the controller does not take.
    #[error("arity {arity}: the engine takes 2 to 11")]
    Arity {
        /// The arity asked for.
        arity: u64,
    },
    /// The Poseidon instance was refused.
    #[error(transparent)]
    Poseidon(#[from] zkaccel_poseidon::PoseidonError),
    /// The transform was refused.
    #[error(transparent)]
    Ntt(#[from] zkaccel_ntt::NttError),
    /// The field refused (no root of unity of that order).
    #[error(transparent)]
    Field(#[from] zkaccel_field::FieldError),
    /// The tree was refused.
    #[error(transparent)]
    Merkle(#[from] zkaccel_merkle::MerkleError),
    /// The cipher was refused.
    #[error(transparent)]
    Mimc(#[from] zkaccel_mimc::MimcError),
    /// Formatting into the file's text failed (it does not, into a `String`).
    #[error("formatting a vector file")]
    Format(#[from] std::fmt::Error),
}

/// The most vectors of each kind one file holds (a million ciphers is ~200 MB of text).
pub const MAX_VECTORS: u64 = 1_000_000;

/// A field's words and their Montgomery form in hexadecimal, as the benches read them.
pub(crate) struct MontgomeryHex<const N: usize> {
    modulus: [u64; N],
    pub(crate) mont: MontgomeryWords<N>,
}

impl<const N: usize> MontgomeryHex<N> {
    pub(crate) fn new<F: PrimeField>() -> Self {
        let modulus = Self::words::<F>(F::modulus());
        Self {
            modulus,
            mont: MontgomeryWords::<N>::new(modulus),
        }
    }

    fn words<F: PrimeField>(limbs: F::Limbs) -> [u64; N] {
        let l = limbs.as_ref();
        core::array::from_fn(|i| l.get(i).copied().unwrap_or(0))
    }

    pub(crate) fn word(&self, w: &[u64; N]) -> String {
        limbs::to_hex(w, 16 * N)[2..].to_owned()
    }

    pub(crate) fn montgomery<F: PrimeField>(&self, x: &F) -> String {
        self.word(
            &self
                .mont
                .to_montgomery(&Self::words::<F>(x.to_canonical_limbs())),
        )
    }

    /// The header's modulus and `P'` lines.
    pub(crate) fn constants(&self, text: &mut String) -> std::fmt::Result {
        writeln!(text, "{}", self.word(&self.modulus))?;
        writeln!(text, "{}", self.word(&self.mont.neg_inverse()))
    }
}

/// `count` random field elements from `seed`.
pub(crate) fn random_elements<F: PrimeField, const N: usize>(seed: u64, count: usize) -> Vec<F> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let wide: Vec<u64> = (0..2 * N).map(|_| rng.next_u64()).collect();
            F::from_limbs_reduced(&wide)
        })
        .collect()
}
