//! The AVX-512 IFMA packings: eight lanes ([`PackedGoldilocksIfma`]) and two groups of eight
//! advanced together ([`PackedGoldilocksIfmaPair`]). Their arithmetic is AVX-512F's; IFMA's
//! 52-bit multiply-adds make their linear combinations cheaper: products by small constants
//! are fused multiply-adds ([`PackedGoldilocksAvx512::dot_small_ifma`]), and sums of constant
//! products stay unreduced in an [`Accumulator52`] until one reduction ends them
//! ([`PoseidonPacking::LAZY_SUMS`]), which Poseidon's partial rounds take.

use core::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use zkaccel_field::{Algebra, PackedField};
use zkaccel_poseidon::PoseidonPacking;

use core::arch::x86_64::_mm512_set1_epi64;

use super::{
    Accumulator52, Avx512Ifma, PackedGoldilocksAvx512, SmallSumIfma, Split52, Split52Constant,
};
use crate::Goldilocks;

/// Eight Goldilocks elements in one 512-bit register, on a CPU with AVX-512 IFMA: AVX-512F's
/// arithmetic with IFMA's linear combinations (see the module documentation).
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
pub struct PackedGoldilocksIfma(pub PackedGoldilocksAvx512);

/// Sixteen Goldilocks elements as two [`PackedGoldilocksIfma`] groups advanced together, so
/// that one group's work fills the other's latency on long dependency chains (Poseidon's
/// partial rounds).
#[derive(Clone, Copy, Debug)]
pub struct PackedGoldilocksIfmaPair(pub PackedGoldilocksIfma, pub PackedGoldilocksIfma);

/// The lanes as AVX-512F values.
#[inline(always)]
fn as_avx512(xs: &[PackedGoldilocksIfma]) -> &[PackedGoldilocksAvx512] {
    // SAFETY: `PackedGoldilocksIfma` is `repr(transparent)` over `PackedGoldilocksAvx512`, so
    // the slices have the same layout and length.
    unsafe { core::slice::from_raw_parts(xs.as_ptr().cast(), xs.len()) }
}

/// The ring operations of a type whose fields are packings, field by field.
macro_rules! forward_ops {
    ($t:ident, $($f:tt),+) => {
        impl Add for $t {
            type Output = Self;
            #[inline(always)]
            fn add(self, rhs: Self) -> Self {
                $t($(self.$f + rhs.$f),+)
            }
        }
        impl Sub for $t {
            type Output = Self;
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                $t($(self.$f - rhs.$f),+)
            }
        }
        impl Mul for $t {
            type Output = Self;
            #[inline(always)]
            fn mul(self, rhs: Self) -> Self {
                $t($(self.$f * rhs.$f),+)
            }
        }
        impl Neg for $t {
            type Output = Self;
            #[inline(always)]
            fn neg(self) -> Self {
                $t($(-self.$f),+)
            }
        }
        impl AddAssign for $t {
            #[inline(always)]
            fn add_assign(&mut self, rhs: Self) {
                *self = *self + rhs;
            }
        }
        impl SubAssign for $t {
            #[inline(always)]
            fn sub_assign(&mut self, rhs: Self) {
                *self = *self - rhs;
            }
        }
        impl MulAssign for $t {
            #[inline(always)]
            fn mul_assign(&mut self, rhs: Self) {
                *self = *self * rhs;
            }
        }
        impl Algebra for $t {
            #[inline(always)]
            fn square(&self) -> Self {
                $t($(self.$f.square()),+)
            }
        }
    };
}

forward_ops!(PackedGoldilocksIfma, 0);
forward_ops!(PackedGoldilocksIfmaPair, 0, 1);

impl PackedField for PackedGoldilocksIfma {
    type Scalar = Goldilocks;
    type Cpu = Avx512Ifma;
    const WIDTH: usize = 8;
    #[inline(always)]
    fn detect() -> Option<Avx512Ifma> {
        Avx512Ifma::detect()
    }
    /// # Panics
    /// Panics when `slice.len() != 8`.
    #[inline(always)]
    fn from_slice(cpu: Avx512Ifma, slice: &[Goldilocks]) -> Self {
        Self(PackedGoldilocksAvx512::from_slice(cpu.avx512(), slice))
    }
    #[inline(always)]
    fn broadcast(cpu: Avx512Ifma, x: Goldilocks) -> Self {
        Self(PackedGoldilocksAvx512::broadcast(cpu.avx512(), x))
    }
    /// # Panics
    /// Panics when `out.len() != 8`.
    #[inline(always)]
    fn write_to_slice(&self, out: &mut [Goldilocks]) {
        self.0.write_to_slice(out);
    }
}

