//! The AcclMT benches' vectors (hw/acclmt): the Poseidon engine's configuration (the
//! parameters in Montgomery form and the program of [`crate::program`]) with permutations by
//! zkaccel-poseidon; the Merkle controller's tree with zkaccel-merkle's root; the S-box's
//! powers. Montgomery form (`x·2^W mod P`) throughout.

use std::fmt::Write as _;

use zkaccel_bn254::Fr;
use zkaccel_field::{Field, PrimeField};
use zkaccel_merkle::MerkleTree;
use zkaccel_poseidon::reference::reference_params;
use zkaccel_poseidon::{PoseidonParams, UniformRounds};
use zkaccel_presets::{
    circomlib, neptune, CircomHasher, CircomPoseidon, NeptuneHasher, NeptunePoseidon, Strength,
};

use crate::{random_elements, HwVectorError, MontgomeryHex, MAX_VECTORS};

/// The Poseidon instances of the engine's vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AcclmtPreset {
    /// neptune (Filecoin) over BLS12-381 Fr, α = 5, its standard round numbers.
    Neptune,
    /// circomlib over BN254 Fr, α = 5.
    Circomlib,
    /// The Poseidon reference instance (Grain constants, Cauchy MDS) for a field, an exponent
    /// and any round numbers (default: the reference numbers).
    Reference,
}

impl AcclmtPreset {
    fn name(self) -> &'static str {
        match self {
            Self::Neptune => "neptune",
            Self::Circomlib => "circomlib",
            Self::Reference => "reference",
        }
    }
}

/// The fields of the 256-bit datapath.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AcclmtField {
    /// BLS12-381 Fr (neptune's).
    Bls12_381,
    /// BN254 Fr (circomlib's).
    Bn254,
}

impl AcclmtField {
    fn name(self) -> &'static str {
        match self {
            Self::Bls12_381 => "bls12-381",
            Self::Bn254 => "bn254",
        }
    }
}

/// A Poseidon instance of the engine: a preset at an arity, or the reference instance with
/// its field, exponent and round numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AcclmtInstance {
    /// The preset.
    pub preset: AcclmtPreset,
    /// Tree arity: the state width is arity + 1 (the engine takes 3 to 12).
    pub arity: u64,
    /// The reference instance's field (the presets have their own; naming another is refused).
    pub field: Option<AcclmtField>,
    /// The reference instance's exponent (3, 5 or 7, a permutation of the field; default 5).
    pub alpha: Option<u64>,
    /// The reference instance's full and partial rounds (default: the reference numbers).
    pub rounds: Option<(u64, u64)>,
}

/// The most input and output lanes one engine file holds (~260 MB of text).
pub const MAX_ACCLMT_WORDS: u64 = 4_000_000;

