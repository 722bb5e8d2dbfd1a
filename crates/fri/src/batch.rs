//! Polynomials committed together: values → coefficients → coset LDE → a Merkle tree whose
//! leaf `i` holds every polynomial's value at the bit-reversed point `i` (plonky2's
//! `PolynomialBatch`, without blinding: starky commits nothing salted).

use std::time::Instant;

use rayon::prelude::*;
use zkaccel_kernel_trace::{Kernel, KernelId, LeafLayout, NttLayout, NttOrder, Tracer};
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
    kernels: BatchKernels,
}

/// The kernels of a trace that built a batch (all 0 when it was built untraced): what its
/// coefficients came from, the LDE laid out as leaves, and the tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BatchKernels {
    /// The kernels that produced the coefficients (the interpolation, or the caller's).
    pub coefficients: Vec<KernelId>,
    /// The transpose that laid the LDE out as leaf rows.
    pub leaves: KernelId,
    /// The Merkle tree.
    pub tree: KernelId,
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
        Self::from_values_traced(values, rate_bits, cap_height, &mut Tracer::off(), "", &[])
    }

    /// [`PolynomialBatch::from_values`], recording its kernels in `phase` (the interpolation
    /// depending on `deps`, the producers of the values).
    ///
    /// # Errors
    /// As [`PolynomialBatch::from_coeffs`].
    pub fn from_values_traced(
        values: Vec<Vec<S::F>>,
        rate_bits: usize,
        cap_height: usize,
        tracer: &mut Tracer,
        phase: &str,
        deps: &[KernelId],
    ) -> Result<Self, FriError> {
        let log_n = check_shape(&values)?;
        let plan = S::base_plan(log_n)?;
        let started = Instant::now();
        let mut coefficients = values;
        coefficients
            .par_iter_mut()
            .try_for_each(|v| plan.inverse(v, Order::NN))?;
        let interpolation = tracer.record(
            phase,
            deps,
            Kernel::Ntt {
                field: S::TRACE_FIELD,
                log_n: log_n as u32,
                batch: coefficients.len() as u64,
                inverse: true,
                coset: false,
                order: NttOrder::Nn,
                layout: NttLayout::PolyMajor,
                zero_log: 0,
            },
            started,
        );
        Self::from_coeffs_traced(
            coefficients,
            rate_bits,
            cap_height,
            tracer,
            phase,
            &[interpolation],
        )
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
        Self::from_coeffs_traced(
            polynomials,
            rate_bits,
            cap_height,
            &mut Tracer::off(),
            "",
            &[],
        )
    }

    /// [`PolynomialBatch::from_coeffs`], recording its kernels (the LDE, the transpose into
    /// leaf rows, the tree) in `phase`, the LDE depending on `deps`, the producers of the
    /// coefficients.
    ///
    /// # Errors
    /// As [`PolynomialBatch::from_coeffs`].
    pub fn from_coeffs_traced(
        polynomials: Vec<Vec<S::F>>,
        rate_bits: usize,
        cap_height: usize,
        tracer: &mut Tracer,
        phase: &str,
        deps: &[KernelId],
    ) -> Result<Self, FriError> {
        let degree_log = check_shape(&polynomials)?;
        let lde_bits = degree_log + rate_bits;
        let plan = S::base_plan(lde_bits)?;
        let shift = S::coset_shift();
        let started = Instant::now();
        let mut ldes = polynomials
            .par_iter()
            .map(|p| plan.lde(p, rate_bits, shift))
            .collect::<Result<Vec<_>, _>>()?;
        let width = polynomials.len();
        let lde = tracer.record(
            phase,
            deps,
            Kernel::Ntt {
                field: S::TRACE_FIELD,
                log_n: lde_bits as u32,
                batch: width as u64,
                inverse: false,
                coset: true,
                order: NttOrder::Nn,
                layout: NttLayout::PolyMajor,
                zero_log: rate_bits as u32,
            },
            started,
        );
        let started = Instant::now();
        let rows = 1usize << lde_bits;
        // Each codeword in bit-reversed order (a cache-blocked permutation), then the rows
        // interleaved sequentially: leaf `row` holds every codeword's value at the point
        // `reverse_bits(row)`.
        ldes.par_iter_mut()
            .try_for_each(|lde| zkaccel_ntt::bit_reverse(lde, 1))?;
        let mut leaves = vec![S::F::default(); rows * width];
        leaves
            .par_chunks_mut(width << 12)
            .enumerate()
            .for_each(|(block, chunk)| {
                let first = block << 12;
                for (r, leaf) in chunk.chunks_exact_mut(width).enumerate() {
                    for (value, lde) in leaf.iter_mut().zip(&ldes) {
                        *value = lde[first + r];
                    }
                }
            });
        drop(ldes);
        let transpose = tracer.record(
            phase,
            &[lde],
            Kernel::Transpose {
                rows: width as u64,
                cols: rows as u64,
                elem_bytes: S::TRACE_FIELD.element_bytes(),
            },
            started,
        );
        let started = Instant::now();
        let tree = MerkleTree::new(S::hasher(), leaves, width, cap_height)?;
        let tree_id = tracer.record(
            phase,
            &[transpose],
            Kernel::Merkle {
                hash: S::TRACE_HASH.into(),
                log_leaves: lde_bits as u32,
                leaf_width: width as u64,
                cap_height: cap_height as u32,
                arity: 2,
                leaf_layout: LeafLayout::Rows,
            },
            started,
        );
        Ok(Self {
            polynomials,
            tree,
            degree_log,
            rate_bits,
            kernels: BatchKernels {
                coefficients: deps.to_vec(),
                leaves: transpose,
                tree: tree_id,
            },
        })
    }

    /// The kernels that built this batch, in the trace it was built with.
    pub fn kernels(&self) -> &BatchKernels {
        &self.kernels
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
