//! The Goldilocks coset LDE (blowup 8, from evaluations) against Plonky3's
//! `Radix2DFTSmallBatch::coset_lde_batch`, in alternating rounds on identical inputs, so both
//! see the same load on a shared machine. Wall time and the process's CPU time (all threads;
//! on a busy box the fairer figure for one thread); best and median of the rounds.
//!
//! `cargo run --release -p zkaccel-ntt --example lde_compare -- [LOG_N] [ROUNDS] [THREADS]
//! [COLUMNS] [POLYNOMIAL_MAJOR] [KIND]` (defaults 20, 15, all cores, 1, 0, `lde`); Plonky3's
//! matrix is index-major, and so is ours unless POLYNOMIAL_MAJOR is 1 (then the same values
//! stored polynomial after polynomial). Also times ours into one buffer reused across rounds
//! (`lde_batch_into`: no page faults after the first round), which Plonky3's API has no
//! counterpart of (skipped for outputs over 4 GiB, so that `2^20 × 135 → 2^23`, 9 GiB a side,
//! fits a 24 GB machine), and in place (`lde_batch_in_place`: the input taken by value and
//! grown into the output, as Plonky3's `coset_lde_batch` takes its matrix; both inputs copied
//! outside the timing), the like-for-like ratio; the first, ours borrowing its input and
//! allocating the output, is the other API's. KIND `forward` or `inverse` times
//! the batched NTTs instead (natural order in and out, Plonky3's `dft_batch` and
//! `idft_batch`), each side transforming a copy of the input made outside the timing.
//!
//! `ZKACCEL_COMPARE_PEER=dit-parallel` times Plonky3's `Radix2DitParallel` instead of
//! `Radix2DFTSmallBatch` (the faster of the two on these shapes); its outputs stay stored
//! bit-reversed behind the `BitReversedMatrixView` it returns, not copied out.
//!
//! `ZKACCEL_COMPARE_SIDE=ours` or `plonky3` times one side only, after one untimed warm-up
//! round (none for LDE outputs over 4 GiB), and prints its medians without ratios: `scripts/compare-ntt-plonky3.sh` with
//! `ZKACCEL_COMPARE_BUILDS=split` runs ours built plainly and Plonky3 built with
//! `-C target-cpu=native` that way, in alternating processes.

use p3_dft::{Radix2DFTSmallBatch, Radix2DitParallel, TwoAdicSubgroupDft};
use p3_matrix::dense::RowMajorMatrix;
use rand::RngCore;
use zkaccel_field::Field;
use zkaccel_field_testing::bench::{report_samples, timed, CpuClock};
use zkaccel_field_testing::{random_prime, rng};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_ntt::{Layout, LdeInput, NttPlan, Order};

type P3 = p3_goldilocks::Goldilocks;

/// The largest output also timed into a reused buffer.
const REUSED_MAX_BYTES: usize = 4 << 30;

/// Which libraries a run times (`ZKACCEL_COMPARE_SIDE`: `ours`, `plonky3`, default both).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Both,
    Ours,
    Plonky3,
}

/// Which Plonky3 DFT is the peer (`ZKACCEL_COMPARE_PEER`: `small-batch`, the default, or
/// `dit-parallel`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Peer {
    SmallBatch,
    DitParallel,
}

impl Peer {
    fn from_env() -> Self {
        match std::env::var("ZKACCEL_COMPARE_PEER").as_deref() {
            Err(_) | Ok("" | "small-batch") => Self::SmallBatch,
            Ok("dit-parallel") => Self::DitParallel,
            Ok(other) => {
                panic!("ZKACCEL_COMPARE_PEER is small-batch or dit-parallel, not {other}")
            }
        }
    }
}

/// The peer's DFTs, built once for the largest size a run needs.
struct PeerDft {
    which: Peer,
    small: Radix2DFTSmallBatch<P3>,
    dit: Radix2DitParallel<P3>,
}

impl PeerDft {
    fn new(which: Peer, log_n: usize) -> Self {
        let small = match which {
            Peer::SmallBatch => Radix2DFTSmallBatch::new(1 << log_n),
            Peer::DitParallel => Radix2DFTSmallBatch::default(),
        };
        Self {
            which,
            small,
            dit: Radix2DitParallel::default(),
        }
    }

    /// The time of the coset LDE (blowup 8, the field's generator) of `m`.
    fn time_lde(&self, m: RowMajorMatrix<P3>) -> (f64, f64) {
        let shift = <P3 as p3_field::Field>::GENERATOR;
        match self.which {
            Peer::SmallBatch => timed(CpuClock::Process, || {
                self.small.coset_lde_batch(m, 3, shift)
            }),
            Peer::DitParallel => timed(CpuClock::Process, || self.dit.coset_lde_batch(m, 3, shift)),
        }
    }

