//! `zkaccel mimc cipher|hash`.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use zkaccel_bn254::Fr;
use zkaccel_field::modmul::MulAlgorithm;
use zkaccel_field::{Field, PrimeField};
use zkaccel_presets::MimcPreset as Preset;

use crate::field_cmd::AlgorithmName;
use crate::inputs::{parse_one_as, read_values_as, Origin, ValueMode};

/// The presets, named after the standard each matches.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum PresetName {
    /// circomlib MiMC7 (x^7, 91 rounds): AMAZE, circomlibjs, arkworks-mimc.
    Circomlib,
    /// gnark-crypto (x^5, 110 rounds).
    Gnark,
    /// ethsnarks MiMCpe7 (x^7, 91 rounds, shifted constants).
    Ethsnarks,
    /// circomlib MiMCSponge (Feistel, x^5, 220 rounds).
    CircomlibSponge,
}

impl From<PresetName> for Preset {
    fn from(p: PresetName) -> Self {
        match p {
            PresetName::Circomlib => Preset::Circomlib,
            PresetName::Gnark => Preset::Gnark,
            PresetName::Ethsnarks => Preset::Ethsnarks,
            PresetName::CircomlibSponge => Preset::CircomlibSponge,
        }
    }
}

#[derive(Subcommand)]
pub enum MimcCommand {
    /// Encrypt one value: E_k(x). For circomlib-sponge, the Feistel permutation of (x, 0); prints xL.
    Cipher(CipherArgs),
    /// Miyaguchi–Preneel hash of the values (for circomlib-sponge: the sponge, one output).
    Hash(HashArgs),
}

#[derive(Args)]
pub struct CipherArgs {
    /// The parameter set.
    #[arg(long, value_enum)]
    preset: PresetName,
    /// The key k (decimal or 0x hex).
    #[arg(long)]
    key: String,
    /// The multiplication algorithm (the AMAZE design's datapath; default montgomery). Not
    /// for circomlib-sponge, whose Feistel rounds have one datapath.
    #[arg(long, value_enum)]
    algorithm: Option<AlgorithmName>,
    /// Reduce values (and the key) at or above the modulus, as circomlibjs does, instead of
    /// rejecting them.
    #[arg(long)]
    reduce: bool,
    /// Print a JSON object instead of the bare result.
    #[arg(long)]
    json: bool,
    /// The value x (decimal or 0x hex).
    x: String,
}

#[derive(Args)]
pub struct HashArgs {
    /// The parameter set.
    #[arg(long, value_enum)]
    preset: PresetName,
    /// Initial chaining value (MP) or sponge key; default 0.
    #[arg(long, default_value = "0")]
    key: String,
    /// A file holding one value per line (instead of VALUES).
    #[arg(long, conflicts_with = "values")]
    file: Option<PathBuf>,
    /// The multiplication algorithm (the AMAZE design's datapath; default montgomery). Not
    /// for circomlib-sponge, whose Feistel rounds have one datapath.
    #[arg(long, value_enum)]
    algorithm: Option<AlgorithmName>,
    /// Reduce values (and the key) at or above the modulus, as circomlibjs does, instead of
    /// rejecting them.
    #[arg(long)]
    reduce: bool,
    /// Print a JSON object instead of the bare result.
    #[arg(long)]
    json: bool,
    /// The values (decimal or 0x hex), one field element per block.
    values: Vec<String>,
}

fn print(json: bool, object: serde_json::Value, result: Fr) {
    if json {
        println!("{object}");
    } else {
        println!("{}", result.to_decimal_string());
    }
}

/// The most values `mimc hash` takes (the hash takes any number; this bounds what a file may
/// make the command hold).
pub const MAX_HASH_VALUES: usize = 1 << 20;

/// The algorithm asked for (default Montgomery); refused for the Feistel sponge, which does
/// not use it.
fn algorithm(
    preset: Preset,
    asked: Option<AlgorithmName>,
) -> Result<MulAlgorithm, Box<dyn std::error::Error>> {
    if preset.is_feistel() && asked.is_some() {
        return Err("--algorithm applies to the MiMC-p/p presets, not to circomlib-sponge".into());
    }
    Ok(asked.map_or(MulAlgorithm::Montgomery, MulAlgorithm::from))
}

/// Runs a `mimc` subcommand.
pub fn run(cmd: &MimcCommand) -> Result<(), Box<dyn std::error::Error>> {
    match cmd {
        MimcCommand::Cipher(a) => {
            let preset: Preset = a.preset.into();
            let mode = ValueMode::reduce_if(a.reduce);
            let x: Fr = parse_one_as(&a.x, Origin::Argument(1), mode)?;
            let k: Fr = parse_one_as(&a.key, Origin::Option("--key"), mode)?;
            let algorithm = algorithm(preset, a.algorithm)?;
            let out = if preset.is_feistel() {
                preset.sponge().permute(x, Fr::ZERO, k).0
            } else {
                preset.cipher().encrypt_with(x, k, algorithm)?
            };
            let obj = serde_json::json!({
                "preset": preset.name(), "algorithm": algorithm.name(),
                "x": x.to_decimal_string(), "key": k.to_decimal_string(), "out": out.to_decimal_string(),
            });
            print(a.json, obj, out);
        }
        MimcCommand::Hash(a) => {
            let preset: Preset = a.preset.into();
            let mode = ValueMode::reduce_if(a.reduce);
            let values: Vec<Fr> = read_values_as(
                &a.values,
                a.file.as_deref(),
                mode,
                MAX_HASH_VALUES,
                "the MiMC hash here",
            )?;
            let key: Fr = parse_one_as(&a.key, Origin::Option("--key"), mode)?;
            let algorithm = algorithm(preset, a.algorithm)?;
            let out = if preset.is_feistel() {
                preset.sponge().hash(&values, key, 1)?[0]
            } else {
                preset.cipher().hash_with(&values, key, algorithm)?
            };
            let obj = serde_json::json!({
                "preset": preset.name(), "algorithm": algorithm.name(), "key": key.to_decimal_string(),
                "inputs": values.iter().map(|v| v.to_decimal_string()).collect::<Vec<_>>(),
                "out": out.to_decimal_string(),
            });
            print(a.json, obj, out);
        }
    }
    Ok(())
}
