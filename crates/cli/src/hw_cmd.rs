//! `zkaccel hw amaze-vectors`: the constants and known-answer vectors the AMAZE RTL benches
//! read, produced by the Rust golden model (which is itself pinned to circomlibjs, arkworks-mimc
//! and AMAZE's own testbench by `vectors/mimc.json`); `zkaccel hw mont-vectors`: the Montgomery
//! multiplier's (hw/common), from the word-serial golden model (itself checked against big
//! integers and, through the fields built on it, against arkworks).
//!
//! Files written to `--out`:
//! - `amz_consts.svh`: modulus, `n`, Barrett `z = ⌊2^{2n}/p⌋` and its residue width, all derived
//!   from the field by code;
//! - `round_constants.memh`: the circomlib MiMC7 constants, one 256-bit hex word per line;
//! - `cipher_vectors.hex`: `x k E_k(x)` per line (hex), edge cases first (0, 1, p − 1), then
//!   random canonical inputs;
//! - `hash_vectors.hex`: `n key m_1 … m_n H` per line (hex).

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use zkaccel_bn254::Fr;
use zkaccel_field::modmul::MontgomeryWords;
use zkaccel_field::{limbs, Field, PrimeField};
use zkaccel_mimc::Preset;
use zkaccel_plot::{write_atomically, FileSet};
use zkaccel_presets::{CircomHasher, CircomPoseidon, NeptuneHasher, NeptunePoseidon, Strength};

#[derive(Subcommand)]
pub enum HwCommand {
    /// Write the AMAZE RTL constants and test vectors (from the Rust golden model).
    #[command(name = "amaze-vectors")]
    Amaze(VectorArgs),
    /// Write the Montgomery multiplier's test vectors (hw/common: Algorithm 1 of the FPGA NTT
    /// paper) for one width, from the word-serial golden model.
    #[command(name = "mont-vectors")]
    Mont(MontVectorArgs),
    /// Write the NTT core's configuration, twiddles and test vectors (hw/ntt: the FPGA NTT
    /// paper's core) for one field and sub-task size, from zkaccel-ntt.
    #[command(name = "ntt-vectors")]
    Ntt(NttVectorArgs),
    /// Write the vectors of a √N×√N transform through the NTT core (hw/ntt's ntt_four_step):
    /// both passes' twiddles, the scaling twiddles between them, input and zkaccel-ntt's output.
    #[command(name = "ntt-four-step-vectors")]
    NttFourStep(NttFourStepArgs),
    /// Write the AcclMT Poseidon engine's configuration and test vectors (hw/acclmt): the
    /// parameters in Montgomery form and permutations by zkaccel-poseidon.
    #[command(name = "acclmt-vectors")]
    Acclmt(AcclmtVectorArgs),
    /// Write an AcclMT Merkle controller's tree (hw/acclmt's acclmt_tree): the engines'
    /// configuration, the domain tag, the leaves' elements and zkaccel-merkle's root.
    #[command(name = "acclmt-tree-vectors")]
    AcclmtTree(AcclmtTreeArgs),
    /// Write the AcclMT S-box's test vectors (hw/acclmt's acclmt_sbox alone): inputs and their
    /// powers x^α by the field's arithmetic, Montgomery form. Any α of 3, 5, 7, a permutation
    /// of the field or not: x³ permutes neither BLS12-381 Fr nor BN254 Fr, so no Poseidon
    /// instance reaches the datapath's x³ path, and this bench does.
    #[command(name = "acclmt-sbox-vectors")]
    AcclmtSbox(AcclmtSboxArgs),
}

#[derive(Args)]
pub struct AcclmtSboxArgs {
    /// The file to write (atomically).
    #[arg(long = "output", alias = "out")]
    out: PathBuf,
    /// The field.
    #[arg(long, value_enum, default_value_t = AcclmtField::Bls12_381)]
    field: AcclmtField,
    /// The exponent: 3, 5 or 7.
    #[arg(long, value_parser = clap::value_parser!(u64).range(3..=7))]
    alpha: u64,
    /// Inputs (0, 1 and p − 1 first, then random), at most 10^6.
    #[arg(long, default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_VECTORS))]
    count: u64,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The trees of `acclmt-tree-vectors`: binary, neptune's or circomlib's node hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AcclmtTreePreset {
    /// neptune's (Filecoin's) arity-2 tree over BLS12-381 Fr: tag 3, digest lane 1.
    Neptune,
    /// circomlib's Poseidon over BN254 Fr, two inputs: tag 0, digest lane 0.
    Circomlib,
}

#[derive(Args)]
pub struct AcclmtTreeArgs {
    /// The file to write (atomically).
    #[arg(long = "output", alias = "out")]
    out: PathBuf,
    /// The node hash.
    #[arg(long, value_enum, default_value_t = AcclmtTreePreset::Neptune)]
    preset: AcclmtTreePreset,
    /// The depth: the controller's leaf hash engine hashes arity^depth leaves (each of
    /// `arity` elements), so the tree is zkaccel-merkle's over arity^(depth + 1) elements, at
    /// most 2^19.
    #[arg(long, required_unless_present = "log_leaves", conflicts_with = "log_leaves",
          value_parser = clap::value_parser!(u32).range(1..=MAX_ACCLMT_TREE_LOG))]
    depth: Option<u32>,
    /// For a power-of-two arity, log2 of the leaves instead of the depth: a multiple of
    /// log2(arity).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_ACCLMT_TREE_LOG))]
    log_leaves: Option<u32>,
    /// The tree's arity: 2 (the paper's) to 11 (the controller built with that Arity).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(2..=11))]
    arity: u32,
    /// Seed of the random elements.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The Poseidon instances of the AcclMT vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AcclmtPreset {
    /// neptune (Filecoin) over BLS12-381 Fr, α = 5, its standard round numbers.
    Neptune,
    /// circomlib over BN254 Fr, α = 5.
    Circomlib,
    /// The Poseidon reference instance (Grain constants, Cauchy MDS) for `--field`, `--alpha`
    /// and any round numbers (default: the reference numbers): Table I's (8, 56), α = 7, …
    Reference,
}

