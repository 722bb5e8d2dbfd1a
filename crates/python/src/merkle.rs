//! `zkaccel.merkle`: trees with caps (plonky2, neptune, circomlib), openings and multiproofs,
//! commitments, bounded-memory builds and trees assembled from subtree roots.

use numpy::{PyArrayDyn, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use zkaccel_merkle::{
    build_streaming, verify, MerkleCommitment, MerkleProof, MerkleTree as Tree, StreamConfig,
    TreeHasher,
};

use zkaccel_presets::Strength;
use zkaccel_registry::{
    FieldVisitor, RegisteredField, RegisteredHasher, TreePreset, TreeSpec, TreeSpecError,
    TreeVisitor,
};

use crate::arrays::{read, write};
use crate::errors::{invalid, merkle as merkle_err, other, Kind};
use crate::hashes::strength;
use zkaccel_codec::Classify;

/// The tree a preset names.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Spec {
    preset: String,
    arity: usize,
    strength: String,
}

/// Runs `visitor` with the hasher `spec` names (the registry's [`TreeSpec`]; the strength
/// is read for neptune only, as the presets without strengths never read it).
fn with_tree<R, V: TreeVisitor<Output = PyResult<R>>>(spec: &Spec, visitor: V) -> PyResult<R> {
    let preset: TreePreset = spec
        .preset
        .parse()
        .map_err(|e: TreeSpecError| invalid(e.to_string()))?;
    let strength = if preset == TreePreset::Neptune {
        strength(&spec.strength)?
    } else {
        Strength::Standard
    };
    let tree = TreeSpec {
        preset,
        arity: spec.arity,
        strength,
    };
    match tree.visit(visitor) {
        Ok(result) => result,
        Err(TreeSpecError::NotBinary { .. }) => Err(invalid("plonky2 trees are binary: arity=2")),
        Err(TreeSpecError::Poseidon(e)) => Err(other(e)),
        Err(e) => Err(invalid(e.to_string())),
    }
}

/// Element rows `(n, w)`, or single elements `(n,)` as rows of one.
fn rows_of<H: TreeHasher>(
    py: Python<'_>,
    array: &PyReadonlyArrayDyn<'_, u64>,
    what: &str,
) -> PyResult<(Vec<H::Element>, usize, usize)>
where
    H::Element: RegisteredField,
{
    let (x, shape) = read::<H::Element>(py, array, false, what)?;
    match shape[..] {
        [n] => Ok((x, n, 1)),
        [n, w] => Ok((x, n, w)),
        _ => Err(invalid(format!(
            "{what}: expected rows of elements, shape (n, width) or (n,); got {shape:?}"
        ))),
    }
}

fn digests_to_array<'py, H: TreeHasher>(
    py: Python<'py>,
    digests: &[H::Digest],
) -> PyResult<Bound<'py, PyArrayDyn<u64>>>
where
    H::Element: RegisteredField,
{
    let elements: Vec<H::Element> = digests.iter().flat_map(H::digest_elements).collect();
    let shape = if H::DIGEST_ELEMENTS == 1 {
        vec![digests.len()]
    } else {
        vec![digests.len(), H::DIGEST_ELEMENTS]
    };
    write(py, &elements, &shape)
}

fn digests_from_array<H: TreeHasher>(
    py: Python<'_>,
    array: &PyReadonlyArrayDyn<'_, u64>,
) -> PyResult<Vec<H::Digest>>
where
    H::Element: RegisteredField,
{
    let (x, shape) = read::<H::Element>(py, array, false, "digests")?;
    let ok = match shape[..] {
        [_] => H::DIGEST_ELEMENTS == 1,
        [_, d] => d == H::DIGEST_ELEMENTS,
        _ => false,
    };
    if !ok {
        return Err(invalid(format!(
            "digests: expected an array of shape (k, 4) ({} digests), got {:?}",
            H::NAME,
            array.shape()
        )));
    }
    Ok(x.chunks(H::DIGEST_ELEMENTS)
        .map(H::digest_from_elements)
        .collect())
}

