//! The public simulator's NTT records, for `unizk-sim` mode: its `kernel/fft.rs` lays an NTT of
//! more than one plane out in rounds of two dimensions, and each round in blocks of the active
//! buffer's planes; a block's reads (`create_prefetch`) and writes (`create_drain`) are element
//! addresses, sorted and merged into records of consecutive addresses
//! (`find_consecutive_segments`). Where those records fall decides what a round costs: RamSim
//! takes 5,990 cycles for a block of a 2^23-point LDE's second round, whose stores go in 2 KiB
//! records 64 KiB apart (each opening DRAM rows), against 4,254 for a 2^19-point one's, whose
//! stores are 4 KiB apart, for the same bytes. This module rebuilds a round's blocks address
//! for address; the lowering prices one block's reads and writes by replaying their records
//! through [`super::hbm`] (`replay_reads`, which RamSim's writes follow as well).
//!
//! Against RamSim (the authors' Ramulator2 build) on 32 consecutive blocks of each round that
//! `examples/ramsim_traces ntt` writes with the simulator's dependencies, per block, and the
//! serial chain the model prices (replayed reads, 105 cycles of compute, replayed writes):
//!
//! | transform, round | RamSim | model |
//! |---|---|---|
//! | 2^23 × 135 LDE, round 0 (stores 2 KiB, 256 KiB apart) | 1,256 | 1,317 |
//! | 2^23 × 135 LDE, round 1 (loads 8 KiB apart, stores 64 KiB apart) | 5,990 | 5,979 |
//! | 2^23 × 135 LDE, round 2 (one 2 MiB load, stores 64 KiB apart) | 6,002 | 5,992 |
//! | 2^19 × 135 LDE, round 0 (stores 8 KiB apart) | 1,266 | 1,306 |
//! | 2^19 × 135 LDE, round 1 (stores 4 KiB apart) | 4,253 | 4,270 |
//! | 2^19 × 135 index-major, round 0 (128-byte records) | 17,454 | 17,565 |
//! | 2^16 × 135 index-major (the witness's interpolation), round 0 | 3,117 | 3,227 |

use super::hbm::ReadRecord;

/// Bytes of one Goldilocks element (the simulator's `SIZE_F`).
const SIZE_F: u64 = 8;

/// The largest step between addresses merged into one record (`OpRecord::SIZE`).
const MERGE_GAP: u64 = 64;

/// The largest block rebuilt address by address (elements); larger blocks (a swept scratchpad)
/// keep the streaming price.
pub const MAX_SIMULATED_BLOCK: u64 = 1 << 20;

/// One round of a simulated NTT: how many blocks, and one block's records.
#[derive(Debug, Clone, PartialEq)]
pub struct SimRound {
    /// Blocks of the round.
    pub blocks: u64,
    /// Elements one block transforms.
    pub block_elements: u64,
    /// One block's read records, as the simulator merges them.
    pub reads: Vec<ReadRecord>,
    /// One block's write records.
    pub writes: Vec<ReadRecord>,
}

/// The simulator's shape of an NTT: `2^log_n` points, `batch` transforms of `ext` base
/// elements each, input nonzero in the first `n / 2^zero_log` points, input index-major
/// (`transposed`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimNtt {
    /// log2 of a plane's side.
    pub plane_log: u32,
    /// Bytes of the active half of the scratchpad.
    pub active_bytes: u64,
    /// Base elements per point (1, or 2 for the extension).
    pub ext: u64,
    /// log2 of the transform size.
    pub log_n: u32,
    /// Transforms.
    pub batch: u64,
    /// An LDE's zero padding (`rate_bits`).
    pub zero_log: u32,
    /// Index-major input (`transposed_input`).
    pub transposed: bool,
}

/// Where a round's addresses start: the input, the scratch copy and the output lie apart.
const INPUT: u64 = 1 << 40;
const TEMPORARY: u64 = 2 << 40;
const OUTPUT: u64 = 3 << 40;