    /// The time of the forward or inverse DFT of `m`.
    fn time_dft(&self, m: RowMajorMatrix<P3>, inverse: bool) -> (f64, f64) {
        match (self.which, inverse) {
            (Peer::SmallBatch, false) => timed(CpuClock::Process, || self.small.dft_batch(m)),
            (Peer::SmallBatch, true) => timed(CpuClock::Process, || self.small.idft_batch(m)),
            (Peer::DitParallel, false) => timed(CpuClock::Process, || self.dit.dft_batch(m)),
            (Peer::DitParallel, true) => timed(CpuClock::Process, || self.dit.idft_batch(m)),
        }
    }
}

impl Side {
    fn from_env() -> Self {
        match std::env::var("ZKACCEL_COMPARE_SIDE").as_deref() {
            Err(_) | Ok("" | "both") => Self::Both,
            Ok("ours") => Self::Ours,
            Ok("plonky3") => Self::Plonky3,
            Ok(other) => panic!("ZKACCEL_COMPARE_SIDE is ours, plonky3 or both, not {other}"),
        }
    }

    fn ours(self) -> bool {
        self != Self::Plonky3
    }

    fn plonky3(self) -> bool {
        self != Self::Ours
    }
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .take(5)
        .map(|a| a.parse().expect("numeric arguments"))
        .collect();
    let log_n = args.first().copied().unwrap_or(20);
    let rounds = args.get(1).copied().unwrap_or(15);
    let threads = args.get(2).copied().unwrap_or(0);
    let columns = args.get(3).copied().unwrap_or(1).max(1);
    let layout = if args.get(4).copied().unwrap_or(0) == 1 {
        Layout::PolynomialMajor
    } else {
        Layout::IndexMajor
    };
    let kind = std::env::args().nth(6).unwrap_or_else(|| "lde".into());
    let side = Side::from_env();
    let peer_kind = Peer::from_env();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let mut r = rng();
    let x: Vec<Goldilocks> = (0..columns << log_n)
        .map(|_| random_prime(&mut r as &mut dyn RngCore))
        .collect();
    let theirs: Vec<P3> = x
        .iter()
        .map(|v| p3_field::integers::QuotientMap::from_int(v.as_canonical_u64()))
        .collect();
    let ours_input: Vec<Goldilocks> = match layout {
        Layout::IndexMajor => x,
        Layout::PolynomialMajor => {
            let transposed = (0..columns)
                .flat_map(|c| x.iter().skip(c).step_by(columns).copied())
                .collect();
            drop(x);
            transposed
        }
    };
    if kind != "lde" {
        let inverse = match kind.as_str() {
            "forward" => false,
            "inverse" => true,
            other => panic!("KIND is lde, forward or inverse, not {other}"),
        };
        return compare_ntts(
            log_n,
            rounds,
            side,
            peer_kind,
            &pool,
            columns,
            layout,
            inverse,
            &ours_input,
            &theirs,
        );
    }
    let plan = NttPlan::<Goldilocks>::new(log_n + 3).expect("supported size");
    let p3 = PeerDft::new(peer_kind, log_n + 3);
    let (mut ours, mut peer, mut reusing) = (Vec::new(), Vec::new(), Vec::new());
    let mut in_place = Vec::new();
    let mut buffer = Vec::new();
    // A reused output beside the two fresh ones would not fit the memory of a small machine
    // at the largest shapes (`2^23 × 135` is 9 GiB).
    let reuse = (columns << (log_n + 3)) * core::mem::size_of::<Goldilocks>() <= REUSED_MAX_BYTES;
    // The order of the four turns in a round rotates round by round: on this kind of machine a
    // fresh output's page faults cost more or less depending on whether the memory the turn
    // before freed has been handed back to the host yet, which favours whoever follows a free.
    // One side alone: a first, untimed round (its samples dropped below), except for
    // outputs too large to reuse, whose every round touches fresh memory anyway.
    let warm_up = usize::from(side != Side::Both && reuse);
    for round in 0..rounds + warm_up {
        pool.install(|| {
            for turn in 0..4 {
                match (turn + round) % 4 {
                    0..=2 if !side.ours() => {}
                    3 if !side.plonky3() => {}
                    0 => ours.push(timed(CpuClock::Process, || {
                        plan.lde_batch(
                            &ours_input,
                            columns,
                            layout,
                            3,
                            Goldilocks::GENERATOR,
                            LdeInput::Evaluations,
                        )
                    })),
                    1 if reuse => reusing.push(timed(CpuClock::Process, || {
                        plan.lde_batch_into(
                            &ours_input,
                            columns,
                            layout,
                            3,
                            Goldilocks::GENERATOR,
                            LdeInput::Evaluations,
                            &mut buffer,
                        )
                    })),
                    1 => {}
                    2 => {
                        // Owned input, copied outside the timing, as Plonky3's.
                        let mut values = ours_input.to_vec();
                        in_place.push(timed(CpuClock::Process, || {
                            plan.lde_batch_in_place(
                                &mut values,
                                columns,
                                layout,
                                3,
                                Goldilocks::GENERATOR,
                                LdeInput::Evaluations,
                            )
                            .map(|()| values)
                        }));
                    }
                    _ => {
                        let m = RowMajorMatrix::new(theirs.clone(), columns);
                        peer.push(p3.time_lde(m));
                    }
                }
            }
        });
    }
    for samples in [&mut ours, &mut peer, &mut in_place, &mut reusing] {
        samples.drain(..warm_up.min(samples.len()));
    }
    println!(
        "LDE 2^{log_n} x {columns} -> 2^{} (ours {layout:?}, Plonky3 {peer_kind:?}), {} \
         threads, {rounds} alternating rounds:",
        log_n + 3,
        pool.current_num_threads()
    );
    if side != Side::Both {
        for (name, samples) in [
            ("zkaccel", &ours),
            ("plonky3", &peer),
            ("zkaccel, in place", &in_place),
            ("zkaccel, into a reused buffer", &reusing),
        ] {
            if !samples.is_empty() {
                report_samples(name, samples, 1e3, "ms");
            }
        }
        return;
    }
    let (ow, oc) = report_samples("zkaccel", &ours, 1e3, "ms");
    let (pw, pc) = report_samples("plonky3", &peer, 1e3, "ms");
    let (iw, ic) = report_samples("zkaccel, in place", &in_place, 1e3, "ms");
    println!(
        "  ratio plonky3/zkaccel in place (medians): wall {:.3}, cpu {:.3}",
        pw / iw,
        pc / ic
    );
    if !reuse {
        println!(
            "  ratio plonky3/zkaccel (medians): wall {:.3}, cpu {:.3} (no reused-buffer run: \
             the output exceeds {} GiB)",
            pw / ow,
            pc / oc,
            REUSED_MAX_BYTES >> 30
        );
        return;
    }
    let (rw, rc) = report_samples("zkaccel, into a reused buffer", &reusing, 1e3, "ms");
    println!(
        "  ratio plonky3/zkaccel (medians): wall {:.3}, cpu {:.3}; into a reused buffer: wall \
         {:.3}, cpu {:.3}",
        pw / ow,
        pc / oc,
        pw / rw,
        pc / rc
    );
}

