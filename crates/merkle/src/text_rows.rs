//! Leaves as text, the format `zkaccel merkle build --input` reads: one leaf per line, its
//! elements decimal or `0x`-hexadecimal, separated by commas or whitespace; blank lines and
//! lines whose first non-blank character is `#` are skipped. Every element must be canonical.
//!
//! [`index_text_rows`] makes one pass over a file and records where every part of
//! `part_rows` rows starts (`part_rows` a power of the tree's arity, grown so the index stays
//! small), so that [`read_text_rows`] can read any aligned subtree's rows from a byte offset —
//! how a distributed build hands each subtree to a task without every task scanning the file
//! from its start.

use std::io::BufRead;

use zkaccel_field::PrimeField;

use crate::error::{LeafSourceError, Place};
use crate::limits::MAX_LEAF_WIDTH;
use crate::MerkleError;

/// The longest line read, in bytes (a row of [`MAX_LEAF_WIDTH`] small elements fits; a
/// hostile file of one endless line is refused instead of filling memory).
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// Whether a line holds no leaf (blank, or a `#` comment).
pub fn is_blank(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// The element strings of a row.
pub fn split_row(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
}

/// Reads one line (with its end) into `buf`, at most [`MAX_LINE_BYTES`]: the bytes read, `None` at
/// the end of the input.
fn next_line<R: BufRead>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    place: Place,
) -> Result<Option<usize>, MerkleError> {
    buf.clear();
    let read = std::io::Read::take(&mut *reader, MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', buf)
        .map_err(|e| LeafSourceError::Read {
            at: place,
            kind: e.kind(),
            message: e.to_string(),
        })?;
    if read == 0 {
        return Ok(None);
    }
    if buf.len() > MAX_LINE_BYTES {
        return Err(LeafSourceError::LineTooLong {
            at: place,
            max: MAX_LINE_BYTES,
        }
        .into());
    }
    Ok(Some(read))
}

fn as_text(buf: &[u8], at: Place) -> Result<&str, MerkleError> {
    std::str::from_utf8(buf).map_err(|_| LeafSourceError::NotText { at }.into())
}

/// Rows, width and part offsets of a text file of leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextRowsIndex {
    /// Leaf rows in the file.
    pub rows: u64,
    /// Elements per row (every row has the first's).
    pub width: usize,
    /// Rows per part: a power of the base the index was made with.
    pub part_rows: u64,
    /// Byte offset of rows `0`, `part_rows`, `2·part_rows`, … (one per part begun).
    pub offsets: Vec<u64>,
}

impl TextRowsIndex {
    /// The byte offset where row `first` starts, when it starts a part.
    pub fn offset_of(&self, first: u64) -> Option<u64> {
        if !first.is_multiple_of(self.part_rows) {
            return None;
        }
        self.offsets
            .get(usize::try_from(first / self.part_rows).ok()?)
            .copied()
    }
}

/// One pass over `reader`: the rows, their common width, and the byte offset where each part
/// starts. Parts start as single rows; whenever the offsets would outnumber `max_offsets`,
/// every `base`-th is kept and parts grow `base` times, so any aligned run of `base^j ≥
/// part_rows` rows (a subtree of an arity-`base` tree) starts at a recorded offset. Elements
/// are not parsed here (the readers of the parts do).
///
/// # Errors
/// [`MerkleError::LeafSource`] for a read error, a line that is too long or not UTF-8, a row
/// of another width than the first, a row wider than [`MAX_LEAF_WIDTH`], no rows at all,
/// `base < 2` or `max_offsets < base`.
pub fn index_text_rows<R: BufRead>(
    mut reader: R,
    base: u64,
    max_offsets: usize,
) -> Result<TextRowsIndex, MerkleError> {
    if base < 2 || (max_offsets as u64) < base {
        return Err(LeafSourceError::PartIndex { base, max_offsets }.into());
    }
    let step = usize::try_from(base).unwrap_or(usize::MAX);
    let mut part_rows = 1u64;
    let (mut rows, mut width, mut offsets) = (0u64, None, Vec::new());
    let (mut offset, mut line_no, mut buf) = (0u64, 0u64, Vec::new());
    while let Some(read) = next_line(&mut reader, &mut buf, Place::Line(line_no + 1))? {
        line_no += 1;
        let line = as_text(&buf, Place::Line(line_no))?;
        if !is_blank(line) {
            let w = split_row(line).count();
            match width {
                None if w > MAX_LEAF_WIDTH => {
                    return Err(LeafSourceError::TooWide {
                        at: Place::Line(line_no),
                        got: w,
                        max: MAX_LEAF_WIDTH,
                    }
                    .into())
                }
                None => width = Some(w),
                Some(first) if first != w => {
                    return Err(LeafSourceError::RowWidth {
                        at: Place::Line(line_no),
                        expected: first,
                        got: w,
                    }
                    .into())
                }
                Some(_) => {}
            }
            if rows.is_multiple_of(part_rows) {
                offsets.push(offset);
                if offsets.len() > max_offsets {
                    offsets = offsets.into_iter().step_by(step).collect();
                    part_rows = part_rows.saturating_mul(base);
                }
            }
            rows += 1;
        }
        offset += read as u64;
    }
    let width = width.ok_or(LeafSourceError::NoLeaves)?;
    Ok(TextRowsIndex {
        rows,
        width,
        part_rows,
        offsets,
    })
}

