//! The field tower: [`Algebra`], the operators every element type shares (a field element, a
//! vector of them, an extension element); [`Field`] ⊂ [`PrimeField`], [`TwoAdicField`],
//! [`ExtensionField`]; and [`PackedField`] for SIMD vectors of field elements.

use core::fmt::{Debug, Display};
use core::hash::Hash;
use core::iter::{Product, Sum};
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};
use core::str::FromStr;

use crate::error::FieldError;
use crate::limbs;

/// The ring operations shared by every element type of the tower: field elements, packed
/// vectors of them ([`PackedField`]) and extension elements. Generic kernels are written over
/// it; the derived operations are defined once, here (Plonky3 calls it
/// `PrimeCharacteristicRing`), and a type with a faster squaring overrides [`Algebra::square`].
///
/// The derived operations are inlined always: a packed type's operators only compile to its
/// vector instructions inside a caller built for them, and a derived operation left out of
/// line would be built without them (it ran the Goldilocks AVX-512 MiMC batch 12 times
/// slower than the scalar one).
pub trait Algebra:
    Copy
    + Send
    + Sync
    + Add<Output = Self>
    + AddAssign
    + Sub<Output = Self>
    + SubAssign
    + Mul<Output = Self>
    + MulAssign
    + Neg<Output = Self>
{
    /// `self * self`.
    #[inline(always)]
    fn square(&self) -> Self {
        *self * *self
    }

    /// `self * self * self`.
    #[inline(always)]
    fn cube(&self) -> Self {
        self.square() * *self
    }

    /// `2 * self`.
    #[inline(always)]
    fn double(&self) -> Self {
        *self + *self
    }

    /// `self ^ (2^k)`: `k` squarings.
    fn exp_power_of_2(&self, k: usize) -> Self {
        let mut x = *self;
        for _ in 0..k {
            x = x.square();
        }
        x
    }
}

/// A finite field.
///
/// Elements are plain `Copy` values; equality is equality of the field elements, whatever
/// internal representation (Montgomery form, non-canonical Goldilocks words) a type uses.
pub trait Field: Algebra + Default + Debug + Display + Eq + Hash + 'static + Sum + Product {
    /// The additive identity.
    const ZERO: Self;
    /// The multiplicative identity.
    const ONE: Self;
    /// `1 + 1`.
    const TWO: Self;
    /// `-1`.
    const NEG_ONE: Self;
    /// A generator of the multiplicative group, the one the standard libraries use
    /// (arkworks for the 256-bit fields, Plonky2/Plonky3 for Goldilocks).
    const GENERATOR: Self;

    /// The image of the integer `v`, reduced modulo the characteristic.
    fn from_u64_reduced(v: u64) -> Self;

    /// Whether this is zero.
    #[inline]
    fn is_zero(&self) -> bool {
        *self == Self::ZERO
    }

    /// `self ^ exponent` by square-and-multiply.
    fn exp_u64(&self, exponent: u64) -> Self {
        self.exp_limbs(&[exponent])
    }

    /// `self ^ exponent` for an exponent given as little-endian 64-bit limbs.
    fn exp_limbs(&self, exponent: &[u64]) -> Self {
        let mut acc = Self::ONE;
        for i in (0..limbs::bit_len(exponent) as usize).rev() {
            acc = acc.square();
            if limbs::bit(exponent, i) {
                acc *= *self;
            }
        }
        acc
    }

    /// The multiplicative inverse, or `None` for zero.
    fn try_inverse(&self) -> Option<Self>;

    /// The multiplicative inverse.
    ///
    /// # Panics
    /// Panics when `self` is zero. Use [`Field::try_inverse`] on values that may be zero.
    fn inverse(&self) -> Self {
        self.try_inverse()
            .expect("zero has no multiplicative inverse")
    }

    /// A square root, or `None` when `self` is not a square. Which of the two roots is returned
    /// is not specified; square it to check.
    fn sqrt(&self) -> Option<Self>;

    /// The order of the field as little-endian limbs minus one, i.e. the order of the
    /// multiplicative group.
    fn multiplicative_group_order() -> Vec<u64>;

    /// Runs `kernel` on the widest packing of this field that the running CPU offers (the
    /// field itself, one lane, when it offers none or `ZKACCEL_SIMD` is off). The default is
    /// the portable packing; a field with SIMD packings overrides it in its own crate.
    #[inline]
    fn run_packed<K: PackedKernel<Self>>(kernel: K) -> K::Output {
        kernel.run::<Self>(())
    }

    /// Runs `kernel` on the widest packing of this field no wider than `max_lanes` lanes (at
    /// least the field itself): for batches too small to fill the widest one.
    #[inline]
    fn run_packed_within<K: PackedKernel<Self>>(max_lanes: usize, kernel: K) -> K::Output {
        let _ = max_lanes;
        kernel.run::<Self>(())
    }

    /// The lane counts of the packings [`Field::run_packed`] can choose on the running CPU,
    /// widest first, ending with 1 (the field itself).
    fn packing_widths() -> Vec<usize> {
        vec![1]
    }
}

