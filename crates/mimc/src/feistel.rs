//! circomlib's MiMCSponge: the MiMC-2n/n Feistel permutation (`x^5`, 220 rounds) in a sponge.
//!
//! ```text
//! F_k(xL, xR): for i in 0..R:  t ← (xL + k + c_i)^5
//!                              (xL, xR) ← (xR + t, xL)    except the last round: xR ← xR + t
//! sponge(m_1 … m_n): (xL, xR) ← (0, 0); for each m: xL ← xL + m; (xL, xR) ← F_k(xL, xR)
//!                    outputs: xL, then xL after each further F_k
//! ```
//!
//! The permutation runs on the field's Feistel chain ([`crate::MimcField::feistel_chain`],
//! one chain, and [`crate::MimcField::feistel_chains`], many side by side), which carries
//! only the S-box inputs `u_i = xL_i + k + c_i` from round to round, `u_{i+1} = u_i^d +
//! (u_{i−1} + c_{i+1} − c_{i−1})` (the key cancels, and the bracket is ready before `u_i^d`,
//! so only the S-box and one addition sit on the chain); the halves are recovered at the end.

use rayon::prelude::*;
use zkaccel_field::PrimeField;

use crate::batch::{for_each_block, permute_feistel_textbook};
use crate::chains::MimcField;
use crate::cipher::check_lengths;
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

impl<F: PrimeField + MimcField> MimcSponge<F> {
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
    /// them: the Feistel chain advances by these alone ([`crate::MimcField::feistel_chain`]).
    pub fn constant_steps(&self) -> &[F] {
        &self.constant_steps
    }

    /// The Feistel permutation `F_k(xL, xR)`, on the field's lowest-latency chain
    /// ([`crate::MimcField::feistel_chain`]; on BN254 lazily reduced, on the assembly
    /// kernels).
    pub fn permute(&self, x_l: F, x_r: F, k: F) -> (F, F) {
        let Some(keys) = self.chain_keys(k) else {
            return permute_feistel_textbook(&self.params, x_l, x_r, k);
        };
        let d = self.params.exponent();
        let (last, second) =
            F::feistel_chain(x_l + keys[0], x_r + keys[1], &self.constant_steps, d);
        (last - keys[2], second - keys[3])
    }

    /// `k + c_0`, `k + c_1` (added to the halves to form the chain's inputs), `k + c_{R−1}`
    /// and `k + c_{R−2}` (taken from its outputs), for `R ≥ 2` rounds; `None` for one round,
    /// which has no chain.
    fn chain_keys(&self, k: F) -> Option<[F; 4]> {
        let c = self.params.constants();
        let rounds = c.len();
        (rounds >= 2).then(|| [k + c[0], k + c[1], k + c[rounds - 1], k + c[rounds - 2]])
    }

    /// `(ls[i], rs[i]) ← F_k(ls[i], rs[i])` for every `i` on the calling thread, the chains
    /// side by side on the field's batch kernel ([`crate::MimcField::feistel_chains`]).
    ///
    /// # Errors
    /// [`MimcError::LengthMismatch`] when `ls` and `rs` differ in length (nothing is written).
    pub fn permute_many(&self, ls: &mut [F], rs: &mut [F], k: F) -> Result<(), MimcError> {
        check_lengths(ls.len(), rs.len())?;
        let Some(keys) = self.chain_keys(k) else {
            for (l, r) in ls.iter_mut().zip(rs.iter_mut()) {
                (*l, *r) = permute_feistel_textbook(&self.params, *l, *r, k);
            }
            return Ok(());
        };
        for (l, r) in ls.iter_mut().zip(rs.iter_mut()) {
            (*l, *r) = (*l + keys[0], *r + keys[1]);
        }
        F::feistel_chains(ls, rs, &self.constant_steps, self.params.exponent())?;
        for (l, r) in ls.iter_mut().zip(rs.iter_mut()) {
            (*l, *r) = (*l - keys[2], *r - keys[3]);
        }
        Ok(())
    }