/// The fields of the AcclMT vectors (the 256-bit datapath).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AcclmtField {
    /// BLS12-381 Fr (neptune's).
    #[value(name = "bls12-381")]
    Bls12_381,
    /// BN254 Fr (circomlib's).
    #[value(name = "bn254")]
    Bn254,
}

#[derive(Args)]
pub struct AcclmtVectorArgs {
    /// The file to write (atomically).
    #[arg(long = "output", alias = "out")]
    out: PathBuf,
    /// The Poseidon instance.
    #[arg(long, value_enum, default_value_t = AcclmtPreset::Neptune)]
    preset: AcclmtPreset,
    /// Tree arity: the state width is arity + 1 (AcclMT's engine takes 3 to 12).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(2..=11))]
    arity: u64,
    /// The field of `--preset reference` (neptune's is BLS12-381 Fr, circomlib's BN254 Fr).
    #[arg(long, value_enum)]
    field: Option<AcclmtField>,
    /// The S-box exponent of `--preset reference` (3, 5 or 7, a permutation of the field).
    #[arg(long, value_parser = clap::value_parser!(u64).range(3..=7))]
    alpha: Option<u64>,
    /// Full rounds of `--preset reference` (with --partial-rounds).
    #[arg(long, value_parser = clap::value_parser!(u64).range(2..=64))]
    full_rounds: Option<u64>,
    /// Partial rounds of `--preset reference` (with --full-rounds).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=200))]
    partial_rounds: Option<u64>,
    /// Permutations (edge states first: all 0, all 1, all p − 1, then 0, 1, …, t − 1), at
    /// most 10^6.
    #[arg(long, default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_VECTORS))]
    count: u64,
    /// Seed of the random states.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(Args)]
pub struct NttFourStepArgs {
    /// Output directory (created if missing).
    #[arg(long = "output", alias = "out")]
    out: PathBuf,
    /// The field.
    #[arg(long, value_enum)]
    field: NttField,
    /// log2 of the transform size: even, 4 to 20 (both passes take 2^(log_n/2)-point sub-tasks).
    #[arg(long, value_parser = clap::value_parser!(u32).range(4..=20))]
    log_n: u32,
    /// Seed of the random input.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The most points one `ntt-vectors` run writes (inputs and outputs: ~130 MB of text at 256 bits).
const MAX_NTT_POINTS: u64 = 1 << 20;

/// The fields of the NTT core RTL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NttField {
    /// BN254 Fr (256-bit unit).
    #[value(name = "bn254-fr")]
    Bn254Fr,
    /// BLS12-381 Fr, bellman's field (256-bit unit).
    #[value(name = "bls12-381-fr")]
    Bls12_381Fr,
    /// BLS12-377 Fq (384-bit unit; the paper's 384-bit field, BLS12-381 Fq, has no NTT).
    #[value(name = "bls12-377-fq")]
    Bls12_377Fq,
}

impl NttField {
    fn name(self) -> &'static str {
        match self {
            NttField::Bn254Fr => "bn254-fr",
            NttField::Bls12_381Fr => "bls12-381-fr",
            NttField::Bls12_377Fq => "bls12-377-fq",
        }
    }
}

#[derive(Args)]
pub struct NttVectorArgs {
    /// Output directory (created if missing).
    #[arg(long = "output", alias = "out")]
    out: PathBuf,
    /// The field.
    #[arg(long, value_enum)]
    field: NttField,
    /// log2 of the sub-task size (the core's round units), 2 to 12.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=12))]
    log_points: u32,
    /// Number of sub-tasks, at most 2^16 (and 2^20 points in all).
    #[arg(long, default_value_t = 16,
          value_parser = clap::value_parser!(u32).range(1..=65_536))]
    subtasks: u32,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The widths of the Montgomery multiplier RTL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MontWidth {
    /// 256 bits: BN254 Fr, BLS12-381 Fr and a random odd modulus.
    #[value(name = "256")]
    W256,
    /// 384 bits: BLS12-377 Fq, NIST P-384 and a random odd modulus.
    #[value(name = "384")]
    W384,
}

