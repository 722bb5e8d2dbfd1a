//! The record of one kernel call (`crates/kernel-trace/SCHEMA.md`), as serde types.

use std::fmt;

use serde::{Deserialize, Serialize};
use zkaccel_field::{ExtensionField, PrimeField};

/// The schema version every record carries (`"version"`); readers refuse others.
pub const SCHEMA_VERSION: u32 = 1;

/// A kernel's sequence number in its trace, from 0.
pub type KernelId = u64;

/// One kernel invocation: what it is, its exact shape, the kernels whose output it reads, the
/// protocol phase it belongs to and, optionally, what it cost on the CPU.
///
/// Serialized as one flat JSON object: `version`, `id`, `deps`, `phase`, `kind` and the
/// kind's shape fields, `cpu`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelRecord {
    /// [`SCHEMA_VERSION`] of the writer.
    pub version: u32,
    /// Sequence number, from 0, in issue order.
    pub id: KernelId,
    /// The ids this kernel reads the output of (all smaller than `id`).
    pub deps: Vec<KernelId>,
    /// Where in the protocol, lower-case words joined by `-` (the constants in [`Phase`]).
    pub phase: String,
    /// The kernel and its shape.
    #[serde(flatten)]
    pub kernel: Kernel,
    /// Measured around the call, when measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<CpuTime>,
}

/// The phases a STARK prover names (others may appear: a phase is any lower-case,
/// `-`-joined word list).
#[derive(Debug, Clone, Copy)]
pub struct Phase;

impl Phase {
    /// The prover checking the trace against the constraints before committing (zkaccel's).
    pub const TRACE_CHECK: &'static str = "trace-check";
    /// Interpolating, extending and committing the trace.
    pub const TRACE_COMMIT: &'static str = "trace-commit";
    /// Committing auxiliary columns (lookups, permutation arguments).
    pub const AUX_COMMIT: &'static str = "aux-commit";
    /// Evaluating the constraints on the coset and interpolating the quotient.
    pub const QUOTIENT: &'static str = "quotient";
    /// Extending and committing the quotient chunks.
    pub const QUOTIENT_COMMIT: &'static str = "quotient-commit";
    /// Evaluating the committed polynomials at the opening points.
    pub const OPENINGS: &'static str = "openings";
    /// FRI's combined quotient, its LDE and the folding layers with their commitments.
    pub const FRI_COMMIT: &'static str = "fri-commit";
    /// FRI's proof of work.
    pub const FRI_POW: &'static str = "fri-pow";
    /// FRI's query rounds.
    pub const FRI_QUERY: &'static str = "fri-query";
    /// Fiat–Shamir: absorbing commitments and drawing challenges.
    pub const CHALLENGER: &'static str = "challenger";
    /// A kernel run on its own, outside a proof (`zkaccel ntt --trace`).
    pub const STANDALONE: &'static str = "standalone";
}

/// CPU cost of one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CpuTime {
    /// Wall-clock nanoseconds around the call.
    pub wall_ns: u64,
    /// Threads the call could use (rayon's pool).
    pub threads: u32,
}

/// The field a kernel computes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TraceField {
    /// Goldilocks, p = 2^64 − 2^32 + 1.
    #[serde(rename = "goldilocks")]
    Goldilocks,
    /// Goldilocks' quadratic extension.
    #[serde(rename = "goldilocks2")]
    Goldilocks2,
    /// BN254's scalar field.
    #[serde(rename = "bn254")]
    Bn254,
    /// BLS12-381's scalar field.
    #[serde(rename = "bls12-381")]
    Bls12381,
    /// BLS12-377's base field (377 bits in six 64-bit words; the FPGA NTT paper's 384-bit
    /// width on a field with a large two-adic subgroup).
    #[serde(rename = "bls12-377-fq")]
    Bls12377Fq,
}

/// The moduli of the prime fields traces name, big-endian hexadecimal (from the fields'
/// definitions: plonky2's Goldilocks, arkworks' BN254 and BLS12-381 scalar fields and
/// BLS12-377 base field).
const MODULI: [(TraceField, &str); 4] = [
    (TraceField::Goldilocks, "ffffffff00000001"),
    (
        TraceField::Bn254,
        "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001",
    ),
    (
        TraceField::Bls12381,
        "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
    ),
    (
        TraceField::Bls12377Fq,
        "01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001",
    ),
];

