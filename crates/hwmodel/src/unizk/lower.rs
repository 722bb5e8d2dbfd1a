//! Each kernel kind lowered to blocks the way the paper's §5 maps it.

use zkaccel_kernel_trace::{
    GateEvaluation, Kernel, KernelRecord, LeafLayout, NttLayout, NttOrder, Phase, RowGather,
    TraceField, VectorOp, VectorOpKind,
};

use super::blocks::{Blocks, ReplayedStream, Stream};
use super::config::{
    Mode, UnizkConfig, DIGEST_ELEMENTS, ELEMENT_BYTES, EXT2_MUL_PRODUCTS, INVERSE_PRODUCTS,
    SPONGE_RATE,
};
use super::hbm::{self, GatherPattern, HbmTimings, ReadRecord};
use super::sim_ntt::SimNtt;

/// The hash every Poseidon kernel must name.
pub const POSEIDON_GOLDILOCKS: &str = "poseidon-goldilocks-12";
/// Proof-of-work hashes the public simulator charges whatever the trace says.
pub const UNIZK_SIM_POW_HASHES: u64 = 200_000;
/// Bytes of one digest.
const DIGEST_BYTES: u64 = DIGEST_ELEMENTS * ELEMENT_BYTES;

/// A kernel as blocks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lowered {
    /// Groups of identical blocks, in order.
    pub groups: Vec<Blocks>,
    /// Cycles outside any block (a chain of dependent permutations).
    pub serial: f64,
    /// How the kernel was mapped when it is not by its own blocks (folded into a neighbour).
    pub note: Option<&'static str>,
    /// Share of the compute cycles in which the PEs issue work (1 for the NTT and Poseidon
    /// pipelines; for vector programs the rest is the chain's fill and drain).
    pub issue_fraction: f64,
    /// Memory replayed record by record ([`hbm`]), outside any block and after them.
    pub replayed: Replayed,
}

/// Memory time a kernel spends in records replayed one by one through the HBM model.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Replayed {
    /// Cycles, in series with the kernel's blocks.
    pub cycles: f64,
    /// Bytes the memory moved (whole 64-byte requests).
    pub moved_bytes: u64,
    /// Cycles the PEs issued work meanwhile (the simulator charges no time for it).
    pub busy_cycles: f64,
}

/// Quotient batches whose gathers are replayed: evenly spread over the kernel, each from an
/// idle memory; the kernel's gather time is their mean times the batches.
pub const GATHER_SAMPLES: u64 = 16;
/// 64-byte requests of one batch replayed at most (the simulator's batches: Fibonacci 5,888,
/// Factorial 8,192, MVM 29,440).
pub const MAX_BATCH_REQUESTS: u64 = 1 << 15;
/// 64-byte requests replayed at most for one kernel, over all its samples.
pub const MAX_REPLAYED_REQUESTS: u64 = 1 << 18;

/// Which of the public simulator's two provers a trace is priced as in `unizk-sim` mode: their
/// artefacts differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimProver {
    /// `plonk/prover.rs`: a PLONK circuit's proof (the shape front end's traces).
    Plonky2,
    /// `starky/prover.rs`: an AIR's proof (our STARK prover's traces). It copies each
    /// quotient point's gathered rows into the batch's buffer through memory (its row copies
    /// keep their writes, which the plonky2 prover clears), and commits the quotient without
    /// the blow-up (it passes `rate_bits` 0).
    Starky,
}

impl SimProver {
    /// A trace whose quotient names the gates it evaluates is a PLONK circuit's; one whose
    /// quotient names none evaluates an AIR.
    pub fn of(records: &[KernelRecord]) -> Self {
        let plonk = records.iter().any(|r| {
            r.phase == Phase::QUOTIENT
                && matches!(&r.kernel, Kernel::Vector { gates, .. } if !gates.is_empty())
        });
        if plonk {
            Self::Plonky2
        } else {
            Self::Starky
        }
    }

    /// The kernel the simulator runs for `kernel` of `phase` in a trace whose quotient
    /// commitment extends by `2^rate` (the trace's own, `None` where it has none): the starky
    /// prover's quotient commitment at rate 0 — its LDE a plain coset transform of the
    /// polynomials' size, its leaf rows and tree `2^rate` times fewer.
    pub fn simulated(self, phase: &str, kernel: &Kernel, rate: Option<u32>) -> Option<Kernel> {
        let rate = rate.filter(|&r| r > 0)?;
        if self != Self::Starky || phase != Phase::QUOTIENT_COMMIT {
            return None;
        }
        let mut k = kernel.clone();
        match &mut k {
            Kernel::Ntt {
                log_n, zero_log, ..
            } if *zero_log == rate && *log_n > rate => {
                *log_n -= rate;
                *zero_log = 0;
            }
            Kernel::Transpose { cols, .. } => *cols = cols.checked_shr(rate).unwrap_or(0).max(1),
            Kernel::Merkle {
                log_leaves,
                cap_height,
                ..
            } if *log_leaves >= cap_height.saturating_add(rate) => *log_leaves -= rate,
            _ => return None,
        }
        Some(k)
    }

    /// The blow-up of a trace's quotient commitment: its LDE's `zero_log`.
    pub fn quotient_commit_rate(records: &[KernelRecord]) -> Option<u32> {
        records.iter().find_map(|r| match &r.kernel {
            Kernel::Ntt { zero_log, .. } if r.phase == Phase::QUOTIENT_COMMIT => Some(*zero_log),
            _ => None,
        })
    }
}