/// The engine's file (`hw/acclmt`'s `acclmt_engine` bench): a header line `width t alpha
/// full_rounds partial_rounds count` (decimal), then hexadecimal words (`W/4` digits): the
/// modulus, `P'`, Montgomery one (`2^W mod P`); a count and that many `address word` lines (the
/// uniform rounds' constants and the beats' blocks, [`crate::program`]); then per permutation
/// its `t` input lanes and zkaccel-poseidon's `t` output lanes. The states are edge states
/// first (all 0, all 1, all p − 1, then 0, 1, …, t − 1), then random ones from `seed`.
///
/// # Errors
/// [`HwVectorError::Arity`], [`HwVectorError::TooLarge`] past [`MAX_VECTORS`] permutations or
/// [`MAX_ACCLMT_WORDS`] lanes, [`HwVectorError::PresetField`] and
/// [`HwVectorError::PresetRounds`] for a preset given the reference instance's settings; the
/// Poseidon instance's own errors.
pub fn engine_vectors(
    instance: &AcclmtInstance,
    count: u64,
    seed: u64,
) -> Result<String, HwVectorError> {
    if !(2..=11).contains(&instance.arity) {
        return Err(HwVectorError::Arity {
            arity: instance.arity,
        });
    }
    let width = instance.arity as usize + 1;
    if count > MAX_VECTORS {
        return Err(HwVectorError::TooLarge {
            what: "permutations",
            got: count,
            max: MAX_VECTORS,
        });
    }
    // Each permutation is 2t lines of W/4 + 1 bytes, built in memory before the atomic write.
    let words = count.saturating_mul(2 * width as u64);
    if words > MAX_ACCLMT_WORDS {
        return Err(HwVectorError::TooLarge {
            what: "state words",
            got: words,
            max: MAX_ACCLMT_WORDS,
        });
    }
    let field = match (instance.preset, instance.field) {
        (AcclmtPreset::Neptune, None | Some(AcclmtField::Bls12_381)) => AcclmtField::Bls12_381,
        (AcclmtPreset::Circomlib, None | Some(AcclmtField::Bn254)) => AcclmtField::Bn254,
        (AcclmtPreset::Reference, field) => field.unwrap_or(AcclmtField::Bls12_381),
        (preset, Some(field)) => {
            let own = if preset == AcclmtPreset::Neptune {
                AcclmtField::Bls12_381
            } else {
                AcclmtField::Bn254
            };
            return Err(HwVectorError::PresetField {
                preset: preset.name(),
                own: own.name(),
                asked: field.name(),
            });
        }
    };
    let custom = instance.alpha.is_some() || instance.rounds.is_some();
    if custom && instance.preset != AcclmtPreset::Reference {
        return Err(HwVectorError::PresetRounds {
            preset: instance.preset.name(),
        });
    }
    let count = count as usize;
    match (instance.preset, field) {
        (AcclmtPreset::Neptune, _) => {
            let params = neptune::params::<zkaccel_bls12_381::Fr>(width - 1, Strength::Standard)?;
            engine_lines::<_, 4>(&params, count, seed)
        }
        (AcclmtPreset::Circomlib, _) => {
            engine_lines::<_, 4>(&circomlib::params(width)?, count, seed)
        }
        (AcclmtPreset::Reference, AcclmtField::Bls12_381) => {
            let params = reference::<zkaccel_bls12_381::Fr>(instance, width)?;
            engine_lines::<_, 4>(&params, count, seed)
        }
        (AcclmtPreset::Reference, AcclmtField::Bn254) => {
            engine_lines::<_, 4>(&reference::<Fr>(instance, width)?, count, seed)
        }
    }
}

/// The reference instance of `instance` over `F` at `width`.
fn reference<F: PrimeField>(
    instance: &AcclmtInstance,
    width: usize,
) -> Result<PoseidonParams<F>, HwVectorError> {
    let alpha = instance.alpha.unwrap_or(5);
    let (rf, rp) = match instance.rounds {
        Some((rf, rp)) => (rf as usize, rp as usize),
        None => {
            let bits = zkaccel_poseidon::reference::log2_modulus::<F>();
            zkaccel_poseidon::rounds::reference_round_numbers(bits, width, alpha)?
        }
    };
    Ok(reference_params::<F>(width, alpha, rf, rp)?)
}

/// The header line `width t alpha full_rounds partial_rounds <last>` and the engine's
/// configuration (the modulus, `P'`, Montgomery one, then a count and that many `address word`
/// lines: the uniform rounds' constants and the beats' blocks, [`crate::program`]) of
/// `params`.
fn config_lines<F: PrimeField, const N: usize>(
    params: &PoseidonParams<F>,
    hex: &MontgomeryHex<N>,
    last: &str,
    text: &mut String,
) -> Result<(), HwVectorError> {
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
    let uniform = UniformRounds::derive(params)?;
    let words = crate::program::field_words(&uniform);
    writeln!(text, "{}", words.len())?;
    for (address, x) in &words {
        writeln!(text, "{address} {}", hex.montgomery(x))?;
    }
    Ok(())
}

