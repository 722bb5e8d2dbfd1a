//! The prover (starky's `prove` for an AIR without lookups).

use std::time::{Duration, Instant};

use rayon::prelude::*;
use zkaccel_challenger::SpongeCounts;
use zkaccel_codec::ShapeError;
use zkaccel_field::{Algebra, Field};
use zkaccel_fri::{
    evaluate, observe_cap, prove_openings, record_challenger, FriScheme, PolynomialBatch,
};
use zkaccel_kernel_trace::{
    Kernel, KernelId, KernelSink, NttLayout, NttOrder, Phase, RowGather, TraceField, VectorForm,
    VectorOp, VectorOpKind,
};
use zkaccel_ntt::Order;

use crate::air::{Air, Recorder};
use crate::config::StarkConfig;
use crate::error::Rejection;
use crate::proof::StarkProof;
use crate::quotient::{self, point_program, row_program, Domain, CHUNK};
use crate::transcript::{
    bind_constraints, fri_instance, fri_openings, log2_ceil, start, subgroup_generator,
};
use crate::StarkError;

/// Proves that `trace` (column-major: [`Air::columns`] columns of `2^k` rows) satisfies `air`
/// with these public inputs, exactly as starky 1.1.0 does: the same transcript, commitments,
/// quotient chunks, openings and FRI proof, so the proof's encoding equals starky's (with its
/// `parallel` feature off, whose proof-of-work witness is the smallest).
///
/// Every kernel the proof runs goes to `sink` with its exact shape, dependencies and time
/// (`crates/kernel-trace/SCHEMA.md`): the trace check, the trace commitment (interpolation,
/// coset LDE, transpose into leaf rows, Merkle tree), the constraint evaluation on the coset
/// with its per-point program, the quotient's interpolation and commitment, the openings,
/// every challenger step and FRI's kernels. Pass [`zkaccel_kernel_trace::NoTrace`] to keep
/// nothing (no description is built), a [`zkaccel_kernel_trace::Tracer`] to keep them; a
/// [`zkaccel_kernel_trace::Breakdown`] of the records gives the time by UniZK's Table 1
/// classes.
///
/// # Errors
/// [`StarkError::OutOfRange`], [`StarkError::BelowTarget`] or [`StarkError::Fri`] for a
/// configuration out of range or one that cannot prove this AIR (a constraint degree above
/// `2^rate_bits + 1`: [`StarkError::RateTooLow`]); [`StarkError::TraceShape`] /
/// [`StarkError::TraceRows`] for a trace of the wrong shape, [`StarkError::Unsatisfied`] for
/// one that does not satisfy the constraints (starky panics there) and
/// [`StarkError::QuotientNotPolynomial`] for an under-declared degree;
/// [`StarkError::PublicInputCount`] for the wrong number of public inputs;
/// [`StarkError::Fri`] for the rest ([`zkaccel_fri::FriError::Untraceable`] when recording
/// over a field traces do not name).
pub fn prove<A: Air, S: FriScheme>(
    air: &A,
    config: &StarkConfig,
    trace: Vec<Vec<S::F>>,
    public_inputs: &[S::F],
    sink: &mut impl KernelSink,
) -> Result<StarkProof<S>, StarkError> {
    config.check::<S>()?;
    let columns = air.columns();
    ShapeError::expect(columns, trace.len(), || "the trace's columns")
        .map_err(StarkError::TraceShape)?;
    let n = trace.first().map_or(0, Vec::len);
    if n < 2 || !n.is_power_of_two() {
        return Err(StarkError::TraceRows { rows: n });
    }
    for (j, column) in trace.iter().enumerate() {
        ShapeError::expect(n, column.len(), || {
            format!("the length of trace column {j}")
        })
        .map_err(StarkError::TraceShape)?;
    }
    if public_inputs.len() != air.public_inputs() {
        return Err(StarkError::PublicInputCount {
            expected: air.public_inputs(),
            got: public_inputs.len(),
        });
    }
    let degree_bits = n.trailing_zeros() as usize;
    let rate_bits = config.fri_config.rate_bits;
    let cap_height = config.fri_config.cap_height;
    let degree = air.constraint_degree();
    check_degree(degree, rate_bits)?;
    let fri_params = config.fri_config.params(degree_bits, S::max_lde_bits())?;
    let names = zkaccel_fri::TraceNames::of::<S>(sink)?;
    let (base_field, extension_field) = (names.base, names.extension);

    let base_bytes = base_field.element_bytes();
    let started = Instant::now();
    check_trace(air, &trace, public_inputs)?;
    sink.record(Phase::TRACE_CHECK, &[], started, || Kernel::Vector {
        field: base_field,
        len: n as u64,
        ops: row_program::<A, S::F>(air),
        in_bytes: (n * columns) as u64 * base_bytes,
        out_bytes: 0,
        gather_bytes: 0,
        gathers: Vec::new(),
        scan: false,
        gates: Vec::new(),
    });
    let mut trace_batch = PolynomialBatch::<S>::from_values(trace, rate_bits, cap_height)?;
    trace_batch.record_kernels(sink, Phase::TRACE_COMMIT, &[])?;
    let started = Instant::now();
    // A fresh challenger: its counts start at zero.
    let mut challenger = start::<S>(config, public_inputs, trace_batch.cap());
    let alphas = bind_constraints::<A, S>(air, config, &mut challenger, public_inputs, degree_bits);
    let alphas_id = record_challenger::<S>(
        sink,
        Phase::CHALLENGER,
        &[trace_batch.kernels().tree],
        &challenger,
        SpongeCounts::default(),
        started,
    );

    let (quotient, quotient_id) = quotient_chunks::<A, S>(
        air,
        &trace_batch,
        public_inputs,
        &alphas,
        degree_bits,
        sink,
        alphas_id,
        base_field,
    )?;
    let quotient_polys = quotient.len();
    let mut quotient_batch = PolynomialBatch::<S>::from_coeffs(quotient, rate_bits, cap_height)?;
    quotient_batch.record_kernels(sink, Phase::QUOTIENT_COMMIT, &[quotient_id])?;
    let (before, started) = (challenger.counts(), Instant::now());
    observe_cap::<S>(&mut challenger, quotient_batch.cap());
    let zeta: S::E = challenger.extension_challenge();
    let zeta_id = record_challenger::<S>(
        sink,
        Phase::CHALLENGER,
        &[alphas_id, quotient_batch.kernels().tree],
        &challenger,
        before,
        started,
    );
    if zeta.exp_power_of_2(degree_bits) == S::E::ONE {
        return Err(Rejection::ZetaInSubgroup.into());
    }
    let g = subgroup_generator::<S>(degree_bits);
    let g_zeta = zeta * g;
    let started = Instant::now();
    let at = |batch: &PolynomialBatch<S>, x: S::E| -> Vec<S::E> {
        batch.polynomials().iter().map(|p| evaluate(p, x)).collect()
    };
    let local_values = at(&trace_batch, zeta);
    let next_values = at(&trace_batch, g_zeta);
    let quotient_values = at(&quotient_batch, zeta);
    let openings_id = sink.record(
        Phase::OPENINGS,
        &opening_deps(&trace_batch, &quotient_batch, zeta_id),
        started,
        || {
            // Horner's rule per polynomial and point: a product with the point, a sum with
            // the (base-field) coefficient, in the extension.
            let evaluations = (2 * columns + quotient_polys) as u64;
            let ext = |op, form| VectorOp { op, form, ext: 2 };
            Kernel::Vector {
                field: base_field,
                len: evaluations * n as u64,
                ops: vec![
                    ext(VectorOpKind::Mul, VectorForm::Vs),
                    ext(VectorOpKind::Add, VectorForm::Vv),
                ],
                in_bytes: evaluations * n as u64 * base_bytes,
                out_bytes: evaluations * extension_field.element_bytes(),
                gather_bytes: 0,
                gathers: Vec::new(),
                scan: false,
                gates: Vec::new(),
            }
        },
    );
    let (before, started) = (challenger.counts(), Instant::now());
    let openings = fri_openings(&local_values, &next_values, &quotient_values);
    for batch in &openings.batches {
        challenger.observe_extension_elements(batch);
    }
    let observed_id = record_challenger::<S>(
        sink,
        Phase::CHALLENGER,
        &[zeta_id, openings_id],
        &challenger,
        before,
        started,
    );
    let instance = fri_instance(columns, quotient_polys, zeta, g_zeta);
    let opening_proof = prove_openings(
        &instance,
        &[&trace_batch, &quotient_batch],
        &mut challenger,
        &fri_params,
        sink,
        &[observed_id],
    )?;
    Ok(StarkProof {
        trace_cap: trace_batch.cap().to_vec(),
        quotient_cap: quotient_batch.cap().to_vec(),
        local_values,
        next_values,
        quotient_values,
        opening_proof,
        public_inputs: public_inputs.to_vec(),
    })
}

