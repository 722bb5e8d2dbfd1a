//! `zkaccel poseidon hash|params`.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use serde_json::json;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_bn254::Fr as Bn;
use zkaccel_field::PrimeField;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_plonky2::Plonky2Poseidon;
use zkaccel_poseidon::reference::{log2_modulus, reference_params};
use zkaccel_poseidon::rounds::reference_round_numbers;
use zkaccel_poseidon::{PoseidonError, PoseidonParams};
use zkaccel_presets::{circomlib, neptune};
use zkaccel_presets::{CircomPoseidon, NeptunePoseidon, Strength};
use zkaccel_registry::{FieldId, FieldVisitor, RegisteredField};

use crate::field_arg::{FieldArg, SCALAR_FIELDS};
use crate::inputs::{read_values_as, ValueMode};

#[derive(Subcommand)]
pub enum PoseidonCommand {
    /// Hash values with a preset: plonky2 (hash_no_pad, 4-element digest), neptune (one Merkle
    /// node of ARITY children) or circomlib (t = number of values + 1).
    Hash(HashArgs),
    /// Generate an instance's round numbers, round constants and MDS matrix, as JSON.
    Params(ParamsArgs),
}

/// The presets, named after the standard each matches.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum PresetName {
    /// plonky2 1.1.0 (Goldilocks, t = 12): `hash_no_pad` of the values.
    Plonky2,
    /// neptune 13 (Filecoin, BLS12-381): a Merkle node of `--arity` values.
    Neptune,
    /// circomlibjs `poseidon` (BN254): 1 to 16 values.
    Circomlib,
}

/// neptune strengths.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum StrengthName {
    /// The default round numbers.
    Standard,
    /// ⌈1.25·R_P⌉ partial rounds.
    Strengthened,
}

impl From<StrengthName> for Strength {
    fn from(s: StrengthName) -> Self {
        match s {
            StrengthName::Standard => Strength::Standard,
            StrengthName::Strengthened => Strength::Strengthened,
        }
    }
}

#[derive(Args)]
pub struct HashArgs {
    /// The standard to match.
    #[arg(long, value_enum)]
    preset: PresetName,
    /// neptune only: the arity (2, 4, 8, 11, …; default 2); exactly this many values.
    #[arg(long)]
    arity: Option<usize>,
    /// neptune only: the strength (default standard).
    #[arg(long, value_enum)]
    strength: Option<StrengthName>,
    /// A file holding one value per line (instead of VALUES).
    #[arg(long, conflicts_with = "values")]
    file: Option<PathBuf>,
    /// Reduce values at or above the field's modulus instead of rejecting them.
    #[arg(long)]
    reduce: bool,
    /// Print a JSON object instead of the bare result.
    #[arg(long)]
    json: bool,
    /// The values (decimal or 0x hex).
    values: Vec<String>,
}

/// How constants are generated.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Style {
    /// The Poseidon reference (generate_parameters_grain.sage; circomlib): Grain with S-box code
    /// 0, Grain-sampled Cauchy MDS passing the subspace-trail checks.
    Reference,
    /// neptune (Filecoin): Grain with S-box code 1 for x^5, MDS 1/(i + j + t), neptune's round
    /// numbers (x^5 only).
    Neptune,
}

#[derive(Args)]
pub struct ParamsArgs {
    /// The field.
    #[arg(long, value_parser = FieldArg(SCALAR_FIELDS))]
    field: FieldId,
    /// The state width t.
    #[arg(long)]
    width: usize,
    /// The S-box exponent α (gcd(α, p − 1) must be 1).
    #[arg(long, default_value_t = 5)]
    alpha: u64,
    /// The generation rules.
    #[arg(long, value_enum, default_value = "reference")]
    style: Style,
    /// Full rounds (default: the round-number formula).
    #[arg(long, requires = "partial_rounds")]
    full_rounds: Option<usize>,
    /// Partial rounds (default: the round-number formula).
    #[arg(long, requires = "full_rounds")]
    partial_rounds: Option<usize>,
    /// neptune style: the strength.
    #[arg(long, value_enum, default_value = "standard")]
    strength: StrengthName,
}

fn strings<F: PrimeField>(xs: &[F]) -> Vec<String> {
    xs.iter().map(|x| x.to_decimal_string()).collect()
}

fn params_json<F: PrimeField>(p: &PoseidonParams<F>, style: &str) -> serde_json::Value {
    let t = p.width();
    json!({
        "field": F::NAME,
        "modulus": F::modulus().as_ref().iter().rev().map(|w| format!("{w:016x}")).collect::<String>(),
        "style": style,
        "width": t,
        "alpha": p.alpha(),
        "full_rounds": p.full_rounds(),
        "partial_rounds": p.partial_rounds(),
        "round_constants": strings(p.round_constants()),
        "mds": (0..t).map(|i| strings(p.mds().row(i))).collect::<Vec<_>>(),
    })
}

