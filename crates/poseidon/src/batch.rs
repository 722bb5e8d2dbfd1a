//! Many independent permutations: the per-field kernels behind [`Poseidon::permute_many`]
//! (AVX-512 or AVX2 packings of Goldilocks, AVX-512 IFMA for the 256-bit fields, portable
//! interleaving otherwise), chosen at run time, and their multi-threaded driver.

use rayon::prelude::*;
use zkaccel_field::{Field, PrimeField};
use zkaccel_fp256::{Fp256, Fp256Config};
use zkaccel_goldilocks::Goldilocks;

use crate::error::PoseidonError;
use crate::permutation::{permute_lanes, Interleaved, KernelConstants, Lanes, MAX_KERNEL_WIDTH};
use crate::{Poseidon, PoseidonField};

/// States per interleaved group in the portable kernel.
pub const INTERLEAVE: usize = 4;

/// States per rayon task: enough to amortise scheduling, small enough to balance two cores.
const STATES_PER_TASK: usize = 256;

/// A lane type that loads and stores `WIDTH` states' lanes.
pub(crate) trait Packing: Lanes {
    /// States per vector.
    const WIDTH: usize;
    /// The scalar field.
    type Scalar: Copy;
    /// Gathers lane `i` of `WIDTH` states (stride `t`).
    fn gather(cpu: Self::Cpu, states: &[Self::Scalar], t: usize, i: usize) -> Self;
    /// Scatters back.
    fn scatter(self, states: &mut [Self::Scalar], t: usize, i: usize);
}

impl<F: PoseidonField, const K: usize> Packing for Interleaved<F, K> {
    const WIDTH: usize = K;
    type Scalar = F;
    #[inline(always)]
    fn gather(_: (), states: &[F], t: usize, i: usize) -> Self {
        Self(core::array::from_fn(|j| states[j * t + i]))
    }
    #[inline(always)]
    fn scatter(self, states: &mut [F], t: usize, i: usize) {
        for (j, &v) in self.0.iter().enumerate() {
            states[j * t + i] = v;
        }
    }
}

/// Permutes every full group of `P::WIDTH` states; returns the untouched remainder.
#[inline(always)]
pub(crate) fn permute_packed<'a, P: Packing>(
    k: &KernelConstants<P::Constant>,
    cpu: P::Cpu,
    states: &'a mut [P::Scalar],
) -> &'a mut [P::Scalar] {
    let t = k.width();
    debug_assert!(t <= MAX_KERNEL_WIDTH);
    let mut groups = states.chunks_exact_mut(P::WIDTH * t);
    for group in &mut groups {
        let mut lanes = [P::gather(cpu, group, t, 0); MAX_KERNEL_WIDTH];
        for (i, lane) in lanes.iter_mut().enumerate().take(t).skip(1) {
            *lane = P::gather(cpu, group, t, i);
        }
        permute_lanes::<P>(k, cpu, &mut lanes[..t]);
        for (i, lane) in lanes.iter().enumerate().take(t) {
            lane.scatter(group, t, i);
        }
    }
    groups.into_remainder()
}

/// The portable kernel: groups of [`INTERLEAVE`] states, then one at a time.
///
/// # Errors
/// [`PoseidonError::InputLength`] unless `states` holds whole states (nothing is permuted).
pub fn permute_many_interleaved<F: PoseidonField>(
    p: &Poseidon<F>,
    states: &mut [F],
) -> Result<(), PoseidonError> {
    p.check_states(states.len())?;
    let t = p.width();
    if t > MAX_KERNEL_WIDTH {
        for s in states.chunks_exact_mut(t) {
            p.permute_unchecked(s);
        }
        return Ok(());
    }
    let rest = permute_packed::<Interleaved<F, INTERLEAVE>>(p.kernel_constants(), (), states);
    for s in rest.chunks_exact_mut(t) {
        p.permute_unchecked(s);
    }
    Ok(())
}

