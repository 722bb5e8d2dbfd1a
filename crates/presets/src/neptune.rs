//! neptune's Poseidon (Filecoin; the AcclMT configurations): `x^5`, 8 full rounds, neptune's
//! partial-round numbers (Standard or Strengthened), Grain constants with Filecoin's S-box
//! encoding, the Cauchy MDS `1/(i + j + t)`, a domain tag in lane 0 and the output in lane 1.

use rayon::prelude::*;
use zkaccel_field::PrimeField;

use zkaccel_merkle::FieldTreeHasher;
use zkaccel_poseidon::grain::{GrainLfsr, GrainSeed, SboxEncoding};
use zkaccel_poseidon::reference::field_bits;
use zkaccel_poseidon::rounds::{neptune_round_numbers, strengthened_partial_rounds};
use zkaccel_poseidon::{Matrix, Poseidon, PoseidonError, PoseidonField, PoseidonParams};

/// neptune's S-box exponent.
pub const ALPHA: u64 = 5;

/// neptune's security setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Strength {
    /// The default round numbers.
    #[default]
    Standard,
    /// `⌈1.25·R_P⌉` partial rounds (and therefore different constants).
    Strengthened,
}

impl core::str::FromStr for Strength {
    type Err = PoseidonError;
    fn from_str(s: &str) -> Result<Self, PoseidonError> {
        match s {
            "standard" => Ok(Self::Standard),
            "strengthened" => Ok(Self::Strengthened),
            _ => Err(PoseidonError::UnknownStrength {
                name: s.chars().take(40).collect(),
            }),
        }
    }
}

/// What lane 0 holds (neptune's `HashType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HashType {
    /// Merkle tree node: tag `2^arity − 1`, exactly `arity` inputs.
    MerkleTree,
    /// Fixed-length hash of `len ≤ arity` inputs: tag `len·2^64`, unused lanes zero.
    ConstantLength(usize),
}

/// neptune's Poseidon for one arity (`t = arity + 1`) and strength.
#[derive(Debug, Clone)]
pub struct NeptunePoseidon<F> {
    arity: usize,
    strength: Strength,
    perm: Poseidon<F>,
}

/// neptune's round numbers `(R_F, R_P)` for an arity and strength.
///
/// # Errors
/// [`PoseidonError::PresetRefuses`] for arity 0.
pub fn round_numbers(arity: usize, strength: Strength) -> Result<(usize, usize), PoseidonError> {
    if arity == 0 {
        return Err(PoseidonError::PresetRefuses {
            preset: "neptune",
            reason: "the arity must be at least 1",
        });
    }
    zkaccel_poseidon::limits::check("arity", arity, zkaccel_poseidon::limits::MAX_WIDTH - 1)?;
    let (rf, rp) = neptune_round_numbers(arity + 1)?;
    Ok(match strength {
        Strength::Standard => (rf, rp),
        Strength::Strengthened => (rf, strengthened_partial_rounds(rp)),
    })
}

/// The textbook parameters neptune derives for `F`, an arity and a strength.
///
/// # Errors
/// [`PoseidonError::PresetRefuses`] for arity 0; [`PoseidonError::AlphaNotPermutation`] for a
/// field where `x^5` is not a permutation.
pub fn params<F: PrimeField>(
    arity: usize,
    strength: Strength,
) -> Result<PoseidonParams<F>, PoseidonError> {
    let (rf, rp) = round_numbers(arity, strength)?;
    let t = arity + 1;
    let seed = GrainSeed {
        field: 1,
        sbox: SboxEncoding::Filecoin.code(ALPHA),
        field_bits: field_bits::<F>(),
        width: t,
        full_rounds: rf,
        partial_rounds: rp,
    };
    let constants = GrainLfsr::round_constants::<F>(seed)?;
    let idx = |v: usize| F::from_u64_reduced(v as u64);
    let xs: Vec<F> = (0..t).map(idx).collect();
    let ys: Vec<F> = (t..2 * t).map(idx).collect();
    let mds = Matrix::cauchy(&xs, &ys)?;
    PoseidonParams::new(t, ALPHA, rf, rp, constants, mds.entries().to_vec())
}

impl<F: PrimeField + PoseidonField> NeptunePoseidon<F> {
    /// Builds the instance (constant generation takes a few milliseconds; keep it).
    ///
    /// # Errors
    /// As [`params`].
    pub fn new(arity: usize, strength: Strength) -> Result<Self, PoseidonError> {
        Ok(Self {
            arity,
            strength,
            perm: Poseidon::new(params(arity, strength)?)?,
        })
    }

    /// The arity.
    pub fn arity(&self) -> usize {
        self.arity
    }