#[derive(Args)]
pub struct MontVectorArgs {
    /// Output directory (created if missing).
    #[arg(long = "output", alias = "out")]
    out: PathBuf,
    /// Operand width in bits.
    #[arg(long, value_enum)]
    width: MontWidth,
    /// Products per modulus (edge operands included), at most 10^6.
    #[arg(long, default_value_t = 4000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_VECTORS))]
    count: u64,
    /// Seed of the random operands and of the random modulus.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The most vectors of each kind one run writes (a million ciphers is ~200 MB of text).
const MAX_VECTORS: u64 = 1_000_000;

#[derive(Args)]
pub struct VectorArgs {
    /// Output directory (created if missing).
    #[arg(long = "output", alias = "out")]
    out: PathBuf,
    /// Number of cipher vectors (edge cases included), at most 10^6.
    #[arg(long, default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(..=MAX_VECTORS))]
    count: u64,
    /// Number of hash vectors, at most 10^6.
    #[arg(long, default_value_t = 20,
          value_parser = clap::value_parser!(u64).range(..=MAX_VECTORS))]
    hashes: u64,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn hex(x: &Fr) -> String {
    x.to_hex_string().trim_start_matches("0x").to_owned()
}

fn random(rng: &mut StdRng) -> Fr {
    let v: Vec<u64> = (0..5).map(|_| rng.next_u64()).collect();
    Fr::from_limbs_reduced(&v)
}

fn amaze_vectors(args: &VectorArgs) -> Result<(), Box<dyn std::error::Error>> {
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    // The four files appear together or not at all.
    let mut files = FileSet::new();
    let barrett = zkaccel_fp256::Fp256::<zkaccel_bn254::FrConfig>::barrett();
    let p = Fr::modulus();
    let mut consts = String::new();
    writeln!(
        consts,
        "// Generated by `zkaccel hw amaze-vectors`: BN254 Fr and its Barrett constants."
    )?;
    writeln!(
        consts,
        "// Included by every AMAZE module; each uses only some of the constants."
    )?;
    writeln!(consts, "/* verilator lint_off UNUSEDPARAM */")?;
    writeln!(consts, "localparam int AmzWidth = {};", barrett.n)?;
    writeln!(
        consts,
        "localparam logic [{}:0] AmzModulus = {}'h{};",
        barrett.n - 1,
        barrett.n,
        &limbs::to_hex(&p, 64)[2..]
    )?;
    writeln!(
        consts,
        "localparam logic [{}:0] AmzBarrettZ = {}'h{};",
        barrett.n,
        barrett.n + 1,
        &limbs::to_hex(&barrett.z, 64)[2..]
    )?;
    writeln!(
        consts,
        "localparam int AmzResidueBits = {};",
        barrett.residue_bits
    )?;
    writeln!(consts, "/* verilator lint_on UNUSEDPARAM */")?;
    files.add(&args.out.join("amz_consts.svh"), &consts)?;

    let mimc = Preset::Circomlib.cipher();
    let mut rom = String::new();
    for c in mimc.params().constants() {
        writeln!(rom, "{}", hex(c))?;
    }
    files.add(&args.out.join("round_constants.memh"), &rom)?;

    let mut rng = StdRng::seed_from_u64(args.seed);
    let edges = [Fr::ZERO, Fr::ONE, Fr::NEG_ONE];
    let mut inputs: Vec<(Fr, Fr)> = Vec::new();
    for &x in &edges {
        for &k in &edges {
            inputs.push((x, k));
        }
    }
    // At most MAX_VECTORS, so the counts fit a usize.
    let count = args.count as usize;
    while inputs.len() < count {
        inputs.push((random(&mut rng), random(&mut rng)));
    }
    inputs.truncate(count);
    let (xs, ks): (Vec<Fr>, Vec<Fr>) = inputs.iter().copied().unzip();
    let outs = mimc.encrypt_batch(&xs, &ks)?;
    let mut text = String::new();
    for ((x, k), y) in xs.iter().zip(&ks).zip(&outs) {
        writeln!(text, "{} {} {}", hex(x), hex(k), hex(y))?;
    }
    files.add(&args.out.join("cipher_vectors.hex"), &text)?;

    let mut text = String::new();
    for i in 0..args.hashes {
        let n = 1 + i % 4;
        let key = if i % 3 == 0 {
            Fr::ZERO
        } else {
            random(&mut rng)
        };
        let msg: Vec<Fr> = (0..n).map(|_| random(&mut rng)).collect();
        let h = mimc.hash(&msg, key);
        write!(text, "{n} {}", hex(&key))?;
        for m in &msg {
            write!(text, " {}", hex(m))?;
        }
        writeln!(text, " {}", hex(&h))?;
    }
    files.add(&args.out.join("hash_vectors.hex"), &text)?;
    files.commit()?;
    eprintln!(
        "wrote {} cipher and {} hash vectors to {}",
        args.count,
        args.hashes,
        args.out.display()
    );
    Ok(())
}

