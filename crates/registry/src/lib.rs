#![doc = include_str!("../README.md")]

pub mod trees;

pub use trees::{RegisteredHasher, TreePreset, TreeSpec, TreeSpecError, TreeVisitor};

use core::fmt;
use core::str::FromStr;

use rayon::prelude::*;
use zkaccel_bls12_377::Fq as Bls377Fq;
use zkaccel_bls12_381::Fr as Bls381Fr;
use zkaccel_bn254::Fr as Bn254Fr;
use zkaccel_field::{FieldError, PrimeField};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_kernel_trace::TraceField;
use zkaccel_mimc::MimcField;
use zkaccel_ntt::{NttField, NttPlan};
use zkaccel_poseidon::PoseidonField;

/// The prime fields zkaccel ships, one name each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldId {
    /// Goldilocks, `p = 2^64 − 2^32 + 1` (plonky2's and Plonky3's).
    Goldilocks,
    /// BN254's scalar field (circomlib's, arkworks' `ark_bn254::Fr`).
    Bn254,
    /// BLS12-381's scalar field (neptune's and bellman's, arkworks' `ark_bls12_381::Fr`).
    Bls12_381,
    /// BLS12-377's base field (377 bits in six words, two-adicity 46): the 384-bit NTT field.
    Bls12_377Fq,
}

impl FieldId {
    /// Every field, in the order front ends list them.
    pub const ALL: [FieldId; 4] = [
        FieldId::Goldilocks,
        FieldId::Bn254,
        FieldId::Bls12_381,
        FieldId::Bls12_377Fq,
    ];

    /// The name front ends show and accept.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Goldilocks => "goldilocks",
            Self::Bn254 => "bn254",
            Self::Bls12_381 => "bls12-381",
            Self::Bls12_377Fq => "bls12-377-fq",
        }
    }

    /// The other names a field is known by (the hardware vectors name the scalar fields
    /// `bn254-fr` and `bls12-381-fr`).
    #[must_use]
    pub const fn aliases(self) -> &'static [&'static str] {
        match self {
            Self::Goldilocks => &[],
            Self::Bn254 => &["bn254-fr"],
            Self::Bls12_381 => &["bls12-381-fr"],
            Self::Bls12_377Fq => &[],
        }
    }

    /// The field called `name` among `accepted` (a front end's choices).
    ///
    /// # Errors
    /// [`UnknownField`], listing the names of `accepted`, for any other name.
    pub fn parse_among(name: &str, accepted: &[FieldId]) -> Result<Self, UnknownField> {
        accepted
            .iter()
            .copied()
            .find(|id| id.name() == name || id.aliases().contains(&name))
            .ok_or_else(|| UnknownField {
                name: name.to_owned(),
                known: accepted.iter().map(|id| id.name()).collect(),
            })
    }

    /// The name kernel traces give the field.
    #[must_use]
    pub const fn trace_field(self) -> TraceField {
        match self {
            Self::Goldilocks => TraceField::Goldilocks,
            Self::Bn254 => TraceField::Bn254,
            Self::Bls12_381 => TraceField::Bls12381,
            Self::Bls12_377Fq => TraceField::Bls12377Fq,
        }
    }

    /// Runs `visitor` on the field this id names.
    pub fn visit<V: FieldVisitor>(self, visitor: V) -> V::Output {
        match self {
            Self::Goldilocks => visitor.visit::<Goldilocks>(),
            Self::Bn254 => visitor.visit::<Bn254Fr>(),
            Self::Bls12_381 => visitor.visit::<Bls381Fr>(),
            Self::Bls12_377Fq => visitor.visit::<Bls377Fq>(),
        }
    }
}

impl fmt::Display for FieldId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for FieldId {
    type Err = UnknownField;

    /// Any field by name or alias (see [`FieldId::parse_among`]).
    fn from_str(name: &str) -> Result<Self, UnknownField> {
        Self::parse_among(name, &Self::ALL)
    }
}

/// A field name no front end knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown field {name:?}; known: {}", known.join(", "))]
pub struct UnknownField {
    /// The name given.
    pub name: String,
    /// The names accepted there.
    pub known: Vec<&'static str>,
}

/// Generic code to run on the field a [`FieldId`] names ([`FieldId::visit`]).
pub trait FieldVisitor {
    /// What the code returns.
    type Output;
    /// Runs the code on field `F`.
    fn visit<F: RegisteredField>(self) -> Self::Output;
}

/// Elements per parallel chunk of a conversion.
const CHUNK: usize = 1 << 12;

/// A field of the registry: the algebra and kernel traits, and the canonical-words form front
/// ends exchange elements in (`WORDS` little-endian `u64` limbs per element, each element's
/// integer below `p`).
pub trait RegisteredField: PrimeField + NttField + PoseidonField + MimcField + Send + Sync {
    /// The field's id.
    const ID: FieldId;
    /// `u64` words per element.
    const WORDS: usize;

