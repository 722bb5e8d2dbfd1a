//! The Goldilocks prime field, `p = 2^64 − 2^32 + 1`.
//!
//! Elements are stored as any `u64` (possibly non-canonical, i.e. in `[p, 2^64)`), as in Plonky2
//! and Plonky3, which saves a conditional subtraction on every operation; equality, hashing,
//! ordering and every encoding use the canonical value.
//!
//! Reduction uses `2^64 ≡ 2^32 − 1 (mod p)` and `2^96 ≡ −1 (mod p)`: a 128-bit product
//! `x = x_lo + 2^64·(x_hi_lo + 2^32·x_hi_hi)` is `x_lo − x_hi_hi + (2^32 − 1)·x_hi_lo (mod p)`.

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::iter::{Product, Sum};
use core::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};
use core::str::FromStr;

use zkaccel_field::{
    tonelli_shanks, Algebra, Field, FieldError, PackedKernel, PrimeField, TwoAdicField,
};
use zkaccel_ntt::{NttField, WritePrefetch};

/// `p = 2^64 − 2^32 + 1`.
pub const ORDER: u64 = 0xFFFF_FFFF_0000_0001;
/// `2^64 − p = 2^32 − 1`.
pub(crate) const EPSILON: u64 = 0xFFFF_FFFF;

/// An element of the Goldilocks field.
#[derive(Clone, Copy, Default)]
#[repr(transparent)]
pub struct Goldilocks(pub(crate) u64);

impl Goldilocks {
    /// The element `v mod p`; `v` may be any `u64` (it is stored as is and reduced lazily).
    #[inline]
    pub const fn new_reduced(v: u64) -> Self {
        Self(v)
    }

    /// The element with canonical value `v`.
    ///
    /// # Errors
    /// [`FieldError::NonCanonical`] when `v >= p`.
    pub fn new_canonical(v: u64) -> Result<Self, FieldError> {
        if v < ORDER {
            Ok(Self(v))
        } else {
            Err(<Self as PrimeField>::non_canonical_error(&[v]))
        }
    }

    /// The canonical value in `[0, p)`.
    #[inline]
    pub const fn as_canonical_u64(&self) -> u64 {
        let x = self.0;
        if x >= ORDER {
            x - ORDER
        } else {
            x
        }
    }

    /// The stored word, possibly non-canonical. For SIMD code that shares this representation.
    #[inline]
    pub const fn as_raw_u64(&self) -> u64 {
        self.0
    }

    /// Views canonical words as field elements, without copying (e.g. a numpy `uint64` array).
    ///
    /// # Errors
    /// [`FieldError::NonCanonical`] naming the first word `>= p`; nothing is viewed then.
    pub fn slice_from_canonical(words: &[u64]) -> Result<&[Self], FieldError> {
        check_all_canonical(words)?;
        // SAFETY: `Goldilocks` is `repr(transparent)` over `u64`, so both slices have the same
        // layout, length and alignment; every word is a valid (here even canonical) element.
        Ok(unsafe { core::slice::from_raw_parts(words.as_ptr().cast::<Self>(), words.len()) })
    }

    /// [`Goldilocks::slice_from_canonical`] for a mutable buffer: transforms then run in place
    /// on the caller's words.
    ///
    /// # Errors
    /// As [`Goldilocks::slice_from_canonical`].
    pub fn slice_from_canonical_mut(words: &mut [u64]) -> Result<&mut [Self], FieldError> {
        check_all_canonical(words)?;
        Ok(Self::slice_from_words_mut(words))
    }

