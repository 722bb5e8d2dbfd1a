//! The hash functions a tree is built with: how a leaf row becomes a digest, and how `arity`
//! children become their parent — one at a time and in batches (the packed, multi-threaded
//! kernels of `zkaccel-poseidon`).

use zkaccel_field::{Field, PrimeField};
use zkaccel_symmetric::Compression;

use crate::error::MerkleError;

/// A tree's hash functions.
pub trait TreeHasher: Sync {
    /// Leaf elements.
    type Element: PrimeField;
    /// A node.
    type Digest: Copy + Eq + Send + Sync + core::fmt::Debug;

    /// A short name used in proofs and on the command line.
    const NAME: &'static str;
    /// Identifies the hasher in serialised proofs.
    const ID: u8;
    /// Field elements per digest.
    const DIGEST_ELEMENTS: usize;

    /// Children per node.
    fn arity(&self) -> usize;

    /// The hash as kernel traces and the hardware models name it (e.g.
    /// `poseidon-goldilocks-12`): [`TreeHasher::NAME`] unless a hasher names its permutation.
    fn hash_name(&self) -> String {
        Self::NAME.to_string()
    }

    /// Distinguishes instances of one hasher whose digests differ (neptune: 0 for the
    /// Standard strength, 1 for Strengthened); 0 where a hasher has no such parameter.
    fn variant(&self) -> u8 {
        0
    }

    /// Checks that leaves of this width can be hashed.
    ///
    /// # Errors
    /// [`MerkleError::LeafWidth`] when they cannot.
    fn check_leaf_width(&self, width: usize) -> Result<(), MerkleError>;

    /// The digest of one leaf row.
    fn hash_leaf(&self, row: &[Self::Element]) -> Self::Digest;

    /// The digests of consecutive rows of `width` elements (`rows.len() = width·out.len()`).
    fn hash_leaves(&self, rows: &[Self::Element], width: usize, out: &mut [Self::Digest]);

    /// The parent of `arity` children.
    fn compress(&self, children: &[Self::Digest]) -> Self::Digest;

    /// The parents of consecutive groups of `arity` children
    /// (`children.len() = arity·out.len()`).
    fn compress_many(&self, children: &[Self::Digest], out: &mut [Self::Digest]);

    /// The digest's field elements.
    fn digest_elements(d: &Self::Digest) -> Vec<Self::Element>;

    /// A digest from its field elements (exactly [`TreeHasher::DIGEST_ELEMENTS`]).
    fn digest_from_elements(e: &[Self::Element]) -> Self::Digest;
}

/// A tree over field elements with an arity-`k` node hash (any [`Compression`]): leaves are
/// single field elements used as they are, nodes compress `arity` children. `zkaccel_presets`' `NeptuneHasher` is neptune's
/// (Filecoin's) tree builder, its `CircomHasher` the usual circom Merkle gadget over BN254.
#[derive(Debug, Clone)]
pub struct FieldTreeHasher<A, F, const ID: u8> {
    node: A,
    _field: core::marker::PhantomData<F>,
}

impl<A, F, const ID: u8> FieldTreeHasher<A, F, ID> {
    /// Wraps the node hash.
    pub fn new(node: A) -> Self {
        Self {
            node,
            _field: core::marker::PhantomData,
        }
    }

    /// The node hash.
    pub fn node_hasher(&self) -> &A {
        &self.node
    }
}

impl<A: Compression<F>, F: PrimeField, const ID: u8> TreeHasher for FieldTreeHasher<A, F, ID> {
    type Element = F;
    type Digest = F;
    const NAME: &'static str = A::NAME;
    const ID: u8 = ID;
    const DIGEST_ELEMENTS: usize = 1;

    fn arity(&self) -> usize {
        self.node.arity()
    }

    fn variant(&self) -> u8 {
        self.node.variant()
    }

    fn check_leaf_width(&self, width: usize) -> Result<(), MerkleError> {
        single_element_leaves(width)
    }

    fn hash_leaf(&self, row: &[F]) -> F {
        row[0]
    }

    fn hash_leaves(&self, rows: &[F], _width: usize, out: &mut [F]) {
        out.copy_from_slice(rows);
    }

    fn compress(&self, children: &[F]) -> F {
        self.node.compress(children).expect("arity children")
    }

    fn compress_many(&self, children: &[F], out: &mut [F]) {
        let parents = self
            .node
            .compress_many(children)
            .expect("arity·out.len() children");
        out.copy_from_slice(&parents);
    }

    fn digest_elements(d: &F) -> Vec<F> {
        vec![*d]
    }

    fn digest_from_elements(e: &[F]) -> F {
        e[0]
    }
}

fn single_element_leaves(width: usize) -> Result<(), MerkleError> {
    if width != 1 {
        return Err(MerkleError::LeafWidth {
            width,
            reason: "leaves of neptune and circomlib trees are single field elements",
        });
    }
    Ok(())
}

/// The zero digest (unused slots).
pub(crate) fn zero_digest<H: TreeHasher>() -> H::Digest {
    H::digest_from_elements(&vec![H::Element::ZERO; H::DIGEST_ELEMENTS])
}
