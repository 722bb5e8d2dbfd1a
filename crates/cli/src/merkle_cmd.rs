//! `zkaccel merkle build|open|verify`.

use std::fmt::Write as _;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::time::Instant;
use zkaccel_merkle::text_rows::{is_blank, split_row};
use zkaccel_presets::Strength;
use zkaccel_registry::{RegisteredHasher, TreeSpec, TreeSpecError, TreeVisitor};

use clap::{Args, Subcommand, ValueEnum};
use serde_json::json;
use zkaccel_field::{Field, PrimeField};
use zkaccel_merkle::{
    build_streaming, build_streaming_to_disk, verify, DiskTree, MerkleCommitment, MerkleError,
    MerkleProof, MerkleTree, StreamConfig, TreeHasher, DEFAULT_SUBTREE_LEAVES,
};

use crate::inputs::{alloc_within, check_budget, generate_rows, parse_one, parse_size, Origin};
use crate::poseidon_cmd::StrengthName;
use crate::Rejected;
use zkaccel_plot::files::{check_distinct_outputs, read_limited, BoundedLines, FileSet};

#[derive(Subcommand)]
pub enum MerkleCommand {
    /// Build a tree in bounded memory (AcclMT subtrees) and print its cap (root when
    /// --cap-height is 0), one digest per line.
    Build(BuildArgs),
    /// Build a tree in memory and write an opening (leaves + multiproof) for some leaves.
    Open(OpenArgs),
    /// Check an opening against a commitment (written by `merkle build --commitment`).
    /// Exit status: 0 verified, 1 rejected (the opening does not verify), 2 bad input.
    Verify(VerifyArgs),
}

/// Tree presets.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum TreePreset {
    /// plonky2 `MerkleTree` (Goldilocks rows hashed with hash_or_noop, binary, caps).
    Plonky2,
    /// neptune (BLS12-381, arity 2/4/8/11…, leaves are single elements).
    Neptune,
    /// circomlib Poseidon over BN254 (arity 2 to 16, leaves are single elements).
    Circomlib,
}

#[derive(Args, Clone)]
pub struct TreeArgs {
    /// The standard to match.
    #[arg(long, value_enum)]
    preset: TreePreset,
    /// Children per node (neptune, circomlib; plonky2 is binary).
    #[arg(long, default_value_t = 2)]
    arity: usize,
    /// neptune only: the strength (default standard).
    #[arg(long, value_enum)]
    strength: Option<StrengthName>,
    /// Height of the cap (0 = a single root).
    #[arg(long, default_value_t = 0)]
    cap_height: usize,
    /// Leaves: one per line, elements separated by commas or spaces, decimal or 0x hex.
    #[arg(long, conflicts_with = "leaves")]
    input: Option<PathBuf>,
    /// Generate this many leaves instead (a power of the arity).
    #[arg(long, requires = "leaf_width")]
    leaves: Option<u64>,
    /// Elements per generated leaf.
    #[arg(long)]
    leaf_width: Option<usize>,
    /// Seed of generated leaves (ChaCha8); without it leaf i is [i·1000003 + j]_j.
    #[arg(long)]
    seed: Option<u64>,
}

impl TreeArgs {
    /// The strength asked for (default standard); refused for presets that have none.
    fn strength(&self) -> Result<Strength, Boxed> {
        match (self.preset, self.strength) {
            (TreePreset::Neptune, s) => Ok(s.unwrap_or(StrengthName::Standard).into()),
            (_, None) => Ok(Strength::Standard),
            (_, Some(_)) => Err("--strength applies to --preset neptune only".into()),
        }
    }
}

#[derive(Args)]
pub struct BuildArgs {
    #[command(flatten)]
    tree: TreeArgs,
    /// Leaves per standard subtree.
    #[arg(long, default_value_t = DEFAULT_SUBTREE_LEAVES)]
    subtree_leaves: usize,
    /// The most memory the build may hold (bytes; K, M, G suffixes).
    #[arg(long, default_value = "1G")]
    memory_budget: String,
    /// Print a JSON object (cap, timing, memory) instead of the cap.
    #[arg(long)]
    json: bool,
    /// Also write the output to this file (atomically).
    #[arg(long)]
    output: Option<PathBuf>,
    /// Also write the commitment (cap, hash, number of leaves, leaf width) as JSON to this
    /// file (atomically): what `merkle verify --commitment` checks openings against.
    #[arg(long)]
    commitment: Option<PathBuf>,
    /// Also keep the leaves and every level in this new directory (a tree store), for
    /// `merkle open --store` later; written under a temporary name and renamed when complete.
    #[arg(long)]
    store: Option<PathBuf>,
}