    /// Views words as field elements without checking them, for callers that checked them
    /// another way (e.g. in parallel chunks with [`Goldilocks::slice_from_canonical`]): every
    /// word is an element here, a word `w ≥ p` standing for `w − p`, so this is sound for any
    /// words; whether non-canonical input is acceptable is the caller's policy.
    pub fn slice_from_words_mut(words: &mut [u64]) -> &mut [Self] {
        // SAFETY: `Goldilocks` is `repr(transparent)` over `u64`: same layout, length and
        // alignment; the mutable borrow of `words` moves into the returned slice, so no other
        // view of the words exists while it lives; the type stores any word (reduced lazily),
        // so every word the elements hold or are later set to is a valid element.
        unsafe { core::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<Self>(), words.len()) }
    }

    /// Whether every element is stored as its canonical word (`< p`): what a plan's input
    /// check asks of words viewed with [`Goldilocks::slice_from_words_mut`].
    pub fn all_canonical(values: &[Self]) -> bool {
        // SAFETY: `repr(transparent)` over `u64`: the same memory read as words.
        let words =
            unsafe { core::slice::from_raw_parts(values.as_ptr().cast::<u64>(), values.len()) };
        !any_non_canonical(words)
    }

    /// Reduces every element to its canonical word in place and views the result as `u64`s:
    /// the inverse of [`Goldilocks::slice_from_canonical_mut`], without copying.
    pub fn canonical_words_mut(values: &mut [Self]) -> &mut [u64] {
        // Kernels leave a word `≥ p` about once in 2^32 outputs: a read-only scan per block
        // (it vectorises), rewriting only the rare block that holds one, keeps the caller's
        // cache lines clean.
        for block in values.chunks_mut(CANONICAL_BLOCK) {
            // SAFETY: `repr(transparent)` over `u64`: the block's words, read only.
            let words =
                unsafe { core::slice::from_raw_parts(block.as_ptr().cast::<u64>(), block.len()) };
            if any_non_canonical(words) {
                for v in block.iter_mut() {
                    v.0 = v.as_canonical_u64();
                }
            }
        }
        // SAFETY: `repr(transparent)` over `u64`: same layout, length and alignment; the
        // mutable borrow moves into the returned slice.
        unsafe { core::slice::from_raw_parts_mut(values.as_mut_ptr().cast::<u64>(), values.len()) }
    }
}

/// Whether some word is `≥ p`: a branch-free scan, on the widest vectors the CPU has.
#[inline]
pub(crate) fn any_non_canonical(words: &[u64]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        crate::x86_64::any_at_least(words, ORDER)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        any_at_least_portable(words, ORDER)
    }
}

/// Whether some word is `≥ bound`, written so that it vectorises for whatever target features
/// the caller is compiled with.
#[inline(always)]
pub(crate) fn any_at_least_portable(words: &[u64], bound: u64) -> bool {
    words.iter().fold(false, |bad, &w| bad | (w >= bound))
}

/// Elements per block of [`Goldilocks::canonical_words_mut`]'s scan (8 KiB, within L1).
const CANONICAL_BLOCK: usize = 1 << 10;

/// `Ok` when every word is below `p`, else the error naming the first that is not.
fn check_all_canonical(words: &[u64]) -> Result<(), FieldError> {
    // A branch-free scan first (vectorised); the error path looks for the culprit.
    if any_non_canonical(words) {
        let first = words
            .iter()
            .find(|&&w| w >= ORDER)
            .copied()
            .unwrap_or(ORDER);
        return Err(<Goldilocks as PrimeField>::non_canonical_error(&[first]));
    }
    Ok(())
}

/// Marks the enclosing branch as rare: an empty `asm!` the optimiser cannot see through, so it
/// keeps a (well-predicted) branch instead of a conditional move on the critical path.
#[inline(always)]
fn rare_branch() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: an empty instruction sequence that touches no memory, stack or flags.
    unsafe {
        core::arch::asm!("", options(nomem, nostack, preserves_flags));
    }
}

/// `x + y`, folding a carry out of 64 bits back in as `2^32 − 1`; needs `x + y < 2^64 + p`.
#[inline(always)]
fn add_fold_carry(x: u64, y: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let sum: u64;
        let fold: u64;
        // SAFETY: register-only arithmetic: `add` leaves the carry in CF, `sbb` of a 32-bit
        // register with itself turns it into 0 or 2^32 − 1 (zero-extended).
        unsafe {
            core::arch::asm!(
                "add {sum}, {y}",
                "sbb {fold:e}, {fold:e}",
                sum = inout(reg) x => sum,
                y = in(reg) y,
                fold = out(reg) fold,
                options(pure, nomem, nostack),
            );
        }
        sum.wrapping_add(fold)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let (res, carry) = x.overflowing_add(y);
        res.wrapping_add(EPSILON * carry as u64)
    }
}

