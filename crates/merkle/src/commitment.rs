//! What a verifier must know about a tree before it looks at an opening.
//!
//! A cap alone does not pin a tree: a "proof" whose depth equals the cap height, with no
//! siblings and a leaf row equal to a cap digest, leads to that cap for any tree, and a proof
//! of smaller depth opens an internal node as if it were a leaf. A [`MerkleCommitment`] binds
//! the cap to the hash that built it ([`HasherIdentity`]: hasher, variant, arity, field), the
//! number of leaves and the width of a leaf row; [`crate::verify`] takes the shape from the
//! commitment and rejects any proof or leaf row that disagrees with it.
//!
//! Canonical encoding, little-endian:
//!
//! ```text
//! "ZKMC" | version u8 (1) | hasher id u8 | variant u8 | arity u8 | depth u8 | cap height u8
//!        | digest elements u8 | element bytes u8 | leaf width u32 | field name length u8
//!        | field name (UTF-8) | the arity^cap_height cap digests (canonical elements)
//! ```

use zkaccel_codec::{ByteReader, DecodeError};
use zkaccel_field::PrimeField;

use crate::error::MerkleError;
use crate::hasher::TreeHasher;
use crate::limits::{MAX_ARITY, MAX_LEAF_WIDTH};
use crate::tree::exact_log;

const MAGIC: &[u8; 4] = b"ZKMC";
const VERSION: u8 = 1;

/// Which hash function built a tree: everything that changes a digest besides the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HasherIdentity {
    /// [`TreeHasher::ID`]: plonky2 (1), neptune (2), circomlib (3).
    pub id: u8,
    /// [`TreeHasher::variant`]: the parameters within one hasher (neptune's strength).
    pub variant: u8,
    /// Children per node.
    pub arity: usize,
    /// The leaf and digest field ([`PrimeField::NAME`]).
    pub field: &'static str,
}

impl HasherIdentity {
    /// The identity of `hasher`.
    pub fn of<H: TreeHasher>(hasher: &H) -> Self {
        Self {
            id: H::ID,
            variant: hasher.variant(),
            arity: hasher.arity(),
            field: H::Element::NAME,
        }
    }
}

/// A commitment to a Merkle tree: its cap and the shape a verifier must hold every opening to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MerkleCommitment<D> {
    hasher: HasherIdentity,
    num_leaves: u64,
    depth: usize,
    leaf_width: usize,
    cap_height: usize,
    cap: Vec<D>,
}

impl<D: Copy + Eq> MerkleCommitment<D> {
    /// The commitment to a tree of `num_leaves` rows of `leaf_width` elements built with
    /// `hasher`, whose cap of height `cap_height` is `cap`.
    ///
    /// # Errors
    /// [`MerkleError::LeafCount`] unless `num_leaves` is a power of the arity;
    /// [`MerkleError::LeafWidth`] for a width the hasher does not take (or over
    /// [`MAX_LEAF_WIDTH`]); [`MerkleError::CapHeight`] for a cap deeper than the tree;
    /// [`MerkleError::CapLength`] unless `cap` has `arity^cap_height` digests.
    pub fn new<H: TreeHasher<Digest = D>>(
        hasher: &H,
        num_leaves: u64,
        leaf_width: usize,
        cap_height: usize,
        cap: Vec<D>,
    ) -> Result<Self, MerkleError> {
        hasher.check_leaf_width(leaf_width)?;
        Self::with_identity(
            HasherIdentity::of(hasher),
            num_leaves,
            leaf_width,
            cap_height,
            cap,
        )
    }

