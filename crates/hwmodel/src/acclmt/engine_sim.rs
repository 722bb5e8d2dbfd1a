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

pub(super) fn run(config: &EngineConfig, shape: &PoseidonShape, hashes: u64) -> EngineRun {
    let batch = config.batch;
    let rounds = shape.rounds();
    let alpha7 = shape.alpha == 7;
    let (full_beats, partial_beats) = (shape.full_round_beats(), shape.partial_round_beats());
    let half = shape.full_rounds / 2;
    let is_full = |r: u32| r < half || r >= half + shape.partial_rounds;
    // A result is written back at the end of cycle issue + 1 + latency.
    let writeback_delay = 1 + config.round_latency();
    let (slot_gap, handover_gap) = (config.slot_gap, config.handover_gap);
    let pair_mask = 3; // the RTL's 2-bit pair counters

    // Loader and staging.
    let (mut load_buf, mut load_pair, mut load_idx, mut pending_empty) =
        (0usize, 0u32, 0u32, false);
    let mut stage_closed = [false; 2];
    let mut stage_fill = [0u32; 2];
    let mut stage_gen = [0u32; 2];
    // Working buffers.
    let mut round_of = vec![vec![0u32; batch as usize]; 2];
    let mut desc = [[Descriptor::default(); 2]; 2];
    let mut engines = [SubEngine::default(); 2];
    // Beats in flight: (write-back cycle, buffer, entry, the round's last beat).
    let mut in_flight: [VecDeque<(u64, usize, usize, bool)>; 2] = Default::default();
    // Drainer.
    let (mut drain_buf, mut drain_pair, mut drain_idx) = (0usize, 0u32, 0u32);

    let mut fed = 0u64;
    let mut taken = 0u64;
    let mut take_cycles: Vec<u64> = Vec::with_capacity(hashes as usize);
    let mut pending_take: Option<u64> = None; // the output register holds a result
    let mut cycle = 0u64;
    while taken < hashes {
        // The output register's result is taken this cycle (out_ready is always high).
        if pending_take.take().is_some() {
            take_cycles.push(cycle);
            taken += 1;
        }

        // ---------------- combinational values of this cycle
        let offer = fed < hashes;
        let in_last = fed + 1 == hashes;
        let in_ready = !stage_closed[load_buf] && !pending_empty;
        let load = offer && in_ready;
        let close_load = load && (in_last || load_idx == batch - 1);
        let close_empty = pending_empty && !stage_closed[1];

        let mut stage_free = [false; 2];
        let mut desc_set: [Option<(usize, u32, u32)>; 2] = [None, None];
        let mut issues: [Option<(usize, usize, bool)>; 2] = [None, None];
        let mut next = engines;
        for e in 0..2 {
            let en = &engines[e];
            let seg = segment(config, shape, e, en.seg);
            let parity = (en.pair & 1) as usize;
            let first_pass = seg.first == 0;
            let (available, seg_fill) = if first_pass {
                (
                    stage_closed[seg.buffer]
                        && stage_gen[seg.buffer] == en.pair
                        && !desc[seg.buffer][parity].active,
                    stage_fill[seg.buffer],
                )
            } else {
                let d = desc[seg.buffer][parity];
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
            let ready = round_of[cur_buf][cur_idx as usize] == cur_round;
            let issue = ready
                && en.gap == 0
                && (en.started || (starting && !(seg.handover && handover_gap != 0)));
            let beats = if is_full(cur_round) {
                full_beats
            } else {
                partial_beats
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
                n.pair = (en.pair + u32::from(seg.ends_pair)) & pair_mask;
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
                n.gap = u32::from(alpha7);
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
        let d = desc[drain_buf][(drain_pair & 1) as usize];
        let drain_ours = d.active && d.pair == drain_pair;
        let drain_end = drain_ours && drain_idx == d.fill;
        let drain_take =
            drain_ours && !drain_end && round_of[drain_buf][drain_idx as usize] == rounds;

        // ---------------- registers
        // Write-backs that land at the end of this cycle.
        for queue in &mut in_flight {
            while let Some(&(at, buffer, entry, last)) = queue.front() {
                if at != cycle {
                    break;
                }
                round_of[buffer][entry] += u32::from(last);
                queue.pop_front();
            }
        }
        for (e, issued) in issues.iter().enumerate() {
            if let Some((buffer, entry, last)) = *issued {
                in_flight[e].push_back((cycle + writeback_delay, buffer, entry, last));
            }
        }
        for set in desc_set.iter().flatten() {
            let (buffer, fill, pair) = *set;
            desc[buffer][(pair & 1) as usize] = Descriptor {
                active: true,
                fill,
                pair,
            };
        }
        if drain_take {
            round_of[drain_buf][drain_idx as usize] = 0;
            pending_take = Some(cycle);
            drain_idx += 1;
        }
        if drain_end {
            desc[drain_buf][(drain_pair & 1) as usize].active = false;
            drain_idx = 0;
            if drain_buf == 1 {
                drain_pair = (drain_pair + 1) & pair_mask;
            }
            drain_buf ^= 1;
        }
        engines = next;

        // Loader.
        for b in 0..2 {
            if stage_free[b] {
                stage_closed[b] = false;
            }
        }
        if close_empty {
            stage_closed[1] = true;
            stage_fill[1] = 0;
            stage_gen[1] = load_pair;
            load_buf = 0;
            load_pair = (load_pair + 1) & pair_mask;
            pending_empty = false;
        } else if load {
            fed += 1;
            if close_load {
                stage_closed[load_buf] = true;
                stage_fill[load_buf] = load_idx + 1;
                stage_gen[load_buf] = load_pair;
                if load_buf == 1 {
                    load_pair = (load_pair + 1) & pair_mask;
                } else if in_last {
                    pending_empty = true;
                }
                load_buf ^= 1;
            }
            load_idx = if close_load { 0 } else { load_idx + 1 };
        }
        cycle += 1;
    }

    let pair = 2 * u64::from(batch);
    let pairs = hashes / pair;
    let cycles_per_hash = if pairs >= 2 {
        (take_cycles[(pairs * pair - 1) as usize] - take_cycles[(pair - 1) as usize]) as f64
            / ((pairs - 1) * pair) as f64
    } else {
        0.0
    };
    // The first state is accepted in cycle 0; the loop ran until the last result was taken.
    let cycles = take_cycles.last().copied().unwrap_or(0) + 1;
    EngineRun {
        hashes,
        cycles,
        cycles_per_hash,
        utilisation: [
            engines[0].busy as f64 / cycles as f64,
            engines[1].busy as f64 / cycles as f64,
        ],
    }
}
