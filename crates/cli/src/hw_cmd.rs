//! `zkaccel hw …-vectors`: the files the RTL benches read (AMAZE, the Montgomery multiplier,
//! the FPGA NTT core, AcclMT's engine, tree and S-box). The formats and the golden models'
//! answers are `zkaccel-hwvectors`'; this command parses the flags and writes the files
//! atomically (a directory's files together or not at all).

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use zkaccel_hwvectors::acclmt::{self as vectors_acclmt, AcclmtInstance};
use zkaccel_hwvectors::{amaze, mont, ntt, VectorFile, MAX_VECTORS};
use zkaccel_plot::{write_atomically, FileSet};

#[derive(Subcommand)]
pub enum HwCommand {
    /// Write the AMAZE RTL constants and test vectors (from the Rust golden model).
    #[command(name = "amaze-vectors")]
    Amaze(VectorArgs),
    /// Write the Montgomery multiplier's test vectors (hw/common: Algorithm 1 of the FPGA NTT
    /// paper) for one width, from the word-serial golden model.
    #[command(name = "mont-vectors")]
    Mont(MontVectorArgs),
    /// Write the NTT core's configuration, twiddles and test vectors (hw/ntt: the FPGA NTT
    /// paper's core) for one field and sub-task size, from zkaccel-ntt.
    #[command(name = "ntt-vectors")]
    Ntt(NttVectorArgs),
    /// Write the vectors of a √N×√N transform through the NTT core (hw/ntt's ntt_four_step):
    /// both passes' twiddles, the scaling twiddles between them, input and zkaccel-ntt's output.
    #[command(name = "ntt-four-step-vectors")]
    NttFourStep(NttFourStepArgs),
    /// Write the AcclMT Poseidon engine's configuration and test vectors (hw/acclmt): the
    /// parameters in Montgomery form and permutations by zkaccel-poseidon.
    #[command(name = "acclmt-vectors")]
    Acclmt(AcclmtVectorArgs),
    /// Write an AcclMT Merkle controller's tree (hw/acclmt's acclmt_tree): the engines'
    /// configuration, the domain tag, the leaves' elements and zkaccel-merkle's root.
    #[command(name = "acclmt-tree-vectors")]
    AcclmtTree(AcclmtTreeArgs),
    /// Write the AcclMT S-box's test vectors (hw/acclmt's acclmt_sbox alone): inputs and their
    /// powers x^α by the field's arithmetic, Montgomery form. Any α of 3, 5, 7, a permutation
    /// of the field or not: x³ permutes neither BLS12-381 Fr nor BN254 Fr, so no Poseidon
    /// instance reaches the datapath's x³ path, and this bench does.
    #[command(name = "acclmt-sbox-vectors")]
    AcclmtSbox(AcclmtSboxArgs),
}

#[derive(Args)]
pub struct AcclmtSboxArgs {
    /// The file to write (atomically).
    #[arg(long = "output", alias = "out")]
    out: PathBuf,
    /// The field.
    #[arg(long, value_enum, default_value_t = AcclmtField::Bls12_381)]
    field: AcclmtField,
    /// The exponent: 3, 5 or 7.
    #[arg(long, value_parser = clap::value_parser!(u64).range(3..=7))]
    alpha: u64,
    /// Inputs (0, 1 and p − 1 first, then random), at most 10^6.
    #[arg(long, default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_VECTORS))]
    count: u64,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The trees of `acclmt-tree-vectors`: binary, neptune's or circomlib's node hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AcclmtTreePreset {
    /// neptune's (Filecoin's) arity-2 tree over BLS12-381 Fr: tag 3, digest lane 1.
    Neptune,
    /// circomlib's Poseidon over BN254 Fr, two inputs: tag 0, digest lane 0.
    Circomlib,
}

#[derive(Args)]
pub struct AcclmtTreeArgs {
    /// The file to write (atomically).
    #[arg(long = "output", alias = "out")]
    out: PathBuf,
    /// The node hash.
    #[arg(long, value_enum, default_value_t = AcclmtTreePreset::Neptune)]
    preset: AcclmtTreePreset,
    /// The depth: the controller's leaf hash engine hashes arity^depth leaves (each of
    /// `arity` elements), so the tree is zkaccel-merkle's over arity^(depth + 1) elements, at
    /// most 2^19.
    #[arg(long, required_unless_present = "log_leaves", conflicts_with = "log_leaves",
          value_parser = clap::value_parser!(u32).range(1..=MAX_ACCLMT_TREE_LOG))]
    depth: Option<u32>,
    /// For a power-of-two arity, log2 of the leaves instead of the depth: a multiple of
    /// log2(arity).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_ACCLMT_TREE_LOG))]
    log_leaves: Option<u32>,
    /// The tree's arity: 2 (the paper's) to 11 (the controller built with that Arity).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(2..=11))]
    arity: u32,
    /// Seed of the random elements.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The Poseidon instances of the AcclMT vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AcclmtPreset {
    /// neptune (Filecoin) over BLS12-381 Fr, α = 5, its standard round numbers.
    Neptune,
    /// circomlib over BN254 Fr, α = 5.
    Circomlib,
    /// The Poseidon reference instance (Grain constants, Cauchy MDS) for `--field`, `--alpha`
    /// and any round numbers (default: the reference numbers): Table I's (8, 56), α = 7, …
    Reference,
}