    /// The commitment to a tree assembled from its aligned standard subtrees (AcclMT's
    /// decomposition; each built on its own, on any machine): `roots` are the roots of the
    /// `arity^k` subtrees in leaf order, i.e. the tree's cap at height `k`; the levels above
    /// them are compressed up to `cap_height` (≤ k). Equal to the commitment of the tree built
    /// whole.
    ///
    /// # Errors
    /// [`MerkleError::CapLength`] unless `roots` has a power-of-the-arity length that divides
    /// the leaves; [`MerkleError::CapHeight`] when `cap_height` is above the subtree roots; the
    /// errors of [`MerkleCommitment::new`].
    pub fn from_subtree_roots<H: TreeHasher<Digest = D>>(
        hasher: &H,
        roots: &[D],
        num_leaves: u64,
        leaf_width: usize,
        cap_height: usize,
    ) -> Result<Self, MerkleError> {
        let arity = hasher.arity();
        let roots_height = exact_log(roots.len() as u64, arity)
            .filter(|_| num_leaves.is_multiple_of(roots.len() as u64))
            .ok_or(MerkleError::CapLength {
                // The nearest meaningful count: one root per leaf is always allowed.
                expected: num_leaves,
                found: roots.len() as u64,
            })?;
        if cap_height > roots_height {
            return Err(MerkleError::CapHeight {
                cap_height,
                depth: roots_height,
            });
        }
        let mut level = roots.to_vec();
        for _ in cap_height..roots_height {
            let mut up = vec![level[0]; level.len() / arity];
            hasher.compress_many(&level, &mut up);
            level = up;
        }
        Self::new(hasher, num_leaves, leaf_width, cap_height, level)
    }

    fn with_identity(
        hasher: HasherIdentity,
        num_leaves: u64,
        leaf_width: usize,
        cap_height: usize,
        cap: Vec<D>,
    ) -> Result<Self, MerkleError> {
        let arity = hasher.arity;
        if !(2..=MAX_ARITY).contains(&arity) {
            return Err(MerkleError::Arity(arity));
        }
        let depth = exact_log(num_leaves, arity).ok_or(MerkleError::LeafCount {
            leaves: num_leaves,
            arity,
        })?;
        if leaf_width == 0 || leaf_width > MAX_LEAF_WIDTH {
            return Err(MerkleError::LeafWidth {
                width: leaf_width,
                reason: "a leaf row has 1 to 2^20 (MAX_LEAF_WIDTH) elements",
            });
        }
        if cap_height > depth {
            return Err(MerkleError::CapHeight { cap_height, depth });
        }
        // arity^cap_height ≤ num_leaves, so this cannot overflow.
        let cap_len = (arity as u64).pow(cap_height as u32);
        if cap.len() as u64 != cap_len {
            return Err(MerkleError::CapLength {
                expected: cap_len,
                found: cap.len() as u64,
            });
        }
        Ok(Self {
            hasher,
            num_leaves,
            depth,
            leaf_width,
            cap_height,
            cap,
        })
    }

    /// The hash function that built the tree.
    pub fn hasher(&self) -> HasherIdentity {
        self.hasher
    }

    /// Children per node.
    pub fn arity(&self) -> usize {
        self.hasher.arity
    }

    /// Number of leaves.
    pub fn num_leaves(&self) -> u64 {
        self.num_leaves
    }

    /// `log_arity(num_leaves)`.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Elements per leaf row.
    pub fn leaf_width(&self) -> usize {
        self.leaf_width
    }

    /// The cap height (0 = a single root).
    pub fn cap_height(&self) -> usize {
        self.cap_height
    }

    /// The cap: `arity^cap_height` digests.
    pub fn cap(&self) -> &[D] {
        &self.cap
    }

    /// Checks that this commitment was made with `hasher`.
    ///
    /// # Errors
    /// [`MerkleError::WrongHasher`] when the identities differ.
    pub fn check_hasher<H: TreeHasher<Digest = D>>(&self, hasher: &H) -> Result<(), MerkleError> {
        let given = HasherIdentity::of(hasher);
        if given != self.hasher {
            return Err(MerkleError::WrongHasher {
                committed: format!("{:?}", self.hasher),
                given: format!("{given:?}"),
            });
        }
        Ok(())
    }

