//! In-memory trees: every level kept, so any leaf can be opened.

use zkaccel_codec::DecodeError;

use crate::commitment::MerkleCommitment;
use crate::error::MerkleError;
use crate::hasher::TreeHasher;
use crate::limits::{try_filled, MAX_LEAF_WIDTH};
use crate::proof::MerkleProof;

/// `log_arity(n)` when `n` is a power of `arity` (`n ≥ 1`).
pub fn exact_log(n: u64, arity: usize) -> Option<usize> {
    if n == 0 || arity < 2 {
        return None;
    }
    let (mut m, mut d) = (n, 0);
    while m > 1 {
        if m % arity as u64 != 0 {
            return None;
        }
        m /= arity as u64;
        d += 1;
    }
    Some(d)
}

/// A Merkle tree with all its levels, from the leaf digests up to the cap.
#[derive(Debug, Clone)]
pub struct MerkleTree<H: TreeHasher> {
    hasher: H,
    leaf_width: usize,
    leaves: Vec<H::Element>,
    depth: usize,
    cap_height: usize,
    /// `levels[0]` = leaf digests, …, `levels[depth − cap_height]` = the cap.
    levels: Vec<Vec<H::Digest>>,
}

impl<H: TreeHasher> MerkleTree<H> {
    /// Builds the tree over `leaves` (rows of `leaf_width` elements, row-major) with a cap of
    /// height `cap_height` (`arity^cap_height` digests; 0 = a single root).
    ///
    /// # Errors
    /// [`MerkleError::LeafCount`] unless the number of rows is a power of the arity;
    /// [`MerkleError::CapHeight`] when the cap is deeper than the tree;
    /// [`MerkleError::LeafWidth`] for rows the hasher cannot take.
    pub fn new(
        hasher: H,
        leaves: Vec<H::Element>,
        leaf_width: usize,
        cap_height: usize,
    ) -> Result<Self, MerkleError> {
        hasher.check_leaf_width(leaf_width)?;
        let arity = hasher.arity();
        if !(2..=crate::limits::MAX_ARITY).contains(&arity) {
            return Err(MerkleError::Arity(arity));
        }
        let n = leaves.len().checked_div(leaf_width).unwrap_or(0);
        if leaf_width == 0 || leaf_width > MAX_LEAF_WIDTH || n * leaf_width != leaves.len() {
            return Err(MerkleError::LeafWidth {
                width: leaf_width,
                reason:
                    "the leaf data must be a whole number of rows of 1 to 2^20 (MAX_LEAF_WIDTH) elements",
            });
        }
        let depth = exact_log(n as u64, arity).ok_or(MerkleError::LeafCount {
            leaves: n as u64,
            arity,
        })?;
        if cap_height > depth {
            return Err(MerkleError::CapHeight { cap_height, depth });
        }
        let mut level = try_filled(n, crate::hasher::zero_digest::<H>(), "leaf digests")?;
        hasher.hash_leaves(&leaves, leaf_width, &mut level);
        let mut levels = vec![level];
        for _ in 0..depth - cap_height {
            let below = levels.last().expect("at least the leaf level");
            let mut up = try_filled(
                below.len() / arity,
                crate::hasher::zero_digest::<H>(),
                "node digests",
            )?;
            hasher.compress_many(below, &mut up);
            levels.push(up);
        }
        Ok(Self {
            hasher,
            leaf_width,
            leaves,
            depth,
            cap_height,
            levels,
        })
    }

    /// The hasher.
    pub fn hasher(&self) -> &H {
        &self.hasher
    }

    /// Number of leaves.
    pub fn num_leaves(&self) -> u64 {
        self.levels[0].len() as u64
    }

    /// `log_arity(num_leaves)`.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The cap height.
    pub fn cap_height(&self) -> usize {
        self.cap_height
    }

    /// The commitment: `arity^cap_height` digests (one root when the cap height is 0).
    pub fn cap(&self) -> &[H::Digest] {
        self.levels.last().expect("at least one level")
    }

