//! The field tower: [`Algebra`], the operators every element type shares (a field element, a
//! vector of them, an extension element); [`Field`] ⊂ [`PrimeField`], [`TwoAdicField`],
//! [`ExtensionField`]; and [`PackedField`] for SIMD vectors of field elements.

use core::fmt::{Debug, Display};
use core::hash::Hash;
use core::iter::{Product, Sum};
use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};
use core::str::FromStr;

use crate::butterflies;
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

    // ---- Sums of products: the linear layers' hooks (MDS rows, partial-round rows). A field
    // with lazy reduction overrides them; the scalar packing calls them.

    /// `Σ_i xs[i]·ys[i]` over the shorter of the two slices (zero when one is empty).
    #[inline(always)]
    fn dot_product(xs: &[Self], ys: &[Self]) -> Self {
        xs.iter()
            .zip(ys)
            .fold(Self::ZERO, |acc, (&x, &y)| acc + x * y)
    }

    /// `Σ_i xs[i]·cs[i]` for small integer constants (an MDS row with small entries). Callers
    /// keep every constant below `2^20` and their sum below `2^32`, so that packings may sum the
    /// products unreduced ([`PackedField::dot_small_constants`]).
    #[inline(always)]
    fn dot_product_small(xs: &[Self], cs: &[u32]) -> Self {
        xs.iter().zip(cs).fold(Self::ZERO, |acc, (&x, &c)| {
            acc + x * Self::from_u64_reduced(u64::from(c))
        })
    }

    /// `self·c + acc`.
    #[inline(always)]
    fn mul_add(self, c: Self, acc: Self) -> Self {
        self * c + acc
    }

    // ---- Chains of power maps: MiMC's rounds ([`crate::chains`]). A field with a
    // lower-latency form of the chain, or faster batch kernels, overrides them.

    /// `x ← (x + k + c)^d` for each `c` of `constants` in turn, then `x + k`: MiMC-p/p's
    /// `E_k(x)` with round constants `constants` and S-box `x^d`. One dependent chain; the
    /// default runs it with the field's own operations
    /// ([`crate::chains::power_chain_textbook`]).
    #[inline]
    fn power_chain(x: Self, k: Self, constants: &[Self], d: u64) -> Self {
        crate::chains::power_chain_textbook(x, k, constants, d)
    }

    /// `xs[i] ← power_chain(xs[i], ks[i], constants, d)` for every `i`, chains side by side.
    /// The default runs them on the widest packing the batch fills
    /// ([`crate::chains::power_chains_default`]).
    ///
    /// # Errors
    /// [`FieldError::UnequalLengths`] when `xs` and `ks` differ in length (nothing is written).
    fn power_chains(
        xs: &mut [Self],
        ks: &[Self],
        constants: &[Self],
        d: u64,
    ) -> Result<(), FieldError> {
        crate::chains::power_chains_default(xs, ks, constants, d)
    }

    /// The chain of a Feistel permutation on its S-box inputs (circomlib's MiMCSponge carries
    /// `u_i = xL_i + k + c_i` alone): `u_1 = u^d + v`, then `u_{i+1} = u_i^d + (u_{i−1} +
    /// steps[i − 1])` for each step; returns `(u_last, u_before_last + u_last^d)`. With `R ≥ 2`
    /// rounds, `u = xL + k + c_0`, `v = xR + k + c_1` and `steps[j] = c_{j+2} − c_j`, the
    /// permuted halves are the first output minus `k + c_{R−1}` and the second minus
    /// `k + c_{R−2}`. The default runs it with the field's own operations
    /// ([`crate::chains::feistel_chain_textbook`]).
    #[inline]
    fn feistel_chain(u: Self, v: Self, steps: &[Self], d: u64) -> (Self, Self) {
        crate::chains::feistel_chain_textbook(u, v, steps, d)
    }

    /// `(us[i], vs[i]) ← feistel_chain(us[i], vs[i], steps, d)` for every `i`, chains side by
    /// side. The default runs them on the widest packing the batch fills
    /// ([`crate::chains::feistel_chains_packed`]).
    ///
    /// # Errors
    /// [`FieldError::UnequalLengths`] when `us` and `vs` differ in length (nothing is written).
    fn feistel_chains(
        us: &mut [Self],
        vs: &mut [Self],
        steps: &[Self],
        d: u64,
    ) -> Result<(), FieldError> {
        crate::chains::feistel_chains_packed(us.len(), us, vs, steps, d)
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

/// A field whose multiplicative group has a large power-of-two subgroup (the NTT domain), with
/// the butterflies that transforms over it run: portable by default, SIMD where the field's
/// crate overrides them.
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

    // ---- Butterflies: the transforms' inner loops. The defaults are the portable loops of
    // [`crate::butterflies`]; a field with SIMD kernels overrides them in its own crate.

    /// `lo[j], hi[j] ← lo[j] + hi[j], (lo[j] − hi[j])·tw[j]` (equal-length runs,
    /// `tw.len() ≥ lo.len()`).
    #[inline]
    fn dif_butterflies(lo: &mut [Self], hi: &mut [Self], tw: &[Self]) {
        butterflies::dif_scalar(lo, hi, tw);
    }

    /// `lo[j], hi[j] ← lo[j] + hi[j]·tw[j], lo[j] − hi[j]·tw[j]`.
    #[inline]
    fn dit_butterflies(lo: &mut [Self], hi: &mut [Self], tw: &[Self]) {
        butterflies::dit_scalar(lo, hi, tw);
    }

    /// The butterflies of twiddle one, `lo, hi ← lo + hi, lo − hi`, over two runs of equal
    /// length: a stage's first pair of points, and every pair of a transform's last DIF or
    /// first DIT stage.
    #[inline]
    fn add_sub_runs(lo: &mut [Self], hi: &mut [Self]) {
        butterflies::add_sub(lo, hi);
    }

    /// DIF butterflies with one twiddle `w` for the whole run.
    #[inline]
    fn dif_butterflies_same(lo: &mut [Self], hi: &mut [Self], w: Self) {
        butterflies::dif_same_scalar(lo, hi, w);
    }

    /// DIT butterflies with one twiddle `w` for the whole run.
    #[inline]
    fn dit_butterflies_same(lo: &mut [Self], hi: &mut [Self], w: Self) {
        butterflies::dit_same_scalar(lo, hi, w);
    }

    /// `a[i] ← a[i]·b[i]` (`b` at least as long as `a`).
    #[inline]
    fn mul_slices(a: &mut [Self], b: &[Self]) {
        for (x, y) in a.iter_mut().zip(b) {
            *x *= *y;
        }
    }

    /// `a[i] ← a[i]·w`.
    #[inline]
    fn mul_by_constant(a: &mut [Self], w: Self) {
        for x in a.iter_mut() {
            *x *= w;
        }
    }

    /// Three radix-2 stages across eight equal-length runs, elementwise: for every `j` the
    /// points `runs[0][j] … runs[7][j]` go through one radix-8 block (DIT half-sizes 1, 2, 4,
    /// or DIF 4, 2, 1), where the stage of half-size `h` pairs runs `m` and `m + h` with
    /// twiddle `w[h − 1 + m mod h]` (so `w = [w1, w2₀, w2₁, w4₀, …, w4₃]`). `unit` says that
    /// `w[0]`, `w[1]` and `w[3]` are one. The default runs the twelve butterflies run by run;
    /// a field may keep the eight points in registers instead.
    #[inline]
    fn three_stages_same(runs: &mut [&mut [Self]; 8], w: &[Self; 7], unit: bool, dif: bool) {
        butterflies::for_each_block_pair(runs, dif, |a, b, slot| {
            butterflies::butterfly_runs(
                a,
                b,
                w[slot],
                unit && (slot == 0 || slot == 1 || slot == 3),
                dif,
            )
        });
    }

    /// [`TwoAdicField::three_stages_same`] with the points scaled: in DIF, point `m` of every
    /// run is multiplied by `points[m]` before the block; in DIT, after it (a four-step row's
    /// twiddles on its first or last pass). The default scales the runs in passes of their
    /// own; a field may scale the points in registers instead.
    #[inline]
    fn three_stages_scaled(
        runs: &mut [&mut [Self]; 8],
        w: &[Self; 7],
        unit: bool,
        dif: bool,
        points: &[Self; 8],
    ) {
        if dif {
            for (run, &p) in runs.iter_mut().zip(points) {
                Self::mul_by_constant(run, p);
            }
        }
        Self::three_stages_same(runs, w, unit, dif);
        if !dif {
            for (run, &p) in runs.iter_mut().zip(points) {
                Self::mul_by_constant(run, p);
            }
        }
    }

    /// The radix-8 blocks of the three stages of half-sizes `h`, `2h`, `4h` over rows of `8h`
    /// contiguous points of `width` elements each (`data.len()` a multiple of `8h·width`,
    /// index-major): in every row, for every `j < h`, points `j + m·h` (`m < 8`) go through
    /// [`TwoAdicField::three_stages_same`] with the twiddles `[t[0][j], t[1][j], t[1][j + h],
    /// t[2][j], t[2][j + h], t[2][j + 2h], t[2][j + 3h]]` (`t` holds the stages of half-sizes
    /// `h`, `2h`, `4h`), unit for `j = 0`; with `points`, scaled as
    /// [`TwoAdicField::three_stages_scaled`] (point `c` by `points[c]`). The default calls
    /// those block by block; a field may run the whole row in one kernel.
    ///
    /// # Panics
    /// When `data.len()` is not a multiple of `8h·width`, a stage table is shorter than its
    /// stage, or `points` is given for more than one row or holds fewer than `8h` elements.
    fn three_stages_block_row(
        data: &mut [Self],
        h: usize,
        width: usize,
        t: [&[Self]; 3],
        dif: bool,
        points: Option<&[Self]>,
    ) {
        butterflies::block_row_by_blocks(data, h, width, t, dif, points);
    }

    /// `t.len()` radix-2 stages (1, 2 or 4) of half-sizes `h`, `2h`, … over rows of
    /// `2^t.len()·h` contiguous points of `width` elements each: in every row, for every
    /// `j < h`, the points `j + m·h`; the stage of half-size `2^s·h` pairs block points `m` and
    /// `m + 2^s` (bit `s` of `m` clear) with the twiddle `t[s][j + (m mod 2^s)·h]` (one for
    /// `j = 0` and `m mod 2^s = 0`, as in [`TwoAdicField::three_stages_block_row`]), DIT from
    /// `s = 0` up, DIF from the top down. Returns `false`, having done nothing, where the field
    /// has no such kernel (the default): the caller then runs the stages pair by pair on runs
    /// of slices. A field overrides it where a kernel of its own beats that (Goldilocks on
    /// AVX-512: stage by stage over cache-sized chunks).
    ///
    /// # Panics
    /// An override may panic when `data.len()` is not a multiple of `2^t.len()·h·width` or a
    /// stage table is shorter than its stage.
    #[inline]
    fn stages_block_row(
        data: &mut [Self],
        h: usize,
        width: usize,
        t: &[&[Self]],
        dif: bool,
    ) -> bool {
        let _ = (data, h, width, t, dif);
        false
    }

    /// `c` such that the field's butterfly kernels multiply by the roots of unity of order up
    /// to `2^c` for markedly less than by other twiddles, on this CPU: 0 (none; the default).
    /// Goldilocks on AVX-512 says 6 (those roots are all `±2^k`, applied by shifts). The NTT's
    /// four-step split of wide points uses it to put more stages on such twiddles.
    #[inline]
    fn cheap_roots_log() -> usize {
        0
    }

    /// [`TwoAdicField::three_stages_same`] with a twiddle per element: slot `i`'s twiddle for
    /// element `j` is `tw[i][j]` (each table at least as long as the runs). This is three
    /// stages of one polynomial, whose runs are consecutive pieces of it.
    #[inline]
    fn three_stages(runs: &mut [&mut [Self]; 8], tw: &[&[Self]; 7], dif: bool) {
        butterflies::for_each_block_pair(runs, dif, |a, b, slot| {
            if dif {
                Self::dif_butterflies(a, b, tw[slot]);
            } else {
                Self::dit_butterflies(a, b, tw[slot]);
            }
        });
    }

    /// The last three DIF stages (half-sizes 4, 2, 1) on every block of eight consecutive
    /// elements, with `tw4 = [ω_8^j]_{j<4}` and `tw2 = [ω_4^j]_{j<2}` (or the inverses).
    #[inline]
    fn dif_last_three_stages(data: &mut [Self], tw4: &[Self], tw2: &[Self]) {
        for block in data.chunks_exact_mut(8) {
            butterflies::three_stages_block(block, tw4, tw2, true);
        }
    }

    /// The first three DIT stages (half-sizes 1, 2, 4) on every block of eight consecutive
    /// elements (see [`TwoAdicField::dif_last_three_stages`]).
    #[inline]
    fn dit_first_three_stages(data: &mut [Self], tw4: &[Self], tw2: &[Self]) {
        for block in data.chunks_exact_mut(8) {
            butterflies::three_stages_block(block, tw4, tw2, false);
        }
    }

    /// Whether [`TwoAdicField::dif_last_four_stages`] and
    /// [`TwoAdicField::dit_first_four_stages`] are one pass of the field's own (`false`: the
    /// defaults, a stage and then the three-stage blocks). The transforms of one polynomial
    /// then take their last (first) four stages in blocks of sixteen where the stages before
    /// (after) them group into threes.
    #[inline]
    fn four_stage_blocks() -> bool {
        false
    }

    /// The last four DIF stages (half-sizes 8, 4, 2, 1) on every block of sixteen consecutive
    /// elements, with `tw8 = [ω_16^j]_{j<8}`, `tw4 = [ω_8^j]_{j<4}` and `tw2 = [ω_4^j]_{j<2}`
    /// (or the inverses).
    ///
    /// # Panics
    /// When a table is shorter than its stage.
    #[inline]
    fn dif_last_four_stages(data: &mut [Self], tw8: &[Self], tw4: &[Self], tw2: &[Self]) {
        for block in data.chunks_exact_mut(16) {
            let (lo, hi) = block.split_at_mut(8);
            Self::dif_butterflies(lo, hi, &tw8[..8]);
        }
        Self::dif_last_three_stages(data, tw4, tw2);
    }

    /// The first four DIT stages (half-sizes 1, 2, 4, 8) on every block of sixteen
    /// consecutive elements (see [`TwoAdicField::dif_last_four_stages`]).
    ///
    /// # Panics
    /// When a table is shorter than its stage.
    #[inline]
    fn dit_first_four_stages(data: &mut [Self], tw8: &[Self], tw4: &[Self], tw2: &[Self]) {
        Self::dit_first_three_stages(data, tw4, tw2);
        for block in data.chunks_exact_mut(16) {
            let (lo, hi) = block.split_at_mut(8);
            Self::dit_butterflies(lo, hi, &tw8[..8]);
        }
    }
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

    // ---- Linear combinations with constants: the hooks of linear layers (MDS rows, sparse
    // partial rounds). The defaults are plain products and sums; a packing with a cheaper form
    // (prepared constants, products of small integers, unreduced sums) overrides them.

    /// A scalar constant in the form this packing multiplies by (the scalar itself, or split
    /// and broadcast ahead of time). Kernels prepare their constants once
    /// ([`PackedField::prepare_constant`]) and keep them.
    type Constant: Copy + Send + Sync + 'static;

    /// `c` prepared for [`PackedField::broadcast_constant`] and the products below.
    fn prepare_constant(cpu: Self::Cpu, c: Self::Scalar) -> Self::Constant;

    /// The prepared constant in every lane.
    fn broadcast_constant(cpu: Self::Cpu, c: &Self::Constant) -> Self;

    /// `Σ_i xs[i]·cs[i]` over the shorter of the two slices. The default sums
    /// the products as a balanced tree, as such a sum often lies on a dependency chain.
    #[inline(always)]
    fn dot_constants(cpu: Self::Cpu, xs: &[Self], cs: &[Self::Constant]) -> Self {
        balanced_dot::<Self>(cpu, xs, cs)
    }

    /// `Σ_i xs[i]·cs[i]` for small integer constants: every `cs[i] < 2^20` and `Σ cs[i] <
    /// 2^32`, which callers guarantee (packings may sum the products unreduced).
    #[inline(always)]
    fn dot_small_constants(cpu: Self::Cpu, xs: &[Self], cs: &[u32]) -> Self {
        let mut acc = Self::broadcast(cpu, Self::Scalar::ZERO);
        for (&x, &c) in xs.iter().zip(cs) {
            acc += x * Self::broadcast(cpu, Self::Scalar::from_u64_reduced(u64::from(c)));
        }
        acc
    }

    /// `x·c + acc`.
    #[inline(always)]
    fn mul_constant_add(cpu: Self::Cpu, x: Self, c: &Self::Constant, acc: Self) -> Self {
        acc + Self::broadcast_constant(cpu, c) * x
    }

    /// `self²` where many independent squarings are in flight (all the S-boxes of a round):
    /// [`Algebra::square`] by default. A packing whose squaring kernel saves products at the
    /// price of a longer dependency chain answers with the product here.
    #[inline(always)]
    fn square_for_throughput(&self) -> Self {
        self.square()
    }

    /// Whether sums of constant products are cheaper kept unreduced
    /// ([`PackedField::accumulate`]) than reduced term by term: kernels with a choice of
    /// form (Poseidon's partial rounds) take the one with the longest sums when it is.
    const LAZY_SUMS: bool = false;

    /// The most products one unreduced sum may hold.
    const MAX_LAZY_TERMS: usize = usize::MAX;

    /// A lane value prepared once for many products ([`PackedField::accumulate`]).
    type Split: Copy;

    /// A sum of constant products, possibly unreduced.
    type Accumulator: Copy;

    /// Prepares `self` for [`PackedField::accumulate`].
    fn split(self, cpu: Self::Cpu) -> Self::Split;

    /// The empty sum.
    fn empty_sum(cpu: Self::Cpu) -> Self::Accumulator;

    /// `acc += c·x` (at most [`PackedField::MAX_LAZY_TERMS`] times per sum).
    fn accumulate(cpu: Self::Cpu, acc: &mut Self::Accumulator, x: &Self::Split, c: &Self::Constant);

    /// The sum.
    fn reduce_sum(acc: Self::Accumulator) -> Self;
}