/// Why a kernel has no mapping on UniZK.
pub type Unmapped = String;

/// Lowers one kernel of `phase`, in a trace `prover` made (it matters in `unizk-sim` mode
/// only, where the simulator's two provers run some kernels differently; see
/// [`SimProver::of`]).
///
/// # Errors
/// A description when UniZK cannot run the kernel (a 256-bit field, MiMC, another hash, a
/// Merkle arity other than 2).
pub fn lower(
    config: &UnizkConfig,
    prover: SimProver,
    phase: &str,
    kernel: &Kernel,
) -> Result<Lowered, Unmapped> {
    match kernel {
        Kernel::Ntt {
            field,
            log_n,
            batch,
            zero_log,
            layout,
            order,
            ..
        } => ntt(config, *field, *log_n, *batch, *zero_log, *layout, *order),
        Kernel::Merkle {
            hash,
            log_leaves,
            leaf_width,
            cap_height,
            arity,
            leaf_layout,
        } => {
            poseidon(hash)?;
            if *arity != 2 {
                return Err(format!("Merkle arity {arity}: UniZK builds binary trees"));
            }
            Ok(merkle(
                config,
                *log_leaves,
                *leaf_width,
                *cap_height,
                *leaf_layout,
            ))
        }
        Kernel::Sponge {
            hash,
            absorbed,
            squeezed,
            permutations,
        } => {
            poseidon(hash)?;
            Ok(sponge(config, *absorbed, *squeezed, *permutations))
        }
        Kernel::Grind {
            hash, permutations, ..
        } => {
            poseidon(hash)?;
            Ok(grind(config, *permutations))
        }
        Kernel::Vector {
            field,
            len,
            ops,
            in_bytes,
            out_bytes,
            gather_bytes,
            gathers,
            scan,
            gates,
        } => {
            goldilocks(*field)?;
            let ops = expand(ops);
            Ok(if *scan {
                recurrence(config, *len, &ops, *in_bytes, *out_bytes)
            } else if config.mode == Mode::UnizkSim && !gathers.is_empty() {
                let rows = RowsAndProgram {
                    in_bytes: *in_bytes,
                    out_bytes: *out_bytes,
                    gathers,
                    gates,
                    rows_written_back: prover == SimProver::Starky,
                };
                gathered(config, *len, &ops, &rows)
            } else {
                vector(config, *len, &ops, *in_bytes, *out_bytes, *gather_bytes)
            })
        }
        Kernel::PartialProducts {
            field,
            rows,
            columns,
            degree,
        } => {
            goldilocks(*field)?;
            Ok(match config.mode {
                Mode::Paper => partial_products(config, *rows, *columns, *degree),
                Mode::UnizkSim => sim_partial_products(config, *rows, *columns, *degree),
            })
        }
        Kernel::Transpose {
            rows,
            cols,
            elem_bytes,
        } => Ok(Lowered {
            // The global transpose buffer rearranges while the neighbour streams (§4): what
            // remains is storing the rearranged copy that later kernels read.
            groups: vec![streamed(
                config,
                0,
                rows.saturating_mul(*cols).saturating_mul(*elem_bytes),
                0.0,
            )],
            serial: 0.0,
            note: Some("read folded into its producer through the transpose buffer"),
            issue_fraction: 1.0,
            replayed: Replayed::default(),
        }),
        Kernel::Copy { bytes } => {
            if phase == "fri-query" {
                // Authentication paths: digests gathered one by one.
                Ok(Lowered {
                    groups: vec![Blocks {
                        count: 1,
                        read: Stream::runs(*bytes, DIGEST_BYTES),
                        write: Stream::default(),
                        compute: 0.0,
                    }],
                    serial: 0.0,
                    note: None,
                    issue_fraction: 1.0,
                    replayed: Replayed::default(),
                })
            } else {
                Ok(Lowered {
                    groups: Vec::new(),
                    serial: 0.0,
                    note: Some("folded into its producer's store addresses"),
                    issue_fraction: 1.0,
                    replayed: Replayed::default(),
                })
            }
        }
        Kernel::Mimc { .. } => Err("MiMC over a 256-bit field: UniZK's PEs are 64-bit".into()),
    }
}

fn poseidon(hash: &str) -> Result<(), Unmapped> {
    if hash == POSEIDON_GOLDILOCKS {
        Ok(())
    } else {
        Err(format!("hash `{hash}`: UniZK maps {POSEIDON_GOLDILOCKS}"))
    }
}

fn goldilocks(field: TraceField) -> Result<u64, Unmapped> {
    match field {
        TraceField::Goldilocks => Ok(1),
        TraceField::Goldilocks2 => Ok(2),
        other => Err(format!(
            "field {other:?}: UniZK's PEs are 64-bit Goldilocks"
        )),
    }
}