impl SimNtt {
    /// The rounds, each with its first block rebuilt; `None` for a transform of at most one
    /// plane (the simulator's other two cases), a block over [`MAX_SIMULATED_BLOCK`] elements,
    /// or a shape out of range.
    pub fn rounds(&self) -> Option<Vec<SimRound>> {
        let plans = self.plans()?;
        Some(
            plans
                .iter()
                .map(|plan| {
                    let (reads, writes) = self.block_records(plan, 0);
                    SimRound {
                        blocks: plan.blocks,
                        block_elements: plan.block_elements,
                        reads,
                        writes,
                    }
                })
                .collect(),
        )
    }

    /// Block `index` of round `round` (in the simulator's order: transforms chunk by chunk,
    /// planes within): its read and write records. `None` where [`Self::rounds`] is, or for a
    /// round or block the transform does not have.
    pub fn block(&self, round: usize, index: u64) -> Option<(Vec<ReadRecord>, Vec<ReadRecord>)> {
        let plans = self.plans()?;
        let plan = plans.get(round)?;
        (index < plan.blocks).then(|| self.block_records(plan, index))
    }

    /// Each round's loop bounds, as `create_prefetch` and `create_drain` set them.
    fn plans(&self) -> Option<Vec<RoundPlan>> {
        let lg_l = self.plane_log;
        if lg_l == 0 || self.log_n > 40 || self.log_n <= 2 * lg_l || self.batch == 0 {
            return None;
        }
        let l = 1u64 << lg_l;
        let elem = SIZE_F * self.ext.max(1);
        let planes = self.active_bytes / elem / (l * l);
        if planes == 0 {
            return None;
        }
        let n = 1u64 << self.log_n;
        let dims = self.log_n.div_ceil(lg_l);
        let residual = 1u64 << (self.log_n - (dims - 1) * lg_l);
        let rounds = dims.div_ceil(2);
        let mut now = dims - 1;
        let mut plans = Vec::new();
        for round in 0..rounds {
            let height = if round == 0 { residual } else { l };
            let para = if self.transposed && round == 0 {
                self.batch.min(planes.isqrt())
            } else {
                1
            };
            let round_planes = n / l / height;
            // Reads: `plane_step` planes side by side, `kernel_step` transforms a block.
            let step = (planes / para).min(round_planes).max(1);
            let kernels = (planes / step).max(1);
            let block_elements = kernels
                .min(self.batch)
                .saturating_mul(height * l)
                .saturating_mul(step);
            if block_elements > MAX_SIMULATED_BLOCK {
                return None;
            }
            // Writes: the planes `plane_offset` apart in the next round's order.
            let factor = if now == dims - 1 { 1 } else { l / residual };
            let offset = l.pow(dims - 2) / factor;
            let step_w = (planes / para).min(offset).max(1);
            plans.push(RoundPlan {
                round,
                side: l,
                first: now == dims - 1,
                now,
                height,
                round_planes,
                step,
                kernels,
                step_w,
                kernels_w: (planes / step_w).max(1),
                offset,
                blocks: self
                    .batch
                    .div_ceil(kernels)
                    .saturating_mul(round_planes.div_ceil(step)),
                block_elements,
                output_base: if rounds.is_multiple_of(2) {
                    TEMPORARY
                } else {
                    OUTPUT
                },
                tmp_base: if rounds.is_multiple_of(2) {
                    OUTPUT
                } else {
                    TEMPORARY
                },
            });
            if round + 1 < rounds {
                now -= if now % 2 == 1 { 2 } else { 1 };
            }
        }
        Some(plans)
    }

