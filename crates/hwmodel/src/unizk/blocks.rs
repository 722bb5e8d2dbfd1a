//! Blocks and their timing: the unit every kernel is lowered to.
//!
//! A block is what fits the active half of the scratchpad: its reads, its compute, its writes.
//! Double buffering loads block *i+1* while block *i* computes. How the two overlap is where the
//! modes differ:
//!
//! - `paper`: the VSAs are a resource, so a kernel of blocks takes one memory latency, then
//!   `max(memory, compute)` per block (blocks stream through the double buffer).
//! - `unizk-sim`: the public simulator charges compute as a delay on a block's first write, and
//!   a block's reads wait only for the writes of the block two before it; two chains of blocks
//!   therefore run at once, and a kernel takes the larger of its memory time and half its chained
//!   latency (read latency, load, compute), never less than one block's chain. Records wait
//!   for their dependencies inside the simulator's front-end window (`record_window`), so where
//!   a block stores in more records than the window holds, its stores fill the window until
//!   its compute is done and the next block's loads are not admitted before them: such blocks
//!   run one chain after another, with no overlap at all.

use super::config::{Mode, UnizkConfig};

/// Bytes moved in runs of consecutive addresses.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Stream {
    /// Useful bytes.
    pub bytes: u64,
    /// Bytes per run of consecutive addresses (0: one run of all of them).
    pub run: u64,
    /// The stream's own records replayed through the HBM model (`unizk-sim` NTT rounds),
    /// which then set its records, moved bytes and cycles.
    pub replayed: Option<ReplayedStream>,
}

/// A stream whose records were replayed one by one ([`super::hbm::replay_reads`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReplayedStream {
    /// Records.
    pub records: u64,
    /// Bytes their 64-byte requests move.
    pub moved: u64,
    /// Cycles from an idle memory to the last data.
    pub cycles: f64,
}

impl Stream {
    /// One run of `bytes`.
    pub fn contiguous(bytes: u64) -> Self {
        Self {
            bytes,
            run: 0,
            replayed: None,
        }
    }

    /// `bytes` in runs of `run`.
    pub fn runs(bytes: u64, run: u64) -> Self {
        Self {
            bytes,
            run,
            replayed: None,
        }
    }

    /// `bytes` in records replayed as `replayed` says.
    pub fn replayed(bytes: u64, replayed: ReplayedStream) -> Self {
        Self {
            bytes,
            run: 0,
            replayed: Some(replayed),
        }
    }

    /// Runs (memory records) the stream is made of.
    pub fn records(&self) -> u64 {
        if let Some(r) = self.replayed {
            return r.records;
        }
        if self.bytes == 0 {
            0
        } else if self.run == 0 {
            1
        } else {
            self.bytes.div_ceil(self.run)
        }
    }

    /// Bytes the memory moves: each run rounded up to whole requests.
    pub fn moved(&self, config: &UnizkConfig) -> u64 {
        if let Some(r) = self.replayed {
            return r.moved;
        }
        let request = u64::from(config.request_bytes);
        if self.bytes == 0 {
            return 0;
        }
        let run = if self.run == 0 { self.bytes } else { self.run };
        let full = self.bytes / run;
        let tail = self.bytes % run;
        full.saturating_mul(run.div_ceil(request).saturating_mul(request))
            .saturating_add(tail.div_ceil(request) * request)
    }

    /// Cycles the stream occupies the memory system.
    pub fn cycles(&self, config: &UnizkConfig) -> f64 {
        if let Some(r) = self.replayed {
            return r.cycles;
        }
        let transfer = self.moved(config) as f64 / config.bytes_per_cycle();
        // The memory front end accepts `runs_per_cycle` descriptors of consecutive addresses
        // per cycle (the simulator's: one record per cycle).
        transfer.max(self.records() as f64 / config.runs_per_cycle)
    }
}

/// `count` identical blocks.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Blocks {
    /// How many.
    pub count: u64,
    /// What one block loads.
    pub read: Stream,
    /// What one block stores.
    pub write: Stream,
    /// Cycles one block computes (pipeline fill included).
    pub compute: f64,
}

/// A kernel's time on the chip and what it used.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Timing {
    /// Cycles from its first load to its last store.
    pub cycles: f64,
    /// Bytes the memory moved (requests, not useful bytes).
    pub moved_bytes: u64,
    /// Cycles the VSAs computed, summed over blocks.
    pub busy_cycles: f64,
}

/// Times a kernel lowered to groups of blocks, plus `serial` cycles nothing overlaps.
pub fn time_blocks(config: &UnizkConfig, groups: &[Blocks], serial: f64) -> Timing {
    let groups: Vec<&Blocks> = groups.iter().filter(|g| g.count > 0).collect();
    let latency = f64::from(config.dram_latency);
    let mut moved = 0u64;
    let mut busy = 0.0;
    let mut memory = 0.0;
    let mut steady = 0.0;
    let mut chained = 0.0;
    let mut longest_chain: f64 = 0.0;
    // unizk-sim: blocks whose stores overflow the record window, one chain after another.
    let mut windowed = 0.0;
    let window = u64::from(config.record_window.max(1));
    for g in &groups {
        let n = g.count as f64;
        let rd = g.read.cycles(config);
        let wr = g.write.cycles(config);
        moved = moved.saturating_add(
            g.count
                .saturating_mul(g.read.moved(config).saturating_add(g.write.moved(config))),
        );
        busy += n * g.compute;
        steady += n * (rd + wr).max(g.compute);
        // A replayed stream's cycles run from an idle memory to its last data: the latency is
        // in them already.
        let exposed = if g.read.replayed.is_some() {
            0.0
        } else {
            latency
        };
        let chain = exposed + rd + g.compute + wr;
        if g.write.records() > window {
            windowed += n * chain;
            continue;
        }
        memory += n * (rd + wr);
        // Only a block that stores holds back the loads of the block two after it.
        if g.write.bytes > 0 {
            chained += n * chain;
            longest_chain = longest_chain.max(chain);
        }
    }
    let cycles = if groups.is_empty() {
        0.0
    } else {
        match config.mode {
            // Blocks stream: a block's compute starts on its first lines and its last lines
            // leave as they are produced, so one memory latency is exposed per kernel.
            Mode::Paper => latency + steady,
            Mode::UnizkSim => {
                let overlapped = if memory > 0.0 || chained > 0.0 {
                    (latency + memory)
                        .max(chained / config.mode.compute_overlap())
                        .max(longest_chain)
                } else {
                    0.0
                };
                overlapped + windowed
            }
        }
    };
    Timing {
        cycles: cycles + serial,
        moved_bytes: moved,
        busy_cycles: busy + serial,
    }
}
