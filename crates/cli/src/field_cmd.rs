//! `zkaccel field …`: arithmetic and constants of the prime fields, for checking other
//! implementations (RTL benches, other libraries) by hand.

use clap::{Args, Subcommand, ValueEnum};
use zkaccel_field::modmul::MulAlgorithm;
use zkaccel_field::{limbs, PrimeField, TwoAdicField};

use crate::field_arg::{FieldArg, SCALAR_FIELDS};
use crate::inputs::{parse_one, InputError, Origin};
use zkaccel_fp256::{Fp256, Fp256Config};
use zkaccel_registry::FieldId;

/// The multiplication algorithms of the papers.
#[derive(Debug, Clone, Copy, ValueEnum)]
#[value(rename_all = "kebab-case")]
pub enum AlgorithmName {
    /// Montgomery (CIOS).
    Montgomery,
    /// Barrett, AMAZE Algorithm 2.
    Barrett,
    /// Russian peasant, AMAZE Algorithm 1.
    Peasant,
}

impl From<AlgorithmName> for MulAlgorithm {
    fn from(a: AlgorithmName) -> Self {
        match a {
            AlgorithmName::Montgomery => MulAlgorithm::Montgomery,
            AlgorithmName::Barrett => MulAlgorithm::Barrett,
            AlgorithmName::Peasant => MulAlgorithm::RussianPeasant,
        }
    }
}

#[derive(Subcommand)]
pub enum FieldCommand {
    /// Multiply two canonical field elements; prints the product in decimal.
    Mul(MulArgs),
    /// Print the field's modulus, generator, two-adicity and derived constants.
    Info(InfoArgs),
}

#[derive(Args)]
pub struct MulArgs {
    /// The field.
    #[arg(long, value_parser = FieldArg(SCALAR_FIELDS))]
    field: FieldId,
    /// The multiplication algorithm (256-bit fields only).
    #[arg(long, value_enum, default_value = "montgomery")]
    algorithm: AlgorithmName,
    /// First factor (decimal or 0x hex).
    a: String,
    /// Second factor (decimal or 0x hex).
    b: String,
}

#[derive(Args)]
pub struct InfoArgs {
    /// The field.
    #[arg(long, value_parser = FieldArg(SCALAR_FIELDS))]
    field: FieldId,
}

/// Errors of the `field` subcommand.
#[derive(Debug, thiserror::Error)]
pub enum FieldCmdError {
    /// An operand was not a canonical element.
    #[error(transparent)]
    Operand(#[from] InputError),
    /// A 256-bit algorithm was asked of Goldilocks.
    #[error("--algorithm {0:?} applies to the 256-bit fields only")]
    AlgorithmNotAvailable(AlgorithmName),
    /// A field of the registry these commands do not offer (the parser refuses it first).
    #[error("--field {0} is not offered here")]
    NotOffered(FieldId),
}

fn parse_operands<F: PrimeField>(a: &str, b: &str) -> Result<(F, F), FieldCmdError> {
    Ok((
        parse_one(a, Origin::Argument(1))?,
        parse_one(b, Origin::Argument(2))?,
    ))
}

fn mul_fp256<C: Fp256Config>(args: &MulArgs) -> Result<String, FieldCmdError> {
    let (a, b) = parse_operands::<Fp256<C>>(&args.a, &args.b)?;
    Ok(a.mul_with(b, args.algorithm.into()).to_decimal_string())
}

fn info<F: PrimeField + TwoAdicField>() -> serde_json::Value {
    serde_json::json!({
        "name": F::NAME,
        "modulus": limbs::to_decimal(F::modulus().as_ref()),
        "modulus_hex": limbs::to_hex(F::modulus().as_ref(), 2 * F::NUM_BYTES),
        "bits": F::BITS,
        "generator": F::GENERATOR.to_decimal_string(),
        "two_adicity": F::TWO_ADICITY,
        "two_adic_root_of_unity": F::two_adic_generator(F::TWO_ADICITY).map(|g| g.to_decimal_string()).ok(),
    })
}

fn info_fp256<C: Fp256Config>() -> serde_json::Value {
    let mut v = info::<Fp256<C>>();
    let m = C::MONT;
    let b = Fp256::<C>::barrett();
    v["montgomery"] = serde_json::json!({
        "r_mod_p": limbs::to_hex(&m.r, 64),
        "r2_mod_p": limbs::to_hex(&m.r2, 64),
        "neg_p_inv_mod_2_64": format!("{:#018x}", m.inv),
    });
    v["barrett"] = serde_json::json!({
        "n": b.n,
        "z": limbs::to_hex(&b.z, 64),
        "residue_bits": b.residue_bits,
    });
    v
}

/// Runs a `field` subcommand.
pub fn run(cmd: &FieldCommand) -> Result<(), Box<dyn std::error::Error>> {
    match cmd {
        FieldCommand::Mul(args) => {
            let out = match args.field {
                FieldId::Goldilocks => {
                    if !matches!(args.algorithm, AlgorithmName::Montgomery) {
                        return Err(FieldCmdError::AlgorithmNotAvailable(args.algorithm).into());
                    }
                    let (a, b) =
                        parse_operands::<zkaccel_goldilocks::Goldilocks>(&args.a, &args.b)?;
                    (a * b).to_decimal_string()
                }
                FieldId::Bn254 => mul_fp256::<zkaccel_bn254::FrConfig>(args)?,
                FieldId::Bls12_381 => mul_fp256::<zkaccel_bls12_381::FrConfig>(args)?,
                other => return Err(FieldCmdError::NotOffered(other).into()),
            };
            println!("{out}");
        }
        FieldCommand::Info(args) => {
            let v = match args.field {
                FieldId::Goldilocks => info::<zkaccel_goldilocks::Goldilocks>(),
                FieldId::Bn254 => info_fp256::<zkaccel_bn254::FrConfig>(),
                FieldId::Bls12_381 => info_fp256::<zkaccel_bls12_381::FrConfig>(),
                other => return Err(FieldCmdError::NotOffered(other).into()),
            };
            println!("{}", serde_json::to_string_pretty(&v)?);
        }
    }
    Ok(())
}
