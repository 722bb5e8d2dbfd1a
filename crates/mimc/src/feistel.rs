//! circomlib's MiMCSponge: the MiMC-2n/n Feistel permutation (`x^5`, 220 rounds) in a sponge.
//!
//! ```text
//! F_k(xL, xR): for i in 0..R:  t ← (xL + k + c_i)^5
//!                              (xL, xR) ← (xR + t, xL)    except the last round: xR ← xR + t
//! sponge(m_1 … m_n): (xL, xR) ← (0, 0); for each m: xL ← xL + m; (xL, xR) ← F_k(xL, xR)
//!                    outputs: xL, then xL after each further F_k
//! ```

use zkaccel_field::PrimeField;

use crate::error::MimcError;
use crate::params::MimcParams;
use zkaccel_field::sbox::pow_sbox;

/// The MiMC Feistel sponge of circomlib (`MiMCSponge`, `MiMCFeistel`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MimcSponge<F> {
    params: MimcParams<F>,
}

impl<F: PrimeField> MimcSponge<F> {
    /// A sponge over the given Feistel parameters.
    pub fn new(params: MimcParams<F>) -> Self {
        Self { params }
    }

    /// The parameters.
    pub fn params(&self) -> &MimcParams<F> {
        &self.params
    }

    /// The Feistel permutation `F_k(xL, xR)`.
    pub fn permute(&self, x_l: F, x_r: F, k: F) -> (F, F) {
        let d = self.params.exponent();
        let last = self.params.rounds() - 1;
        let (mut l, mut r) = (x_l, x_r);
        for (i, &c) in self.params.constants().iter().enumerate() {
            let t = pow_sbox(l + k + c, d);
            if i < last {
                (l, r) = (r + t, l);
            } else {
                r += t;
            }
        }
        (l, r)
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
        let mut out = vec![l];
        while out.len() < outputs {
            (l, r) = self.permute(l, r, k);
            out.push(l);
        }
        Ok(out)
    }
}
