//! The `zkaccel` command-line tool: see the crate README.

mod acclmt_program;
mod bench;
mod field_cmd;
mod hw_cmd;
mod inputs;
mod merkle_cmd;
mod mimc_cmd;
mod model_cmd;
mod ntt_cmd;
mod poseidon_cmd;
mod stark_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Accelerated zero-knowledge proof kernels: fields, hashes, NTTs, Merkle trees.
#[derive(Parser)]
#[command(name = "zkaccel", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Measure the throughput of every implemented kernel on this machine.
    Bench(bench::BenchArgs),
    /// Field arithmetic on the command line.
    #[command(subcommand)]
    Field(field_cmd::FieldCommand),
    /// MiMC cipher and hash (AMAZE): circomlib, gnark, ethsnarks and circomlib-sponge presets.
    #[command(subcommand)]
    Mimc(mimc_cmd::MimcCommand),
    /// Poseidon hash (plonky2, neptune, circomlib presets) and parameter generation.
    #[command(subcommand)]
    Poseidon(poseidon_cmd::PoseidonCommand),
    /// Poseidon Merkle trees: build (bounded memory), open, verify.
    #[command(subcommand)]
    Merkle(merkle_cmd::MerkleCommand),
    /// Number-theoretic transform (forward/inverse, coset, NN/NR/RN/RR) of a file or of
    /// random values; prints the time taken.
    Ntt(ntt_cmd::NttArgs),
    /// Prove a statement with a STARK (proofs equal starky 1.1.0's): --air fibonacci (two
    /// columns, seeds x0,x1 and the last value) or factorial (UniZK's: row k = [k+2, (k+1)!]);
    /// --config standard-fast or small-proofs, with overrides.
    Prove(stark_cmd::ProveArgs),
    /// Verify a STARK proof written by `prove`; exits 1 when it does not verify, 2 for bad input.
    Verify(stark_cmd::VerifyArgs),
    /// Cycle-level models of the papers' accelerators.
    #[command(subcommand)]
    Model(model_cmd::ModelCommand),
    /// Hardware support: constants and test vectors for the RTL benches.
    #[command(subcommand)]
    Hw(hw_cmd::HwCommand),
}

/// A verdict, not a failure: the proof or opening was read and does not verify. Exits with
/// [`EXIT_REJECTED`]; every other error exits with [`EXIT_BAD_INPUT`].
#[derive(Debug)]
pub struct Rejected(pub String);

impl std::fmt::Display for Rejected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rejected: {}", self.0)
    }
}

impl std::error::Error for Rejected {}

/// Exit status of a proof or opening that does not verify.
pub const EXIT_REJECTED: u8 = 1;
/// Exit status of bad input (arguments, unreadable or invalid files, impossible parameters),
/// the same as clap's for a usage error.
pub const EXIT_BAD_INPUT: u8 = 2;

/// Restores the default action for SIGPIPE, which Rust's runtime ignores: output into a closed
/// pipe (`zkaccel model acclmt | head`) then ends the process quietly, as other Unix tools do,
/// instead of a panic in `println!`.
#[cfg(unix)]
fn restore_sigpipe() {
    // SAFETY: `signal` with SIG_DFL installs no handler of ours; it runs first in `main`,
    // before any thread exists, so nothing races on the signal disposition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    #[cfg(unix)]
    restore_sigpipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bench(args) => bench::run(&args),
        Command::Field(cmd) => field_cmd::run(&cmd),
        Command::Mimc(cmd) => mimc_cmd::run(&cmd),
        Command::Poseidon(cmd) => poseidon_cmd::run(&cmd),
        Command::Merkle(cmd) => merkle_cmd::run(&cmd),
        Command::Ntt(args) => ntt_cmd::run(&args),
        Command::Hw(cmd) => hw_cmd::run(&cmd),
        Command::Prove(args) => stark_cmd::run_prove(&args),
        Command::Verify(args) => stark_cmd::run_verify(&args),
        Command::Model(cmd) => model_cmd::run(&cmd),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<Rejected>() => {
            eprintln!("{e}");
            ExitCode::from(EXIT_REJECTED)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