/// A prime field `GF(p)` with canonical encodings.
///
/// Canonical encodings hold the integer in `[0, p)`: fixed-length little- and big-endian bytes,
/// decimal strings and `0x` hexadecimal strings. Decoders reject anything else with a
/// [`FieldError`]; the `*_reduced` constructors are the explicit way to reduce modulo `p`.
pub trait PrimeField: Field + Ord + FromStr<Err = FieldError> {
    /// The field's name, used in error messages.
    const NAME: &'static str;
    /// The number of bytes of the canonical byte encoding.
    const NUM_BYTES: usize;
    /// The number of bits of `p`.
    const BITS: u32;
    /// Canonical value as little-endian 64-bit limbs (`[u64; 1]` or `[u64; 4]`).
    type Limbs: Copy + Debug + Default + Eq + AsRef<[u64]> + AsMut<[u64]>;

    /// The modulus `p` as little-endian limbs.
    fn modulus() -> Self::Limbs;

    /// The canonical integer in `[0, p)`.
    fn to_canonical_limbs(&self) -> Self::Limbs;

    /// The element whose canonical integer is `limbs`.
    ///
    /// # Errors
    /// [`FieldError::NonCanonical`] when the integer is `>= p`.
    fn from_canonical_limbs(limbs: Self::Limbs) -> Result<Self, FieldError>;

    /// Converts an integer known to be canonical; callers guarantee `limbs < p`.
    /// Used by the derived constructors below after they checked or reduced the value.
    fn from_canonical_limbs_unchecked(limbs: Self::Limbs) -> Self;

    /// The element `v mod p` for an integer of any length, given as little-endian limbs.
    fn from_limbs_reduced(v: &[u64]) -> Self {
        let p = Self::modulus();
        let r = limbs::rem(v, p.as_ref());
        let mut out = Self::Limbs::default();
        out.as_mut().copy_from_slice(&r);
        Self::from_canonical_limbs_unchecked(out)
    }

    /// Builds the error for a non-canonical integer.
    fn non_canonical_error(value: &[u64]) -> FieldError {
        FieldError::NonCanonical {
            field: Self::NAME,
            value: limbs::to_decimal(value),
            modulus: limbs::to_decimal(Self::modulus().as_ref()),
        }
    }

    /// Checks `limbs < p`.
    ///
    /// # Errors
    /// [`FieldError::NonCanonical`] when it is not.
    fn check_canonical(value: &[u64]) -> Result<(), FieldError> {
        if limbs::cmp_padded(value, Self::modulus().as_ref()) == core::cmp::Ordering::Less {
            Ok(())
        } else {
            Err(Self::non_canonical_error(value))
        }
    }

    /// Decodes exactly [`PrimeField::NUM_BYTES`] little-endian bytes.
    ///
    /// # Errors
    /// [`FieldError::WrongLength`] for any other length, [`FieldError::NonCanonical`] when the
    /// integer is `>= p`.
    fn from_bytes_le(bytes: &[u8]) -> Result<Self, FieldError> {
        if bytes.len() != Self::NUM_BYTES {
            return Err(FieldError::WrongLength {
                field: Self::NAME,
                expected: Self::NUM_BYTES,
                actual: bytes.len(),
                unit: "bytes",
            });
        }
        let v = limbs::from_bytes_le(bytes, Self::Limbs::default().as_ref().len());
        Self::check_canonical(&v)?;
        let mut out = Self::Limbs::default();
        out.as_mut().copy_from_slice(&v);
        Ok(Self::from_canonical_limbs_unchecked(out))
    }

