//! The `zkaccel` command-line tool: see the crate README.

mod bench;
mod field_arg;
mod field_cmd;
mod hw_cmd;
mod inputs;
mod merkle_cmd;
mod mimc_cmd;
mod model_cmd;
mod model_legacy;
mod ntt_cmd;
mod poseidon_cmd;
mod stark_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use zkaccel_codec::{Classify, ErrorClass};

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

/// A verdict, not a failure: the proof or opening does not verify. Exits with
/// [`EXIT_REJECTED`], as does every library error of [`ErrorClass::Rejected`]; every other
/// error exits with [`EXIT_BAD_INPUT`] (see [`exit_status`]).
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

/// A file's path before an error about it; the error stays the source, so its class decides
/// the exit status.
#[derive(Debug)]
pub struct InFile {
    /// The file.
    pub path: std::path::PathBuf,
    /// What went wrong with it.
    pub source: Box<dyn std::error::Error>,
}

impl std::fmt::Display for InFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.source)
    }
}

impl std::error::Error for InFile {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
}

/// The [`ErrorClass`] of a library error, where `e` is one.
fn class_of(e: &(dyn std::error::Error + 'static)) -> Option<ErrorClass> {
    if e.is::<Rejected>() {
        return Some(ErrorClass::Rejected);
    }
    let stark = || {
        e.downcast_ref::<zkaccel_stark::StarkError>()
            .map(Classify::class)
    };
    let fri = || {
        e.downcast_ref::<zkaccel_fri::FriError>()
            .map(Classify::class)
    };
    let merkle = || {
        e.downcast_ref::<zkaccel_merkle::MerkleError>()
            .map(Classify::class)
    };
    let decode = || {
        e.downcast_ref::<zkaccel_codec::DecodeError>()
            .map(Classify::class)
    };
    stark().or_else(fri).or_else(merkle).or_else(decode)
}

/// The exit status of an error: that of the first error in its chain with an
/// [`ErrorClass`] ([`EXIT_REJECTED`] for [`ErrorClass::Rejected`], else [`EXIT_BAD_INPUT`]),
/// [`EXIT_BAD_INPUT`] when none has one. The Python package maps the same classes to its
/// exceptions (`crates/python/src/errors.rs`).
pub fn exit_status(e: &(dyn std::error::Error + 'static)) -> u8 {
    let class = std::iter::successors(Some(e), |e| e.source()).find_map(class_of);
    match class {
        Some(ErrorClass::Rejected) => EXIT_REJECTED,
        Some(ErrorClass::InvalidInput | ErrorClass::Resource | ErrorClass::Storage) | None => {
            EXIT_BAD_INPUT
        }
    }
}

/// Restores the default action for SIGPIPE, which Rust's runtime ignores: output into a closed
/// pipe (`zkaccel model acclmt tables | head`) then ends the process quietly, as other Unix tools do,
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
        Err(e) => match exit_status(&*e) {
            EXIT_REJECTED => {
                if e.is::<Rejected>() {
                    eprintln!("{e}");
                } else {
                    eprintln!("rejected: {e}");
                }
                ExitCode::from(EXIT_REJECTED)
            }
            status => {
                eprintln!("error: {e}");
                ExitCode::from(status)
            }
        },
    }
}