/// What the openings read: every committed polynomial's coefficients, and `ζ`.
fn opening_deps<S: FriScheme>(
    trace: &PolynomialBatch<S>,
    quotient: &PolynomialBatch<S>,
    zeta_id: KernelId,
) -> Vec<KernelId> {
    let mut deps: Vec<_> = trace
        .kernels()
        .coefficients
        .iter()
        .chain(&quotient.kernels().coefficients)
        .copied()
        .chain([zeta_id])
        .collect();
    deps.sort_unstable();
    deps
}

/// The quotient polynomials' chunks, `[α_0: chunk 0 … chunk qdf−1, α_1: …]`, each of `n`
/// coefficients (starky's `compute_quotient_polys`, then `trim_to_len` and `chunks`): the
/// constraints combined with each `α` on the coset of `n·2^qdb` points, divided by the
/// vanishing polynomial ([`quotient::evaluate`], on packed lanes), interpolated.
///
/// Records the constraint evaluation (one vector kernel whose per-point program is derived
/// from the evaluation's own code, and the chunks' batch inversions, timed with it), the
/// gather of each challenge's values and their interpolation; returns the chunks and the
/// interpolation's id.
#[allow(clippy::too_many_arguments)]
fn quotient_chunks<A: Air, S: FriScheme>(
    air: &A,
    trace: &PolynomialBatch<S>,
    public_inputs: &[S::F],
    alphas: &[S::F],
    degree_bits: usize,
    sink: &mut impl KernelSink,
    alphas_id: KernelId,
    base_field: TraceField,
) -> Result<(Chunks<S>, KernelId), StarkError> {
    let n = 1usize << degree_bits;
    let qdf = air.quotient_degree_factor();
    let qdb = log2_ceil(qdf);
    let rate_bits = trace.rate_bits();
    if qdb > rate_bits {
        return Err(StarkError::RateTooLow {
            degree: air.constraint_degree(),
            rate_bits,
            needed: qdb,
        });
    }
    let next_step = 1usize << qdb;
    let size_bits = degree_bits + qdb;
    let size = 1usize << size_bits;
    let shift = S::coset_shift();
    let g = subgroup_generator::<S>(degree_bits);
    // Z_H(x) = x^n − 1 on the coset takes 2^qdb values: shift^n·ω_{2^qdb}^k − 1.
    let z_h: Vec<S::F> = {
        let shift_n = shift.exp_power_of_2(degree_bits);
        let w = subgroup_generator::<S>(qdb);
        std::iter::successors(Some(shift_n), |p| Some(*p * w))
            .take(next_step)
            .map(|p| p - S::F::ONE)
            .collect()
    };
    let domain = Domain {
        size,
        step: 1usize << (rate_bits - qdb),
        next_step,
        shift,
        omega: subgroup_generator::<S>(size_bits),
        g,
        g_inv: g.inverse(),
        n: S::F::from_u64_reduced(n as u64),
        z_h_inverses: z_h.iter().map(|v| v.inverse()).collect(),
        z_h,
    };
    let num_challenges = alphas.len();
    let started = Instant::now();
    let values = quotient::evaluate(air, trace, &domain, public_inputs, alphas)?;
    let base_bytes = base_field.element_bytes();
    let columns = air.columns() as u64;
    let evaluation_deps = [trace.kernels().leaves, alphas_id];
    let evaluation_id = sink.record(Phase::QUOTIENT, &evaluation_deps, started, || {
        Kernel::Vector {
            field: base_field,
            len: size as u64,
            ops: point_program::<A, S::F>(air, num_challenges),
            in_bytes: size as u64 * columns * base_bytes,
            out_bytes: (size * num_challenges) as u64 * base_bytes,
            gather_bytes: columns * base_bytes,
            // Each point reads the trace's LDE row at `i` and at the next point (starky's
            // `get_lde_values(i, step)`), from leaves stored bit-reversed over the LDE.
            gathers: [0, next_step]
                .map(|shift| RowGather {
                    log_rows: (degree_bits + rate_bits) as u32,
                    stride_log: (rate_bits - qdb) as u32,
                    pitch_bytes: columns * base_bytes,
                    bytes: (columns.max(1) - 1) * base_bytes + 1,
                    shift: shift as u64,
                })
                .to_vec(),
            scan: false,
            gates: Vec::new(),
        }
    });
    sink.record_untimed(Phase::QUOTIENT, &evaluation_deps, || Kernel::Vector {
        field: base_field,
        len: size.div_ceil(CHUNK) as u64,
        ops: vec![VectorOp {
            op: VectorOpKind::Inv,
            form: VectorForm::Vv,
            ext: 1,
        }],
        in_bytes: size.div_ceil(CHUNK) as u64 * base_bytes,
        out_bytes: size.div_ceil(CHUNK) as u64 * base_bytes,
        gather_bytes: 0,
        gathers: Vec::new(),
        scan: false,
        gates: Vec::new(),
    });
    // One challenge at a time (gather, interpolate, split), so that one quotient of the
    // coset's size is alive beside the evaluations, not all of them.
    let plan = S::base_plan(size_bits)?;
    let (mut gather_time, mut ntt_time) = (Duration::ZERO, Duration::ZERO);
    let mut chunks = Vec::with_capacity(num_challenges * qdf);
    for j in 0..num_challenges {
        let started = Instant::now();
        let mut q: Vec<S::F> = values
            .iter()
            .skip(j)
            .step_by(num_challenges)
            .copied()
            .collect();
        gather_time += started.elapsed();
        let started = Instant::now();
        plan.coset_inverse(&mut q, shift, Order::NN)
            .map_err(zkaccel_fri::FriError::from)?;
        ntt_time += started.elapsed();
        if q[n * qdf..].iter().any(|c| !c.is_zero()) {
            return Err(StarkError::QuotientNotPolynomial);
        }
        q.truncate(n * qdf);
        let mut parts: Vec<Vec<S::F>> = (1..qdf).rev().map(|k| q.split_off(k * n)).collect();
        parts.push(q);
        chunks.extend(parts.into_iter().rev());
    }
    drop(values);
    let gather_id = sink.record_elapsed(Phase::QUOTIENT, &[evaluation_id], gather_time, || {
        Kernel::Transpose {
            rows: size as u64,
            cols: num_challenges as u64,
            elem_bytes: base_bytes,
        }
    });
    let interpolation_id =
        sink.record_elapsed(Phase::QUOTIENT, &[gather_id], ntt_time, || Kernel::Ntt {
            field: base_field,
            log_n: size_bits as u32,
            batch: num_challenges as u64,
            inverse: true,
            coset: true,
            order: NttOrder::Nn,
            layout: NttLayout::PolyMajor,
            zero_log: 0,
        });
    Ok((chunks, interpolation_id))
}