/// Splits the states over the rayon pool; each task runs the field's single-thread kernel.
pub(crate) fn permute_many_parallel<F: PoseidonField>(
    p: &Poseidon<F>,
    states: &mut [F],
) -> Result<(), PoseidonError> {
    p.check_states(states.len())?;
    let t = p.width();
    states
        .par_chunks_mut(STATES_PER_TASK * t)
        .try_for_each(|chunk| F::permute_many(p, chunk))
}

/// A single-thread batch kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BatchKernel {
    /// Goldilocks, 8 lanes of AVX-512F.
    Avx512,
    /// 4 lanes of AVX2: Goldilocks, or 256-bit fields in radix 2^29 (nine limbs per lane).
    Avx2,
    /// 8 lanes of AVX-512 with IFMA's 52-bit multiply-adds: 256-bit fields in radix 2^52;
    /// Goldilocks with fused small-constant products and linear-form partial rounds.
    Ifma,
    /// Portable: [`INTERLEAVE`] states advanced together.
    Interleaved,
}

impl core::fmt::Display for BatchKernel {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::Avx512 => "avx512",
            Self::Avx2 => "avx2",
            Self::Ifma => "ifma",
            Self::Interleaved => "interleaved",
        })
    }
}

pub(crate) fn unavailable(kernel: BatchKernel, field: &str) -> PoseidonError {
    PoseidonError::Unsupported(format!(
        "the {kernel} kernel is not available for {field} on this CPU"
    ))
}

impl PoseidonField for Goldilocks {
    #[inline(always)]
    fn dot_row(xs: &[Self], row: &[Self], small: Option<&[u32]>) -> Self {
        match small {
            Some(cs) => Goldilocks::dot_small(xs, cs),
            None => dot_generic(xs, row),
        }
    }

    #[inline(always)]
    fn dot_product(xs: &[Self], cs: &[Self]) -> Self {
        Goldilocks::dot_product(xs, cs)
    }

    #[inline(always)]
    fn mul_add(x: Self, c: Self, acc: Self) -> Self {
        Goldilocks::mul_add(x, c, acc)
    }

    fn kernels() -> Vec<BatchKernel> {
        let mut k = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            use zkaccel_goldilocks::x86_64::{Avx2, Avx512, Avx512Ifma};
            if Avx512Ifma::detect().is_some() {
                k.push(BatchKernel::Ifma);
            }
            if Avx512::detect().is_some() {
                k.push(BatchKernel::Avx512);
            }
            if Avx2::detect().is_some() {
                k.push(BatchKernel::Avx2);
            }
        }
        k.push(BatchKernel::Interleaved);
        k
    }

    fn permute_many(p: &Poseidon<Self>, states: &mut [Self]) -> Result<(), PoseidonError> {
        let kernels = Self::kernels();
        // The IFMA kernel converts the constants first (about a permutation's time): not
        // worth it for fewer than four groups of eight.
        let kernel = match kernels[..] {
            [BatchKernel::Ifma, next, ..] if states.len() < 32 * p.width() => next,
            _ => kernels[0],
        };
        // Every listed kernel is available: only the lengths can be wrong.
        Self::permute_many_using(p, kernel, states)
    }

    fn permute_many_using(
        p: &Poseidon<Self>,
        kernel: BatchKernel,
        states: &mut [Self],
    ) -> Result<(), PoseidonError> {
        p.check_states(states.len())?;
        if kernel == BatchKernel::Interleaved || p.width() > MAX_KERNEL_WIDTH {
            return permute_many_interleaved(p, states);
        }
        #[cfg(target_arch = "x86_64")]
        {
            use zkaccel_goldilocks::x86_64::{Avx2, Avx512, Avx512Ifma, Split52Constant};
            let k = p.kernel_constants();
            let rest = match kernel {
                BatchKernel::Ifma => {
                    let cpu =
                        Avx512Ifma::detect().ok_or_else(|| unavailable(kernel, Self::NAME))?;
                    let k = p.converted_constants(Split52Constant::new);
                    // SAFETY: `cpu` proves AVX-512F and IFMA.
                    unsafe { x86::permute_goldilocks_ifma(&k, cpu, states) }
                }
                BatchKernel::Avx512 => {
                    let cpu = Avx512::detect().ok_or_else(|| unavailable(kernel, Self::NAME))?;
                    // SAFETY: `cpu` proves AVX-512F.
                    unsafe { x86::permute_avx512(k, cpu, states) }
                }
                BatchKernel::Avx2 => {
                    let cpu = Avx2::detect().ok_or_else(|| unavailable(kernel, Self::NAME))?;
                    // SAFETY: `cpu` proves AVX2.
                    unsafe { x86::permute_avx2(k, cpu, states) }
                }
                _ => return Err(unavailable(kernel, Self::NAME)),
            };
            // The remainder of whole states is whole states.
            permute_many_interleaved(p, rest)
        }
        #[cfg(not(target_arch = "x86_64"))]
        Err(unavailable(kernel, Self::NAME))
    }
}