    /// Decodes exactly [`PrimeField::NUM_BYTES`] big-endian bytes.
    ///
    /// # Errors
    /// As [`PrimeField::from_bytes_le`].
    fn from_bytes_be(bytes: &[u8]) -> Result<Self, FieldError> {
        let mut le = bytes.to_vec();
        le.reverse();
        Self::from_bytes_le(&le)
    }

    /// Reduces little-endian bytes of any length modulo `p` (the explicitly named way to accept
    /// non-canonical input, e.g. hash outputs).
    fn from_bytes_le_reduced(bytes: &[u8]) -> Self {
        Self::from_limbs_reduced(&limbs::from_bytes_le(bytes, 1))
    }

    /// The canonical little-endian encoding, [`PrimeField::NUM_BYTES`] long.
    fn to_bytes_le(&self) -> Vec<u8> {
        let mut out = vec![0u8; Self::NUM_BYTES];
        self.write_bytes_le(&mut out);
        out
    }

    /// Writes the canonical little-endian encoding into `out` (exactly
    /// [`PrimeField::NUM_BYTES`] long) without allocating.
    fn write_bytes_le(&self, out: &mut [u8]) {
        debug_assert_eq!(out.len(), Self::NUM_BYTES);
        limbs::to_bytes_le(self.to_canonical_limbs().as_ref(), out);
    }

    /// The canonical big-endian encoding, [`PrimeField::NUM_BYTES`] long.
    fn to_bytes_be(&self) -> Vec<u8> {
        let mut out = self.to_bytes_le();
        out.reverse();
        out
    }

    /// Parses a canonical decimal or `0x`-hexadecimal string.
    ///
    /// # Errors
    /// [`FieldError::Malformed`] for a string that is not a number, [`FieldError::NonCanonical`]
    /// for a number `>= p`.
    fn from_str_canonical(s: &str) -> Result<Self, FieldError> {
        let n = Self::Limbs::default().as_ref().len();
        let v = limbs::parse(s, n).map_err(|e| match e {
            // A number too large for the limbs is non-canonical, whatever its exact value.
            FieldError::Malformed { reason, .. } if reason.starts_with("number too large") => {
                FieldError::NonCanonical {
                    field: Self::NAME,
                    value: crate::error::excerpt(s.trim()),
                    modulus: limbs::to_decimal(Self::modulus().as_ref()),
                }
            }
            other => other,
        })?;
        Self::check_canonical(&v)?;
        let mut out = Self::Limbs::default();
        out.as_mut().copy_from_slice(&v);
        Ok(Self::from_canonical_limbs_unchecked(out))
    }

    /// Parses a decimal or `0x`-hexadecimal string of any size and reduces it modulo `p`.
    ///
    /// # Errors
    /// [`FieldError::Malformed`] for a string that is not a number.
    /// Linear in the length of `s`: Horner's rule in the field, one chunk of 19 decimal or 16
    /// hexadecimal digits (one 64-bit word) per step.
    fn from_str_reduced(s: &str) -> Result<Self, FieldError> {
        let mut acc = Self::ZERO;
        let mut scale_cache: Option<(u32, Self)> = None;
        limbs::parse_chunks(s, |radix, digits, value| {
            // radix^digits: the same for every full chunk, so computed once.
            let scale = match scale_cache {
                Some((d, sc)) if d == digits => sc,
                _ => {
                    let sc = Self::from_u64_reduced(radix).exp_u64(u64::from(digits));
                    scale_cache = Some((digits, sc));
                    sc
                }
            };
            acc = acc * scale + Self::from_u64_reduced(value);
        })?;
        Ok(acc)
    }

    /// The canonical value in decimal.
    fn to_decimal_string(&self) -> String {
        limbs::to_decimal(self.to_canonical_limbs().as_ref())
    }

    /// The canonical value as `0x`-prefixed hex, zero-padded to the encoding's width.
    fn to_hex_string(&self) -> String {
        limbs::to_hex(self.to_canonical_limbs().as_ref(), 2 * Self::NUM_BYTES)
    }
}

/// A field whose multiplicative group has a large power-of-two subgroup (the NTT domain). The
/// transforms' kernels over it are `zkaccel_ntt::NttField`'s, a trait of the NTT crate.
pub trait TwoAdicField: Field {
    /// The largest `s` with `2^s | |F*|`.
    const TWO_ADICITY: usize;

