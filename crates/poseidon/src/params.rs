//! Validated textbook parameters of a Poseidon instance.

use zkaccel_field::PrimeField;
use zkaccel_symmetric::sbox::power_map_gcd;

use crate::error::PoseidonError;
use crate::matrix::Matrix;

/// The textbook description of a Poseidon permutation over `F`: width `t`, S-box `x^α`,
/// `R_F` full rounds (half before and half after) and `R_P` partial rounds, one constant per
/// lane and round, and the MDS matrix `M` (a round ends with `s ← M·s`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoseidonParams<F> {
    pub(crate) width: usize,
    pub(crate) alpha: u64,
    pub(crate) full_rounds: usize,
    pub(crate) partial_rounds: usize,
    pub(crate) round_constants: Vec<F>,
    pub(crate) mds: Matrix<F>,
}

impl<F: PrimeField> PoseidonParams<F> {
    /// Checks and stores the parameters. `round_constants[r·t + i]` is added to lane `i` in
    /// round `r`; `mds` is `t × t`, row-major.
    ///
    /// # Errors
    /// [`PoseidonError::WidthTooSmall`] for `t < 2`; [`PoseidonError::Limit`] past
    /// [`crate::limits`]; [`PoseidonError::AlphaTooSmall`] for
    /// `α < 3`; [`PoseidonError::AlphaNotPermutation`] when `gcd(α, p − 1) ≠ 1`;
    /// [`PoseidonError::FullRounds`] for an odd or zero `R_F`; [`PoseidonError::ConstantCount`]
    /// and [`PoseidonError::MdsShape`] for tables of the wrong size;
    /// [`PoseidonError::MdsSingular`] for a singular MDS matrix.
    pub fn new(
        width: usize,
        alpha: u64,
        full_rounds: usize,
        partial_rounds: usize,
        round_constants: Vec<F>,
        mds: Vec<F>,
    ) -> Result<Self, PoseidonError> {
        if width < 2 {
            return Err(PoseidonError::WidthTooSmall(width));
        }
        crate::limits::check_shape(width, full_rounds, partial_rounds)?;
        check_alpha::<F>(alpha)?;
        if full_rounds == 0 || !full_rounds.is_multiple_of(2) {
            return Err(PoseidonError::FullRounds(full_rounds));
        }
        let expected = (full_rounds + partial_rounds) * width;
        if round_constants.len() != expected {
            return Err(PoseidonError::ConstantCount {
                expected,
                actual: round_constants.len(),
            });
        }
        let mds = Matrix::new(width, mds)?;
        mds.inverse()?;
        Ok(Self {
            width,
            alpha,
            full_rounds,
            partial_rounds,
            round_constants,
            mds,
        })
    }

    /// Width `t`.
    pub fn width(&self) -> usize {
        self.width
    }

    /// S-box exponent `α`.
    pub fn alpha(&self) -> u64 {
        self.alpha
    }

    /// `R_F`.
    pub fn full_rounds(&self) -> usize {
        self.full_rounds
    }

    /// `R_P`.
    pub fn partial_rounds(&self) -> usize {
        self.partial_rounds
    }

    /// All round constants, round-major.
    pub fn round_constants(&self) -> &[F] {
        &self.round_constants
    }

    /// The MDS matrix.
    pub fn mds(&self) -> &Matrix<F> {
        &self.mds
    }
}

/// Checks that `x^α` is an S-box of `F`.
///
/// # Errors
/// [`PoseidonError::AlphaTooSmall`], [`PoseidonError::AlphaNotPermutation`].
pub fn check_alpha<F: PrimeField>(alpha: u64) -> Result<(), PoseidonError> {
    if alpha < 3 {
        return Err(PoseidonError::AlphaTooSmall(alpha));
    }
    let gcd = power_map_gcd::<F>(alpha);
    if gcd != 1 {
        return Err(PoseidonError::AlphaNotPermutation {
            alpha,
            field: F::NAME,
            gcd,
        });
    }
    Ok(())
}
