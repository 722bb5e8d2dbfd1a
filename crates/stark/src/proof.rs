//! The proof and its canonical encoding.

use zkaccel_codec::{ByteReader, DecodeError};
use zkaccel_field::{ExtensionField, PrimeField};
use zkaccel_fri::{Digest, FriParams, FriProof, FriScheme, ReadScheme};
use zkaccel_merkle::TreeHasher;

use crate::StarkError;

/// A STARK proof with its public inputs (starky's `StarkProofWithPublicInputs` for an AIR
/// without lookups or cross-table lookups).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarkProof<S: FriScheme> {
    /// The trace commitment.
    pub trace_cap: Vec<Digest<S>>,
    /// The quotient commitment.
    pub quotient_cap: Vec<Digest<S>>,
    /// Every trace column at `ζ`.
    pub local_values: Vec<S::E>,
    /// Every trace column at `g·ζ`.
    pub next_values: Vec<S::E>,
    /// Every quotient chunk at `ζ`.
    pub quotient_values: Vec<S::E>,
    /// The FRI proof of those openings.
    pub opening_proof: FriProof<S>,
    /// The public inputs.
    pub public_inputs: Vec<S::F>,
}

/// The shape a proof's encoding has for a statement: what the decoder needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ProofShape {
    pub columns: usize,
    pub quotient_polys: usize,
    pub public_inputs: usize,
    pub cap_len: usize,
}

fn write_field<F: PrimeField>(out: &mut Vec<u8>, x: &F) {
    out.extend_from_slice(&x.to_bytes_le());
}

impl<S: FriScheme> StarkProof<S> {
    /// The canonical encoding, the layout UniZK's `to_bytes` uses carried to starky 1.1.0:
    /// trace cap ‖ quotient cap ‖ local values ‖ next values ‖ quotient values ‖ the FRI
    /// proof (plonky2's `write_fri_proof`) ‖ the number of public inputs (u64, little-endian)
    /// ‖ the public inputs. Elements are canonical little-endian words; nothing but Merkle
    /// paths and the public inputs carries a length.
    ///
    /// # Errors
    /// [`StarkError::Fri`] for a Merkle path too long for the encoding.
    pub fn to_bytes(&self) -> Result<Vec<u8>, StarkError> {
        let mut out = Vec::new();
        for d in self.trace_cap.iter().chain(&self.quotient_cap) {
            for e in S::Hasher::digest_elements(d) {
                write_field(&mut out, &e);
            }
        }
        for v in self
            .local_values
            .iter()
            .chain(&self.next_values)
            .chain(&self.quotient_values)
        {
            for c in v.as_base_slice() {
                write_field(&mut out, c);
            }
        }
        self.opening_proof.write(&mut out)?;
        out.extend_from_slice(&(self.public_inputs.len() as u64).to_le_bytes());
        for p in &self.public_inputs {
            write_field(&mut out, p);
        }
        Ok(out)
    }

    /// Decodes exactly one proof of the given shape.
    pub(crate) fn from_bytes_shaped(
        bytes: &[u8],
        shape: &ProofShape,
        fri_params: &FriParams,
    ) -> Result<Self, StarkError> {
        let mut r = ByteReader::new(bytes);
        let trace_cap = r.digests::<S>(shape.cap_len, "the trace cap")?;
        let quotient_cap = r.digests::<S>(shape.cap_len, "the quotient cap")?;
        let local_values = r.extensions::<S>(shape.columns, "the openings at ζ")?;
        let next_values = r.extensions::<S>(shape.columns, "the openings at gζ")?;
        let quotient_values =
            r.extensions::<S>(shape.quotient_polys, "the quotient openings at ζ")?;
        let opening_proof =
            FriProof::read(&mut r, fri_params, &[shape.columns, shape.quotient_polys])?;
        let count = r.u64_le("the public-input count")?;
        DecodeError::expect_len("the public-input count", shape.public_inputs as u64, count)?;
        let public_inputs = r.fields::<S::F>(shape.public_inputs, "the public inputs")?;
        r.finish()?;
        Ok(Self {
            trace_cap,
            quotient_cap,
            local_values,
            next_values,
            quotient_values,
            opening_proof,
            public_inputs,
        })
    }
}