    /// A generator of the subgroup of order `2^bits`: the field's `2^TWO_ADICITY`-th root
    /// raised to `2^(TWO_ADICITY - bits)`, the convention arkworks and Plonky3 share (plonky2
    /// derives its roots the same way, but from another `2^TWO_ADICITY`-th root for
    /// Goldilocks).
    ///
    /// # Errors
    /// [`FieldError::TwoAdicityExceeded`] when `bits > TWO_ADICITY`.
    fn two_adic_generator(bits: usize) -> Result<Self, FieldError>;
}

/// A field extension `E / Base` of degree [`ExtensionField::DEGREE`], in a power basis.
pub trait ExtensionField<Base: Field>:
    Field + Add<Base, Output = Self> + Mul<Base, Output = Self>
{
    /// `[E : Base]`.
    const DEGREE: usize;
    /// Embeds a base-field element.
    fn from_base(b: Base) -> Self;
    /// The coordinates in the power basis `1, X, …, X^(D-1)`.
    fn as_base_slice(&self) -> &[Base];
    /// Builds an element from its power-basis coordinates.
    ///
    /// # Errors
    /// [`FieldError::WrongLength`] when `coeffs.len() != DEGREE`.
    fn from_base_slice(coeffs: &[Base]) -> Result<Self, FieldError>;
}

/// A SIMD vector of [`PackedField::WIDTH`] field elements with lane-wise arithmetic.
///
/// A field names its packed forms ([`Field::run_packed`] runs a kernel on the best one the CPU
/// offers); every field is also its own width-1 packing, the portable one, so generic kernels
/// have a path that runs everywhere and that the same tests cover.
///
/// **No packing without its instructions.** A value is built only with a [`PackedField::Cpu`]
/// token, which [`PackedField::detect`] hands out only on a CPU with the packing's instruction
/// set (see [`crate::cpu`]); on any other CPU it answers `None`, and the kernel falls back to
/// another packing (the scalar one at the end) instead of failing.
pub trait PackedField: Algebra {
    /// The scalar field of the lanes.
    type Scalar: Field;
    /// Proof that the running CPU has this packing's instructions: a token of [`crate::cpu`]
    /// for a SIMD packing, `()` for a field as its own packing.
    type Cpu: Copy + Send + Sync + Debug + 'static;
    /// Number of lanes.
    const WIDTH: usize;
    /// The token, when the running CPU has the instructions and `ZKACCEL_SIMD` does not switch
    /// them off; `None` otherwise.
    fn detect() -> Option<Self::Cpu>;
    /// Reads `WIDTH` scalars.
    ///
    /// # Panics
    /// Panics when `slice.len() != WIDTH` (a programming error, not a data error).
    fn from_slice(cpu: Self::Cpu, slice: &[Self::Scalar]) -> Self;
    /// `x` in every lane.
    fn broadcast(cpu: Self::Cpu, x: Self::Scalar) -> Self;
    /// Writes the lanes to `WIDTH` scalars.
    ///
    /// # Panics
    /// Panics when `out.len() != WIDTH`.
    fn write_to_slice(&self, out: &mut [Self::Scalar]);
}

impl<F: Field> PackedField for F {
    type Scalar = F;
    type Cpu = ();
    const WIDTH: usize = 1;
    #[inline(always)]
    fn detect() -> Option<()> {
        Some(())
    }
    #[inline(always)]
    fn from_slice(_: (), slice: &[F]) -> Self {
        assert_eq!(slice.len(), 1, "a scalar packing has one lane");
        slice[0]
    }
    #[inline(always)]
    fn broadcast(_: (), x: F) -> Self {
        x
    }
    #[inline(always)]
    fn write_to_slice(&self, out: &mut [F]) {
        assert_eq!(out.len(), 1, "a scalar packing has one lane");
        out[0] = *self;
    }
}

/// A kernel written once over packings: [`Field::run_packed`] calls [`PackedKernel::run`] with
/// the packing it chose for the running CPU, once, at the kernel's entry.
///
/// The field calls `run` from a function compiled for the packing's instruction set, so a
/// kernel whose `run` is `#[inline(always)]` (and calls only inlined code on the lanes) is
/// compiled with those instructions.
pub trait PackedKernel<F: Field> {
    /// What the kernel returns.
    type Output;
    /// Runs the kernel on packing `P`; `cpu` proves its instructions are there.
    fn run<P: PackedField<Scalar = F>>(self, cpu: P::Cpu) -> Self::Output;
}