/// The quotient's chunks, each `n` coefficients.
type Chunks<S> = Vec<Vec<<S as FriScheme>::F>>;

/// Checks every row of the trace against the constraints (their values on the subgroup, where
/// the filters are 0 or 1), so an unsatisfied trace is an error naming the row and the
/// constraint rather than a proof that fails to verify.
fn check_trace<A: Air, F: Field>(
    air: &A,
    trace: &[Vec<F>],
    public_inputs: &[F],
) -> Result<(), StarkError> {
    let n = trace[0].len();
    let row = |i: usize| -> Vec<F> { trace.iter().map(|c| c[i]).collect() };
    const ROWS: usize = 1 << 12;
    let bad = (0..n.div_ceil(ROWS)).into_par_iter().find_map_first(|c| {
        // Rows c·ROWS.. in order, each row's values gathered once.
        let mut local = row(c * ROWS);
        let mut next = vec![F::ZERO; local.len()];
        let mut values = Vec::new();
        for i in c * ROWS..((c + 1) * ROWS).min(n) {
            for (v, column) in next.iter_mut().zip(trace) {
                *v = column[(i + 1) % n];
            }
            let mut recorder = Recorder::on_row(&local, &next, public_inputs, i, n, &mut values);
            air.eval(&mut recorder);
            if let Some(constraint) = recorder.first_violation() {
                return Some((i, constraint));
            }
            std::mem::swap(&mut local, &mut next);
        }
        None
    });
    match bad {
        Some((row, constraint)) => Err(StarkError::Unsatisfied {
            constraint,
            row,
            rows: n,
        }),
        None => Ok(()),
    }
}

/// A constraint degree the prover and the verifier support: 1 to the blowup plus one.
pub(crate) fn check_degree(degree: usize, rate_bits: usize) -> Result<(), StarkError> {
    let max = (1u64 << rate_bits.min(63)).saturating_add(1);
    if degree == 0 || degree as u64 > max {
        return Err(StarkError::OutOfRange {
            what: "the constraint degree (1 to the blowup plus one)",
            got: degree as u64,
            min: 1,
            max,
        });
    }
    Ok(())
}