#[derive(Args)]
pub struct OpenArgs {
    #[command(flatten)]
    tree: TreeArgs,
    /// Leaf indices to open (repeat or separate with commas).
    #[arg(long, value_delimiter = ',', required = true)]
    index: Vec<u64>,
    /// Where to write the opening (JSON, written atomically).
    #[arg(long)]
    output: PathBuf,
    /// The most memory the in-memory tree may hold (bytes; K, M, G suffixes): its leaf rows
    /// and every level. Larger trees: `merkle build --store`, then `open --store`.
    #[arg(long, default_value = "1G")]
    memory_budget: String,
    /// Open from a tree store written by `merkle build --store` instead of rebuilding the
    /// tree in memory (no --input or --leaves then).
    #[arg(long, conflicts_with_all = ["input", "leaves"])]
    store: Option<PathBuf>,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// The opening written by `zkaccel merkle open`.
    #[arg(long)]
    opening: PathBuf,
    /// The commitment written by `zkaccel merkle build --commitment` (or its `--json`
    /// output): the verifier takes the tree's shape and hash from it, never from the opening.
    #[arg(long)]
    commitment: PathBuf,
}

/// Peak resident memory of this process (Linux `VmHWM`), in bytes.
fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

type Boxed = Box<dyn std::error::Error>;

/// The longest line of a leaf file, in bytes (and never more than the memory budget).
pub const MAX_LEAF_LINE: usize = 64 << 20;

/// Rows of a leaf file, parsed lazily (the file is never held whole in memory, nor any line
/// longer than its bound).
struct FileRows<F> {
    path: PathBuf,
    lines: BoundedLines<BufReader<std::fs::File>>,
    width: usize,
    _f: core::marker::PhantomData<F>,
}

impl<F: PrimeField> FileRows<F> {
    /// Opens the file and counts its rows and their width (first pass). The file is read twice,
    /// so it must be a regular file (not a FIFO or a device).
    fn open(path: &Path, max_line: usize) -> Result<(Self, u64), Boxed> {
        let io = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
        let file = std::fs::File::open(path).map_err(io)?;
        if !file.metadata().map_err(io)?.is_file() {
            return Err(format!(
                "{}: not a regular file (leaves are read twice: counted, then hashed)",
                path.display()
            )
            .into());
        }
        let (mut rows, mut width) = (0u64, None);
        for line in BoundedLines::new(BufReader::new(file), max_line) {
            let (n, line) = line.map_err(io)?;
            if is_blank(&line) {
                continue;
            }
            let w = split_row(&line).count();
            if w == 0 {
                return Err(format!(
                    "{}:{n}: leaf width 0 (a row of separators only)",
                    path.display()
                )
                .into());
            }
            match width {
                None => width = Some(w),
                Some(expected) if expected != w => {
                    return Err(format!(
                        "{}:{n}: {w} elements, but the first leaf has {expected}",
                        path.display()
                    )
                    .into())
                }
                _ => {}
            }
            rows += 1;
        }
        let width = width.ok_or_else(|| format!("{}: no leaves", path.display()))?;
        let file = std::fs::File::open(path).map_err(io)?;
        Ok((
            Self {
                path: path.to_owned(),
                lines: BoundedLines::new(BufReader::new(file), max_line),
                width,
                _f: core::marker::PhantomData,
            },
            rows,
        ))
    }