/// What the Python classes hold, whatever the hasher.
trait AnyTree: Send + Sync {
    fn cap<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u64>>>;
    fn shape(&self) -> (u64, usize, usize, usize);
    fn commitment(&self) -> Box<dyn AnyCommitment>;
    fn open<'py>(
        &self,
        py: Python<'py>,
        indices: &[u64],
    ) -> PyResult<(Bound<'py, PyArrayDyn<u64>>, Vec<u8>)>;
}

trait AnyCommitment: Send + Sync {
    fn cap<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u64>>>;
    fn shape(&self) -> (u64, usize, usize, usize, usize);
    fn to_bytes(&self) -> Vec<u8>;
    fn verify(
        &self,
        py: Python<'_>,
        indices: &[u64],
        leaves: &PyReadonlyArrayDyn<'_, u64>,
        proof: &[u8],
    ) -> PyResult<()>;
}

struct TreeOf<H: TreeHasher>(Tree<H>);

struct CommitmentOf<H: TreeHasher>(H, MerkleCommitment<H::Digest>);

impl<H> AnyTree for TreeOf<H>
where
    H: TreeHasher + Clone + Send + 'static,
    H::Element: RegisteredField,
{
    fn cap<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
        digests_to_array::<H>(py, self.0.cap())
    }

    fn shape(&self) -> (u64, usize, usize, usize) {
        let t = &self.0;
        (t.num_leaves(), t.depth(), t.cap_height(), t.leaf_width())
    }

    fn commitment(&self) -> Box<dyn AnyCommitment> {
        Box::new(CommitmentOf(self.0.hasher().clone(), self.0.commitment()))
    }

    fn open<'py>(
        &self,
        py: Python<'py>,
        indices: &[u64],
    ) -> PyResult<(Bound<'py, PyArrayDyn<u64>>, Vec<u8>)> {
        // Asking for impossible leaves is bad input here, not a rejected proof.
        let proof = self.0.prove(indices).map_err(other)?;
        let w = self.0.leaf_width();
        let mut rows = Vec::with_capacity(proof.indices.len() * w);
        for &i in &proof.indices {
            rows.extend_from_slice(self.0.leaf(i).ok_or_else(|| invalid("leaf out of range"))?);
        }
        let leaves = write(py, &rows, &[proof.indices.len(), w])?;
        Ok((leaves, proof.to_bytes::<H>()))
    }
}

impl<H> AnyCommitment for CommitmentOf<H>
where
    H: TreeHasher + Send + 'static,
    H::Element: RegisteredField,
{
    fn cap<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
        digests_to_array::<H>(py, self.1.cap())
    }

    fn shape(&self) -> (u64, usize, usize, usize, usize) {
        let c = &self.1;
        (
            c.num_leaves(),
            c.depth(),
            c.cap_height(),
            c.leaf_width(),
            c.arity(),
        )
    }

    fn to_bytes(&self) -> Vec<u8> {
        self.1.to_bytes::<H>()
    }

    fn verify(
        &self,
        py: Python<'_>,
        indices: &[u64],
        leaves: &PyReadonlyArrayDyn<'_, u64>,
        proof: &[u8],
    ) -> PyResult<()> {
        let proof = MerkleProof::<H::Digest>::from_bytes::<H>(proof).map_err(merkle_err)?;
        if proof.indices != indices {
            return Err(crate::errors::error(
                crate::errors::Kind::Verification,
                "the proof opens other leaves than the indices given",
            ));
        }
        let (x, n, w) = rows_of::<H>(py, leaves, "leaves")?;
        if n != indices.len() {
            return Err(invalid(format!(
                "{n} leaf rows for {} indices",
                indices.len()
            )));
        }
        let rows: Vec<&[H::Element]> = x.chunks(w.max(1)).collect();
        py.detach(|| verify(&self.0, &self.1, &rows, &proof))
            .map_err(merkle_err)
    }
}

