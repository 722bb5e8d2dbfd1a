//! Polynomials committed together: values → coefficients → coset LDE → a Merkle tree whose
//! leaf `i` holds every polynomial's value at the bit-reversed point `i` (plonky2's
//! `PolynomialBatch`, without blinding: starky commits nothing salted).

use std::time::{Duration, Instant};

use rayon::prelude::*;
use zkaccel_kernel_trace::{Kernel, KernelId, KernelSink, LeafLayout, NttLayout, NttOrder};
use zkaccel_merkle::{MerkleTree, TreeHasher};
use zkaccel_ntt::{reverse_bits, Order};

use crate::scheme::{Digest, FriScheme};
use crate::{FriError, PolynomialsError};

/// A batch of polynomials of one length `2^degree_log`, committed by the cap of the Merkle tree
/// over their low-degree extensions (`2^rate_bits` times longer, on the coset
/// `shift·⟨ω⟩`).
///
/// A batch times its own build; [`PolynomialBatch::record_kernels`] describes it to a
/// [`KernelSink`] afterwards (the interpolation, the LDE, the transpose into leaf rows, the
/// tree), so building one costs nothing for kernel traces.
#[derive(Debug, Clone)]
pub struct PolynomialBatch<S: FriScheme> {
    polynomials: Vec<Vec<S::F>>,
    tree: MerkleTree<S::Hasher>,
    degree_log: usize,
    rate_bits: usize,
    times: BuildTimes,
    kernels: BatchKernels,
}

/// How long each step of a batch's build took (the interpolation only for
/// [`PolynomialBatch::from_values`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct BuildTimes {
    interpolation: Option<Duration>,
    lde: Duration,
    transpose: Duration,
    tree: Duration,
}

/// The kernels of a trace that built a batch (all 0 until it is recorded): what its
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
        let log_n = check_shape(&values)?;
        let plan = S::base_plan(log_n)?;
        let started = Instant::now();
        let mut coefficients = values;
        coefficients
            .par_iter_mut()
            .try_for_each(|v| plan.inverse(v, Order::NN))?;
        let interpolation = started.elapsed();
        let mut batch = Self::from_coeffs(coefficients, rate_bits, cap_height)?;
        batch.times.interpolation = Some(interpolation);
        Ok(batch)
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
        let started = Instant::now();
        let mut ldes = polynomials
            .par_iter()
            .map(|p| plan.lde(p, rate_bits, shift))
            .collect::<Result<Vec<_>, _>>()?;
        let width = polynomials.len();
        let lde = started.elapsed();
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
        let transpose = started.elapsed();
        let started = Instant::now();
        let tree = MerkleTree::new(S::hasher(), leaves, width, cap_height)?;
        let tree_time = started.elapsed();
        Ok(Self {
            polynomials,
            tree,
            degree_log,
            rate_bits,
            times: BuildTimes {
                interpolation: None,
                lde,
                transpose,
                tree: tree_time,
            },
            kernels: BatchKernels::default(),
        })
    }

    /// Describes the kernels that built this batch to `sink`, in `phase`, with their times:
    /// the interpolation (for a batch built from values), the coset LDE, the transpose into
    /// leaf rows and the Merkle tree; the first depends on `deps`, the producers of the
    /// input. Returns their ids, which [`PolynomialBatch::kernels`] keeps (FRI's kernels
    /// depend on them).
    ///
    /// # Errors
    /// [`FriError::Untraceable`] when recording a batch over a field the kernel-trace schema
    /// does not name.
    pub fn record_kernels(
        &mut self,
        sink: &mut impl KernelSink,
        phase: &str,
        deps: &[KernelId],
    ) -> Result<&BatchKernels, FriError> {
        if !sink.is_recording() {
            return Ok(&self.kernels);
        }
        let field = crate::TraceNames::of::<S>(sink)?.base;
        let width = self.polynomials.len() as u64;
        let times = self.times;
        let mut coefficients = deps.to_vec();
        if let Some(elapsed) = times.interpolation {
            coefficients = vec![sink.record_elapsed(phase, deps, elapsed, || Kernel::Ntt {
                field,
                log_n: self.degree_log as u32,
                batch: width,
                inverse: true,
                coset: false,
                order: NttOrder::Nn,
                layout: NttLayout::PolyMajor,
                zero_log: 0,
            })];
        }
        let lde_bits = self.degree_log + self.rate_bits;
        let lde = sink.record_elapsed(phase, &coefficients, times.lde, || Kernel::Ntt {
            field,
            log_n: lde_bits as u32,
            batch: width,
            inverse: false,
            coset: true,
            order: NttOrder::Nn,
            layout: NttLayout::PolyMajor,
            zero_log: self.rate_bits as u32,
        });
        let leaves = sink.record_elapsed(phase, &[lde], times.transpose, || Kernel::Transpose {
            rows: width,
            cols: 1u64 << lde_bits,
            elem_bytes: field.element_bytes(),
        });
        let tree = sink.record_elapsed(phase, &[leaves], times.tree, || Kernel::Merkle {
            hash: S::hasher().hash_name(),
            log_leaves: lde_bits as u32,
            leaf_width: width,
            cap_height: self.tree.cap_height() as u32,
            arity: 2,
            leaf_layout: LeafLayout::Rows,
        });
        self.kernels = BatchKernels {
            coefficients,
            leaves,
            tree,
        };
        Ok(&self.kernels)
    }

    /// The kernels that built this batch, as [`PolynomialBatch::record_kernels`] recorded
    /// them (all 0 before).
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
            .ok_or(PolynomialsError::PastCodeword {
                index,
                step,
                lde_bits,
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
    let first = polynomials.first().ok_or(PolynomialsError::Empty)?;
    let n = first.len();
    if !n.is_power_of_two() {
        return Err(PolynomialsError::NotPowerOfTwo { len: n }.into());
    }
    if let Some(bad) = polynomials.iter().find(|p| p.len() != n) {
        return Err(PolynomialsError::MixedLengths {
            first: n,
            other: bad.len(),
        }
        .into());
    }
    Ok(n.trailing_zeros() as usize)
}
