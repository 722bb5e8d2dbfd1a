//! Trees whose levels live on disk, for openings long after a bounded-memory build.
//!
//! [`build_streaming_to_disk`] runs the AcclMT streaming build and writes, as it goes, the leaf
//! rows and every level from the leaf digests up to the cap into a directory (a *tree store*);
//! [`DiskTree::open`] reads one back and proves any set of leaves by reading just the siblings
//! it needs. Memory stays bounded by the build's budget plus one write buffer per level.
//!
//! The store is written under a temporary name beside the target and renamed into place only
//! when complete, so an interrupted build never leaves a store that looks whole; an existing
//! target is never overwritten. Layout (all little-endian, canonical field elements):
//!
//! ```text
//! tree.meta     "ZKMT" | version u8 (2) | hasher id u8 | variant u8 | arity u8 | depth u8
//!               | cap height u8 | digest elements u8 | element bytes u8 | leaf width u32
//!               | leaves u64 | field name length u8 | field name (UTF-8)
//! leaves.bin    the leaf rows, row after row
//! level-NN.bin  the digests at level NN (00 = leaf digests, up to depth − cap height = cap)
//! ```

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use zkaccel_field::PrimeField;

use crate::commitment::MerkleCommitment;
use crate::error::{MerkleError, StoreProblem};
use crate::hasher::TreeHasher;
use crate::proof::MerkleProof;
use crate::stream::{build_streaming_into, LeafSource, LevelSink, StreamConfig, StreamOutput};
use crate::tree::{collect_siblings, exact_log, normalize_indices};

const MAGIC: &[u8; 4] = b"ZKMT";
const VERSION: u8 = 2;
const META_FIXED_BYTES: usize = 4 + 8 + 4 + 8 + 1;
const META_FILE: &str = "tree.meta";
const LEAVES_FILE: &str = "leaves.bin";

fn level_file(level: usize) -> String {
    format!("level-{level:02}.bin")
}

fn io_error(path: &Path, e: std::io::Error) -> MerkleError {
    store_error(
        path,
        StoreProblem::Io {
            kind: e.kind(),
            message: e.to_string(),
        },
    )
}

fn corrupt(path: &Path, what: &'static str) -> MerkleError {
    store_error(path, StoreProblem::Corrupt { what })
}

fn store_error(path: &Path, problem: StoreProblem) -> MerkleError {
    MerkleError::Store {
        path: path.to_path_buf(),
        problem,
    }
}

/// The shape recorded in `tree.meta`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct StoreMeta {
    hasher_id: u8,
    variant: u8,
    field: String,
    arity: usize,
    depth: usize,
    cap_height: usize,
    digest_elements: usize,
    element_bytes: usize,
    leaf_width: usize,
    num_leaves: u64,
}

impl StoreMeta {
    fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(META_FIXED_BYTES + self.field.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[
            VERSION,
            self.hasher_id,
            self.variant,
            self.arity as u8,
            self.depth as u8,
            self.cap_height as u8,
            self.digest_elements as u8,
            self.element_bytes as u8,
        ]);
        out.extend_from_slice(&(self.leaf_width as u32).to_le_bytes());
        out.extend_from_slice(&self.num_leaves.to_le_bytes());
        out.push(self.field.len() as u8);
        out.extend_from_slice(self.field.as_bytes());
        out
    }

    fn from_bytes(path: &Path, b: &[u8]) -> Result<Self, MerkleError> {
        if b.len() < META_FIXED_BYTES || &b[..4] != MAGIC {
            return Err(corrupt(path, "not a zkaccel tree store"));
        }
        if b[4] != VERSION {
            return Err(corrupt(path, "unknown store version"));
        }
        let mut width = [0u8; 4];
        width.copy_from_slice(&b[12..16]);
        let mut leaves = [0u8; 8];
        leaves.copy_from_slice(&b[16..24]);
        let name = &b[META_FIXED_BYTES..];
        if name.len() != b[24] as usize {
            return Err(corrupt(path, "field name of the wrong length"));
        }
        Ok(Self {
            hasher_id: b[5],
            variant: b[6],
            field: String::from_utf8_lossy(name).into_owned(),
            arity: b[7] as usize,
            depth: b[8] as usize,
            cap_height: b[9] as usize,
            digest_elements: b[10] as usize,
            element_bytes: b[11] as usize,
            leaf_width: u32::from_le_bytes(width) as usize,
            num_leaves: u64::from_le_bytes(leaves),
        })
    }
}