/// A Merkle tree with every level in memory.
#[pyclass(frozen, module = "zkaccel.merkle")]
pub struct MerkleTree {
    inner: Box<dyn AnyTree>,
    spec: Spec,
}

#[pymethods]
impl MerkleTree {
    /// The cap: `arity^cap_height` digests as an array `(k, 4)` (the root alone at cap
    /// height 0).
    #[getter]
    fn cap<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
        self.inner.cap(py)
    }

    /// The number of leaves.
    #[getter]
    fn num_leaves(&self) -> u64 {
        self.inner.shape().0
    }

    /// `log_arity(num_leaves)`.
    #[getter]
    fn depth(&self) -> usize {
        self.inner.shape().1
    }

    /// The cap's height.
    #[getter]
    fn cap_height(&self) -> usize {
        self.inner.shape().2
    }

    /// Elements per leaf row.
    #[getter]
    fn leaf_width(&self) -> usize {
        self.inner.shape().3
    }

    /// The commitment a verifier holds openings to: the cap and the tree's shape and hash.
    fn commitment(&self) -> Commitment {
        Commitment {
            inner: self.inner.commitment(),
            spec: self.spec.clone(),
        }
    }

    /// Opens the leaves at `indices` (any order, repeats allowed): their rows `(m, width)` in
    /// increasing index order and one multiproof (bytes, zkaccel's canonical encoding).
    fn open<'py>(
        &self,
        py: Python<'py>,
        indices: Vec<u64>,
    ) -> PyResult<(Bound<'py, PyArrayDyn<u64>>, Bound<'py, PyBytes>)> {
        let (leaves, proof) = self.inner.open(py, &indices)?;
        Ok((leaves, PyBytes::new(py, &proof)))
    }

    fn __repr__(&self) -> String {
        let (n, d, c, w) = self.inner.shape();
        format!(
            "MerkleTree(preset={:?}, arity={}, num_leaves={n}, depth={d}, cap_height={c}, \
             leaf_width={w})",
            self.spec.preset, self.spec.arity
        )
    }
}

/// A commitment to a tree: its cap, shape and hash. Equal commitments compare equal.
#[pyclass(frozen, module = "zkaccel.merkle")]
pub struct Commitment {
    inner: Box<dyn AnyCommitment>,
    spec: Spec,
}

#[pymethods]
impl Commitment {
    /// The cap, `(k, 4)`.
    #[getter]
    fn cap<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
        self.inner.cap(py)
    }

    /// The number of leaves.
    #[getter]
    fn num_leaves(&self) -> u64 {
        self.inner.shape().0
    }

    /// `log_arity(num_leaves)`.
    #[getter]
    fn depth(&self) -> usize {
        self.inner.shape().1
    }

    /// The cap's height.
    #[getter]
    fn cap_height(&self) -> usize {
        self.inner.shape().2
    }

    /// Elements per leaf row.
    #[getter]
    fn leaf_width(&self) -> usize {
        self.inner.shape().3
    }

    /// Children per node.
    #[getter]
    fn arity(&self) -> usize {
        self.inner.shape().4
    }

    /// The canonical encoding (what `zkaccel merkle` tools exchange).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    /// Decodes a commitment made with the tree preset given.
    #[staticmethod]
    #[pyo3(signature = (data, *, preset = "plonky2", arity = 2, strength = "standard"))]
    fn from_bytes(data: &[u8], preset: &str, arity: usize, strength: &str) -> PyResult<Self> {
        let spec = Spec {
            preset: preset.into(),
            arity,
            strength: strength.into(),
        };
        struct FromBytes<'a> {
            data: &'a [u8],
            spec: &'a Spec,
        }
        impl TreeVisitor for FromBytes<'_> {
            type Output = PyResult<Commitment>;
            fn visit<H: RegisteredHasher>(self, h: H) -> Self::Output {
                let c = MerkleCommitment::from_bytes(&h, self.data).map_err(merkle_err)?;
                Ok(Commitment {
                    inner: Box::new(CommitmentOf(h, c)),
                    spec: self.spec.clone(),
                })
            }
        }
        with_tree(&spec, FromBytes { data, spec: &spec })
    }

    /// Checks that `leaves` (rows `(m, width)`, increasing index order) are the leaves at
    /// `indices` of the committed tree, by the multiproof `proof` (from `MerkleTree.open`).
    /// Returns `None`; raises `VerificationError` when they are not.
    fn verify(
        &self,
        py: Python<'_>,
        indices: Vec<u64>,
        leaves: PyReadonlyArrayDyn<'_, u64>,
        proof: &[u8],
    ) -> PyResult<()> {
        self.inner.verify(py, &indices, &leaves, proof)
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.spec == other.spec && self.inner.to_bytes() == other.inner.to_bytes()
    }

    fn __repr__(&self) -> String {
        let (n, d, c, w, a) = self.inner.shape();
        format!(
            "Commitment(preset={:?}, arity={a}, num_leaves={n}, depth={d}, cap_height={c}, \
             leaf_width={w})",
            self.spec.preset
        )
    }
}