fn generate<F: PrimeField>(a: &ParamsArgs) -> Result<serde_json::Value, PoseidonError> {
    match a.style {
        Style::Reference => {
            let (rf, rp) = match (a.full_rounds, a.partial_rounds) {
                (Some(f), Some(p)) => (f, p),
                _ => reference_round_numbers(log2_modulus::<F>(), a.width, a.alpha)?,
            };
            Ok(params_json(
                &reference_params::<F>(a.width, a.alpha, rf, rp)?,
                "reference",
            ))
        }
        Style::Neptune => {
            if a.alpha != neptune::ALPHA {
                return Err(PoseidonError::PresetRefuses {
                    preset: "neptune",
                    reason: "the constants are defined for x^5 only",
                });
            }
            if a.full_rounds.is_some() {
                return Err(PoseidonError::PresetRefuses {
                    preset: "neptune",
                    reason: "it fixes its own round numbers; drop --full-rounds/--partial-rounds",
                });
            }
            let arity = a
                .width
                .checked_sub(1)
                .filter(|&k| k > 0)
                .ok_or(PoseidonError::WidthTooSmall(a.width))?;
            Ok(params_json(
                &neptune::params::<F>(arity, a.strength.into())?,
                "neptune",
            ))
        }
    }
}

/// Runs a `poseidon` subcommand.
pub fn run(cmd: &PoseidonCommand) -> Result<(), Box<dyn std::error::Error>> {
    match cmd {
        PoseidonCommand::Hash(a) => hash(a),
        PoseidonCommand::Params(a) => {
            /// [`generate`] on the field `--field` names.
            struct Generate<'a>(&'a ParamsArgs);
            impl FieldVisitor for Generate<'_> {
                type Output = Result<serde_json::Value, PoseidonError>;
                fn visit<F: RegisteredField>(self) -> Self::Output {
                    generate::<F>(self.0)
                }
            }
            let out = a.field.visit(Generate(a))?;
            println!("{}", serde_json::to_string_pretty(&out)?);
            Ok(())
        }
    }
}

/// The most values `poseidon hash --preset plonky2` takes (plonky2's `hash_no_pad` takes any
/// number; this bounds what a file may make the command hold).
pub const MAX_PLONKY2_HASH_VALUES: usize = 1 << 20;

fn hash(a: &HashArgs) -> Result<(), Box<dyn std::error::Error>> {
    let mode = ValueMode::reduce_if(a.reduce);
    if !matches!(a.preset, PresetName::Neptune) {
        for (given, flag) in [
            (a.arity.is_some(), "--arity"),
            (a.strength.is_some(), "--strength"),
        ] {
            if given {
                return Err(format!(
                    "{flag} applies to --preset neptune only (plonky2 hashes any number of \
                     values, circomlib's width follows their count)"
                )
                .into());
            }
        }
    }
    let (obj, line) = match a.preset {
        PresetName::Plonky2 => {
            let values: Vec<Goldilocks> = read_values_as(
                &a.values,
                a.file.as_deref(),
                mode,
                MAX_PLONKY2_HASH_VALUES,
                "plonky2's hash here",
            )?;
            let digest = Plonky2Poseidon::get().hash_no_pad(&values);
            let out = strings(&digest);
            (
                json!({"preset": "plonky2", "function": "hash_no_pad", "inputs": strings(&values), "digest": out}),
                out.join(" "),
            )
        }
        PresetName::Neptune => {
            let arity = a.arity.unwrap_or(2);
            let strength: Strength = a.strength.unwrap_or(StrengthName::Standard).into();
            let h = NeptunePoseidon::<Bls>::new(arity, strength)?;
            let values: Vec<Bls> = read_values_as(
                &a.values,
                a.file.as_deref(),
                mode,
                arity,
                "a neptune node of this arity",
            )?;
            let out = h.hash(&values).map_err(|e| match e {
                PoseidonError::InputLength { expected, actual } => format!(
                    "neptune with arity {expected} hashes exactly {expected} values, got {actual}"
                ),
                other => other.to_string(),
            })?;
            let out = out.to_decimal_string();
            (
                json!({"preset": "neptune", "arity": arity,
                       "strength": format!("{strength:?}").to_lowercase(),
                       "inputs": strings(&values), "hash": out}),
                out,
            )
        }
        PresetName::Circomlib => {
            let values: Vec<Bn> = read_values_as(
                &a.values,
                a.file.as_deref(),
                mode,
                circomlib::MAX_WIDTH - 1,
                "circomlib's Poseidon",
            )?;
            if values.is_empty() || values.len() > circomlib::MAX_WIDTH - 1 {
                return Err(format!(
                    "circomlib's Poseidon takes 1 to 16 values, got {}",
                    values.len()
                )
                .into());
            }
            let out = CircomPoseidon::for_inputs(values.len())?
                .hash(&values)?
                .to_decimal_string();
            (
                json!({"preset": "circomlib", "width": values.len() + 1, "inputs": strings(&values), "hash": out}),
                out,
            )
        }
    };
    if a.json {
        println!("{obj}");
    } else {
        println!("{line}");
    }
    Ok(())
}