/// Reads `count` rows of `width` canonical elements from `reader`, positioned at the start of
/// row `first_row` (an offset from [`index_text_rows`]); `first_row` only numbers the rows in
/// errors.
///
/// # Errors
/// [`MerkleError::LeafSource`] naming the row for a value that is not a canonical element, a
/// row of another width, a line that is too long or not UTF-8, a read error, or fewer than
/// `count` rows left; [`MerkleError::Allocation`] when `count · width` elements cannot be held.
pub fn read_text_rows<F: PrimeField, R: BufRead>(
    mut reader: R,
    first_row: u64,
    count: usize,
    width: usize,
) -> Result<Vec<F>, MerkleError> {
    if width == 0 || width > MAX_LEAF_WIDTH {
        return Err(MerkleError::LeafWidth {
            width,
            reason: "a row has 1 to 2^20 elements",
        });
    }
    let total = count.checked_mul(width).ok_or(MerkleError::Allocation {
        what: "text rows",
        bytes: u64::MAX,
    })?;
    let mut out = crate::limits::try_filled(total, F::ZERO, "text rows")?;
    let mut buf = Vec::new();
    let mut row = 0usize;
    while row < count {
        let row_no = first_row + row as u64;
        let at = Place::Row(row_no);
        if next_line(&mut reader, &mut buf, at)?.is_none() {
            return Err(LeafSourceError::EndsEarly {
                at,
                missing: (count - row) as u64,
            }
            .into());
        }
        let line = as_text(&buf, at)?;
        if is_blank(line) {
            continue;
        }
        let got = split_row(line).count();
        if got != width {
            return Err(LeafSourceError::RowWidth {
                at,
                expected: width,
                got,
            }
            .into());
        }
        let slots = &mut out[row * width..(row + 1) * width];
        for (slot, value) in slots.iter_mut().zip(split_row(line)) {
            *slot = F::from_str_canonical(value).map_err(|source| LeafSourceError::Element {
                at,
                value: value.chars().take(80).collect(),
                source,
            })?;
        }
        row += 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::io::{BufReader, Cursor, Seek, SeekFrom};

    use zkaccel_goldilocks::Goldilocks;

    use super::*;

    const FILE: &str = "# leaves\n1, 2\n\n0x3 4\n  # note\n5,6\n7 ,8\n9\t10\n";

    #[test]
    fn parts_read_from_their_offsets_equal_the_whole_file() {
        // 5 rows within 3 offsets: parts of 2 rows, offsets of rows 0, 2, 4.
        let index = index_text_rows(Cursor::new(FILE), 2, 3).unwrap();
        assert_eq!((index.rows, index.width, index.part_rows), (5, 2, 2));
        assert_eq!(index.offsets.len(), 3);
        assert_eq!(index.offset_of(1), None);
        assert_eq!(index.offset_of(6), None);
        let mut whole = Vec::new();
        for part in 0..3u64 {
            let first = part * 2;
            let count = (index.rows - first).min(2) as usize;
            let mut reader = BufReader::new(Cursor::new(FILE));
            reader
                .seek(SeekFrom::Start(index.offset_of(first).unwrap()))
                .unwrap();
            whole.extend(read_text_rows::<Goldilocks, _>(reader, first, count, 2).unwrap());
        }
        let want: Vec<Goldilocks> = (1..=10).map(Goldilocks::new_reduced).collect();
        assert_eq!(whole, want);
    }

    #[test]
    fn the_index_stays_within_its_offsets_for_any_base() {
        for base in [2u64, 3, 4, 11] {
            let rows = base.pow(4);
            let text: String = (0..rows).map(|i| format!("{i}\n")).collect();
            let index = index_text_rows(Cursor::new(text.as_bytes()), base, 12).unwrap();
            assert!(index.offsets.len() <= 12, "base {base}: {:?}", index);
            // The smallest part that fits: one power of the base less would not.
            assert!(index.part_rows > 1 && index.offsets.len() as u64 * base > 12);
            assert_eq!(index.rows, rows);
            // Every recorded part begins exactly at its row's line.
            for (p, &offset) in index.offsets.iter().enumerate() {
                let row = p as u64 * index.part_rows;
                let line = text[offset as usize..].lines().next().unwrap();
                assert_eq!(line, row.to_string(), "base {base}");
            }
            assert!(index.part_rows.is_power_of_two() || base != 2);
            assert_eq!(index.part_rows, base.pow(index.part_rows.ilog(base)));
        }
    }

    #[test]
    fn hostile_files_are_typed_errors() {
        use LeafSourceError as E;
        let index_err = |bytes: &[u8], base: u64, max_offsets: usize| match index_text_rows(
            Cursor::new(bytes.to_vec()),
            base,
            max_offsets,
        ) {
            Err(MerkleError::LeafSource(e)) => e,
            other => panic!("{bytes:?}: {other:?}"),
        };
        assert_eq!(index_err(b"", 2, 16), E::NoLeaves);
        assert_eq!(index_err(b"# only\n\n", 2, 16), E::NoLeaves);
        assert_eq!(
            index_err(b"1 2\n3\n", 2, 16),
            E::RowWidth {
                at: Place::Line(2),
                expected: 2,
                got: 1
            }
        );
        assert_eq!(
            index_err(b"1\n\xff\xfe\n", 2, 16),
            E::NotText { at: Place::Line(2) }
        );
        assert_eq!(
            index_err(b"1\n", 1, 16),
            E::PartIndex {
                base: 1,
                max_offsets: 16
            }
        );
        assert_eq!(
            index_err(b"1\n", 4, 3),
            E::PartIndex {
                base: 4,
                max_offsets: 3
            }
        );

        let read = |text: &str, count: usize, width: usize| {
            read_text_rows::<Goldilocks, _>(Cursor::new(text.to_owned()), 10, count, width)
                .unwrap_err()
        };
        let at = Place::Row(10);
        assert!(matches!(
            read("18446744069414584321\n", 1, 1),
            MerkleError::LeafSource(E::Element { at: Place::Row(10), ref value, .. })
                if value == "18446744069414584321"
        ));
        assert_eq!(
            read("1 2\n", 1, 1),
            E::RowWidth {
                at,
                expected: 1,
                got: 2
            }
            .into()
        );
        assert_eq!(
            read("1\n", 1, 2),
            E::RowWidth {
                at,
                expected: 2,
                got: 1
            }
            .into()
        );
        assert_eq!(
            read("1\n", 2, 1),
            E::EndsEarly {
                at: Place::Row(11),
                missing: 1
            }
            .into()
        );
        assert!(matches!(
            read("x\n", 1, 1),
            MerkleError::LeafSource(E::Element {
                at: Place::Row(10),
                ..
            })
        ));
        assert!(matches!(
            read("1\n", 1, 0),
            MerkleError::LeafWidth { width: 0, .. }
        ));
        // The messages say where.
        assert_eq!(
            read("1\n", 2, 1).to_string(),
            "leaf source: row 11: the input ends 1 rows early"
        );
        let huge = read_text_rows::<Goldilocks, _>(Cursor::new("1 2\n"), 0, usize::MAX, 2);
        assert!(matches!(huge, Err(MerkleError::Allocation { .. })));
    }
}