/// An NTT as L×L planes, two dimensions per pass over memory (§5.1, SAM's decomposition).
/// In `unizk-sim` mode a natural-order transform of more than one plane takes the public
/// simulator's rounds and blocks instead, each round's reads and writes priced by replaying
/// one block's records ([`SimNtt`]).
fn ntt(
    config: &UnizkConfig,
    field: TraceField,
    log_n: u32,
    batch: u64,
    zero_log: u32,
    layout: NttLayout,
    order: NttOrder,
) -> Result<Lowered, Unmapped> {
    let ext = goldilocks(field)?;
    let elem = ELEMENT_BYTES * ext;
    let plane_log = config.plane_log().max(1);
    let plane = 1u64 << (2 * plane_log);
    let dims = log_n.div_ceil(plane_log).max(1);
    let passes = u64::from(dims.div_ceil(2));
    let total = batch
        .saturating_mul(1u64 << log_n.min(62))
        .saturating_mul(elem);
    let active = config.active_bytes().max(elem);
    let block = total.min(active);
    let count = total.div_ceil(block);
    // Compute: the MDC pipelines fill (two dimensions of log L stages, each a product deep) and
    // drain a plane; then each VSA row's two pipelines take two elements per cycle, an
    // extension product costing EXT2_MUL_PRODUCTS base products.
    let mul_latency = if ext == 2 {
        config.ext_mul_latency()
    } else {
        config.mul_latency
    };
    let products = if ext == 2 { EXT2_MUL_PRODUCTS } else { 1 };
    // A plane's rows enter as lines of `array` elements; a VSA's rows take two elements per
    // cycle each, so one line per half cycle (an extension product: five base products).
    let side = 1u64 << plane_log;
    let lines_per_plane = side * side.div_ceil(u64::from(config.array));
    let planes = (block / elem).div_ceil(plane);
    let mut line_interval = 0.5 * f64::from(products);
    if config.mode == Mode::UnizkSim {
        // The simulator charges the interval cast to an integer (`drain.interval as usize`,
        // `as` binding before the product): half a cycle a line counts as none, an extension
        // line's 2.5 as 2.
        line_interval = line_interval.floor();
    }
    let compute_for = |lines: u64| {
        f64::from(2 * plane_log * mul_latency)
            + plane as f64 / f64::from(config.array)
            + line_interval * lines.div_ceil(u64::from(config.vsas)) as f64
    };
    let compute = compute_for(planes * lines_per_plane);
    if config.mode == Mode::UnizkSim && order == NttOrder::Nn {
        let sim = SimNtt {
            plane_log,
            active_bytes: config.active_bytes(),
            ext,
            log_n,
            batch,
            zero_log,
            transposed: layout == NttLayout::IndexMajor,
        };
        if let Some(rounds) = sim.rounds() {
            let timings = HbmTimings::UNIZK_SIM.with_channels(config.channels);
            let groups = rounds
                .iter()
                .map(|round| Blocks {
                    count: round.blocks,
                    read: replayed_stream(&timings, &round.reads),
                    write: replayed_stream(&timings, &round.writes),
                    // A block's points enter as lines of `array` elements, a plane row at a
                    // time.
                    compute: compute_for(
                        (round.block_elements / side) * side.div_ceil(u64::from(config.array)),
                    ),
                })
                .collect();
            return Ok(Lowered {
                groups,
                serial: 0.0,
                note: None,
                issue_fraction: 1.0,
                replayed: Replayed::default(),
            });
        }
    }
    // Pass 0 streams the input (index-major through the transpose buffer: b polynomials per
    // run), skipping an LDE's zero padding, and stores each transformed dimension in runs of
    // the block's planes side by side (index-major: the planes split among b polynomials, the
    // simulator's `para_k`); later passes read and write such runs.
    let (first_run, para_k) = match layout {
        NttLayout::PolyMajor => (0, 1),
        NttLayout::IndexMajor => {
            let b = u64::from(config.transpose_b).min(batch).max(1);
            (b * elem, b)
        }
    };
    let first_write_run = if passes == 1 {
        first_run
    } else {
        (planes / para_k).max(1) * elem
    };
    let strided_run = (block / plane).max(elem);
    let mut groups = vec![Blocks {
        count,
        read: Stream::runs(block >> zero_log.min(62), first_run),
        write: Stream::runs(block, first_write_run),
        compute,
    }];
    if passes > 1 {
        groups.push(Blocks {
            count: count.saturating_mul(passes - 1),
            read: Stream::runs(block, strided_run),
            write: Stream::runs(block, strided_run),
            compute,
        });
    }
    Ok(Lowered {
        groups,
        serial: 0.0,
        note: None,
        issue_fraction: 1.0,
        replayed: Replayed::default(),
    })
}

/// A stream of the simulator's records, replayed: its bytes, requests and cycles.
fn replayed_stream(timings: &HbmTimings, records: &[ReadRecord]) -> Stream {
    let request = timings.request_bytes.max(1);
    let bytes = records
        .iter()
        .map(|r| r.size + ELEMENT_BYTES - 1)
        .sum::<u64>();
    let moved = records
        .iter()
        .map(|r| r.size.div_ceil(request) * request)
        .sum();
    Stream::replayed(
        bytes,
        ReplayedStream {
            records: records.len() as u64,
            moved,
            cycles: hbm::replay_reads(timings, records) as f64,
        },
    )
}

/// Permutations hashing one leaf of `width` elements.
fn leaf_permutations(mode: Mode, width: u64) -> u64 {
    if mode == Mode::Paper && width <= DIGEST_ELEMENTS {
        // plonky2's hash_or_noop: a leaf that fits a digest is its own digest.
        0
    } else {
        width.div_ceil(SPONGE_RATE)
    }
}