impl TraceField {
    /// The name traces give the prime field `F`, found by its modulus; `None` for a field
    /// the schema does not name (a kernel over it cannot be recorded).
    pub fn of_prime<F: PrimeField>() -> Option<Self> {
        let modulus = F::modulus();
        let limbs = modulus.as_ref();
        MODULI.iter().find_map(|&(field, hex)| {
            let words = hex_limbs(hex);
            let significant = limbs.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
            (words.len() == significant && words[..] == limbs[..significant]).then_some(field)
        })
    }

    /// The name traces give the extension `E` of `F`: the prime field's own for degree 1,
    /// `goldilocks2` for Goldilocks' quadratic extension; `None` otherwise.
    pub fn of_extension<F: PrimeField, E: ExtensionField<F>>() -> Option<Self> {
        match (Self::of_prime::<F>()?, E::DEGREE) {
            (field, 1) => Some(field),
            (Self::Goldilocks, 2) => Some(Self::Goldilocks2),
            _ => None,
        }
    }

    /// Bytes of one element in memory.
    pub fn element_bytes(self) -> u64 {
        match self {
            Self::Goldilocks => 8,
            Self::Goldilocks2 => 16,
            Self::Bn254 | Self::Bls12381 => 32,
            Self::Bls12377Fq => 48,
        }
    }
}

/// Input and output orders of an NTT: natural (`n`) or bit-reversed (`r`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NttOrder {
    /// Natural in, natural out.
    Nn,
    /// Natural in, bit-reversed out.
    Nr,
    /// Bit-reversed in, natural out.
    Rn,
    /// Bit-reversed in and out.
    Rr,
}

/// How a batch of NTTs lies in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NttLayout {
    /// One polynomial after another.
    PolyMajor,
    /// Index by index: the batch's values at one index side by side.
    IndexMajor,
}

/// Where a Merkle tree's leaves come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LeafLayout {
    /// Rows of an index-major matrix: a leaf is contiguous.
    Rows,
    /// Gathered across columns.
    Columns,
}

/// One element-wise operation of a vector kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VectorOpKind {
    /// `a + b`.
    Add,
    /// `a − b`.
    Sub,
    /// `a · b`.
    Mul,
    /// `a^{-1}`.
    Inv,
}

/// Whether both operands vary along the vector or one is the same for every element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VectorForm {
    /// Vector with vector.
    Vv,
    /// Vector with scalar (or scalar with scalar, repeated per element).
    Vs,
}

/// One operation per element of a vector kernel, in program order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VectorOp {
    /// The operation.
    pub op: VectorOpKind,
    /// The operands' form.
    pub form: VectorForm,
    /// 1 in the base field; 2 when an operand is in the quadratic extension.
    pub ext: u8,
}

/// One row of an LDE matrix that every element of a vector kernel reads: element `i` reads
/// `bytes` from row `rev((i + shift) mod 2^(log_rows − stride_log) · 2^stride_log)` of a matrix of
/// `2^log_rows` rows stored bit-reversed at `pitch_bytes` per row (plonky2's
/// `get_lde_values(i, step)` with `step = 2^stride_log`; `shift` is the next point's offset).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RowGather {
    /// log2 of the matrix's rows.
    pub log_rows: u32,
    /// log2 of the step between the rows of consecutive elements' points.
    pub stride_log: u32,
    /// Bytes from one row's start to the next's (the leaf width, salt included).
    pub pitch_bytes: u64,
    /// Bytes read from each row (at most the pitch).
    pub bytes: u64,
    /// Points added to the element's index before the step (0: this point; the next point's
    /// rows: plonky2's `1 << quotient_degree_bits`).
    pub shift: u64,
}

/// One gate type a vector kernel's program evaluates at every element: plonky2's gate id
/// (`ArithmeticGate { num_ops: 20 }`, `PoseidonGate(…)<WIDTH=12>`, …) and the constraints it
/// contributes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GateEvaluation {
    /// plonky2's gate id.
    pub gate: String,
    /// Constraints evaluated per element.
    pub constraints: u64,
}

/// The most bytes one kernel of a trace may move: 2^56 (64 PiB, past any memory). A record
/// over it is refused when the trace is read ([`crate::validate`], which also bounds the
/// trace's total), so a model's byte totals never saturate silently.
pub const MAX_KERNEL_BYTES: u64 = 1 << 56;

