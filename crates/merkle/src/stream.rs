//! Trees larger than memory, the AcclMT way: the tree is cut into standard subtrees
//! (`subtree_leaves` leaves each, 4096 by default), built a batch at a time from a leaf stream,
//! and their roots are aggregated hierarchically (one small buffer per level above the
//! subtrees, compressed as soon as it holds whole groups), so memory depends on the subtree
//! size and the parallelism, not on the number of leaves.

use zkaccel_field::{Field, PrimeField};

use crate::commitment::MerkleCommitment;
use crate::error::MerkleError;
use crate::hasher::{zero_digest, TreeHasher};
use crate::limits::{try_filled, MAX_LEAF_WIDTH};
use crate::tree::exact_log;

/// AcclMT's standard subtree: 4096 leaves.
pub const DEFAULT_SUBTREE_LEAVES: usize = 4096;
/// The default memory budget: 1 GiB.
pub const DEFAULT_MEMORY_BUDGET: u64 = 1 << 30;

/// Where leaves come from: fills the next rows in order.
pub trait LeafSource<F> {
    /// Fills `out` (a whole number of rows) with the next leaves.
    ///
    /// # Errors
    /// [`MerkleError::LeafSource`] when the source fails or runs out.
    fn fill(&mut self, out: &mut [F]) -> Result<(), MerkleError>;
}

/// Any closure `(first_row_index, buffer)` is a source (e.g. generated leaves).
impl<F, G: FnMut(u64, &mut [F]) -> Result<(), MerkleError>> LeafSource<F> for (u64, usize, G) {
    fn fill(&mut self, out: &mut [F]) -> Result<(), MerkleError> {
        let (next_row, width, generate) = self;
        generate(*next_row, out)?;
        *next_row += (out.len() / (*width).max(1)) as u64;
        Ok(())
    }
}

/// What to build.
#[derive(Debug, Clone, Copy)]
pub struct StreamConfig {
    /// Number of leaves (a power of the arity).
    pub num_leaves: u64,
    /// Elements per leaf row.
    pub leaf_width: usize,
    /// Height of the cap to return (0 = the root alone).
    pub cap_height: usize,
    /// Leaves per standard subtree, rounded down to a power of the arity.
    pub subtree_leaves: usize,
    /// The most memory the build may hold, in bytes.
    pub memory_budget: u64,
}

impl StreamConfig {
    /// `num_leaves` rows of `leaf_width`, cap height 0, AcclMT's 4096-leaf subtrees, 1 GiB.
    pub fn new(num_leaves: u64, leaf_width: usize) -> Self {
        Self {
            num_leaves,
            leaf_width,
            cap_height: 0,
            subtree_leaves: DEFAULT_SUBTREE_LEAVES,
            memory_budget: DEFAULT_MEMORY_BUDGET,
        }
    }
}

/// The result of a streaming build.
#[derive(Debug, Clone)]
pub struct StreamOutput<D> {
    /// The commitment: the cap (`arity^cap_height` digests) and the tree's shape.
    pub commitment: MerkleCommitment<D>,
    /// Subtrees built together per batch.
    pub subtrees_per_batch: usize,
    /// The leaves per subtree actually used (the whole tree when it is smaller).
    pub subtree_leaves: usize,
    /// The bytes the build's buffers held at most (the data, not the process).
    pub buffer_bytes: u64,
}

/// Builds the cap of a tree whose leaves come from `source`, within `config.memory_budget`.
/// `progress` is called with the number of leaves done after each batch.
///
/// # Errors
/// [`MerkleError::LeafCount`], [`MerkleError::CapHeight`], [`MerkleError::LeafWidth`] and
/// [`MerkleError::SubtreeSize`] for impossible shapes; [`MerkleError::MemoryBudget`] when even
/// one subtree does not fit the budget; errors of the source.
pub fn build_streaming<H: TreeHasher>(
    hasher: &H,
    config: StreamConfig,
    source: &mut impl LeafSource<H::Element>,
    progress: impl FnMut(u64),
) -> Result<StreamOutput<H::Digest>, MerkleError> {
    build_streaming_into(hasher, config, source, &mut (), progress)
}

/// Receives the leaf rows and, level by level in increasing node order, every digest a
/// streaming build computes (level 0 = leaf digests, up to the cap).
pub(crate) trait LevelSink<H: TreeHasher> {
    /// The next leaf rows.
    fn leaves(&mut self, rows: &[H::Element]) -> Result<(), MerkleError>;
    /// The next digests of `level`.
    fn level(&mut self, level: usize, digests: &[H::Digest]) -> Result<(), MerkleError>;
}

/// Keeps nothing.
impl<H: TreeHasher> LevelSink<H> for () {
    fn leaves(&mut self, _rows: &[H::Element]) -> Result<(), MerkleError> {
        Ok(())
    }
    fn level(&mut self, _level: usize, _digests: &[H::Digest]) -> Result<(), MerkleError> {
        Ok(())
    }
}