/// Writes the leaves and levels of a streaming build into a temporary directory.
struct StoreWriter {
    tmp: PathBuf,
    leaves: BufWriter<File>,
    levels: Vec<BufWriter<File>>,
    scratch: Vec<u8>,
}

impl StoreWriter {
    fn create(tmp: PathBuf, num_levels: usize) -> Result<Self, MerkleError> {
        std::fs::create_dir(&tmp).map_err(|e| io_error(&tmp, e))?;
        let open = |name: String| -> Result<BufWriter<File>, MerkleError> {
            let path = tmp.join(name);
            let file = File::create(&path).map_err(|e| io_error(&path, e))?;
            Ok(BufWriter::with_capacity(1 << 16, file))
        };
        let leaves = open(LEAVES_FILE.to_owned())?;
        let levels = (0..num_levels)
            .map(|l| open(level_file(l)))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            tmp,
            leaves,
            levels,
            scratch: Vec::new(),
        })
    }

    fn write_elements<F: PrimeField>(
        scratch: &mut Vec<u8>,
        out: &mut BufWriter<File>,
        elements: impl ExactSizeIterator<Item = F>,
        path: &Path,
    ) -> Result<(), MerkleError> {
        scratch.clear();
        scratch.resize(elements.len() * F::NUM_BYTES, 0);
        for (e, chunk) in elements.zip(scratch.chunks_exact_mut(F::NUM_BYTES)) {
            e.write_bytes_le(chunk);
        }
        out.write_all(scratch).map_err(|e| io_error(path, e))
    }

    fn finish(self, meta: StoreMeta, dir: &Path) -> Result<(), MerkleError> {
        let Self {
            tmp,
            leaves,
            levels,
            ..
        } = self;
        for w in std::iter::once(leaves).chain(levels) {
            let file = w.into_inner().map_err(|e| io_error(&tmp, e.into_error()))?;
            file.sync_all().map_err(|e| io_error(&tmp, e))?;
        }
        let meta_path = tmp.join(META_FILE);
        let mut f = File::create(&meta_path).map_err(|e| io_error(&meta_path, e))?;
        f.write_all(&meta.to_bytes())
            .and_then(|()| f.sync_all())
            .map_err(|e| io_error(&meta_path, e))?;
        if dir.exists() {
            return Err(store_error(dir, StoreProblem::Exists));
        }
        std::fs::rename(&tmp, dir).map_err(|e| io_error(dir, e))
    }
}

impl<H: TreeHasher> LevelSink<H> for StoreWriter {
    fn leaves(&mut self, rows: &[H::Element]) -> Result<(), MerkleError> {
        let path = self.tmp.join(LEAVES_FILE);
        Self::write_elements(
            &mut self.scratch,
            &mut self.leaves,
            rows.iter().copied(),
            &path,
        )
    }

    fn level(&mut self, level: usize, digests: &[H::Digest]) -> Result<(), MerkleError> {
        let path = self.tmp.join(level_file(level));
        let elements: Vec<H::Element> = digests.iter().flat_map(H::digest_elements).collect();
        let out = self
            .levels
            .get_mut(level)
            .ok_or_else(|| corrupt(&path, "level past the cap"))?;
        Self::write_elements(&mut self.scratch, out, elements.into_iter(), &path)
    }
}

/// Removes the temporary directory of a build that did not finish.
struct RemoveOnDrop(Option<PathBuf>);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        if let Some(p) = self.0.take() {
            let _ = std::fs::remove_dir_all(p);
        }
    }
}

