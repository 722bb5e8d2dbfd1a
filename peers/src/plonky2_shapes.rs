//! Real plonky2 circuits' shapes for the kernel-trace front end (`CircuitShape`): UniZK's
//! Fibonacci and Factorial (`unizk.txt` §6, the authors' `examples/fibonacci.rs` and
//! `factorial.rs`), built with plonky2 1.1.0's `CircuitBuilder` and read from the
//! `CommonCircuitData` its `build()` returns.
//!
//! plonky2 evaluates a gate's constraints through a trait object over the concrete field, so
//! the work per point cannot be counted by running it; [`gate_ops`] gives, per gate type, the
//! products and additions its `eval_unfiltered_base_one` performs, read from plonky2 1.1.0's
//! source (as UniZK's simulator hand-translates each gate). A gate without a count is refused,
//! never guessed.

use plonky2::field::extension::Extendable;
use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::field::types::{Field, PrimeField64};
use plonky2::hash::hash_types::RichField;
use plonky2::hash::poseidon::{HALF_N_FULL_ROUNDS, N_PARTIAL_ROUNDS, SPONGE_WIDTH};
use plonky2::plonk::circuit_builder::CircuitBuilder;
use plonky2::plonk::circuit_data::{CircuitConfig, CommonCircuitData};
pub use zkaccel_kernel_trace::{CircuitShape, FriShape, GateShape, SHAPE_FORMAT, SHAPE_VERSION};

/// The [`CircuitShape`] of a plonky2 circuit: `$common` a `CommonCircuitData` (plonky2 1.1.0's
/// here, 0.1.1's in `peers/plonky2-v01`: the types differ, the fields read do not), `$gates`
/// its gates' [`GateShape`]s, `$name` and `$provenance` anything `Into<String>`.
#[macro_export]
macro_rules! circuit_shape {
    ($name:expr, $provenance:expr, $common:expr, $gates:expr) => {{
        let common = $common;
        let fri = &common.fri_params;
        $crate::plonky2_shapes::CircuitShape {
            format: $crate::plonky2_shapes::SHAPE_FORMAT.into(),
            version: $crate::plonky2_shapes::SHAPE_VERSION,
            name: $name.into(),
            provenance: $provenance.into(),
            degree_bits: common.degree_bits() as u32,
            num_wires: common.config.num_wires as u64,
            num_routed_wires: common.config.num_routed_wires as u64,
            num_constants: common.num_constants as u64,
            num_public_inputs: common.num_public_inputs as u64,
            num_partial_products: common.num_partial_products as u64,
            quotient_degree_factor: common.quotient_degree_factor as u64,
            num_challenges: common.config.num_challenges as u64,
            zero_knowledge: common.config.zero_knowledge,
            gates: $gates,
            fri: $crate::plonky2_shapes::FriShape {
                rate_bits: fri.config.rate_bits as u32,
                cap_height: fri.config.cap_height as u32,
                proof_of_work_bits: fri.config.proof_of_work_bits,
                num_query_rounds: fri.config.num_query_rounds as u64,
                reduction_arity_bits: fri.reduction_arity_bits.iter().map(|&a| a as u32).collect(),
            },
        }
    }};
}

type F = GoldilocksField;
const D: usize = 2;

/// Products of the x^7 S-box (x², x³, x⁴, x⁷).
const SBOX_MULS: u64 = 4;

/// Products and additions of one dense `w × w` matrix-vector product.
fn dense(w: u64) -> (u64, u64) {
    (w * w, w * (w - 1))
}

/// The largest gate parameter the counts take: gates plonky2 builds have a few hundred wires
/// at most, and a larger number in an id is refused rather than overflowing a count.
const MAX_GATE_PARAMETER: u64 = 1 << 16;

/// The largest power-of-two exponent (`bits` of `RandomAccessGate`, a `ComparisonGate` chunk's
/// bits) the counts take.
const MAX_GATE_BITS: u64 = 32;

