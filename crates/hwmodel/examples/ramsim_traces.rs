//! Traces for the public simulator's RamSim, beside this model's cycles for them: the check
//! behind `unizk::hbm` (see the hwmodel README), and the probes for what it does not model yet.
//!
//! ```sh
//! cargo run --release -p zkaccel-hwmodel --example ramsim_traces -- grid BANKS BYTES OUT.bin
//! cargo run --release -p zkaccel-hwmodel --example ramsim_traces -- gather LDE_BITS PITCH BYTES SHIFT OUT.bin
//! cargo run --release -p zkaccel-hwmodel --example ramsim_traces -- quotient LDE_BITS OUT.bin
//! cargo run --release -p zkaccel-hwmodel --example ramsim_traces -- blocks BLOCKS RUN STRIDE DELAY OUT.bin
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
//!
//! The trace is RamSim's binary format: the magic `BINFILE\0`, then per record six
//! little-endian u64s (id, address, type 0 = read / 1 = write, delay, size, dependency count)
//! and the dependencies' ids. Run `ramulator2 -f CONFIG` (the simulator's `configs/*.yaml`
//! with `traceFileName` set to the file) for RamSim's cycles.

use std::io::Write;

use zkaccel_hwmodel::unizk::hbm::{
    bank_probe, batch_records, replay_reads, GatherPattern, HbmTimings, ReadRecord,
};

const BATCHES: u64 = 16;
const POINTS: u64 = 256;
const USAGE: &str = "usage: grid BANKS BYTES OUT | gather LDE_BITS PITCH BYTES SHIFT OUT | \
                     quotient LDE_BITS OUT | blocks BLOCKS RUN STRIDE DELAY OUT";

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
