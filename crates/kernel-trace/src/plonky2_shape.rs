//! The shape front end: a plonky2 circuit's shape numbers → the kernel sequence of plonky2
//! 1.1.0's `prove()`, so that a model can run workloads the prover here does not implement.
//!
//! The shape is what `CommonCircuitData` and the `CircuitConfig` say (degree, wires, routed
//! wires, constants, partial products, quotient degree factor, the gates with their constraint
//! counts and evaluation work, challenges, FRI parameters, zero knowledge). `peers/examples/
//! plonky2_shapes` builds real circuits with plonky2 and writes these files.
//!
//! The sequence follows `plonky2::plonk::prover::prove` (witness generation excluded, as UniZK
//! excludes it): the wires commitment (interpolation, coset LDE, leaf rows, Merkle tree), the
//! challenger, the permutation argument's partial products and Zs and their commitment, the
//! quotient (every gate's constraints at every point of the `2^quotient_degree_bits`-times
//! larger coset, in batches that gather rows of four LDE matrices; the division by `Z_H`; one
//! coset interpolation per challenge), its commitment from coefficients, the openings at ζ and
//! gζ, and FRI (the combined quotient with Ruffini's division, the codeword's LDE, one tree and
//! one fold per reduction, the final polynomial, grinding, queries).

use serde::{Deserialize, Serialize};

use crate::record::{
    GateEvaluation, Kernel, KernelId, KernelRecord, LeafLayout, NttLayout, NttOrder, Phase,
    RowGather, TraceField, VectorForm, VectorOp, VectorOpKind,
};
use crate::{TraceError, Tracer};

/// The file format's name.
pub const SHAPE_FORMAT: &str = "zkaccel-plonky2-shape";
/// The file format's version.
pub const SHAPE_VERSION: u32 = 1;
/// plonky2's Poseidon preset, the only hash its default config uses.
const HASH: &str = "poseidon-goldilocks-12";
/// Elements of a Merkle cap digest.
const DIGEST: u64 = 4;
/// plonky2's `SALT_SIZE`: random elements appended to each leaf when blinding.
const SALT: u64 = 4;
/// The sponge's rate.
const RATE: u64 = 8;
/// Bytes of a Goldilocks element.
const ELEMENT: u64 = 8;

/// One gate type of the circuit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GateShape {
    /// plonky2's gate id (`ArithmeticGate { num_ops: 20 }`, …).
    pub name: String,
    /// Constraints it contributes.
    pub constraints: u64,
    /// Goldilocks products evaluating its constraints at one point (unfiltered).
    pub muls: u64,
    /// Goldilocks additions and subtractions evaluating them at one point.
    pub adds: u64,
    /// Gates sharing its selector polynomial (its filter multiplies that many factors).
    pub selector_group: u64,
}

/// FRI's parameters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FriShape {
    /// log2 of the blowup.
    pub rate_bits: u32,
    /// Merkle cap height.
    pub cap_height: u32,
    /// Proof-of-work bits.
    pub proof_of_work_bits: u32,
    /// Query rounds.
    pub num_query_rounds: u64,
    /// log2 of each reduction's arity.
    pub reduction_arity_bits: Vec<u32>,
}

/// A plonky2 circuit's shape: what its `prove()` computes on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CircuitShape {
    /// [`SHAPE_FORMAT`].
    pub format: String,
    /// [`SHAPE_VERSION`].
    pub version: u32,
    /// The workload (`fibonacci`, `factorial`, …).
    pub name: String,
    /// How the numbers were obtained (the command and versions, or the derivation).
    pub provenance: String,
    /// log2 of the rows.
    pub degree_bits: u32,
    /// Wires per row.
    pub num_wires: u64,
    /// Wires under the copy constraint.
    pub num_routed_wires: u64,
    /// Constant polynomials, selectors included.
    pub num_constants: u64,
    /// Public inputs.
    pub num_public_inputs: u64,
    /// Partial-product polynomials per challenge.
    pub num_partial_products: u64,
    /// The quotient's degree over the rows'.
    pub quotient_degree_factor: u64,
    /// Challenges drawn per round of the argument.
    pub num_challenges: u64,
    /// Leaves salted and the witness blinded.
    pub zero_knowledge: bool,
    /// The gate types.
    pub gates: Vec<GateShape>,
    /// FRI's parameters.
    pub fri: FriShape,
}