    /// The commitment a verifier holds openings of this tree to: the cap and the shape.
    pub fn commitment(&self) -> MerkleCommitment<H::Digest> {
        MerkleCommitment::new(
            &self.hasher,
            self.num_leaves(),
            self.leaf_width,
            self.cap_height,
            self.cap().to_vec(),
        )
        .expect("a built tree has a valid shape")
    }

    /// The digests at `level` (0 = leaf digests, up to `depth − cap_height` = the cap).
    pub fn level(&self, level: usize) -> Option<&[H::Digest]> {
        self.levels.get(level).map(Vec::as_slice)
    }

    /// Row `index` of the leaves.
    pub fn leaf(&self, index: u64) -> Option<&[H::Element]> {
        let i = usize::try_from(index).ok()?;
        self.leaves
            .get(i * self.leaf_width..(i + 1) * self.leaf_width)
    }

    /// The width of a leaf row.
    pub fn leaf_width(&self) -> usize {
        self.leaf_width
    }

    /// A proof for the leaves at `indices` (any order, duplicates ignored): the siblings
    /// needed to recompute the cap, each sent once.
    ///
    /// # Errors
    /// [`MerkleError::IndexOutOfRange`] for an index past the last leaf;
    /// [`MerkleError::MalformedProof`] for an empty index list.
    pub fn prove(&self, indices: &[u64]) -> Result<MerkleProof<H::Digest>, MerkleError> {
        let known = normalize_indices(indices, self.num_leaves())?;
        let arity = self.hasher.arity() as u64;
        let levels = self.depth - self.cap_height;
        let siblings = collect_siblings(arity, levels, known.clone(), |l, i| {
            Ok(self.levels[l][i as usize])
        })?;
        Ok(MerkleProof {
            hasher_id: H::ID,
            arity: self.hasher.arity(),
            depth: self.depth,
            cap_height: self.cap_height,
            indices: known,
            siblings,
        })
    }
}

impl<H: TreeHasher> MerkleTree<H> {
    /// The authentication path of one leaf, as plonky2's `MerkleTree::prove` gives it: for
    /// each level from the leaves up to the cap, the other `arity − 1` children of the node
    /// on the leaf's path, in child order. [`verify_path`] checks it against the cap.
    ///
    /// # Errors
    /// [`MerkleError::IndexOutOfRange`] for an index past the last leaf.
    pub fn path(&self, index: u64) -> Result<Vec<H::Digest>, MerkleError> {
        let leaves = self.num_leaves();
        if index >= leaves {
            return Err(MerkleError::IndexOutOfRange { index, leaves });
        }
        let arity = self.hasher.arity();
        let mut i = index as usize;
        let mut path = Vec::with_capacity((self.depth - self.cap_height) * (arity - 1));
        for level in &self.levels[..self.depth - self.cap_height] {
            let first = i - i % arity;
            path.extend((first..first + arity).filter(|&c| c != i).map(|c| level[c]));
            i /= arity;
        }
        Ok(path)
    }
}