/// Reduces a 128-bit integer to a `u64` congruent to it modulo `p` (not necessarily canonical).
#[inline(always)]
pub(crate) fn reduce128(x: u128) -> u64 {
    let x_lo = x as u64;
    let x_hi = (x >> 64) as u64;
    let x_hi_hi = x_hi >> 32;
    let x_hi_lo = x_hi & EPSILON;
    // x_lo − x_hi_hi, with a borrow meaning we must subtract 2^64 ≡ 2^32 − 1.
    let (mut t0, borrow) = x_lo.overflowing_sub(x_hi_hi);
    if borrow {
        rare_branch(); // a borrow needs x_lo < 2^32: rare on random data
        t0 = t0.wrapping_sub(EPSILON); // cannot underflow: t0 >= 2^64 − 2^32 here
    }
    let t1 = x_hi_lo * EPSILON; // (2^32 − 1)^2 < 2^64
                                // A carry is 2^64 ≡ 2^32 − 1; t0 + t1 < 2^64 + p, so one fold suffices.
    add_fold_carry(t0, t1)
}

impl Add for Goldilocks {
    type Output = Self;
    #[inline]
    fn add(self, rhs: Self) -> Self {
        let (sum, over) = self.0.overflowing_add(rhs.0);
        let (mut sum, over) = sum.overflowing_add(if over { EPSILON } else { 0 });
        if over {
            // Both inputs were non-canonical and near 2^64; one more fold cannot overflow.
            sum = sum.wrapping_add(EPSILON);
        }
        Self(sum)
    }
}

impl Sub for Goldilocks {
    type Output = Self;
    #[inline]
    fn sub(self, rhs: Self) -> Self {
        let (diff, under) = self.0.overflowing_sub(rhs.0);
        let (mut diff, under) = diff.overflowing_sub(if under { EPSILON } else { 0 });
        if under {
            diff = diff.wrapping_sub(EPSILON);
        }
        Self(diff)
    }
}

impl Mul for Goldilocks {
    type Output = Self;
    #[inline]
    fn mul(self, rhs: Self) -> Self {
        Self(reduce128(self.0 as u128 * rhs.0 as u128))
    }
}

impl Neg for Goldilocks {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        let c = self.as_canonical_u64();
        Self(if c == 0 { 0 } else { ORDER - c })
    }
}

impl Div for Goldilocks {
    type Output = Self;
    /// # Panics
    /// Panics on division by zero, like integer division.
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn div(self, rhs: Self) -> Self {
        self * rhs.inverse()
    }
}

macro_rules! assign_ops {
    ($t:ty) => {
        impl AddAssign for $t {
            #[inline]
            fn add_assign(&mut self, rhs: Self) {
                *self = *self + rhs;
            }
        }
        impl SubAssign for $t {
            #[inline]
            fn sub_assign(&mut self, rhs: Self) {
                *self = *self - rhs;
            }
        }
        impl MulAssign for $t {
            #[inline]
            fn mul_assign(&mut self, rhs: Self) {
                *self = *self * rhs;
            }
        }
        impl Sum for $t {
            fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
                iter.fold(<$t as Field>::ZERO, |a, b| a + b)
            }
        }
        impl Product for $t {
            fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
                iter.fold(<$t as Field>::ONE, |a, b| a * b)
            }
        }
    };
}
pub(crate) use assign_ops;
assign_ops!(Goldilocks);

