//! The FPGA NTT core's vectors (hw/ntt): one sub-task size's configuration, twiddles, inputs and
//! zkaccel-ntt's transforms, and a √N×√N transform's through the core (`ntt_four_step`) —
//! Montgomery form (`x·2^W mod P`) throughout.

use std::fmt::Write as _;

use zkaccel_field::PrimeField;

use crate::{random_elements, HwVectorError, MontgomeryHex, VectorFile};

/// The most points one `ntt` file holds (inputs and outputs: ~130 MB of text at 256 bits).
pub const MAX_NTT_POINTS: u64 = 1 << 20;

/// The fields of the NTT core RTL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NttField {
    /// BN254 Fr (256-bit unit).
    Bn254Fr,
    /// BLS12-381 Fr, bellman's field (256-bit unit).
    Bls12_381Fr,
    /// BLS12-377 Fq (384-bit unit; the paper's 384-bit field, BLS12-381 Fq, has no NTT).
    Bls12_377Fq,
}

impl NttField {
    /// The name in file names and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Bn254Fr => "bn254-fr",
            Self::Bls12_381Fr => "bls12-381-fr",
            Self::Bls12_377Fq => "bls12-377-fq",
        }
    }
}

/// `ntt_vectors_<field>_<log_points>.hex`, one hexadecimal word per line (`W/4` digits): a
/// header line `width log_points subtasks` (decimal), the modulus, `P' = −P^{−1} mod 2^W`, the
/// twiddles `ω^k` for `k < 2^(log_points−1)` with `ω = F::two_adic_generator(log_points)`,
/// then the sub-tasks' inputs (random from `seed`), then their transforms (zkaccel-ntt's
/// forward NTT, natural order in, bit-reversed order out), all in Montgomery form.
///
/// # Errors
/// [`HwVectorError::TooLarge`] past [`MAX_NTT_POINTS`] points in all; the transform's errors
/// for a size the field has no root of unity for.
pub fn vectors(
    field: NttField,
    log_points: u32,
    subtasks: u32,
    seed: u64,
) -> Result<VectorFile, HwVectorError> {
    // Saturating: any total past the bound is refused, whatever its size.
    let total = (u128::from(subtasks) << log_points.min(64)).min(u128::from(u64::MAX)) as u64;
    if total > MAX_NTT_POINTS {
        return Err(HwVectorError::TooLarge {
            what: "points",
            got: total,
            max: MAX_NTT_POINTS,
        });
    }
    let log_points = log_points as usize;
    let subtasks = subtasks as usize;
    let text = match field {
        NttField::Bn254Fr => lines::<zkaccel_bn254::Fr, 4>(log_points, subtasks, seed)?,
        NttField::Bls12_381Fr => lines::<zkaccel_bls12_381::Fr, 4>(log_points, subtasks, seed)?,
        NttField::Bls12_377Fq => lines::<zkaccel_bls12_377::Fq, 6>(log_points, subtasks, seed)?,
    };
    Ok(VectorFile {
        name: format!("ntt_vectors_{}_{log_points}.hex", field.name()),
        text,
    })
}

/// The lines of [`vectors`] for a field of `N` words.
fn lines<F, const N: usize>(
    log_points: usize,
    subtasks: usize,
    seed: u64,
) -> Result<String, HwVectorError>
where
    F: zkaccel_ntt::NttField + PrimeField,
{
    let hex = MontgomeryHex::<N>::new::<F>();
    let points = 1usize << log_points;
    let inputs = random_elements::<F, N>(seed, subtasks * points);
    let mut outputs = inputs.clone();
    zkaccel_ntt::NttPlan::<F>::new(log_points)?.forward_batch(
        &mut outputs,
        subtasks,
        zkaccel_ntt::Layout::PolynomialMajor,
        zkaccel_ntt::Order::NR,
    )?;
    let omega = F::two_adic_generator(log_points)?;

    let mut text = String::new();
    writeln!(text, "{} {log_points} {subtasks}", 64 * N)?;
    hex.constants(&mut text)?;
    let mut power = F::ONE;
    for _ in 0..points / 2 {
        writeln!(text, "{}", hex.montgomery(&power))?;
        power *= omega;
    }
    for x in inputs.iter().chain(&outputs) {
        writeln!(text, "{}", hex.montgomery(x))?;
    }
    Ok(text)
}