    /// Block `index` of a round: its element addresses, merged into records.
    fn block_records(&self, plan: &RoundPlan, index: u64) -> (Vec<ReadRecord>, Vec<ReadRecord>) {
        let l = 1u64 << self.plane_log;
        let n = 1u64 << self.log_n;
        let elem = SIZE_F * self.ext.max(1);
        let pow = |e: u32| l.pow(e);
        let now = plan.now;
        let round = plan.round;
        let addr = |y: u64, to_output: bool| -> u64 {
            let bound = 1u64 << self.log_n.saturating_sub(self.zero_log);
            if y % n > bound && round == 0 && !to_output {
                return 0;
            }
            let y = if round == 0 && !to_output && self.transposed {
                (y % n).wrapping_mul(self.batch).wrapping_add(y / n)
            } else {
                y
            };
            let base = if to_output {
                plan.output_base
            } else if round == 0 {
                INPUT
            } else {
                plan.tmp_base
            };
            y.wrapping_mul(elem).wrapping_add(base)
        };
        let reads = plan.addresses(
            index,
            plan.step,
            plan.kernels,
            self.batch,
            |ki, row, col, pi| {
                let base = if round == 0 {
                    pi
                } else {
                    pi / pow(now - 1) * pow(now + 1) + pi % pow(now - 1)
                };
                let y = ki
                    .wrapping_mul(n)
                    .wrapping_add(base + row * pow(now) + col * pow(now - 1));
                addr(y, round % 2 == 1)
            },
        );
        let writes = plan.addresses(
            index,
            plan.step_w,
            plan.kernels_w,
            self.batch,
            |ki, row, col, pi| {
                let at = if plan.first {
                    row * l + col
                } else {
                    col * plan.height + row
                };
                let y = ki.wrapping_mul(n).wrapping_add(pi + at * plan.offset);
                addr(y, round.is_multiple_of(2))
            },
        );
        (segments(reads), segments(writes))
    }
}

impl RoundPlan {
    /// The element addresses of block `index` for one side of it (the simulator's loops:
    /// transforms `kernels` at a time, rows, columns, then `step` planes side by side; the
    /// reads and the writes chunk the planes by their own `step`).
    fn addresses(
        &self,
        index: u64,
        step: u64,
        kernels: u64,
        batch: u64,
        address: impl Fn(u64, u64, u64, u64) -> u64,
    ) -> Vec<u64> {
        let chunks = self.round_planes.div_ceil(step);
        let (k0, p0) = ((index / chunks) * kernels, (index % chunks) * step);
        let mut out = Vec::with_capacity(self.block_elements as usize);
        for ki in k0..(k0 + kernels).min(batch) {
            for row in 0..self.height {
                for col in 0..self.side {
                    for pi in p0..(p0 + step).min(self.round_planes) {
                        out.push(address(ki, row, col, pi));
                    }
                }
            }
        }
        out
    }
}

/// One round's loop bounds.
#[derive(Debug, Clone, Copy)]
struct RoundPlan {
    round: u32,
    /// A plane's side.
    side: u64,
    /// The round of the highest dimension (the first).
    first: bool,
    /// The simulator's `now_dim`.
    now: u32,
    height: u64,
    round_planes: u64,
    step: u64,
    kernels: u64,
    step_w: u64,
    kernels_w: u64,
    offset: u64,
    blocks: u64,
    block_elements: u64,
    output_base: u64,
    tmp_base: u64,
}

