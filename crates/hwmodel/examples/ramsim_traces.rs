//! Traces for the public simulator's RamSim, beside this model's cycles for them: the check
//! behind `unizk::hbm` (see the hwmodel README), and the probes for what it does not model yet.
//!
//! ```sh
//! cargo run --release -p zkaccel-hwmodel --example ramsim_traces -- grid BANKS BYTES OUT.bin
//! cargo run --release -p zkaccel-hwmodel --example ramsim_traces -- gather LDE_BITS PITCH BYTES SHIFT OUT.bin
//! cargo run --release -p zkaccel-hwmodel --example ramsim_traces -- quotient LDE_BITS OUT.bin
//! cargo run --release -p zkaccel-hwmodel --example ramsim_traces -- blocks BLOCKS RUN STRIDE DELAY OUT.bin
//! cargo run --release -p zkaccel-hwmodel --example ramsim_traces -- strided COUNT RUN STRIDE OUT.bin
//! cargo run --release -p zkaccel-hwmodel --example ramsim_traces -- ntt LOG_N BATCH EXT TRANSPOSED ZERO_LOG ROUND BLOCKS DELAY OUT.bin
//! ```
//!
//! - `grid`: 16 × 256 reads, each in a new DRAM row, spread evenly over BANKS banks of one
//!   pseudo-channel (32: both) on the same channels.
//! - `gather`: 16 quotient batches of one matrix's rows.
//! - `quotient`: 16 batches of plonky2's Fibonacci quotient (82-element constants and sigmas,
//!   wires, Zs and partial products, the next Zs).
//! - `blocks`: BLOCKS blocks of 2 MiB read then 2 MiB written in records of RUN bytes, STRIDE
//!   bytes apart (0: back to back), with the simulator's dependencies: a block's writes wait for
//!   all its reads, the first write carries DELAY cycles of compute and the others wait for it,
//!   and a block's reads wait for the last write of the block two before (an NTT pass's blocks).
//!   The model replays reads only, so it prints the roofline for these.
//! - `strided`: COUNT read records of RUN bytes, STRIDE bytes apart, from an idle memory.
//! - `ntt`: the first BLOCKS blocks of round ROUND of the simulator's NTT (`SimNtt`: 2^LOG_N
//!   points, BATCH transforms of EXT base elements, TRANSPOSED 1 for index-major input, the
//!   LDE's padding ZERO_LOG), with the simulator's dependencies and DELAY cycles of compute a
//!   block (105 for the base field); the model's cycles for one block.
//!
//! The trace is RamSim's binary format: the magic `BINFILE\0`, then per record six
//! little-endian u64s (id, address, type 0 = read / 1 = write, delay, size, dependency count)
//! and the dependencies' ids. Run `ramulator2 -f CONFIG` (the simulator's `configs/*.yaml`
//! with `traceFileName` set to the file) for RamSim's cycles.

use std::io::Write;

use zkaccel_hwmodel::unizk::hbm::{
    bank_probe, batch_records, replay_reads, GatherPattern, HbmTimings, ReadRecord,
};
use zkaccel_hwmodel::unizk::sim_ntt::SimNtt;

const BATCHES: u64 = 16;
const POINTS: u64 = 256;
const USAGE: &str = "usage: grid BANKS BYTES OUT | gather LDE_BITS PITCH BYTES SHIFT OUT | \
                     quotient LDE_BITS OUT | blocks BLOCKS RUN STRIDE DELAY OUT | \
                     strided COUNT RUN STRIDE OUT | \
                     ntt LOG_N BATCH EXT TRANSPOSED ZERO_LOG ROUND BLOCKS DELAY OUT";

/// One RamSim record.
struct Record {
    addr: u64,
    write: bool,
    delay: u64,
    size: u64,
    deps: Vec<u64>,
}

fn arg<T: std::str::FromStr>(args: &[String], i: usize) -> T {
    args.get(i)
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("argument {i} missing or malformed: {args:?}\n{USAGE}"))
}

fn reads(records: &[ReadRecord]) -> Vec<Record> {
    records
        .iter()
        .map(|r| Record {
            addr: r.addr,
            write: false,
            delay: 0,
            size: r.size,
            deps: Vec::new(),
        })
        .collect()
}

/// An NTT pass's blocks: 2 MiB in, 2 MiB out, in records of `run` bytes `stride` apart.
fn blocks(count: u64, run: u64, stride: u64, delay: u64) -> Vec<Record> {
    const BLOCK: u64 = 2 << 20;
    let run = run.clamp(1, BLOCK);
    let step = if stride == 0 { run } else { stride };
    let per_block = BLOCK / run;
    let mut records: Vec<Record> = Vec::new();
    let mut last_writes: Vec<u64> = Vec::new();
    for b in 0..count {
        let base = b * per_block * step;
        let after: Vec<u64> = b
            .checked_sub(2)
            .map(|i| vec![last_writes[i as usize]])
            .unwrap_or_default();
        let first_read = records.len() as u64;
        for k in 0..per_block {
            records.push(Record {
                addr: (1 << 32) + base + k * step,
                write: false,
                delay: 0,
                size: run,
                deps: after.clone(),
            });
        }
        let read_ids: Vec<u64> = (first_read..records.len() as u64).collect();
        let first_write = records.len() as u64;
        for k in 0..per_block {
            let mut deps = read_ids.clone();
            if k > 0 {
                deps.push(first_write);
            }
            records.push(Record {
                addr: (1 << 36) + base + k * step,
                write: true,
                delay: if k == 0 { delay } else { 0 },
                size: run,
                deps,
            });
        }
        last_writes.push(records.len() as u64 - 1);
    }
    records
}