/// `mont_vectors_<W>.hex`: per line `p p' a b c` (hex, `W/4` digits each), with
/// `p' = −p^{−1} mod 2^W` and `c = a·b·2^{−W} mod p`, for each modulus of the width; the
/// operands are edge values (0, 1, 2, p − 1, p − 2, `2^W mod p`, `2^{2W} mod p`) paired with
/// each other, then random values below `p`.
fn mont_vectors(args: &MontVectorArgs) -> Result<(), Box<dyn std::error::Error>> {
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let mut rng = StdRng::seed_from_u64(args.seed);
    let (bits, text) = match args.width {
        MontWidth::W256 => {
            let moduli = [
                zkaccel_bn254::Fr::modulus(),
                zkaccel_bls12_381::Fr::modulus(),
                random_odd_modulus::<4>(&mut rng),
            ];
            (256, mont_lines(&moduli, args.count, &mut rng)?)
        }
        MontWidth::W384 => {
            use zkaccel_fp384::Fp384Config;
            let p384 = zkaccel_fp384::NistP384::MODULUS;
            let moduli = [
                zkaccel_bls12_377::Fq::modulus(),
                p384,
                random_odd_modulus::<6>(&mut rng),
            ];
            (384, mont_lines(&moduli, args.count, &mut rng)?)
        }
    };
    let path = args.out.join(format!("mont_vectors_{bits}.hex"));
    write_atomically(&path, &text)?;
    eprintln!(
        "wrote {} products per modulus ({bits} bits) to {}",
        args.count,
        path.display()
    );
    Ok(())
}

/// An odd modulus with its top bit set (the full width, where the carries are hardest).
fn random_odd_modulus<const N: usize>(rng: &mut StdRng) -> [u64; N] {
    let mut p: [u64; N] = core::array::from_fn(|_| rng.next_u64());
    p[0] |= 1;
    p[N - 1] |= 1 << 63;
    p
}

/// The vector lines of [`mont_vectors`] for each modulus.
fn mont_lines<const N: usize>(
    moduli: &[[u64; N]],
    count: u64,
    rng: &mut StdRng,
) -> Result<String, std::fmt::Error> {
    let digits = 16 * N;
    let word_hex = |w: &[u64; N]| limbs::to_hex(w, digits)[2..].to_owned();
    let mut text = String::new();
    for p in moduli {
        let m = MontgomeryWords::<N>::new(*p);
        let (p_hex, inv_hex) = (word_hex(p), word_hex(&m.neg_inverse()));
        let small = |v: u64| -> [u64; N] { core::array::from_fn(|i| if i == 0 { v } else { 0 }) };
        let minus = |v: u64| -> [u64; N] { m.sub(&[0; N], &small(v)) };
        let edges = [small(0), small(1), small(2), minus(1), minus(2), m.r, m.r2];
        let mut operands: Vec<([u64; N], [u64; N])> = Vec::new();
        for a in &edges {
            for b in &edges {
                operands.push((*a, *b));
            }
        }
        let below_p = |rng: &mut StdRng| -> [u64; N] {
            let wide: Vec<u64> = (0..2 * N).map(|_| rng.next_u64()).collect();
            let r = limbs::rem(&wide, p);
            core::array::from_fn(|i| r.get(i).copied().unwrap_or(0))
        };
        // At most MAX_VECTORS, so the count fits a usize.
        let count = count as usize;
        while operands.len() < count {
            operands.push((below_p(rng), below_p(rng)));
        }
        operands.truncate(count);
        for (a, b) in &operands {
            let c = m.mul(a, b);
            writeln!(
                text,
                "{p_hex} {inv_hex} {} {} {}",
                word_hex(a),
                word_hex(b),
                word_hex(&c)
            )?;
        }
    }
    Ok(text)
}

/// `ntt_vectors_<field>_<log_points>.hex`, one hexadecimal word per line (`W/4` digits):
/// a header line `width log_points subtasks` (decimal), the modulus, `P' = −P^{−1} mod 2^W`,
/// the twiddles `ω^k` for `k < 2^(log_points−1)` with `ω = F::two_adic_generator(log_points)`,
/// then the sub-tasks' inputs, then their transforms (zkaccel-ntt's forward NTT, natural order
/// in, bit-reversed order out), all in Montgomery form (`x·2^W mod P`).
fn ntt_vectors(args: &NttVectorArgs) -> Result<(), Box<dyn std::error::Error>> {
    let log_points = args.log_points as usize;
    if (args.subtasks as u64) << log_points > MAX_NTT_POINTS {
        return Err(format!(
            "{} sub-tasks of 2^{log_points} points: at most {MAX_NTT_POINTS} points in all",
            args.subtasks
        )
        .into());
    }
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let text = match args.field {
        NttField::Bn254Fr => ntt_lines::<zkaccel_bn254::Fr, 4>(args, log_points)?,
        NttField::Bls12_381Fr => ntt_lines::<zkaccel_bls12_381::Fr, 4>(args, log_points)?,
        NttField::Bls12_377Fq => ntt_lines::<zkaccel_bls12_377::Fq, 6>(args, log_points)?,
    };
    let path = args.out.join(format!(
        "ntt_vectors_{}_{log_points}.hex",
        args.field.name()
    ));
    write_atomically(&path, &text)?;
    eprintln!(
        "wrote {} sub-tasks of 2^{log_points} points ({}) to {}",
        args.subtasks,
        args.field.name(),
        path.display()
    );
    Ok(())
}