fn spec(preset: &str, arity: usize, strength: &str) -> Spec {
    Spec {
        preset: preset.into(),
        arity,
        strength: strength.into(),
    }
}

/// Builds a tree over `leaves` in memory: plonky2 rows `(n, width)` of Goldilocks words;
/// neptune (BLS12-381) and circomlib (BN254) single elements `(n, 4)` limbs. `n` must be a
/// power of the arity; `cap_height` 0 keeps a single root.
#[pyfunction]
#[pyo3(signature = (leaves, *, preset = "plonky2", arity = 2, strength = "standard", cap_height = 0))]
fn build(
    py: Python<'_>,
    leaves: PyReadonlyArrayDyn<'_, u64>,
    preset: &str,
    arity: usize,
    strength: &str,
    cap_height: usize,
) -> PyResult<MerkleTree> {
    let spec = spec(preset, arity, strength);
    struct Build<'a, 'py> {
        py: Python<'py>,
        leaves: &'a PyReadonlyArrayDyn<'py, u64>,
        cap_height: usize,
        spec: &'a Spec,
    }
    impl TreeVisitor for Build<'_, '_> {
        type Output = PyResult<MerkleTree>;
        fn visit<H: RegisteredHasher>(self, h: H) -> Self::Output {
            let Self {
                py,
                leaves,
                cap_height,
                spec,
            } = self;
            let (x, _, w) = rows_of_for(&h, py, leaves)?;
            let tree = py
                .detach(|| Tree::new(h, x, w, cap_height))
                .map_err(merkle_err)?;
            Ok(MerkleTree {
                inner: Box::new(TreeOf(tree)),
                spec: spec.clone(),
            })
        }
    }
    with_tree(
        &spec,
        Build {
            py,
            leaves: &leaves,
            cap_height,
            spec: &spec,
        },
    )
}

fn rows_of_for<H: TreeHasher>(
    _h: &H,
    py: Python<'_>,
    leaves: &PyReadonlyArrayDyn<'_, u64>,
) -> PyResult<(Vec<H::Element>, usize, usize)>
where
    H::Element: RegisteredField,
{
    rows_of::<H>(py, leaves, "leaves")
}

