//! What a FRI proof opens: which polynomials of which committed batches, at which points.

/// One committed batch (an oracle) as the verifier knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FriOracleInfo {
    /// Polynomials in the batch (the width of its Merkle leaves).
    pub num_polys: usize,
}

/// One polynomial: its batch and its place there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FriPolynomialInfo {
    /// Index of the batch among the instance's oracles.
    pub oracle_index: usize,
    /// Index of the polynomial in its batch.
    pub polynomial_index: usize,
}

impl FriPolynomialInfo {
    /// Polynomials `range` of oracle `oracle_index`, in order.
    pub fn from_range(oracle_index: usize, range: std::ops::Range<usize>) -> Vec<Self> {
        range
            .map(|polynomial_index| Self {
                oracle_index,
                polynomial_index,
            })
            .collect()
    }
}

/// Polynomials opened at one point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FriBatchInfo<E> {
    /// The opening point.
    pub point: E,
    /// The polynomials opened there, in the order their values are combined.
    pub polynomials: Vec<FriPolynomialInfo>,
}

/// Everything a FRI proof opens (plonky2's `FriInstanceInfo`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FriInstance<E> {
    /// The committed batches, in the order the proof's initial openings list them.
    pub oracles: Vec<FriOracleInfo>,
    /// The opening points with their polynomials.
    pub batches: Vec<FriBatchInfo<E>>,
}

/// The claimed values: for each batch of the instance, one value per polynomial, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FriOpenings<E> {
    /// Values per batch.
    pub batches: Vec<Vec<E>>,
}
