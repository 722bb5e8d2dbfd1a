//! The FRI proof and its canonical encoding: plonky2's `Write` layout (`write_fri_proof`),
//! which has no lengths where the parameters fix them, so the decoder takes the parameters.

use zkaccel_field::{ExtensionField, PrimeField};
use zkaccel_merkle::TreeHasher;

use zkaccel_codec::{ByteReader, DecodeError, ShapeError};

use crate::scheme::{Digest, FriScheme};
use crate::{FriError, FriParams};

/// One layer of a query: the coset of `2^arity_bits` values the folded value comes from, and
/// its Merkle path in the layer's tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FriQueryStep<S: FriScheme> {
    /// The coset's values (bit-reversed order, as the tree's leaf holds them).
    pub evals: Vec<S::E>,
    /// The leaf's authentication path.
    pub merkle_path: Vec<Digest<S>>,
}

/// A committed batch's row at the queried point: every polynomial's value there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FriInitialOpening<S: FriScheme> {
    /// The leaf row.
    pub row: Vec<S::F>,
    /// The leaf's authentication path.
    pub merkle_path: Vec<Digest<S>>,
}

/// One query round: the committed batches' rows at the queried point, then the layers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FriQueryRound<S: FriScheme> {
    /// Per committed batch, its row and the row's path.
    pub initial_trees: Vec<FriInitialOpening<S>>,
    /// The layers, one per reduction step.
    pub steps: Vec<FriQueryStep<S>>,
}

/// A FRI proof (plonky2's `FriProof`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FriProof<S: FriScheme> {
    /// The caps of the layers' trees.
    pub commit_phase_caps: Vec<Vec<Digest<S>>>,
    /// The query rounds.
    pub query_rounds: Vec<FriQueryRound<S>>,
    /// The final polynomial's coefficients.
    pub final_poly: Vec<S::E>,
    /// The proof-of-work witness.
    pub pow_witness: S::F,
}

/// Appends canonical little-endian field elements.
pub(crate) fn write_field<F: PrimeField>(out: &mut Vec<u8>, x: &F) {
    out.extend_from_slice(&x.to_bytes_le());
}

/// Appends an extension element as its coordinates, lowest first.
pub(crate) fn write_extension<F: PrimeField, E: ExtensionField<F>>(out: &mut Vec<u8>, x: &E) {
    for c in x.as_base_slice() {
        write_field(out, c);
    }
}

/// Appends a digest as its field elements.
pub(crate) fn write_digest<S: FriScheme>(out: &mut Vec<u8>, d: &Digest<S>) {
    for e in S::Hasher::digest_elements(d) {
        write_field(out, &e);
    }
}

/// Appends a Merkle path: a one-byte length, then the digests (plonky2's `write_merkle_proof`).
fn write_path<S: FriScheme>(out: &mut Vec<u8>, path: &[Digest<S>]) -> Result<(), FriError> {
    let len = u8::try_from(path.len()).map_err(|_| ShapeError {
        what: "a Merkle path's digests (the encoding's length byte holds at most 255)".into(),
        expected: 255,
        got: path.len() as u64,
    })?;
    out.push(len);
    path.iter().for_each(|d| write_digest::<S>(out, d));
    Ok(())
}

impl<S: FriScheme> FriProof<S> {
    /// Appends the canonical encoding (plonky2's `write_fri_proof`): the layers' caps; per
    /// round, per batch the leaf row and its path, per layer the coset values and their path;
    /// the final polynomial; the witness. Elements are canonical little-endian words, a path
    /// is preceded by its length in one byte, nothing else carries a length.
    ///
    /// # Errors
    /// [`FriError::ProofShape`] for a path of more than 255 digests.
    pub fn write(&self, out: &mut Vec<u8>) -> Result<(), FriError> {
        for cap in &self.commit_phase_caps {
            cap.iter().for_each(|d| write_digest::<S>(out, d));
        }
        for round in &self.query_rounds {
            for opening in &round.initial_trees {
                opening.row.iter().for_each(|x| write_field(out, x));
                write_path::<S>(out, &opening.merkle_path)?;
            }
            for step in &round.steps {
                step.evals.iter().for_each(|x| write_extension(out, x));
                write_path::<S>(out, &step.merkle_path)?;
            }
        }
        self.final_poly.iter().for_each(|x| write_extension(out, x));
        write_field(out, &self.pow_witness);
        Ok(())
    }