/// A kernel and its shape (the spec's kinds, UniZK's Table 1 classes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Kernel {
    /// A batch of NTTs (or inverse NTTs) of `2^log_n` points.
    Ntt {
        /// The field.
        field: TraceField,
        /// log2 of the transform size.
        log_n: u32,
        /// How many transforms.
        batch: u64,
        /// Interpolation rather than evaluation.
        inverse: bool,
        /// Over a coset (the shift's powers applied to the coefficients).
        coset: bool,
        /// Input/output orders.
        order: NttOrder,
        /// Memory layout of the batch.
        layout: NttLayout,
        /// Input nonzero only in the first `n / 2^zero_log` entries (an LDE's padding).
        zero_log: u32,
    },
    /// A Merkle tree built over `2^log_leaves` leaves.
    Merkle {
        /// The hash, e.g. `poseidon-goldilocks-12`.
        hash: String,
        /// log2 of the number of leaves.
        log_leaves: u32,
        /// Elements per leaf.
        leaf_width: u64,
        /// The cap's height (2^cap_height digests published).
        cap_height: u32,
        /// Children per node.
        arity: u32,
        /// Where the leaves come from.
        leaf_layout: LeafLayout,
    },
    /// A duplex sponge absorbing and squeezing (the Fiat–Shamir challenger).
    Sponge {
        /// The hash.
        hash: String,
        /// Elements absorbed.
        absorbed: u64,
        /// Elements squeezed.
        squeezed: u64,
        /// Permutations run.
        permutations: u64,
    },
    /// A proof-of-work search.
    Grind {
        /// The hash.
        hash: String,
        /// Leading zero bits required.
        pow_bits: u32,
        /// Permutations actually tried.
        permutations: u64,
    },
    /// Element-wise arithmetic over `len` elements, each running `ops` in order.
    Vector {
        /// The base field.
        field: TraceField,
        /// Elements.
        len: u64,
        /// The program each element runs.
        ops: Vec<VectorOp>,
        /// Bytes read.
        in_bytes: u64,
        /// Bytes written.
        out_bytes: u64,
        /// When the inputs are gathered as rows at scattered points (an LDE's rows at each
        /// quotient point, this one's and the next's): the bytes of one row; 0 (the default,
        /// omitted from JSON) when they are streamed.
        #[serde(default, skip_serializing_if = "is_zero")]
        gather_bytes: u64,
        /// The rows each element gathers, matrix by matrix, when the producer knows them exactly
        /// (the shape front end's quotient: plonky2's `get_lde_values` at every point); empty
        /// (the default, omitted from JSON) otherwise. A memory model replays their addresses.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        gathers: Vec<RowGather>,
        /// Each element's program reads the previous element's result (a linear recurrence:
        /// Ruffini's division by `X − z`, a running product), so the elements are a scan, not
        /// independent lanes; false (the default, omitted from JSON) for element-wise work.
        #[serde(default, skip_serializing_if = "is_false")]
        scan: bool,
        /// The gate types whose constraints each element's program evaluates, in program
        /// order, when the producer knows them (the shape front end's quotient: plonky2's
        /// `evaluate_gate_constraints`, gate by gate); empty (the default, omitted from JSON)
        /// otherwise. A model of a machine that runs the program gate by gate reads them.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        gates: Vec<GateEvaluation>,
    },
    /// plonky2's partial products of a permutation argument.
    PartialProducts {
        /// The field.
        field: TraceField,
        /// Rows.
        rows: u64,
        /// Columns.
        columns: u64,
        /// Factors per partial product.
        degree: u32,
    },
    /// A matrix transposed (or gathered in another order).
    Transpose {
        /// Rows of the input.
        rows: u64,
        /// Columns of the input.
        cols: u64,
        /// Bytes per element.
        elem_bytes: u64,
    },
    /// Bytes moved unchanged.
    Copy {
        /// Bytes.
        bytes: u64,
    },
    /// MiMC block-cipher calls (AMAZE).
    Mimc {
        /// The field.
        field: TraceField,
        /// Rounds per call.
        rounds: u32,
        /// The S-box exponent.
        exponent: u32,
        /// Calls.
        count: u64,
    },
}

// serde's `skip_serializing_if` passes a reference.
fn is_zero(value: &u64) -> bool {
    *value == 0
}

// serde's `skip_serializing_if` passes a reference.
fn is_false(value: &bool) -> bool {
    !*value
}

