//! The 256-bit fields' chains of power maps ([`zkaccel_mimc::chains`], MiMC's rounds): the
//! hooks of [`Field`] that `Fp256<C>` overrides, and their kernels.
//!
//! One chain runs on lazily reduced values ([`LazyFp256`], no final subtraction per product;
//! on the assembly kernels where the CPU has BMI2 and ADX) where `4p < 2^256`. Batches run
//! eight chains per step in AVX-512 IFMA lanes where the CPU has them (the kernel written once
//! in `zkaccel-field`), else six on [`crate::hybrid::LazyHybridFp256`] lanes (four AVX2 lanes and two
//! scalar ones in one interleaved kernel), else four in AVX2 lanes, else four scalar lazy
//! chains interleaved. PERF.md has the measurements behind each choice.

use zkaccel_field::FieldError;
use zkaccel_mimc::chains::{
    check_equal_lengths, feistel_chain_textbook, feistel_chains_each, feistel_chains_packed,
    power_chain_textbook, power_chains_packed, CHAIN_LANES,
};
use zkaccel_symmetric::sbox::pow_sbox_with;
#[cfg(target_arch = "x86_64")]
use zkaccel_symmetric::sbox::sbox_schedule;

use crate::lazy::LazyFp256;
use crate::{Fp256, Fp256Config};

/// Evaluates `$kernel($($arg),*)`, a call of an `#[inline(always)]` kernel on lazily reduced
/// values, compiled with BMI2 and ADX where the CPU has them (so the additions and the portable
/// arithmetic around the assembly products use `mulx`/`adcx`/`adox` too) and as it is
/// elsewhere. The arguments are listed with their types, which may name the caller's `C`.
macro_rules! call_with_bmi2_adx {
    ($kernel:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty) => {{
        #[cfg(target_arch = "x86_64")]
        {
            /// The kernel compiled with BMI2 and ADX.
            ///
            /// # Safety
            /// The CPU must support BMI2 and ADX.
            #[target_feature(enable = "bmi2,adx")]
            unsafe fn with_adx<C: Fp256Config>($($arg: $ty),*) -> $ret {
                $kernel($($arg),*)
            }
            if zkaccel_field::cpu::Bmi2Adx::detect().is_some() {
                // SAFETY: BMI2 and ADX were detected just above.
                return unsafe { with_adx($($arg),*) };
            }
        }
        $kernel($($arg),*)
    }};
}

/// [`zkaccel_mimc::MimcField::power_chain`] for `Fp256<C>`: on [`LazyFp256`] values where `4p < 2^256`, the
/// products on the assembly kernel (and the squarings and additions compiled for BMI2 and ADX)
/// where the CPU has them, so the chain stays in registers.
pub(crate) fn power_chain<C: Fp256Config>(
    x: Fp256<C>,
    k: Fp256<C>,
    constants: &[Fp256<C>],
    d: u64,
) -> Fp256<C> {
    let Some(x) = LazyFp256::new(x) else {
        return power_chain_textbook(x, k, constants, d);
    };
    call_with_bmi2_adx!(power_chain_lazy(
        x: LazyFp256<C>,
        k: Fp256<C>,
        constants: &[Fp256<C>],
        d: u64,
    ) -> Fp256<C>)
}

/// The chain on lazily reduced values: each round adds `k + c`, that sum left unreduced (so
/// `x + k + c`, below `4p`, is brought below `2p` by one conditional subtraction of `2p`),
/// and runs the S-box's schedule without final subtractions, its squarings on the squaring
/// kernel and x^7's middle step as one product and one squaring interleaved
/// ([`pow_sbox_with`]); the key is added to the reduced result.
#[inline(always)]
fn power_chain_lazy<C: Fp256Config>(
    x: LazyFp256<C>,
    k: Fp256<C>,
    constants: &[Fp256<C>],
    d: u64,
) -> Fp256<C> {
    let mut x = x;
    for &c in constants {
        x = pow_sbox_with(&x.add_two_canonical(k, c), d);
    }
    x.reduce() + k
}