/// A gate id's parameter `key` in `1..=MAX_GATE_PARAMETER` (`positive`) or
/// `0..=MAX_GATE_PARAMETER`, `None` otherwise.
fn parameter(id: &str, key: &str, positive: bool) -> Option<u64> {
    id_number(id, key).filter(|&n| n <= MAX_GATE_PARAMETER && (!positive || n > 0))
}

/// The number after `key` in a gate id (`"num_ops"` in `ArithmeticGate { num_ops: 20 }`).
pub fn id_number(id: &str, key: &str) -> Option<u64> {
    let start = id.find(key)? + key.len();
    let digits: String = id[start..]
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// `Some` for a `PoseidonGate` id of the width the counts are for (`<WIDTH=12>`, plonky2's
/// only Poseidon gate on Goldilocks).
fn poseidon_width_is_twelve(id: &str) -> Option<()> {
    (id_number(id, "<WIDTH=") == Some(SPONGE_WIDTH as u64)).then_some(())
}

/// Goldilocks products and additions `eval_unfiltered_base_one` performs for the gate with
/// this id, at one point; `None` for a gate type without a count.
pub fn gate_ops(id: &str) -> Option<(u64, u64)> {
    let number = |key: &str| parameter(id, key, false);
    let positive = |key: &str| parameter(id, key, true);
    if id.starts_with("NoopGate") {
        Some((0, 0))
    } else if id.starts_with("ConstantGate") {
        // constant − wire, per constant.
        Some((0, number("num_consts")?))
    } else if id.starts_with("PublicInputGate") {
        // wire − public-inputs-hash element, four of them.
        Some((0, 4))
    } else if id.starts_with("ArithmeticGate") {
        // c0·m0·m1 + c1·addend − output per operation.
        let ops = number("num_ops")?;
        Some((3 * ops, 2 * ops))
    } else if id.starts_with("PoseidonGate") {
        poseidon_width_is_twelve(id)?;
        let w = SPONGE_WIDTH as u64;
        let full = 2 * HALF_N_FULL_ROUNDS as u64;
        let partial = N_PARTIAL_ROUNDS as u64;
        let (mds_mul, mds_add) = dense(w);
        let (init_mul, init_add) = dense(w - 1);
        // swap², four deltas (swap·(rhs − lhs) − delta), the swapped inputs.
        let mut muls = 1 + 4;
        let mut adds = 1 + 2 * 4 + 8;
        // Full rounds: constants, S-boxes, the MDS (circulant plus diagonal), and a
        // constraint per S-box input in every full round but the first.
        muls += full * (w * SBOX_MULS + mds_mul + w);
        adds += full * (w + mds_add + w) + (full - 1) * w;
        // Partial rounds: the first constant layer and the initial dense layer, then per
        // round a constraint, one S-box, a constant and the sparse layer (a dot product and
        // a scaled addition).
        muls += init_mul + partial * (SBOX_MULS + w + (w - 1));
        adds += w + init_add + partial * (2 + (w - 1) + (w - 1));
        // Outputs.
        adds += w;
        Some((muls, adds))
    } else if id.starts_with("BaseSumGate") {
        // The limbs recombined (Horner), the sum subtracted, each limb range-checked by the
        // product of (limb − k) over its base.
        let limbs = positive("num_limbs")?;
        let base = positive("Base: ")?;
        Some((limbs - 1 + limbs * (base - 1), limbs - 1 + 1 + limbs * base))
    } else if id.starts_with("RandomAccessGate") {
        // Per copy: each bit boolean, the index recombined and compared, the list folded by
        // x + b·(y − x) down to one item and compared; then the extra constants.
        let bits = number("bits").filter(|&b| b <= MAX_GATE_BITS)?;
        let copies = number("num_copies")?;
        let extra = number("num_extra_constants")?;
        let folds = (1 << bits) - 1;
        Some((
            copies * (bits + folds),
            copies * (bits + 2 * bits + 1 + 2 * folds + 1) + extra,
        ))
    } else if id.starts_with("ComparisonGate") {
        // plonky2_u32 0.1.0: both inputs' chunks recombined and compared, each chunk
        // range-checked twice, four steps of the equality and most-significant-difference
        // chain per chunk, the difference's bits checked, recombined and compared.
        let bits = number("num_bits")?;
        let chunks = positive("num_chunks")?;
        let chunk_bits = bits.div_ceil(chunks);
        if chunk_bits > MAX_GATE_BITS {
            return None;
        }
        let size = 1 << chunk_bits;
        let muls = 2 * (chunks - 1) + chunks * (2 * (size - 1) + 4) + (chunk_bits + 1) + chunk_bits;
        let adds =
            2 * (chunks - 1) + 2 + chunks * (2 * size + 6) + 1 + (chunk_bits + 1) + chunk_bits + 3;
        Some((muls, adds))
    } else if id.starts_with("U32AddManyGate") {
        // plonky2_u32 0.1.0, per operation: the addends and carry summed, the output
        // recombined and compared, 18 two-bit limbs range-checked and recombined into result
        // and carry, both compared.
        let addends = number("num_addends")?;
        let ops = number("num_ops")?;
        let limbs = 16 + 2;
        Some((
            ops * (1 + limbs * 4),
            ops * (addends + 1 + 1 + limbs * 5 + 2),
        ))
    } else if id.starts_with("U32ArithmeticGate") {
        // plonky2_u32 0.1.0, per operation: m0·m1 + addend, the high-limb canonicity check,
        // the halves recombined and compared, 32 two-bit limbs range-checked and recombined
        // into the halves, both compared.
        let ops = number("num_ops")?;
        let limbs = 32;
        Some((ops * (4 + limbs * 4), ops * (5 + limbs * 5 + 2)))
    } else if id.starts_with("U32RangeCheckGate") {
        // plonky2_u32 0.1.0, per input limb: 16 two-bit aux limbs recombined and compared,
        // each range-checked.
        let limbs = number("num_input_limbs")?;
        Some((limbs * (15 + 16 * 3), limbs * (15 + 1 + 16 * 4)))
    } else if id.starts_with("U32SubtractionGate") {
        // plonky2_u32 0.1.0, per operation: x − y − borrow + 2^32·borrow' compared, 16 two-bit
        // limbs range-checked and recombined and compared, the borrow boolean.
        let ops = number("num_ops")?;
        let limbs = 16;
        Some((ops * (1 + limbs * 4 + 1), ops * (4 + limbs * 5 + 1 + 1)))
    } else {
        None
    }
}

/// The constraints of the gate with this id, from each gate's `num_constraints`, for the
/// gates of plonky2 0.1's u32 and ECDSA gadgets (whose circuits' `GateRef` does not expose
/// its gate) and the plonky2 gates those circuits and the image crop use; `None` for any other
/// id. Checked against
/// `num_constraints()` where plonky2 1.1.0 has the gate (`tests/plonky2_shapes.rs`), and by
/// `peers/plonky2-v01` against every gate of the ECDSA circuit rebuilt with plonky2 0.1.1's and
/// plonky2_u32 0.1.0's own constructors.
pub fn gate_constraints(id: &str) -> Option<u64> {
    let number = |key: &str| parameter(id, key, false);
    let positive = |key: &str| parameter(id, key, true);
    if id.starts_with("NoopGate") {
        Some(0)
    } else if id.starts_with("ConstantGate") {
        number("num_consts")
    } else if id.starts_with("PublicInputGate") {
        Some(4)
    } else if id.starts_with("ArithmeticGate") {
        number("num_ops")
    } else if id.starts_with("PoseidonGate") {
        // Each full round but the first checks its S-box inputs, each partial round one, then
        // the outputs, the swap flag and the four deltas.
        poseidon_width_is_twelve(id)?;
        Some(
            (SPONGE_WIDTH * (2 * HALF_N_FULL_ROUNDS - 1) + N_PARTIAL_ROUNDS + SPONGE_WIDTH + 1 + 4)
                as u64,
        )
    } else if id.starts_with("BaseSumGate") {
        Some(1 + positive("num_limbs")?)
    } else if id.starts_with("RandomAccessGate") {
        Some(number("num_copies")? * (number("bits")? + 2) + number("num_extra_constants")?)
    } else if id.starts_with("ComparisonGate") {
        let chunks = positive("num_chunks")?;
        Some(6 + 5 * chunks + number("num_bits")?.div_ceil(chunks))
    } else if id.starts_with("U32AddManyGate") || id.starts_with("U32SubtractionGate") {
        Some(number("num_ops")? * (3 + if id.starts_with("U32Add") { 18 } else { 16 }))
    } else if id.starts_with("U32ArithmeticGate") {
        Some(number("num_ops")? * (4 + 32))
    } else if id.starts_with("U32RangeCheckGate") {
        Some(number("num_input_limbs")? * (1 + 16))
    } else {
        None
    }
}

/// The selector groups plonky2's `selector_polynomials` forms (private in `SelectorsInfo`):
/// one group when every gate fits, otherwise greedy runs of gates in degree order whose size
/// plus degree stays below `quotient_degree_factor + 1`. Checked against
/// `SelectorsInfo::num_selectors`.
fn selector_groups<Fx: RichField + Extendable<D>>(
    common: &CommonCircuitData<Fx, D>,
) -> Vec<std::ops::Range<usize>> {
    let gates = &common.gates;
    let max_degree = common.quotient_degree_factor + 1;
    let max_gate_degree = gates.last().map_or(0, |g| g.0.degree());
    if max_gate_degree + gates.len() - 1 <= max_degree {
        return std::iter::once(0..gates.len()).collect();
    }
    let mut groups = Vec::new();
    let mut start = 0;
    while start < gates.len() {
        let mut size = 0;
        while start + size < gates.len() && size + gates[start + size].0.degree() < max_degree {
            size += 1;
        }
        groups.push(start..start + size);
        start += size.max(1);
    }
    groups
}

/// The shape of a built circuit.
///
/// # Errors
/// A gate type [`gate_ops`] has no count for, or a lookup argument (not modelled).
pub fn shape_of<Fx: RichField + Extendable<D>>(
    name: &str,
    provenance: &str,
    common: &CommonCircuitData<Fx, D>,
) -> Result<CircuitShape, String> {
    if common.num_lookup_polys != 0 {
        return Err("lookup arguments are not in the front end".into());
    }
    let groups = selector_groups(common);
    if groups.len() != common.selectors_info.num_selectors() {
        return Err(format!(
            "{} selector groups derived, plonky2 made {}",
            groups.len(),
            common.selectors_info.num_selectors()
        ));
    }
    let mut gates = Vec::new();
    for (i, gate) in common.gates.iter().enumerate() {
        let id = gate.0.id();
        let (muls, adds) = gate_ops(&id).ok_or_else(|| format!("no op count for {id}"))?;
        let group = groups
            .iter()
            .find(|g| g.contains(&i))
            .map_or(1, |g| g.len() as u64);
        gates.push(GateShape {
            name: id,
            constraints: gate.0.num_constraints() as u64,
            muls,
            adds,
            selector_group: group,
        });
    }
    Ok(crate::circuit_shape!(name, provenance, common, gates))
}

/// UniZK's Fibonacci: `additions` additions of the two previous values, the two seeds and the
/// result public (`standard_recursion_config`).
pub fn fibonacci(additions: usize) -> CommonCircuitData<F, D> {
    let mut builder = CircuitBuilder::<F, D>::new(CircuitConfig::standard_recursion_config());
    let a = builder.add_virtual_target();
    let b = builder.add_virtual_target();
    let (mut prev, mut cur) = (a, b);
    for _ in 0..additions {
        let next = builder.add(prev, cur);
        prev = cur;
        cur = next;
    }
    builder.register_public_input(a);
    builder.register_public_input(b);
    builder.register_public_input(cur);
    builder
        .build::<plonky2::plonk::config::PoseidonGoldilocksConfig>()
        .common
}

/// UniZK's Factorial: the product of 2, 3, … as `multiplications` multiplications by fresh
/// constants, the start and the result public. Also returns the gates before padding.
pub fn factorial(multiplications: usize) -> (CommonCircuitData<F, D>, usize) {
    let mut builder = CircuitBuilder::<F, D>::new(CircuitConfig::standard_recursion_config());
    let initial = builder.add_virtual_target();
    let mut cur = initial;
    for i in 2..multiplications as u32 + 2 {
        let constant = builder.constant(F::from_canonical_u32(i));
        cur = builder.mul(cur, constant);
    }
    builder.register_public_input(initial);
    builder.register_public_input(cur);
    let rows = builder.num_gates();
    let data = builder.build::<plonky2::plonk::config::PoseidonGoldilocksConfig>();
    (data.common, rows)
}

/// The shape of UniZK's Factorial at `multiplications` (2^20 − 2 in the paper), whose circuit
/// is too large to build here (the notes: more than 20 GB). Built at two small sizes: the rows
/// the builder lays out grow linearly in the multiplications, and `build()` adds one
/// `ConstantGate` row per `num_consts` fresh constants; the same count must give the small
/// circuit's own degree (checked), and then gives the degree at full size. FRI's arities are
/// plonky2's reduction strategy at that degree; every other number is the small circuit's own.
pub fn factorial_shape(multiplications: usize, small: usize) -> Result<CircuitShape, String> {
    let (_, rows_small) = factorial(small);
    let (common, rows_double) = factorial(2 * small);
    let per = (rows_double - rows_small) as f64 / small as f64;
    let fixed = rows_small as f64 - per * small as f64;
    let constants_per_row = common
        .gates
        .iter()
        .find_map(|g| {
            let id = g.0.id();
            id.starts_with("ConstantGate")
                .then(|| id.chars().filter(char::is_ascii_digit).collect::<String>())
        })
        .and_then(|digits| digits.parse::<usize>().ok())
        .ok_or("no ConstantGate in the factorial circuit")?;
    let rows_at =
        |m: usize| (per * m as f64 + fixed).ceil() as usize + m.div_ceil(constants_per_row);
    let degree_at = |m: usize| rows_at(m).next_power_of_two().trailing_zeros() as usize;
    if degree_at(2 * small) != common.degree_bits() {
        return Err(format!(
            "row count {} predicts 2^{} at {} multiplications, plonky2 built 2^{}",
            rows_at(2 * small),
            degree_at(2 * small),
            2 * small,
            common.degree_bits()
        ));
    }
    let (rows, degree_bits) = (rows_at(multiplications), degree_at(multiplications));
    let config = &common.config.fri_config;
    let arities = config.reduction_strategy.reduction_arity_bits(
        degree_bits,
        config.rate_bits,
        config.cap_height,
        config.num_query_rounds,
    );
    let provenance = format!(
        "peers/examples/plonky2_shapes (plonky2 1.1.0, standard_recursion_config): built at \
         {small} and {} multiplications ({rows_small} and {rows_double} rows laid out: {per:.4} \
         per multiplication + {fixed:.0}, plus one ConstantGate row per {constants_per_row} \
         constants; degree 2^{} as built, checked); at {multiplications} multiplications \
         {rows} rows → degree 2^{degree_bits} (derived), FRI arities from plonky2's reduction \
         strategy",
        2 * small,
        common.degree_bits()
    );
    let mut shape = shape_of("factorial", &provenance, &common)?;
    shape.degree_bits = degree_bits as u32;
    shape.fri.reduction_arity_bits = arities.iter().map(|&a| a as u32).collect();
    Ok(shape)
}

/// UniZK's MVM (`unizk.txt` §6: a 3000 × 3000 matrix of 16-bit coefficients times a vector),
/// as the authors' `examples/mvm.rs` builds it through proto-neural-zkp: 400 wires, all
/// routed, zero knowledge on, every other setting `standard_recursion_config`'s.
pub fn mvm_config() -> CircuitConfig {
    CircuitConfig {
        num_wires: 400,
        num_routed_wires: 400,
        zero_knowledge: true,
        ..CircuitConfig::standard_recursion_config()
    }
}

/// A configuration with one arithmetic operation per row (four routed wires, no zero
/// knowledge), so that a circuit's row count is its operation count plus a few: the exact
/// check of [`mvm_rows`]'s operation count. Needs a circuit without public inputs (their
/// Poseidon rows need 25 routed wires).
pub fn mvm_exact_config() -> CircuitConfig {
    CircuitConfig {
        num_wires: 4,
        num_routed_wires: 4,
        ..CircuitConfig::standard_recursion_config()
    }
}

/// `count` coefficients drawn as the authors' example draws them (a random `i32` reduced
/// `% 2^bits`, so signed), from a seeded generator so that a shape can be rebuilt.
pub fn mvm_coefficients(count: usize, bits: u32, seed: u64) -> Vec<i32> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    (0..count)
        .map(|_| rng.gen::<i32>() % (1i32 << bits))
        .collect()
}