/// The largest √N×√N transform one file holds, log2.
pub const MAX_FOUR_STEP_LOG: u32 = 20;

/// `ntt_four_step_<field>_<log_n>.hex`, one hexadecimal word per line: a header line
/// `width log_n log_points` (decimal, `log_points = log_n/2`, `M = 2^log_points`), the modulus,
/// `P'`, the core's twiddles `ω_M^k` (`k < M/2`), the scaling twiddles `ω_N^(n2·rev(t))` in
/// the first pass's output order (sub-task `n2`, output `t`, whose frequency is `rev(t)`), the
/// input (random from `seed`), and zkaccel-ntt's transform in natural order; Montgomery form.
///
/// # Errors
/// [`HwVectorError::OddLogN`] for an odd `log_n`; [`HwVectorError::TooLarge`] past
/// 2^[`MAX_FOUR_STEP_LOG`] points; the transform's errors.
pub fn four_step_vectors(
    field: NttField,
    log_n: u32,
    seed: u64,
) -> Result<VectorFile, HwVectorError> {
    if !log_n.is_multiple_of(2) {
        return Err(HwVectorError::OddLogN { log_n });
    }
    if log_n > MAX_FOUR_STEP_LOG {
        return Err(HwVectorError::TooLarge {
            what: "log2 points",
            got: log_n.into(),
            max: MAX_FOUR_STEP_LOG.into(),
        });
    }
    let log_n = log_n as usize;
    let text = match field {
        NttField::Bn254Fr => four_step_lines::<zkaccel_bn254::Fr, 4>(seed, log_n)?,
        NttField::Bls12_381Fr => four_step_lines::<zkaccel_bls12_381::Fr, 4>(seed, log_n)?,
        NttField::Bls12_377Fq => four_step_lines::<zkaccel_bls12_377::Fq, 6>(seed, log_n)?,
    };
    Ok(VectorFile {
        name: format!("ntt_four_step_{}_{log_n}.hex", field.name()),
        text,
    })
}

/// The lines of [`four_step_vectors`].
fn four_step_lines<F, const N: usize>(seed: u64, log_n: usize) -> Result<String, HwVectorError>
where
    F: zkaccel_ntt::NttField + PrimeField,
{
    let hex = MontgomeryHex::<N>::new::<F>();
    let log_points = log_n / 2;
    let points = 1usize << log_points;
    let input = random_elements::<F, N>(seed, 1 << log_n);
    let mut output = input.clone();
    zkaccel_ntt::NttPlan::<F>::new(log_n)?.forward(&mut output, zkaccel_ntt::Order::NN)?;
    let omega_m = F::two_adic_generator(log_points)?;
    let omega_n = F::two_adic_generator(log_n)?;

    let mut text = String::new();
    writeln!(text, "{} {log_n} {log_points}", 64 * N)?;
    hex.constants(&mut text)?;
    let mut power = F::ONE;
    for _ in 0..points / 2 {
        writeln!(text, "{}", hex.montgomery(&power))?;
        power *= omega_m;
    }
    // Sub-task n2's output t is frequency k1 = rev(t): its twiddle is ω_N^(n2·k1).
    for n2 in 0..points {
        let row = omega_n.exp_u64(n2 as u64);
        for t in 0..points {
            let k1 = zkaccel_ntt::reverse_bits(t, log_points);
            writeln!(text, "{}", hex.montgomery(&row.exp_u64(k1 as u64)))?;
        }
    }
    for x in input.iter().chain(&output) {
        writeln!(text, "{}", hex.montgomery(x))?;
    }
    Ok(text)
}