/// Checks the authentication path of one leaf ([`MerkleTree::path`]) against a cap, as
/// plonky2's `verify_merkle_proof_to_cap` does: the leaf row is hashed, each level's siblings
/// joined to it at the position the index gives, and the result must be the cap digest the
/// remaining index names. The caller fixes the shape: `path` must hold exactly
/// `(arity − 1)·levels` digests for the `levels` between the leaves and the cap, which a
/// verifier derives from what it committed to, never from the proof.
///
/// # Errors
/// [`MerkleError::MalformedProof`] for a path whose length is not `(arity − 1)·levels`, or an
/// index beyond the cap; [`MerkleError::LeafRow`] for an empty row; [`MerkleError::Mismatch`]
/// when the path leads to another digest than the cap's.
pub fn verify_path<H: TreeHasher>(
    hasher: &H,
    cap: &[H::Digest],
    levels: usize,
    index: u64,
    leaf: &[H::Element],
    path: &[H::Digest],
) -> Result<(), MerkleError> {
    let arity = hasher.arity();
    if arity < 2 {
        return Err(MerkleError::Arity(arity));
    }
    DecodeError::expect_len(
        "the path's digests",
        levels.saturating_mul(arity - 1) as u64,
        path.len() as u64,
    )?;
    if leaf.is_empty() {
        return Err(MerkleError::LeafRow {
            row: 0,
            expected: 1,
            found: 0,
        });
    }
    let mut digest = hasher.hash_leaf(leaf);
    let mut i = index;
    let mut children = Vec::with_capacity(arity);
    for siblings in path.chunks_exact(arity - 1) {
        let position = (i % arity as u64) as usize;
        children.clear();
        children.extend_from_slice(&siblings[..position]);
        children.push(digest);
        children.extend_from_slice(&siblings[position..]);
        digest = hasher.compress(&children);
        i /= arity as u64;
    }
    match usize::try_from(i).ok().and_then(|i| cap.get(i)) {
        Some(top) if *top == digest => Ok(()),
        Some(_) => Err(MerkleError::Mismatch),
        None => Err(DecodeError::OutOfRange {
            what: "the path's index",
            min: 0,
            max: (cap.len() as u64)
                .saturating_mul((arity as u64).saturating_pow(levels as u32))
                .saturating_sub(1),
            got: index,
        }
        .into()),
    }
}

/// How many siblings a multiproof of the sorted, distinct `indices` carries over `levels`
/// levels of `arity` (the walk of [`collect_siblings`], without the digests).
fn sibling_count(arity: u64, levels: usize, indices: &[u64]) -> u64 {
    let mut known = indices.to_vec();
    let mut count = 0u64;
    for _ in 0..levels {
        let mut parents: Vec<u64> = known.iter().map(|i| i / arity).collect();
        parents.dedup();
        count = count.saturating_add((parents.len() as u64 * arity) - known.len() as u64);
        known = parents;
    }
    count
}

fn siblings_shape(needed: u64, got: usize) -> MerkleError {
    DecodeError::Length {
        what: "the siblings",
        expected: needed,
        got: got as u64,
    }
    .into()
}

/// The opened indices sorted and deduplicated.
///
/// # Errors
/// [`MerkleError::MalformedProof`] for none, [`MerkleError::IndexOutOfRange`] past `num_leaves`.
pub(crate) fn normalize_indices(indices: &[u64], num_leaves: u64) -> Result<Vec<u64>, MerkleError> {
    let mut known: Vec<u64> = indices.to_vec();
    known.sort_unstable();
    known.dedup();
    if known.is_empty() {
        return Err(DecodeError::OutOfRange {
            what: "the leaves to open",
            min: 1,
            max: num_leaves,
            got: 0,
        }
        .into());
    }
    if let Some(&bad) = known.iter().find(|&&i| i >= num_leaves) {
        return Err(MerkleError::IndexOutOfRange {
            index: bad,
            leaves: num_leaves,
        });
    }
    Ok(known)
}

/// The siblings of a multiproof for the sorted leaf indices `known`, in the canonical order
/// (level by level from the leaves, increasing index): `node(level, index)` fetches one.
pub(crate) fn collect_siblings<D>(
    arity: u64,
    levels: usize,
    mut known: Vec<u64>,
    mut node: impl FnMut(usize, u64) -> Result<D, MerkleError>,
) -> Result<Vec<D>, MerkleError> {
    let mut siblings = Vec::new();
    for level in 0..levels {
        let mut parents: Vec<u64> = known.iter().map(|i| i / arity).collect();
        parents.dedup();
        let mut k = known.iter().peekable();
        for &g in &parents {
            for c in g * arity..(g + 1) * arity {
                if k.peek() == Some(&&c) {
                    k.next();
                } else {
                    siblings.push(node(level, c)?);
                }
            }
        }
        known = parents;
    }
    Ok(siblings)
}

