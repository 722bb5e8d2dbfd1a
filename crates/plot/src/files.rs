//! Writing and reading users' files safely: every output appears whole or not at all, and
//! respects what is already at its path; every input is read through a bound.
//!
//! - A destination that does not exist, or is a regular file, is written to a temporary file
//!   created exclusively, with an unpredictable name, in the same directory ([`tempfile`]), then
//!   renamed over it; an existing file keeps its permissions.
//! - A destination that is a character device or a FIFO (`/dev/null`, `/dev/stdout`, a pipe) is
//!   written in place and never replaced; a FIFO without a reader is an error, not a hang.
//! - A directory, a block device, a socket or a dangling symbolic link is refused. A symbolic
//!   link to a file is followed: the file it points to is replaced, the link stays.
//! - [`FileSet`] stages several files and renames them into place only when all were written.

use std::fs::{File, OpenOptions, Permissions};
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

/// An I/O error whose message names `path`.
fn named(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

fn refused(path: &Path, why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{}: {why}; not written", path.display()),
    )
}

/// Where an output goes, once what is at its path is known.
enum Destination {
    /// A new file, or a regular file to replace (its permissions, to keep), at this path.
    Replace(PathBuf, Option<Permissions>),
    /// A character device or a FIFO: written in place.
    InPlace(PathBuf, bool),
}

fn destination(path: &Path) -> io::Result<Destination> {
    let meta = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(Destination::Replace(path.to_owned(), None))
        }
        Err(e) => return Err(named(path, e)),
        Ok(m) => m,
    };
    let (path, meta) = if meta.file_type().is_symlink() {
        let target =
            std::fs::canonicalize(path).map_err(|_| refused(path, "a symbolic link to nothing"))?;
        let meta = std::fs::metadata(&target).map_err(|e| named(&target, e))?;
        (target, meta)
    } else {
        (path.to_owned(), meta)
    };
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok(Destination::Replace(path, Some(meta.permissions())));
    }
    if kind.is_dir() {
        return Err(refused(&path, "a directory"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() || kind.is_fifo() {
            return Ok(Destination::InPlace(path, kind.is_fifo()));
        }
    }
    Err(refused(
        &path,
        "not a regular file, a character device or a FIFO",
    ))
}

/// Opens a character device or FIFO for writing, without creating or truncating it. A FIFO is
/// opened without blocking (no reader: an error at once), then switched back to blocking.
fn open_in_place(path: &Path, fifo: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true);
    #[cfg(unix)]
    if fifo {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| {
        if fifo && e.raw_os_error() == Some(libc::ENXIO) {
            refused(path, "a FIFO that no process reads")
        } else {
            named(path, e)
        }
    })?;
    #[cfg(unix)]
    if fifo {
        use std::os::fd::AsRawFd;
        let fd = file.as_raw_fd();
        // SAFETY: `fd` is the open descriptor `file` owns for this whole block; F_GETFL and
        // F_SETFL read and set its status flags and touch no memory.
        let cleared = unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) == 0
        };
        if !cleared {
            return Err(named(path, io::Error::last_os_error()));
        }
    }
    let _ = fifo;
    Ok(file)
}

/// A new file's permissions: read and write for everyone the umask allows, as a plain
/// `File::create` gives.
#[cfg(unix)]
fn new_file_permissions() -> Permissions {
    use std::os::unix::fs::PermissionsExt;
    Permissions::from_mode(0o666)
}

/// A temporary file beside `path`, created exclusively under an unpredictable name.
fn temporary_beside(path: &Path, keep: Option<&Permissions>) -> io::Result<NamedTempFile> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| refused(path, "no file name"))?
        .to_string_lossy();
    let mut builder = tempfile::Builder::new();
    let prefix = format!(".{}.", name.chars().take(64).collect::<String>());
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    let fresh = new_file_permissions();
    #[cfg(unix)]
    builder.permissions(keep.cloned().unwrap_or(fresh));
    let file = builder.tempfile_in(dir).map_err(|e| named(path, e))?;
    if let Some(p) = keep {
        // The umask applied at creation; an existing file's mode is kept exactly.
        file.as_file()
            .set_permissions(p.clone())
            .map_err(|e| named(path, e))?;
    }
    Ok(file)
}

/// An output file being written: [`AtomicFile::commit`] puts it in place; dropped before
/// that, it leaves nothing behind (a regular destination keeps its old contents).
pub struct AtomicFile {
    path: PathBuf,
    target: Target,
}