/// A Merkle tree in scratchpad-sized subtrees, level order (§5.3).
fn merkle(
    config: &UnizkConfig,
    log_leaves: u32,
    leaf_width: u64,
    cap_height: u32,
    layout: LeafLayout,
) -> Lowered {
    let interval = config.permutation_interval() as f64;
    let latency = config.permutation_latency() as f64;
    let active_elements = (config.active_bytes() / ELEMENT_BYTES).max(2);
    let leaf_perms = leaf_permutations(config.mode, leaf_width);
    // Trees past 2^62 leaves are priced as 2^62 (no memory holds more).
    let log_leaves = log_leaves.min(62);
    let cap_height = cap_height.min(log_leaves);
    let mut groups = Vec::new();
    let mut level_log = log_leaves;
    let mut width = leaf_width.max(1);
    let mut first = true;
    loop {
        let fits = (active_elements / width).max(2);
        let block_log = (63 - fits.leading_zeros()).min(match config.mode {
            Mode::Paper => level_log,
            // The simulator's blocks stop at the cap (`tree.rs`: the leaves read at once are at
            // most 2^(level − cap_height)): a tree that fits is still 2^cap_height subtrees,
            // whose blocks then overlap two by two.
            Mode::UnizkSim => level_log - cap_height,
        });
        let levels = block_log.min(level_log - cap_height);
        let items = 1u64 << block_log;
        let nodes = items - (items >> levels);
        let perms = if first {
            items.saturating_mul(leaf_perms)
        } else {
            0
        } + nodes;
        let digests_written = if first { items } else { 0 } + nodes;
        let run = match (first, layout) {
            (true, LeafLayout::Columns) => u64::from(config.transpose_b) * ELEMENT_BYTES,
            _ => 0,
        };
        groups.push(Blocks {
            count: 1u64 << (level_log - block_log),
            read: Stream::runs(
                items.saturating_mul(width).saturating_mul(ELEMENT_BYTES),
                run,
            ),
            write: Stream::contiguous(digests_written.saturating_mul(DIGEST_BYTES)),
            compute: if perms == 0 {
                0.0
            } else {
                latency + interval * (perms as f64 / f64::from(config.vsas)).ceil()
            },
        });
        level_log -= levels;
        width = DIGEST_ELEMENTS;
        first = false;
        if level_log <= cap_height || levels == 0 {
            break;
        }
    }
    Lowered {
        groups,
        serial: 0.0,
        note: None,
        issue_fraction: 1.0,
        replayed: Replayed::default(),
    }
}

/// The challenger's sponge: dependent permutations on one VSA.
fn sponge(config: &UnizkConfig, absorbed: u64, squeezed: u64, permutations: u64) -> Lowered {
    let latency = config.permutation_latency() as f64;
    let serial = match config.mode {
        Mode::Paper => permutations as f64 * latency,
        // HashNoPad: one permutation, then one per 32 output lines, whatever the input.
        Mode::UnizkSim => {
            latency
                * (1 + squeezed
                    .div_ceil(u64::from(config.array))
                    .div_ceil(u64::from(config.vsas))) as f64
        }
    };
    Lowered {
        groups: vec![Blocks {
            count: 1,
            read: Stream::contiguous(absorbed.saturating_mul(ELEMENT_BYTES)),
            write: Stream::contiguous(squeezed.saturating_mul(ELEMENT_BYTES)),
            compute: 0.0,
        }],
        serial,
        note: None,
        // One state at a time through one VSA's pipeline.
        issue_fraction: config.permutation_interval() as f64
            / config.permutation_latency() as f64
            / f64::from(config.vsas),
        replayed: Replayed::default(),
    }
}

/// Proof of work: independent permutations spread over the VSAs.
fn grind(config: &UnizkConfig, permutations: u64) -> Lowered {
    let latency = config.permutation_latency() as f64;
    let serial = match config.mode {
        Mode::Paper => {
            latency
                + config.permutation_interval() as f64
                    * (permutations as f64 / f64::from(config.vsas)).ceil()
        }
        Mode::UnizkSim => latency + UNIZK_SIM_POW_HASHES as f64 / f64::from(config.vsas),
    };
    Lowered {
        groups: Vec::new(),
        serial,
        note: None,
        issue_fraction: 1.0,
        replayed: Replayed::default(),
    }
}

/// A program's base-field work per element: products and additions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BaseOps {
    /// Goldilocks products.
    pub muls: u64,
    /// Goldilocks additions and subtractions.
    pub adds: u64,
}

/// Expands extension and inversion ops into base-field products and additions.
pub fn expand(ops: &[VectorOp]) -> BaseOps {
    let mut total = BaseOps::default();
    for op in ops {
        let ext = u64::from(op.ext.max(1));
        let (muls, adds) = match (op.op, ext) {
            (VectorOpKind::Add | VectorOpKind::Sub, e) => (0, e),
            (VectorOpKind::Mul, 1) => (1, 0),
            (VectorOpKind::Mul, _) => (u64::from(EXT2_MUL_PRODUCTS), 2),
            (VectorOpKind::Inv, 1) => (u64::from(INVERSE_PRODUCTS), 0),
            // conj(a) / N(a): the norm (three products, a subtraction), its inverse, two
            // products.
            (VectorOpKind::Inv, _) => (u64::from(INVERSE_PRODUCTS) + 5, 1),
        };
        total.muls = total.muls.saturating_add(muls);
        total.adds = total.adds.saturating_add(adds);
    }
    total
}

/// Convoys a chain of `ops` packs into (at most one product and two additions each, §5.4
/// chaining), and their summed depth.
fn convoys(config: &UnizkConfig, ops: BaseOps) -> (u64, f64) {
    let convoys = ops.muls.max(ops.adds.div_ceil(2)).max(1);
    let depth = ops.muls as f64 * f64::from(config.mul_latency) + ops.adds as f64;
    (convoys, depth)
}