/// UniZK's kernel classes (its Table 1), which a breakdown totals by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KernelClass {
    /// Element-wise polynomial arithmetic, partial products.
    Polynomial,
    /// NTTs.
    Ntt,
    /// Merkle trees.
    MerkleTree,
    /// Hashing outside trees: the challenger, proof of work, MiMC.
    OtherHash,
    /// Transposes and copies.
    LayoutTransform,
}

impl KernelClass {
    /// Every class, in Table 1's order.
    pub const ALL: [KernelClass; 5] = [
        Self::Polynomial,
        Self::Ntt,
        Self::MerkleTree,
        Self::OtherHash,
        Self::LayoutTransform,
    ];
}

impl fmt::Display for KernelClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Polynomial => "polynomial",
            Self::Ntt => "NTT",
            Self::MerkleTree => "Merkle tree",
            Self::OtherHash => "other hash",
            Self::LayoutTransform => "layout transform",
        })
    }
}

impl Kernel {
    /// The kind's name as serialized.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Ntt { .. } => "ntt",
            Self::Merkle { .. } => "merkle",
            Self::Sponge { .. } => "sponge",
            Self::Grind { .. } => "grind",
            Self::Vector { .. } => "vector",
            Self::PartialProducts { .. } => "partial-products",
            Self::Transpose { .. } => "transpose",
            Self::Copy { .. } => "copy",
            Self::Mimc { .. } => "mimc",
        }
    }

    /// The Table 1 class it counts under.
    pub fn class(&self) -> KernelClass {
        match self {
            Self::Ntt { .. } => KernelClass::Ntt,
            Self::Merkle { .. } => KernelClass::MerkleTree,
            Self::Sponge { .. } | Self::Grind { .. } | Self::Mimc { .. } => KernelClass::OtherHash,
            Self::Vector { .. } | Self::PartialProducts { .. } => KernelClass::Polynomial,
            Self::Transpose { .. } | Self::Copy { .. } => KernelClass::LayoutTransform,
        }
    }

    /// The bytes this kernel reads and writes at the least (its data, not its permutations),
    /// or `None` past `u64`: Merkle and sponge elements counted at 32 bytes (the widest
    /// hashed field), gathered rows at their bytes per element.
    pub(crate) fn volume_bytes(&self) -> Option<u64> {
        const WIDEST_ELEMENT: u64 = 32;
        match self {
            Self::Ntt {
                field,
                log_n,
                batch,
                ..
            } => 1u64
                .checked_shl(*log_n)?
                .checked_mul(*batch)?
                .checked_mul(field.element_bytes()),
            Self::Merkle {
                log_leaves,
                leaf_width,
                ..
            } => 1u64
                .checked_shl(*log_leaves)?
                .checked_mul(*leaf_width)?
                .checked_mul(WIDEST_ELEMENT),
            Self::Sponge {
                absorbed, squeezed, ..
            } => absorbed.checked_add(*squeezed)?.checked_mul(WIDEST_ELEMENT),
            Self::Grind { .. } => Some(0),
            Self::Vector {
                len,
                in_bytes,
                out_bytes,
                gather_bytes,
                gathers,
                ..
            } => {
                let gathered = gathers
                    .iter()
                    .try_fold(*gather_bytes, |sum, g| sum.checked_add(g.bytes))?;
                len.checked_mul(gathered)?
                    .checked_add(*in_bytes)?
                    .checked_add(*out_bytes)
            }
            Self::PartialProducts {
                field,
                rows,
                columns,
                ..
            } => rows
                .checked_mul(*columns)?
                .checked_mul(2 * field.element_bytes()),
            Self::Transpose {
                rows,
                cols,
                elem_bytes,
            } => rows.checked_mul(*cols)?.checked_mul(*elem_bytes),
            Self::Copy { bytes } => Some(*bytes),
            Self::Mimc { field, count, .. } => count.checked_mul(field.element_bytes()),
        }
    }

    /// Why this shape is impossible, if it is.
    pub(crate) fn shape_error(&self) -> Option<String> {
        self.kind_shape_error().or_else(|| {
            self.volume_bytes()
                .is_none_or(|b| b > MAX_KERNEL_BYTES)
                .then(|| {
                    "a kernel moving more than 2^56 bytes (no memory holds it; the models' byte \
                 totals would overflow)"
                        .to_string()
                })
        })
    }

    fn kind_shape_error(&self) -> Option<String> {
        const MAX_LOG: u32 = 63;
        // plonky2's longest gate ids are about 120 bytes; its widest gates have a few hundred
        // constraints.
        const MAX_GATE_ID: usize = 1 << 10;
        const MAX_GATE_CONSTRAINTS: u64 = 1 << 18;
        let bad = |cond: bool, msg: &str| cond.then(|| msg.to_string());
        match self {
            Self::Ntt {
                log_n,
                batch,
                zero_log,
                ..
            } => bad(*log_n > MAX_LOG, "an NTT of more than 2^63 points")
                .or_else(|| bad(*batch == 0, "an NTT batch of 0"))
                .or_else(|| bad(zero_log > log_n, "zero_log above log_n")),
            Self::Merkle {
                hash,
                log_leaves,
                leaf_width,
                cap_height,
                arity,
                ..
            } => bad(hash.is_empty(), "no hash named")
                .or_else(|| bad(*log_leaves > MAX_LOG, "more than 2^63 leaves"))
                .or_else(|| bad(*leaf_width == 0, "leaves of width 0"))
                .or_else(|| bad(cap_height > log_leaves, "a cap above the leaves"))
                .or_else(|| {
                    bad(
                        *arity < 2 || !arity.is_power_of_two(),
                        "an arity that is not a power of two of at least 2",
                    )
                }),
            Self::Sponge {
                hash,
                absorbed,
                squeezed,
                permutations,
            } => bad(hash.is_empty(), "no hash named").or_else(|| {
                // Challenges from an already permuted state need no permutation.
                bad(
                    *absorbed == 0 && *squeezed == 0 && *permutations == 0,
                    "a sponge that did nothing",
                )
            }),
            Self::Grind {
                hash, permutations, ..
            } => bad(hash.is_empty(), "no hash named")
                .or_else(|| bad(*permutations == 0, "no permutation tried")),
            Self::Vector {
                ops,
                len,
                gathers,
                gates,
                ..
            } => bad(ops.is_empty(), "a vector kernel without ops")
                .or_else(|| bad(*len == 0, "a vector of length 0"))
                .or_else(|| {
                    bad(
                        gathers.iter().any(|g| {
                            g.log_rows > MAX_LOG
                                || g.stride_log > g.log_rows
                                || g.bytes == 0
                                || g.bytes > g.pitch_bytes
                                || 1u64 << (g.log_rows - g.stride_log) != *len
                        }),
                        "a gathered row that is empty, wider than its pitch, or from a matrix \
                         whose points are not the vector's elements",
                    )
                })
                .or_else(|| {
                    bad(
                        ops.iter().any(|o| o.ext != 1 && o.ext != 2),
                        "an op with ext other than 1 or 2",
                    )
                })
                .or_else(|| {
                    bad(
                        gates.iter().any(|g| {
                            g.gate.is_empty()
                                || g.gate.len() > MAX_GATE_ID
                                || g.constraints > MAX_GATE_CONSTRAINTS
                        }),
                        "a gate with an empty or over-long id, or more constraints than any \
                         plonky2 gate has",
                    )
                }),
            Self::PartialProducts {
                rows,
                columns,
                degree,
                ..
            } => bad(
                *rows == 0 || *columns == 0 || *degree == 0,
                "partial products of an empty shape",
            ),
            Self::Transpose {
                rows,
                cols,
                elem_bytes,
            } => bad(
                *rows == 0 || *cols == 0 || *elem_bytes == 0,
                "a transpose of an empty shape",
            ),
            Self::Copy { bytes } => bad(*bytes == 0, "a copy of 0 bytes"),
            Self::Mimc { rounds, count, .. } => {
                bad(*rounds == 0 || *count == 0, "MiMC of 0 rounds or calls")
            }
        }
    }
}

/// Little-endian 64-bit words of a big-endian hexadecimal number (no leading zero words).
fn hex_limbs(hex: &str) -> Vec<u64> {
    let digits = hex.trim_start_matches('0').as_bytes();
    let mut words: Vec<u64> = digits
        .rchunks(16)
        .map(|chunk| {
            let text = core::str::from_utf8(chunk).expect("ASCII digits");
            u64::from_str_radix(text, 16).expect("hexadecimal digits")
        })
        .collect();
    while words.last() == Some(&0) {
        words.pop();
    }
    words
}