fn stream_from_array<H: TreeHasher>(
    h: &H,
    py: Python<'_>,
    leaves: &PyReadonlyArrayDyn<'_, u64>,
    config: StreamConfig,
) -> PyResult<MerkleCommitment<H::Digest>>
where
    H::Element: RegisteredField,
{
    let words = crate::arrays::words(leaves, "leaves")?;
    let limbs = <H::Element as RegisteredField>::WORDS;
    let row_words = config.leaf_width * limbs;
    let source = |first_row: u64, out: &mut [H::Element]| {
        let start = first_row as usize * row_words;
        let chunk = &words[start..start + out.len() * limbs];
        let values =
            <H::Element as RegisteredField>::from_canonical_words(chunk, false).map_err(|e| {
                zkaccel_merkle::MerkleError::LeafSource(zkaccel_merkle::LeafSourceError::Other {
                    message: e.to_string(),
                })
            })?;
        out.copy_from_slice(&values);
        Ok(())
    };
    let mut source = (0u64, config.leaf_width, source);
    let out = py
        .detach(|| build_streaming(h, config, &mut source, |_| {}))
        .map_err(merkle_err)?;
    Ok(out.commitment)
}

/// Builds only the commitment of a tree over `leaves`, in bounded memory: standard subtrees
/// of `subtree_leaves` (AcclMT) built batch by batch within `memory_budget` bytes. `leaves`
/// may be a `numpy.memmap` of a file larger than memory (the rows are read as they are needed).
#[pyfunction]
#[pyo3(signature = (leaves, *, preset = "plonky2", arity = 2, strength = "standard", cap_height = 0, subtree_leaves = 4096, memory_budget = 1 << 30))]
#[allow(clippy::too_many_arguments)]
fn build_streaming_commitment(
    py: Python<'_>,
    leaves: PyReadonlyArrayDyn<'_, u64>,
    preset: &str,
    arity: usize,
    strength: &str,
    cap_height: usize,
    subtree_leaves: usize,
    memory_budget: u64,
) -> PyResult<Commitment> {
    let spec = spec(preset, arity, strength);
    struct Stream<'a, 'py> {
        py: Python<'py>,
        leaves: &'a PyReadonlyArrayDyn<'py, u64>,
        cap_height: usize,
        subtree_leaves: usize,
        memory_budget: u64,
        spec: &'a Spec,
    }
    impl TreeVisitor for Stream<'_, '_> {
        type Output = PyResult<Commitment>;
        fn visit<H: RegisteredHasher>(self, h: H) -> Self::Output {
            let shape = self.leaves.shape().to_vec();
            let (n, w) = stream_shape(&h, &shape)?;
            let config = StreamConfig {
                num_leaves: n as u64,
                leaf_width: w,
                cap_height: self.cap_height,
                subtree_leaves: self.subtree_leaves,
                memory_budget: self.memory_budget,
            };
            let c = stream_from_array(&h, self.py, self.leaves, config)?;
            Ok(Commitment {
                inner: Box::new(CommitmentOf(h, c)),
                spec: self.spec.clone(),
            })
        }
    }
    with_tree(
        &spec,
        Stream {
            py,
            leaves: &leaves,
            cap_height,
            subtree_leaves,
            memory_budget,
            spec: &spec,
        },
    )
}

/// Rows and width of a words array of leaves for hasher `H`.
fn stream_shape<H: TreeHasher>(_h: &H, shape: &[usize]) -> PyResult<(usize, usize)>
where
    H::Element: RegisteredField,
{
    let element = crate::arrays::element_shape::<H::Element>(shape, "leaves")?;
    match element[..] {
        [n] => Ok((n, 1)),
        [n, w] => Ok((n, w)),
        _ => Err(invalid(format!(
            "leaves: expected rows of elements, shape (n, width) or (n,); got {element:?}"
        ))),
    }
}