/// One block streaming `read` and `write` bytes.
fn streamed(config: &UnizkConfig, read: u64, write: u64, compute: f64) -> Blocks {
    let active = config.active_bytes().max(1);
    let count = (read.max(write)).div_ceil(active).max(1);
    Blocks {
        count,
        read: Stream::contiguous(read.div_ceil(count)),
        write: Stream::contiguous(write.div_ceil(count)),
        compute: compute / count as f64,
    }
}

/// Element-wise arithmetic in vector mode, tiled through the scratchpad (§5.4).
fn vector(
    config: &UnizkConfig,
    len: u64,
    ops: &BaseOps,
    in_bytes: u64,
    out_bytes: u64,
    gather_bytes: u64,
) -> Lowered {
    let len = len.max(1);
    let (convoys, depth) = convoys(config, *ops);
    let per_point = in_bytes.saturating_add(out_bytes).div_ceil(len).max(1);
    let tile = if gather_bytes > 0 && config.vector_batch > 0 {
        config.vector_batch
    } else {
        (config.active_bytes() / per_point).max(1)
    }
    .min(len);
    let count = len.div_ceil(tile);
    let issue = convoys as f64 * (tile as f64 / config.pes() as f64).ceil();
    let compute = depth + issue;
    let read_tile = in_bytes.div_ceil(count);
    let read = if gather_bytes > 0 {
        match config.mode {
            // The simulator gathers this row and the next one as separate copies.
            Mode::UnizkSim => Stream::runs(read_tile.saturating_mul(2), gather_bytes),
            // The next row of one point is the row of another point in the tile.
            Mode::Paper => Stream::runs(read_tile, gather_bytes),
        }
    } else {
        Stream::contiguous(read_tile)
    };
    Lowered {
        groups: vec![Blocks {
            count,
            read,
            write: Stream::contiguous(out_bytes.div_ceil(count)),
            compute,
        }],
        serial: 0.0,
        note: None,
        issue_fraction: issue / compute,
        replayed: Replayed::default(),
    }
}

/// What a gathered vector kernel reads and runs: its bytes, its rows, its gates.
struct RowsAndProgram<'a> {
    in_bytes: u64,
    out_bytes: u64,
    gathers: &'a [RowGather],
    gates: &'a [GateEvaluation],
    /// Each gathered row is also written to the batch's buffer, a record each (the starky
    /// prover's row copies).
    rows_written_back: bool,
}

/// Lanes of the Poseidon gate's state the simulator reloads per batch: each of its 8 full
/// rounds loads the state's other 11 lanes three times (the round constants with the S-box's
/// first product, and its third and fourth products, in separate blocks), less one load its
/// block merge drops.
pub const SIM_POSEIDON_GATE_STATE_RELOADS: u64 = (3 * 8 - 1) * 11;
/// Lanes of the Poseidon gate's temporaries the simulator writes back per batch: its MDS
/// products (24 lanes: twelve at a stride of twelve elements, each a lane long) and the
/// state's lanes it keeps as separate entries (8).
pub const SIM_POSEIDON_GATE_WRITEBACKS: u64 = 24 + 8;

/// The lanes (vectors of one batch's points) the simulator's gate program moves beyond the
/// rows it gathered, per batch: `(reloaded, written back)`.
///
/// The simulator (`plonk/vanishing_poly.rs`, `plonk/gates.rs` and `kernel/vector_chain.rs` at
/// 9c94b55) runs every gate's constraints as one vector chain through a scratchpad LRU keyed
/// by a vector's start address, which keeps the length an entry was first given:
/// - each gate writes its `k` results a lane at a time into one scratch area and then adds the
///   whole area into the constraint terms: the LRU holds one lane under that key and reloads
///   the other `k − 1`;
/// - the Poseidon gate's full-width state operations reload the state's other lanes
///   ([`SIM_POSEIDON_GATE_STATE_RELOADS`]);
/// - at the chain's end the LRU writes back every result it holds: the scratch area (every
///   gate reuses it, so the widest gate's `k` lanes), the filter and its factor (2 lanes), and
///   the Poseidon gate's temporaries ([`SIM_POSEIDON_GATE_WRITEBACKS`]).
///
/// Other gates' temporaries (the u32 and comparison gates' partial sums) are not counted: no
/// simulator run of theirs was available to measure them.
pub fn sim_gate_program_lanes(gates: &[GateEvaluation]) -> (u64, u64) {
    let poseidon = |g: &&GateEvaluation| g.gate.starts_with("PoseidonGate(");
    let poseidons = gates.iter().filter(poseidon).count() as u64;
    let reloaded = gates
        .iter()
        .map(|g| g.constraints.saturating_sub(1))
        .fold(0u64, u64::saturating_add)
        .saturating_add(poseidons.saturating_mul(SIM_POSEIDON_GATE_STATE_RELOADS));
    let widest = gates.iter().map(|g| g.constraints).max().unwrap_or(0);
    let written = if gates.is_empty() {
        0
    } else {
        widest
            .saturating_add(2)
            .saturating_add(poseidons.saturating_mul(SIM_POSEIDON_GATE_WRITEBACKS))
    };
    (reloaded, written)
}