fn signed(value: i32) -> F {
    if value >= 0 {
        F::from_canonical_u32(value.unsigned_abs())
    } else {
        -F::from_canonical_u32(value.unsigned_abs())
    }
}

/// The MVM circuit over `inputs` public inputs and `coefficients.len() / inputs` outputs: each
/// output a chain of `mul_const_add(coefficient, input, sum)` from zero, inputs then outputs
/// registered public, under `config` ([`mvm_config`] for UniZK's). Returns the circuit and the
/// rows plonky2 laid out before blinding and padding (read from its own log line).
///
/// `public: false` leaves the inputs and outputs private: with no public input there is no
/// Poseidon row, so [`mvm_exact_config`] can give every operation a row of its own.
///
/// # Errors
/// See [`rows_before_blinding`].
pub fn mvm(
    inputs: usize,
    coefficients: &[i32],
    config: &CircuitConfig,
    public: bool,
) -> Result<(CommonCircuitData<F, D>, usize), String> {
    rows_before_blinding(|| {
        let mut builder = CircuitBuilder::<F, D>::new(config.clone());
        let xs = builder.add_virtual_targets(inputs);
        if public {
            for &x in &xs {
                builder.register_public_input(x);
            }
        }
        let mut outputs = Vec::new();
        for row in coefficients.chunks_exact(inputs) {
            let mut sum = builder.zero();
            for (&c, &x) in row.iter().zip(&xs) {
                sum = builder.mul_const_add(signed(c), x, sum);
            }
            outputs.push(sum);
        }
        if public {
            for y in outputs {
                builder.register_public_input(y);
            }
        }
        builder
            .build::<plonky2::plonk::config::PoseidonGoldilocksConfig>()
            .common
    })
}