/// The commitment of a tree of `num_leaves` rows of `leaf_width` elements assembled from
/// the roots `(k, 4)` of its `k = arity^j` aligned subtrees, built separately (anywhere):
/// equal to the commitment of the tree built whole.
#[pyfunction]
#[pyo3(signature = (roots, *, num_leaves, leaf_width, cap_height = 0, preset = "plonky2", arity = 2, strength = "standard"))]
#[allow(clippy::too_many_arguments)]
fn combine(
    py: Python<'_>,
    roots: PyReadonlyArrayDyn<'_, u64>,
    num_leaves: u64,
    leaf_width: usize,
    cap_height: usize,
    preset: &str,
    arity: usize,
    strength: &str,
) -> PyResult<Commitment> {
    let spec = spec(preset, arity, strength);
    struct Combine<'a, 'py> {
        py: Python<'py>,
        roots: &'a PyReadonlyArrayDyn<'py, u64>,
        num_leaves: u64,
        leaf_width: usize,
        cap_height: usize,
        spec: &'a Spec,
    }
    impl TreeVisitor for Combine<'_, '_> {
        type Output = PyResult<Commitment>;
        fn visit<H: RegisteredHasher>(self, h: H) -> Self::Output {
            let r = digests_for(&h, self.py, self.roots)?;
            let c = MerkleCommitment::from_subtree_roots(
                &h,
                &r,
                self.num_leaves,
                self.leaf_width,
                self.cap_height,
            )
            .map_err(merkle_err)?;
            Ok(Commitment {
                inner: Box::new(CommitmentOf(h, c)),
                spec: self.spec.clone(),
            })
        }
    }
    with_tree(
        &spec,
        Combine {
            py,
            roots: &roots,
            num_leaves,
            leaf_width,
            cap_height,
            spec: &spec,
        },
    )
}

fn digests_for<H: TreeHasher>(
    _h: &H,
    py: Python<'_>,
    roots: &PyReadonlyArrayDyn<'_, u64>,
) -> PyResult<Vec<H::Digest>>
where
    H::Element: RegisteredField,
{
    digests_from_array::<H>(py, roots)
}

/// Generated leaf rows `first_row .. first_row + rows` of `width` elements: with a `seed`,
/// ChaCha8 stream words reduced into the field (the CLI's `--seed`); without one, element `j`
/// of row `i` is `i·1000003 + j`. Any split of the rows gives the same leaves, so subtrees
/// built from row ranges anywhere combine into the whole tree. Shape `(rows, width)`
/// (256-bit: `(rows, width, 4)`).
#[pyfunction]
#[pyo3(signature = (first_row, rows, width, *, seed = None, field = "goldilocks"))]
fn generate_leaves<'py>(
    py: Python<'py>,
    first_row: u64,
    rows: usize,
    width: usize,
    seed: Option<u64>,
    field: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    let total = rows
        .checked_mul(width)
        .filter(|&t| t <= 1 << 32)
        .ok_or_else(|| invalid(format!("{rows} rows of {width}: more than 2^32 elements")))?;
    if first_row.checked_add(rows as u64).is_none() {
        return Err(invalid("rows past 2^64"));
    }
    struct Generate<'py> {
        py: Python<'py>,
        total: usize,
        rows: usize,
        width: usize,
        first_row: u64,
        seed: Option<u64>,
    }
    impl<'py> FieldVisitor for Generate<'py> {
        type Output = PyResult<Bound<'py, PyArrayDyn<u64>>>;
        fn visit<F: RegisteredField>(self) -> Self::Output {
            let Self {
                py,
                total,
                rows,
                width,
                first_row,
                seed,
            } = self;
            let mut out = vec![F::ZERO; total];
            py.detach(|| {
                zkaccel_merkle::generated::generate_rows(&mut out, width.max(1), first_row, seed)
            });
            write(py, &out, &[rows, width])
        }
    }
    crate::arrays::field_id(field)?.visit(Generate {
        py,
        total,
        rows,
        width,
        first_row,
        seed,
    })
}

fn open_text(path: &std::path::Path) -> PyResult<std::io::BufReader<std::fs::File>> {
    std::fs::File::open(path)
        .map(std::io::BufReader::new)
        .map_err(|e| crate::errors::error(Kind::Storage, format!("{}: {e}", path.display())))
}