enum Target {
    Temporary(io::BufWriter<NamedTempFile>),
    InPlace(io::BufWriter<File>),
}

impl AtomicFile {
    /// Starts writing `path` (see the module's rules for what may be there).
    ///
    /// # Errors
    /// A refused destination, or an I/O error naming the path.
    pub fn create(path: &Path) -> io::Result<Self> {
        let target = match destination(path)? {
            Destination::Replace(resolved, keep) => Target::Temporary(io::BufWriter::new(
                temporary_beside(&resolved, keep.as_ref())?,
            )),
            Destination::InPlace(resolved, fifo) => {
                Target::InPlace(io::BufWriter::new(open_in_place(&resolved, fifo)?))
            }
        };
        Ok(Self {
            path: path.to_owned(),
            target,
        })
    }

    /// The destination's path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes the file to disk and renames it over the destination (or, written in place,
    /// flushes it).
    ///
    /// # Errors
    /// An I/O error naming the path; the destination is then as it was.
    pub fn commit(self) -> io::Result<()> {
        let path = self.path;
        match self.target {
            Target::Temporary(w) => {
                let file = w.into_inner().map_err(|e| named(&path, e.into_error()))?;
                file.as_file().sync_all().map_err(|e| named(&path, e))?;
                let resolved = match destination(&path)? {
                    Destination::Replace(p, _) => p,
                    Destination::InPlace(..) => {
                        return Err(refused(&path, "replaced by a device while writing"))
                    }
                };
                file.persist(&resolved).map_err(|e| named(&path, e.error))?;
                Ok(())
            }
            Target::InPlace(mut w) => w.flush().map_err(|e| named(&path, e)),
        }
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.target {
            Target::Temporary(w) => w.write(buf),
            Target::InPlace(w) => w.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.target {
            Target::Temporary(w) => w.flush(),
            Target::InPlace(w) => w.flush(),
        }
    }
}

/// Writes `contents` to `path` whole or not at all (see the module's rules).
///
/// # Errors
/// A refused destination, or an I/O error naming the path; a regular destination then keeps
/// its old contents, and no temporary file is left.
pub fn write_atomically(path: &Path, contents: impl AsRef<[u8]>) -> io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(contents.as_ref())
        .map_err(|e| named(path, e))?;
    file.commit()
}

/// Several output files that appear together: each is written in full under a temporary name
/// first, and only then are all renamed into place. An error before [`FileSet::commit`] leaves
/// every destination as it was.
#[derive(Default)]
pub struct FileSet {
    staged: Vec<AtomicFile>,
}

impl FileSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stages `contents` for `path`.
    ///
    /// # Errors
    /// A path already in the set, a refused destination, or an I/O error naming the path.
    pub fn add(&mut self, path: &Path, contents: impl AsRef<[u8]>) -> io::Result<()> {
        let mut file = self.start(path)?;
        file.write_all(contents.as_ref())
            .map_err(|e| named(path, e))?;
        file.flush().map_err(|e| named(path, e))?;
        self.staged.push(file);
        Ok(())
    }

    /// Stages a file that `write` fills through its path (for writers that insist on a path,
    /// such as an image encoder choosing its format by the extension): `write` gets a
    /// temporary path in the destination's directory ending in `extension`.
    ///
    /// # Errors
    /// As [`FileSet::add`], and `write`'s error.
    pub fn add_by_path(
        &mut self,
        path: &Path,
        extension: &str,
        write: impl FnOnce(&Path) -> io::Result<()>,
    ) -> io::Result<()> {
        self.check_new(path)?;
        let resolved = match destination(path)? {
            Destination::Replace(p, _) => p,
            Destination::InPlace(..) => {
                return Err(refused(path, "a device: give a directory of regular files"))
            }
        };
        let dir = resolved.parent().unwrap_or(Path::new("."));
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        let hidden = tempfile::Builder::new()
            .prefix(".staged.")
            .suffix(&format!(".{extension}"))
            .tempfile_in(dir)
            .map_err(|e| named(path, e))?;
        write(hidden.path())?;
        // The writer replaced the file at that path: reopen what it wrote.
        let mut written = Vec::new();
        File::open(hidden.path())
            .and_then(|mut f| f.read_to_end(&mut written))
            .map_err(|e| named(path, e))?;
        drop(hidden);
        self.add(path, written)
    }

    fn check_new(&self, path: &Path) -> io::Result<()> {
        let id = output_identity(path)?;
        for f in &self.staged {
            if output_identity(&f.path)? == id {
                return Err(refused(path, "named twice in one output set"));
            }
        }
        Ok(())
    }

    fn start(&self, path: &Path) -> io::Result<AtomicFile> {
        self.check_new(path)?;
        AtomicFile::create(path)
    }

    /// Renames every staged file into place.
    ///
    /// # Errors
    /// The first file that could not be put in place (those before it are in place).
    pub fn commit(self) -> io::Result<()> {
        for f in self.staged {
            f.commit()?;
        }
        Ok(())
    }
}