impl PoseidonPacking for PackedGoldilocksIfma {
    type Constant = Split52Constant;
    #[inline(always)]
    fn prepare_constant(_: Avx512Ifma, c: Goldilocks) -> Split52Constant {
        Split52Constant::new(c)
    }
    #[inline(always)]
    fn broadcast_constant(cpu: Avx512Ifma, c: &Split52Constant) -> Self {
        Self::broadcast(cpu, Goldilocks::new_reduced(c.value))
    }
    /// One unreduced sum per [`Accumulator52::MAX_TERMS`] products.
    #[inline(always)]
    fn dot_constants(cpu: Avx512Ifma, xs: &[Self], cs: &[Split52Constant]) -> Self {
        let mut total = Self::broadcast(cpu, Goldilocks(0));
        for (xs, cs) in xs
            .chunks(Accumulator52::MAX_TERMS)
            .zip(cs.chunks(Accumulator52::MAX_TERMS))
        {
            let mut acc = Accumulator52::new(cpu);
            for (x, c) in xs.iter().zip(cs) {
                acc.add_product(&x.0.split52(cpu), c);
            }
            total += Self(acc.reduce());
        }
        total
    }
    #[inline(always)]
    fn dot_small_constants(cpu: Avx512Ifma, xs: &[Self], cs: &[u32]) -> Self {
        Self(PackedGoldilocksAvx512::dot_small_ifma(
            cpu,
            as_avx512(xs),
            cs,
        ))
    }
    const LAZY_SUMS: bool = true;
    const MAX_LAZY_TERMS: usize = Accumulator52::MAX_TERMS;
    type Split = Split52;
    type Accumulator = Accumulator52;
    #[inline(always)]
    fn split(self, cpu: Avx512Ifma) -> Split52 {
        self.0.split52(cpu)
    }
    #[inline(always)]
    fn empty_sum(cpu: Avx512Ifma) -> Accumulator52 {
        Accumulator52::new(cpu)
    }
    #[inline(always)]
    fn accumulate(_: Avx512Ifma, acc: &mut Accumulator52, x: &Split52, c: &Split52Constant) {
        acc.add_product(x, c);
    }
    #[inline(always)]
    fn reduce_sum(acc: Accumulator52) -> Self {
        Self(acc.reduce())
    }
}

/// The most terms [`PackedGoldilocksIfmaPair`]'s sums split into halves at once.
const PAIR_CHUNK: usize = 32;

impl PackedGoldilocksIfmaPair {
    /// The first and the second groups of up to [`PAIR_CHUNK`] values.
    #[inline(always)]
    fn halves(
        cpu: Avx512Ifma,
        xs: &[Self],
    ) -> (
        [PackedGoldilocksIfma; PAIR_CHUNK],
        [PackedGoldilocksIfma; PAIR_CHUNK],
    ) {
        let zero = PackedGoldilocksIfma::broadcast(cpu, Goldilocks(0));
        let (mut first, mut second) = ([zero; PAIR_CHUNK], [zero; PAIR_CHUNK]);
        for (j, x) in xs.iter().take(PAIR_CHUNK).enumerate() {
            first[j] = x.0;
            second[j] = x.1;
        }
        (first, second)
    }
}

/// A pair's dot product: each group's by `PackedGoldilocksIfma::$dot`, [`PAIR_CHUNK`] terms at
/// a time. A macro rather than a function taking the dot product as a closure or pointer,
/// which would not inherit the caller's target features.
macro_rules! pair_dot {
    ($cpu:ident, $xs:ident, $cs:ident, $dot:ident) => {{
        let mut total = Self::broadcast($cpu, Goldilocks(0));
        for (xs, cs) in $xs.chunks(PAIR_CHUNK).zip($cs.chunks(PAIR_CHUNK)) {
            let ((first, second), n) = (Self::halves($cpu, xs), xs.len());
            total += Self(
                PackedGoldilocksIfma::$dot($cpu, &first[..n], cs),
                PackedGoldilocksIfma::$dot($cpu, &second[..n], cs),
            );
        }
        total
    }};
}

