//! The fields, hash and transcript a FRI commitment runs over (plonky2's `GenericConfig`).

use zkaccel_challenger::DuplexChallenger;
use zkaccel_field::{ExtensionField, PrimeField, TwoAdicField};
use zkaccel_merkle::TreeHasher;
use zkaccel_ntt::NttField;
use zkaccel_ntt::{Algorithm, NttPlan, DEFAULT_CORE_LOG};
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
    type F: PrimeField + NttField + Send + Sync;
    /// The extension the challenges and openings live in.
    type E: ExtensionField<Self::F> + NttField + Send + Sync;
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