impl<C: Fp256Config> PoseidonField for Fp256<C> {
    fn kernels() -> Vec<BatchKernel> {
        let mut k = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            if zkaccel_fp256::Ifma::detect().is_some() {
                k.push(BatchKernel::Ifma);
            }
            if zkaccel_fp256::Avx2::detect().is_some() {
                k.push(BatchKernel::Avx2);
            }
        }
        k.push(BatchKernel::Interleaved);
        k
    }

    fn permute_many(p: &Poseidon<Self>, states: &mut [Self]) -> Result<(), PoseidonError> {
        // Converting the constants costs about one permutation: not worth it for fewer than
        // two groups of the widest kernel (eight lanes).
        let kernel = if states.len() >= 16 * p.width() {
            Self::kernels()[0]
        } else {
            BatchKernel::Interleaved
        };
        // Every listed kernel is available: only the lengths can be wrong.
        Self::permute_many_using(p, kernel, states)
    }

    fn permute_many_using(
        p: &Poseidon<Self>,
        kernel: BatchKernel,
        states: &mut [Self],
    ) -> Result<(), PoseidonError> {
        p.check_states(states.len())?;
        if kernel == BatchKernel::Interleaved || p.width() > MAX_KERNEL_WIDTH {
            return permute_many_interleaved(p, states);
        }
        #[cfg(target_arch = "x86_64")]
        if kernel == BatchKernel::Ifma {
            let cpu =
                zkaccel_fp256::Ifma::detect().ok_or_else(|| unavailable(kernel, Self::NAME))?;
            let k = p.converted_constants(zkaccel_fp256::PackedFp256Ifma::<C>::prepare);
            // SAFETY: `cpu` proves AVX-512F and IFMA.
            let rest = unsafe { x86::permute_ifma(&k, cpu, states) };
            return permute_many_interleaved(p, rest);
        }
        #[cfg(target_arch = "x86_64")]
        if kernel == BatchKernel::Avx2 {
            let cpu =
                zkaccel_fp256::Avx2::detect().ok_or_else(|| unavailable(kernel, Self::NAME))?;
            let k = p.converted_constants(|c| zkaccel_fp256::BroadcastFp256Avx2::<C>::new(cpu, c));
            // SAFETY: `cpu` proves AVX2.
            let rest = unsafe { x86::permute_fp256_avx2(&k, cpu, states) };
            return permute_many_interleaved(p, rest);
        }
        Err(unavailable(kernel, Self::NAME))
    }
}