impl PackedField for PackedGoldilocksIfmaPair {
    type Scalar = Goldilocks;
    type Cpu = Avx512Ifma;
    const WIDTH: usize = 16;
    #[inline(always)]
    fn detect() -> Option<Avx512Ifma> {
        Avx512Ifma::detect()
    }
    /// # Panics
    /// Panics when `slice.len() != 16`.
    #[inline(always)]
    fn from_slice(cpu: Avx512Ifma, slice: &[Goldilocks]) -> Self {
        assert_eq!(slice.len(), 16, "slice length must equal WIDTH");
        Self(
            PackedGoldilocksIfma::from_slice(cpu, &slice[..8]),
            PackedGoldilocksIfma::from_slice(cpu, &slice[8..]),
        )
    }
    #[inline(always)]
    fn broadcast(cpu: Avx512Ifma, x: Goldilocks) -> Self {
        let v = PackedGoldilocksIfma::broadcast(cpu, x);
        Self(v, v)
    }
    /// # Panics
    /// Panics when `out.len() != 16`.
    #[inline(always)]
    fn write_to_slice(&self, out: &mut [Goldilocks]) {
        assert_eq!(out.len(), 16, "slice length must equal WIDTH");
        self.0.write_to_slice(&mut out[..8]);
        self.1.write_to_slice(&mut out[8..]);
    }
}

impl PoseidonPacking for PackedGoldilocksIfmaPair {
    type Constant = Split52Constant;
    #[inline(always)]
    fn prepare_constant(_: Avx512Ifma, c: Goldilocks) -> Split52Constant {
        Split52Constant::new(c)
    }
    #[inline(always)]
    fn broadcast_constant(cpu: Avx512Ifma, c: &Split52Constant) -> Self {
        let v = PackedGoldilocksIfma::broadcast_constant(cpu, c);
        Self(v, v)
    }
    #[inline(always)]
    fn dot_constants(cpu: Avx512Ifma, xs: &[Self], cs: &[Split52Constant]) -> Self {
        pair_dot!(cpu, xs, cs, dot_constants)
    }
    /// Both groups in one pass over the terms, without copying them into per-group arrays.
    #[inline(always)]
    fn dot_small_constants(_cpu: Avx512Ifma, xs: &[Self], cs: &[u32]) -> Self {
        debug_assert!(cs.iter().all(|&c| c < 1 << 20));
        debug_assert!(cs.iter().map(|&c| c as u64).sum::<u64>() < 1 << 32);
        // SAFETY: `_cpu` proves AVX-512F and IFMA; the constants are as `SmallSumIfma` needs.
        unsafe {
            let (mut first, mut second) = (SmallSumIfma::new(), SmallSumIfma::new());
            for (x, &c) in xs.iter().zip(cs) {
                let c = _mm512_set1_epi64(c as i64);
                first.add(x.0 .0 .0, c);
                second.add(x.1 .0 .0, c);
            }
            Self(
                PackedGoldilocksIfma(PackedGoldilocksAvx512(first.reduce())),
                PackedGoldilocksIfma(PackedGoldilocksAvx512(second.reduce())),
            )
        }
    }
    const LAZY_SUMS: bool = true;
    const MAX_LAZY_TERMS: usize = Accumulator52::MAX_TERMS;
    type Split = (Split52, Split52);
    type Accumulator = (Accumulator52, Accumulator52);
    #[inline(always)]
    fn split(self, cpu: Avx512Ifma) -> (Split52, Split52) {
        (self.0.split(cpu), self.1.split(cpu))
    }
    #[inline(always)]
    fn empty_sum(cpu: Avx512Ifma) -> (Accumulator52, Accumulator52) {
        (Accumulator52::new(cpu), Accumulator52::new(cpu))
    }
    #[inline(always)]
    fn accumulate(
        _: Avx512Ifma,
        acc: &mut (Accumulator52, Accumulator52),
        x: &(Split52, Split52),
        c: &Split52Constant,
    ) {
        acc.0.add_product(&x.0, c);
        acc.1.add_product(&x.1, c);
    }
    #[inline(always)]
    fn reduce_sum(acc: (Accumulator52, Accumulator52)) -> Self {
        Self(
            PackedGoldilocksIfma(acc.0.reduce()),
            PackedGoldilocksIfma(acc.1.reduce()),
        )
    }
}