/// [`zkaccel_mimc::MimcField::feistel_chain`] for `Fp256<C>`: on [`LazyFp256`] values where `4p < 2^256` (the
/// assembly kernels where the CPU has BMI2 and ADX); the step of each round is ready before its
/// S-box, so only the S-box and one addition sit on the chain.
pub(crate) fn feistel_chain<C: Fp256Config>(
    u: Fp256<C>,
    v: Fp256<C>,
    steps: &[Fp256<C>],
    d: u64,
) -> (Fp256<C>, Fp256<C>) {
    let (Some(u), Some(v)) = (LazyFp256::new(u), LazyFp256::new(v)) else {
        return feistel_chain_textbook(u, v, steps, d);
    };
    call_with_bmi2_adx!(feistel_chain_lazy(
        u: LazyFp256<C>,
        v: LazyFp256<C>,
        steps: &[Fp256<C>],
        d: u64,
    ) -> (Fp256<C>, Fp256<C>))
}

/// [`zkaccel_mimc::MimcField::feistel_chain`] on lazily reduced values.
#[inline(always)]
fn feistel_chain_lazy<C: Fp256Config>(
    u: LazyFp256<C>,
    v: LazyFp256<C>,
    steps: &[Fp256<C>],
    d: u64,
) -> (Fp256<C>, Fp256<C>) {
    // `before` is u_{i−1} and `now` u_i at the top of round i.
    let (mut before, mut now) = (u, pow_sbox_with(&u, d) + v);
    for &step in steps {
        let t = pow_sbox_with(&now, d);
        let ahead = before.add_canonical(step);
        before = now;
        now = t + ahead;
    }
    let t = pow_sbox_with(&now, d);
    (now.reduce(), before.reduce() + t.reduce())
}

/// [`zkaccel_mimc::MimcField::power_chains`] for `Fp256<C>`: eight chains per step in AVX-512 IFMA lanes for a
/// batch of eight or more on a CPU with them ([`power_chains_packed`]), else
/// [`power_chains_hybrid`].
pub(crate) fn power_chains<C: Fp256Config>(
    xs: &mut [Fp256<C>],
    ks: &[Fp256<C>],
    constants: &[Fp256<C>],
    d: u64,
) -> Result<(), FieldError> {
    check_equal_lengths(xs.len(), ks.len())?;
    #[cfg(target_arch = "x86_64")]
    if crate::Ifma::detect().is_some() && xs.len() >= 8 {
        return power_chains_packed(xs.len(), xs, ks, constants, d);
    }
    power_chains_hybrid(xs, ks, constants, d)
}

/// Six chains per step on [`crate::hybrid::LazyHybridFp256`] lanes (four in AVX2 registers, two in
/// general registers, each product of a round one kernel with both instruction streams
/// interleaved, so the integer multiplier works while the vector unit does), where the CPU has
/// AVX2, BMI2 and ADX and `4p < 2^256`; otherwise [`power_chains_avx2`].
///
/// # Errors
/// [`FieldError::UnequalLengths`] when `xs` and `ks` differ in length (nothing is written).
pub fn power_chains_hybrid<C: Fp256Config>(
    xs: &mut [Fp256<C>],
    ks: &[Fp256<C>],
    constants: &[Fp256<C>],
    d: u64,
) -> Result<(), FieldError> {
    check_equal_lengths(xs.len(), ks.len())?;
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = crate::Avx2::detect() {
        if crate::hybrid::LazyHybridFp256::<C>::available() {
            // SAFETY: AVX2 was detected, and hybrid values can be built (BMI2 and ADX).
            unsafe { power_chains_hybrid_lanes(cpu, xs, ks, constants, d) };
            return Ok(());
        }
    }
    power_chains_avx2(xs, ks, constants, d)
}

