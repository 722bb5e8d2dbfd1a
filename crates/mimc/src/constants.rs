//! Round constants from a Keccak-256 chain, the way circomlib, ethsnarks and gnark derive them.
//!
//! `K^j(s)` is `j`-fold Keccak-256 (Ethereum's, with the original padding — not SHA3-256) of the
//! UTF-8 bytes of the seed, re-hashing the raw 32-byte digest each time (never the reduced
//! value). A constant is the digest read big-endian and reduced modulo `p`.

use sha3::{Digest, Keccak256};
use zkaccel_field::PrimeField;

/// How the chain is mapped to round constants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstantRule {
    /// `c_0 = 0`, `c_i = K^{i+1}(seed)` (circomlib MiMC7, circomlibjs, arkworks-mimc, AMAZE).
    FirstZero,
    /// `c_i = K^{i+2}(seed)` for every `i` (ethsnarks, gnark-crypto: `c_0 ≠ 0`).
    Shifted,
    /// `c_0 = c_{R−1} = 0`, `c_i = K^{i+1}(seed)` otherwise (circomlib MiMCSponge's Feistel).
    FirstAndLastZero,
}

/// The chain `K^1(seed), K^2(seed), …`, `count` digests.
pub fn keccak_chain(seed: &[u8], count: usize) -> Vec<[u8; 32]> {
    let mut out = Vec::with_capacity(count);
    let mut h: [u8; 32] = Keccak256::digest(seed).into();
    for _ in 0..count {
        out.push(h);
        h = Keccak256::digest(h).into();
    }
    out
}

/// `rounds` constants of field `F` from `seed` under `rule`.
pub fn round_constants<F: PrimeField>(seed: &str, rounds: usize, rule: ConstantRule) -> Vec<F> {
    let reduce = |digest: &[u8; 32]| {
        let mut le = *digest;
        le.reverse();
        F::from_bytes_le_reduced(&le)
    };
    let chain = keccak_chain(seed.as_bytes(), rounds + 1);
    (0..rounds)
        .map(|i| match rule {
            ConstantRule::FirstZero => {
                if i == 0 {
                    F::ZERO
                } else {
                    reduce(&chain[i])
                }
            }
            ConstantRule::Shifted => reduce(&chain[i + 1]),
            ConstantRule::FirstAndLastZero => {
                if i == 0 || i + 1 == rounds {
                    F::ZERO
                } else {
                    reduce(&chain[i])
                }
            }
        })
        .collect()
}
