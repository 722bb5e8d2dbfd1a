#![doc = include_str!("../README.md")]

mod class;

pub use class::{Classify, ErrorClass};

use zkaccel_field::{FieldError, PrimeField};

/// Why bytes could not be decoded. `what` names the item being read, in the decoder's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The input ends before the item does.
    #[error("{what}: the encoding ends {missing} bytes early")]
    Truncated {
        /// The item being read.
        what: &'static str,
        /// How many more bytes it needed.
        missing: usize,
    },
    /// A field element that is not in canonical form.
    #[error("{what}: {source}")]
    Element {
        /// The item being read.
        what: &'static str,
        /// What the field said.
        source: FieldError,
    },
    /// A count or length other than the one the statement fixes.
    #[error("{what}: {got} where {expected} is required")]
    Length {
        /// The item being read.
        what: &'static str,
        /// The value the statement fixes.
        expected: u64,
        /// The value found.
        got: u64,
    },
    /// A value outside the range the format allows.
    #[error("{what}: {got} is outside {min} to {max}")]
    OutOfRange {
        /// The item being read.
        what: &'static str,
        /// The least value allowed.
        min: u64,
        /// The largest value allowed.
        max: u64,
        /// The value found.
        got: u64,
    },
    /// A tag or magic number the format does not have.
    #[error("{what}: unknown value {got:#x}")]
    Unknown {
        /// The item being read.
        what: &'static str,
        /// The value found.
        got: u64,
    },
    /// A name (an AIR, a preset) the format does not know.
    #[error("{what}: unknown name {name:?}")]
    UnknownName {
        /// The item being read.
        what: &'static str,
        /// The name found, at most 40 characters of it.
        name: String,
    },
    /// A list the format keeps strictly increasing (indices, positions) that is not.
    #[error("{what} must be strictly increasing")]
    NotIncreasing {
        /// The list.
        what: &'static str,
    },
    /// Bytes after the end of the encoding (a canonical encoding has none).
    #[error("{count} bytes after the end of the encoding")]
    Trailing {
        /// How many.
        count: usize,
    },
}

/// A proof's part whose count or length differs from the one the statement or the parameters
/// fix: what it is, the number required and the number found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what}: {got} where {expected} is required")]
pub struct ShapeError {
    /// The part.
    pub what: String,
    /// The number the statement or the parameters fix.
    pub expected: u64,
    /// The number found.
    pub got: u64,
}

impl ShapeError {
    /// `Ok` when `got == expected`, else the error, naming the part by `what()` (built only
    /// then).
    ///
    /// # Errors
    /// When they differ.
    pub fn expect<W: Into<String>>(
        expected: usize,
        got: usize,
        what: impl FnOnce() -> W,
    ) -> Result<(), Self> {
        if got == expected {
            Ok(())
        } else {
            Err(Self {
                what: what().into(),
                expected: expected as u64,
                got: got as u64,
            })
        }
    }
}

impl DecodeError {
    /// [`DecodeError::UnknownName`] for `name` (its first 40 characters).
    pub fn unknown_name(what: &'static str, name: &[u8]) -> Self {
        Self::UnknownName {
            what,
            name: String::from_utf8_lossy(name).chars().take(40).collect(),
        }
    }

    /// [`DecodeError::OutOfRange`] unless `min <= got <= max`.
    ///
    /// # Errors
    /// When `got` lies outside.
    pub fn expect_range(what: &'static str, got: u64, min: u64, max: u64) -> Result<(), Self> {
        if (min..=max).contains(&got) {
            Ok(())
        } else {
            Err(Self::OutOfRange {
                what,
                min,
                max,
                got,
            })
        }
    }

    /// [`DecodeError::Length`] unless `got == expected`.
    ///
    /// # Errors
    /// When they differ.
    pub fn expect_len(what: &'static str, expected: u64, got: u64) -> Result<(), Self> {
        if got == expected {
            Ok(())
        } else {
            Err(Self::Length {
                what,
                expected,
                got,
            })
        }
    }
}

/// A cursor over encoded bytes that never reads past the end, and never allocates for a count
/// the remaining bytes cannot hold.
#[derive(Debug, Clone)]
pub struct ByteReader<'a> {
    input: &'a [u8],
    position: usize,
}

impl<'a> ByteReader<'a> {
    /// A reader at the start of `input`.
    pub fn new(input: &'a [u8]) -> Self {
        Self { input, position: 0 }
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.input.len() - self.position
    }

    /// Bytes read so far.
    pub fn position(&self) -> usize {
        self.position
    }

