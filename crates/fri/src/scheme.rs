//! The fields, hash and transcript a FRI commitment runs over (plonky2's `GenericConfig`).

use std::sync::OnceLock;

use zkaccel_challenger::{DuplexChallenger, Plonky2Challenger};
use zkaccel_field::{ExtensionField, Field, PrimeField, TwoAdicField};
use zkaccel_goldilocks::{Goldilocks, Goldilocks2};
use zkaccel_merkle::{Plonky2Hasher, TreeHasher};
use zkaccel_ntt::{Algorithm, NttPlan, DEFAULT_CORE_LOG};
use zkaccel_poseidon::Poseidon;
use zkaccel_symmetric::Permutation;

use crate::FriError;

/// A Merkle digest of the scheme's trees.
pub type Digest<S> = <<S as FriScheme>::Hasher as TreeHasher>::Digest;
/// The scheme's challenger.
pub type Challenger<S> = DuplexChallenger<<S as FriScheme>::F, <S as FriScheme>::Permutation>;

/// The choices that make a FRI commitment one library's and not another's: the base field and
/// its extension (the challenges live there), the Merkle tree's hash, the transcript's
/// permutation, and the conventions that change the bytes (the coset shift and the roots of
/// unity the transforms use).
pub trait FriScheme:
    Sized + Copy + core::fmt::Debug + PartialEq + Eq + Send + Sync + 'static
{
    /// The field the committed polynomials live in.
    type F: PrimeField + TwoAdicField + Send + Sync;
    /// The extension the challenges and openings live in.
    type E: ExtensionField<Self::F> + TwoAdicField + Send + Sync;
    /// The Merkle trees' hash.
    type Hasher: TreeHasher<Element = Self::F> + Clone + Send + Sync;
    /// The transcript's permutation.
    type Permutation: Permutation<Self::F> + Clone + Send + Sync;

    /// A short name for proof headers and the command line.
    const NAME: &'static str;

    /// The Merkle trees' hasher.
    fn hasher() -> Self::Hasher;
    /// A fresh transcript.
    fn challenger() -> Challenger<Self>;
    /// The shift of the coset the codewords are evaluated on.
    fn coset_shift() -> Self::F;
    /// The generator of the base field's order-`2^TWO_ADICITY` subgroup the transforms' roots
    /// of unity derive from.
    fn base_root() -> Self::F;
    /// The same for the extension (its powers of order up to the base field's two-adicity
    /// must be the base field's roots, so that codewords over both fields share a domain).
    fn extension_root() -> Self::E;

    /// A transform plan over the base field for sizes up to `2^log_n`.
    ///
    /// # Errors
    /// [`FriError::Ntt`] beyond the field's two-adicity.
    fn base_plan(log_n: usize) -> Result<NttPlan<Self::F>, FriError> {
        let algorithm = Algorithm::FourStep {
            core_log: DEFAULT_CORE_LOG,
        };
        Ok(NttPlan::with_two_adic_root(
            log_n,
            algorithm,
            Self::base_root(),
        )?)
    }

    /// A transform plan over the extension for sizes up to `2^log_n`.
    ///
    /// # Errors
    /// [`FriError::Ntt`] beyond the field's two-adicity.
    fn extension_plan(log_n: usize) -> Result<NttPlan<Self::E>, FriError> {
        let algorithm = Algorithm::FourStep {
            core_log: DEFAULT_CORE_LOG,
        };
        Ok(NttPlan::with_two_adic_root(
            log_n,
            algorithm,
            Self::extension_root(),
        )?)
    }

    /// `log2` of the largest codeword: the base field's two-adicity.
    fn max_lde_bits() -> usize {
        Self::F::TWO_ADICITY
    }

    /// Bits of the extension field (the ceiling of conjectured security).
    fn extension_bits() -> usize {
        Self::F::BITS as usize * <Self::E as ExtensionField<Self::F>>::DEGREE
    }
}

/// plonky2's and starky's scheme (`PoseidonGoldilocksConfig`, `D = 2`): Goldilocks and its
/// quadratic extension `X² − 7`, Poseidon (width 12) for the trees (`hash_or_noop` leaves,
/// `two_to_one` nodes) and the transcript (duplex, rate 8), the coset shift and roots of
/// unity from plonky2's multiplicative generator `14293326489335486720`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Plonky2Goldilocks;

impl FriScheme for Plonky2Goldilocks {
    type F = Goldilocks;
    type E = Goldilocks2;
    type Hasher = Plonky2Hasher;
    type Permutation = &'static Poseidon<Goldilocks>;

    const NAME: &'static str = "plonky2-goldilocks";

    fn hasher() -> Plonky2Hasher {
        Plonky2Hasher
    }

    fn challenger() -> Plonky2Challenger {
        Plonky2Challenger::plonky2()
    }

    fn coset_shift() -> Goldilocks {
        Goldilocks::PLONKY2_GENERATOR
    }

    fn base_root() -> Goldilocks {
        Goldilocks::plonky2_two_adic_generator(Goldilocks::TWO_ADICITY)
            .expect("the two-adicity is within range")
    }

    fn extension_root() -> Goldilocks2 {
        static ROOT: OnceLock<Goldilocks2> = OnceLock::new();
        *ROOT.get_or_init(|| {
            // A square root of the base root: order 2^33, and its even powers are the base
            // field's roots.
            Goldilocks2::from_base(Self::base_root())
                .sqrt()
                .expect("the base root is a square in the extension")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkaccel_field::Algebra;

    #[test]
    fn the_extension_root_squares_to_the_base_root() {
        let r = Plonky2Goldilocks::extension_root();
        assert_eq!(
            r.square(),
            Goldilocks2::from_base(Plonky2Goldilocks::base_root())
        );
        assert_ne!(r.exp_power_of_2(32), Goldilocks2::ONE);
    }
}