/// The lines of [`ntt_vectors`] for a field of `N` words.
fn ntt_lines<F, const N: usize>(
    args: &NttVectorArgs,
    log_points: usize,
) -> Result<String, Box<dyn std::error::Error>>
where
    F: zkaccel_field::TwoAdicField + PrimeField,
{
    let hex = MontgomeryHex::<N>::new::<F>();
    let points = 1usize << log_points;
    let subtasks = args.subtasks as usize;
    let inputs = random_elements::<F, N>(args.seed, subtasks * points);
    let mut outputs = inputs.clone();
    zkaccel_ntt::NttPlan::<F>::new(log_points)?.forward_batch(
        &mut outputs,
        subtasks,
        zkaccel_ntt::Layout::PolynomialMajor,
        zkaccel_ntt::Order::NR,
    )?;
    let omega = F::two_adic_generator(log_points)?;

    let mut text = String::new();
    writeln!(text, "{} {log_points} {subtasks}", 64 * N)?;
    hex.constants(&mut text)?;
    let mut power = F::ONE;
    for _ in 0..points / 2 {
        writeln!(text, "{}", hex.montgomery(&power))?;
        power *= omega;
    }
    for x in inputs.iter().chain(&outputs) {
        writeln!(text, "{}", hex.montgomery(x))?;
    }
    Ok(text)
}

/// `ntt_four_step_<field>_<log_n>.hex`, one hexadecimal word per line: a header line
/// `width log_n log_points` (decimal, `log_points = log_n/2`, `M = 2^log_points`), the modulus,
/// `P'`, the core's twiddles `ω_M^k` (`k < M/2`), the scaling twiddles `ω_N^(n2·rev(t))` in
/// the first pass's output order (sub-task `n2`, output `t`, whose frequency is `rev(t)`), the
/// input, and zkaccel-ntt's transform in natural order; Montgomery form throughout.
fn ntt_four_step_vectors(args: &NttFourStepArgs) -> Result<(), Box<dyn std::error::Error>> {
    if !args.log_n.is_multiple_of(2) {
        return Err(format!(
            "--log-n {}: must be even (two passes of equal size)",
            args.log_n
        )
        .into());
    }
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let log_n = args.log_n as usize;
    let text = match args.field {
        NttField::Bn254Fr => four_step_lines::<zkaccel_bn254::Fr, 4>(args.seed, log_n)?,
        NttField::Bls12_381Fr => four_step_lines::<zkaccel_bls12_381::Fr, 4>(args.seed, log_n)?,
        NttField::Bls12_377Fq => four_step_lines::<zkaccel_bls12_377::Fq, 6>(args.seed, log_n)?,
    };
    let path = args
        .out
        .join(format!("ntt_four_step_{}_{log_n}.hex", args.field.name()));
    write_atomically(&path, &text)?;
    eprintln!(
        "wrote a 2^{log_n}-point four-step task ({}) to {}",
        args.field.name(),
        path.display()
    );
    Ok(())
}

/// A field's words and their Montgomery form in hexadecimal, for the vector writers.
struct MontgomeryHex<const N: usize> {
    modulus: [u64; N],
    mont: MontgomeryWords<N>,
}

impl<const N: usize> MontgomeryHex<N> {
    fn new<F: PrimeField>() -> Self {
        let modulus = Self::words::<F>(F::modulus());
        Self {
            modulus,
            mont: MontgomeryWords::<N>::new(modulus),
        }
    }

    fn words<F: PrimeField>(limbs: F::Limbs) -> [u64; N] {
        let l = limbs.as_ref();
        core::array::from_fn(|i| l.get(i).copied().unwrap_or(0))
    }

    fn word(&self, w: &[u64; N]) -> String {
        limbs::to_hex(w, 16 * N)[2..].to_owned()
    }

    fn montgomery<F: PrimeField>(&self, x: &F) -> String {
        self.word(
            &self
                .mont
                .to_montgomery(&Self::words::<F>(x.to_canonical_limbs())),
        )
    }

    /// The header's modulus and `P'` lines.
    fn constants(&self, text: &mut String) -> std::fmt::Result {
        writeln!(text, "{}", self.word(&self.modulus))?;
        writeln!(text, "{}", self.word(&self.mont.neg_inverse()))
    }
}

/// `count` random field elements from `seed`.
fn random_elements<F: PrimeField, const N: usize>(seed: u64, count: usize) -> Vec<F> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let wide: Vec<u64> = (0..2 * N).map(|_| rng.next_u64()).collect();
            F::from_limbs_reduced(&wide)
        })
        .collect()
}

