//! Conversions between zkaccel's and plonky2's Goldilocks types, shared by the differential
//! tests and the benchmarks.

pub mod plonky2_shapes;
pub mod starky_airs;

use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::field::types::{Field, PrimeField64};
use plonky2::hash::hash_types::HashOut;
use zkaccel_goldilocks::Goldilocks;

/// plonky2's field element with the same canonical value.
pub fn to_plonky2(x: Goldilocks) -> GoldilocksField {
    GoldilocksField::from_canonical_u64(x.as_canonical_u64())
}

/// zkaccel's field element with the same canonical value.
pub fn from_plonky2(x: GoldilocksField) -> Goldilocks {
    Goldilocks::new_reduced(x.to_canonical_u64())
}

/// A plonky2 digest as zkaccel's.
pub fn digest_from_plonky2(h: HashOut<GoldilocksField>) -> [Goldilocks; 4] {
    h.elements.map(from_plonky2)
}

/// A zkaccel digest as plonky2's.
pub fn digest_to_plonky2(d: &[Goldilocks; 4]) -> HashOut<GoldilocksField> {
    HashOut {
        elements: d.map(to_plonky2),
    }
}
