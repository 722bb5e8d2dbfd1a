//! The AcclMT engine's program (`hw/acclmt`'s `acclmt_engine` at any state width t = 2 … 12):
//! zkaccel-poseidon's uniform rounds ([`UniformRounds`]) cut into **beats** for a sub-engine of
//! three threads.
//!
//! A beat passes three lanes of a hash's state (one per thread; thread 0's S-boxed in every
//! round, the others' in full rounds) through a 3 × 3 coefficient **block** `B` and the adder
//! tree: output slot `i` is `Σ_j B[i][j]·z_j`, written to a state lane (`dst_i`) or, in
//! **accumulate** mode, added to what that lane holds (the self-adder). A round reads the
//! state it started from and writes a second bank, so its beats may run in any order.
//!
//! - **Full round** (dense layer, `k = ⌈t/3⌉`): `k²` beats `(co, ci)`, threads on lanes
//!   `3ci … 3ci + 2`, slots to lanes `3co … 3co + 2`, accumulating for `ci > 0`; the block is
//!   the layer's `(co, ci)` 3 × 3 tile (zero past `t`).
//! - **Partial round** (sparse layer): `⌈(t − 1)/2⌉` beats; beat `b` covers lanes
//!   `a = 2b + 1` and `a + 1`: thread 0 takes lane 0 (S-boxed), threads 1 and 2 lanes `a`,
//!   `a + 1`; slot 0 accumulates `row_0·z_0 (b = 0 only) + row_a·z_a + row_{a+1}·z_{a+1}` into
//!   lane 0, slots 1 and 2 write `v_{a−1}·z_0 + z_a` and `v_a·z_0 + z_{a+1}`.
//!
//! Blocks sit in the engine's block memory: the dense `M`'s tiles (`co·k + ci`), then `D·M`'s
//! (the last first-half full round's layer, `k² + co·k + ci`), then partial round `i`'s beat
//! `b` at `2k² + i·⌈(t − 1)/2⌉ + b`. The engine derives every beat's lanes, modes and block
//! index from `t`, the round and the beat; only the blocks and round constants are
//! configuration words. [`run_beats`] replays exactly that data movement: the RTL's golden
//! model, tested against the permutation.

use zkaccel_field::PrimeField;
use zkaccel_poseidon::{LinearLayer, UniformRounds};

/// Configuration address of round `r`'s constant for `lane`: `RC_BASE + LANE_STRIDE·r + lane`.
pub const RC_BASE: u32 = 0x1000;
/// Address stride between rounds' constants (room for 12 lanes).
pub const LANE_STRIDE: u32 = 16;
/// Configuration address of block `n`'s entry `B[i][j]`: `BLOCK_BASE + BLOCK_STRIDE·n + 3i + j`.
pub const BLOCK_BASE: u32 = 0x2000;
/// Address stride between blocks (room for 9 entries).
pub const BLOCK_STRIDE: u32 = 16;

/// `k = ⌈t/3⌉`: the 3-lane chunks of a state of width `t`.
pub fn chunks(t: usize) -> usize {
    t.div_ceil(3)
}

/// Beats of a partial round, `⌈(t − 1)/2⌉`.
pub fn partial_beats(t: usize) -> usize {
    t / 2
}

/// One beat: per thread the lane it reads, per slot the lane it writes and whether it
/// accumulates, and the block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Beat {
    /// Thread `j`'s lane (`None` past `t`: the thread reads zero).
    pub src: [Option<usize>; 3],
    /// Slot `i`'s lane (`None`: dropped).
    pub dst: [Option<usize>; 3],
    /// Slot `i` adds to its lane instead of writing it.
    pub accumulate: [bool; 3],
    /// The block's index in the block memory.
    pub block: usize,
}

/// Round `r`'s beats, as the engine derives them.
pub fn beats(t: usize, full_rounds: usize, partial_rounds: usize, r: usize) -> Vec<Beat> {
    let half = full_rounds / 2;
    let k = chunks(t);
    let lane = |l: usize| (l < t).then_some(l);
    let full = r < half || r >= half + partial_rounds;
    if full {
        let base = if r + 1 == half && partial_rounds > 0 {
            k * k
        } else {
            0
        };
        (0..k * k)
            .map(|beat| {
                let (co, ci) = (beat / k, beat % k);
                Beat {
                    src: core::array::from_fn(|j| lane(3 * ci + j)),
                    dst: core::array::from_fn(|i| lane(3 * co + i)),
                    accumulate: [ci > 0; 3],
                    block: base + beat,
                }
            })
            .collect()
    } else {
        let p = partial_beats(t);
        (0..p)
            .map(|b| Beat {
                src: [Some(0), lane(2 * b + 1), lane(2 * b + 2)],
                dst: [Some(0), lane(2 * b + 1), lane(2 * b + 2)],
                accumulate: [b > 0, false, false],
                block: 2 * k * k + (r - half) * p + b,
            })
            .collect()
    }
}

