//! The linear layers' kernels over packings: [`PoseidonField`] (a field's sums of products and
//! its dispatch to packings), [`PoseidonPacking`] (prepared constants, dot products, products
//! of small integers and unreduced sums on SIMD lanes) and [`PoseidonKernel`] (a kernel written
//! once over such packings). They are this crate's traits, which the field crates implement
//! for their fast paths (as `p3-goldilocks` implements `p3-poseidon2`'s), with portable
//! defaults: any prime field runs Poseidon with `impl PoseidonField for MyField {}` (its
//! scalar packing and [`Interleaved`] lanes are then the portable ones). The field traits of
//! `zkaccel-field` hold only what the algebra needs.

use zkaccel_field::{Field, Interleaved, PackedField};

/// A field with the hooks of Poseidon's linear layers (MDS rows, partial-round rows):
/// sums of products, which a field with lazy reduction computes with one reduction, and the
/// dispatch of [`PoseidonKernel`]s to the field's packings. Every method has a portable
/// default.
pub trait PoseidonField: Field {
    /// `Σ_i xs[i]·ys[i]` over the shorter of the two slices (zero when one is empty).
    #[inline(always)]
    fn dot_product(xs: &[Self], ys: &[Self]) -> Self {
        xs.iter()
            .zip(ys)
            .fold(Self::ZERO, |acc, (&x, &y)| acc + x * y)
    }

    /// `Σ_i xs[i]·cs[i]` for small integer constants (an MDS row with small entries). Callers
    /// keep every constant below `2^20` and their sum below `2^32`, so that packings may sum the
    /// products unreduced ([`PoseidonPacking::dot_small_constants`]).
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

    /// Runs `kernel` on the widest packing of this field with at most `max_lanes` lanes that
    /// the running CPU offers (at least the field itself), as [`Field::run_packed_within`] does
    /// for [`zkaccel_field::PackedKernel`]s; the default is the field itself, one lane. A field
    /// with SIMD packings overrides it in its own crate, calling [`PoseidonKernel::run`] from
    /// a function compiled for the packing's instructions.
    #[inline]
    fn run_poseidon_packed<K: PoseidonKernel<Self>>(max_lanes: usize, kernel: K) -> K::Output {
        let _ = max_lanes;
        kernel.run::<Self>(())
    }
}

/// A kernel written once over [`PoseidonPacking`]s: [`PoseidonField::run_poseidon_packed`]
/// calls [`PoseidonKernel::run`] with the packing it chose for the running CPU, once, at the
/// kernel's entry (see [`zkaccel_field::PackedKernel`], whose rules it follows: a `run` that is
/// `#[inline(always)]` is compiled with the packing's instructions).
pub trait PoseidonKernel<F: PoseidonField> {
    /// What the kernel returns.
    type Output;
    /// Runs the kernel on packing `P`; `cpu` proves its instructions are there.
    fn run<P: PoseidonPacking<Scalar = F>>(self, cpu: P::Cpu) -> Self::Output;
}

/// A packing with the linear combinations Poseidon's layers run: products by prepared
/// constants, dot products, products of small integers and sums kept unreduced. The defaults
/// are plain products and sums; a packing with a cheaper form overrides them.
pub trait PoseidonPacking: PackedField {
    /// A scalar constant in the form this packing multiplies by (the scalar itself, or split
    /// and broadcast ahead of time). Kernels prepare their constants once
    /// ([`PoseidonPacking::prepare_constant`]) and keep them.
    type Constant: Copy + Send + Sync + 'static;