/// `Σ row[j]·xs[j]`.
#[inline(always)]
pub(crate) fn dot_generic<F: Field>(xs: &[F], row: &[F]) -> F {
    let mut acc = row[0] * xs[0];
    for (&c, &x) in row.iter().zip(xs).skip(1) {
        acc += c * x;
    }
    acc
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::ops::{Add, Mul};
    use zkaccel_fp256::{
        BroadcastFp256Avx2, Fp256, Fp256Config, Ifma, PackedFp256Avx2, PackedFp256Ifma,
        PreparedFp256,
    };

    use zkaccel_goldilocks::x86_64::{
        Accumulator52, Avx2, Avx512, Avx512Ifma, PackedGoldilocksAvx2, PackedGoldilocksAvx512,
        Split52, Split52Constant,
    };
    use zkaccel_goldilocks::Goldilocks;

    use super::{permute_packed, Packing};
    use crate::permutation::{
        partial_rounds_linear, KernelConstants, Lanes, LinearLanes, MAX_KERNEL_WIDTH,
    };

    macro_rules! goldilocks_packing {
        ($packed:ident, $cpu:ident, $width:expr, { $($extra:tt)* }) => {
            impl Lanes for $packed {
                type Constant = Goldilocks;
                type Cpu = $cpu;
                #[inline(always)]
                fn splat(cpu: $cpu, c: &Goldilocks) -> Self {
                    $packed::broadcast(cpu, *c)
                }
                #[inline(always)]
                fn dot_row(
                    cpu: $cpu,
                    xs: &[Self],
                    row: &[Goldilocks],
                    small: Option<&[u32]>,
                ) -> Self {
                    match small {
                        Some(cs) => $packed::dot_small(xs, cs),
                        None => {
                            let mut acc = Self::splat(cpu, &row[0]) * xs[0];
                            for (c, &x) in row.iter().zip(xs).skip(1) {
                                acc += Self::splat(cpu, c) * x;
                            }
                            acc
                        }
                    }
                }
                $($extra)*
            }
            impl Packing for $packed {
                const WIDTH: usize = $width;
                type Scalar = Goldilocks;
                #[inline(always)]
                fn gather(cpu: $cpu, states: &[Goldilocks], t: usize, i: usize) -> Self {
                    $packed::from_array(cpu, core::array::from_fn(|j| states[j * t + i]))
                }
                #[inline(always)]
                fn scatter(self, states: &mut [Goldilocks], t: usize, i: usize) {
                    for (j, v) in self.to_array().into_iter().enumerate() {
                        states[j * t + i] = v;
                    }
                }
            }
        };
    }
    goldilocks_packing!(PackedGoldilocksAvx2, Avx2, 4, {});
    goldilocks_packing!(PackedGoldilocksAvx512, Avx512, 8, {
        #[inline(always)]
        fn dot_constants(_: Avx512, xs: &[Self], cs: &[Goldilocks]) -> Self {
            PackedGoldilocksAvx512::dot_constants(xs, cs)
        }
    });

    /// Goldilocks in 8 lanes of AVX-512 with the 52-bit multiply-adds of IFMA: the MDS layer's
    /// small products are fused multiply-adds, and the partial rounds run in linear form
    /// ([`partial_rounds_linear`]) with one reduction per sum.
    #[derive(Debug, Clone, Copy)]
    #[repr(transparent)]
    pub(super) struct GoldilocksIfma(PackedGoldilocksAvx512);

    impl Add for GoldilocksIfma {
        type Output = Self;
        #[inline(always)]
        fn add(self, rhs: Self) -> Self {
            Self(self.0 + rhs.0)
        }
    }

    impl Mul for GoldilocksIfma {
        type Output = Self;
        #[inline(always)]
        fn mul(self, rhs: Self) -> Self {
            Self(self.0 * rhs.0)
        }
    }

    impl Lanes for GoldilocksIfma {
        type Constant = Split52Constant;
        type Cpu = Avx512Ifma;
        #[inline(always)]
        fn splat(cpu: Avx512Ifma, c: &Split52Constant) -> Self {
            Self(PackedGoldilocksAvx512::broadcast(
                cpu.avx512(),
                Goldilocks::new_reduced(c.value),
            ))
        }
        #[inline(always)]
        fn dot_row(
            cpu: Avx512Ifma,
            xs: &[Self],
            row: &[Split52Constant],
            small: Option<&[u32]>,
        ) -> Self {
            // SAFETY: `GoldilocksIfma` is `repr(transparent)` over `PackedGoldilocksAvx512`,
            // so the slices have the same layout.
            let lanes = unsafe {
                core::slice::from_raw_parts(xs.as_ptr().cast::<PackedGoldilocksAvx512>(), xs.len())
            };
            match small {
                Some(cs) => Self(PackedGoldilocksAvx512::dot_small_ifma(cpu, lanes, cs)),
                None => {
                    let mut acc = Accumulator52::new(cpu);
                    for (x, c) in lanes.iter().zip(row) {
                        acc.add_product(&x.split52(cpu), c);
                    }
                    Self(acc.reduce())
                }
            }
        }
        #[inline(always)]
        fn partial_rounds<const W: usize>(
            k: &KernelConstants<Split52Constant>,
            cpu: Avx512Ifma,
            state: &mut [Self],
            tmp: &mut [Self; MAX_KERNEL_WIDTH],
        ) {
            partial_rounds_linear::<Self, W>(k, cpu, state, tmp);
        }
    }

    impl LinearLanes for GoldilocksIfma {
        type Split = Split52;
        type Accumulator = Accumulator52;
        #[inline(always)]
        fn split(self, cpu: Avx512Ifma) -> Split52 {
            self.0.split52(cpu)
        }
        #[inline(always)]
        fn accumulator(cpu: Avx512Ifma) -> Accumulator52 {
            Accumulator52::new(cpu)
        }
        #[inline(always)]
        fn accumulate(acc: &mut Accumulator52, x: &Split52, c: &Split52Constant) {
            acc.add_product(x, c);
        }
        #[inline(always)]
        fn reduce(acc: Accumulator52) -> Self {
            Self(acc.reduce())
        }
    }

    impl Packing for GoldilocksIfma {
        const WIDTH: usize = 8;
        type Scalar = Goldilocks;
        #[inline(always)]
        fn gather(cpu: Avx512Ifma, states: &[Goldilocks], t: usize, i: usize) -> Self {
            Self(PackedGoldilocksAvx512::from_array(
                cpu.avx512(),
                core::array::from_fn(|j| states[j * t + i]),
            ))
        }
        #[inline(always)]
        fn scatter(self, states: &mut [Goldilocks], t: usize, i: usize) {
            self.0.scatter(states, t, i);
        }
    }

    /// Two groups of [`GoldilocksIfma`] advanced together, so that one group's work fills the
    /// other's latency on the partial rounds' round-to-round chain.
    #[derive(Debug, Clone, Copy)]
    pub(super) struct GoldilocksIfmaPair(GoldilocksIfma, GoldilocksIfma);

    impl Add for GoldilocksIfmaPair {
        type Output = Self;
        #[inline(always)]
        fn add(self, rhs: Self) -> Self {
            Self(self.0 + rhs.0, self.1 + rhs.1)
        }
    }

    impl Mul for GoldilocksIfmaPair {
        type Output = Self;
        #[inline(always)]
        fn mul(self, rhs: Self) -> Self {
            Self(self.0 * rhs.0, self.1 * rhs.1)
        }
    }

    impl Lanes for GoldilocksIfmaPair {
        type Constant = Split52Constant;
        type Cpu = Avx512Ifma;
        #[inline(always)]
        fn splat(cpu: Avx512Ifma, c: &Split52Constant) -> Self {
            let v = GoldilocksIfma::splat(cpu, c);
            Self(v, v)
        }
        #[inline(always)]
        fn dot_row(
            cpu: Avx512Ifma,
            xs: &[Self],
            row: &[Split52Constant],
            small: Option<&[u32]>,
        ) -> Self {
            let mut first = [xs[0].0; MAX_KERNEL_WIDTH];
            let mut second = [xs[0].1; MAX_KERNEL_WIDTH];
            for (j, x) in xs.iter().enumerate() {
                first[j] = x.0;
                second[j] = x.1;
            }
            let n = xs.len();
            Self(
                GoldilocksIfma::dot_row(cpu, &first[..n], row, small),
                GoldilocksIfma::dot_row(cpu, &second[..n], row, small),
            )
        }
        #[inline(always)]
        fn partial_rounds<const W: usize>(
            k: &KernelConstants<Split52Constant>,
            cpu: Avx512Ifma,
            state: &mut [Self],
            tmp: &mut [Self; MAX_KERNEL_WIDTH],
        ) {
            partial_rounds_linear::<Self, W>(k, cpu, state, tmp);
        }
    }

    impl LinearLanes for GoldilocksIfmaPair {
        type Split = (Split52, Split52);
        type Accumulator = (Accumulator52, Accumulator52);
        #[inline(always)]
        fn split(self, cpu: Avx512Ifma) -> (Split52, Split52) {
            (self.0.split(cpu), self.1.split(cpu))
        }
        #[inline(always)]
        fn accumulator(cpu: Avx512Ifma) -> (Accumulator52, Accumulator52) {
            (Accumulator52::new(cpu), Accumulator52::new(cpu))
        }
        #[inline(always)]
        fn accumulate(
            acc: &mut (Accumulator52, Accumulator52),
            x: &(Split52, Split52),
            c: &Split52Constant,
        ) {
            acc.0.add_product(&x.0, c);
            acc.1.add_product(&x.1, c);
        }
        #[inline(always)]
        fn reduce(acc: (Accumulator52, Accumulator52)) -> Self {
            Self(GoldilocksIfma::reduce(acc.0), GoldilocksIfma::reduce(acc.1))
        }
    }

    impl Packing for GoldilocksIfmaPair {
        const WIDTH: usize = 16;
        type Scalar = Goldilocks;
        #[inline(always)]
        fn gather(cpu: Avx512Ifma, states: &[Goldilocks], t: usize, i: usize) -> Self {
            Self(
                GoldilocksIfma::gather(cpu, states, t, i),
                GoldilocksIfma::gather(cpu, &states[8 * t..], t, i),
            )
        }
        #[inline(always)]
        fn scatter(self, states: &mut [Goldilocks], t: usize, i: usize) {
            self.0.scatter(states, t, i);
            self.1.scatter(&mut states[8 * t..], t, i);
        }
    }

    /// # Safety
    /// The CPU must support AVX-512F and IFMA (guaranteed by the token).
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn permute_goldilocks_ifma<'a>(
        k: &KernelConstants<Split52Constant>,
        cpu: Avx512Ifma,
        states: &'a mut [Goldilocks],
    ) -> &'a mut [Goldilocks] {
        let rest = permute_packed::<GoldilocksIfmaPair>(k, cpu, states);
        permute_packed::<GoldilocksIfma>(k, cpu, rest)
    }

    impl<C: Fp256Config> Lanes for PackedFp256Ifma<C> {
        type Constant = PreparedFp256<C>;
        type Cpu = Ifma;
        #[inline(always)]
        fn splat(cpu: Ifma, c: &PreparedFp256<C>) -> Self {
            Self::broadcast_prepared(cpu, c)
        }
        // The S-box squares with the product here: the IFMA squaring kernel (15 lane products
        // instead of 25, but its column sums are chains of up to four multiply-adds before the
        // reduction starts) made neptune's permutations slower, 4.08-4.38 against 3.98-4.05 us
        // at arity 2 and 12.55-12.95 against 12.44-12.49 at arity 8 (Zen 4, one thread, best
        // of 7 batches of 1,024, three alternating runs), where MiMC's batches gain from it.
    }

    impl<C: Fp256Config> Packing for PackedFp256Ifma<C> {
        const WIDTH: usize = 8;
        type Scalar = Fp256<C>;
        #[inline(always)]
        fn gather(cpu: Ifma, states: &[Fp256<C>], t: usize, i: usize) -> Self {
            Self::from_elements(cpu, &core::array::from_fn(|j| states[j * t + i]))
        }
        #[inline(always)]
        fn scatter(self, states: &mut [Fp256<C>], t: usize, i: usize) {
            for (j, v) in self.to_elements().into_iter().enumerate() {
                states[j * t + i] = v;
            }
        }
    }

    /// A 256-bit field in four AVX2 lanes, radix 2^29: the canonical lanes (every operation
    /// reduced), so additions need no bound on how many are chained; the round constants are
    /// kept as one lane's limbs and broadcast when used.
    impl<C: Fp256Config> Lanes for PackedFp256Avx2<C> {
        type Constant = BroadcastFp256Avx2<C>;
        type Cpu = zkaccel_fp256::Avx2;
        #[inline(always)]
        fn splat(_: zkaccel_fp256::Avx2, c: &BroadcastFp256Avx2<C>) -> Self {
            c.get()
        }
        /// On the 45-product squaring kernel: neptune's permutations 10.74-10.77 against
        /// 10.98-10.99 us at arity 2, 33.03-33.30 against 33.31-33.34 at arity 8 (Zen 4, as
        /// for the IFMA lanes above).
        #[inline(always)]
        fn lane_square(self) -> Self {
            zkaccel_field::Algebra::square(&self)
        }
    }

    impl<C: Fp256Config> Packing for PackedFp256Avx2<C> {
        const WIDTH: usize = 4;
        type Scalar = Fp256<C>;
        #[inline(always)]
        fn gather(cpu: zkaccel_fp256::Avx2, states: &[Fp256<C>], t: usize, i: usize) -> Self {
            Self::from_elements(cpu, &core::array::from_fn(|j| states[j * t + i]))
        }
        #[inline(always)]
        fn scatter(self, states: &mut [Fp256<C>], t: usize, i: usize) {
            for (j, v) in self.to_elements().into_iter().enumerate() {
                states[j * t + i] = v;
            }
        }
    }

    /// # Safety
    /// The CPU must support AVX2 (guaranteed by the token).
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn permute_fp256_avx2<'a, C: Fp256Config>(
        k: &KernelConstants<BroadcastFp256Avx2<C>>,
        cpu: zkaccel_fp256::Avx2,
        states: &'a mut [Fp256<C>],
    ) -> &'a mut [Fp256<C>] {
        permute_packed::<PackedFp256Avx2<C>>(k, cpu, states)
    }

    /// # Safety
    /// The CPU must support AVX2 (guaranteed by the token).
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn permute_avx2<'a>(
        k: &KernelConstants<Goldilocks>,
        cpu: Avx2,
        states: &'a mut [Goldilocks],
    ) -> &'a mut [Goldilocks] {
        permute_packed::<PackedGoldilocksAvx2>(k, cpu, states)
    }

    /// # Safety
    /// The CPU must support AVX-512F (guaranteed by the token).
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn permute_avx512<'a>(
        k: &KernelConstants<Goldilocks>,
        cpu: Avx512,
        states: &'a mut [Goldilocks],
    ) -> &'a mut [Goldilocks] {
        permute_packed::<PackedGoldilocksAvx512>(k, cpu, states)
    }

    /// # Safety
    /// The CPU must support AVX-512F and IFMA (guaranteed by the token).
    #[target_feature(enable = "avx512f,avx512ifma")]
    pub(super) unsafe fn permute_ifma<'a, C: Fp256Config>(
        k: &KernelConstants<PreparedFp256<C>>,
        cpu: Ifma,
        states: &'a mut [Fp256<C>],
    ) -> &'a mut [Fp256<C>] {
        permute_packed::<PackedFp256Ifma<C>>(k, cpu, states)
    }
}