/// The block memory's contents: `B[i][j]` row-major per block.
pub fn blocks<F: PrimeField>(u: &UniformRounds<F>) -> Vec<[F; 9]> {
    let t = u.width();
    let k = chunks(t);
    let half = u.full_rounds() / 2;
    let p = partial_beats(t);
    let mut out = vec![[F::ZERO; 9]; 2 * k * k + u.partial_rounds() * p];
    let tile = |layer: LinearLayer<'_, F>, co: usize, ci: usize| -> [F; 9] {
        core::array::from_fn(|e| {
            let (i, j) = (3 * co + e / 3, 3 * ci + e % 3);
            if i < t && j < t {
                layer.get(i, j)
            } else {
                F::ZERO
            }
        })
    };
    // The dense layers: M (any full round but h − 1) and D·M (round h − 1).
    let plain = (0..u.rounds()).find(|&r| u.is_full(r) && r + 1 != half);
    let into_partial = (u.partial_rounds() > 0 && half > 0).then(|| half - 1);
    for (slot, round) in [(0, plain), (1, into_partial)] {
        if let Some(r) = round {
            for beat in 0..k * k {
                out[slot * k * k + beat] = tile(u.linear(r), beat / k, beat % k);
            }
        }
    }
    for i in 0..u.partial_rounds() {
        let LinearLayer::Sparse { row, v } = u.linear(half + i) else {
            unreachable!("partial rounds are sparse");
        };
        for b in 0..p {
            let a = 2 * b + 1;
            let at = |s: &[F], l: usize| s.get(l).copied().unwrap_or(F::ZERO);
            let lane_ok = |l: usize| if l < t { F::ONE } else { F::ZERO };
            out[2 * k * k + i * p + b] = [
                if b == 0 { row[0] } else { F::ZERO },
                at(row, a),
                at(row, a + 1),
                at(v, a - 1),
                lane_ok(a),
                F::ZERO,
                at(v, a),
                F::ZERO,
                lane_ok(a + 1),
            ];
        }
    }
    out
}

/// The configuration's field-valued words, `(address, value)`: the round constants and the
/// blocks (the caller writes them in Montgomery form).
pub fn field_words<F: PrimeField>(u: &UniformRounds<F>) -> Vec<(u32, F)> {
    let mut words = Vec::new();
    for r in 0..u.rounds() {
        for (lane, &c) in u.constants(r).iter().enumerate() {
            words.push((RC_BASE + LANE_STRIDE * r as u32 + lane as u32, c));
        }
    }
    for (n, block) in blocks(u).iter().enumerate() {
        for (e, &c) in block.iter().enumerate() {
            words.push((BLOCK_BASE + BLOCK_STRIDE * n as u32 + e as u32, c));
        }
    }
    words
}

/// The engine's data movement on one state: every round's beats from the block memory, a
/// second bank per round, the S-box on thread 0 always and on every thread in full rounds:
/// the RTL's golden model, equal to the permutation (tested on every preset).
pub fn run_beats<F: PrimeField>(u: &UniformRounds<F>, blocks: &[[F; 9]], state: &[F]) -> Vec<F> {
    let t = u.width();
    let mut read = state.to_vec();
    for r in 0..u.rounds() {
        let full = u.is_full(r);
        let mut write = vec![F::ZERO; t];
        for beat in beats(t, u.full_rounds(), u.partial_rounds(), r) {
            let z: [F; 3] = core::array::from_fn(|j| match beat.src[j] {
                Some(l) => {
                    let y = read[l] + u.constants(r)[l];
                    if full || j == 0 {
                        zkaccel_mimc::pow_sbox(y, u.alpha())
                    } else {
                        y
                    }
                }
                None => F::ZERO,
            });
            let block = &blocks[beat.block];
            for i in 0..3 {
                let sum = (0..3).fold(F::ZERO, |acc, j| acc + block[3 * i + j] * z[j]);
                if let Some(l) = beat.dst[i] {
                    write[l] = if beat.accumulate[i] {
                        write[l] + sum
                    } else {
                        sum
                    };
                }
            }
        }
        read = write;
    }
    read
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use zkaccel_poseidon::reference::reference_params;
    use zkaccel_poseidon::{Poseidon, PoseidonParams};
    use zkaccel_presets::{circomlib, neptune, Strength};

    use super::*;

    fn check<F: PrimeField + zkaccel_poseidon::PoseidonField>(
        params: &PoseidonParams<F>,
        seed: u64,
    ) {
        let u = UniformRounds::derive(params).unwrap();
        let blocks = blocks(&u);
        let p = Poseidon::new(params.clone()).unwrap();
        let t = params.width();
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        for _ in 0..3 {
            let state: Vec<F> = (0..t)
                .map(|_| F::from_u64_reduced(rng.gen::<u64>()))
                .collect();
            let mut want = state.clone();
            p.permute(&mut want).unwrap();
            assert_eq!(run_beats(&u, &blocks, &state), want, "t = {t}");
        }
        // Every lane is written once per round (or accumulated after its first write).
        for r in 0..u.rounds() {
            let mut written = vec![false; t];
            for beat in beats(t, u.full_rounds(), u.partial_rounds(), r) {
                assert!(beat.block < blocks.len());
                for i in 0..3 {
                    if let Some(l) = beat.dst[i] {
                        assert_eq!(beat.accumulate[i], written[l], "round {r} lane {l}");
                        written[l] = true;
                    }
                }
            }
            assert!(written.iter().all(|&w| w), "round {r} writes every lane");
        }
    }

    #[test]
    fn beats_equal_the_permutation_on_every_preset() {
        for arity in [2, 3, 4, 8, 11] {
            check(
                &neptune::params::<zkaccel_bls12_381::Fr>(arity, Strength::Standard).unwrap(),
                arity as u64,
            );
        }
        for t in 2..=12 {
            check(&circomlib::params(t).unwrap(), t as u64);
        }
        for (t, alpha, rf, rp) in [(3, 5, 8, 120), (6, 7, 8, 40), (2, 5, 2, 1), (12, 5, 2, 0)] {
            check(
                &reference_params::<zkaccel_bls12_381::Fr>(t, alpha, rf, rp).unwrap(),
                7,
            );
        }
    }

    #[test]
    fn beat_counts() {
        // (t, k², partial beats)
        for (t, full, partial) in [(3, 1, 1), (4, 4, 2), (5, 4, 2), (9, 9, 4), (12, 16, 6)] {
            assert_eq!(beats(t, 8, 56, 0).len(), full);
            assert_eq!(beats(t, 8, 56, 4).len(), partial);
        }
    }
}