/// The most terms [`balanced_dot`] sums as one tree; longer sums chain trees of this size.
const DOT_TREE_TERMS: usize = 32;

/// `Σ_i xs[i]·cs[i]` as balanced trees of [`DOT_TREE_TERMS`] products.
#[inline(always)]
fn balanced_dot<P: PackedField>(cpu: P::Cpu, xs: &[P], cs: &[P::Constant]) -> P {
    let mut total: Option<P> = None;
    for (xs, cs) in xs.chunks(DOT_TREE_TERMS).zip(cs.chunks(DOT_TREE_TERMS)) {
        let mut prods = [xs[0]; DOT_TREE_TERMS];
        let mut n = 0;
        for (p, (&x, c)) in prods.iter_mut().zip(xs.iter().zip(cs)) {
            *p = P::broadcast_constant(cpu, c) * x;
            n += 1;
        }
        while n > 1 {
            let half = n / 2;
            for j in 0..half {
                let right = prods[n - half + j];
                prods[j] += right;
            }
            n -= half;
        }
        total = Some(total.map_or(prods[0], |t| t + prods[0]));
    }
    total.unwrap_or_else(|| P::broadcast(cpu, P::Scalar::ZERO))
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

    type Constant = F;
    #[inline(always)]
    fn prepare_constant(_: (), c: F) -> F {
        c
    }
    #[inline(always)]
    fn broadcast_constant(_: (), c: &F) -> F {
        *c
    }
    #[inline(always)]
    fn dot_constants(_: (), xs: &[F], cs: &[F]) -> F {
        F::dot_product(xs, cs)
    }
    #[inline(always)]
    fn dot_small_constants(_: (), xs: &[F], cs: &[u32]) -> F {
        F::dot_product_small(xs, cs)
    }
    #[inline(always)]
    fn mul_constant_add(_: (), x: F, c: &F, acc: F) -> F {
        x.mul_add(*c, acc)
    }
    crate::reduced_sums!();
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