    /// Reads a proof written by [`FriProof::write`] for these parameters and committed batch
    /// widths from `r`, which is advanced past it. Every length comes from the parameters; a
    /// path's length byte must be the one the parameters fix.
    ///
    /// # Errors
    /// [`FriError::Decode`] for truncated input, a path length other than the parameters', or
    /// a non-canonical field element.
    pub fn read(
        r: &mut ByteReader<'_>,
        params: &FriParams,
        batch_widths: &[usize],
    ) -> Result<Self, FriError> {
        let cap_len = 1usize << params.config.cap_height;
        let commit_phase_caps = (0..params.reduction_arity_bits.len())
            .map(|_| r.digests::<S>(cap_len, "a commit-phase cap"))
            .collect::<Result<_, _>>()?;
        let initial_levels = params.lde_bits() - params.config.cap_height;
        let mut query_rounds = Vec::with_capacity(params.config.num_query_rounds);
        for _ in 0..params.config.num_query_rounds {
            let mut initial_trees = Vec::with_capacity(batch_widths.len());
            for &width in batch_widths {
                let row = r.fields::<S::F>(width, "an opened row")?;
                let merkle_path = read_path::<S>(r, initial_levels)?;
                initial_trees.push(FriInitialOpening { row, merkle_path });
            }
            let mut levels = initial_levels;
            let mut steps = Vec::with_capacity(params.reduction_arity_bits.len());
            for &bits in &params.reduction_arity_bits {
                let evals = r.extensions::<S>(1 << bits, "a query step's evaluations")?;
                levels -= bits;
                let merkle_path = read_path::<S>(r, levels)?;
                steps.push(FriQueryStep { evals, merkle_path });
            }
            query_rounds.push(FriQueryRound {
                initial_trees,
                steps,
            });
        }
        let final_poly = r.extensions::<S>(params.final_poly_len(), "the final polynomial")?;
        let pow_witness = r.field::<S::F>("the proof-of-work witness")?;
        Ok(Self {
            commit_phase_caps,
            query_rounds,
            final_poly,
            pow_witness,
        })
    }

    /// Decodes exactly one proof: [`FriProof::read`] on the whole of `bytes`, with nothing
    /// left over.
    ///
    /// # Errors
    /// As [`FriProof::read`]; [`FriError::Decode`] for trailing bytes.
    pub fn from_bytes(
        bytes: &[u8],
        params: &FriParams,
        batch_widths: &[usize],
    ) -> Result<Self, FriError> {
        let mut r = ByteReader::new(bytes);
        let proof = Self::read(&mut r, params, batch_widths)?;
        r.finish()?;
        Ok(proof)
    }

    /// The canonical encoding as a new buffer.
    ///
    /// # Errors
    /// As [`FriProof::write`].
    pub fn to_bytes(&self) -> Result<Vec<u8>, FriError> {
        let mut out = Vec::new();
        self.write(&mut out)?;
        Ok(out)
    }
}

/// Reading a FRI scheme's digests and extension elements with the shared [`ByteReader`] (the
/// FRI and STARK decoders both read them).
pub trait ReadScheme {
    /// `n` digests of the scheme's hasher.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`] or [`DecodeError::Element`].
    fn digests<S: FriScheme>(
        &mut self,
        n: usize,
        what: &'static str,
    ) -> Result<Vec<Digest<S>>, DecodeError>;

    /// `n` elements of the scheme's extension field, coordinate by coordinate.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`] or [`DecodeError::Element`].
    fn extensions<S: FriScheme>(
        &mut self,
        n: usize,
        what: &'static str,
    ) -> Result<Vec<S::E>, DecodeError>;
}

impl ReadScheme for ByteReader<'_> {
    fn digests<S: FriScheme>(
        &mut self,
        n: usize,
        what: &'static str,
    ) -> Result<Vec<Digest<S>>, DecodeError> {
        let len = S::Hasher::DIGEST_ELEMENTS;
        self.check_fits(n, len * S::F::NUM_BYTES, what)?;
        Ok(self
            .fields::<S::F>(n * len, what)?
            .chunks_exact(len)
            .map(S::Hasher::digest_from_elements)
            .collect())
    }

    fn extensions<S: FriScheme>(
        &mut self,
        n: usize,
        what: &'static str,
    ) -> Result<Vec<S::E>, DecodeError> {
        let degree = <S::E as ExtensionField<S::F>>::DEGREE;
        self.check_fits(n, degree * S::F::NUM_BYTES, what)?;
        Ok(self
            .fields::<S::F>(n * degree, what)?
            .chunks_exact(degree)
            .map(|c| S::E::from_base_slice(c).expect("DEGREE coordinates"))
            .collect())
    }
}

/// A Merkle path whose length byte must be `levels`.
fn read_path<S: FriScheme>(
    r: &mut ByteReader<'_>,
    levels: usize,
) -> Result<Vec<Digest<S>>, DecodeError> {
    let len = r.u8("a Merkle path's length")?;
    DecodeError::expect_len("a Merkle path's length", levels as u64, u64::from(len))?;
    r.digests::<S>(levels, "a Merkle path")
}