/// The lines of [`ntt_four_step_vectors`].
fn four_step_lines<F, const N: usize>(
    seed: u64,
    log_n: usize,
) -> Result<String, Box<dyn std::error::Error>>
where
    F: zkaccel_field::TwoAdicField + PrimeField,
{
    let hex = MontgomeryHex::<N>::new::<F>();
    let log_points = log_n / 2;
    let points = 1usize << log_points;
    let input = random_elements::<F, N>(seed, 1 << log_n);
    let mut output = input.clone();
    zkaccel_ntt::NttPlan::<F>::new(log_n)?.forward(&mut output, zkaccel_ntt::Order::NN)?;
    let omega_m = F::two_adic_generator(log_points)?;
    let omega_n = F::two_adic_generator(log_n)?;

    let mut text = String::new();
    writeln!(text, "{} {log_n} {log_points}", 64 * N)?;
    hex.constants(&mut text)?;
    let mut power = F::ONE;
    for _ in 0..points / 2 {
        writeln!(text, "{}", hex.montgomery(&power))?;
        power *= omega_m;
    }
    // Sub-task n2's output t is frequency k1 = rev(t): its twiddle is ω_N^(n2·k1).
    for n2 in 0..points {
        let row = omega_n.exp_u64(n2 as u64);
        for t in 0..points {
            let k1 = zkaccel_ntt::reverse_bits(t, log_points);
            writeln!(text, "{}", hex.montgomery(&row.exp_u64(k1 as u64)))?;
        }
    }
    for x in input.iter().chain(&output) {
        writeln!(text, "{}", hex.montgomery(x))?;
    }
    Ok(text)
}

/// The most input and output lanes one `acclmt-vectors` file holds (~260 MB of text).
const MAX_ACCLMT_WORDS: u64 = 4_000_000;

/// The AcclMT engine's vectors (`hw/acclmt`): a header line `width t alpha full_rounds
/// partial_rounds count` (decimal), then hexadecimal words (`W/4` digits): the modulus, `P'`,
/// Montgomery one (`2^W mod P`); a count and that many `address word` lines (the uniform
/// rounds' constants and the beats' blocks, [`crate::acclmt_program`]); then per permutation
/// its `t` input lanes and zkaccel-poseidon's `t` output lanes — Montgomery form
/// (`x·2^W mod P`) throughout.
fn acclmt_vectors(args: &AcclmtVectorArgs) -> Result<(), Box<dyn std::error::Error>> {
    use zkaccel_poseidon::reference::reference_params;
    use zkaccel_presets::{circomlib, neptune};

    let width = args.arity as usize + 1;
    // Each permutation is 2t lines of W/4 + 1 bytes, built in memory before the atomic write.
    let words = args.count.saturating_mul(2 * width as u64);
    if words > MAX_ACCLMT_WORDS {
        return Err(format!(
            "{} permutations of width {width}: at most {MAX_ACCLMT_WORDS} state words (~{} MB) in one file",
            args.count,
            MAX_ACCLMT_WORDS * 65 / 1_000_000
        )
        .into());
    }
    let field = match (args.preset, args.field) {
        (AcclmtPreset::Neptune, None | Some(AcclmtField::Bls12_381)) => AcclmtField::Bls12_381,
        (AcclmtPreset::Circomlib, None | Some(AcclmtField::Bn254)) => AcclmtField::Bn254,
        (AcclmtPreset::Reference, field) => field.unwrap_or(AcclmtField::Bls12_381),
        (preset, Some(field)) => {
            return Err(
                format!("--field {field:?}: the {preset:?} preset has its own field").into(),
            )
        }
    };
    let custom =
        args.alpha.is_some() || args.full_rounds.is_some() || args.partial_rounds.is_some();
    if custom && args.preset != AcclmtPreset::Reference {
        return Err("--alpha, --full-rounds and --partial-rounds set up --preset reference".into());
    }
    if args.full_rounds.is_some() != args.partial_rounds.is_some() {
        return Err("--full-rounds and --partial-rounds go together".into());
    }
    let reference_rounds = |alpha: u64| -> Result<(usize, usize), Box<dyn std::error::Error>> {
        Ok(match (args.full_rounds, args.partial_rounds) {
            (Some(rf), Some(rp)) => (rf as usize, rp as usize),
            _ => {
                let bits = match field {
                    AcclmtField::Bls12_381 => {
                        zkaccel_poseidon::reference::log2_modulus::<zkaccel_bls12_381::Fr>()
                    }
                    AcclmtField::Bn254 => zkaccel_poseidon::reference::log2_modulus::<Fr>(),
                };
                zkaccel_poseidon::rounds::reference_round_numbers(bits, width, alpha)?
            }
        })
    };
    let text = match (args.preset, field) {
        (AcclmtPreset::Neptune, _) => {
            let params = neptune::params::<zkaccel_bls12_381::Fr>(width - 1, Strength::Standard)?;
            acclmt_lines::<_, 4>(&params, args)?
        }
        (AcclmtPreset::Circomlib, _) => acclmt_lines::<_, 4>(&circomlib::params(width)?, args)?,
        (AcclmtPreset::Reference, field) => {
            let alpha = args.alpha.unwrap_or(5);
            let (rf, rp) = reference_rounds(alpha)?;
            match field {
                AcclmtField::Bls12_381 => {
                    let params = reference_params::<zkaccel_bls12_381::Fr>(width, alpha, rf, rp)?;
                    acclmt_lines::<_, 4>(&params, args)?
                }
                AcclmtField::Bn254 => {
                    acclmt_lines::<_, 4>(&reference_params::<Fr>(width, alpha, rf, rp)?, args)?
                }
            }
        }
    };
    write_atomically(&args.out, &text)?;
    eprintln!(
        "wrote {} permutations (t = {width}, {:?}) to {}",
        args.count,
        args.preset,
        args.out.display()
    );
    Ok(())
}