    /// The canonical encoding.
    pub fn to_bytes<H: TreeHasher<Digest = D>>(&self) -> Vec<u8> {
        let name = self.hasher.field.as_bytes();
        let mut out = Vec::with_capacity(
            24 + name.len() + self.cap.len() * H::DIGEST_ELEMENTS * H::Element::NUM_BYTES,
        );
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[
            VERSION,
            self.hasher.id,
            self.hasher.variant,
            self.hasher.arity as u8,
            self.depth as u8,
            self.cap_height as u8,
            H::DIGEST_ELEMENTS as u8,
            H::Element::NUM_BYTES as u8,
        ]);
        out.extend_from_slice(&(self.leaf_width as u32).to_le_bytes());
        out.push(name.len() as u8);
        out.extend_from_slice(name);
        for d in &self.cap {
            for e in H::digest_elements(d) {
                out.extend_from_slice(&e.to_bytes_le());
            }
        }
        out
    }

    /// Decodes the canonical encoding of a commitment made with `hasher`.
    ///
    /// # Errors
    /// [`MerkleError::MalformedCommitment`] for anything that is not exactly such an encoding
    /// (magic, version, sizes, an impossible depth or cap height, a non-canonical element,
    /// trailing bytes); [`MerkleError::WrongHasher`] for a commitment of another hash; the
    /// errors of [`MerkleCommitment::new`] for a shape the tree refuses.
    pub fn from_bytes<H: TreeHasher<Digest = D>>(
        hasher: &H,
        bytes: &[u8],
    ) -> Result<Self, MerkleError> {
        Self::decode(hasher, bytes).map_err(|e| match e {
            Decoded::Bytes(e) => MerkleError::MalformedCommitment(e),
            Decoded::Merkle(e) => e,
        })
    }

    fn decode<H: TreeHasher<Digest = D>>(hasher: &H, bytes: &[u8]) -> Result<Self, Decoded> {
        let mut r = ByteReader::new(bytes);
        let magic = r.array::<4>("the magic number")?;
        if &magic != MAGIC {
            return Err(DecodeError::Unknown {
                what: "the magic number (not a zkaccel Merkle commitment)",
                got: u32::from_be_bytes(magic).into(),
            }
            .into());
        }
        let version = r.u8("the version")?;
        if version != VERSION {
            return Err(DecodeError::Unknown {
                what: "the version",
                got: version.into(),
            }
            .into());
        }
        let head = r.take(7, "the header")?;
        let (id, variant, arity, depth, cap_height, de, eb) = (
            head[0],
            head[1],
            head[2] as usize,
            head[3] as usize,
            head[4] as usize,
            head[5] as usize,
            head[6] as usize,
        );
        DecodeError::expect_len("digest elements", H::DIGEST_ELEMENTS as u64, de as u64)?;
        DecodeError::expect_len("bytes per element", H::Element::NUM_BYTES as u64, eb as u64)?;
        let leaf_width = r.u32_le("the leaf width")? as usize;
        let name_len = r.u8("the field name's length")? as usize;
        let name = r.take(name_len, "the field name")?;
        let committed = HasherIdentity {
            id,
            variant,
            arity,
            field: H::Element::NAME,
        };
        let expected = HasherIdentity::of(hasher);
        if name != H::Element::NAME.as_bytes() || committed != expected {
            return Err(MerkleError::WrongHasher {
                committed: format!(
                    "id {id}, variant {variant}, arity {arity}, field {:?}",
                    String::from_utf8_lossy(name)
                ),
                given: format!("{expected:?}"),
            }
            .into());
        }
        // `arity^depth` leaves must fit a u64.
        let max_depth = (0..=64u32)
            .take_while(|&d| (arity as u64).checked_pow(d).is_some())
            .last()
            .unwrap_or(0);
        DecodeError::expect_range("the depth", depth as u64, 0, max_depth.into())?;
        DecodeError::expect_range("the cap height", cap_height as u64, 0, depth as u64)?;
        let num_leaves = (arity as u64).pow(depth as u32);
        let cap_len = (arity as u64).pow(cap_height as u32);
        DecodeError::expect_len(
            "the cap's bytes",
            cap_len.saturating_mul((de * eb) as u64),
            r.remaining() as u64,
        )?;
        let mut cap = Vec::with_capacity(cap_len as usize);
        for _ in 0..cap_len {
            let elements = r.fields::<H::Element>(de, "a cap digest")?;
            cap.push(H::digest_from_elements(&elements));
        }
        r.finish()?;
        let c = Self::with_identity(committed, num_leaves, leaf_width, cap_height, cap)?;
        hasher.check_leaf_width(leaf_width)?;
        Ok(c)
    }
}

/// A commitment decoder's failure: the bytes, or the commitment they describe.
enum Decoded {
    Bytes(DecodeError),
    Merkle(MerkleError),
}

impl From<DecodeError> for Decoded {
    fn from(e: DecodeError) -> Self {
        Self::Bytes(e)
    }
}

impl From<MerkleError> for Decoded {
    fn from(e: MerkleError) -> Self {
        Self::Merkle(e)
    }
}