std::thread_local! {
    static LOGGED_ROWS: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// Reads plonky2's `debug!("Degree before blinding & padding: {}")` on the thread that logs it.
struct RowsLogger;

const ROWS_LINE: &str = "Degree before blinding & padding: ";

impl log::Log for RowsLogger {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.target().starts_with("plonky2")
    }

    fn log(&self, record: &log::Record) {
        if !self.enabled(record.metadata()) {
            return;
        }
        let text = record.args().to_string();
        if let Some(rows) = text.strip_prefix(ROWS_LINE).and_then(|n| n.parse().ok()) {
            LOGGED_ROWS.with(|cell| cell.set(Some(rows)));
        }
    }

    fn flush(&self) {}
}

static ROWS_LOGGER: RowsLogger = RowsLogger;

/// Runs a circuit build and returns, with its result, the rows plonky2 laid out before
/// blinding and padding, which `CommonCircuitData` does not keep: plonky2 1.1.0's `build()`
/// logs them at debug level, and this installs a logger that reads that line.
///
/// # Errors
/// Another logger is installed in the process, or the build logged no such line.
pub fn rows_before_blinding<T>(build: impl FnOnce() -> T) -> Result<(T, usize), String> {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    let mut installed = true;
    INSTALL.call_once(|| {
        installed = log::set_logger(&ROWS_LOGGER).is_ok();
        log::set_max_level(log::LevelFilter::Debug);
    });
    if !installed {
        return Err("another logger is installed; plonky2's row count cannot be read".into());
    }
    LOGGED_ROWS.with(|cell| cell.set(None));
    let built = build();
    let rows = LOGGED_ROWS
        .with(std::cell::Cell::take)
        .ok_or("plonky2 logged no row count (log's max level compiled out?)")?;
    Ok((built, rows))
}