fn invalid(message: impl Into<String>) -> TraceError {
    TraceError::Invalid {
        id: 0,
        message: message.into(),
    }
}

/// Sorted, unique dependencies (what [`crate::validate`] requires).
fn deps(ids: &[KernelId]) -> Vec<KernelId> {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    ids
}

fn op(op: VectorOpKind, form: VectorForm, ext: u8) -> VectorOp {
    VectorOp { op, form, ext }
}

/// A program of `muls` products and `adds` additions in the base field, interleaved.
fn base_program(muls: u64, adds: u64) -> Vec<VectorOp> {
    let mut ops = Vec::with_capacity((muls + adds) as usize);
    let (mut m, mut a) = (0, 0);
    while m < muls || a < adds {
        if m < muls {
            ops.push(op(VectorOpKind::Mul, VectorForm::Vv, 1));
            m += 1;
        }
        if a < adds {
            ops.push(op(VectorOpKind::Add, VectorForm::Vv, 1));
            a += 1;
        }
    }
    ops
}

/// The largest shape the front end expands: 2^28 rows, 2^12 wires (plonky2's configurations
/// use up to a few hundred), 2^18 gate ops per point, 8 challenges — so that a hostile file
/// cannot make it build programs of more than a few million ops.
const MAX_DEGREE_BITS: u32 = 28;
const MAX_WIDTH: u64 = 1 << 12;
const MAX_POINT_OPS: u64 = 1 << 18;
const MAX_CHALLENGES: u64 = 8;

impl CircuitShape {
    /// Reads a shape from JSON, refusing other formats, versions and impossible shapes.
    ///
    /// # Errors
    /// [`TraceError::Parse`] for malformed JSON, [`TraceError::Invalid`] for a shape
    /// [`CircuitShape::check`] refuses.
    pub fn from_json(text: &str) -> Result<Self, TraceError> {
        let shape: Self = serde_json::from_str(text).map_err(|e| TraceError::Parse {
            line: e.line(),
            message: e.to_string(),
        })?;
        shape.check()?;
        Ok(shape)
    }

