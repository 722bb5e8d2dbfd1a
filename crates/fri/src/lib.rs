#![doc = include_str!("../README.md")]

mod batch;
mod config;
mod error;
mod proof;
mod prover;
mod scheme;
mod structure;
mod verifier;

pub use batch::{BatchKernels, PolynomialBatch};
pub use config::{
    FriConfig, FriParams, FriReductionStrategy, MAX_ARITY_BITS, MAX_CAP_HEIGHT, MAX_POW_BITS,
    MAX_QUERY_ROUNDS, MAX_RATE_BITS, MAX_REDUCTIONS,
};
pub use error::{ConfigError, FriError, FriRejection, PolynomialsError};
pub use proof::{FriInitialOpening, FriProof, FriQueryRound, FriQueryStep};
pub use prover::prove_openings;
pub use scheme::{Challenger, Digest, FriScheme};
pub use structure::{FriBatchInfo, FriInstance, FriOpenings, FriOracleInfo, FriPolynomialInfo};
pub use verifier::{fri_challenges, verify_fri_proof, FriChallenges};

use std::time::Instant;

use zkaccel_challenger::SpongeCounts;
use zkaccel_field::{ExtensionField, Field};
use zkaccel_kernel_trace::{Kernel, KernelId, KernelSink, TraceField};
use zkaccel_merkle::TreeHasher;
use zkaccel_symmetric::Permutation;

/// Records what `challenger` did since its counts were `before` (and the clock `started`)
/// as one sponge kernel, named by the challenger's permutation; 0 when `sink` keeps nothing.
pub fn record_challenger<S: FriScheme>(
    sink: &mut impl KernelSink,
    phase: &str,
    deps: &[KernelId],
    challenger: &Challenger<S>,
    before: SpongeCounts,
    started: Instant,
) -> KernelId {
    sink.record(phase, deps, started, || {
        let now = challenger.counts();
        Kernel::Sponge {
            hash: challenger.permutation().name(),
            absorbed: now.absorbed - before.absorbed,
            squeezed: now.squeezed - before.squeezed,
            permutations: now.permutations - before.permutations,
        }
    })
}

/// The names kernel records give a scheme's base field, extension and Merkle hash (one
/// lookup for every prover that records: FRI's, the batches', the STARK prover's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceNames {
    /// The base field.
    pub base: TraceField,
    /// The extension.
    pub extension: TraceField,
    /// The Merkle trees' hash ([`TreeHasher::hash_name`]).
    pub hash: String,
}

impl TraceNames {
    /// The scheme's names, looked up when `sink` records. When it keeps nothing no
    /// description is ever built, so nothing is looked up and the names returned are never
    /// read (a scheme over a field traces do not name proves untraced).
    ///
    /// # Errors
    /// [`FriError::Untraceable`] when recording over a field traces do not name.
    pub fn of<S: FriScheme>(sink: &impl KernelSink) -> Result<Self, FriError> {
        if !sink.is_recording() {
            return Ok(Self {
                base: TraceField::Goldilocks,
                extension: TraceField::Goldilocks,
                hash: String::new(),
            });
        }
        let untraceable = || FriError::Untraceable {
            field: <S::F as zkaccel_field::PrimeField>::NAME,
        };
        Ok(Self {
            base: TraceField::of_prime::<S::F>().ok_or_else(untraceable)?,
            extension: TraceField::of_extension::<S::F, S::E>().ok_or_else(untraceable)?,
            hash: S::hasher().hash_name(),
        })
    }
}

/// Absorbs a Merkle cap, digest by digest (plonky2's `observe_cap`).
pub fn observe_cap<S: FriScheme>(challenger: &mut Challenger<S>, cap: &[Digest<S>]) {
    for d in cap {
        challenger.observe_elements(&S::Hasher::digest_elements(d));
    }
}

/// The value at `x` (in the extension) of the polynomial with these base-field coefficients,
/// by Horner's rule.
pub fn evaluate<F: Field, E: ExtensionField<F>>(coefficients: &[F], x: E) -> E {
    coefficients
        .iter()
        .rev()
        .fold(E::ZERO, |acc, &c| acc * x + c)
}