/// The fields of the AcclMT vectors (the 256-bit datapath).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AcclmtField {
    /// BLS12-381 Fr (neptune's).
    #[value(name = "bls12-381")]
    Bls12_381,
    /// BN254 Fr (circomlib's).
    #[value(name = "bn254")]
    Bn254,
}

#[derive(Args)]
pub struct AcclmtVectorArgs {
    /// The file to write (atomically).
    #[arg(long = "output", alias = "out")]
    out: PathBuf,
    /// The Poseidon instance.
    #[arg(long, value_enum, default_value_t = AcclmtPreset::Neptune)]
    preset: AcclmtPreset,
    /// Tree arity: the state width is arity + 1 (AcclMT's engine takes 3 to 12).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(2..=11))]
    arity: u64,
    /// The field of `--preset reference` (neptune's is BLS12-381 Fr, circomlib's BN254 Fr).
    #[arg(long, value_enum)]
    field: Option<AcclmtField>,
    /// The S-box exponent of `--preset reference` (3, 5 or 7, a permutation of the field).
    #[arg(long, value_parser = clap::value_parser!(u64).range(3..=7))]
    alpha: Option<u64>,
    /// Full rounds of `--preset reference` (with --partial-rounds).
    #[arg(long, requires = "partial_rounds",
          value_parser = clap::value_parser!(u64).range(2..=64))]
    full_rounds: Option<u64>,
    /// Partial rounds of `--preset reference` (with --full-rounds).
    #[arg(long, requires = "full_rounds",
          value_parser = clap::value_parser!(u64).range(1..=200))]
    partial_rounds: Option<u64>,
    /// Permutations (edge states first: all 0, all 1, all p − 1, then 0, 1, …, t − 1), at
    /// most 10^6.
    #[arg(long, default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_VECTORS))]
    count: u64,
    /// Seed of the random states.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Args)]
pub struct NttFourStepArgs {
    /// Output directory (created if missing).
    #[arg(long = "output", alias = "out")]
    out: PathBuf,
    /// The field.
    #[arg(long, value_enum)]
    field: NttField,
    /// log2 of the transform size: even, 4 to 20 (both passes take 2^(log_n/2)-point sub-tasks).
    #[arg(long, value_parser = clap::value_parser!(u32).range(4..=20))]
    log_n: u32,
    /// Seed of the random input.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The fields of the NTT core RTL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NttField {
    /// BN254 Fr (256-bit unit).
    #[value(name = "bn254-fr")]
    Bn254Fr,
    /// BLS12-381 Fr, bellman's field (256-bit unit).
    #[value(name = "bls12-381-fr")]
    Bls12_381Fr,
    /// BLS12-377 Fq (384-bit unit; the paper's 384-bit field, BLS12-381 Fq, has no NTT).
    #[value(name = "bls12-377-fq")]
    Bls12_377Fq,
}

impl From<NttField> for ntt::NttField {
    fn from(field: NttField) -> Self {
        match field {
            NttField::Bn254Fr => Self::Bn254Fr,
            NttField::Bls12_381Fr => Self::Bls12_381Fr,
            NttField::Bls12_377Fq => Self::Bls12_377Fq,
        }
    }
}

#[derive(Args)]
pub struct NttVectorArgs {
    /// Output directory (created if missing).
    #[arg(long = "output", alias = "out")]
    out: PathBuf,
    /// The field.
    #[arg(long, value_enum)]
    field: NttField,
    /// log2 of the sub-task size (the core's round units), 2 to 12.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=12))]
    log_points: u32,
    /// Number of sub-tasks, at most 2^16 (and 2^20 points in all).
    #[arg(long, default_value_t = 16,
          value_parser = clap::value_parser!(u32).range(1..=65_536))]
    subtasks: u32,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The widths of the Montgomery multiplier RTL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MontWidth {
    /// 256 bits: BN254 Fr, BLS12-381 Fr and a random odd modulus.
    #[value(name = "256")]
    W256,
    /// 384 bits: BLS12-377 Fq, NIST P-384 and a random odd modulus.
    #[value(name = "384")]
    W384,
}

#[derive(Args)]
pub struct MontVectorArgs {
    /// Output directory (created if missing).
    #[arg(long = "output", alias = "out")]
    out: PathBuf,
    /// Operand width in bits.
    #[arg(long, value_enum)]
    width: MontWidth,
    /// Products per modulus (edge operands included), at most 10^6.
    #[arg(long, default_value_t = 4000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_VECTORS))]
    count: u64,
    /// Seed of the random operands and of the random modulus.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Args)]
pub struct VectorArgs {
    /// Output directory (created if missing).
    #[arg(long = "output", alias = "out")]
    out: PathBuf,
    /// Number of cipher vectors (edge cases included), at most 10^6.
    #[arg(long, default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(..=MAX_VECTORS))]
    count: u64,
    /// Number of hash vectors, at most 10^6.
    #[arg(long, default_value_t = 20,
          value_parser = clap::value_parser!(u64).range(..=MAX_VECTORS))]
    hashes: u64,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The deepest tree of one `acclmt-tree-vectors` file (binary: 2^18 leaves, 2^19 elements).