    fn fill(&mut self, out: &mut [F]) -> Result<(), MerkleError> {
        for row in out.chunks_mut(self.width) {
            let (line_no, line) = loop {
                match self.lines.next() {
                    Some(Ok((_, l))) if is_blank(&l) => continue,
                    Some(Ok(l)) => break l,
                    Some(Err(e)) => {
                        return Err(source_error(format!("{}: {e}", self.path.display())))
                    }
                    None => {
                        return Err(source_error(format!(
                            "{}: the file changed while reading",
                            self.path.display()
                        )))
                    }
                }
            };
            if split_row(&line).count() != self.width {
                return Err(source_error(format!(
                    "{}:{line_no}: the file changed while reading",
                    self.path.display()
                )));
            }
            for (slot, v) in row.iter_mut().zip(split_row(&line)) {
                *slot = parse_one(v, Origin::Line(self.path.clone(), line_no))
                    .map_err(|e| source_error(e.to_string()))?;
            }
        }
        Ok(())
    }
}

/// The leaf file's own failure, in its words (the path and line are in the message).
fn source_error(message: String) -> MerkleError {
    MerkleError::LeafSource(zkaccel_merkle::LeafSourceError::Other { message })
}

/// A leaf stream: a file, or generated rows.
enum Leaves<F> {
    File(FileRows<F>),
    Generated {
        width: usize,
        seed: Option<u64>,
        next: u64,
    },
}

impl<F: PrimeField> zkaccel_merkle::LeafSource<F> for Leaves<F> {
    fn fill(&mut self, out: &mut [F]) -> Result<(), MerkleError> {
        match self {
            Leaves::File(f) => f.fill(out),
            Leaves::Generated { width, seed, next } => {
                generate_rows(out, *width, *next, *seed);
                *next += (out.len() / *width) as u64;
                Ok(())
            }
        }
    }
}

fn leaves<F: PrimeField>(a: &TreeArgs, budget: u64) -> Result<(Leaves<F>, u64, usize), Boxed> {
    match (&a.input, a.leaves) {
        (Some(path), _) => {
            let max_line =
                usize::try_from(budget.min(MAX_LEAF_LINE as u64)).unwrap_or(MAX_LEAF_LINE);
            let (rows, n) = FileRows::open(path, max_line)?;
            let w = rows.width;
            Ok((Leaves::File(rows), n, w))
        }
        (None, Some(n)) => {
            let width = a.leaf_width.unwrap_or(1);
            if width == 0 || width > zkaccel_merkle::limits::MAX_LEAF_WIDTH {
                return Err(format!(
                    "--leaf-width {width}: a leaf row has 1 to {} elements",
                    zkaccel_merkle::limits::MAX_LEAF_WIDTH
                )
                .into());
            }
            Ok((
                Leaves::Generated {
                    width,
                    seed: a.seed,
                    next: 0,
                },
                n,
                width,
            ))
        }
        (None, None) => Err("give --input FILE or --leaves N --leaf-width W".into()),
    }
}

fn digest_line<H: TreeHasher>(d: &H::Digest) -> String {
    H::digest_elements(d)
        .iter()
        .map(|e| e.to_decimal_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn build<H: TreeHasher + Clone>(hasher: H, a: &BuildArgs) -> Result<(), Boxed> {
    check_distinct_outputs(&[
        ("--output", a.output.as_deref()),
        ("--commitment", a.commitment.as_deref()),
        ("--store", a.store.as_deref()),
    ])?;
    let (mut source, n, width) = leaves::<H::Element>(&a.tree, parse_size(&a.memory_budget)?)?;
    let mut config = StreamConfig::new(n, width);
    config.cap_height = a.tree.cap_height;
    config.subtree_leaves = a.subtree_leaves;
    config.memory_budget = parse_size(&a.memory_budget)?;
    let bar = indicatif::ProgressBar::new(n);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} leaves, {per_sec}, eta {eta}",
        )
        .expect("valid template"),
    );
    let start = Instant::now();
    let out = match &a.store {
        Some(dir) => {
            build_streaming_to_disk(&hasher, config, &mut source, dir, |done| {
                bar.set_position(done)
            })?
            .0
        }
        None => build_streaming(&hasher, config, &mut source, |done| bar.set_position(done))?,
    };
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let cap: Vec<String> = out.commitment.cap().iter().map(digest_line::<H>).collect();
    let commitment = commitment_json(&hasher, &out.commitment);
    // The output and the commitment appear together, or neither does.
    let mut files = FileSet::new();
    if let Some(path) = &a.commitment {
        files.add(path, serde_json::to_string_pretty(&commitment)? + "\n")?;
    }
    let text = if a.json {
        json!({
            "preset": H::NAME, "arity": hasher.arity(), "num_leaves": n, "leaf_width": width,
            "cap_height": a.tree.cap_height, "cap": commitment["cap"], "seconds": seconds,
            "commitment": commitment,
            "leaves_per_second": n as f64 / seconds, "subtree_leaves": out.subtree_leaves,
            "subtrees_per_batch": out.subtrees_per_batch, "buffer_bytes": out.buffer_bytes,
            "memory_budget": config.memory_budget, "peak_rss_bytes": peak_rss_bytes(),
        })
        .to_string()
            + "\n"
    } else {
        cap.iter().fold(String::new(), |mut s, l| {
            let _ = writeln!(s, "{l}");
            s
        })
    };
    if let Some(path) = &a.output {
        files.add(path, &text)?;
    }
    files.commit()?;
    print!("{text}");
    Ok(())
}

