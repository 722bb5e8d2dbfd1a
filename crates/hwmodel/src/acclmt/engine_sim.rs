//! The engine's scheduler, cycle by cycle, exactly as `hw/acclmt/rtl/acclmt_engine.sv` runs
//! it: every register below is one of the RTL's, every `comb` value one of its combinational
//! signals, and each cycle computes all of them from the registers before updating any (the
//! RTL's non-blocking assignments).

use std::collections::VecDeque;

use super::{EngineConfig, EngineRun, PoseidonShape};

/// A segment: a range of rounds of one batch on one sub-engine.
#[derive(Clone, Copy)]
struct Segment {
    buffer: usize,
    first: u32,
    last: u32,
    handover: bool,
    ends_pair: bool,
}

/// The segment table of the RTL's `segment()` function.
fn segment(config: &EngineConfig, shape: &PoseidonShape, engine: usize, s: u32) -> Segment {
    let (h, rp, r) = (shape.full_rounds / 2, shape.partial_rounds, shape.rounds());
    let seg = |buffer, first, last, handover, ends_pair| Segment {
        buffer,
        first,
        last,
        handover,
        ends_pair,
    };
    if config.baseline {
        return seg(engine, 0, r, false, true);
    }
    match (engine, s) {
        (0, 0) => seg(0, 0, h, false, false),
        (0, 1) => seg(1, 0, h, false, false),
        (0, 2) => seg(1, h, rp, false, false),
        (0, 3) => seg(0, h + rp, r, true, false),
        (0, _) => seg(1, h + rp, r, true, true),
        (_, 0) => seg(0, h, h + rp, true, false),
        (_, _) => seg(1, rp, h + rp, true, true),
    }
}

/// A batch's descriptor in working buffer `[buffer][pair parity]`.
#[derive(Clone, Copy, Default)]
struct Descriptor {
    active: bool,
    fill: u32,
    pair: u32,
}

/// One sub-engine's issue state.
#[derive(Clone, Copy, Default)]
struct SubEngine {
    started: bool,
    seg: u32,
    pair: u32,
    buffer: usize,
    round: u32,
    last: u32,
    beat: u32,
    idx: u32,
    fill: u32,
    gap: u32,
    busy: u64,
}

/// One engine, cycle by cycle: its registers, and a step that computes the cycle's
/// combinational values from them and then updates them all. The ports are the RTL's:
/// `in_valid_i`, `in_last_i` and `in_close_i` go into [`EngineCore::step`]; `in_ready_o` and
/// `in_wanted_o` depend on the registers only ([`EngineCore::in_ready`],
/// [`EngineCore::in_wanted`]); `out_valid_o` is the output register, and `out_ready_i` is high.
pub(super) struct EngineCore {
    config: EngineConfig,
    shape: PoseidonShape,
    rounds: u32,
    alpha7: bool,
    full_beats: u32,
    partial_beats: u32,
    writeback_delay: u64,
    // Loader and staging.
    load_buf: usize,
    load_pair: u32,
    load_idx: u32,
    pending_empty: bool,
    stage_closed: [bool; 2],
    stage_fill: [u32; 2],
    stage_gen: [u32; 2],
    // Working buffers.
    round_of: [Vec<u32>; 2],
    desc: [[Descriptor; 2]; 2],
    engines: [SubEngine; 2],
    // Beats in flight: (write-back cycle, buffer, entry, the round's last beat).
    in_flight: [VecDeque<(u64, usize, usize, bool)>; 2],
    // Drainer and the output register.
    drain_buf: usize,
    drain_pair: u32,
    drain_idx: u32,
    out_valid: bool,
    cycle: u64,
}

/// The RTL's 2-bit pair counters.
const PAIR_MASK: u32 = 3;

impl EngineCore {
    pub(super) fn new(config: &EngineConfig, shape: &PoseidonShape) -> Self {
        let batch = config.batch as usize;
        Self {
            config: *config,
            shape: *shape,
            rounds: shape.rounds(),
            alpha7: shape.alpha == 7,
            full_beats: shape.full_round_beats(),
            partial_beats: shape.partial_round_beats(),
            // A result is written back at the end of cycle issue + 1 + latency.
            writeback_delay: 1 + config.round_latency(),
            load_buf: 0,
            load_pair: 0,
            load_idx: 0,
            pending_empty: false,
            stage_closed: [false; 2],
            stage_fill: [0; 2],
            stage_gen: [0; 2],
            round_of: [vec![0; batch], vec![0; batch]],
            desc: [[Descriptor::default(); 2]; 2],
            engines: [SubEngine::default(); 2],
            in_flight: Default::default(),
            drain_buf: 0,
            drain_pair: 0,
            drain_idx: 0,
            out_valid: false,
            cycle: 0,
        }
    }

    /// `in_ready_o`.
    pub(super) fn in_ready(&self) -> bool {
        !self.stage_closed[self.load_buf] && !self.pending_empty
    }