    /// The elements canonical words hold (`reduce`: any words, each element's integer taken
    /// modulo `p`). Parallel over the words.
    ///
    /// # Errors
    /// [`FieldError::NonCanonical`] for the first element at or above `p`, unless `reduce`.
    fn from_canonical_words(words: &[u64], reduce: bool) -> Result<Vec<Self>, FieldError> {
        words
            .par_chunks(CHUNK * Self::WORDS)
            .map(|chunk| {
                chunk
                    .chunks_exact(Self::WORDS)
                    .map(|w| {
                        if reduce {
                            Ok(Self::from_limbs_reduced(w))
                        } else {
                            let mut limbs = Self::Limbs::default();
                            limbs.as_mut().copy_from_slice(w);
                            Self::from_canonical_limbs(limbs)
                        }
                    })
                    .collect::<Result<Vec<_>, _>>()
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|parts| parts.concat())
    }

    /// The canonical words of `values`. Parallel over the values.
    fn to_canonical_words(values: &[Self]) -> Vec<u64> {
        let mut out = vec![0u64; values.len() * Self::WORDS];
        out.par_chunks_mut(CHUNK * Self::WORDS)
            .zip(values.par_chunks(CHUNK))
            .for_each(|(o, v)| {
                for (w, x) in o.chunks_exact_mut(Self::WORDS).zip(v) {
                    w.copy_from_slice(x.to_canonical_limbs().as_ref());
                }
            });
        out
    }

    /// Canonical `words` viewed as the elements they hold, where they lie, after a check that
    /// they are canonical; `None` where the field's representation needs a conversion (the
    /// default).
    fn view_canonical_words(words: &mut [u64]) -> Option<Result<&mut [Self], FieldError>> {
        let _ = words;
        None
    }

    /// `words` viewed as elements for a map that is linear over the field (an NTT), unchecked
    /// where the plan of [`RegisteredField::plan_for_words`] checks them: Goldilocks' words are
    /// its elements; a Montgomery field's canonical words, read as Montgomery forms, are the
    /// elements `x·R⁻¹`, which a linear map takes to the canonical words of its result. By
    /// default [`RegisteredField::view_canonical_words`].
    fn view_words_for_linear_map(words: &mut [u64]) -> Option<Result<&mut [Self], FieldError>> {
        Self::view_canonical_words(words)
    }

    /// Leaves elements viewed by [`RegisteredField::view_canonical_words`] as canonical words
    /// (nothing by default).
    fn canonicalize_view(values: &mut [Self]) {
        let _ = values;
    }

    /// `plan` set up for [`RegisteredField::view_words_for_linear_map`]'s views: the check of
    /// its inputs inside its first pass and the canonical words left by its last, where the
    /// representation needs them (unchanged by default).
    fn plan_for_words(plan: NttPlan<Self>) -> NttPlan<Self> {
        plan
    }

    /// Why a plan of [`RegisteredField::plan_for_words`] refused `values` (as they were): the
    /// first non-canonical word where the field checks them.
    fn refusal(values: &[Self]) -> String {
        let _ = values;
        zkaccel_ntt::NttError::InputRejected.to_string()
    }
}

/// Words per task of the parallel canonical check and reduction (128 KiB: a core's L2 share).
const SCAN_CHUNK: usize = 1 << 14;

/// Every word below the Goldilocks modulus, on all cores in chunks.
fn check_canonical_goldilocks(words: &[u64]) -> Result<(), FieldError> {
    words
        .par_chunks(SCAN_CHUNK)
        .try_for_each(|chunk| Goldilocks::slice_from_canonical(chunk).map(|_| ()))
}

impl RegisteredField for Goldilocks {
    const ID: FieldId = FieldId::Goldilocks;
    const WORDS: usize = 1;

    fn from_canonical_words(words: &[u64], reduce: bool) -> Result<Vec<Self>, FieldError> {
        if !reduce {
            check_canonical_goldilocks(words)?;
        }
        // Written in place by every core (rayon collects an indexed iterator into the Vec).
        let mut out = Vec::new();
        words
            .par_iter()
            .map(|&w| Goldilocks::new_reduced(w))
            .collect_into_vec(&mut out);
        Ok(out)
    }

    fn to_canonical_words(values: &[Self]) -> Vec<u64> {
        values.iter().map(Goldilocks::as_canonical_u64).collect()
    }

    fn view_canonical_words(words: &mut [u64]) -> Option<Result<&mut [Self], FieldError>> {
        let checked = check_canonical_goldilocks(words);
        Some(checked.map(|()| Goldilocks::slice_from_words_mut(words)))
    }