fn in_memory_tree<H: TreeHasher>(
    hasher: H,
    a: &TreeArgs,
    budget: u64,
) -> Result<MerkleTree<H>, Boxed> {
    let (mut source, n, width) = leaves::<H::Element>(a, budget)?;
    zkaccel_merkle::exact_log(n, hasher.arity()).ok_or(MerkleError::LeafCount {
        leaves: n,
        arity: hasher.arity(),
    })?;
    // The levels take about two digests per leaf beside the rows.
    let digest_elements = 2 * H::DIGEST_ELEMENTS as u64;
    let elements = (width as u64)
        .checked_add(digest_elements)
        .and_then(|per_leaf| per_leaf.checked_mul(n));
    let what = format!("a tree of {n} leaves of width {width} in memory");
    let bytes = elements.and_then(|e| e.checked_mul(core::mem::size_of::<H::Element>() as u64));
    check_budget(bytes, &what, budget, "--memory-budget")
        .map_err(|e| format!("{e}; build it with --store and open --store"))?;
    let mut flat = alloc_within(
        n * width as u64,
        H::Element::ZERO,
        &what,
        budget,
        "--memory-budget",
    )?;
    zkaccel_merkle::LeafSource::fill(&mut source, &mut flat)?;
    Ok(MerkleTree::new(hasher, flat, width, a.cap_height)?)
}

fn open<H: TreeHasher + Clone>(hasher: H, a: &OpenArgs) -> Result<(), Boxed> {
    let arity = hasher.arity();
    let hasher_variant = hasher.variant();
    let decimal =
        |row: &[H::Element]| -> Vec<String> { row.iter().map(|e| e.to_decimal_string()).collect() };
    let (proof, rows, cap_height) = match &a.store {
        Some(dir) => {
            let tree = DiskTree::open(hasher, dir)?;
            let proof = tree.prove(&a.index)?;
            let rows = proof
                .indices
                .iter()
                .map(|&i| Ok(decimal(&tree.leaf(i)?)))
                .collect::<Result<Vec<_>, MerkleError>>()?;
            (proof, rows, tree.cap_height())
        }
        None => {
            let tree = in_memory_tree(hasher, &a.tree, parse_size(&a.memory_budget)?)?;
            let proof = tree.prove(&a.index)?;
            let rows = proof
                .indices
                .iter()
                .map(|&i| {
                    tree.leaf(i)
                        .map(decimal)
                        .ok_or(MerkleError::IndexOutOfRange {
                            index: i,
                            leaves: tree.num_leaves(),
                        })
                })
                .collect::<Result<Vec<_>, _>>()?;
            (proof, rows, tree.cap_height())
        }
    };
    let opening = json!({
        "preset": H::NAME, "arity": arity,
        "strength": strength_name(hasher_variant),
        "cap_height": cap_height, "indices": proof.indices, "leaves": rows,
        "proof": hex::encode(proof.to_bytes::<H>()),
    });
    zkaccel_plot::write_atomically(&a.output, serde_json::to_string_pretty(&opening)? + "\n")?;
    println!("{}", a.output.display());
    Ok(())
}

