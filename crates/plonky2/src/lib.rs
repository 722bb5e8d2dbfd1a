#![doc = include_str!("../README.md")]

pub mod codec;
mod hasher;
pub mod poseidon;
mod scheme;
pub mod shipped;

use zkaccel_challenger::DuplexChallenger;
use zkaccel_goldilocks::Goldilocks;
use zkaccel_poseidon::Poseidon;

pub use codec::{decode_stark_proof, FriProofCodec, Plonky2Encoding};
pub use hasher::Plonky2Hasher;
pub use poseidon::Plonky2Poseidon;
pub use scheme::Plonky2Goldilocks;
pub use shipped::{ShippedAir, Statement};

/// plonky2's challenger: Poseidon (plonky2's constants) over Goldilocks, width 12, rate 8.
pub type Plonky2Challenger = DuplexChallenger<Goldilocks, &'static Poseidon<Goldilocks>>;

/// plonky2's `Challenger::new()` (`PoseidonGoldilocksConfig`): a fresh transcript, its state
/// zero.
pub fn challenger() -> Plonky2Challenger {
    DuplexChallenger::new(Plonky2Poseidon::get().permutation(), poseidon::RATE)
        .expect("plonky2's rate 8 is below its width 12")
}
