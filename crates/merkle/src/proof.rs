//! Merkle (multi)proofs and their canonical encoding.
//!
//! Layout, little-endian:
//!
//! ```text
//! "ZKMP" | version u8 (1) | hasher id u8 | arity u8 | depth u8 | cap height u8
//!        | digest elements u8 | element bytes u8
//!        | index count u32 | indices u64… (strictly increasing)
//!        | sibling count u32 | siblings: digests of canonical little-endian elements
//! ```
//!
//! Siblings are listed level by level from the leaves up, and within a level in increasing
//! node index: exactly the nodes the verifier cannot compute. A proof for one index is the
//! usual authentication path. Decoding checks every count against the bytes present before
//! allocating, rejects non-canonical elements and trailing bytes, and never panics.

use zkaccel_field::PrimeField;

use zkaccel_codec::{ByteReader, DecodeError};

use crate::error::MerkleError;
use crate::hasher::TreeHasher;

/// A proof that the leaves at `indices` belong to a committed tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MerkleProof<D> {
    /// The hasher ([`TreeHasher::ID`]).
    pub hasher_id: u8,
    /// Children per node.
    pub arity: usize,
    /// `log_arity(number of leaves)`.
    pub depth: usize,
    /// The commitment's cap height.
    pub cap_height: usize,
    /// Opened leaves, strictly increasing.
    pub indices: Vec<u64>,
    /// The siblings, in the canonical order.
    pub siblings: Vec<D>,
}

const MAGIC: &[u8; 4] = b"ZKMP";
const VERSION: u8 = 1;

impl<D: Copy> MerkleProof<D> {
    /// The canonical encoding.
    pub fn to_bytes<H: TreeHasher<Digest = D>>(&self) -> Vec<u8> {
        let eb = H::Element::NUM_BYTES;
        let mut out = Vec::with_capacity(
            16 + 8 * self.indices.len() + self.siblings.len() * H::DIGEST_ELEMENTS * eb,
        );
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[
            VERSION,
            self.hasher_id,
            self.arity as u8,
            self.depth as u8,
            self.cap_height as u8,
            H::DIGEST_ELEMENTS as u8,
            eb as u8,
        ]);
        out.extend_from_slice(&(self.indices.len() as u32).to_le_bytes());
        for i in &self.indices {
            out.extend_from_slice(&i.to_le_bytes());
        }
        out.extend_from_slice(&(self.siblings.len() as u32).to_le_bytes());
        for s in &self.siblings {
            for e in H::digest_elements(s) {
                out.extend_from_slice(&e.to_bytes_le());
            }
        }
        out
    }

    /// Decodes the canonical encoding for hasher `H`.
    ///
    /// # Errors
    /// [`MerkleError::MalformedProof`] for anything that is not exactly such an encoding
    /// (wrong magic, version, hasher id or sizes, counts that do not match the bytes, indices
    /// out of order, bytes that end early, a non-canonical element, trailing bytes).
    pub fn from_bytes<H: TreeHasher<Digest = D>>(bytes: &[u8]) -> Result<Self, MerkleError> {
        let mut r = ByteReader::new(bytes);
        let magic = r.array::<4>("the magic number")?;
        if &magic != MAGIC {
            return Err(DecodeError::Unknown {
                what: "the magic number (not a zkaccel Merkle proof)",
                got: u32::from_be_bytes(magic).into(),
            }
            .into());
        }
        let head = r.take(7, "the header")?;
        let (version, hasher_id, arity, depth, cap_height, de, eb) = (
            head[0], head[1], head[2], head[3], head[4], head[5], head[6],
        );
        if version != VERSION {
            return Err(DecodeError::Unknown {
                what: "the version",
                got: version.into(),
            }
            .into());
        }
        DecodeError::expect_len("the hasher id", H::ID.into(), hasher_id.into())?;
        DecodeError::expect_len("digest elements", H::DIGEST_ELEMENTS as u64, de.into())?;
        DecodeError::expect_len("bytes per element", H::Element::NUM_BYTES as u64, eb.into())?;
        DecodeError::expect_range(
            "the arity",
            arity.into(),
            2,
            crate::limits::MAX_ARITY as u64,
        )?;
        DecodeError::expect_range("the depth", depth.into(), 0, 64)?;
        DecodeError::expect_range("the cap height", cap_height.into(), 0, depth.into())?;
        let n_idx = r.u32_le("the index count")? as usize;
        DecodeError::expect_range("the index count", n_idx as u64, 1, u32::MAX.into())?;
        r.check_fits(n_idx, 8, "the indices")?;
        let indices: Vec<u64> = (0..n_idx)
            .map(|_| r.u64_le("an index"))
            .collect::<Result<_, _>>()?;
        if !indices.windows(2).all(|w| w[0] < w[1]) {
            return Err(DecodeError::NotIncreasing {
                what: "the indices",
            }
            .into());
        }
        let n_sib = r.u32_le("the sibling count")? as usize;
        let digest_bytes = H::DIGEST_ELEMENTS * H::Element::NUM_BYTES;
        DecodeError::expect_len(
            "the siblings' bytes",
            (n_sib as u64).saturating_mul(digest_bytes as u64),
            r.remaining() as u64,
        )?;
        let mut siblings = Vec::with_capacity(n_sib);
        for _ in 0..n_sib {
            let elements = r.fields::<H::Element>(H::DIGEST_ELEMENTS, "a sibling digest")?;
            siblings.push(H::digest_from_elements(&elements));
        }
        Ok(Self {
            hasher_id,
            arity: arity as usize,
            depth: depth as usize,
            cap_height: cap_height as usize,
            indices,
            siblings,
        })
    }
}
