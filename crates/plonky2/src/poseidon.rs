//! Plonky2's Poseidon over Goldilocks (the hash of UniZK): width 12, rate 8, `x^7`, 8 full and
//! 22 partial rounds, round constants from `ChaCha8Rng::seed_from_u64(0)`, and the
//! circulant-plus-diagonal MDS matrix; its overwrite-mode sponge (`hash_n_to_m_no_pad`,
//! `hash_no_pad`, `hash_or_noop`) and `two_to_one` compression, bit-exact with plonky2 1.1.0.

use std::sync::OnceLock;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use zkaccel_field::Field;
use zkaccel_goldilocks::Goldilocks;

use zkaccel_goldilocks::poseidon12::Latency12;
use zkaccel_poseidon::{Poseidon, PoseidonError, PoseidonParams};

/// State width.
pub const WIDTH: usize = 12;
/// Sponge rate.
pub const RATE: usize = 8;
/// Digest length (`HashOut`).
pub const DIGEST: usize = 4;
/// Full rounds.
pub const FULL_ROUNDS: usize = 8;
/// Partial rounds.
pub const PARTIAL_ROUNDS: usize = 22;
/// The S-box exponent.
pub const ALPHA: u64 = 7;
/// First row of the circulant part of the MDS matrix (plonky2's `MDS_MATRIX_CIRC`).
pub const MDS_CIRC: [u64; WIDTH] = [17, 15, 41, 16, 2, 28, 13, 13, 39, 18, 34, 20];
/// Its diagonal part (`MDS_MATRIX_DIAG`).
pub const MDS_DIAG: [u64; WIDTH] = [8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/// A plonky2 digest.
pub type Digest = [Goldilocks; DIGEST];

/// The round constants: 360 draws of `gen_range(0..p)` from `ChaCha8Rng::seed_from_u64(0)`
/// (rand 0.8), which is how plonky2 generated `ALL_ROUND_CONSTANTS`.
pub fn round_constants() -> Vec<Goldilocks> {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let p = zkaccel_goldilocks::ORDER;
    (0..(FULL_ROUNDS + PARTIAL_ROUNDS) * WIDTH)
        .map(|_| Goldilocks::new_reduced(rng.gen_range(0..p)))
        .collect()
}

/// `M[r][j] = CIRC[(j − r) mod 12] + [r = j]·DIAG[r]`.
pub fn mds() -> Vec<Goldilocks> {
    (0..WIDTH * WIDTH)
        .map(|k| {
            let (r, j) = (k / WIDTH, k % WIDTH);
            let d = if r == j { MDS_DIAG[r] } else { 0 };
            Goldilocks::new_reduced(MDS_CIRC[(j + WIDTH - r) % WIDTH] + d)
        })
        .collect()
}

/// The textbook parameters.
pub fn params() -> PoseidonParams<Goldilocks> {
    PoseidonParams::new(
        WIDTH,
        ALPHA,
        FULL_ROUNDS,
        PARTIAL_ROUNDS,
        round_constants(),
        mds(),
    )
    .expect("plonky2's parameters are valid")
}

/// Plonky2's Poseidon and its hash functions.
#[derive(Debug, Clone)]
pub struct Plonky2Poseidon {
    /// The permutation with its latency kernel.
    fast: Latency12,
}

impl Plonky2Poseidon {
    /// The shared instance (constants are derived once per process).
    pub fn get() -> &'static Self {
        static INSTANCE: OnceLock<Plonky2Poseidon> = OnceLock::new();
        INSTANCE.get_or_init(|| {
            let perm = Poseidon::new(params()).expect("plonky2's MDS matrix has invertible minors");
            Self {
                fast: Latency12::new(perm)
                    .expect("plonky2's permutation has width 12, x^7 and 22 partial rounds"),
            }
        })
    }

    /// The underlying permutation.
    pub fn permutation(&self) -> &Poseidon<Goldilocks> {
        self.fast.permutation()
    }

    /// Permutes a state in place, scheduled for latency: the chain from partial round to
    /// partial round is lane 0's S-box and one multiply-add. Where the CPU has AVX-512F, the
    /// full rounds run with the twelve lanes in two registers and the partial rounds update
    /// lanes 1..12 in two registers; elsewhere both are scalar.
    pub fn permute(&self, state: &mut [Goldilocks; WIDTH]) {
        self.fast.permute(state);
    }

    /// Permutes a state in place with the generic kernel every Poseidon instance runs
    /// (sparse partial rounds), whatever the CPU (tests compare it with
    /// [`Plonky2Poseidon::permute`]).
    pub fn permute_portable(&self, state: &mut [Goldilocks; WIDTH]) {
        self.permutation()
            .permute(state)
            .expect("the state has the permutation's width, 12");
    }

    /// `hash_n_to_m_no_pad`: overwrite-mode sponge, zero state, absorb chunks of 8 by
    /// overwriting the first lanes (a short last chunk leaves the other rate lanes as they
    /// were), permute after each chunk, then squeeze `m` elements 8 at a time. No padding: an
    /// empty input performs no permutation.
    pub fn hash_n_to_m_no_pad(&self, inputs: &[Goldilocks], m: usize) -> Vec<Goldilocks> {
        let mut state = [Goldilocks::ZERO; WIDTH];
        for chunk in inputs.chunks(RATE) {
            state[..chunk.len()].copy_from_slice(chunk);
            self.permute(&mut state);
        }
        let mut out = Vec::with_capacity(m);
        loop {
            for &x in &state[..RATE] {
                out.push(x);
                if out.len() == m {
                    return out;
                }
            }
            self.permute(&mut state);
        }
    }

    /// `hash_no_pad`: the first four outputs of the sponge.
    pub fn hash_no_pad(&self, inputs: &[Goldilocks]) -> Digest {
        let mut state = [Goldilocks::ZERO; WIDTH];
        for chunk in inputs.chunks(RATE) {
            state[..chunk.len()].copy_from_slice(chunk);
            self.permute(&mut state);
        }
        [state[0], state[1], state[2], state[3]]
    }

    /// `hash_pad`: pad10*1 to a multiple of 8, then [`Plonky2Poseidon::hash_no_pad`].
    pub fn hash_pad(&self, inputs: &[Goldilocks]) -> Digest {
        let mut padded = inputs.to_vec();
        padded.push(Goldilocks::ONE);
        while !(padded.len() + 1).is_multiple_of(RATE) {
            padded.push(Goldilocks::ZERO);
        }
        padded.push(Goldilocks::ONE);
        self.hash_no_pad(&padded)
    }

    /// `hash_or_noop`: inputs of at most four elements are returned zero-padded, unhashed;
    /// longer ones are hashed with [`Plonky2Poseidon::hash_no_pad`]. Merkle leaves use this.
    pub fn hash_or_noop(&self, inputs: &[Goldilocks]) -> Digest {
        if inputs.len() <= DIGEST {
            let mut d = [Goldilocks::ZERO; DIGEST];
            d[..inputs.len()].copy_from_slice(inputs);
            d
        } else {
            self.hash_no_pad(inputs)
        }
    }

    /// `two_to_one` (`compress`): one permutation of `[a, b, 0, 0, 0, 0]`, output lanes 0..4.
    pub fn two_to_one(&self, a: &Digest, b: &Digest) -> Digest {
        let mut state = [Goldilocks::ZERO; WIDTH];
        state[..DIGEST].copy_from_slice(a);
        state[DIGEST..2 * DIGEST].copy_from_slice(b);
        self.permute(&mut state);
        [state[0], state[1], state[2], state[3]]
    }

    /// [`Plonky2Poseidon::hash_or_noop`] of every row of a row-major matrix with `width`
    /// columns, on all cores with the packed kernels.
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] when `rows.len()` is not a multiple of `width`, or
    /// `out` does not have one digest per row.
    pub fn hash_or_noop_rows(
        &self,
        rows: &[Goldilocks],
        width: usize,
        out: &mut [Digest],
    ) -> Result<(), PoseidonError> {
        if width == 0 {
            // Empty rows: every digest is hash_or_noop([]) = 0.
            if !rows.is_empty() {
                return Err(PoseidonError::InputLength {
                    expected: 0,
                    actual: rows.len(),
                });
            }
            out.fill([Goldilocks::ZERO; DIGEST]);
            return Ok(());
        }
        if rows.len() != out.len() * width {
            return Err(PoseidonError::InputLength {
                expected: out.len() * width,
                actual: rows.len(),
            });
        }
        if width <= DIGEST {
            for (d, row) in out.iter_mut().zip(rows.chunks_exact(width)) {
                *d = self.hash_or_noop(row);
            }
            return Ok(());
        }
        const BLOCK: usize = 64;
        out.par_chunks_mut(BLOCK)
            .zip(rows.par_chunks(BLOCK * width))
            .for_each(|(digests, rows)| {
                let mut states = [Goldilocks::ZERO; BLOCK * WIDTH];
                let states = &mut states[..digests.len() * WIDTH];
                for start in (0..width).step_by(RATE) {
                    let len = RATE.min(width - start);
                    for (s, row) in states.chunks_exact_mut(WIDTH).zip(rows.chunks_exact(width)) {
                        s[..len].copy_from_slice(&row[start..start + len]);
                    }
                    self.permutation()
                        .permute_many_single_thread(states)
                        .expect("whole states");
                }
                for (d, s) in digests.iter_mut().zip(states.chunks_exact(WIDTH)) {
                    d.copy_from_slice(&s[..DIGEST]);
                }
            });
        Ok(())
    }

    /// `out[i] = two_to_one(pairs[2i], pairs[2i+1])` for a whole tree level, on all cores
    /// with the packed kernels.
    ///
    /// # Errors
    /// [`PoseidonError::InputLength`] unless `pairs.len() = 2·out.len()`.
    pub fn two_to_one_many(
        &self,
        pairs: &[Digest],
        out: &mut [Digest],
    ) -> Result<(), PoseidonError> {
        if pairs.len() != 2 * out.len() {
            return Err(PoseidonError::InputLength {
                expected: 2 * out.len(),
                actual: pairs.len(),
            });
        }
        const BLOCK: usize = 64;
        out.par_chunks_mut(BLOCK)
            .zip(pairs.par_chunks(2 * BLOCK))
            .for_each(|(digests, pairs)| {
                let mut states = [Goldilocks::ZERO; BLOCK * WIDTH];
                let states = &mut states[..digests.len() * WIDTH];
                for (s, pair) in states.chunks_exact_mut(WIDTH).zip(pairs.chunks_exact(2)) {
                    s[..DIGEST].copy_from_slice(&pair[0]);
                    s[DIGEST..2 * DIGEST].copy_from_slice(&pair[1]);
                }
                self.permutation()
                    .permute_many_single_thread(states)
                    .expect("whole states");
                for (d, s) in digests.iter_mut().zip(states.chunks_exact(WIDTH)) {
                    d.copy_from_slice(&s[..DIGEST]);
                }
            });
        Ok(())
    }
}