/// The header line `width t alpha full_rounds partial_rounds <last>` and the engine's
/// configuration (the modulus, `P'`, Montgomery one, then a count and that many `address word`
/// lines: the uniform rounds' constants and the beats' blocks, [`crate::acclmt_program`]) of
/// `params`.
fn acclmt_config_lines<F: PrimeField, const N: usize>(
    params: &zkaccel_poseidon::PoseidonParams<F>,
    hex: &MontgomeryHex<N>,
    last: &str,
    text: &mut String,
) -> Result<(), Box<dyn std::error::Error>> {
    writeln!(
        text,
        "{} {} {} {} {} {last}",
        64 * N,
        params.width(),
        params.alpha(),
        params.full_rounds(),
        params.partial_rounds()
    )?;
    hex.constants(text)?;
    writeln!(text, "{}", hex.word(&hex.mont.r))?;
    let uniform = zkaccel_poseidon::UniformRounds::derive(params)?;
    let words = crate::acclmt_program::field_words(&uniform);
    writeln!(text, "{}", words.len())?;
    for (address, x) in &words {
        writeln!(text, "{address} {}", hex.montgomery(x))?;
    }
    Ok(())
}

/// The AcclMT S-box's vectors (`hw/acclmt`'s acclmt_sbox bench): a header line `width alpha
/// count` (decimal), then hexadecimal words (`W/4` digits): the modulus, `P'`, Montgomery one
/// (`2^W mod P`), and `count` lines `x y` with `y = x^α` by the field's own arithmetic (the
/// golden model, tested against arkworks), 0, 1 and p − 1 first — Montgomery form.
fn acclmt_sbox_vectors(args: &AcclmtSboxArgs) -> Result<(), Box<dyn std::error::Error>> {
    if ![3, 5, 7].contains(&args.alpha) {
        return Err(format!("--alpha {}: the S-box takes 3, 5 or 7", args.alpha).into());
    }
    let text = match args.field {
        AcclmtField::Bls12_381 => acclmt_sbox_lines::<zkaccel_bls12_381::Fr, 4>(args)?,
        AcclmtField::Bn254 => acclmt_sbox_lines::<Fr, 4>(args)?,
    };
    write_atomically(&args.out, &text)?;
    eprintln!(
        "wrote {} S-box vectors (x^{}, {:?}) to {}",
        args.count,
        args.alpha,
        args.field,
        args.out.display()
    );
    Ok(())
}

fn acclmt_sbox_lines<F: PrimeField, const N: usize>(
    args: &AcclmtSboxArgs,
) -> Result<String, std::fmt::Error> {
    let hex = MontgomeryHex::<N>::new::<F>();
    let count = args.count as usize;
    let mut text = String::new();
    writeln!(text, "{} {} {count}", 64 * N, args.alpha)?;
    hex.constants(&mut text)?;
    writeln!(text, "{}", hex.word(&hex.mont.r))?;
    let edges = [F::ZERO, F::ONE, -F::ONE];
    let inputs = edges
        .into_iter()
        .chain(random_elements::<F, N>(args.seed, count))
        .take(count);
    for x in inputs {
        let y = x.exp_u64(args.alpha);
        writeln!(text, "{} {}", hex.montgomery(&x), hex.montgomery(&y))?;
    }
    Ok(text)
}

/// The deepest tree of one `acclmt-tree-vectors` file (binary: 2^18 leaves, 2^19 elements).
const MAX_ACCLMT_TREE_LOG: i64 = 18;
/// The most elements of one `acclmt-tree-vectors` file (~34 MB of text).
const MAX_ACCLMT_TREE_ELEMENTS: usize = 1 << 19;

/// The depth of an `acclmt-tree-vectors` tree: `--depth`, or `--log-leaves` over log2(arity)
/// for a power-of-two arity; refused past [`MAX_ACCLMT_TREE_ELEMENTS`] elements.
fn acclmt_tree_depth(args: &AcclmtTreeArgs) -> Result<u32, String> {
    let arity = args.arity as usize;
    let depth = match (args.depth, args.log_leaves) {
        (Some(depth), _) => depth,
        (None, Some(log)) => {
            let arity_log = arity.trailing_zeros();
            if !arity.is_power_of_two() || !log.is_multiple_of(arity_log) {
                return Err(format!(
                    "2^{log} leaves is no power of the arity {arity}: give --depth (a tree of arity^depth leaves)"
                ));
            }
            log / arity_log
        }
        (None, None) => return Err("give --depth or --log-leaves".into()),
    };
    let elements = (0..=depth).try_fold(1usize, |e, _| {
        e.checked_mul(arity)
            .filter(|&e| e <= MAX_ACCLMT_TREE_ELEMENTS)
    });
    if elements.is_none() {
        return Err(format!(
            "{arity}^{depth} leaves of arity {arity}: at most 2^19 elements (arity^(depth + 1))"
        ));
    }
    Ok(depth)
}