/// [`build_streaming`], handing every level to `sink` as it is computed.
pub(crate) fn build_streaming_into<H: TreeHasher>(
    hasher: &H,
    config: StreamConfig,
    source: &mut impl LeafSource<H::Element>,
    sink: &mut impl LevelSink<H>,
    mut progress: impl FnMut(u64),
) -> Result<StreamOutput<H::Digest>, MerkleError> {
    let arity = hasher.arity();
    hasher.check_leaf_width(config.leaf_width)?;
    if !(2..=crate::limits::MAX_ARITY).contains(&arity) {
        return Err(MerkleError::Arity(arity));
    }
    if config.leaf_width == 0 || config.leaf_width > MAX_LEAF_WIDTH {
        return Err(MerkleError::LeafWidth {
            width: config.leaf_width,
            reason: "a leaf row has 1 to 2^20 (MAX_LEAF_WIDTH) elements",
        });
    }
    let n = config.num_leaves;
    let depth = exact_log(n, arity).ok_or(MerkleError::LeafCount { leaves: n, arity })?;
    if config.cap_height > depth {
        return Err(MerkleError::CapHeight {
            cap_height: config.cap_height,
            depth,
        });
    }
    // The largest power of the arity not above the requested subtree size (nor the tree).
    let mut sub_depth = 0;
    let mut size = arity as u64;
    while size <= config.subtree_leaves as u64 && sub_depth < depth {
        sub_depth += 1;
        match size.checked_mul(arity as u64) {
            Some(next) => size = next,
            None => break,
        }
    }
    if (config.subtree_leaves as u64) < arity as u64 {
        return Err(MerkleError::SubtreeSize(config.subtree_leaves));
    }
    let sub_leaves = arity.pow(sub_depth as u32);
    let cap_level = depth - config.cap_height; // level (from the leaves) of the cap

    // Memory per subtree in flight: its rows, its leaf digests and the level above. Sizes
    // are checked: a product past u64 cannot fit any budget.
    let digest_bytes = (H::DIGEST_ELEMENTS * H::Element::NUM_BYTES) as u64;
    let elem_bytes = core::mem::size_of::<H::Element>() as u64;
    let over_budget = || MerkleError::MemoryBudget {
        needed: u64::MAX,
        budget: config.memory_budget,
    };
    let per_subtree = (config.leaf_width as u64)
        .checked_mul(elem_bytes)
        .and_then(|row| row.checked_add(digest_bytes + digest_bytes.div_ceil(2)))
        .and_then(|each| each.checked_mul(sub_leaves as u64))
        .ok_or_else(over_budget)?;
    // Above the subtrees: one buffer of fewer than `arity` groups per level, and the cap.
    let cap_len = (arity as u64).pow(config.cap_height as u32);
    let fixed = (depth as u64 * arity as u64 * 2)
        .checked_add(cap_len)
        .and_then(|d| d.checked_mul(digest_bytes))
        .ok_or_else(over_budget)?;
    let needed = per_subtree.checked_add(fixed).ok_or_else(over_budget)?;
    if needed > config.memory_budget {
        return Err(MerkleError::MemoryBudget {
            needed,
            budget: config.memory_budget,
        });
    }
    let total_subtrees = n / sub_leaves as u64;
    let threads = rayon::current_num_threads().max(1) as u64;
    let batch = ((config.memory_budget - fixed) / per_subtree)
        .min(4 * threads)
        .min(total_subtrees)
        .max(1) as usize;

    // Within the budget, so these sizes fit a usize on any platform that holds the budget.
    let mut rows = try_filled(
        batch * sub_leaves * config.leaf_width,
        H::Element::ZERO,
        "the leaf rows of a batch of subtrees",
    )?;
    let mut level = try_filled(batch * sub_leaves, zero_digest::<H>(), "leaf digests")?;
    let mut up = try_filled(
        batch * sub_leaves / arity,
        zero_digest::<H>(),
        "node digests",
    )?;
    let mut cap: Vec<H::Digest> = Vec::new();
    cap.try_reserve_exact(cap_len as usize)
        .map_err(|_| MerkleError::Allocation {
            what: "the cap",
            bytes: cap_len * digest_bytes,
        })?;
    // pending[l]: nodes at level sub_depth + l waiting for their siblings.
    let mut pending: Vec<Vec<H::Digest>> = vec![Vec::new(); depth - sub_depth + 1];
    let mut done = 0u64;
    while done < n {
        let count = ((n - done) / sub_leaves as u64).min(batch as u64) as usize;
        let m = count * sub_leaves;
        let rows = &mut rows[..m * config.leaf_width];
        source.fill(rows)?;
        hasher.hash_leaves(rows, config.leaf_width, &mut level[..m]);
        sink.leaves(rows)?;
        sink.level(0, &level[..m])?;
        // Build the `count` subtrees together, level by level (they are contiguous).
        let mut len = m;
        if cap_level < sub_depth {
            // The cap lies inside the subtrees: stop there.
            for l in 0..cap_level {
                hasher.compress_many(&level[..len], &mut up[..len / arity]);
                len /= arity;
                level[..len].copy_from_slice(&up[..len]);
                sink.level(l + 1, &level[..len])?;
            }
            cap.extend_from_slice(&level[..len]);
            done += m as u64;
            progress(done);
            continue;
        }
        for l in 0..sub_depth {
            hasher.compress_many(&level[..len], &mut up[..len / arity]);
            len /= arity;
            level[..len].copy_from_slice(&up[..len]);
            sink.level(l + 1, &level[..len])?;
        }
        // Hierarchical aggregation of the subtree roots.
        pending[0].extend_from_slice(&level[..len]);
        for l in 0..pending.len() {
            let abs = sub_depth + l;
            if abs == cap_level {
                cap.append(&mut pending[l]);
                break;
            }
            let whole = pending[l].len() / arity * arity;
            if whole == 0 {
                break;
            }
            let mut parents = vec![zero_digest::<H>(); whole / arity];
            hasher.compress_many(&pending[l][..whole], &mut parents);
            sink.level(abs + 1, &parents)?;
            pending[l].drain(..whole);
            pending[l + 1].extend_from_slice(&parents);
        }
        done += m as u64;
        progress(done);
    }
    let held = batch as u64 * per_subtree + fixed;
    let commitment = MerkleCommitment::new(hasher, n, config.leaf_width, config.cap_height, cap)?;
    Ok(StreamOutput {
        commitment,
        subtrees_per_batch: batch,
        subtree_leaves: sub_leaves,
        buffer_bytes: held,
    })
}