impl PartialEq for Goldilocks {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.as_canonical_u64() == other.as_canonical_u64()
    }
}
impl Eq for Goldilocks {}
impl Hash for Goldilocks {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_canonical_u64().hash(state);
    }
}
impl PartialOrd for Goldilocks {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Goldilocks {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_canonical_u64().cmp(&other.as_canonical_u64())
    }
}
impl fmt::Debug for Goldilocks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_canonical_u64())
    }
}
impl fmt::Display for Goldilocks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_canonical_u64())
    }
}
impl FromStr for Goldilocks {
    type Err = FieldError;
    fn from_str(s: &str) -> Result<Self, FieldError> {
        Self::from_str_canonical(s)
    }
}

impl Algebra for Goldilocks {}

impl Field for Goldilocks {
    const ZERO: Self = Self(0);
    const ONE: Self = Self(1);
    const TWO: Self = Self(2);
    const NEG_ONE: Self = Self(ORDER - 1);
    /// 7, as in Plonky2 and Plonky3.
    const GENERATOR: Self = Self(7);

    #[inline]
    fn from_u64_reduced(v: u64) -> Self {
        Self(v)
    }

    fn try_inverse(&self) -> Option<Self> {
        if self.is_zero() {
            return None;
        }
        // Fermat: x^(p−2).
        Some(self.exp_u64(ORDER - 2))
    }

    fn sqrt(&self) -> Option<Self> {
        let q = [(ORDER - 1) >> Self::TWO_ADICITY];
        tonelli_shanks(
            self,
            Self::TWO_ADICITY,
            &q,
            two_adic_root(Self::TWO_ADICITY),
        )
    }

    fn multiplicative_group_order() -> Vec<u64> {
        vec![ORDER - 1]
    }

    /// Eight lanes of AVX-512F, four of AVX2, or the scalar field, as the CPU allows.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn run_packed<K: PackedKernel<Self>>(kernel: K) -> K::Output {
        crate::x86_64::run_packed(usize::MAX, kernel)
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn run_packed_within<K: PackedKernel<Self>>(max_lanes: usize, kernel: K) -> K::Output {
        crate::x86_64::run_packed(max_lanes, kernel)
    }

    #[cfg(target_arch = "x86_64")]
    fn packing_widths() -> Vec<usize> {
        crate::x86_64::packing_widths()
    }
}

impl PrimeField for Goldilocks {
    const NAME: &'static str = "Goldilocks";
    const NUM_BYTES: usize = 8;
    const BITS: u32 = 64;
    type Limbs = [u64; 1];

    fn modulus() -> [u64; 1] {
        [ORDER]
    }
    fn to_canonical_limbs(&self) -> [u64; 1] {
        [self.as_canonical_u64()]
    }
    fn from_canonical_limbs(limbs: [u64; 1]) -> Result<Self, FieldError> {
        Self::new_canonical(limbs[0])
    }
    fn from_canonical_limbs_unchecked(limbs: [u64; 1]) -> Self {
        Self(limbs[0])
    }
    /// Horner's rule in base 2^64 with the 128-bit reduction (no big-integer division).
    fn from_limbs_reduced(v: &[u64]) -> Self {
        let mut acc = 0u64;
        for &limb in v.iter().rev() {
            acc = reduce128((u128::from(acc) << 64) | u128::from(limb));
        }
        Self(acc)
    }
}

impl Goldilocks {
    /// plonky2's `MULTIPLICATIVE_GROUP_GENERATOR` for Goldilocks, which is also its coset
    /// shift (`Field::coset_shift`). A convention, like Plonky3's 7 ([`Field::GENERATOR`]):
    /// the two libraries picked different generators, so their roots of unity and coset
    /// domains differ. Checked against plonky2 in the peers' differential tests.
    pub const PLONKY2_GENERATOR: Self = Self(14_293_326_489_335_486_720);

    /// plonky2's generator of the order-`2^bits` subgroup (its `primitive_root_of_unity`):
    /// `PLONKY2_GENERATOR^((p−1)/2^bits)`.
    ///
    /// # Errors
    /// [`FieldError::TwoAdicityExceeded`] when `bits > 32`.
    pub fn plonky2_two_adic_generator(bits: usize) -> Result<Self, FieldError> {
        check_two_adic_bits(bits)?;
        Ok(Self::PLONKY2_GENERATOR.exp_u64((ORDER - 1) >> bits))
    }
}