/// The simulator's quotient: batches of `vector_batch` points, each gathering its points' rows
/// record by record (replayed through [`hbm`]), then the gate program on rows already on chip.
///
/// The program's compute is no time here: in the simulator a vector chain's delay rides on its
/// block's first write. What it moves does: the lanes its scratchpad reloads and writes back
/// ([`sim_gate_program_lanes`]), streamed after the gathers, the writes after the last read.
/// Its operations still count as VSA work.
fn gathered(config: &UnizkConfig, len: u64, ops: &BaseOps, rows: &RowsAndProgram) -> Lowered {
    let RowsAndProgram {
        in_bytes,
        out_bytes,
        gathers,
        gates,
        rows_written_back,
    } = *rows;
    let len = len.max(1);
    // The simulator's 256 points, or (knob 0) as many as the scratchpad's active half holds.
    let per_point = in_bytes.saturating_add(out_bytes).div_ceil(len).max(1);
    let batch = match config.vector_batch {
        0 => config.active_bytes() / per_point,
        points => points,
    }
    .clamp(1, len);
    let batches = len.div_ceil(batch);
    // The program's operations, one per PE and cycle: the VSAs' work in all-PEs-busy cycles.
    let work = ops.muls.saturating_add(ops.adds) as f64 * len as f64 / config.pes() as f64;
    let patterns: Vec<GatherPattern> = gathers
        .iter()
        .zip(0..)
        .map(|(g, slot)| {
            GatherPattern::in_slot(
                slot,
                g.log_rows.min(40),
                g.stride_log.min(g.log_rows.min(40)),
                g.pitch_bytes.min(1 << 20),
                g.bytes.clamp(1, 1 << 16),
                g.shift,
            )
        })
        .collect();
    // The simulator's memory on the configured channels (the bandwidth knob's).
    let timings = HbmTimings::UNIZK_SIM.with_channels(config.channels);
    let request = timings.request_bytes;
    let requests_per_point: u64 = patterns.iter().map(|p| p.bytes.div_ceil(request)).sum();
    // A batch of more than MAX_BATCH_REQUESTS requests (a swept knob, a hostile trace) replays
    // its first points and scales; samples stop at MAX_REPLAYED_REQUESTS in all.
    let replayed_points = batch
        .min(MAX_BATCH_REQUESTS / requests_per_point.max(1))
        .max(1);
    let samples = batches
        .min(GATHER_SAMPLES)
        .min(MAX_REPLAYED_REQUESTS / (replayed_points * requests_per_point).max(1))
        .max(1);
    let sampled: u64 = (0..samples)
        .map(|k| {
            let spread = u128::from(k) * u128::from(batches) / u128::from(samples);
            let first = (spread as u64).saturating_mul(batch);
            let records: Vec<_> = patterns
                .iter()
                .flat_map(|p| (0..replayed_points).map(move |i| p.record(first.wrapping_add(i))))
                .collect();
            hbm::replay_reads(&timings, &records)
        })
        .sum();
    let per_batch = sampled as f64 / samples as f64 * batch as f64 / replayed_points as f64;
    let gathered_bytes = requests_per_point
        .saturating_mul(request)
        .saturating_mul(len);
    // Whatever the rows do not cover (none for plonky2's quotient) streams in the batch blocks.
    let read_rest = in_bytes.saturating_sub(gathered_bytes);
    // The gate program's scratch traffic per batch: its reloads, then (waiting for their
    // data) its write-backs, on which the next batch's reads wait in turn — two streams, each
    // a DRAM latency behind what it depends on.
    let (reloaded, written) = sim_gate_program_lanes(gates);
    let lane_bytes = batch.saturating_mul(ELEMENT_BYTES);
    let program_bytes = reloaded.saturating_add(written).saturating_mul(lane_bytes);
    let streams = u32::from(reloaded > 0) + u32::from(written > 0);
    let program_cycles = sim_record_cycles(config, 0.0, program_bytes)
        + f64::from(streams) * f64::from(config.dram_latency);
    // The starky prover's row copies: a write record per gathered row, admitted one a cycle.
    let copies = if rows_written_back {
        batch.saturating_mul(gathers.len() as u64)
    } else {
        0
    };
    let copy_bytes = copies.saturating_mul(request);
    let copy_cycles = sim_record_cycles(config, copies as f64, copy_bytes);
    Lowered {
        groups: vec![Blocks {
            count: batches,
            read: Stream::contiguous(read_rest.div_ceil(batches)),
            write: Stream::contiguous(out_bytes.div_ceil(batches)),
            compute: 0.0,
        }],
        serial: 0.0,
        note: Some("rows gathered record by record through the HBM model"),
        issue_fraction: 1.0,
        replayed: Replayed {
            cycles: (per_batch + program_cycles + copy_cycles) * batches as f64,
            moved_bytes: gathered_bytes.saturating_add(
                program_bytes
                    .saturating_add(copy_bytes)
                    .saturating_mul(batches),
            ),
            busy_cycles: work,
        },
    }
}