/// The rows of the MVM circuit, derived without building it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MvmRows {
    /// `ArithmeticGate` operations left after plonky2's special cases and its cache.
    pub arithmetic_ops: usize,
    /// Rows of `ArithmeticGate`s (all operations share the constants (1, 1), so one slot run).
    pub arithmetic: usize,
    /// Distinct constants (every coefficient value, and zero).
    pub constants: usize,
    /// `ConstantGate` rows, `constants / num_constants` rounded up.
    pub constant_rows: usize,
    /// Poseidon rows hashing the public inputs, eight per permutation.
    pub poseidon: usize,
    /// Rows before blinding and padding: the above and the `PublicInputGate`.
    pub before_blinding: usize,
    /// Zero-knowledge blinding rows.
    pub blinding: usize,
    /// log2 of the padded row count.
    pub degree_bits: usize,
}

/// Derives the MVM circuit's rows the way plonky2 1.1.0's builder lays them out, operation by
/// operation: `mul_const_add(c, x, y)` is `arithmetic(1, 1, constant(c), x, y)`; a zero
/// coefficient returns `y`; on a zero sum a unit coefficient returns `x`; an operation equal to
/// an earlier one (same constant, input and addend target) is served from the builder's
/// cache; every other operation takes a slot of an `ArithmeticGate` of `num_routed_wires / 4`
/// operations. `build()` then hashes the public inputs (one Poseidon row per eight), adds the
/// `PublicInputGate`, a `ConstantGate` row per `num_constants` distinct constants, the
/// blinding rows (`blinding_counts`) and pads to a power of two. [`mvm_shape`] checks this
/// against plonky2's own count.
pub fn mvm_rows(
    inputs: usize,
    coefficients: &[i32],
    config: &CircuitConfig,
    public: bool,
) -> MvmRows {
    use std::collections::{HashMap, HashSet};
    const ZERO: u64 = 0;
    let input_target = |j: usize| 1 + j as u64;
    let mut next_gate = 1 + inputs as u64;
    let mut constants: HashSet<u64> = HashSet::from([0]);
    let mut cache: HashMap<(u64, u32, u64), u64> = HashMap::new();
    let mut ops = 0usize;
    for row in coefficients.chunks_exact(inputs) {
        let mut sum = ZERO;
        for (j, &c) in row.iter().enumerate() {
            let value = signed(c).to_canonical_u64();
            constants.insert(value);
            if value == 0 {
                continue;
            }
            if sum == ZERO && value == 1 {
                sum = input_target(j);
                continue;
            }
            sum = *cache.entry((value, j as u32, sum)).or_insert_with(|| {
                ops += 1;
                next_gate += 1;
                next_gate
            });
        }
    }
    let per_row = plonky2::gates::arithmetic_base::ArithmeticGate::new_from_config(config).num_ops;
    let arithmetic = ops.div_ceil(per_row);
    let constant_rows = constants.len().div_ceil(config.num_constants);
    let public_inputs = if public {
        inputs + coefficients.len() / inputs
    } else {
        0
    };
    // Absorbed eight at a time; four outputs squeeze without another permutation.
    let poseidon = public_inputs.div_ceil(8);
    let before_blinding = arithmetic + constant_rows + poseidon + 1;
    let blinding = if config.zero_knowledge {
        blinding_rows(before_blinding, config)
    } else {
        0
    };
    let degree_bits = (before_blinding + blinding)
        .next_power_of_two()
        .trailing_zeros() as usize;
    MvmRows {
        arithmetic_ops: ops,
        arithmetic,
        constants: constants.len(),
        constant_rows,
        poseidon,
        before_blinding,
        blinding,
        degree_bits,
    }
}