/// The lines of [`engine_vectors`] for one instance.
fn engine_lines<F: PrimeField + zkaccel_poseidon::PoseidonField, const N: usize>(
    params: &PoseidonParams<F>,
    count: usize,
    seed: u64,
) -> Result<String, HwVectorError> {
    let hex = MontgomeryHex::<N>::new::<F>();
    let t = params.width();
    let perm = zkaccel_poseidon::Poseidon::new(params.clone())?;
    let mut text = String::new();
    config_lines(params, &hex, &count.to_string(), &mut text)?;
    // Edge states, then random ones: all 0, all 1, all p − 1, and 0, 1, …, t − 1 (circomlib's
    // hash of 1, …, t − 1, a known answer).
    let ramp: Vec<F> = (0..t as u64).map(F::from_u64_reduced).collect();
    let edges = [vec![F::ZERO; t], vec![F::ONE; t], vec![F::NEG_ONE; t], ramp];
    let random = random_elements::<F, N>(seed, count.saturating_sub(edges.len()) * t);
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

/// The S-box's file (`hw/acclmt`'s acclmt_sbox bench): a header line `width alpha count`
/// (decimal), then hexadecimal words (`W/4` digits): the modulus, `P'`, Montgomery one
/// (`2^W mod P`), and `count` lines `x y` with `y = x^α` by the field's own arithmetic (the
/// golden model, tested against arkworks), 0, 1 and p − 1 first, then random from `seed`.
/// Any α of 3, 5, 7, a permutation of the field or not: x³ permutes neither BLS12-381 Fr nor
/// BN254 Fr, so no Poseidon instance reaches the datapath's x³ path, and this bench does.
///
/// # Errors
/// [`HwVectorError::Alpha`] for an exponent other than 3, 5, 7;
/// [`HwVectorError::TooLarge`] past [`MAX_VECTORS`].
pub fn sbox_vectors(
    field: AcclmtField,
    alpha: u64,
    count: u64,
    seed: u64,
) -> Result<String, HwVectorError> {
    if ![3, 5, 7].contains(&alpha) {
        return Err(HwVectorError::Alpha { alpha });
    }
    if count > MAX_VECTORS {
        return Err(HwVectorError::TooLarge {
            what: "S-box vectors",
            got: count,
            max: MAX_VECTORS,
        });
    }
    let count = count as usize;
    match field {
        AcclmtField::Bls12_381 => sbox_lines::<zkaccel_bls12_381::Fr, 4>(alpha, count, seed),
        AcclmtField::Bn254 => sbox_lines::<Fr, 4>(alpha, count, seed),
    }
}

fn sbox_lines<F: PrimeField, const N: usize>(
    alpha: u64,
    count: usize,
    seed: u64,
) -> Result<String, HwVectorError> {
    let hex = MontgomeryHex::<N>::new::<F>();
    let mut text = String::new();
    writeln!(text, "{} {alpha} {count}", 64 * N)?;
    hex.constants(&mut text)?;
    writeln!(text, "{}", hex.word(&hex.mont.r))?;
    let edges = [F::ZERO, F::ONE, -F::ONE];
    let inputs = edges
        .into_iter()
        .chain(random_elements::<F, N>(seed, count))
        .take(count);
    for x in inputs {
        let y = x.exp_u64(alpha);
        writeln!(text, "{} {}", hex.montgomery(&x), hex.montgomery(&y))?;
    }
    Ok(text)
}

/// The node hashes of the controller's trees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AcclmtTreePreset {
    /// neptune's (Filecoin's) tree over BLS12-381 Fr: its arity's tag, digest lane 1.
    Neptune,
    /// circomlib's Poseidon over BN254 Fr, `arity` inputs: tag 0, digest lane 0.
    Circomlib,
}

/// The most elements of one tree file (~34 MB of text).
pub const MAX_ACCLMT_TREE_ELEMENTS: usize = 1 << 19;