    /// Checks the shape is one plonky2 could prove and this front end can expand.
    ///
    /// # Errors
    /// [`TraceError::Invalid`] naming the first field out of range.
    pub fn check(&self) -> Result<(), TraceError> {
        if self.format != SHAPE_FORMAT || self.version != SHAPE_VERSION {
            return Err(invalid(format!(
                "format {} version {}: expected {SHAPE_FORMAT} version {SHAPE_VERSION}",
                self.format, self.version
            )));
        }
        let f = &self.fri;
        let in_range = |name: &str, v: u64, lo: u64, hi: u64| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(invalid(format!("{name} = {v}: expected {lo} to {hi}")))
            }
        };
        in_range(
            "degree_bits",
            self.degree_bits.into(),
            1,
            MAX_DEGREE_BITS.into(),
        )?;
        in_range("num_wires", self.num_wires, 1, MAX_WIDTH)?;
        in_range("num_routed_wires", self.num_routed_wires, 1, self.num_wires)?;
        in_range("num_constants", self.num_constants, 0, MAX_WIDTH)?;
        // Hashed eight to a row of the circuit.
        in_range(
            "num_public_inputs",
            self.num_public_inputs,
            0,
            8 << self.degree_bits,
        )?;
        in_range(
            "num_partial_products",
            self.num_partial_products,
            0,
            MAX_WIDTH,
        )?;
        in_range(
            "quotient_degree_factor",
            self.quotient_degree_factor,
            1,
            1 << 8,
        )?;
        in_range("num_challenges", self.num_challenges, 1, MAX_CHALLENGES)?;
        in_range("fri.rate_bits", f.rate_bits.into(), 1, 8)?;
        let quotient_bits = self
            .quotient_degree_factor
            .next_power_of_two()
            .trailing_zeros();
        in_range(
            "quotient degree bits",
            quotient_bits.into(),
            0,
            f.rate_bits.into(),
        )?;
        let lde_bits = self.degree_bits + f.rate_bits;
        in_range("fri.cap_height", f.cap_height.into(), 0, lde_bits.into())?;
        in_range("fri.proof_of_work_bits", f.proof_of_work_bits.into(), 0, 40)?;
        in_range("fri.num_query_rounds", f.num_query_rounds, 1, 1024)?;
        let mut folded = 0u32;
        for &a in &f.reduction_arity_bits {
            in_range("fri.reduction_arity_bits", a.into(), 1, 8)?;
            folded += a;
            if folded > self.degree_bits || lde_bits - folded < f.cap_height {
                return Err(invalid(
                    "fri.reduction_arity_bits fold past the degree or the cap",
                ));
            }
        }
        if self.gates.is_empty() || self.gates.len() > 256 {
            return Err(invalid("1 to 256 gate types"));
        }
        let mut ops = 0u64;
        for g in &self.gates {
            in_range("gate constraints", g.constraints, 0, MAX_POINT_OPS)?;
            in_range("gate muls", g.muls, 0, MAX_POINT_OPS)?;
            in_range("gate adds", g.adds, 0, MAX_POINT_OPS)?;
            in_range("gate selector_group", g.selector_group, 1, 256)?;
            ops += g.muls + g.adds;
        }
        in_range("gate ops per point", ops, 0, MAX_POINT_OPS)
    }

    /// Constraints evaluated at each point: the gates', the permutation argument's (one per
    /// partial product and the final Z per challenge), and Z(1) = 1 per challenge.
    pub fn constraints_per_point(&self) -> u64 {
        let gates: u64 = self.gates.iter().map(|g| g.constraints).sum();
        gates + self.num_challenges * (self.num_partial_products + 2)
    }

    /// The work at one quotient point, in order: every gate's constraints times its filter,
    /// the permutation argument per challenge, the reduction by α per challenge, the division
    /// by Z_H.
    fn quotient_point_program(&self) -> Vec<VectorOp> {
        let mut ops = Vec::new();
        for g in &self.gates {
            // The filter: (i − s) for the group's other gates and the unused selector value.
            let filter_muls = g.selector_group;
            ops.extend(base_program(
                g.muls + filter_muls + g.constraints,
                g.adds + g.selector_group,
            ));
        }
        let per_chunk = self.quotient_degree_factor;
        for _ in 0..self.num_challenges {
            // Numerators w + β·k·x + γ and denominators w + β·σ + γ per routed wire.
            ops.extend(base_program(
                3 * self.num_routed_wires,
                4 * self.num_routed_wires,
            ));
            // Each chunk: prev · Π num − next · Π den.
            let chunks = self.num_partial_products + 1;
            ops.extend(base_program(chunks * (2 * per_chunk + 2), chunks));
            // L_1(x) · (Z(x) − 1).
            ops.extend(base_program(1, 1));
        }
        let reduce = self.num_challenges * self.constraints_per_point();
        ops.extend(base_program(reduce, reduce));
        ops.extend(base_program(self.num_challenges, 0));
        ops
    }

    /// The rows each quotient point reads (plonky2's `compute_quotient_polys`): constants and
    /// sigmas, wires, Zs and partial products at `x`, the Zs at `g·x` — each from its
    /// commitment's leaf rows, stored bit-reversed over the LDE, read from the row's start
    /// (the last element's bytes end the range, as the simulator addresses it). Only wires and
    /// Zs are salted under zero knowledge; constants and sigmas never are.
    fn quotient_gathers(&self, quotient_bits: u32) -> Vec<RowGather> {
        let salt = if self.zero_knowledge { SALT } else { 0 };
        let log_rows = self.degree_bits + self.fri.rate_bits;
        let stride_log = self.fri.rate_bits - quotient_bits;
        let zs_polys = self.num_challenges * (1 + self.num_partial_products);
        let row = |width: u64, read: u64, shift: u64| RowGather {
            log_rows,
            stride_log,
            pitch_bytes: width * ELEMENT,
            bytes: (read - 1) * ELEMENT + 1,
            shift,
        };
        let constants_sigmas = self.num_constants + self.num_routed_wires;
        vec![
            row(constants_sigmas, constants_sigmas, 0),
            row(self.num_wires + salt, self.num_wires, 0),
            row(zs_polys + salt, zs_polys, 0),
            row(zs_polys + salt, self.num_challenges, 1 << quotient_bits),
        ]
    }

    /// The kernel sequence of plonky2 1.1.0's `prove()` on this shape.
    ///
    /// # Errors
    /// [`TraceError::Invalid`] when [`CircuitShape::check`] refuses the shape.
    pub fn kernels(&self) -> Result<Vec<KernelRecord>, TraceError> {
        self.check()?;
        let mut t = Tracer::recording();
        let d = self.degree_bits;
        let f = &self.fri;
        let r = f.rate_bits;
        let n = 1u64 << d;
        let c = self.num_challenges;
        let salt = if self.zero_knowledge { SALT } else { 0 };
        let cap_digests = DIGEST << f.cap_height;
        let quotient_bits = self
            .quotient_degree_factor
            .next_power_of_two()
            .trailing_zeros();

        // A PolynomialBatch: interpolation (from values in `values`' layout), coset LDE, leaf
        // rows, tree.
        let commit = |t: &mut Tracer,
                      phase: &str,
                      after: &[KernelId],
                      polys: u64,
                      values: Option<NttLayout>| {
            let mut last = deps(after);
            if let Some(layout) = values {
                last = vec![t.push_untimed(phase, &last, ntt(d, polys, true, false, 0, layout))];
            }
            let lde = t.push_untimed(
                phase,
                &last,
                ntt(d + r, polys, false, true, r, NttLayout::PolyMajor),
            );
            let rows = t.push_untimed(
                phase,
                &[lde],
                Kernel::Transpose {
                    rows: polys,
                    cols: n << r,
                    elem_bytes: ELEMENT,
                },
            );
            let tree = t.push_untimed(
                phase,
                &[rows],
                Kernel::Merkle {
                    hash: HASH.into(),
                    log_leaves: d + r,
                    leaf_width: polys + salt,
                    cap_height: f.cap_height,
                    arity: 2,
                    leaf_layout: LeafLayout::Rows,
                },
            );
            (rows, tree)
        };
        let sponge = |t: &mut Tracer, after: &[KernelId], absorbed: u64, squeezed: u64| {
            t.push_untimed(
                Phase::CHALLENGER,
                &deps(after),
                Kernel::Sponge {
                    hash: HASH.into(),
                    absorbed,
                    squeezed,
                    permutations: absorbed.div_ceil(RATE) + squeezed.div_ceil(RATE),
                },
            )
        };

        // The public inputs' hash (`hash_no_pad`: eight absorbed per permutation, the four
        // outputs squeezed from the last state).
        let public_inputs = (self.num_public_inputs > 0).then(|| {
            t.push_untimed(
                Phase::CHALLENGER,
                &[],
                Kernel::Sponge {
                    hash: HASH.into(),
                    absorbed: self.num_public_inputs,
                    squeezed: DIGEST,
                    permutations: self.num_public_inputs.div_ceil(RATE),
                },
            )
        });
        // Wires.
        // The witness arrives from the CPU's witness generation row by row, a gate's wires side
        // by side (UniZK's prover reads it `transposed_input`): its interpolation gathers
        // across polynomials.
        let (wire_rows, wires) = commit(
            &mut t,
            Phase::TRACE_COMMIT,
            &[],
            self.num_wires,
            Some(NttLayout::IndexMajor),
        );
        // Circuit digest, public-inputs hash, the cap; β and γ.
        let mut before_betas = vec![wires];
        before_betas.extend(public_inputs);
        let betas = sponge(&mut t, &before_betas, 2 * DIGEST + cap_digests, 2 * c);
        // Partial products and Zs, one set per challenge.
        let products = t.push_untimed(
            Phase::AUX_COMMIT,
            &[betas],
            Kernel::PartialProducts {
                field: TraceField::Goldilocks,
                rows: n * c,
                columns: self.num_routed_wires,
                degree: self.quotient_degree_factor as u32,
            },
        );
        let zs_polys = c * (1 + self.num_partial_products);
        let (zs_rows, zs) = commit(
            &mut t,
            Phase::AUX_COMMIT,
            &[products],
            zs_polys,
            Some(NttLayout::PolyMajor),
        );
        let alphas = sponge(&mut t, &[betas, zs], cap_digests, c);

        // The quotient: rows of constants and sigmas, wires, and Zs here and next.
        let points = n << quotient_bits;
        let row_bytes =
            ELEMENT * (self.num_constants + self.num_routed_wires + self.num_wires + 2 * zs_polys);
        let evaluation = t.push_untimed(
            Phase::QUOTIENT,
            &deps(&[wire_rows, zs_rows, alphas]),
            Kernel::Vector {
                field: TraceField::Goldilocks,
                len: points,
                ops: self.quotient_point_program(),
                in_bytes: points * row_bytes,
                out_bytes: points * c * ELEMENT,
                gather_bytes: row_bytes / 4,
                gathers: self.quotient_gathers(quotient_bits),
                scan: false,
                gates: self
                    .gates
                    .iter()
                    .map(|g| GateEvaluation {
                        gate: g.name.clone(),
                        constraints: g.constraints,
                    })
                    .collect(),
            },
        );
        let gathered = t.push_untimed(
            Phase::QUOTIENT,
            &[evaluation],
            Kernel::Transpose {
                rows: points,
                cols: c,
                elem_bytes: ELEMENT,
            },
        );
        let quotient = t.push_untimed(
            Phase::QUOTIENT,
            &[gathered],
            ntt(d + quotient_bits, c, true, true, 0, NttLayout::PolyMajor),
        );
        // Its chunks of degree n, committed from coefficients.
        let chunks = c * self.quotient_degree_factor;
        let (_, quotient_tree) = commit(&mut t, Phase::QUOTIENT_COMMIT, &[quotient], chunks, None);
        let zeta = sponge(&mut t, &[alphas, quotient_tree], cap_digests, 2);

        // Openings: every polynomial at ζ, the Zs also at gζ (Horner in the extension).
        let at_zeta =
            self.num_constants + self.num_routed_wires + self.num_wires + zs_polys + chunks;
        let at_next = c;
        let ext_horner = vec![
            op(VectorOpKind::Mul, VectorForm::Vs, 2),
            op(VectorOpKind::Add, VectorForm::Vv, 2),
        ];
        let openings = t.push_untimed(
            Phase::OPENINGS,
            &deps(&[wires, zs, quotient, zeta]),
            Kernel::Vector {
                field: TraceField::Goldilocks,
                len: n * (at_zeta + at_next),
                ops: ext_horner.clone(),
                in_bytes: n * (at_zeta + at_next) * ELEMENT,
                out_bytes: 2 * (at_zeta + at_next) * 2 * ELEMENT,
                gather_bytes: 0,
                gathers: Vec::new(),
                scan: false,
                gates: Vec::new(),
            },
        );
        let alpha = sponge(&mut t, &[zeta, openings], 2 * 2 * (at_zeta + at_next), 2);

        // FRI: per batch (ζ: all polynomials; gζ: the Zs) Σ αʲ·fⱼ, Ruffini's division by
        // X − z, the running sum.
        let mut combined: Option<KernelId> = None;
        for polys in [at_zeta, at_next] {
            let combination = t.push_untimed(
                Phase::FRI_COMMIT,
                &deps(&[openings, alpha]),
                Kernel::Vector {
                    field: TraceField::Goldilocks,
                    len: n,
                    ops: ext_horner.repeat(polys as usize),
                    in_bytes: polys * n * ELEMENT,
                    out_bytes: 2 * n * ELEMENT,
                    gather_bytes: 0,
                    gathers: Vec::new(),
                    scan: false,
                    gates: Vec::new(),
                },
            );
            let division = t.push_untimed(
                Phase::FRI_COMMIT,
                &[combination],
                Kernel::Vector {
                    field: TraceField::Goldilocks,
                    len: n,
                    ops: ext_horner.clone(),
                    in_bytes: 2 * n * ELEMENT,
                    out_bytes: 2 * n * ELEMENT,
                    gather_bytes: 0,
                    gathers: Vec::new(),
                    scan: true,
                    gates: Vec::new(),
                },
            );
            let after: Vec<KernelId> = [division].into_iter().chain(combined).collect();
            combined = Some(t.push_untimed(
                Phase::FRI_COMMIT,
                &deps(&after),
                Kernel::Vector {
                    field: TraceField::Goldilocks,
                    len: n,
                    ops: ext_horner.clone(),
                    in_bytes: 4 * n * ELEMENT,
                    out_bytes: 2 * n * ELEMENT,
                    gather_bytes: 0,
                    gathers: Vec::new(),
                    scan: false,
                    gates: Vec::new(),
                },
            ));
        }
        let combined = combined.unwrap_or(openings);
        let mut codeword = t.push_untimed(
            Phase::FRI_COMMIT,
            &[combined],
            Kernel::Ntt {
                field: TraceField::Goldilocks2,
                log_n: d + r,
                batch: 1,
                inverse: false,
                coset: true,
                order: NttOrder::Nr,
                layout: NttLayout::PolyMajor,
                zero_log: r,
            },
        );
        let mut challenger = alpha;
        let mut log_len = d + r;
        for &arity in &f.reduction_arity_bits {
            let tree = t.push_untimed(
                Phase::FRI_COMMIT,
                &[codeword],
                Kernel::Merkle {
                    hash: HASH.into(),
                    log_leaves: log_len - arity,
                    leaf_width: 2 << arity,
                    cap_height: f.cap_height,
                    arity: 2,
                    leaf_layout: LeafLayout::Rows,
                },
            );
            challenger = sponge(&mut t, &[challenger, tree], cap_digests, 2);
            // Each coset of 2^arity values interpolated at β.
            log_len -= arity;
            codeword = t.push_untimed(
                Phase::FRI_COMMIT,
                &deps(&[codeword, challenger]),
                Kernel::Vector {
                    field: TraceField::Goldilocks,
                    len: 1 << log_len,
                    ops: ext_horner.repeat(1 << arity),
                    in_bytes: (2 * ELEMENT) << (log_len + arity),
                    out_bytes: (2 * ELEMENT) << log_len,
                    gather_bytes: 0,
                    gathers: Vec::new(),
                    scan: false,
                    gates: Vec::new(),
                },
            );
        }
        // The final polynomial's coefficients.
        let final_poly = t.push_untimed(
            Phase::FRI_COMMIT,
            &[codeword],
            Kernel::Ntt {
                field: TraceField::Goldilocks2,
                log_n: log_len,
                batch: 1,
                inverse: true,
                coset: true,
                order: NttOrder::Rn,
                layout: NttLayout::PolyMajor,
                zero_log: 0,
            },
        );
        let final_len = 2u64 << (log_len - r);
        challenger = sponge(&mut t, &[challenger, final_poly], final_len, 0);
        let grind = t.push_untimed(
            Phase::FRI_POW,
            &[challenger],
            Kernel::Grind {
                hash: HASH.into(),
                pow_bits: f.proof_of_work_bits,
                permutations: 1 << f.proof_of_work_bits,
            },
        );
        let indices = sponge(&mut t, &[grind], 0, f.num_query_rounds);
        // Queries: a leaf and a path in each of the four initial trees and each layer.
        let mut per_query = 0u64;
        for width in [
            self.num_constants + self.num_routed_wires,
            self.num_wires,
            zs_polys,
            chunks,
        ] {
            per_query +=
                (width + salt) * ELEMENT + u64::from(d + r - f.cap_height) * DIGEST * ELEMENT;
        }
        let mut log_len = d + r;
        for &arity in &f.reduction_arity_bits {
            log_len -= arity;
            per_query +=
                ((2 * ELEMENT) << arity) + u64::from(log_len - f.cap_height) * DIGEST * ELEMENT;
        }
        t.push_untimed(
            Phase::FRI_QUERY,
            &deps(&[wires, zs, quotient_tree, indices]),
            Kernel::Copy {
                bytes: per_query * f.num_query_rounds,
            },
        );
        Ok(t.into_records())
    }
}

fn ntt(
    log_n: u32,
    batch: u64,
    inverse: bool,
    coset: bool,
    zero_log: u32,
    layout: NttLayout,
) -> Kernel {
    Kernel::Ntt {
        field: TraceField::Goldilocks,
        log_n,
        batch,
        inverse,
        coset,
        order: NttOrder::Nn,
        layout,
        zero_log,
    }
}