/// The AcclMT Merkle controller's tree (`hw/acclmt`'s acclmt_tree): the header line `width t
/// alpha full_rounds partial_rounds depth digest_lane` (t = arity + 1), the engine's
/// configuration as in `acclmt-vectors`, the domain tag, the `arity^(depth + 1)` elements,
/// then the root of zkaccel-merkle's arity-`arity` tree over them (neptune's or circomlib's node
/// hash; its first layer is the controller's leaf hashes) — Montgomery form.
fn acclmt_tree_vectors(args: &AcclmtTreeArgs) -> Result<(), Box<dyn std::error::Error>> {
    use zkaccel_merkle::MerkleTree;
    use zkaccel_presets::{circomlib, neptune};

    let arity = args.arity as usize;
    let depth = acclmt_tree_depth(args)?;
    let elements = arity.pow(depth + 1);
    let mut text = String::new();
    match args.preset {
        AcclmtTreePreset::Neptune => {
            type Bls = zkaccel_bls12_381::Fr;
            let node = NeptunePoseidon::<Bls>::new(arity, Strength::Standard)?;
            let tag = node.merkle_tag();
            let params = neptune::params::<Bls>(arity, Strength::Standard)?;
            let leaves = random_elements::<Bls, 4>(args.seed, elements);
            let tree = MerkleTree::new(NeptuneHasher::new(node), leaves.clone(), 1, 0)?;
            tree_lines::<_, 4>(&params, depth, tag, 1, &leaves, &tree.cap()[0], &mut text)?;
        }
        AcclmtTreePreset::Circomlib => {
            let params = circomlib::params(arity + 1)?;
            let leaves = random_elements::<Fr, 4>(args.seed, elements);
            let hasher = CircomHasher::new(CircomPoseidon::get(arity + 1)?);
            let tree = MerkleTree::new(hasher, leaves.clone(), 1, 0)?;
            tree_lines::<_, 4>(
                &params,
                depth,
                Fr::ZERO,
                0,
                &leaves,
                &tree.cap()[0],
                &mut text,
            )?;
        }
    }
    write_atomically(&args.out, &text)?;
    eprintln!(
        "wrote a tree of {arity}^{depth} leaves of arity {arity} ({elements} elements, {:?}) to {}",
        args.preset,
        args.out.display()
    );
    Ok(())
}

/// The lines of [`acclmt_tree_vectors`] for one instance.
fn tree_lines<F: PrimeField, const N: usize>(
    params: &zkaccel_poseidon::PoseidonParams<F>,
    depth: u32,
    tag: F,
    digest_lane: usize,
    leaves: &[F],
    root: &F,
    text: &mut String,
) -> Result<(), Box<dyn std::error::Error>> {
    let hex = MontgomeryHex::<N>::new::<F>();
    acclmt_config_lines(params, &hex, &format!("{depth} {digest_lane}"), text)?;
    for x in core::iter::once(&tag).chain(leaves).chain([root]) {
        writeln!(text, "{}", hex.montgomery(x))?;
    }
    Ok(())
}

/// The lines of [`acclmt_vectors`] for one instance.
fn acclmt_lines<F: PrimeField, const N: usize>(
    params: &zkaccel_poseidon::PoseidonParams<F>,
    args: &AcclmtVectorArgs,
) -> Result<String, Box<dyn std::error::Error>> {
    let hex = MontgomeryHex::<N>::new::<F>();
    let t = params.width();
    let perm = zkaccel_poseidon::Poseidon::new(params.clone())?;
    let count = args.count as usize;
    let mut text = String::new();
    acclmt_config_lines(params, &hex, &count.to_string(), &mut text)?;
    // Edge states, then random ones: all 0, all 1, all p − 1, and 0, 1, …, t − 1 (circomlib's
    // hash of 1, …, t − 1, a known answer).
    let ramp: Vec<F> = (0..t as u64).map(F::from_u64_reduced).collect();
    let edges = [vec![F::ZERO; t], vec![F::ONE; t], vec![F::NEG_ONE; t], ramp];
    let random = random_elements::<F, N>(args.seed, count.saturating_sub(edges.len()) * t);
    let states = edges
        .into_iter()
        .chain(random.chunks(t).map(<[F]>::to_vec))
        .take(count);
    for state in states {
        let mut out = state.clone();
        perm.permute(&mut out)?;
        for x in state.iter().chain(&out) {
            writeln!(text, "{}", hex.montgomery(x))?;
        }
    }
    Ok(text)
}

/// Runs an `hw` subcommand.
pub fn run(cmd: &HwCommand) -> Result<(), Box<dyn std::error::Error>> {
    match cmd {
        HwCommand::Amaze(args) => amaze_vectors(args),
        HwCommand::Mont(args) => mont_vectors(args),
        HwCommand::Ntt(args) => ntt_vectors(args),
        HwCommand::NttFourStep(args) => ntt_four_step_vectors(args),
        HwCommand::Acclmt(args) => acclmt_vectors(args),
        HwCommand::AcclmtTree(args) => acclmt_tree_vectors(args),
        HwCommand::AcclmtSbox(args) => acclmt_sbox_vectors(args),
    }
}