const COMMITMENT_FORMAT: &str = "zkaccel-merkle-commitment";

/// The largest opening or commitment `merkle verify` reads, in bytes.
pub const MAX_JSON_BYTES: u64 = 64 << 20;

fn strength_name(variant: u8) -> &'static str {
    if variant == 1 {
        "strengthened"
    } else {
        "standard"
    }
}

/// The commitment as JSON: everything `MerkleCommitment::new` needs, and the field by name.
fn commitment_json<H: TreeHasher>(
    hasher: &H,
    c: &MerkleCommitment<H::Digest>,
) -> serde_json::Value {
    let cap: Vec<Vec<String>> = c
        .cap()
        .iter()
        .map(|d| {
            H::digest_elements(d)
                .iter()
                .map(|e| e.to_decimal_string())
                .collect()
        })
        .collect();
    json!({
        "format": COMMITMENT_FORMAT, "version": 1, "preset": H::NAME,
        "strength": strength_name(hasher.variant()), "field": H::Element::NAME,
        "arity": c.arity(), "num_leaves": c.num_leaves(), "leaf_width": c.leaf_width(),
        "cap_height": c.cap_height(), "cap": cap,
    })
}

/// A commitment read back from its JSON for `hasher` (chosen from the same JSON).
fn commitment_from_json<H: TreeHasher>(
    hasher: &H,
    v: &serde_json::Value,
) -> Result<MerkleCommitment<H::Digest>, Boxed> {
    if v["field"].as_str() != Some(H::Element::NAME) {
        return Err(format!("the commitment is not over {}", H::Element::NAME).into());
    }
    let count = |key: &str| -> Result<u64, Boxed> {
        v[key]
            .as_u64()
            .ok_or_else(|| format!("commitment without a valid {key:?}").into())
    };
    let width = usize::try_from(count("leaf_width")?).map_err(|_| "leaf width too large")?;
    let cap_height = usize::try_from(count("cap_height")?).map_err(|_| "cap height too large")?;
    let mut cap = Vec::new();
    for (k, elements) in json_rows::<H::Element>(&v["cap"], "cap")?
        .iter()
        .enumerate()
    {
        if elements.len() != H::DIGEST_ELEMENTS {
            return Err(format!("cap digest {k}: not {} elements", H::DIGEST_ELEMENTS).into());
        }
        cap.push(H::digest_from_elements(elements));
    }
    Ok(MerkleCommitment::new(
        hasher,
        count("num_leaves")?,
        width,
        cap_height,
        cap,
    )?)
}

/// A JSON list of lists of canonical decimal or hex strings (a cap's digests, an opening's
/// rows), named `what` in errors.
fn json_rows<F: PrimeField>(
    v: &serde_json::Value,
    what: &'static str,
) -> Result<Vec<Vec<F>>, Boxed> {
    let rows = v.as_array().ok_or_else(|| format!("no list of {what}"))?;
    let mut out = Vec::new();
    for (k, row) in rows.iter().enumerate() {
        let row = row
            .as_array()
            .ok_or_else(|| format!("{what} {k}: not a list"))?
            .iter()
            .map(|e| {
                let s = e
                    .as_str()
                    .ok_or_else(|| format!("{what} {k}: not a string"))?;
                parse_one(s, Origin::Option(what)).map_err(|e| e.to_string())
            })
            .collect::<Result<Vec<_>, String>>()?;
        out.push(row);
    }
    Ok(out)
}

/// The fields an opening carries; any other is refused (the statement shown is the statement
/// verified).
const OPENING_FIELDS: [&str; 7] = [
    "preset",
    "arity",
    "strength",
    "cap_height",
    "indices",
    "leaves",
    "proof",
];

