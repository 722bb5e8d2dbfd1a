//! `zkaccel merkle build|open|verify`.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::time::Instant;
use zkaccel_merkle::text_rows::{is_blank, split_row};

use clap::{Args, Subcommand, ValueEnum};
use serde_json::json;
use zkaccel_bls12_381::Fr as Bls;
use zkaccel_field::{Field, PrimeField};
use zkaccel_merkle::{
    build_streaming, build_streaming_to_disk, verify, CircomHasher, DiskTree, MerkleCommitment,
    MerkleError, MerkleProof, MerkleTree, NeptuneHasher, Plonky2Hasher, StreamConfig, TreeHasher,
    DEFAULT_SUBTREE_LEAVES,
};
use zkaccel_poseidon::{CircomPoseidon, NeptunePoseidon, Strength};

use crate::inputs::{alloc_within, check_budget, generate_rows, parse_one, parse_size, Origin};
use crate::poseidon_cmd::StrengthName;
use crate::Rejected;
use zkaccel_plot::write_atomically;

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
    /// circomlib Poseidon over BN254 (arity 1..16, leaves are single elements).
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
    /// neptune: the strength.
    #[arg(long, value_enum, default_value = "standard")]
    strength: StrengthName,
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

/// Rows of a leaf file, parsed lazily (the file is never held whole in memory).
struct FileRows<F> {
    path: PathBuf,
    lines: std::io::Lines<BufReader<std::fs::File>>,
    line_no: usize,
    width: usize,
    _f: core::marker::PhantomData<F>,
}

impl<F: PrimeField> FileRows<F> {
    /// Opens the file and counts its rows and their width (first pass).
    fn open(path: &Path) -> Result<(Self, u64), Boxed> {
        let io = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
        let file = std::fs::File::open(path).map_err(io)?;
        let (mut rows, mut width) = (0u64, None);
        for (i, line) in BufReader::new(file).lines().enumerate() {
            let line = line.map_err(io)?;
            if is_blank(&line) {
                continue;
            }
            let w = split_row(&line).count();
            if w == 0 {
                return Err(format!(
                    "{}:{}: leaf width 0 (a row of separators only)",
                    path.display(),
                    i + 1
                )
                .into());
            }
            match width {
                None => width = Some(w),
                Some(expected) if expected != w => {
                    return Err(format!(
                        "{}:{}: {w} elements, but the first leaf has {expected}",
                        path.display(),
                        i + 1
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
                lines: BufReader::new(file).lines(),
                line_no: 0,
                width,
                _f: core::marker::PhantomData,
            },
            rows,
        ))
    }

    fn fill(&mut self, out: &mut [F]) -> Result<(), MerkleError> {
        for row in out.chunks_mut(self.width) {
            let line = loop {
                self.line_no += 1;
                match self.lines.next() {
                    Some(Ok(l)) if is_blank(&l) => continue,
                    Some(Ok(l)) => break l,
                    Some(Err(e)) => return Err(MerkleError::LeafSource(e.to_string())),
                    None => {
                        return Err(MerkleError::LeafSource(
                            "the file changed while reading".into(),
                        ))
                    }
                }
            };
            for (slot, v) in row.iter_mut().zip(split_row(&line)) {
                *slot = parse_one(v, Origin::Line(self.path.clone(), self.line_no))
                    .map_err(|e| MerkleError::LeafSource(e.to_string()))?;
            }
        }
        Ok(())
    }
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

fn leaves<F: PrimeField>(a: &TreeArgs) -> Result<(Leaves<F>, u64, usize), Boxed> {
    match (&a.input, a.leaves) {
        (Some(path), _) => {
            let (rows, n) = FileRows::open(path)?;
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
    let (mut source, n, width) = leaves::<H::Element>(&a.tree)?;
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
    if let Some(path) = &a.commitment {
        write_atomically(path, &(serde_json::to_string_pretty(&commitment)? + "\n"))?;
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
        write_atomically(path, &text)?;
    }
    print!("{text}");
    Ok(())
}

fn in_memory_tree<H: TreeHasher>(
    hasher: H,
    a: &TreeArgs,
    budget: u64,
) -> Result<MerkleTree<H>, Boxed> {
    let (mut source, n, width) = leaves::<H::Element>(a)?;
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
        "strength": format!("{:?}", Strength::from(a.tree.strength)).to_lowercase(),
        "cap_height": cap_height, "indices": proof.indices, "leaves": rows,
        "proof": hex::encode(proof.to_bytes::<H>()),
    });
    write_atomically(&a.output, &(serde_json::to_string_pretty(&opening)? + "\n"))?;
    println!("{}", a.output.display());
    Ok(())
}

const COMMITMENT_FORMAT: &str = "zkaccel-merkle-commitment";

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

/// Checks the opening against the commitment. Every error after the commitment is read is a
/// rejection of the opening.
fn check<H: TreeHasher>(
    hasher: H,
    opening: &serde_json::Value,
    commitment: &serde_json::Value,
) -> Result<(), Boxed> {
    let commitment = commitment_from_json(&hasher, commitment)?;
    let reject = |e: Boxed| -> Boxed { Box::new(Rejected(e.to_string())) };
    let proof_hex = opening["proof"]
        .as_str()
        .ok_or_else(|| reject("opening without a proof".into()))?;
    let bytes =
        hex::decode(proof_hex).map_err(|e| reject(format!("proof is not hex: {e}").into()))?;
    let proof = MerkleProof::<H::Digest>::from_bytes::<H>(&bytes).map_err(|e| reject(e.into()))?;
    let rows = json_rows::<H::Element>(&opening["leaves"], "leaves").map_err(reject)?;
    let refs: Vec<&[H::Element]> = rows.iter().map(Vec::as_slice).collect();
    verify(&hasher, &commitment, &refs, &proof).map_err(|e| reject(e.into()))?;
    println!("ok: {} leaves verified", proof.indices.len());
    Ok(())
}

macro_rules! with_hasher {
    ($preset:expr, $arity:expr, $strength:expr, |$h:ident| $body:expr) => {
        match $preset {
            TreePreset::Plonky2 => {
                if $arity != 2 {
                    return Err("plonky2 trees are binary: drop --arity".into());
                }
                let $h = Plonky2Hasher;
                $body
            }
            TreePreset::Neptune => {
                let $h = NeptuneHasher::new(NeptunePoseidon::<Bls>::new($arity, $strength)?);
                $body
            }
            TreePreset::Circomlib => {
                let $h = CircomHasher::new(CircomPoseidon::for_inputs($arity)?);
                $body
            }
        }
    };
}

/// Runs a `merkle` subcommand.
pub fn run(cmd: &MerkleCommand) -> Result<(), Boxed> {
    match cmd {
        MerkleCommand::Build(a) => {
            with_hasher!(a.tree.preset, a.tree.arity, a.tree.strength.into(), |h| {
                build(h, a)
            })
        }
        MerkleCommand::Open(a) => {
            with_hasher!(a.tree.preset, a.tree.arity, a.tree.strength.into(), |h| {
                open(h, a)
            })
        }
        MerkleCommand::Verify(a) => {
            let read_json = |path: &Path, what: &str| -> Result<serde_json::Value, Boxed> {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                serde_json::from_str(&text)
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
            let strength: Strength = c["strength"].as_str().unwrap_or("standard").parse()?;
            with_hasher!(preset, arity, strength, |h| check(h, &o, &c))
        }
    }
}