/// A linear recurrence (Ruffini's division by `X − z`, the only scan the provers record) over
/// `len` elements.
///
/// - `paper`: a parallel prefix, §5.4's partial-product scheme: each PE scans its share of a
///   tile, the shares' carries combine in a tree across the PEs, and each PE applies its carry.
/// - `unizk-sim`: the simulator's `divide_by_linear`, length-1 vector ops one step after
///   another, priced by the records its scratchpad emits ([`sim_division_records`]).
fn recurrence(
    config: &UnizkConfig,
    len: u64,
    ops: &BaseOps,
    in_bytes: u64,
    out_bytes: u64,
) -> Lowered {
    if config.mode == Mode::UnizkSim {
        return sim_division(config, len, ops);
    }
    let mut lowered = vector(config, len, ops, in_bytes, out_bytes, 0);
    let (convoys, depth) = convoys(config, *ops);
    let step = depth + convoys as f64;
    let pes = config.pes() as f64;
    for g in &mut lowered.groups {
        let tile = (len.div_ceil(g.count.max(1))) as f64;
        let share = (tile / pes).ceil();
        g.compute += share * step + pes.log2().ceil() * step;
    }
    lowered
}

/// Records the simulator's Ruffini division of `steps` coefficients emits, `(reads, writes)`,
/// each one element (one 64-byte request).
///
/// Its vector chain passes every operand through an LRU of both halves of the active buffer
/// (`capacity` elements), keyed by the operand's own address, so a coefficient, read once, is
/// always a miss. Step `i` reads coefficient `n − i` and the remainder `i − 1`, and writes the
/// remainder `n − i − 1` (the simulator's indices, extension limbs one element apart):
/// - in the first half the remainder it reads was never written (a miss), and each step brings
///   three new keys: the coefficient, the remainder read and the remainder written;
/// - in the second half it reads a remainder written `2i − n` steps before, through four keys
///   a step (three then, one now), so it misses where `4(i − n/2) > capacity`;
/// - a written remainder costs a store when the LRU evicts it. Nothing is evicted while the
///   keys fit; once they do not, every remainder is stored but those still resident at the
///   end, a third of the LRU (one key in three of the last steps is a written remainder).
pub fn sim_division_records(steps: u64, capacity: u64) -> (u64, u64) {
    let half = steps / 2;
    let late_misses = half.saturating_sub(capacity / 4);
    let reads = steps.saturating_add(half).saturating_add(late_misses);
    let keys = steps.saturating_mul(2).saturating_add(late_misses);
    let evictions = keys.saturating_sub(capacity);
    let writes = evictions.min(steps.saturating_sub(capacity / 3));
    (reads, writes)
}

/// A simulator chain's time: its records at the front end's rate (`admitted`, one a cycle plus
/// the waits they carry), or its bytes at the memory's, whichever is longer.
fn sim_record_cycles(config: &UnizkConfig, admitted: f64, moved_bytes: u64) -> f64 {
    admitted.max(moved_bytes as f64 / config.bytes_per_cycle())
}

/// The simulator's division: its front end admits one record a cycle, and a store waits for
/// its convoy's compute (one product and two additions: `mul_latency + 2` cycles), on which
/// the next loads wait in turn.
fn sim_division(config: &UnizkConfig, len: u64, ops: &BaseOps) -> Lowered {
    let capacity = config.sim_lru_elements();
    let (reads, writes) = sim_division_records(len, capacity);
    let store_delay = f64::from(config.mul_latency) + 2.0;
    let request = HbmTimings::UNIZK_SIM.request_bytes;
    let moved_bytes = reads.saturating_add(writes).saturating_mul(request);
    Lowered {
        groups: Vec::new(),
        serial: 0.0,
        note: Some(
            "the simulator's length-1 chain, priced by the records its scratchpad LRU emits",
        ),
        issue_fraction: 1.0,
        replayed: Replayed {
            cycles: sim_record_cycles(
                config,
                reads as f64 + writes as f64 * store_delay,
                moved_bytes,
            ),
            moved_bytes,
            // The chain's operations, one per PE and cycle.
            busy_cycles: ops.muls.saturating_add(ops.adds) as f64 * len as f64
                / config.pes() as f64,
        },
    }
}

/// The simulator's partial products (`wires_permutation_partial_products_and_zs`): a vector
/// chain per challenge, row after row, whose operands are whole rows of `columns` elements
/// in its scratchpad LRU, keyed by address. Each row loads three rows: the wires', the σs'
/// and the subgroup point, a scalar operand it loads as wide as the op. Once the LRU is full
/// (after a few hundred rows) each row stores five: the numerators, denominators and
/// quotients, the chunk products (written as wide as the row, as the simulator's op does) and
/// the Z chunk. Its front end admits one record a cycle; the bytes take the memory's time.
fn sim_partial_products(config: &UnizkConfig, rows: u64, columns: u64, degree: u32) -> Lowered {
    let columns = columns.max(1);
    let chunk = columns.div_ceil(u64::from(degree.max(1)));
    let capacity = config.sim_lru_elements();
    // Elements one row keeps in the LRU: six rows of `columns` and the Z chunk.
    let per_row = columns.saturating_mul(6).saturating_add(chunk);
    let stored_rows = rows.saturating_sub(capacity / per_row);
    let reads = rows.saturating_mul(3);
    let writes = stored_rows.saturating_mul(5);
    let request = HbmTimings::UNIZK_SIM.request_bytes;
    let requests = |elements: u64| elements.saturating_mul(ELEMENT_BYTES).div_ceil(request);
    let row_requests = requests(columns);
    let stored_requests = row_requests
        .saturating_mul(4)
        .saturating_add(requests(chunk));
    let moved_requests = reads
        .saturating_mul(row_requests)
        .saturating_add(stored_rows.saturating_mul(stored_requests));
    let moved_bytes = moved_requests.saturating_mul(request);
    let records = reads.saturating_add(writes) as f64;
    // Per row and column: the numerator's and denominator's products and sums, the
    // inversion, the quotient, the chunk product and Z's step.
    let ops = (7 + u64::from(INVERSE_PRODUCTS) + 4) as f64 * columns as f64;
    Lowered {
        groups: Vec::new(),
        serial: 0.0,
        note: Some(
            "the simulator's row-by-row chain, priced by the records its scratchpad LRU emits",
        ),
        issue_fraction: 1.0,
        replayed: Replayed {
            cycles: sim_record_cycles(config, records, moved_bytes),
            moved_bytes,
            busy_cycles: ops * rows as f64 / config.pes() as f64,
        },
    }
}