/// Checks that every statement the opening makes agrees with the commitment and with the proof
/// it carries: its preset, arity, strength and cap height with the commitment's, its stated
/// indices (which must be present) with the proof's.
fn check_opening_statement<H: TreeHasher>(
    hasher: &H,
    opening: &serde_json::Map<String, serde_json::Value>,
    commitment: &serde_json::Value,
    proof_indices: &[u64],
) -> Result<(), String> {
    if let Some(key) = opening
        .keys()
        .find(|k| !OPENING_FIELDS.contains(&k.as_str()))
    {
        return Err(format!(
            "the opening carries a field {key:.40?} that this verifier does not check"
        ));
    }
    let stated = |key: &str| -> Result<&serde_json::Value, String> {
        opening
            .get(key)
            .ok_or_else(|| format!("the opening does not state its {key:?}"))
    };
    let agree = |key: &str, want: &serde_json::Value| -> Result<(), String> {
        let got = stated(key)?;
        if got != want {
            return Err(format!(
                "the opening states {key} {got:.40}, the commitment {want:.40}"
            ));
        }
        Ok(())
    };
    agree("preset", &json!(H::NAME))?;
    agree("arity", &json!(hasher.arity()))?;
    agree("strength", &json!(strength_name(hasher.variant())))?;
    agree("cap_height", &commitment["cap_height"])?;
    let indices = stated("indices")?
        .as_array()
        .ok_or("the opening's indices are not a list")?;
    let listed: Option<Vec<u64>> = indices.iter().map(serde_json::Value::as_u64).collect();
    let listed = listed.ok_or("the opening's indices are not all leaf positions")?;
    if listed != proof_indices {
        return Err(format!(
            "the opening states indices {:?}, but its proof authenticates {:?}",
            Shown(&listed),
            Shown(proof_indices)
        ));
    }
    Ok(())
}

/// At most eight positions of a list, for messages.
struct Shown<'a>(&'a [u64]);

impl std::fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let head: Vec<String> = self.0.iter().take(8).map(u64::to_string).collect();
        let more = if self.0.len() > 8 { ", …" } else { "" };
        write!(f, "[{}{more}]", head.join(", "))
    }
}

/// Checks the opening against the commitment. Every error after the commitment is read is a
/// rejection of the opening.
fn check<H: TreeHasher>(
    hasher: H,
    opening: &serde_json::Value,
    commitment: &serde_json::Value,
) -> Result<(), Boxed> {
    let commitment_json = commitment;
    let commitment = commitment_from_json(&hasher, commitment)?;
    let reject = |e: Boxed| -> Boxed { Box::new(Rejected(e.to_string())) };
    let fields = opening
        .as_object()
        .ok_or_else(|| reject("the opening is not a JSON object".into()))?;
    let proof_hex = opening["proof"]
        .as_str()
        .ok_or_else(|| reject("opening without a proof".into()))?;
    let bytes =
        hex::decode(proof_hex).map_err(|e| reject(format!("proof is not hex: {e}").into()))?;
    let proof = MerkleProof::<H::Digest>::from_bytes::<H>(&bytes).map_err(|e| reject(e.into()))?;
    check_opening_statement(&hasher, fields, commitment_json, &proof.indices)
        .map_err(|e| reject(e.into()))?;
    let rows = json_rows::<H::Element>(&opening["leaves"], "leaves").map_err(reject)?;
    let refs: Vec<&[H::Element]> = rows.iter().map(Vec::as_slice).collect();
    verify(&hasher, &commitment, &refs, &proof).map_err(|e| reject(e.into()))?;
    println!(
        "ok: {} leaves verified at positions {:?}",
        proof.indices.len(),
        Shown(&proof.indices)
    );
    Ok(())
}

impl From<TreePreset> for zkaccel_registry::TreePreset {
    fn from(p: TreePreset) -> Self {
        match p {
            TreePreset::Plonky2 => Self::Plonky2,
            TreePreset::Neptune => Self::Neptune,
            TreePreset::Circomlib => Self::Circomlib,
        }
    }
}

/// Runs `visitor` with the hasher a preset, arity and strength name (the registry's
/// [`TreeSpec`]).
fn with_tree<V: TreeVisitor<Output = Result<(), Boxed>>>(
    preset: TreePreset,
    arity: usize,
    strength: Strength,
    visitor: V,
) -> Result<(), Boxed> {
    let spec = TreeSpec {
        preset: preset.into(),
        arity,
        strength,
    };
    match spec.visit(visitor) {
        Ok(result) => result,
        Err(TreeSpecError::NotBinary { .. }) => {
            Err("plonky2 trees are binary: drop --arity".into())
        }
        Err(e) => Err(e.into()),
    }
}

