//! Polynomials committed together: values → coefficients → coset LDE → a Merkle tree whose
//! leaf `i` holds every polynomial's value at the bit-reversed point `i` (plonky2's
//! `PolynomialBatch`, without blinding: starky commits nothing salted).

use rayon::prelude::*;
use zkaccel_merkle::MerkleTree;
use zkaccel_ntt::{reverse_bits, Order};

use crate::scheme::{Digest, FriScheme};
use crate::FriError;

/// A batch of polynomials of one length `2^degree_log`, committed by the cap of the Merkle tree
/// over their low-degree extensions (`2^rate_bits` times longer, on the coset
/// `shift·⟨ω⟩`).
#[derive(Debug, Clone)]
pub struct PolynomialBatch<S: FriScheme> {
    polynomials: Vec<Vec<S::F>>,
    tree: MerkleTree<S::Hasher>,
    degree_log: usize,
    rate_bits: usize,
}

impl<S: FriScheme> PolynomialBatch<S> {
    /// Commits polynomials given by their values on the subgroup `⟨ω_n⟩` (natural order),
    /// as plonky2's `from_values`: each is interpolated (an inverse transform), then
    /// committed as [`PolynomialBatch::from_coeffs`] does.
    ///
    /// # Errors
    /// As [`PolynomialBatch::from_coeffs`].
    pub fn from_values(
        values: Vec<Vec<S::F>>,
        rate_bits: usize,
        cap_height: usize,
    ) -> Result<Self, FriError> {
        let log_n = check_shape(&values)?;
        let plan = S::base_plan(log_n)?;
        let mut coefficients = values;
        coefficients
            .par_iter_mut()
            .try_for_each(|v| plan.inverse(v, Order::NN))?;
        Self::from_coeffs(coefficients, rate_bits, cap_height)
    }

    /// Commits polynomials given by their coefficients: each is evaluated on the coset
    /// `shift·⟨ω_N⟩`, `N = n·2^rate_bits`, and the tree's leaf `rev(i)` holds every
    /// polynomial's value at point `i` (so a FRI layer's cosets are neighbouring leaves).
    ///
    /// # Errors
    /// [`FriError::Polynomials`] for no polynomials or polynomials of unequal or
    /// non-power-of-two lengths; [`FriError::Ntt`] for a codeword beyond the field's
    /// two-adicity; [`FriError::Merkle`] when the cap is taller than the tree.
    pub fn from_coeffs(
        polynomials: Vec<Vec<S::F>>,
        rate_bits: usize,
        cap_height: usize,
    ) -> Result<Self, FriError> {
        let degree_log = check_shape(&polynomials)?;
        let lde_bits = degree_log + rate_bits;
        let plan = S::base_plan(lde_bits)?;
        let shift = S::coset_shift();
        let ldes = polynomials
            .par_iter()
            .map(|p| plan.lde(p, rate_bits, shift))
            .collect::<Result<Vec<_>, _>>()?;
        let width = polynomials.len();
        let rows = 1usize << lde_bits;
        let mut leaves = vec![S::F::default(); rows * width];
        leaves
            .par_chunks_mut(width)
            .enumerate()
            .for_each(|(row, leaf)| {
                let point = reverse_bits(row, lde_bits);
                for (value, lde) in leaf.iter_mut().zip(&ldes) {
                    *value = lde[point];
                }
            });
        drop(ldes);
        let tree = MerkleTree::new(S::hasher(), leaves, width, cap_height)?;
        Ok(Self {
            polynomials,
            tree,
            degree_log,
            rate_bits,
        })
    }

    /// The coefficients of the committed polynomials.
    pub fn polynomials(&self) -> &[Vec<S::F>] {
        &self.polynomials
    }

    /// The commitment: the tree's cap.
    pub fn cap(&self) -> &[Digest<S>] {
        self.tree.cap()
    }

    /// The Merkle tree over the LDE rows.
    pub fn tree(&self) -> &MerkleTree<S::Hasher> {
        &self.tree
    }

    /// `log2` of the polynomials' length.
    pub fn degree_log(&self) -> usize {
        self.degree_log
    }

    /// `log2` of the blowup.
    pub fn rate_bits(&self) -> usize {
        self.rate_bits
    }

    /// Every polynomial's value at LDE point `index·step` (plonky2's `get_lde_values`): the
    /// quotient computation reads the trace on a coarser coset this way.
    ///
    /// # Errors
    /// [`FriError::Polynomials`] for a point past the codeword.
    pub fn lde_values(&self, index: usize, step: usize) -> Result<&[S::F], FriError> {
        let lde_bits = self.degree_log + self.rate_bits;
        let point = index
            .checked_mul(step)
            .filter(|&p| p >> lde_bits == 0)
            .ok_or_else(|| {
                FriError::Polynomials(format!(
                    "point {index}·{step} is past the 2^{lde_bits}-point codeword"
                ))
            })?;
        let row = reverse_bits(point, lde_bits);
        Ok(self
            .tree
            .leaf(row as u64)
            .expect("the row is within the tree"))
    }
}

/// The common `log2` length of a non-empty list of polynomials.
fn check_shape<F>(polynomials: &[Vec<F>]) -> Result<usize, FriError> {
    let first = polynomials
        .first()
        .ok_or_else(|| FriError::Polynomials("nothing to commit".into()))?;
    let n = first.len();
    if !n.is_power_of_two() {
        return Err(FriError::Polynomials(format!(
            "a length of {n} is not a power of two"
        )));
    }
    if let Some(bad) = polynomials.iter().find(|p| p.len() != n) {
        return Err(FriError::Polynomials(format!(
            "polynomials of lengths {n} and {} in one batch",
            bad.len()
        )));
    }
    Ok(n.trailing_zeros() as usize)
}
