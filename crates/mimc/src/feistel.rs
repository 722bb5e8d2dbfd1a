//! circomlib's MiMCSponge: the MiMC-2n/n Feistel permutation (`x^5`, 220 rounds) in a sponge.
//!
//! ```text
//! F_k(xL, xR): for i in 0..R:  t ← (xL + k + c_i)^5
//!                              (xL, xR) ← (xR + t, xL)    except the last round: xR ← xR + t
//! sponge(m_1 … m_n): (xL, xR) ← (0, 0); for each m: xL ← xL + m; (xL, xR) ← F_k(xL, xR)
//!                    outputs: xL, then xL after each further F_k
//! ```
//!
//! The permutation runs on the field's fast paths ([`MimcField::permute_feistel`], one chain,
//! and [`MimcField::permute_feistel_many`], many side by side); on BN254 both carry only the
//! S-box inputs `u_i = xL_i + k + c_i` from round to round, `u_{i+1} = u_i^d + (u_{i−1} +
//! c_{i+1} − c_{i−1})`, and recover the halves at the end.

use rayon::prelude::*;

use crate::batch::{for_each_block, MimcField};
use crate::error::MimcError;
use crate::params::MimcParams;

/// The MiMC Feistel sponge of circomlib (`MiMCSponge`, `MiMCFeistel`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MimcSponge<F> {
    params: MimcParams<F>,
    constant_steps: Vec<F>,
}

/// Hashes per parallel task in [`MimcSponge::hash_batch`]: a multiple of the six lanes of the
/// hybrid kernel, small enough that a batch of a thousand splits into about ten tasks per core
/// (so a core slowed by other load does not hold the batch up), large enough that a task's
/// setup (the packed constant steps, once per block) is a few per cent of its work.
const PAR_CHUNK: usize = 48;

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
    /// `self.hash(&inputs[i], k, outputs)`. Each task runs its hashes' permutations side by
    /// side ([`MimcField::permute_feistel_many`]: on BN254 six at a time in one interleaved
    /// kernel per product); hashes of different lengths may be mixed, lanes being grouped
    /// block by block.
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
        let mut out = vec![Vec::new(); inputs.len()];
        out.par_chunks_mut(PAR_CHUNK)
            .zip(inputs.par_chunks(PAR_CHUNK))
            .for_each(|(out, msgs)| self.hash_group(msgs, k, outputs, out));
        Ok(out)
    }

    /// Absorbs `msgs` block by block, permuting the states of all hashes that still have a
    /// block together, then squeezes `outputs` elements into each of `out`.
    fn hash_group<I: AsRef<[F]>>(&self, msgs: &[I], k: F, outputs: usize, out: &mut [Vec<F>]) {
        let n = msgs.len();
        let (mut l, mut r) = (vec![F::ZERO; n], vec![F::ZERO; n]);
        for_each_block(msgs, |live, blocks| {
            let mut ll: Vec<F> = live.iter().zip(blocks).map(|(&i, &m)| l[i] + m).collect();
            let mut lr: Vec<F> = live.iter().map(|&i| r[i]).collect();
            F::permute_feistel_many(self, &mut ll, &mut lr, k).expect("one right half per block");
            for ((&i, x), y) in live.iter().zip(ll).zip(lr) {
                (l[i], r[i]) = (x, y);
            }
        });
        for (o, &x) in out.iter_mut().zip(&l) {
            o.reserve_exact(outputs);
            o.push(x);
        }
        for _ in 1..outputs {
            F::permute_feistel_many(self, &mut l, &mut r, k).expect("halves of equal lengths");
            for (o, &x) in out.iter_mut().zip(&l) {
                o.push(x);
            }
        }
    }
}