/// [`crate::build_streaming`], also writing the leaves and every level up to the cap into a
/// new directory `dir` (which must not exist), and returning the store opened for proofs.
/// Disk use: the leaf rows plus `arity/(arity−1)` times the leaf digests.
///
/// # Errors
/// As [`crate::build_streaming`]; [`MerkleError::Store`] when the directory exists or cannot
/// be written. On error nothing is left at `dir`.
pub fn build_streaming_to_disk<H: TreeHasher + Clone>(
    hasher: &H,
    config: StreamConfig,
    source: &mut impl LeafSource<H::Element>,
    dir: &Path,
    progress: impl FnMut(u64),
) -> Result<(StreamOutput<H::Digest>, DiskTree<H>), MerkleError> {
    if dir.exists() {
        return Err(store_error(dir, StoreProblem::Exists));
    }
    let arity = hasher.arity();
    let depth = exact_log(config.num_leaves, arity).ok_or(MerkleError::LeafCount {
        leaves: config.num_leaves,
        arity,
    })?;
    if config.cap_height > depth {
        return Err(MerkleError::CapHeight {
            cap_height: config.cap_height,
            depth,
        });
    }
    let name = dir
        .file_name()
        .ok_or_else(|| corrupt(dir, "is not a directory name"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".partial-{}", std::process::id()));
    let tmp = dir.with_file_name(tmp_name);
    let mut cleanup = RemoveOnDrop(Some(tmp.clone()));
    let mut writer = StoreWriter::create(tmp, depth - config.cap_height + 1)?;
    let out = build_streaming_into(hasher, config, source, &mut writer, progress)?;
    let meta = StoreMeta {
        hasher_id: H::ID,
        variant: hasher.variant(),
        field: H::Element::NAME.to_owned(),
        arity,
        depth,
        cap_height: config.cap_height,
        digest_elements: H::DIGEST_ELEMENTS,
        element_bytes: H::Element::NUM_BYTES,
        leaf_width: config.leaf_width,
        num_leaves: config.num_leaves,
    };
    writer.finish(meta, dir)?;
    cleanup.0 = None;
    let tree = DiskTree::open(hasher.clone(), dir)?;
    Ok((out, tree))
}

/// A tree store opened for proofs: the cap in memory, everything else read on demand.
#[derive(Debug)]
pub struct DiskTree<H: TreeHasher> {
    hasher: H,
    dir: PathBuf,
    meta: StoreMeta,
    cap: Vec<H::Digest>,
}

impl<H: TreeHasher> DiskTree<H> {
    /// Opens the store in `dir` for `hasher`, checking its shape and file sizes.
    ///
    /// # Errors
    /// [`MerkleError::Store`] when it is missing, of another hasher or shape, or truncated;
    /// [`MerkleError::Field`] for a non-canonical element in the cap.
    pub fn open(hasher: H, dir: &Path) -> Result<Self, MerkleError> {
        let meta_path = dir.join(META_FILE);
        let bytes = std::fs::read(&meta_path).map_err(|e| io_error(&meta_path, e))?;
        let meta = StoreMeta::from_bytes(&meta_path, &bytes)?;
        if meta.hasher_id != H::ID
            || meta.variant != hasher.variant()
            || meta.field != H::Element::NAME
            || meta.arity != hasher.arity()
            || meta.digest_elements != H::DIGEST_ELEMENTS
            || meta.element_bytes != H::Element::NUM_BYTES
        {
            return Err(corrupt(
                dir,
                "the store was built with another hash, variant, field or arity",
            ));
        }
        if exact_log(meta.num_leaves, meta.arity) != Some(meta.depth)
            || meta.cap_height > meta.depth
            || meta.leaf_width == 0
            || meta.leaf_width > crate::limits::MAX_LEAF_WIDTH
        {
            return Err(corrupt(&meta_path, "impossible tree shape"));
        }
        let tree = Self {
            hasher,
            dir: dir.to_owned(),
            meta,
            cap: Vec::new(),
        };
        let meta = &tree.meta;
        let row_bytes = meta.leaf_width as u64 * meta.element_bytes as u64;
        tree.check_size(&dir.join(LEAVES_FILE), meta.num_leaves, row_bytes)?;
        let digest_bytes = (meta.digest_elements * meta.element_bytes) as u64;
        let mut nodes = meta.num_leaves;
        for l in 0..=meta.depth - meta.cap_height {
            tree.check_size(&dir.join(level_file(l)), nodes, digest_bytes)?;
            nodes /= meta.arity as u64;
        }
        let top = meta.depth - meta.cap_height;
        let cap_len = (meta.arity as u64).pow(meta.cap_height as u32);
        let mut file = tree.level_handle(top)?;
        let cap = (0..cap_len)
            .map(|i| tree.read_digest(&mut file, top, i))
            .collect::<Result<_, _>>()?;
        Ok(Self { cap, ..tree })
    }

    fn check_size(&self, path: &Path, count: u64, each: u64) -> Result<(), MerkleError> {
        let len = std::fs::metadata(path)
            .map_err(|e| io_error(path, e))?
            .len();
        if Some(len) != count.checked_mul(each) {
            return Err(corrupt(path, "has the wrong size (truncated or foreign)"));
        }
        Ok(())
    }