/// One pass over a text file of leaves (the CLI's `--input` format: a leaf per line, elements
/// decimal or `0x`-hex separated by commas or whitespace, `#` comments and blank lines
/// skipped): `(rows, width, part_rows, offsets)`, `offsets` the byte offsets of rows 0,
/// `part_rows`, `2·part_rows`, … — where `read_text_rows` starts each part. `part_rows` is the
/// smallest power of `arity` that keeps the offsets within `max_offsets`, so every aligned
/// subtree of at least `part_rows` leaves starts at a recorded offset.
#[pyfunction]
#[pyo3(signature = (path, *, arity = 2, max_offsets = 1 << 20))]
fn index_text_rows(
    py: Python<'_>,
    path: std::path::PathBuf,
    arity: u64,
    max_offsets: usize,
) -> PyResult<(u64, usize, u64, Vec<u64>)> {
    let reader = open_text(&path)?;
    let index = py
        .detach(|| zkaccel_merkle::text_rows::index_text_rows(reader, arity, max_offsets))
        .map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    Ok((index.rows, index.width, index.part_rows, index.offsets))
}

/// `rows` leaves of `width` canonical elements read from the text file `path` at byte
/// `offset` (where row `first_row` starts, from `index_text_rows`): shape `(rows, width)`
/// (256-bit: `(rows, width, 4)`).
#[pyfunction]
#[pyo3(signature = (path, offset, first_row, rows, width, *, field = "goldilocks"))]
#[allow(clippy::too_many_arguments)]
fn read_text_rows<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    offset: u64,
    first_row: u64,
    rows: usize,
    width: usize,
    field: &str,
) -> PyResult<Bound<'py, PyArrayDyn<u64>>> {
    use std::io::Seek;
    let mut reader = open_text(&path)?;
    reader
        .seek(std::io::SeekFrom::Start(offset))
        .map_err(|e| crate::errors::error(Kind::Storage, format!("{}: {e}", path.display())))?;
    struct ReadRows<'a, 'py> {
        py: Python<'py>,
        reader: std::io::BufReader<std::fs::File>,
        path: &'a std::path::Path,
        first_row: u64,
        rows: usize,
        width: usize,
    }
    impl<'py> FieldVisitor for ReadRows<'_, 'py> {
        type Output = PyResult<Bound<'py, PyArrayDyn<u64>>>;
        fn visit<F: RegisteredField>(self) -> Self::Output {
            let Self {
                py,
                reader,
                path,
                first_row,
                rows,
                width,
            } = self;
            let out = py
                .detach(|| {
                    zkaccel_merkle::text_rows::read_text_rows::<F, _>(
                        reader, first_row, rows, width,
                    )
                })
                .map_err(|e| match e {
                    // The path before the line or row the source names; the class as every
                    // error's.
                    zkaccel_merkle::MerkleError::LeafSource(_) => {
                        crate::errors::error(e.class().into(), format!("{}: {e}", path.display()))
                    }
                    other => merkle_err(other),
                })?;
            write(py, &out, &[rows, width])
        }
    }
    crate::arrays::field_id(field)?.visit(ReadRows {
        py,
        reader,
        path: &path,
        first_row,
        rows,
        width,
    })
}

/// Registers `zkaccel.merkle`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MerkleTree>()?;
    m.add_class::<Commitment>()?;
    m.add_function(wrap_pyfunction!(build, m)?)?;
    m.add_function(wrap_pyfunction!(build_streaming_commitment, m)?)?;
    m.add_function(wrap_pyfunction!(combine, m)?)?;
    m.add_function(wrap_pyfunction!(generate_leaves, m)?)?;
    m.add_function(wrap_pyfunction!(index_text_rows, m)?)?;
    m.add_function(wrap_pyfunction!(read_text_rows, m)?)?;
    Ok(())
}