    /// The next `n` bytes.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`] when fewer remain.
    pub fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], DecodeError> {
        let left = self.remaining();
        if n > left {
            return Err(DecodeError::Truncated {
                what,
                missing: n - left,
            });
        }
        let bytes = &self.input[self.position..self.position + n];
        self.position += n;
        Ok(bytes)
    }

    /// The next `N` bytes as an array.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`].
    pub fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], DecodeError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    /// One byte.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`].
    pub fn u8(&mut self, what: &'static str) -> Result<u8, DecodeError> {
        Ok(self.array::<1>(what)?[0])
    }

    /// A little-endian `u16`.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`].
    pub fn u16_le(&mut self, what: &'static str) -> Result<u16, DecodeError> {
        Ok(u16::from_le_bytes(self.array(what)?))
    }

    /// A little-endian `u32`.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`].
    pub fn u32_le(&mut self, what: &'static str) -> Result<u32, DecodeError> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    /// A little-endian `u64`.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`].
    pub fn u64_le(&mut self, what: &'static str) -> Result<u64, DecodeError> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }

    /// A field element in its canonical little-endian encoding.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`]; [`DecodeError::Element`] for a non-canonical one.
    pub fn field<F: PrimeField>(&mut self, what: &'static str) -> Result<F, DecodeError> {
        F::from_bytes_le(self.take(F::NUM_BYTES, what)?)
            .map_err(|source| DecodeError::Element { what, source })
    }

    /// `n` field elements. The count is checked against the bytes left before anything is
    /// allocated for it.
    ///
    /// # Errors
    /// As [`ByteReader::field`]; [`DecodeError::Truncated`] at once when `n` elements cannot
    /// fit in what is left.
    pub fn fields<F: PrimeField>(
        &mut self,
        n: usize,
        what: &'static str,
    ) -> Result<Vec<F>, DecodeError> {
        self.check_fits(n, F::NUM_BYTES, what)?;
        (0..n).map(|_| self.field(what)).collect()
    }

    /// Checks that `count` items of `size` bytes each fit in what is left, before a decoder
    /// allocates for them.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`] (with the shortfall, saturated) when they do not.
    pub fn check_fits(
        &self,
        count: usize,
        size: usize,
        what: &'static str,
    ) -> Result<(), DecodeError> {
        let left = self.remaining();
        match count.checked_mul(size) {
            Some(need) if need <= left => Ok(()),
            need => Err(DecodeError::Truncated {
                what,
                missing: need.map_or(usize::MAX, |n| n - left),
            }),
        }
    }

    /// Ends the decoding.
    ///
    /// # Errors
    /// [`DecodeError::Trailing`] when bytes are left.
    pub fn finish(self) -> Result<(), DecodeError> {
        match self.remaining() {
            0 => Ok(()),
            count => Err(DecodeError::Trailing { count }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use zkaccel_goldilocks::Goldilocks;

    #[test]
    fn integers_are_little_endian_and_bounded() {
        let bytes = [1u8, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
        let mut r = ByteReader::new(&bytes);
        assert_eq!(r.u8("a").unwrap(), 1);
        assert_eq!(r.u16_le("b").unwrap(), 0x0302);
        assert_eq!(r.u32_le("c").unwrap(), 0x0706_0504);
        assert_eq!(r.position(), 7);
        assert_eq!(r.u64_le("d"), Ok(0x0f0e_0d0c_0b0a_0908));
        assert_eq!(r.remaining(), 0);
        assert!(r.clone().finish().is_ok());
        assert_eq!(
            r.u8("e"),
            Err(DecodeError::Truncated {
                what: "e",
                missing: 1
            })
        );
    }

    #[test]
    fn non_canonical_elements_and_huge_counts_are_typed_errors() {
        // Goldilocks' modulus 2^64 − 2^32 + 1.
        let p: u64 = 0xffff_ffff_0000_0001;
        let mut r = ByteReader::new(&[0xff; 8]);
        assert!(matches!(
            r.field::<Goldilocks>("x"),
            Err(DecodeError::Element { what: "x", .. })
        ));
        let mut bytes = p.to_le_bytes().to_vec();
        bytes.extend_from_slice(&(p - 1).to_le_bytes());
        let mut r = ByteReader::new(&bytes);
        assert!(r.field::<Goldilocks>("p").is_err());
        // A count no input holds is refused before anything is allocated for it.
        let r = ByteReader::new(&[0; 16]);
        assert_eq!(
            r.clone().fields::<Goldilocks>(usize::MAX, "many"),
            Err(DecodeError::Truncated {
                what: "many",
                missing: usize::MAX
            })
        );
        assert_eq!(
            r.clone().fields::<Goldilocks>(3, "three"),
            Err(DecodeError::Truncated {
                what: "three",
                missing: 8
            })
        );
        let mut r = ByteReader::new(&[0; 17]);
        assert_eq!(r.fields::<Goldilocks>(2, "two").unwrap().len(), 2);
        assert_eq!(r.finish(), Err(DecodeError::Trailing { count: 1 }));
        assert!(ShapeError::expect(2, 2, || "x").is_ok());
        assert_eq!(
            ShapeError::expect(2, 3, || format!("round {}", 7)),
            Err(ShapeError {
                what: "round 7".into(),
                expected: 2,
                got: 3
            })
        );
        assert_eq!(
            DecodeError::unknown_name("an AIR", &[b'x'; 100]).to_string(),
            format!("an AIR: unknown name {:?}", "x".repeat(40))
        );
        assert!(DecodeError::expect_len("n", 3, 3).is_ok());
        assert_eq!(
            DecodeError::expect_len("n", 3, 4),
            Err(DecodeError::Length {
                what: "n",
                expected: 3,
                got: 4
            })
        );
    }

    proptest! {
        /// Whatever the bytes and the reads asked of them, a read returns an error or bytes
        /// it was given, never panics, and never moves past the end.
        #[test]
        fn reads_never_run_past_the_input(
            input in proptest::collection::vec(any::<u8>(), 0..64),
            reads in proptest::collection::vec(0usize..20, 0..12),
        ) {
            let mut r = ByteReader::new(&input);
            for n in reads {
                let before = r.position();
                match r.take(n, "t") {
                    Ok(b) => {
                        prop_assert_eq!(b, &input[before..before + n]);
                        prop_assert_eq!(r.position(), before + n);
                    }
                    Err(DecodeError::Truncated { missing, .. }) => {
                        prop_assert_eq!(missing, n - (input.len() - before));
                        prop_assert_eq!(r.position(), before);
                    }
                    Err(other) => prop_assert!(false, "{other}"),
                }
            }
        }
    }
}
