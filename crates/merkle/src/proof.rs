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
    /// (wrong magic, version, hasher or sizes, counts that do not match the bytes, indices
    /// out of order, trailing bytes); [`MerkleError::Field`] for a non-canonical element.
    pub fn from_bytes<H: TreeHasher<Digest = D>>(bytes: &[u8]) -> Result<Self, MerkleError> {
        let mut r = Reader { bytes, pos: 0 };
        if r.take(4)? != MAGIC {
            return Err(malformed("not a zkaccel Merkle proof (bad magic)"));
        }
        let head = r.take(7)?;
        let (version, hasher_id, arity, depth, cap_height, de, eb) = (
            head[0], head[1], head[2], head[3], head[4], head[5], head[6],
        );
        if version != VERSION {
            return Err(malformed("unknown version"));
        }
        if hasher_id != H::ID
            || de as usize != H::DIGEST_ELEMENTS
            || eb as usize != H::Element::NUM_BYTES
        {
            return Err(malformed("the proof is for another hash"));
        }
        if arity < 2 || depth > 64 || cap_height > depth {
            return Err(malformed("impossible tree shape"));
        }
        let n_idx = r.u32()? as usize;
        if n_idx == 0 || n_idx > r.remaining() / 8 {
            return Err(malformed("index count does not match the data"));
        }
        let indices: Vec<u64> = (0..n_idx).map(|_| r.u64()).collect::<Result<_, _>>()?;
        if !indices.windows(2).all(|w| w[0] < w[1]) {
            return Err(malformed("indices must be strictly increasing"));
        }
        let n_sib = r.u32()? as usize;
        let digest_bytes = H::DIGEST_ELEMENTS * H::Element::NUM_BYTES;
        if n_sib.checked_mul(digest_bytes) != Some(r.remaining()) {
            return Err(malformed("sibling count does not match the data"));
        }
        let mut siblings = Vec::with_capacity(n_sib);
        for _ in 0..n_sib {
            let mut elements = Vec::with_capacity(H::DIGEST_ELEMENTS);
            for _ in 0..H::DIGEST_ELEMENTS {
                elements.push(H::Element::from_bytes_le(r.take(H::Element::NUM_BYTES)?)?);
            }
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

fn malformed(m: &str) -> MerkleError {
    MerkleError::MalformedProof(m.into())
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8], MerkleError> {
        if n > self.remaining() {
            return Err(malformed("truncated"));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, MerkleError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Result<u64, MerkleError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
}