    fn view_words_for_linear_map(words: &mut [u64]) -> Option<Result<&mut [Self], FieldError>> {
        // Unchecked here: the plans of `plan_for_words` check the words inside their first
        // pass.
        Some(Ok(Goldilocks::slice_from_words_mut(words)))
    }

    fn canonicalize_view(values: &mut [Self]) {
        values.par_chunks_mut(SCAN_CHUNK).for_each(|chunk| {
            Goldilocks::canonical_words_mut(chunk);
        });
    }

    /// Transforms check their inputs inside the first pass and leave canonical words while
    /// each run of outputs is in cache: no pass of their own over memory.
    fn plan_for_words(plan: NttPlan<Self>) -> NttPlan<Self> {
        plan.checking_inputs_with(Goldilocks::all_canonical)
            .finishing_outputs_with(|v| {
                Goldilocks::canonical_words_mut(v);
            })
    }

    fn refusal(values: &[Self]) -> String {
        let words: Vec<u64> = values.iter().map(Goldilocks::as_raw_u64).collect();
        match check_canonical_goldilocks(&words) {
            Err(e) => e.to_string(),
            Ok(()) => zkaccel_ntt::NttError::InputRejected.to_string(),
        }
    }
}

/// A Montgomery field: canonical words read as Montgomery forms for linear maps.
impl RegisteredField for Bn254Fr {
    const ID: FieldId = FieldId::Bn254;
    const WORDS: usize = 4;

    fn view_words_for_linear_map(words: &mut [u64]) -> Option<Result<&mut [Self], FieldError>> {
        Some(Bn254Fr::slice_from_montgomery_words_mut(words))
    }
}

/// A Montgomery field: canonical words read as Montgomery forms for linear maps.
impl RegisteredField for Bls381Fr {
    const ID: FieldId = FieldId::Bls12_381;
    const WORDS: usize = 4;

    fn view_words_for_linear_map(words: &mut [u64]) -> Option<Result<&mut [Self], FieldError>> {
        Some(Bls381Fr::slice_from_montgomery_words_mut(words))
    }
}

/// Converted both ways (no view).
impl RegisteredField for Bls377Fq {
    const ID: FieldId = FieldId::Bls12_377Fq;
    const WORDS: usize = 6;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The id and words count each field declares, read back through the visitor.
    struct Declared;
    impl FieldVisitor for Declared {
        type Output = (FieldId, usize, &'static str);
        fn visit<F: RegisteredField>(self) -> Self::Output {
            (F::ID, F::WORDS, F::NAME)
        }
    }

    #[test]
    fn every_id_visits_its_own_field_and_parses_back() {
        for id in FieldId::ALL {
            let (declared, words, name) = id.visit(Declared);
            assert_eq!(declared, id, "{name}");
            assert_eq!(id.name().parse::<FieldId>(), Ok(id));
            for alias in id.aliases() {
                assert_eq!(alias.parse::<FieldId>(), Ok(id));
            }
            assert!(words >= 1);
        }
        assert_eq!(FieldId::Bls12_377Fq.visit(Declared).1, 6);
    }

    #[test]
    fn unknown_names_list_the_accepted_ones() {
        let err = FieldId::parse_among("bls12-377-fq", &FieldId::ALL[..3]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown field \"bls12-377-fq\"; known: goldilocks, bn254, bls12-381"
        );
        for bad in ["", "Goldilocks", "bn254 ", "bls12_381", "\u{0}"] {
            assert!(bad.parse::<FieldId>().is_err(), "{bad:?}");
        }
    }

    /// The words round trip on every field, and non-canonical words are refused unless
    /// reduced (the modulus itself: the smallest such integer).
    struct RoundTrip;
    impl FieldVisitor for RoundTrip {
        type Output = ();
        fn visit<F: RegisteredField>(self) {
            let values: Vec<F> = (0..100u64)
                .map(|i| F::from_u64_reduced(i * i + 7))
                .collect();
            let words = F::to_canonical_words(&values);
            assert_eq!(words.len(), values.len() * F::WORDS);
            assert_eq!(F::from_canonical_words(&words, false).unwrap(), values);
            let modulus = F::modulus();
            let p = modulus.as_ref();
            assert!(F::from_canonical_words(p, false).is_err());
            assert_eq!(F::from_canonical_words(p, true).unwrap(), vec![F::ZERO]);
            let mut view = words.clone();
            if let Some(v) = F::view_canonical_words(&mut view) {
                let v = v.unwrap();
                assert_eq!(v, &values[..]);
                F::canonicalize_view(v);
                assert_eq!(view, words);
            }
        }
    }

    #[test]
    fn canonical_words_round_trip_on_every_field() {
        for id in FieldId::ALL {
            id.visit(RoundTrip);
        }
    }
}