/// plonky2 1.1.0's `blinding_counts`: one row per value opened of the regular polynomials and
/// two per value of Z, at the smallest power of two that holds them and the circuit.
fn blinding_rows(rows: usize, config: &CircuitConfig) -> usize {
    let mut degree = rows.next_power_of_two();
    loop {
        let params = config
            .fri_config
            .fri_params(degree.trailing_zeros() as usize, true);
        let arities: Vec<usize> = params
            .reduction_arity_bits
            .iter()
            .map(|&a| 1 << a)
            .collect();
        let folding: usize = arities.iter().map(|a| a - 1).sum();
        let final_coeffs = degree / arities.iter().product::<usize>();
        let fri = config.fri_config.num_query_rounds * (1 + D * folding + D * final_coeffs);
        let blinding = (D + fri) + 2 * (2 * D + fri);
        if rows + blinding <= degree {
            return blinding;
        }
        degree *= 2;
    }
}

/// The shape of UniZK's MVM at `inputs × outputs` (3000 × 3000 in the paper: nine million
/// operations, too many to build here). Two small circuits are built, and for each
/// [`mvm_rows`] must predict plonky2's own row count before blinding exactly, and its degree:
/// `inputs × small_outputs` under UniZK's configuration (Poseidon rows, zero knowledge,
/// blinding), and a narrow matrix of 3-bit coefficients under [`mvm_exact_config`], one row per
/// operation, where zero and unit coefficients, shared constants and the builder's cache all
/// occur and an operation miscounted is a row miscounted. The full size's rows come from
/// [`mvm_rows`] on the full seeded matrix; every other number is the first small circuit's
/// own, with the public input count and FRI's arities at the derived degree.
///
/// # Errors
/// A prediction plonky2 contradicts, or a gate [`shape_of`] refuses.
pub fn mvm_shape(
    inputs: usize,
    outputs: usize,
    bits: u32,
    seed: u64,
    small_outputs: usize,
) -> Result<CircuitShape, String> {
    let config = mvm_config();
    let small = mvm_coefficients(inputs * small_outputs, bits, seed);
    let narrow_inputs = inputs.min(64);
    let narrow = mvm_coefficients(narrow_inputs * 64, 3, seed ^ 1);
    let exact = mvm_exact_config();
    let mut built = None;
    for (n, coefficients, config, public) in [
        (inputs, &small, &config, true),
        (narrow_inputs, &narrow, &exact, false),
    ] {
        let (common, rows) = mvm(n, coefficients, config, public)?;
        let predicted = mvm_rows(n, coefficients, config, public);
        if predicted.before_blinding != rows || predicted.degree_bits != common.degree_bits() {
            return Err(format!(
                "{n} × {}: predicted {predicted:?}, plonky2 laid out {rows} rows, degree 2^{}",
                coefficients.len() / n,
                common.degree_bits()
            ));
        }
        built.get_or_insert((common, predicted));
    }
    let (common, small_rows) = built.ok_or("no circuit built")?;
    let full = mvm_rows(
        inputs,
        &mvm_coefficients(inputs * outputs, bits, seed),
        &config,
        true,
    );
    let arities = config
        .fri_config
        .fri_params(full.degree_bits, config.zero_knowledge)
        .reduction_arity_bits;
    let provenance = format!(
        "peers/examples/plonky2_shapes (plonky2 1.1.0; UniZK's examples/mvm.rs through \
         proto-neural-zkp: 400 wires, 400 routed, zero knowledge, standard_recursion_config \
         otherwise; {bits}-bit coefficients as i32 % 2^{bits} from StdRng seed {seed}). Built \
         at {inputs} × {small_outputs} ({} rows before blinding, predicted exactly) and at \
         {narrow_inputs} × {} with 3-bit coefficients, one operation per row (predicted \
         exactly); at {inputs} × \
         {outputs}: {} operations in {} ArithmeticGate rows, {} constants in {} ConstantGate \
         rows, {} Poseidon rows for the public inputs, 1 PublicInputGate, {} blinding rows → \
         degree 2^{} (derived); FRI arities from plonky2's reduction strategy",
        small_rows.before_blinding,
        64,
        full.arithmetic_ops,
        full.arithmetic,
        full.constants,
        full.constant_rows,
        full.poseidon,
        full.blinding,
        full.degree_bits
    );
    let mut shape = shape_of("mvm", &provenance, &common)?;
    shape.degree_bits = full.degree_bits as u32;
    shape.num_public_inputs = (inputs + outputs) as u64;
    shape.fri.reduction_arity_bits = arities.iter().map(|&a| a as u32).collect();
    Ok(shape)
}