    /// `in_wanted_o`: a sub-engine waits at a first pass for the batch the loader is filling.
    pub(super) fn in_wanted(&self) -> bool {
        (0..2).any(|e| {
            let en = &self.engines[e];
            let seg = segment(&self.config, &self.shape, e, en.seg);
            !en.started
                && en.gap == 0
                && seg.first == 0
                && seg.buffer == self.load_buf
                && en.pair == self.load_pair
                && !self.stage_closed[seg.buffer]
        })
    }

    /// Busy issue cycles of each sub-engine so far.
    fn busy(&self) -> [u64; 2] {
        [self.engines[0].busy, self.engines[1].busy]
    }

    /// One cycle. Returns `out_valid_o` as it was during the cycle (the consumer takes it).
    pub(super) fn step(&mut self, in_valid: bool, in_last: bool, in_close: bool) -> bool {
        let out_valid = self.out_valid;
        let batch = self.config.batch;
        let (slot_gap, handover_gap) = (self.config.slot_gap, self.config.handover_gap);
        let half = self.shape.full_rounds / 2;
        let partial_rounds = self.shape.partial_rounds;
        let is_full = |r: u32| r < half || r >= half + partial_rounds;

        // ---------------- combinational values of this cycle
        let in_ready = self.in_ready();
        let load = in_valid && in_ready;
        let close_load = load && (in_last || self.load_idx == batch - 1);
        let close_empty = self.pending_empty && !self.stage_closed[1];
        // in_close_i: a part-filled batch closes as with in_last_i on its last state, an empty
        // B closes empty.
        let flush = in_close && !in_valid && in_ready && (self.load_idx != 0 || self.load_buf == 1);
        let flush_empty = flush && self.load_idx == 0;

        let mut stage_free = [false; 2];
        let mut desc_set: [Option<(usize, u32, u32)>; 2] = [None, None];
        let mut issues: [Option<(usize, usize, bool)>; 2] = [None, None];
        let mut next = self.engines;
        for e in 0..2 {
            let en = &self.engines[e];
            let seg = segment(&self.config, &self.shape, e, en.seg);
            let parity = (en.pair & 1) as usize;
            let first_pass = seg.first == 0;
            let (available, seg_fill) = if first_pass {
                (
                    self.stage_closed[seg.buffer]
                        && self.stage_gen[seg.buffer] == en.pair
                        && !self.desc[seg.buffer][parity].active,
                    self.stage_fill[seg.buffer],
                )
            } else {
                let d = self.desc[seg.buffer][parity];
                (d.active && d.pair == en.pair, d.fill)
            };
            let startable = !en.started && en.gap == 0 && available;
            let empty = seg_fill == 0 || seg.first >= seg.last;
            let starting = startable && !empty;
            let (cur_buf, cur_round, cur_last, cur_beat, cur_idx, cur_fill) = if en.started {
                (en.buffer, en.round, en.last, en.beat, en.idx, en.fill)
            } else {
                (seg.buffer, seg.first, seg.last, 0, 0, seg_fill)
            };
            let ready = self.round_of[cur_buf][cur_idx as usize] == cur_round;
            let issue = ready
                && en.gap == 0
                && (en.started || (starting && !(seg.handover && handover_gap != 0)));
            let beats = if is_full(cur_round) {
                self.full_beats
            } else {
                self.partial_beats
            };
            let last_beat = cur_beat + 1 == beats;
            let pass_done = issue && cur_idx + 1 == cur_fill;
            let round_done = pass_done && last_beat;
            let segment_done = round_done && cur_round + 1 == cur_last;
            if startable && first_pass {
                desc_set[e] = Some((seg.buffer, seg_fill, en.pair));
            }
            if (round_done && cur_round == 0) || (startable && first_pass && empty) {
                stage_free[cur_buf] = true;
            }

            // ---------------- this sub-engine's registers
            let n = &mut next[e];
            if en.gap != 0 {
                n.gap = en.gap - 1;
            }
            let advance = |n: &mut SubEngine| {
                n.seg = if seg.ends_pair { 0 } else { en.seg + 1 };
                n.pair = (en.pair + u32::from(seg.ends_pair)) & PAIR_MASK;
            };
            if startable && empty {
                advance(n);
            } else if starting {
                n.started = true;
                n.buffer = seg.buffer;
                n.round = seg.first;
                n.last = seg.last;
                n.beat = 0;
                n.idx = 0;
                n.fill = seg_fill;
                if seg.handover && handover_gap != 0 {
                    n.gap = handover_gap - 1;
                }
            }
            if issue {
                issues[e] = Some((cur_buf, cur_idx as usize, last_beat));
                n.busy += 1;
                n.gap = u32::from(self.alpha7);
                n.idx = cur_idx + 1;
                if pass_done {
                    n.idx = 0;
                    if slot_gap != 0 {
                        n.gap = slot_gap;
                    }
                    if last_beat {
                        n.round = cur_round + 1;
                        n.beat = 0;
                    } else {
                        n.beat = cur_beat + 1;
                    }
                }
                if segment_done {
                    n.started = false;
                    advance(n);
                }
            }
        }

        // Drainer (out_ready is high, so the output register is always free).
        let d = self.desc[self.drain_buf][(self.drain_pair & 1) as usize];
        let drain_ours = d.active && d.pair == self.drain_pair;
        let drain_end = drain_ours && self.drain_idx == d.fill;
        let drain_take = drain_ours
            && !drain_end
            && self.round_of[self.drain_buf][self.drain_idx as usize] == self.rounds;

        // ---------------- registers
        // Write-backs that land at the end of this cycle.
        let cycle = self.cycle;
        for queue in &mut self.in_flight {
            while let Some(&(at, buffer, entry, last)) = queue.front() {
                if at != cycle {
                    break;
                }
                self.round_of[buffer][entry] += u32::from(last);
                queue.pop_front();
            }
        }
        for (e, issued) in issues.iter().enumerate() {
            if let Some((buffer, entry, last)) = *issued {
                self.in_flight[e].push_back((cycle + self.writeback_delay, buffer, entry, last));
            }
        }
        for set in desc_set.iter().flatten() {
            let (buffer, fill, pair) = *set;
            self.desc[buffer][(pair & 1) as usize] = Descriptor {
                active: true,
                fill,
                pair,
            };
        }
        self.out_valid = drain_take;
        if drain_take {
            self.round_of[self.drain_buf][self.drain_idx as usize] = 0;
            self.drain_idx += 1;
        }
        if drain_end {
            self.desc[self.drain_buf][(self.drain_pair & 1) as usize].active = false;
            self.drain_idx = 0;
            if self.drain_buf == 1 {
                self.drain_pair = (self.drain_pair + 1) & PAIR_MASK;
            }
            self.drain_buf ^= 1;
        }
        self.engines = next;

        // Loader.
        for (closed, free) in self.stage_closed.iter_mut().zip(stage_free) {
            if free {
                *closed = false;
            }
        }
        if close_empty {
            self.stage_closed[1] = true;
            self.stage_fill[1] = 0;
            self.stage_gen[1] = self.load_pair;
            self.load_buf = 0;
            self.load_pair = (self.load_pair + 1) & PAIR_MASK;
            self.pending_empty = false;
        } else if flush {
            let b = self.load_buf;
            self.stage_closed[b] = true;
            self.stage_fill[b] = if flush_empty { 0 } else { self.load_idx };
            self.stage_gen[b] = self.load_pair;
            if b == 1 {
                self.load_pair = (self.load_pair + 1) & PAIR_MASK;
            }
            self.load_buf ^= 1;
            self.load_idx = 0;
        } else if load {
            if close_load {
                let b = self.load_buf;
                self.stage_closed[b] = true;
                self.stage_fill[b] = self.load_idx + 1;
                self.stage_gen[b] = self.load_pair;
                if b == 1 {
                    self.load_pair = (self.load_pair + 1) & PAIR_MASK;
                } else if in_last {
                    self.pending_empty = true;
                }
                self.load_buf ^= 1;
            }
            self.load_idx = if close_load { 0 } else { self.load_idx + 1 };
        }
        self.cycle += 1;
        out_valid
    }
}

