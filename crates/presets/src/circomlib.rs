//! circomlib's Poseidon over BN254 Fr (circomlibjs `poseidon`): width `t = inputs + 1` for
//! `t = 2 … 17`, `x^5`, 8 full rounds, the reference partial-round numbers rounded up to a
//! multiple of `t`, and constants and MDS matrix from the reference generator
//! (`generate_parameters_grain.sage 1 0 254 t 8 R_P`). State `[init, inputs…]`, output lane 0.

use std::sync::OnceLock;

use rayon::prelude::*;
use zkaccel_bn254::Fr;
use zkaccel_field::Field;

use zkaccel_merkle::FieldTreeHasher;
use zkaccel_poseidon::reference::{log2_modulus, reference_params};
use zkaccel_poseidon::rounds::{reference_round_numbers, round_up_to_multiple};
use zkaccel_poseidon::{Poseidon, PoseidonError, PoseidonParams};

/// The S-box exponent.
pub const ALPHA: u64 = 5;
/// The smallest width circomlib defines.
pub const MIN_WIDTH: usize = 2;
/// The largest.
pub const MAX_WIDTH: usize = 17;

/// circomlib's `(R_F, R_P)` for width `t`.
///
/// # Errors
/// [`PoseidonError::WidthNotDefined`] outside `t = 2 … 17`.
pub fn round_numbers(width: usize) -> Result<(usize, usize), PoseidonError> {
    check_width(width)?;
    let (rf, rp) = reference_round_numbers(log2_modulus::<Fr>(), width, ALPHA)?;
    Ok((rf, round_up_to_multiple(rp, width)))
}

/// circomlib's textbook parameters for width `t`.
///
/// # Errors
/// [`PoseidonError::WidthNotDefined`] outside `t = 2 … 17`.
pub fn params(width: usize) -> Result<PoseidonParams<Fr>, PoseidonError> {
    let (rf, rp) = round_numbers(width)?;
    reference_params(width, ALPHA, rf, rp)
}

fn check_width(width: usize) -> Result<(), PoseidonError> {
    if !(MIN_WIDTH..=MAX_WIDTH).contains(&width) {
        return Err(PoseidonError::WidthNotDefined {
            preset: "circomlib",
            width,
            min: MIN_WIDTH,
            max: MAX_WIDTH,
        });
    }
    Ok(())
}

/// circomlib's Poseidon for one width.
#[derive(Debug, Clone)]
pub struct CircomPoseidon {
    perm: Poseidon<Fr>,
}

impl CircomPoseidon {
    /// The shared instance for `t` (generated once per process: the MDS security checks take
    /// a few milliseconds).
    ///
    /// # Errors
    /// [`PoseidonError::WidthNotDefined`] outside `t = 2 … 17`.
    pub fn get(width: usize) -> Result<&'static Self, PoseidonError> {
        check_width(width)?;
        static INSTANCES: [OnceLock<Result<CircomPoseidon, PoseidonError>>; MAX_WIDTH + 1] =
            [const { OnceLock::new() }; MAX_WIDTH + 1];
        INSTANCES[width]
            .get_or_init(|| {
                Ok(CircomPoseidon {
                    perm: Poseidon::new(params(width)?)?,
                })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The instance for `inputs` inputs (`t = inputs + 1`).
    ///
    /// # Errors
    /// [`PoseidonError::WidthNotDefined`] outside 1 … 16 inputs.
    pub fn for_inputs(inputs: usize) -> Result<&'static Self, PoseidonError> {
        Self::get(inputs.saturating_add(1))
    }

    /// The permutation.
    pub fn permutation(&self) -> &Poseidon<Fr> {
        &self.perm
    }

    /// Width `t`.
    pub fn width(&self) -> usize {
        self.perm.width()
    }

    /// `poseidon(inputs)`: lane 0 of the permuted `[0, inputs…]`.
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] unless there are `t − 1` inputs.
    pub fn hash(&self, inputs: &[Fr]) -> Result<Fr, PoseidonError> {
        Ok(self.hash_with(Fr::ZERO, inputs, 1)?[0])
    }

    /// circomlibjs's `poseidon(inputs, initState, nOut)`: lanes `0 … nOut−1` of the permuted
    /// `[init, inputs…]`.
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] unless there are `t − 1` inputs and `1 ≤ nOut ≤ t`.
    pub fn hash_with(
        &self,
        init: Fr,
        inputs: &[Fr],
        n_out: usize,
    ) -> Result<Vec<Fr>, PoseidonError> {
        let t = self.width();
        if inputs.len() != t - 1 {
            return Err(PoseidonError::InputLength {
                expected: t - 1,
                actual: inputs.len(),
            });
        }
        if n_out == 0 || n_out > t {
            return Err(PoseidonError::InputLength {
                expected: t,
                actual: n_out,
            });
        }
        let mut state = Vec::with_capacity(t);
        state.push(init);
        state.extend_from_slice(inputs);
        self.perm.permute(&mut state)?;
        state.truncate(n_out);
        Ok(state)
    }

    /// `poseidon` of consecutive groups of `t − 1` inputs, on all cores.
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] when the length is not a multiple of `t − 1`.
    pub fn hash_many(&self, inputs: &[Fr]) -> Result<Vec<Fr>, PoseidonError> {
        let (t, a) = (self.width(), self.width() - 1);
        if !inputs.len().is_multiple_of(a) {
            return Err(PoseidonError::InputLength {
                expected: inputs.len().div_ceil(a) * a,
                actual: inputs.len(),
            });
        }
        let mut out = vec![Fr::ZERO; inputs.len() / a];
        const BLOCK: usize = 64;
        out.par_chunks_mut(BLOCK)
            .zip(inputs.par_chunks(BLOCK * a))
            .for_each(|(out, inputs)| {
                let mut states = Vec::with_capacity(out.len() * t);
                for group in inputs.chunks_exact(a) {
                    states.push(Fr::ZERO);
                    states.extend_from_slice(group);
                }
                self.perm
                    .permute_many_single_thread(&mut states)
                    .expect("whole states");
                for (o, s) in out.iter_mut().zip(states.chunks_exact(t)) {
                    *o = s[0];
                }
            });
        Ok(out)
    }
}

/// circomlib's `poseidon(inputs)` for exactly `t − 1` inputs.
impl zkaccel_symmetric::Hasher<Fr> for CircomPoseidon {
    type Digest = Fr;
    type Error = PoseidonError;
    fn hash(&self, inputs: &[Fr]) -> Result<Fr, PoseidonError> {
        CircomPoseidon::hash(self, inputs)
    }
}

/// The usual circom Merkle gadget's node: `poseidon` of the `t − 1` children.
impl zkaccel_symmetric::Compression<Fr> for CircomPoseidon {
    type Error = PoseidonError;
    const NAME: &'static str = "circomlib";
    fn arity(&self) -> usize {
        self.width() - 1
    }
    fn compress(&self, children: &[Fr]) -> Result<Fr, PoseidonError> {
        CircomPoseidon::hash(self, children)
    }
    fn compress_many(&self, children: &[Fr]) -> Result<Vec<Fr>, PoseidonError> {
        self.hash_many(children)
    }
}

/// The usual circom Merkle gadget over BN254: single-element leaves, nodes circomlib's
/// `poseidon` of `t − 1` children (arity 1 to 16).
pub type CircomHasher = FieldTreeHasher<&'static CircomPoseidon, Fr, 3>;