    fn level_handle(&self, level: usize) -> Result<File, MerkleError> {
        let path = self.dir.join(level_file(level));
        File::open(&path).map_err(|e| io_error(&path, e))
    }

    fn read_elements(
        &self,
        file: &mut File,
        path: &Path,
        offset: u64,
        count: usize,
    ) -> Result<Vec<H::Element>, MerkleError> {
        let eb = H::Element::NUM_BYTES;
        let mut bytes = vec![0u8; count * eb];
        file.seek(SeekFrom::Start(offset))
            .and_then(|_| file.read_exact(&mut bytes))
            .map_err(|e| io_error(path, e))?;
        bytes
            .chunks_exact(eb)
            .map(|c| H::Element::from_bytes_le(c).map_err(MerkleError::from))
            .collect()
    }

    fn read_digest(&self, file: &mut File, level: usize, i: u64) -> Result<H::Digest, MerkleError> {
        let de = H::DIGEST_ELEMENTS;
        let offset = i * (de * H::Element::NUM_BYTES) as u64;
        let path = self.dir.join(level_file(level));
        let e = self.read_elements(file, &path, offset, de)?;
        Ok(H::digest_from_elements(&e))
    }

    /// The hasher.
    pub fn hasher(&self) -> &H {
        &self.hasher
    }

    /// The cap: `arity^cap_height` digests.
    pub fn cap(&self) -> &[H::Digest] {
        &self.cap
    }

    /// The commitment a verifier holds openings of this tree to: the cap and the shape.
    pub fn commitment(&self) -> MerkleCommitment<H::Digest> {
        MerkleCommitment::new(
            &self.hasher,
            self.meta.num_leaves,
            self.meta.leaf_width,
            self.meta.cap_height,
            self.cap.clone(),
        )
        .expect("DiskTree::open checked the shape")
    }

    /// Number of leaves.
    pub fn num_leaves(&self) -> u64 {
        self.meta.num_leaves
    }

    /// `log_arity(num_leaves)`.
    pub fn depth(&self) -> usize {
        self.meta.depth
    }

    /// The cap height.
    pub fn cap_height(&self) -> usize {
        self.meta.cap_height
    }

    /// Elements per leaf row.
    pub fn leaf_width(&self) -> usize {
        self.meta.leaf_width
    }

    /// Leaf row `index`, read from the store.
    ///
    /// # Errors
    /// [`MerkleError::IndexOutOfRange`]; [`MerkleError::Store`] or [`MerkleError::Field`] when
    /// the store cannot be read or holds a non-canonical element.
    pub fn leaf(&self, index: u64) -> Result<Vec<H::Element>, MerkleError> {
        if index >= self.meta.num_leaves {
            return Err(MerkleError::IndexOutOfRange {
                index,
                leaves: self.meta.num_leaves,
            });
        }
        let path = self.dir.join(LEAVES_FILE);
        let mut file = File::open(&path).map_err(|e| io_error(&path, e))?;
        let w = self.meta.leaf_width;
        let offset = index * (w * H::Element::NUM_BYTES) as u64;
        self.read_elements(&mut file, &path, offset, w)
    }

    /// A multiproof for the leaves at `indices`, identical to [`crate::MerkleTree::prove`] on
    /// the same tree.
    ///
    /// # Errors
    /// As [`crate::MerkleTree::prove`], and [`MerkleError::Store`] / [`MerkleError::Field`]
    /// when the store cannot be read.
    pub fn prove(&self, indices: &[u64]) -> Result<MerkleProof<H::Digest>, MerkleError> {
        let known = normalize_indices(indices, self.meta.num_leaves)?;
        let levels = self.meta.depth - self.meta.cap_height;
        let mut handles = (0..levels)
            .map(|l| self.level_handle(l))
            .collect::<Result<Vec<_>, _>>()?;
        let siblings = collect_siblings(self.meta.arity as u64, levels, known.clone(), |l, i| {
            self.read_digest(&mut handles[l], l, i)
        })?;
        Ok(MerkleProof {
            hasher_id: H::ID,
            arity: self.meta.arity,
            depth: self.meta.depth,
            cap_height: self.meta.cap_height,
            indices: known,
            siblings,
        })
    }
}
