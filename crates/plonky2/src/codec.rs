//! plonky2's `Write` layout for FRI and STARK proofs: the canonical encoding plonky2 1.1.0's
//! `write_fri_proof` and starky's proofs use (UniZK's `to_bytes` carried to starky 1.1.0).
//! It has no lengths where the parameters fix them, so a decoder takes the statement; the
//! generic `zkaccel-fri` and `zkaccel-stark` hold the proofs as values and know no encoding.
//!
//! Bring [`Plonky2Encoding`] into scope for `proof.to_bytes()`; decode a STARK proof with
//! [`decode_stark_proof`] (or through [`crate::shipped`]'s proof files), a FRI proof with
//! [`FriProofCodec::from_bytes`].

use zkaccel_codec::{ByteReader, DecodeError, ShapeError};
use zkaccel_field::{ExtensionField, PrimeField};
use zkaccel_fri::{
    Digest, FriError, FriInitialOpening, FriParams, FriProof, FriQueryRound, FriQueryStep,
    FriScheme,
};
use zkaccel_merkle::TreeHasher;
use zkaccel_stark::{Air, StarkConfig, StarkError, StarkProof};

/// A proof's canonical encoding (plonky2's `Write` layout).
pub trait Plonky2Encoding {
    /// Why a proof cannot be encoded.
    type Error;

    /// Appends the encoding to `out`.
    ///
    /// # Errors
    /// A Merkle path of more than 255 digests (the layout's length byte).
    fn write(&self, out: &mut Vec<u8>) -> Result<(), Self::Error>;

    /// The encoding as a new buffer.
    ///
    /// # Errors
    /// As [`Plonky2Encoding::write`].
    fn to_bytes(&self) -> Result<Vec<u8>, Self::Error> {
        let mut out = Vec::new();
        self.write(&mut out)?;
        Ok(out)
    }
}

/// Appends canonical little-endian field elements.
fn write_field<F: PrimeField>(out: &mut Vec<u8>, x: &F) {
    out.extend_from_slice(&x.to_bytes_le());
}

/// Appends an extension element as its coordinates, lowest first.
fn write_extension<F: PrimeField, E: ExtensionField<F>>(out: &mut Vec<u8>, x: &E) {
    for c in x.as_base_slice() {
        write_field(out, c);
    }
}

/// Appends a digest as its field elements.
fn write_digest<S: FriScheme>(out: &mut Vec<u8>, d: &Digest<S>) {
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

impl<S: FriScheme> Plonky2Encoding for FriProof<S> {
    type Error = FriError;

    /// plonky2's `write_fri_proof`: the layers' caps; per round, per batch the leaf row and
    /// its path, per layer the coset values and their path; the final polynomial; the witness.
    /// Elements are canonical little-endian words, a path is preceded by its length in one
    /// byte, nothing else carries a length.
    fn write(&self, out: &mut Vec<u8>) -> Result<(), FriError> {
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
}

impl<S: FriScheme> Plonky2Encoding for StarkProof<S> {
    type Error = StarkError;

    /// trace cap ‖ quotient cap ‖ local values ‖ next values ‖ quotient values ‖ the FRI proof
    /// (plonky2's `write_fri_proof`) ‖ the number of public inputs (u64, little-endian) ‖ the
    /// public inputs. Elements are canonical little-endian words; nothing but Merkle paths and
    /// the public inputs carries a length.
    fn write(&self, out: &mut Vec<u8>) -> Result<(), StarkError> {
        for d in self.trace_cap.iter().chain(&self.quotient_cap) {
            write_digest::<S>(out, d);
        }
        for v in self
            .local_values
            .iter()
            .chain(&self.next_values)
            .chain(&self.quotient_values)
        {
            write_extension(out, v);
        }
        self.opening_proof.write(out)?;
        out.extend_from_slice(&(self.public_inputs.len() as u64).to_le_bytes());
        for p in &self.public_inputs {
            write_field(out, p);
        }
        Ok(())
    }
}

/// Reading a FRI scheme's digests and extension elements with the shared [`ByteReader`].
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
        let coordinates = self.fields::<S::F>(n * degree, what)?;
        coordinates
            .chunks_exact(degree)
            .map(|c| {
                S::E::from_base_slice(c).map_err(|source| DecodeError::Element { what, source })
            })
            .collect()
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

/// Decoding a FRI proof: the parameters and the committed batches' widths fix every length.
pub trait FriProofCodec: Sized {
    /// Reads a proof from `r`, which is advanced past it. A path's length byte must be the one
    /// the parameters fix.
    ///
    /// # Errors
    /// [`FriError::Decode`] for truncated input, a path length other than the parameters', or
    /// a non-canonical field element.
    fn read(
        r: &mut ByteReader<'_>,
        params: &FriParams,
        batch_widths: &[usize],
    ) -> Result<Self, FriError>;

    /// Decodes exactly one proof: [`FriProofCodec::read`] on the whole of `bytes`.
    ///
    /// # Errors
    /// As [`FriProofCodec::read`]; [`FriError::Decode`] for trailing bytes.
    fn from_bytes(
        bytes: &[u8],
        params: &FriParams,
        batch_widths: &[usize],
    ) -> Result<Self, FriError> {
        let mut r = ByteReader::new(bytes);
        let proof = Self::read(&mut r, params, batch_widths)?;
        r.finish()?;
        Ok(proof)
    }
}

impl<S: FriScheme> FriProofCodec for FriProof<S> {
    fn read(
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
}

/// Decodes a proof of `air` over `2^degree_bits` rows under `config` from its canonical
/// encoding; the statement fixes every length (the trace's columns, the quotient's chunks,
/// the public inputs, the caps and every FRI length).
///
/// # Errors
/// [`StarkError::OutOfRange`], [`StarkError::BelowTarget`] or [`StarkError::Fri`] for a
/// configuration out of range or a degree it cannot prove; [`StarkError::Decode`] /
/// [`StarkError::ProofShape`] (or a FRI decoding error) for truncated, overlong or
/// non-canonical bytes.
pub fn decode_stark_proof<A: Air, S: FriScheme>(
    air: &A,
    config: &StarkConfig,
    degree_bits: usize,
    bytes: &[u8],
) -> Result<StarkProof<S>, StarkError> {
    config.check::<S>()?;
    let params = config.fri_config.params(degree_bits, S::max_lde_bits())?;
    let columns = air.columns();
    let quotient_polys = air.quotient_degree_factor() * config.num_challenges;
    let cap_len = 1usize << config.fri_config.cap_height;
    let public_inputs = air.public_inputs();
    let mut r = ByteReader::new(bytes);
    let trace_cap = r.digests::<S>(cap_len, "the trace cap")?;
    let quotient_cap = r.digests::<S>(cap_len, "the quotient cap")?;
    let local_values = r.extensions::<S>(columns, "the openings at ζ")?;
    let next_values = r.extensions::<S>(columns, "the openings at gζ")?;
    let quotient_values = r.extensions::<S>(quotient_polys, "the quotient openings at ζ")?;
    let opening_proof = FriProof::read(&mut r, &params, &[columns, quotient_polys])?;
    let count = r.u64_le("the public-input count")?;
    DecodeError::expect_len("the public-input count", public_inputs as u64, count)?;
    let public_inputs = r.fields::<S::F>(public_inputs, "the public inputs")?;
    r.finish()?;
    Ok(StarkProof {
        trace_cap,
        quotient_cap,
        local_values,
        next_values,
        quotient_values,
        opening_proof,
        public_inputs,
    })
}