    /// The sponge hash of `inputs` with key `k`, squeezing `outputs` elements.
    ///
    /// # Errors
    /// [`MimcError::ZeroOutputs`] when `outputs` is zero, [`MimcError::TooManyOutputs`] past
    /// [`crate::MAX_SPONGE_OUTPUTS`] (a bound on time and memory for any caller's count).
    pub fn hash(&self, inputs: &[F], k: F, outputs: usize) -> Result<Vec<F>, MimcError> {
        check_outputs(outputs)?;
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
    /// side ([`MimcSponge::permute_many`]: on BN254 eight at a time in AVX-512 IFMA lanes, or
    /// six in one interleaved AVX2-and-scalar kernel per product); hashes of different lengths
    /// may be mixed, lanes being grouped block by block.
    ///
    /// # Errors
    /// [`MimcError::ZeroOutputs`] when `outputs` is zero.
    pub fn hash_batch<I: AsRef<[F]> + Sync>(
        &self,
        inputs: &[I],
        k: F,
        outputs: usize,
    ) -> Result<Vec<Vec<F>>, MimcError> {
        check_outputs(outputs)?;
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
            self.permute_many(&mut ll, &mut lr, k)
                .expect("one right half per block");
            for ((&i, x), y) in live.iter().zip(ll).zip(lr) {
                (l[i], r[i]) = (x, y);
            }
        });
        for (o, &x) in out.iter_mut().zip(&l) {
            o.reserve_exact(outputs);
            o.push(x);
        }
        for _ in 1..outputs {
            self.permute_many(&mut l, &mut r, k)
                .expect("halves of equal lengths");
            for (o, &x) in out.iter_mut().zip(&l) {
                o.push(x);
            }
        }
    }
}

/// circomlib's `MiMCFeistel` with key 0 on the state `[xL, xR]`.
impl<F: PrimeField + MimcField> zkaccel_symmetric::Permutation<F> for MimcSponge<F> {
    type Error = MimcError;
    fn width(&self) -> usize {
        2
    }
    fn name(&self) -> String {
        format!("mimcsponge-{}-2", zkaccel_symmetric::name_slug(F::NAME))
    }
    fn permute_mut(&self, state: &mut [F]) -> Result<(), MimcError> {
        let [l, r] = state else {
            return Err(MimcError::InputLength {
                expected: 2,
                actual: state.len(),
            });
        };
        (*l, *r) = self.permute(*l, *r, F::ZERO);
        Ok(())
    }
    fn permute_many(&self, states: &mut [F]) -> Result<(), MimcError> {
        if !states.len().is_multiple_of(2) {
            return Err(MimcError::InputLength {
                expected: states.len() + 1,
                actual: states.len(),
            });
        }
        let (mut ls, mut rs): (Vec<F>, Vec<F>) =
            states.chunks_exact(2).map(|s| (s[0], s[1])).unzip();
        let chunk = PAR_CHUNK;
        ls.par_chunks_mut(chunk)
            .zip(rs.par_chunks_mut(chunk))
            .try_for_each(|(l, r)| MimcSponge::permute_many(self, l, r, F::ZERO))?;
        for (s, (l, r)) in states.chunks_exact_mut(2).zip(ls.into_iter().zip(rs)) {
            (s[0], s[1]) = (l, r);
        }
        Ok(())
    }
}

/// circomlib's `MiMCSponge(n, 220, 1)` with key 0: one element squeezed.
impl<F: PrimeField + MimcField> zkaccel_symmetric::Hasher<F> for MimcSponge<F> {
    type Digest = F;
    type Error = MimcError;
    fn hash(&self, inputs: &[F]) -> Result<F, MimcError> {
        Ok(MimcSponge::hash(self, inputs, F::ZERO, 1)?[0])
    }
}

/// The two-to-one Merkle node of MiMCSponge trees (Tornado Cash's `hashLeftRight`): the
/// sponge hash of the two children with key 0.
impl<F: PrimeField + MimcField> zkaccel_symmetric::Compression<F> for MimcSponge<F> {
    type Error = MimcError;
    const NAME: &'static str = "mimcsponge";
    fn arity(&self) -> usize {
        2
    }
    fn compress(&self, children: &[F]) -> Result<F, MimcError> {
        crate::cipher::pair_length(children.len())?;
        Ok(MimcSponge::hash(self, children, F::ZERO, 1)?[0])
    }
    fn compress_many(&self, children: &[F]) -> Result<Vec<F>, MimcError> {
        crate::cipher::pair_length(children.len())?;
        let pairs: Vec<&[F]> = children.chunks_exact(2).collect();
        let digests = self.hash_batch(&pairs, F::ZERO, 1)?;
        Ok(digests.into_iter().map(|d| d[0]).collect())
    }
}

/// `outputs` within 1 ..= [`crate::MAX_SPONGE_OUTPUTS`].
fn check_outputs(outputs: usize) -> Result<(), MimcError> {
    match outputs {
        0 => Err(MimcError::ZeroOutputs),
        n if n > crate::MAX_SPONGE_OUTPUTS => Err(MimcError::TooManyOutputs(n)),
        _ => Ok(()),
    }
}