/// Checks `proof` against `commitment`, for the opened `leaves` (one row per index of the
/// proof, in the proof's ascending index order).
///
/// The tree's shape comes from the commitment, never from the proof: a proof of another depth,
/// cap height, arity or hasher, or a leaf row of another width, is rejected before any hashing.
///
/// # Errors
/// [`MerkleError::WrongHasher`] when the commitment or the proof was made with another hash;
/// [`MerkleError::ProofShape`] when the proof's depth, cap height or arity differ from the
/// commitment's; [`MerkleError::LeafRow`] for a row that is not `leaf_width` long;
/// [`MerkleError::MalformedProof`] for indices out of order or out of range, the wrong number
/// of rows or siblings; [`MerkleError::Mismatch`] when it is well formed but leads to another
/// cap.
pub fn verify<H: TreeHasher>(
    hasher: &H,
    commitment: &MerkleCommitment<H::Digest>,
    leaves: &[&[H::Element]],
    proof: &MerkleProof<H::Digest>,
) -> Result<(), MerkleError> {
    commitment.check_hasher(hasher)?;
    if proof.hasher_id != H::ID {
        return Err(MerkleError::WrongHasher {
            committed: format!("{:?}", commitment.hasher()),
            given: format!("a proof for hasher id {}", proof.hasher_id),
        });
    }
    let arity = commitment.arity();
    for (what, committed, found) in [
        ("arity", arity, proof.arity),
        ("depth", commitment.depth(), proof.depth),
        ("cap height", commitment.cap_height(), proof.cap_height),
    ] {
        if committed != found {
            return Err(MerkleError::ProofShape {
                what,
                committed: committed as u64,
                proof: found as u64,
            });
        }
    }
    DecodeError::expect_range(
        "the opened indices",
        proof.indices.len() as u64,
        1,
        commitment.num_leaves(),
    )?;
    DecodeError::expect_len(
        "the opened leaf rows (one per index)",
        proof.indices.len() as u64,
        leaves.len() as u64,
    )?;
    if let Some((row, r)) = leaves
        .iter()
        .enumerate()
        .find(|(_, r)| r.len() != commitment.leaf_width())
    {
        return Err(MerkleError::LeafRow {
            row,
            expected: commitment.leaf_width(),
            found: r.len(),
        });
    }
    if !proof.indices.windows(2).all(|w| w[0] < w[1]) {
        return Err(DecodeError::NotIncreasing {
            what: "the opened indices",
        }
        .into());
    }
    if let Some(&last) = proof.indices.last() {
        DecodeError::expect_range("an opened index", last, 0, commitment.num_leaves() - 1)?;
    }
    let levels = commitment.depth() - commitment.cap_height();
    // The multiproof's sibling count follows from the indices alone: checked before hashing.
    let needed = sibling_count(arity as u64, levels, &proof.indices);
    DecodeError::expect_len("the siblings", needed, proof.siblings.len() as u64)?;
    let mut known: Vec<(u64, H::Digest)> = proof
        .indices
        .iter()
        .zip(leaves)
        .map(|(&i, row)| (i, hasher.hash_leaf(row)))
        .collect();
    let mut siblings = proof.siblings.iter();
    let mut children = Vec::with_capacity(arity);
    for _ in 0..levels {
        let mut next: Vec<(u64, H::Digest)> = Vec::with_capacity(known.len());
        let mut k = known.iter().peekable();
        while let Some(&&(first, _)) = k.peek() {
            let g = first / arity as u64;
            children.clear();
            for c in g * arity as u64..(g + 1) * arity as u64 {
                match k.peek() {
                    Some(&&(i, d)) if i == c => {
                        children.push(d);
                        k.next();
                    }
                    _ => match siblings.next() {
                        Some(&s) => children.push(s),
                        // Unreachable: the count was checked against `needed` above.
                        None => return Err(siblings_shape(needed, proof.siblings.len())),
                    },
                }
            }
            next.push((g, hasher.compress(&children)));
        }
        known = next;
    }
    if siblings.next().is_some() {
        return Err(siblings_shape(needed, proof.siblings.len()));
    }
    let cap = commitment.cap();
    for (i, d) in known {
        if cap[i as usize] != d {
            return Err(MerkleError::Mismatch);
        }
    }
    Ok(())
}