/// Four chains per step in AVX2 lanes ([`crate::avx2::LazyPackedFp256Avx2`], radix 2^29, lazily
/// reduced, the state kept in that form for all rounds), the remainder (and every chain on a
/// CPU without AVX2) on [`power_chains_lazy`].
///
/// # Errors
/// [`FieldError::UnequalLengths`] when `xs` and `ks` differ in length (nothing is written).
pub fn power_chains_avx2<C: Fp256Config>(
    xs: &mut [Fp256<C>],
    ks: &[Fp256<C>],
    constants: &[Fp256<C>],
    d: u64,
) -> Result<(), FieldError> {
    check_equal_lengths(xs.len(), ks.len())?;
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = crate::Avx2::detect() {
        // SAFETY: the detection proves AVX2 is present.
        unsafe { power_chains_avx2_lanes(cpu, xs, ks, constants, d) };
        return Ok(());
    }
    power_chains_lazy(xs, ks, constants, d)
}

/// [`CHAIN_LANES`] chains advanced round by round on lazily reduced values ([`LazyFp256`]),
/// the products on the assembly kernel where the CPU has BMI2 and ADX: the batch kernel of
/// CPUs without AVX2 and the remainder kernel of the SIMD ones. Fields without room for lazy
/// reduction (`4p ≥ 2^256`) run the portable interleaved chains ([`power_chains_packed`] on
/// one lane).
///
/// # Errors
/// [`FieldError::UnequalLengths`] when `xs` and `ks` differ in length (nothing is written).
pub fn power_chains_lazy<C: Fp256Config>(
    xs: &mut [Fp256<C>],
    ks: &[Fp256<C>],
    constants: &[Fp256<C>],
    d: u64,
) -> Result<(), FieldError> {
    check_equal_lengths(xs.len(), ks.len())?;
    if !LazyFp256::<C>::SUPPORTED {
        return power_chains_packed(1, xs, ks, constants, d);
    }
    call_with_bmi2_adx!(power_chains_lazy_lanes(
        xs: &mut [Fp256<C>],
        ks: &[Fp256<C>],
        constants: &[Fp256<C>],
        d: u64,
    ) -> Result<(), FieldError>)
}

/// [`power_chains_lazy`]'s lanes, for a field with `4p < 2^256`.
#[inline(always)]
fn power_chains_lazy_lanes<C: Fp256Config>(
    xs: &mut [Fp256<C>],
    ks: &[Fp256<C>],
    constants: &[Fp256<C>],
    d: u64,
) -> Result<(), FieldError> {
    let lazy = |x: Fp256<C>| LazyFp256::new(x).expect("4p < 2^256 was checked");
    let mut cx = xs.chunks_exact_mut(CHAIN_LANES);
    let mut ck = ks.chunks_exact(CHAIN_LANES);
    for (x, k) in (&mut cx).zip(&mut ck) {
        let mut lanes = [lazy(x[0]); CHAIN_LANES];
        for i in 1..CHAIN_LANES {
            lanes[i] = lazy(x[i]);
        }
        for &c in constants {
            for i in 0..CHAIN_LANES {
                lanes[i] = pow_sbox_with(&lanes[i].add_two_canonical(k[i], c), d);
            }
        }
        for i in 0..CHAIN_LANES {
            x[i] = lanes[i].reduce() + k[i];
        }
    }
    for (x, &k) in cx.into_remainder().iter_mut().zip(ck.remainder()) {
        *x = power_chain_lazy(lazy(*x), k, constants, d);
    }
    Ok(())
}