fn check_two_adic_bits(bits: usize) -> Result<(), FieldError> {
    if bits > Goldilocks::TWO_ADICITY {
        return Err(FieldError::TwoAdicityExceeded {
            field: Goldilocks::NAME,
            requested: bits,
            max: Goldilocks::TWO_ADICITY,
        });
    }
    Ok(())
}

/// The generator of the order-`2^bits` subgroup: `7^((p−1)/2^bits)`.
fn two_adic_root(bits: usize) -> Goldilocks {
    Goldilocks::GENERATOR.exp_u64((ORDER - 1) >> bits)
}

impl TwoAdicField for Goldilocks {
    const TWO_ADICITY: usize = 32;

    fn two_adic_generator(bits: usize) -> Result<Self, FieldError> {
        check_two_adic_bits(bits)?;
        Ok(two_adic_root(bits))
    }
}

/// Poseidon's kernels on the packings [`Field::run_packed`] chooses, and its sums of products
/// with one reduction.
impl zkaccel_poseidon::PoseidonField for Goldilocks {
    /// `Σ_j cs[j]·xs[j]`: 64×32-bit products summed in 128 bits and reduced once.
    #[inline(always)]
    fn dot_product_small(xs: &[Self], cs: &[u32]) -> Self {
        debug_assert!(cs.iter().map(|&c| c as u64).sum::<u64>() < 1 << 32);
        let mut acc = 0u128;
        for (x, &c) in xs.iter().zip(cs) {
            acc += x.0 as u128 * c as u128;
        }
        Self(reduce128(acc))
    }

    /// `Σ_j xs[j]·ys[j]` with one reduction: the 128-bit products are summed in 160 bits, and
    /// `2^128 ≡ −2^32 (mod p)` folds the top word back.
    #[inline(always)]
    fn dot_product(xs: &[Self], ys: &[Self]) -> Self {
        let mut lo = 0u128;
        let mut top = 0u64;
        for (x, y) in xs.iter().zip(ys) {
            let (sum, carry) = lo.overflowing_add(x.0 as u128 * y.0 as u128);
            lo = sum;
            top += carry as u64;
        }
        // top ≤ the number of terms, so top·2^32 < 2^64.
        Self(reduce128(lo)) - Self(top << 32)
    }

    /// `self·c + acc` with one reduction (`(2^64 − 1)^2 + 2^64 − 1 < 2^128`).
    #[inline(always)]
    fn mul_add(self, c: Self, acc: Self) -> Self {
        Self(reduce128(self.0 as u128 * c.0 as u128 + acc.0 as u128))
    }

    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn run_poseidon_packed<K: zkaccel_poseidon::PoseidonKernel<Self>>(
        max_lanes: usize,
        kernel: K,
    ) -> K::Output {
        crate::x86_64::run_poseidon_packed(max_lanes, kernel)
    }
}

/// MiMC's chains on the portable defaults: a chain of `x^d` is the scalar multiplier's
/// latency, and batches run on the widest packing ([`Field::run_packed`]).
impl zkaccel_mimc::MimcField for Goldilocks {}