/// [`build`] with the hasher the tree arguments name.
struct Build<'a>(&'a BuildArgs);
impl TreeVisitor for Build<'_> {
    type Output = Result<(), Boxed>;
    fn visit<H: RegisteredHasher>(self, hasher: H) -> Self::Output {
        build(hasher, self.0)
    }
}

/// [`open`] with the hasher the tree arguments name.
struct Open<'a>(&'a OpenArgs);
impl TreeVisitor for Open<'_> {
    type Output = Result<(), Boxed>;
    fn visit<H: RegisteredHasher>(self, hasher: H) -> Self::Output {
        open(hasher, self.0)
    }
}

/// [`check`] of an opening against a commitment, with the hasher the commitment names.
struct Check<'a> {
    opening: &'a serde_json::Value,
    commitment: &'a serde_json::Value,
}
impl TreeVisitor for Check<'_> {
    type Output = Result<(), Boxed>;
    fn visit<H: RegisteredHasher>(self, hasher: H) -> Self::Output {
        check(hasher, self.opening, self.commitment)
    }
}

/// Runs a `merkle` subcommand.
pub fn run(cmd: &MerkleCommand) -> Result<(), Boxed> {
    match cmd {
        MerkleCommand::Build(a) => {
            let strength = a.tree.strength()?;
            with_tree(a.tree.preset, a.tree.arity, strength, Build(a))
        }
        MerkleCommand::Open(a) => {
            let strength = a.tree.strength()?;
            with_tree(a.tree.preset, a.tree.arity, strength, Open(a))
        }
        MerkleCommand::Verify(a) => {
            let read_json = |path: &Path, what: &str| -> Result<serde_json::Value, Boxed> {
                let bytes = read_limited(path, MAX_JSON_BYTES, what)?;
                serde_json::from_slice(&bytes)
                    .map_err(|e| format!("{}: not {what}: {e}", path.display()).into())
            };
            let o = read_json(&a.opening, "an opening")?;
            let mut c = read_json(&a.commitment, "a commitment")?;
            if c["format"] != COMMITMENT_FORMAT {
                // `merkle build --json` output holds the commitment in a field.
                c = c["commitment"].take();
            }
            if c["format"] != COMMITMENT_FORMAT || c["version"] != 1 {
                return Err(format!(
                    "{}: not a zkaccel Merkle commitment (version 1)",
                    a.commitment.display()
                )
                .into());
            }
            // Every field the commitment states is one the verifier uses.
            const KNOWN: [&str; 10] = [
                "format",
                "version",
                "preset",
                "strength",
                "field",
                "arity",
                "num_leaves",
                "leaf_width",
                "cap_height",
                "cap",
            ];
            if let Some(key) = c
                .as_object()
                .and_then(|m| m.keys().find(|k| !KNOWN.contains(&k.as_str())))
            {
                return Err(format!(
                    "{}: the commitment carries a field {key:.40?} that this verifier does not \
                     check",
                    a.commitment.display()
                )
                .into());
            }
            // The hash comes from the commitment, which the verifier trusts; the opening only
            // has to agree with it.
            let preset = match c["preset"].as_str() {
                Some("plonky2") => TreePreset::Plonky2,
                Some("neptune") => TreePreset::Neptune,
                Some("circomlib") => TreePreset::Circomlib,
                _ => return Err("the commitment names no known preset".into()),
            };
            let arity = c["arity"]
                .as_u64()
                .and_then(|a| usize::try_from(a).ok())
                .filter(|a| *a <= zkaccel_merkle::limits::MAX_ARITY)
                .ok_or("the commitment has no valid arity")?;
            let strength: Strength = c["strength"]
                .as_str()
                .ok_or("the commitment states no strength")?
                .parse()?;
            // A strength stated for a preset without strengths is ignored, as it always was.
            let strength = if preset == TreePreset::Neptune {
                strength
            } else {
                Strength::Standard
            };
            let visitor = Check {
                opening: &o,
                commitment: &c,
            };
            with_tree(preset, arity, strength, visitor)
        }
    }
}