/// What a path names as an output, for telling two outputs apart: the canonical directory and
/// the file name (the file need not exist), or the canonical path of what exists.
fn output_identity(path: &Path) -> io::Result<PathBuf> {
    if let Ok(p) = std::fs::canonicalize(path) {
        return Ok(p);
    }
    let name = path
        .file_name()
        .ok_or_else(|| refused(path, "no file name"))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let dir = std::fs::canonicalize(dir).map_err(|e| named(dir, e))?;
    Ok(dir.join(name))
}

/// Checks that the outputs a command was given (each named by its option) are distinct files.
///
/// # Errors
/// A message naming both options when two of them are the same file; an I/O error for a
/// directory that does not exist.
pub fn check_distinct_outputs(outputs: &[(&str, Option<&Path>)]) -> io::Result<()> {
    let mut seen: Vec<(&str, PathBuf)> = Vec::new();
    for &(option, path) in outputs {
        let Some(path) = path else { continue };
        let id = output_identity(path)?;
        if let Some((first, _)) = seen.iter().find(|(_, p)| *p == id) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{first} and {option} name the same file ({}): give each output its own",
                    path.display()
                ),
            ));
        }
        seen.push((option, id));
    }
    Ok(())
}

/// Reads at most `limit` bytes of `path`, whatever kind of file it is and whatever its metadata
/// says (a FIFO, a device, a file growing while read): more is an error, found after reading
/// `limit + 1` bytes and no more.
///
/// # Errors
/// [`io::ErrorKind::InvalidData`] naming the path and the limit for a longer input; an I/O
/// error naming the path.
pub fn read_limited(path: &Path, limit: u64, what: &str) -> io::Result<Vec<u8>> {
    let file = File::open(path).map_err(|e| named(path, e))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: a directory, not a file", path.display()),
        ));
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| named(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{}: longer than {limit} bytes, the most {what} may be",
                path.display()
            ),
        ));
    }
    Ok(bytes)
}

/// Lines of a reader, each at most `max_line` bytes (longer: an error, after reading no more
/// than `max_line + 1` bytes of it), with their 1-based numbers; the line ending is removed.
pub struct BoundedLines<R> {
    reader: R,
    max_line: usize,
    line_no: usize,
    buf: Vec<u8>,
}

impl<R: io::BufRead> BoundedLines<R> {
    /// Lines of `reader`, each at most `max_line` bytes.
    pub fn new(reader: R, max_line: usize) -> Self {
        Self {
            reader,
            max_line,
            line_no: 0,
            buf: Vec::new(),
        }
    }
}

impl<R: io::BufRead> Iterator for BoundedLines<R> {
    type Item = io::Result<(usize, String)>;

    fn next(&mut self) -> Option<Self::Item> {
        self.buf.clear();
        let cap = self.max_line as u64 + 2; // the line, "\r\n"
        let read = (&mut self.reader)
            .take(cap)
            .read_until(b'\n', &mut self.buf);
        match read {
            Err(e) => return Some(Err(e)),
            Ok(0) => return None,
            Ok(_) => {}
        }
        self.line_no += 1;
        let ended = self.buf.last() == Some(&b'\n');
        if ended {
            self.buf.pop();
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
        }
        if self.buf.len() > self.max_line || (!ended && self.buf.len() as u64 == cap) {
            return Some(Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "line {} is longer than {} bytes",
                    self.line_no, self.max_line
                ),
            )));
        }
        match String::from_utf8(std::mem::take(&mut self.buf)) {
            Ok(s) => Some(Ok((self.line_no, s))),
            Err(_) => Some(Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("line {} is not UTF-8 text", self.line_no),
            ))),
        }
    }
}