/// plonky2's partial products: per row and column a numerator and a denominator (wire +
/// β·k·x + γ, wire + β·σ + γ), a batch inversion, the quotient; per row the chunk products.
/// The running product runs as a parallel prefix across PEs (§5.4), so it adds no chain.
fn partial_products(config: &UnizkConfig, rows: u64, columns: u64, degree: u32) -> Lowered {
    let ops = BaseOps {
        // β·k·x, β·σ, the batch inversion's three products, the quotient, the chunk product.
        muls: columns.saturating_mul(7),
        adds: columns.saturating_mul(4),
    };
    let in_bytes = rows
        .saturating_mul(columns)
        .saturating_mul(2 * ELEMENT_BYTES);
    let out_bytes = rows
        .saturating_mul(columns.div_ceil(u64::from(degree.max(1))))
        .saturating_mul(ELEMENT_BYTES);
    vector(config, rows, &ops, in_bytes, out_bytes, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(name: &str, constraints: u64) -> GateEvaluation {
        GateEvaluation {
            gate: name.into(),
            constraints,
        }
    }

    #[test]
    fn gate_program_lanes_follow_the_simulators_rules() {
        // No gates, no program.
        assert_eq!(sim_gate_program_lanes(&[]), (0, 0));
        // A gate without constraints reloads nothing; the filter and its factor are written.
        assert_eq!(sim_gate_program_lanes(&[gate("NoopGate", 0)]), (0, 2));
        // Each gate reloads its other lanes; the shared scratch area is the widest gate's.
        assert_eq!(
            sim_gate_program_lanes(&[gate("ArithmeticGate { num_ops: 20 }", 20), gate("X", 5)]),
            (19 + 4, 20 + 2)
        );
        // Only the Poseidon permutation gate has the state's reloads and temporaries.
        let poseidon = "PoseidonGate(PhantomData<GoldilocksField>)<WIDTH=12>";
        assert_eq!(
            sim_gate_program_lanes(&[gate(poseidon, 123)]),
            (122 + 253, 123 + 2 + 32)
        );
        assert_eq!(
            sim_gate_program_lanes(&[gate("PoseidonMdsGate(PhantomData<F>)<WIDTH=12>", 24)]),
            (23, 24 + 2)
        );
        // Hostile counts saturate rather than wrap.
        let huge = [gate(poseidon, u64::MAX), gate(poseidon, u64::MAX)];
        assert_eq!(sim_gate_program_lanes(&huge), (u64::MAX, u64::MAX));
    }

    #[test]
    fn the_starky_prover_commits_its_quotient_at_rate_zero() {
        let ntt = |log_n, zero_log| Kernel::Ntt {
            field: TraceField::Goldilocks,
            log_n,
            batch: 2,
            inverse: false,
            coset: true,
            order: NttOrder::Nn,
            layout: NttLayout::PolyMajor,
            zero_log,
        };
        let merkle = |log_leaves| Kernel::Merkle {
            hash: POSEIDON_GOLDILOCKS.into(),
            log_leaves,
            leaf_width: 2,
            cap_height: 4,
            arity: 2,
            leaf_layout: LeafLayout::Rows,
        };
        let starky = SimProver::Starky;
        let commit = Phase::QUOTIENT_COMMIT;
        assert_eq!(
            starky.simulated(commit, &ntt(17, 1), Some(1)),
            Some(ntt(16, 0))
        );
        assert_eq!(
            starky.simulated(commit, &merkle(17), Some(1)),
            Some(merkle(16))
        );
        let transpose = |cols| Kernel::Transpose {
            rows: 2,
            cols,
            elem_bytes: 8,
        };
        assert_eq!(
            starky.simulated(commit, &transpose(1 << 17), Some(1)),
            Some(transpose(1 << 16))
        );
        // Nothing else changes: other phases, the plonky2 prover, no blow-up, another NTT, a
        // tree that would fall below its cap.
        assert_eq!(
            starky.simulated(Phase::TRACE_COMMIT, &ntt(17, 1), Some(1)),
            None
        );
        assert_eq!(
            SimProver::Plonky2.simulated(commit, &ntt(17, 1), Some(1)),
            None
        );
        assert_eq!(starky.simulated(commit, &ntt(17, 1), None), None);
        assert_eq!(starky.simulated(commit, &ntt(17, 1), Some(0)), None);
        assert_eq!(starky.simulated(commit, &ntt(17, 0), Some(1)), None);
        assert_eq!(starky.simulated(commit, &ntt(1, 1), Some(1)), None);
        assert_eq!(starky.simulated(commit, &merkle(4), Some(1)), None);
        assert_eq!(starky.simulated(commit, &merkle(17), Some(u32::MAX)), None);
        assert_eq!(
            starky.simulated(commit, &transpose(1 << 17), Some(u32::MAX)),
            Some(transpose(1))
        );
    }
}