/// Streams `hashes` states at full rate (a state offered every cycle, every result taken).
pub(super) fn run(config: &EngineConfig, shape: &PoseidonShape, hashes: u64) -> EngineRun {
    let mut core = EngineCore::new(config, shape);
    let mut fed = 0u64;
    let mut take_cycles: Vec<u64> = Vec::with_capacity(hashes as usize);
    let mut cycle = 0u64;
    while (take_cycles.len() as u64) < hashes {
        let offer = fed < hashes;
        let in_last = fed + 1 == hashes;
        let accepted = offer && core.in_ready();
        if core.step(offer, in_last, false) {
            take_cycles.push(cycle);
        }
        fed += u64::from(accepted);
        cycle += 1;
    }

    let pair = 2 * u64::from(config.batch);
    let pairs = hashes / pair;
    let cycles_per_hash = if pairs >= 2 {
        (take_cycles[(pairs * pair - 1) as usize] - take_cycles[(pair - 1) as usize]) as f64
            / ((pairs - 1) * pair) as f64
    } else {
        0.0
    };
    // The first state is accepted in cycle 0; the loop ran until the last result was taken.
    let cycles = take_cycles.last().copied().unwrap_or(0) + 1;
    let busy = core.busy();
    EngineRun {
        hashes,
        cycles,
        cycles_per_hash,
        utilisation: [
            busy[0] as f64 / cycles as f64,
            busy[1] as f64 / cycles as f64,
        ],
    }
}