/// plonky2's `PoseidonHash::hash_no_pad`: the padding-free sponge, four elements out.
impl zkaccel_symmetric::Hasher<Goldilocks> for Plonky2Poseidon {
    type Digest = Digest;
    type Error = core::convert::Infallible;
    fn hash(&self, inputs: &[Goldilocks]) -> Result<Digest, core::convert::Infallible> {
        Ok(self.hash_no_pad(inputs))
    }
}

/// plonky2's `two_to_one`: the binary Merkle node.
impl zkaccel_symmetric::Compression<Digest> for Plonky2Poseidon {
    type Error = PoseidonError;
    const NAME: &'static str = "plonky2";
    fn arity(&self) -> usize {
        2
    }
    fn compress(&self, children: &[Digest]) -> Result<Digest, PoseidonError> {
        match children {
            [a, b] => Ok(self.two_to_one(a, b)),
            _ => Err(PoseidonError::InputLength {
                expected: 2,
                actual: children.len(),
            }),
        }
    }
    fn compress_many(&self, children: &[Digest]) -> Result<Vec<Digest>, PoseidonError> {
        if !children.len().is_multiple_of(2) {
            return Err(PoseidonError::InputLength {
                expected: children.len() + 1,
                actual: children.len(),
            });
        }
        let mut out = vec![[Goldilocks::ZERO; DIGEST]; children.len() / 2];
        self.two_to_one_many(children, &mut out)?;
        Ok(out)
    }
}