    /// The strength.
    pub fn strength(&self) -> Strength {
        self.strength
    }

    /// The permutation.
    pub fn permutation(&self) -> &Poseidon<F> {
        &self.perm
    }

    /// The Merkle-tree domain tag `2^arity − 1`.
    pub fn merkle_tag(&self) -> F {
        tag_merkle(self.arity)
    }

    /// The hash of a Merkle node (`HashType::MerkleTree`): exactly `arity` children.
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] for another number of inputs.
    pub fn hash(&self, children: &[F]) -> Result<F, PoseidonError> {
        self.hash_with_type(children, HashType::MerkleTree)
    }

    /// The hash under a given domain.
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] when the input does not fit the hash type.
    pub fn hash_with_type(&self, inputs: &[F], kind: HashType) -> Result<F, PoseidonError> {
        let (tag, ok) = match kind {
            HashType::MerkleTree => (tag_merkle(self.arity), inputs.len() == self.arity),
            HashType::ConstantLength(len) => (
                F::from_limbs_reduced(&[0, len as u64]),
                inputs.len() == len && len <= self.arity,
            ),
        };
        if !ok {
            return Err(PoseidonError::InputLength {
                expected: match kind {
                    HashType::MerkleTree => self.arity,
                    HashType::ConstantLength(len) => len.min(self.arity),
                },
                actual: inputs.len(),
            });
        }
        let mut state = vec![F::ZERO; self.arity + 1];
        state[0] = tag;
        state[1..=inputs.len()].copy_from_slice(inputs);
        self.perm.permute(&mut state)?;
        Ok(state[1])
    }

    /// Merkle-node hashes of consecutive groups of `arity` children, on all cores.
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] when `children.len()` is not a multiple of the arity.
    pub fn hash_many(&self, children: &[F]) -> Result<Vec<F>, PoseidonError> {
        let a = self.arity;
        if !children.len().is_multiple_of(a) {
            return Err(PoseidonError::InputLength {
                expected: children.len().div_ceil(a) * a,
                actual: children.len(),
            });
        }
        let mut out = vec![F::ZERO; children.len() / a];
        self.hash_many_into(children, &mut out);
        Ok(out)
    }

    /// As [`NeptunePoseidon::hash_many`] into a caller's buffer (lengths checked by callers:
    /// `children.len() = arity·out.len()`).
    fn hash_many_into(&self, children: &[F], out: &mut [F]) {
        const BLOCK: usize = 64;
        let (a, t) = (self.arity, self.arity + 1);
        let tag = self.merkle_tag();
        out.par_chunks_mut(BLOCK)
            .zip(children.par_chunks(BLOCK * a))
            .for_each(|(out, children)| {
                let mut states = Vec::with_capacity(out.len() * t);
                for group in children.chunks_exact(a) {
                    states.push(tag);
                    states.extend_from_slice(group);
                }
                self.perm
                    .permute_many_single_thread(&mut states)
                    .expect("whole states");
                for (o, s) in out.iter_mut().zip(states.chunks_exact(t)) {
                    *o = s[1];
                }
            });
    }
}

fn tag_merkle<F: PrimeField>(arity: usize) -> F {
    // 2^arity − 1, for arities up to 63 in one limb; larger ones through limbs.
    let mut limbs = vec![0u64; arity / 64 + 1];
    limbs[arity / 64] = 1 << (arity % 64);
    zkaccel_field::limbs::sub_assign(&mut limbs, &[1]);
    F::from_limbs_reduced(&limbs)
}

/// neptune's Merkle-tree node (`HashType::MerkleTree`) of `arity` children.
impl<F: PrimeField + PoseidonField> zkaccel_symmetric::Compression<F> for NeptunePoseidon<F> {
    type Error = PoseidonError;
    const NAME: &'static str = "neptune";
    fn arity(&self) -> usize {
        NeptunePoseidon::arity(self)
    }
    fn variant(&self) -> u8 {
        match self.strength() {
            Strength::Standard => 0,
            Strength::Strengthened => 1,
        }
    }
    fn compress(&self, children: &[F]) -> Result<F, PoseidonError> {
        self.hash(children)
    }
    fn compress_many(&self, children: &[F]) -> Result<Vec<F>, PoseidonError> {
        self.hash_many(children)
    }
}

/// neptune's (Filecoin's) tree builder: single-element leaves, nodes the Merkle-domain
/// Poseidon of `arity` children (BLS12-381 by default).
pub type NeptuneHasher<F = zkaccel_bls12_381::Fr> = FieldTreeHasher<NeptunePoseidon<F>, F, 2>;
