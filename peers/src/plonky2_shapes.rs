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
use plonky2::field::types::Field;
use plonky2::hash::hash_types::RichField;
use plonky2::hash::poseidon::{HALF_N_FULL_ROUNDS, N_PARTIAL_ROUNDS, SPONGE_WIDTH};
use plonky2::plonk::circuit_builder::CircuitBuilder;
use plonky2::plonk::circuit_data::{CircuitConfig, CommonCircuitData};
use zkaccel_kernel_trace::{CircuitShape, FriShape, GateShape, SHAPE_FORMAT, SHAPE_VERSION};

type F = GoldilocksField;
const D: usize = 2;

/// Products of the x^7 S-box (x², x³, x⁴, x⁷).
const SBOX_MULS: u64 = 4;

/// Products and additions of one dense `w × w` matrix-vector product.
fn dense(w: u64) -> (u64, u64) {
    (w * w, w * (w - 1))
}

/// Goldilocks products and additions `eval_unfiltered_base_one` performs for the gate with
/// this id, at one point; `None` for a gate type without a count.
pub fn gate_ops(id: &str) -> Option<(u64, u64)> {
    let number = |key: &str| -> Option<u64> {
        let start = id.find(key)? + key.len();
        let digits: String = id[start..]
            .chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    };
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
        return vec![0..gates.len()];
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
    let fri = &common.fri_params;
    Ok(CircuitShape {
        format: SHAPE_FORMAT.into(),
        version: SHAPE_VERSION,
        name: name.into(),
        provenance: provenance.into(),
        degree_bits: common.degree_bits() as u32,
        num_wires: common.config.num_wires as u64,
        num_routed_wires: common.config.num_routed_wires as u64,
        num_constants: common.num_constants as u64,
        num_public_inputs: common.num_public_inputs as u64,
        num_partial_products: common.num_partial_products as u64,
        quotient_degree_factor: common.quotient_degree_factor as u64,
        num_challenges: common.config.num_challenges as u64,
        zero_knowledge: common.config.zero_knowledge,
        gates,
        fri: FriShape {
            rate_bits: fri.config.rate_bits as u32,
            cap_height: fri.config.cap_height as u32,
            proof_of_work_bits: fri.config.proof_of_work_bits,
            num_query_rounds: fri.config.num_query_rounds as u64,
            reduction_arity_bits: fri.reduction_arity_bits.iter().map(|&a| a as u32).collect(),
        },
    })
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
