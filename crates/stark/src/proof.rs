//! The proof and its canonical encoding.

use zkaccel_field::{ExtensionField, PrimeField};
use zkaccel_fri::{Digest, FriParams, FriProof, FriScheme};
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
        let mut r = Reader { input: bytes };
        let trace_cap = r.digests::<S>(shape.cap_len)?;
        let quotient_cap = r.digests::<S>(shape.cap_len)?;
        let local_values = r.extensions::<S>(shape.columns)?;
        let next_values = r.extensions::<S>(shape.columns)?;
        let quotient_values = r.extensions::<S>(shape.quotient_polys)?;
        let opening_proof = FriProof::read(
            &mut r.input,
            fri_params,
            &[shape.columns, shape.quotient_polys],
        )?;
        let count = u64::from_le_bytes(r.take(8)?.try_into().expect("8 bytes"));
        if count != shape.public_inputs as u64 {
            return Err(StarkError::ProofShape(format!(
                "{count} public inputs where the statement has {}",
                shape.public_inputs
            )));
        }
        let public_inputs = r.fields::<S::F>(shape.public_inputs)?;
        if !r.input.is_empty() {
            return Err(StarkError::ProofShape(format!(
                "{} bytes after the proof",
                r.input.len()
            )));
        }
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

/// A cursor over encoded bytes that never reads past the end.
struct Reader<'a> {
    input: &'a [u8],
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], StarkError> {
        if self.input.len() < n {
            return Err(StarkError::ProofShape(format!(
                "the encoding ends {} bytes early",
                n - self.input.len()
            )));
        }
        let (head, rest) = self.input.split_at(n);
        self.input = rest;
        Ok(head)
    }

    fn fields<F: PrimeField>(&mut self, n: usize) -> Result<Vec<F>, StarkError> {
        (0..n)
            .map(|_| {
                F::from_bytes_le(self.take(F::NUM_BYTES)?)
                    .map_err(|e| StarkError::ProofShape(format!("a field element: {e}")))
            })
            .collect()
    }

    fn digests<S: FriScheme>(&mut self, n: usize) -> Result<Vec<Digest<S>>, StarkError> {
        let len = S::Hasher::DIGEST_ELEMENTS;
        Ok(self
            .fields::<S::F>(n * len)?
            .chunks_exact(len)
            .map(S::Hasher::digest_from_elements)
            .collect())
    }

    fn extensions<S: FriScheme>(&mut self, n: usize) -> Result<Vec<S::E>, StarkError> {
        let degree = <S::E as ExtensionField<S::F>>::DEGREE;
        Ok(self
            .fields::<S::F>(n * degree)?
            .chunks_exact(degree)
            .map(|c| S::E::from_base_slice(c).expect("DEGREE coordinates"))
            .collect())
    }
}