/// The first `count` blocks of an NTT round as the simulator writes them (`run_trace`: a
/// block's writes wait for all its reads, the first write carries the compute `delay` and the
/// others wait for it; `add_trace`: a block's reads wait for the last write of the block two
/// before), and the model's cycles for one block.
fn ntt_blocks(ntt: &SimNtt, round: usize, count: u64, delay: u64) -> (Vec<Record>, u64) {
    let mut records: Vec<Record> = Vec::new();
    let mut last_writes: Vec<u64> = Vec::new();
    let mut model = 0;
    for b in 0..count {
        let Some((rd, wr)) = ntt.block(round, b) else {
            break;
        };
        if b == 0 {
            let t = HbmTimings::UNIZK_SIM;
            model = replay_reads(&t, &rd) + delay + replay_reads(&t, &wr);
        }
        let after: Vec<u64> = b
            .checked_sub(2)
            .and_then(|i| last_writes.get(i as usize).copied())
            .into_iter()
            .collect();
        let first_read = records.len() as u64;
        for r in &rd {
            records.push(Record {
                addr: r.addr,
                write: false,
                delay: 0,
                size: r.size,
                deps: after.clone(),
            });
        }
        let read_ids: Vec<u64> = (first_read..records.len() as u64).collect();
        let first_write = records.len() as u64;
        for (k, w) in wr.iter().enumerate() {
            let mut deps = read_ids.clone();
            if k > 0 {
                deps.push(first_write);
            }
            records.push(Record {
                addr: w.addr,
                write: true,
                delay: if k == 0 { delay } else { 0 },
                size: w.size,
                deps,
            });
        }
        last_writes.push(records.len() as u64 - 1);
    }
    (records, model)
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (records, out, replayed) = match args.first().map(String::as_str) {
        Some("grid") => {
            let r = bank_probe(arg(&args, 1), arg(&args, 2), BATCHES * POINTS);
            (reads(&r), args[3].clone(), Some(r))
        }
        Some("gather") => {
            let (bits, pitch, bytes, shift) =
                (arg(&args, 1), arg(&args, 2), arg(&args, 3), arg(&args, 4));
            let p = GatherPattern::in_slot(0, bits, 0, pitch, bytes, shift);
            let r = batch_records(&[p], POINTS, 0, BATCHES);
            (reads(&r), args[5].clone(), Some(r))
        }
        Some("quotient") => {
            let lde_bits: u32 = arg(&args, 1);
            let matrix = |slot, pitch, bytes, shift| {
                GatherPattern::in_slot(slot, lde_bits, 0, pitch, bytes, shift)
            };
            let patterns = [
                matrix(0, 82 * 8, 81 * 8 + 1, 0),
                matrix(1, 135 * 8, 134 * 8 + 1, 0),
                matrix(2, 20 * 8, 19 * 8 + 1, 0),
                matrix(2, 20 * 8, 8 + 1, 8),
            ];
            let r = batch_records(&patterns, POINTS, 0, BATCHES);
            (reads(&r), args[2].clone(), Some(r))
        }
        Some("strided") => {
            let (count, run, stride): (u64, u64, u64) =
                (arg(&args, 1), arg(&args, 2), arg(&args, 3));
            let r: Vec<ReadRecord> = (0..count)
                .map(|k| ReadRecord {
                    addr: (1 << 36) + k * stride,
                    size: run,
                })
                .collect();
            (reads(&r), args[4].clone(), Some(r))
        }
        Some("ntt") => {
            let ntt = SimNtt {
                plane_log: 5,
                active_bytes: 2 << 20,
                ext: arg(&args, 3),
                log_n: arg(&args, 1),
                batch: arg(&args, 2),
                zero_log: arg(&args, 5),
                transposed: arg::<u8>(&args, 4) == 1,
            };
            let (round, count, delay): (usize, u64, u64) =
                (arg(&args, 6), arg(&args, 7), arg(&args, 8));
            let (records, model) = ntt_blocks(&ntt, round, count, delay);
            println!("model: {model} cycles a block (replayed reads, compute, replayed writes)");
            (records, args[9].clone(), None)
        }
        Some("blocks") => {
            let (count, run, stride, delay) =
                (arg(&args, 1), arg(&args, 2), arg(&args, 3), arg(&args, 4));
            (blocks(count, run, stride, delay), args[5].clone(), None)
        }
        _ => panic!("{USAGE}"),
    };
    let mut file = std::io::BufWriter::new(std::fs::File::create(&out)?);
    file.write_all(b"BINFILE\0")?;
    for (id, r) in records.iter().enumerate() {
        let head = [id as u64, r.addr, u64::from(r.write), r.delay, r.size];
        for word in head
            .into_iter()
            .chain([r.deps.len() as u64])
            .chain(r.deps.iter().copied())
        {
            file.write_all(&word.to_le_bytes())?;
        }
    }
    file.flush()?;
    let bytes: u64 = records.iter().map(|r| r.size).sum();
    match replayed {
        Some(r) => {
            let cycles = replay_reads(&HbmTimings::UNIZK_SIM, &r);
            println!(
                "model {cycles} cycles, {:.2} per record, {:.0} per batch",
                cycles as f64 / r.len() as f64,
                cycles as f64 / BATCHES as f64
            );
        }
        None => println!(
            "{} records, {bytes} bytes: {} cycles at 1,024 bytes per cycle",
            records.len(),
            bytes / 1024
        ),
    }
    Ok(())
}
