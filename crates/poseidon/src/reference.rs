//! Parameter generation the way the Poseidon reference (`generate_parameters_grain.sage`)
//! does it: round numbers from the paper's formula, round constants and a Cauchy MDS matrix
//! from the Grain stream, the MDS candidate redrawn until it passes the reference's security
//! checks.

use zkaccel_field::{limbs, PrimeField};

use crate::error::PoseidonError;
use crate::grain::{check_field_bits, GrainLfsr, GrainSeed, SboxEncoding};
use crate::matrix::Matrix;
use crate::mds_security;
use crate::params::{check_alpha, PoseidonParams};
use crate::rounds;

/// MDS candidates drawn before giving up (the reference loops forever; the first candidate
/// passes for every circomlib width).
pub const MDS_ATTEMPTS: usize = 64;

/// The field size `n` the reference reads per element: the bit length of `p`.
pub fn field_bits<F: PrimeField>() -> u32 {
    limbs::bit_len(F::modulus().as_ref())
}

/// `log2 p` as a real number.
pub fn log2_modulus<F: PrimeField>() -> f64 {
    let m = F::modulus();
    let m = m.as_ref();
    let bits = limbs::bit_len(m);
    // The top 64 bits carry all the precision an f64 has.
    let mut top = m.to_vec();
    let shift = bits.saturating_sub(64);
    limbs::shr_assign(&mut top, shift);
    (top[0] as f64).log2() + shift as f64
}

/// Draws the reference's Cauchy MDS candidates from `lfsr` (2t elements reduced mod p,
/// redrawn if two coincide, rejected if some `x_i + y_j = 0`) until one passes
/// [`mds_security::is_secure`].
///
/// # Errors
/// [`PoseidonError::NoSecureMds`] after [`MDS_ATTEMPTS`] candidates.
pub fn grain_cauchy_mds<F: PrimeField>(
    lfsr: &mut GrainLfsr,
    width: usize,
) -> Result<Matrix<F>, PoseidonError> {
    for _ in 0..MDS_ATTEMPTS {
        let values = loop {
            let v: Vec<F> = (0..2 * width)
                .map(|_| lfsr.next_field_element_reduced())
                .collect();
            let mut sorted = v.clone();
            sorted.sort();
            sorted.dedup();
            if sorted.len() == v.len() {
                break v;
            }
        };
        let Ok(m) = Matrix::cauchy(&values[..width], &values[width..]) else {
            continue;
        };
        if mds_security::is_secure(&m) {
            return Ok(m);
        }
    }
    Err(PoseidonError::NoSecureMds(MDS_ATTEMPTS))
}

/// The complete reference instance for `(t, α, R_F, R_P)`: Grain seeded with
/// `(1, 0, n, t, R_F, R_P)`, `(R_F + R_P)·t` rejection-sampled constants, then the MDS matrix.
///
/// # Errors
/// Parameter errors of [`PoseidonParams::new`], [`PoseidonError::NoSecureMds`].
pub fn reference_params<F: PrimeField>(
    width: usize,
    alpha: u64,
    full_rounds: usize,
    partial_rounds: usize,
) -> Result<PoseidonParams<F>, PoseidonError> {
    check_alpha::<F>(alpha)?;
    if width < 2 {
        return Err(PoseidonError::WidthTooSmall(width));
    }
    crate::limits::check_shape(width, full_rounds, partial_rounds)?;
    let n = field_bits::<F>();
    check_field_bits::<F>(n)?;
    let seed = GrainSeed {
        field: 1,
        sbox: SboxEncoding::Reference.code(alpha),
        field_bits: n,
        width,
        full_rounds,
        partial_rounds,
    };
    let mut lfsr = GrainLfsr::new(seed);
    let count = (full_rounds + partial_rounds) * width;
    let constants: Vec<F> = (0..count)
        .map(|_| lfsr.next_field_element_rejecting())
        .collect();
    let mds = grain_cauchy_mds::<F>(&mut lfsr, width)?;
    PoseidonParams::new(
        width,
        alpha,
        full_rounds,
        partial_rounds,
        constants,
        mds.entries().to_vec(),
    )
}

/// The reference instance with the reference round numbers for `F`, `t`, `α`.
///
/// # Errors
/// As [`reference_params`] and [`rounds::reference_round_numbers`].
pub fn reference_params_auto<F: PrimeField>(
    width: usize,
    alpha: u64,
) -> Result<PoseidonParams<F>, PoseidonError> {
    check_alpha::<F>(alpha)?;
    let (rf, rp) = rounds::reference_round_numbers(log2_modulus::<F>(), width, alpha)?;
    reference_params(width, alpha, rf, rp)
}