/// The simulator's `find_consecutive_segments`: addresses sorted, one leading zero (a padding
/// element's) dropped, and addresses at most a request (`OpRecord::SIZE`, 64 bytes) after the
/// last merged into records of `last − first + 1` bytes (an extension field's points, 16 bytes
/// apart, merge too).
fn segments(mut addrs: Vec<u64>) -> Vec<ReadRecord> {
    addrs.sort_unstable();
    if addrs.first() == Some(&0) {
        addrs.remove(0);
    }
    let mut records = Vec::new();
    let Some(&first) = addrs.first() else {
        return records;
    };
    let (mut start, mut end) = (first, first);
    for &a in &addrs[1..] {
        if a - end <= MERGE_GAP {
            end = a;
        } else {
            records.push(ReadRecord {
                addr: start,
                size: end - start + 1,
            });
            (start, end) = (a, a);
        }
    }
    records.push(ReadRecord {
        addr: start,
        size: end - start + 1,
    });
    records
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unizk::hbm::{replay_reads, HbmTimings};

    fn lde(log_n: u32, transposed: bool) -> SimNtt {
        SimNtt {
            plane_log: 5,
            active_bytes: 2 << 20,
            ext: 1,
            log_n,
            batch: 135,
            zero_log: if transposed { 0 } else { 3 },
            transposed,
        }
    }

    /// The records the simulator's code gives (read off its loops by hand): a 2^23-point LDE's
    /// three rounds store 2 KiB records 256 KiB, 64 KiB and 64 KiB apart; its first round
    /// reads one element in eight (the padding); a 2^19-point one stores 8 KiB and 4 KiB apart.
    #[test]
    fn rounds_have_the_simulators_records() {
        let big = lde(23, false).rounds().unwrap();
        assert_eq!(big.len(), 3);
        let stride = |r: &[ReadRecord]| r[1].addr - r[0].addr;
        assert_eq!(big[0].writes.len(), 256);
        assert_eq!(stride(&big[0].writes), 256 << 10);
        assert!(big[0].writes.iter().all(|r| r.size == 2041));
        // 32 runs of 256 points, the point at the padding's bound (the simulator's `>`), and
        // one record at address 0: the padding's addresses but the first one dropped.
        assert_eq!(big[0].reads.len(), 34);
        assert_eq!(big[0].reads[0], ReadRecord { addr: 0, size: 1 });
        assert_eq!(stride(&big[1].reads), 8 << 10);
        assert_eq!(stride(&big[1].writes), 64 << 10);
        assert_eq!(big[2].reads.len(), 1);
        assert_eq!(big[2].reads[0].size, (2 << 20) - 7);
        assert_eq!(stride(&big[2].writes), 64 << 10);
        assert_eq!(big[0].blocks, 135 * 32 * 4);
        assert_eq!(big[1].blocks, 135 * 32);
        let small = lde(19, false).rounds().unwrap();
        assert_eq!(small.len(), 2);
        assert_eq!(stride(&small[0].writes), 8 << 10);
        assert_eq!(stride(&small[1].writes), 4 << 10);
        // Index-major input: 16 transforms' points side by side, 128-byte records.
        let witness = lde(16, true).rounds().unwrap();
        assert!(witness[0].reads.iter().all(|r| r.size == 121));
        assert_eq!(witness[0].reads.len(), 1024);
        assert_eq!(witness[0].writes.len(), 1024);
    }

    #[test]
    fn shapes_it_does_not_rebuild_are_refused() {
        assert!(lde(10, false).rounds().is_none(), "one plane");
        assert!(SimNtt {
            batch: 0,
            ..lde(20, false)
        }
        .rounds()
        .is_none());
        assert!(SimNtt {
            active_bytes: 1 << 40,
            ..lde(20, false)
        }
        .rounds()
        .is_none());
        assert!(SimNtt {
            active_bytes: 8,
            ..lde(20, false)
        }
        .rounds()
        .is_none());
        assert!(SimNtt {
            log_n: 63,
            ..lde(20, false)
        }
        .rounds()
        .is_none());
        // A round or block the transform does not have.
        assert!(lde(20, false).block(2, 0).is_none());
        assert!(lde(20, false).block(0, u64::MAX).is_none());
        // Batches near 2^64: the block count saturates, one block's work stays bounded.
        for transposed in [false, true] {
            let huge = SimNtt {
                batch: u64::MAX,
                ..lde(23, transposed)
            };
            let rounds = huge.rounds().unwrap();
            assert!(rounds.iter().all(|r| r.blocks > 1 << 40));
            assert!(rounds
                .iter()
                .all(|r| r.block_elements <= MAX_SIMULATED_BLOCK));
            let last = rounds[0].blocks - 1;
            assert!(huge.block(0, last).is_some());
        }
    }

    /// Replayed, the strided stores cost what RamSim measured for them.
    #[test]
    fn strided_stores_cost_what_ramsim_measured() {
        let big = lde(23, false).rounds().unwrap();
        let cycles = replay_reads(&HbmTimings::UNIZK_SIM, &big[1].writes) as f64;
        // RamSim: 3,783 cycles for 1,024 records of 2 KiB 64 KiB apart.
        assert!((cycles / 3783.0 - 1.0).abs() < 0.03, "{cycles}");
    }
}
