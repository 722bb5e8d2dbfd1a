//! circomlib's MiMCSponge: the MiMC-2n/n Feistel permutation (`x^5`, 220 rounds) in a sponge.
//!
//! ```text
//! F_k(xL, xR): for i in 0..R:  t ← (xL + k + c_i)^5
//!                              (xL, xR) ← (xR + t, xL)    except the last round: xR ← xR + t
//! sponge(m_1 … m_n): (xL, xR) ← (0, 0); for each m: xL ← xL + m; (xL, xR) ← F_k(xL, xR)
//!                    outputs: xL, then xL after each further F_k
//! ```

use rayon::prelude::*;

use crate::batch::MimcField;
use crate::error::MimcError;
use crate::params::MimcParams;

/// The MiMC Feistel sponge of circomlib (`MiMCSponge`, `MiMCFeistel`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MimcSponge<F> {
    params: MimcParams<F>,
    constant_steps: Vec<F>,
}

/// Hashes per parallel task in [`MimcSponge::hash_batch`]: a sponge hash of two blocks is 440
/// S-boxes, so even a few per task keep the task overhead negligible while a batch of a
/// thousand still splits into many tasks per core.
const PAR_CHUNK: usize = 8;

impl<F: MimcField> MimcSponge<F> {
    /// A sponge over the given Feistel parameters.
    pub fn new(params: MimcParams<F>) -> Self {
        let c = params.constants();
        let constant_steps = c.iter().skip(2).zip(c).map(|(&a, &b)| a - b).collect();
        Self {
            params,
            constant_steps,
        }
    }

    /// The parameters.
    pub fn params(&self) -> &MimcParams<F> {
        &self.params
    }

    /// `c_{i+1} − c_{i−1}` for the rounds `1 ≤ i ≤ R − 2` that have a round before and after
    /// them: the lazy permutation's chain advances by these alone (see
    /// [`MimcField::permute_feistel`] on the 256-bit fields).
    pub fn constant_steps(&self) -> &[F] {
        &self.constant_steps
    }

    /// The Feistel permutation `F_k(xL, xR)`, on the field's lowest-latency path
    /// ([`MimcField::permute_feistel`]; on BN254 lazily reduced, on the assembly kernels).
    pub fn permute(&self, x_l: F, x_r: F, k: F) -> (F, F) {
        F::permute_feistel(self, x_l, x_r, k)
    }

    /// The sponge hash of `inputs` with key `k`, squeezing `outputs` elements.
    ///
    /// # Errors
    /// [`MimcError::ZeroOutputs`] when `outputs` is zero.
    pub fn hash(&self, inputs: &[F], k: F, outputs: usize) -> Result<Vec<F>, MimcError> {
        if outputs == 0 {
            return Err(MimcError::ZeroOutputs);
        }
        let (mut l, mut r) = (F::ZERO, F::ZERO);
        for &m in inputs {
            (l, r) = self.permute(l + m, r, k);
        }
        let mut out = Vec::with_capacity(outputs);
        out.push(l);
        while out.len() < outputs {
            (l, r) = self.permute(l, r, k);
            out.push(l);
        }
        Ok(out)
    }

    /// Many independent sponge hashes (a Merkle tree's level of MiMCSponge nodes, say), all
    /// with key `k` and `outputs` elements squeezed, on all cores; `result[i]` is
    /// `self.hash(&inputs[i], k, outputs)`. Hashes of different lengths may be mixed.
    ///
    /// # Errors
    /// [`MimcError::ZeroOutputs`] when `outputs` is zero.
    pub fn hash_batch<I: AsRef<[F]> + Sync>(
        &self,
        inputs: &[I],
        k: F,
        outputs: usize,
    ) -> Result<Vec<Vec<F>>, MimcError> {
        if outputs == 0 {
            return Err(MimcError::ZeroOutputs);
        }
        inputs
            .par_iter()
            .with_min_len(PAR_CHUNK)
            .map(|m| self.hash(m.as_ref(), k, outputs))
            .collect()
    }
}