/// A tree's depth: `depth`, or `log_leaves` over log2(arity) for a power-of-two arity; refused
/// past [`MAX_ACCLMT_TREE_ELEMENTS`] elements (`arity^(depth + 1)`).
///
/// # Errors
/// [`HwVectorError::Arity`]; [`HwVectorError::LeavesNotAPower`] for `log_leaves` of an arity
/// that is no power of two dividing it; [`HwVectorError::TreeTooLarge`].
pub fn tree_depth(arity: u32, depth: Option<u32>, log_leaves: u32) -> Result<u32, HwVectorError> {
    if !(2..=11).contains(&arity) {
        return Err(HwVectorError::Arity {
            arity: arity.into(),
        });
    }
    let depth = match depth {
        Some(depth) => depth,
        None => {
            let arity_log = arity.trailing_zeros();
            if !arity.is_power_of_two() || !log_leaves.is_multiple_of(arity_log) {
                return Err(HwVectorError::LeavesNotAPower { log_leaves, arity });
            }
            log_leaves / arity_log
        }
    };
    let elements = (0..=depth).try_fold(1usize, |e, _| {
        e.checked_mul(arity as usize)
            .filter(|&e| e <= MAX_ACCLMT_TREE_ELEMENTS)
    });
    if elements.is_none() {
        return Err(HwVectorError::TreeTooLarge { arity, depth });
    }
    Ok(depth)
}

/// The Merkle controller's tree file (`hw/acclmt`'s acclmt_tree): the header line `width t
/// alpha full_rounds partial_rounds depth digest_lane` (t = arity + 1), the engine's
/// configuration as in [`engine_vectors`], the domain tag, the `arity^(depth + 1)` elements
/// (random from `seed`), then the root of zkaccel-merkle's arity-`arity` tree over them
/// (neptune's or circomlib's node hash; its first layer is the controller's leaf hashes).
///
/// # Errors
/// As [`tree_depth`] (with `depth` given); the hash's and the tree's errors.
pub fn tree_vectors(
    preset: AcclmtTreePreset,
    arity: u32,
    depth: u32,
    seed: u64,
) -> Result<String, HwVectorError> {
    let depth = tree_depth(arity, Some(depth), 0)?;
    let arity = arity as usize;
    let elements = arity.pow(depth + 1);
    let mut text = String::new();
    match preset {
        AcclmtTreePreset::Neptune => {
            type Bls = zkaccel_bls12_381::Fr;
            let node = NeptunePoseidon::<Bls>::new(arity, Strength::Standard)?;
            let tag = node.merkle_tag();
            let params = neptune::params::<Bls>(arity, Strength::Standard)?;
            let leaves = random_elements::<Bls, 4>(seed, elements);
            let tree = MerkleTree::new(NeptuneHasher::new(node), leaves.clone(), 1, 0)?;
            tree_lines::<_, 4>(&params, depth, tag, 1, &leaves, &tree.cap()[0], &mut text)?;
        }
        AcclmtTreePreset::Circomlib => {
            let params = circomlib::params(arity + 1)?;
            let leaves = random_elements::<Fr, 4>(seed, elements);
            let hasher = CircomHasher::new(CircomPoseidon::get(arity + 1)?);
            let tree = MerkleTree::new(hasher, leaves.clone(), 1, 0)?;
            let root = &tree.cap()[0];
            tree_lines::<_, 4>(&params, depth, Fr::ZERO, 0, &leaves, root, &mut text)?;
        }
    }
    Ok(text)
}

/// The lines of [`tree_vectors`] for one instance.
fn tree_lines<F: PrimeField, const N: usize>(
    params: &PoseidonParams<F>,
    depth: u32,
    tag: F,
    digest_lane: usize,
    leaves: &[F],
    root: &F,
    text: &mut String,
) -> Result<(), HwVectorError> {
    let hex = MontgomeryHex::<N>::new::<F>();
    config_lines(params, &hex, &format!("{depth} {digest_lane}"), text)?;
    for x in core::iter::once(&tag).chain(leaves).chain([root]) {
        writeln!(text, "{}", hex.montgomery(x))?;
    }
    Ok(())
}