/// The butterflies on the AVX-512 / AVX2 kernels of `crate::butterflies` and `crate::x86_64`,
/// chosen at run time (portable off x86-64 or with SIMD switched off).
impl NttField for Goldilocks {
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn dif_last_three_stages(data: &mut [Self], tw4: &[Self], tw2: &[Self]) {
        crate::x86_64::dif_last_three_stages(data, tw4, tw2)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn dit_first_three_stages(data: &mut [Self], tw4: &[Self], tw2: &[Self]) {
        crate::x86_64::dit_first_three_stages(data, tw4, tw2)
    }
    /// `true` where the AVX-512 kernel runs ([`crate::x86_64::dif_last_four_stages`]).
    #[inline]
    fn four_stage_blocks() -> bool {
        #[cfg(target_arch = "x86_64")]
        if crate::x86_64::Avx512::detect().is_some() {
            return true;
        }
        false
    }
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn dif_last_four_stages(data: &mut [Self], tw8: &[Self], tw4: &[Self], tw2: &[Self]) {
        crate::x86_64::dif_last_four_stages(data, tw8, tw4, tw2)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn dit_first_four_stages(data: &mut [Self], tw8: &[Self], tw4: &[Self], tw2: &[Self]) {
        crate::x86_64::dit_first_four_stages(data, tw8, tw4, tw2)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn mul_slices(a: &mut [Self], b: &[Self]) {
        crate::x86_64::mul_assign_slices(a, &b[..a.len()]);
    }
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn mul_by_constant(a: &mut [Self], w: Self) {
        crate::x86_64::mul_assign_constant(a, w);
    }
    #[inline]
    fn dif_butterflies(lo: &mut [Self], hi: &mut [Self], tw: &[Self]) {
        crate::butterflies::dif_butterflies(lo, hi, tw)
    }
    #[inline]
    fn dit_butterflies(lo: &mut [Self], hi: &mut [Self], tw: &[Self]) {
        crate::butterflies::dit_butterflies(lo, hi, tw)
    }
    #[inline]
    fn add_sub_runs(lo: &mut [Self], hi: &mut [Self]) {
        crate::butterflies::add_sub_runs(lo, hi)
    }
    #[inline]
    fn dif_butterflies_same(lo: &mut [Self], hi: &mut [Self], w: Self) {
        crate::butterflies::dif_butterflies_same(lo, hi, w)
    }
    #[inline]
    fn dit_butterflies_same(lo: &mut [Self], hi: &mut [Self], w: Self) {
        crate::butterflies::dit_butterflies_same(lo, hi, w)
    }
    #[inline]
    fn three_stages_same(
        runs: &mut [&mut [Self]; 8],
        w: &[Self; 7],
        unit: bool,
        dif: bool,
        prefetch: &mut WritePrefetch<'_>,
    ) {
        if dif {
            crate::butterflies::dif_three_stages_same(runs, w, unit, prefetch)
        } else {
            crate::butterflies::dit_three_stages_same(runs, w, unit, prefetch)
        }
    }
    #[inline]
    fn three_stages_scaled(
        runs: &mut [&mut [Self]; 8],
        w: &[Self; 7],
        unit: bool,
        dif: bool,
        points: &[Self; 8],
        prefetch: &mut WritePrefetch<'_>,
    ) {
        if dif {
            crate::butterflies::dif_three_stages_scaled(runs, w, unit, points, prefetch)
        } else {
            crate::butterflies::dit_three_stages_scaled(runs, w, unit, points, prefetch)
        }
    }
    #[inline]
    fn three_stages_block_row(
        data: &mut [Self],
        h: usize,
        width: usize,
        t: [&[Self]; 3],
        dif: bool,
        points: Option<&[Self]>,
        prefetch: &mut WritePrefetch<'_>,
    ) {
        crate::butterflies::three_stages_block_row(data, h, width, t, dif, points, prefetch)
    }
    fn stages_block_row(
        data: &mut [Self],
        h: usize,
        width: usize,
        t: &[&[Self]],
        dif: bool,
        prefetch: &mut WritePrefetch<'_>,
    ) -> bool {
        crate::butterflies::stages_block_row(data, h, width, t, dif, None, prefetch)
    }
    /// 6 where the layered AVX-512 kernels run ([`crate::x86_64::PowerTwiddle`]: the roots of
    /// order up to 64 are `±2^k`), else 0.
    #[inline]
    fn cheap_roots_log() -> usize {
        #[cfg(target_arch = "x86_64")]
        if crate::x86_64::Avx512::detect().is_some() {
            return 6;
        }
        0
    }
    #[inline]
    fn three_stages(runs: &mut [&mut [Self]; 8], tw: &[&[Self]; 7], dif: bool) {
        if dif {
            crate::butterflies::dif_three_stages(runs, tw)
        } else {
            crate::butterflies::dit_three_stages(runs, tw)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_views_check_canonicity_and_round_trip() {
        let mut words = vec![0, 1, ORDER - 1, 12345];
        let view = Goldilocks::slice_from_canonical_mut(&mut words).unwrap();
        view[0] = Goldilocks(ORDER + 5); // a non-canonical stored word (the type allows it)
        view[1] = view[2] * view[2]; // (p−1)² = 1
        let out = Goldilocks::canonical_words_mut(view);
        assert_eq!(out, &[5, 1, ORDER - 1, 12345]);
        for bad in [ORDER, ORDER + 1, u64::MAX] {
            let mut words = vec![3, bad, 4];
            let err = Goldilocks::slice_from_canonical(&words).unwrap_err();
            assert!(err.to_string().contains(&bad.to_string()), "{err}");
            assert!(Goldilocks::slice_from_canonical_mut(&mut words).is_err());
        }
        assert!(Goldilocks::slice_from_canonical(&[]).unwrap().is_empty());
    }

    #[test]
    fn scans_find_a_non_canonical_word_anywhere() {
        // Every length around the vector widths and one beyond a block, a bad word at every
        // position (the scan's lanes, its tail, later blocks); the reference is `w mod p`.
        for len in (0..40).chain([
            CANONICAL_BLOCK - 1,
            CANONICAL_BLOCK + 3,
            3 * CANONICAL_BLOCK,
        ]) {
            let good: Vec<u64> = (0..len as u64).map(|i| ORDER - 1 - i).collect();
            assert!(Goldilocks::slice_from_canonical(&good).is_ok());
            let positions: Vec<usize> = if len < 40 {
                (0..len).collect()
            } else {
                let mut at = vec![0, 7, len - 1, CANONICAL_BLOCK - 1, CANONICAL_BLOCK];
                at.retain(|&i| i < len);
                at
            };
            for &at in &positions {
                for bad in [ORDER, ORDER + 1, u64::MAX] {
                    let mut words = good.clone();
                    words[at] = bad;
                    assert!(any_non_canonical(&words), "len {len}, at {at}");
                    assert!(Goldilocks::slice_from_canonical(&words).is_err());
                    let view = Goldilocks::slice_from_words_mut(&mut words);
                    let out = Goldilocks::canonical_words_mut(view);
                    let expected: Vec<u64> = good
                        .iter()
                        .enumerate()
                        .map(|(i, &w)| if i == at { bad } else { w })
                        .map(|w| (u128::from(w) % u128::from(ORDER)) as u64)
                        .collect();
                    assert_eq!(out, &expected[..], "len {len}, at {at}");
                }
            }
        }
    }

    #[test]
    fn reduction_handles_extremes() {
        // Products of non-canonical words near 2^64 exercise every carry and borrow branch.
        let words = [
            0,
            1,
            EPSILON,
            ORDER - 1,
            ORDER,
            ORDER + 1,
            u64::MAX - 1,
            u64::MAX,
            1 << 63,
        ];
        for &a in &words {
            for &b in &words {
                let expected = ((a as u128 * b as u128) % ORDER as u128) as u64;
                assert_eq!(
                    (Goldilocks(a) * Goldilocks(b)).as_canonical_u64(),
                    expected,
                    "{a} * {b}"
                );
                let sum = ((a as u128 + b as u128) % ORDER as u128) as u64;
                assert_eq!(
                    (Goldilocks(a) + Goldilocks(b)).as_canonical_u64(),
                    sum,
                    "{a} + {b}"
                );
                let diff = ((a as u128 % ORDER as u128 + ORDER as u128 - b as u128 % ORDER as u128)
                    % ORDER as u128) as u64;
                assert_eq!(
                    (Goldilocks(a) - Goldilocks(b)).as_canonical_u64(),
                    diff,
                    "{a} - {b}"
                );
            }
        }
    }
}