/// Four chains per step in AVX2 lanes on lazily reduced values: each round adds the canonical
/// `k + c` unreduced into the S-box's schedule ([`crate::avx2::LazyPackedFp256Avx2::power_of_sum`]);
/// the state is reduced once per chain. The remainder runs on [`power_chains_lazy`].
///
/// # Safety
/// The CPU must support AVX2 (which `cpu`, a detected token, proves).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn power_chains_avx2_lanes<C: Fp256Config>(
    cpu: crate::Avx2,
    xs: &mut [Fp256<C>],
    ks: &[Fp256<C>],
    constants: &[Fp256<C>],
    d: u64,
) {
    use crate::avx2::LazyPackedFp256Avx2;
    use crate::{BroadcastFp256Avx2, PackedFp256Avx2};
    use zkaccel_field::PackedField as _;
    const W: usize = 4;
    if xs.len() < W {
        return power_chains_lazy(xs, ks, constants, d).expect("the caller checked the lengths");
    }
    // The round constants kept as one lane's limbs and broadcast when used (PERF.md: full
    // four-lane values filled most of the L1 data cache beside the state). A plain loop,
    // inlined, so that the conversions compile with this function's AVX2.
    let mut packed = Vec::with_capacity(constants.len());
    for &c in constants {
        packed.push(BroadcastFp256Avx2::new(cpu, c));
    }
    let mut cx = xs.chunks_exact_mut(W);
    let mut ck = ks.chunks_exact(W);
    for (x, k) in (&mut cx).zip(&mut ck) {
        let k = PackedFp256Avx2::from_slice(cpu, k);
        let mut state = LazyPackedFp256Avx2::new(PackedFp256Avx2::from_slice(cpu, x));
        for c in &packed {
            state = state.power_of_sum(k, c.get(), d);
        }
        (state.reduce() + k).write_to_slice(x);
    }
    power_chains_lazy(cx.into_remainder(), ck.remainder(), constants, d)
        .expect("the caller checked the lengths");
}

/// Six chains per step on [`crate::hybrid::LazyHybridFp256`] lanes, each group one
/// [`crate::hybrid::LazyHybridFp256::power_of_sum_rounds`]: `x + k + c` unreduced into the S-box's
/// schedule, added inside the previous round's last product, the round constants kept compact
/// ([`crate::hybrid::HybridBroadcast`]); the state is reduced once per chain. The remainder runs on
/// [`power_chains_avx2_lanes`].
///
/// # Safety
/// The CPU must support BMI2 and ADX besides AVX2 (the function is compiled for them; where
/// [`crate::hybrid::LazyHybridFp256::available`] holds, it does).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2,adx")]
unsafe fn power_chains_hybrid_lanes<C: Fp256Config>(
    cpu: crate::Avx2,
    xs: &mut [Fp256<C>],
    ks: &[Fp256<C>],
    constants: &[Fp256<C>],
    d: u64,
) {
    use crate::hybrid::{HybridBroadcast, HybridCanonical, LazyHybridFp256};
    const W: usize = 6;
    let Some(schedule) = sbox_schedule(d) else {
        return power_chains_lazy(xs, ks, constants, d).expect("the caller checked the lengths");
    };
    // A plain loop, inlined, so that the conversions compile with this function's AVX2.
    let mut packed = Vec::with_capacity(constants.len());
    for &c in constants {
        packed.push(HybridBroadcast::new(cpu, c));
    }
    let mut cx = xs.chunks_exact_mut(W);
    let mut ck = ks.chunks_exact(W);
    for (x, k) in (&mut cx).zip(&mut ck) {
        let x: &mut [Fp256<C>; W] = x.try_into().expect("chunks of six");
        let k: &[Fp256<C>; W] = k.try_into().expect("chunks of six");
        let Some(state) = LazyHybridFp256::from_elements(cpu, x) else {
            // Not reached (the caller checked that hybrid values can be built); were it, this
            // group would still run once, on the AVX2 lanes.
            // SAFETY: the caller runs on an AVX2 CPU.
            unsafe { power_chains_avx2_lanes(cpu, x, k, constants, d) };
            continue;
        };
        let key = HybridCanonical::from_elements(cpu, k);
        *x = state.power_of_sum_rounds(&key, &packed, &schedule);
    }
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe { power_chains_avx2_lanes(cpu, cx.into_remainder(), ck.remainder(), constants, d) };
}