    /// `c` prepared for [`PoseidonPacking::broadcast_constant`] and the products below.
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
        let mut acc = Self::broadcast(cpu, <Self::Scalar as Field>::ZERO);
        for (&x, &c) in xs.iter().zip(cs) {
            acc +=
                x * Self::broadcast(cpu, <Self::Scalar as Field>::from_u64_reduced(u64::from(c)));
        }
        acc
    }

    /// `x·c + acc`.
    #[inline(always)]
    fn mul_constant_add(cpu: Self::Cpu, x: Self, c: &Self::Constant, acc: Self) -> Self {
        acc + Self::broadcast_constant(cpu, c) * x
    }

    /// `self²` where many independent squarings are in flight (all the S-boxes of a round):
    /// [`zkaccel_field::Algebra::square`] by default. A packing whose squaring kernel saves products at the
    /// price of a longer dependency chain answers with the product here.
    #[inline(always)]
    fn square_for_throughput(&self) -> Self {
        self.square()
    }

    /// Whether sums of constant products are cheaper kept unreduced
    /// ([`PoseidonPacking::accumulate`]) than reduced term by term: kernels with a choice of
    /// form (Poseidon's partial rounds) take the one with the longest sums when it is.
    const LAZY_SUMS: bool = false;

    /// The most products one unreduced sum may hold.
    const MAX_LAZY_TERMS: usize = usize::MAX;

    /// A lane value prepared once for many products ([`PoseidonPacking::accumulate`]).
    type Split: Copy;

    /// A sum of constant products, possibly unreduced.
    type Accumulator: Copy;

    /// Prepares `self` for [`PoseidonPacking::accumulate`].
    fn split(self, cpu: Self::Cpu) -> Self::Split;

    /// The empty sum.
    fn empty_sum(cpu: Self::Cpu) -> Self::Accumulator;

    /// `acc += c·x` (at most [`PoseidonPacking::MAX_LAZY_TERMS`] times per sum).
    fn accumulate(cpu: Self::Cpu, acc: &mut Self::Accumulator, x: &Self::Split, c: &Self::Constant);

    /// The sum.
    fn reduce_sum(acc: Self::Accumulator) -> Self;
}

/// The most terms [`balanced_dot`] sums as one tree; longer sums chain trees of this size.
const DOT_TREE_TERMS: usize = 32;

/// `Σ_i xs[i]·cs[i]` as balanced trees of [`DOT_TREE_TERMS`] products.
#[inline(always)]
fn balanced_dot<P: PoseidonPacking>(cpu: P::Cpu, xs: &[P], cs: &[P::Constant]) -> P {
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
    total.unwrap_or_else(|| P::broadcast(cpu, <P::Scalar as Field>::ZERO))
}

impl<F: PoseidonField> PoseidonPacking for F {
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
    type Split = Self;
    type Accumulator = Self;
    #[inline(always)]
    fn split(self, _: Self::Cpu) -> Self {
        self
    }
    #[inline(always)]
    fn empty_sum(cpu: Self::Cpu) -> Self {
        Self::broadcast(cpu, F::ZERO)
    }
    #[inline(always)]
    fn accumulate(cpu: Self::Cpu, acc: &mut Self, x: &Self, c: &Self::Constant) {
        *acc = Self::mul_constant_add(cpu, *x, c, *acc);
    }
    #[inline(always)]
    fn reduce_sum(acc: Self) -> Self {
        acc
    }
}

impl<F: PoseidonField, const K: usize> PoseidonPacking for Interleaved<F, K> {
    type Constant = F;
    #[inline(always)]
    fn prepare_constant(_: (), c: F) -> F {
        c
    }
    #[inline(always)]
    fn broadcast_constant(_: (), c: &F) -> Self {
        Self([*c; K])
    }
    #[inline(always)]
    fn mul_constant_add(_: (), x: Self, c: &F, mut acc: Self) -> Self {
        for (a, &v) in acc.0.iter_mut().zip(&x.0) {
            *a = v.mul_add(*c, *a);
        }
        acc
    }
    type Split = Self;
    type Accumulator = Self;
    #[inline(always)]
    fn split(self, _: Self::Cpu) -> Self {
        self
    }
    #[inline(always)]
    fn empty_sum(cpu: Self::Cpu) -> Self {
        Self::broadcast(cpu, F::ZERO)
    }
    #[inline(always)]
    fn accumulate(cpu: Self::Cpu, acc: &mut Self, x: &Self, c: &Self::Constant) {
        *acc = Self::mul_constant_add(cpu, *x, c, *acc);
    }
    #[inline(always)]
    fn reduce_sum(acc: Self) -> Self {
        acc
    }
}