const MAX_ACCLMT_TREE_LOG: i64 = 18;

impl From<AcclmtField> for vectors_acclmt::AcclmtField {
    fn from(field: AcclmtField) -> Self {
        match field {
            AcclmtField::Bls12_381 => Self::Bls12_381,
            AcclmtField::Bn254 => Self::Bn254,
        }
    }
}

/// Writes `files` into `dir` (created if missing), together or not at all.
fn write_files(dir: &Path, files: &[VectorFile]) -> Result<(), Box<dyn std::error::Error>> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut set = FileSet::new();
    for file in files {
        set.add(&dir.join(&file.name), &file.text)?;
    }
    set.commit()?;
    Ok(())
}

/// Runs an `hw` subcommand.
pub fn run(cmd: &HwCommand) -> Result<(), Box<dyn std::error::Error>> {
    match cmd {
        HwCommand::Amaze(args) => {
            let files = amaze::vectors(args.count, args.hashes, args.seed)?;
            write_files(&args.out, &files)?;
            eprintln!(
                "wrote {} cipher and {} hash vectors to {}",
                args.count,
                args.hashes,
                args.out.display()
            );
        }
        HwCommand::Mont(args) => {
            let width = match args.width {
                MontWidth::W256 => mont::MontWidth::W256,
                MontWidth::W384 => mont::MontWidth::W384,
            };
            let file = mont::vectors(width, args.count, args.seed)?;
            write_files(&args.out, std::slice::from_ref(&file))?;
            eprintln!(
                "wrote {} products per modulus ({} bits) to {}",
                args.count,
                width.bits(),
                args.out.join(&file.name).display()
            );
        }
        HwCommand::Ntt(args) => {
            let field = ntt::NttField::from(args.field);
            let file = ntt::vectors(field, args.log_points, args.subtasks, args.seed)?;
            write_files(&args.out, std::slice::from_ref(&file))?;
            eprintln!(
                "wrote {} sub-tasks of 2^{} points ({}) to {}",
                args.subtasks,
                args.log_points,
                field.name(),
                args.out.join(&file.name).display()
            );
        }
        HwCommand::NttFourStep(args) => {
            let field = ntt::NttField::from(args.field);
            let file = ntt::four_step_vectors(field, args.log_n, args.seed)?;
            write_files(&args.out, std::slice::from_ref(&file))?;
            eprintln!(
                "wrote a 2^{}-point four-step task ({}) to {}",
                args.log_n,
                field.name(),
                args.out.join(&file.name).display()
            );
        }
        HwCommand::Acclmt(args) => {
            let instance = AcclmtInstance {
                preset: match args.preset {
                    AcclmtPreset::Neptune => vectors_acclmt::AcclmtPreset::Neptune,
                    AcclmtPreset::Circomlib => vectors_acclmt::AcclmtPreset::Circomlib,
                    AcclmtPreset::Reference => vectors_acclmt::AcclmtPreset::Reference,
                },
                arity: args.arity,
                field: args.field.map(Into::into),
                alpha: args.alpha,
                rounds: args.full_rounds.zip(args.partial_rounds),
            };
            let text = vectors_acclmt::engine_vectors(&instance, args.count, args.seed)?;
            write_atomically(&args.out, &text)?;
            eprintln!(
                "wrote {} permutations (t = {}, {:?}) to {}",
                args.count,
                args.arity + 1,
                args.preset,
                args.out.display()
            );
        }
        HwCommand::AcclmtTree(args) => {
            let preset = match args.preset {
                AcclmtTreePreset::Neptune => vectors_acclmt::AcclmtTreePreset::Neptune,
                AcclmtTreePreset::Circomlib => vectors_acclmt::AcclmtTreePreset::Circomlib,
            };
            let log_leaves = args.log_leaves.unwrap_or(0);
            let depth = vectors_acclmt::tree_depth(args.arity, args.depth, log_leaves)?;
            let text = vectors_acclmt::tree_vectors(preset, args.arity, depth, args.seed)?;
            write_atomically(&args.out, &text)?;
            eprintln!(
                "wrote a tree of {arity}^{depth} leaves of arity {arity} ({} elements, {:?}) to {}",
                u64::from(args.arity).pow(depth + 1),
                args.preset,
                args.out.display(),
                arity = args.arity,
            );
        }
        HwCommand::AcclmtSbox(args) => {
            let field = args.field.into();
            let text = vectors_acclmt::sbox_vectors(field, args.alpha, args.count, args.seed)?;
            write_atomically(&args.out, &text)?;
            eprintln!(
                "wrote {} S-box vectors (x^{}, {:?}) to {}",
                args.count,
                args.alpha,
                args.field,
                args.out.display()
            );
        }
    }
    Ok(())
}