/// [`zkaccel_mimc::MimcField::feistel_chains`] for `Fp256<C>`: eight chains per step in AVX-512 IFMA lanes for a
/// batch of eight or more on a CPU with them ([`feistel_chains_packed`]), else
/// [`feistel_chains_hybrid`].
pub(crate) fn feistel_chains<C: Fp256Config>(
    us: &mut [Fp256<C>],
    vs: &mut [Fp256<C>],
    steps: &[Fp256<C>],
    d: u64,
) -> Result<(), FieldError> {
    check_equal_lengths(us.len(), vs.len())?;
    #[cfg(target_arch = "x86_64")]
    if crate::Ifma::detect().is_some() && us.len() >= 8 {
        return feistel_chains_packed(us.len(), us, vs, steps, d);
    }
    feistel_chains_hybrid(us, vs, steps, d)
}

/// Six Feistel chains per step on [`crate::hybrid::LazyHybridFp256`] lanes (four AVX2, two scalar,
/// one interleaved kernel per product; [`crate::hybrid::LazyHybridFp256::feistel_chain`]) where the
/// CPU has AVX2, BMI2 and ADX and `4p < 2^256`; the remainder, and every chain elsewhere, one
/// at a time ([`zkaccel_mimc::MimcField::feistel_chain`]).
///
/// # Errors
/// [`FieldError::UnequalLengths`] when `us` and `vs` differ in length (nothing is written).
pub fn feistel_chains_hybrid<C: Fp256Config>(
    us: &mut [Fp256<C>],
    vs: &mut [Fp256<C>],
    steps: &[Fp256<C>],
    d: u64,
) -> Result<(), FieldError> {
    check_equal_lengths(us.len(), vs.len())?;
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = crate::Avx2::detect() {
        if crate::hybrid::LazyHybridFp256::<C>::available() {
            // SAFETY: AVX2 was detected, and hybrid values can be built (BMI2 and ADX).
            unsafe { feistel_chains_hybrid_lanes(cpu, us, vs, steps, d) };
            return Ok(());
        }
    }
    feistel_chains_each(us, vs, steps, d);
    Ok(())
}

/// [`feistel_chains_hybrid`]'s lanes: the steps kept compact ([`crate::hybrid::HybridBroadcast`]).
///
/// # Safety
/// The CPU must support BMI2 and ADX besides AVX2 (the function is compiled for them; where
/// [`crate::hybrid::LazyHybridFp256::available`] holds, it does).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2,adx")]
unsafe fn feistel_chains_hybrid_lanes<C: Fp256Config>(
    cpu: crate::Avx2,
    us: &mut [Fp256<C>],
    vs: &mut [Fp256<C>],
    steps: &[Fp256<C>],
    d: u64,
) {
    use crate::hybrid::{HybridBroadcast, LazyHybridFp256};
    const W: usize = 6;
    let Some(schedule) = sbox_schedule(d) else {
        return feistel_chains_each(us, vs, steps, d);
    };
    // A plain loop, inlined, so that the conversions compile with this function's AVX2.
    let mut packed = Vec::with_capacity(steps.len());
    for &step in steps {
        packed.push(HybridBroadcast::new(cpu, step));
    }
    let mut cu = us.chunks_exact_mut(W);
    let mut cv = vs.chunks_exact_mut(W);
    for (u, v) in (&mut cu).zip(&mut cv) {
        let u: &mut [Fp256<C>; W] = u.try_into().expect("chunks of six");
        let v: &mut [Fp256<C>; W] = v.try_into().expect("chunks of six");
        let chain = match (
            LazyHybridFp256::from_elements(cpu, u),
            LazyHybridFp256::from_elements(cpu, v),
        ) {
            (Some(hu), Some(hv)) => LazyHybridFp256::feistel_chain(hu, hv, &packed, &schedule),
            _ => None,
        };
        let Some([last, before_last, power]) = chain else {
            // Not reached (the caller checked that hybrid values can be built, and every
            // exponent of at least 2 has a schedule ending in register 0); were it, this group
            // would still run once, one chain at a time.
            feistel_chains_each(u, v, steps, d);
            continue;
        };
        for i in 0..W {
            u[i] = last[i];
            v[i] = before_last[i] + power[i];
        }
    }
    feistel_chains_each(cu.into_remainder(), cv.into_remainder(), steps, d);
}
