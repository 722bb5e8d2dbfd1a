//! Read traces for the public simulator's RamSim, beside this model's cycles for them: the check
//! behind `unizk::hbm` (see the hwmodel README).
//!
//! ```sh
//! cargo run --release -p zkaccel-hwmodel --example ramsim_gathers -- grid BANKS BYTES OUT.bin
//! cargo run --release -p zkaccel-hwmodel --example ramsim_gathers -- gather LDE_BITS PITCH BYTES SHIFT OUT.bin
//! cargo run --release -p zkaccel-hwmodel --example ramsim_gathers -- quotient LDE_BITS OUT.bin
//! ```
//!
//! `grid`: 16 × 256 records, each in a new DRAM row, spread evenly over BANKS banks of one
//! pseudo-channel (32: both) on the same channels. `gather`: 16 quotient batches of one
//! matrix's rows. `quotient`: 16 batches of plonky2's Fibonacci quotient (82-element constants and sigmas,
//! wires, Zs and partial products, the next Zs). The trace is RamSim's binary format: the magic
//! `BINFILE\0`, then per record six little-endian u64s (id, address, type 0 = read, delay, size,
//! dependencies 0). Prints the model's cycles; run `ramulator2 -f CONFIG` on the file for
//! RamSim's.

use std::io::Write;

use zkaccel_hwmodel::unizk::hbm::{
    bank_probe, batch_records, replay_reads, GatherPattern, HbmTimings,
};

const BATCHES: u64 = 16;
const POINTS: u64 = 256;

fn arg<T: std::str::FromStr>(args: &[String], i: usize) -> T {
    args.get(i)
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("argument {i} missing or malformed: {args:?}"))
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (records, out) = match args.first().map(String::as_str) {
        Some("grid") => (bank_probe(arg(&args, 1), arg(&args, 2), BATCHES * POINTS), args[3].clone()),
        Some("gather") => {
            let p = GatherPattern::in_slot(0, arg(&args, 1), 0, arg(&args, 2), arg(&args, 3), arg(&args, 4));
            (batch_records(&[p], POINTS, 0, BATCHES), args[5].clone())
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
            (batch_records(&patterns, POINTS, 0, BATCHES), args[2].clone())
        }
        _ => panic!("usage: grid BANKS BYTES OUT | gather LDE_BITS PITCH BYTES SHIFT OUT | quotient LDE_BITS OUT"),
    };
    let mut file = std::io::BufWriter::new(std::fs::File::create(&out)?);
    file.write_all(b"BINFILE\0")?;
    for (id, r) in records.iter().enumerate() {
        for word in [id as u64, r.addr, 0, 0, r.size, 0] {
            file.write_all(&word.to_le_bytes())?;
        }
    }
    file.flush()?;
    let cycles = replay_reads(&HbmTimings::UNIZK_SIM, &records);
    println!(
        "model {cycles} cycles, {:.2} per record, {:.0} per batch",
        cycles as f64 / records.len() as f64,
        cycles as f64 / BATCHES as f64
    );
    Ok(())
}