/// The batched NTTs of the same matrix, ours in `layout`, alternating round by round.
#[allow(clippy::too_many_arguments)] // the shape and the two inputs
fn compare_ntts(
    log_n: usize,
    rounds: usize,
    side: Side,
    peer_kind: Peer,
    pool: &rayon::ThreadPool,
    columns: usize,
    layout: Layout,
    inverse: bool,
    ours_input: &[Goldilocks],
    theirs: &[P3],
) {
    let plan = NttPlan::<Goldilocks>::new(log_n).expect("supported size");
    let p3 = PeerDft::new(peer_kind, log_n);
    let (mut ours, mut peer) = (Vec::new(), Vec::new());
    let warm_up = usize::from(side != Side::Both);
    for _ in 0..rounds + warm_up {
        pool.install(|| {
            if side.ours() {
                let mut data = ours_input.to_vec();
                ours.push(timed(CpuClock::Process, || {
                    if inverse {
                        plan.inverse_batch(&mut data, columns, layout, Order::NN)
                    } else {
                        plan.forward_batch(&mut data, columns, layout, Order::NN)
                    }
                }));
            }
            if side.plonky3() {
                let m = RowMajorMatrix::new(theirs.to_vec(), columns);
                peer.push(p3.time_dft(m, inverse));
            }
        });
    }
    for samples in [&mut ours, &mut peer] {
        samples.drain(..warm_up.min(samples.len()));
    }
    println!(
        "{} NTT 2^{log_n} x {columns} (ours {layout:?}, Plonky3 {peer_kind:?}), {} threads, \
         {rounds} alternating rounds:",
        if inverse { "inverse" } else { "forward" },
        pool.current_num_threads()
    );
    match side {
        Side::Ours => {
            report_samples("zkaccel", &ours, 1e3, "ms");
            return;
        }
        Side::Plonky3 => {
            report_samples("plonky3", &peer, 1e3, "ms");
            return;
        }
        Side::Both => {}
    }
    let (ow, oc) = report_samples("zkaccel", &ours, 1e3, "ms");
    let (pw, pc) = report_samples("plonky3", &peer, 1e3, "ms");
    println!(
        "  ratio plonky3/zkaccel (medians): wall {:.3}, cpu {:.3}",
        pw / ow,
        pc / oc
    );
}
