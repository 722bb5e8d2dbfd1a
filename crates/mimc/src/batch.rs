//! Batch kernels: many independent ciphers at once.
//!
//! This is the software counterpart of AMAZE's 13-deep pipeline. One cipher is a serial chain
//! of `R·(cost of x^d)` dependent multiplications, so a single chain leaves the multiplier idle
//! while each product's carries settle. Running independent ciphers side by side fills that gap:
//! the scalar kernels interleave [`SCALAR_LANES`] ciphers round by round so the CPU overlaps
//! their multiplications (on the 256-bit fields with `4p < 2^256`, on lazily reduced values and
//! the assembly product kernel: [`encrypt_many_lazy`]); on CPUs with AVX-512 IFMA the 256-bit
//! fields run eight ciphers per instruction sequence in radix 2^52, and on CPUs with only AVX2
//! six: four in radix 2^29 and two scalar ones, in one interleaved kernel
//! ([`encrypt_many_hybrid`]; four AVX2 lanes alone in [`encrypt_many_avx2`]), converting in
//! and out of those forms once per cipher. circomlib's MiMCSponge permutations run six at a
//! time on the same hybrid lanes, or eight at a time in IFMA lanes
//! ([`MimcField::permute_feistel_many`], [`permute_feistel_many_packed`]).

use zkaccel_field::{PackedField, PackedKernel, PrimeField};
use zkaccel_fp256::{Fp256, Fp256Config, LazyFp256};
use zkaccel_goldilocks::Goldilocks;

use crate::cipher::check_lengths;
use crate::error::MimcError;
use crate::feistel::MimcSponge;
use crate::params::MimcParams;
use zkaccel_field::sbox::{pow_sbox, pow_sbox_packed, pow_sbox_with, sbox_schedule};

/// Ciphers interleaved by the scalar kernels.
pub const SCALAR_LANES: usize = 4;

/// A field with a batch MiMC kernel. The defaults run the kernels written once over packings
/// on the widest packing the CPU offers ([`encrypt_many_packed`],
/// [`permute_feistel_many_packed`]); fields with a faster form override them.
pub trait MimcField: PrimeField {
    /// One cipher `E_k(x)`, a single dependent chain. The default is the textbook loop;
    /// fields with a lower-latency form of the chain override it.
    #[inline]
    fn encrypt_one(params: &MimcParams<Self>, x: Self, k: Self) -> Self {
        encrypt_textbook(params, x, k)
    }

    /// `xs[i] ← E_{ks[i]}(xs[i])` for every `i`. The default runs [`encrypt_many_packed`] on
    /// the widest packing that the batch fills.
    ///
    /// # Errors
    /// [`MimcError::LengthMismatch`] when `xs` and `ks` differ in length (nothing is written).
    fn encrypt_many(
        params: &MimcParams<Self>,
        xs: &mut [Self],
        ks: &[Self],
    ) -> Result<(), MimcError> {
        encrypt_many_on_packings(xs.len(), true, params, xs, ks)
    }

    /// The Feistel permutation `F_k(xL, xR)` of circomlib's MiMCSponge
    /// ([`MimcSponge::permute`]), one dependent chain. The default is the textbook loop
    /// ([`permute_feistel_textbook`]); fields with a lower-latency form override it.
    #[inline]
    fn permute_feistel(sponge: &MimcSponge<Self>, l: Self, r: Self, k: Self) -> (Self, Self) {
        permute_feistel_textbook(sponge.params(), l, r, k)
    }

    /// `(ls[i], rs[i]) ← F_k(ls[i], rs[i])` for every `i`, one key for all. The default runs
    /// [`permute_feistel_many_packed`] on the widest packing that the batch fills.
    ///
    /// # Errors
    /// [`MimcError::LengthMismatch`] when `ls` and `rs` differ in length (nothing is written).
    fn permute_feistel_many(
        sponge: &MimcSponge<Self>,
        ls: &mut [Self],
        rs: &mut [Self],
        k: Self,
    ) -> Result<(), MimcError> {
        permute_feistel_many_packed(ls.len(), sponge, ls, rs, k)
    }
}

/// [`MimcField::permute_feistel`] on each pair in turn.
#[inline(always)]
fn permute_feistel_each<F: MimcField>(sponge: &MimcSponge<F>, ls: &mut [F], rs: &mut [F], k: F) {
    for (l, r) in ls.iter_mut().zip(rs.iter_mut()) {
        (*l, *r) = F::permute_feistel(sponge, *l, *r, k);
    }
}

/// Walks the blocks of many messages in step: for each block index `j`, `step(live, blocks)`
/// gets the indices of the messages that have a `j`-th block and those blocks, so that a batch
/// kernel runs the hashes still absorbing (messages of different lengths may be mixed).
pub(crate) fn for_each_block<F: Copy, I: AsRef<[F]>>(
    msgs: &[I],
    mut step: impl FnMut(&[usize], &[F]),
) {
    let longest = msgs.iter().map(|m| m.as_ref().len()).max().unwrap_or(0);
    let (mut live, mut blocks) = (Vec::with_capacity(msgs.len()), Vec::new());
    for j in 0..longest {
        live.clear();
        blocks.clear();
        for (i, m) in msgs.iter().enumerate() {
            if let Some(&block) = m.as_ref().get(j) {
                live.push(i);
                blocks.push(block);
            }
        }
        step(&live, &blocks);
    }
}

impl MimcField for Goldilocks {}

/// `E_k(x)` one round after the other with the field's own operations.
#[inline(always)]
pub fn encrypt_textbook<F: PrimeField>(params: &MimcParams<F>, x: F, k: F) -> F {
    let d = params.exponent();
    let mut x = x;
    // (k + c_i) does not depend on x, so only one addition sits on the critical path.
    for &c in params.constants() {
        x = pow_sbox(x + (k + c), d);
    }
    x + k
}

/// `F_k(xL, xR)` one round after the other with the field's own operations: `t ← (xL + k +
/// c_i)^d`, then `(xL, xR) ← (xR + t, xL)`, except that the last round adds `t` to `xR` and
/// swaps nothing.
#[inline(always)]
pub fn permute_feistel_textbook<F: PrimeField>(params: &MimcParams<F>, l: F, r: F, k: F) -> (F, F) {
    let d = params.exponent();
    let (mut l, mut r) = (l, r);
    let Some((last, rounds)) = params.constants().split_last() else {
        return (l, r);
    };
    for &c in rounds {
        let t = pow_sbox(l + (k + c), d);
        (l, r) = (r + t, l);
    }
    (l, r + pow_sbox(l + (k + *last), d))
}

/// The portable kernel: [`SCALAR_LANES`] independent ciphers advanced round by round.
///
/// # Errors
/// [`MimcError::LengthMismatch`] when `xs` and `ks` differ in length (nothing is written).
pub fn encrypt_many_interleaved<F: PrimeField>(
    params: &MimcParams<F>,
    xs: &mut [F],
    ks: &[F],
) -> Result<(), MimcError> {
    check_lengths(xs.len(), ks.len())?;
    let d = params.exponent();
    let mut cx = xs.chunks_exact_mut(SCALAR_LANES);
    let mut ck = ks.chunks_exact(SCALAR_LANES);
    for (x, k) in (&mut cx).zip(&mut ck) {
        let mut lanes: [F; SCALAR_LANES] = core::array::from_fn(|i| x[i]);
        for &c in params.constants() {
            for i in 0..SCALAR_LANES {
                lanes[i] = pow_sbox(lanes[i] + (k[i] + c), d);
            }
        }
        for i in 0..SCALAR_LANES {
            x[i] = lanes[i] + k[i];
        }
    }
    for (x, &k) in cx.into_remainder().iter_mut().zip(ck.remainder()) {
        *x = encrypt_textbook(params, *x, k);
    }
    Ok(())
}

impl<C: Fp256Config> MimcField for Fp256<C> {
    /// With `4p < 2^256` the chain runs on [`LazyFp256`] values (no final subtraction per
    /// product; the products on the assembly kernel when the CPU has BMI2 and ADX, and the
    /// squarings and additions then compiled for them too), so the chain stays in registers.
    ///
    /// Where its time goes, measured on a 2-core AMD EPYC (Zen 3, BN254, x^7): a lazy product
    /// takes 57 cycles in a chain (a C harness around the same lines; 19.2 ns in a Rust chain),
    /// and its 32 `mulx` and 4 `imul` alone occupy the integer multiplier for about 47 cycles
    /// (a `mulx` issues every 1.25 cycles there, every 1.5 with the `adox`/`adcx` that
    /// accumulate its halves; an `imul` every cycle), so the product is bound by the
    /// multiplier more than by its dependency chain. An x^7 S-box needs at least two squarings
    /// (26 `mulx` and 4 `imul` each) and two products: 116 `mulx` and 16 `imul`, some 173
    /// cycles (55 ns) even with perfect overlap. The chain runs exactly those: the squaring
    /// kernel, x^7's middle step as one product-and-square kernel, the last product. A round
    /// (with its addition) takes 242–257 cycles, against 255–273 when the squarings were
    /// products (minimum of 40 alternating runs, two runs). At the floor a cipher would take
    /// 5.0 µs, about a third of arkworks-mimc's 15.1–16.3 µs on the same machine. The measured
    /// path takes 6.8–6.9 µs (14.8–15.4 µs for arkworks-mimc in the same runs), its kernels
    /// aligned so that this does not depend on where the linker puts the function. One chain
    /// already keeps the multiplier as busy as independent chains do: four ciphers interleaved
    /// on the same kernels ([`encrypt_many_lazy`]) take 6.95–7.0 µs per cipher, one at a time
    /// 6.85–6.9 (`examples/mimc_batch_compare.rs`), so no schedule of this arithmetic shortens
    /// the chain much; only fewer or cheaper multiplier instructions would.
    fn encrypt_one(params: &MimcParams<Self>, x: Self, k: Self) -> Self {
        let Some(lazy_x) = LazyFp256::new(x) else {
            return encrypt_textbook(params, x, k);
        };
        #[cfg(target_arch = "x86_64")]
        if zkaccel_field::cpu::Bmi2Adx::detect().is_some() {
            // SAFETY: BMI2 and ADX were detected just above.
            return unsafe { encrypt_lazy_adx(params, lazy_x, k) };
        }
        encrypt_lazy(params, lazy_x, k)
    }

    /// With `4p < 2^256` the chain runs on [`LazyFp256`] values like
    /// [`MimcField::encrypt_one`]'s, carrying only the S-box inputs: `u_{i+1} = u_i^d +
    /// (u_{i−1} + c_{i+1} − c_{i−1})` for `u_i = xL_i + k + c_i` (the key cancels, and the
    /// bracket is ready before `u_i^d`, so one addition per round sits beside the S-box on the
    /// chain); the halves are recovered at the end.
    fn permute_feistel(sponge: &MimcSponge<Self>, l: Self, r: Self, k: Self) -> (Self, Self) {
        if !LazyFp256::<C>::SUPPORTED {
            return permute_feistel_textbook(sponge.params(), l, r, k);
        }
        #[cfg(target_arch = "x86_64")]
        if zkaccel_field::cpu::Bmi2Adx::detect().is_some() {
            // SAFETY: BMI2 and ADX were detected just above.
            return unsafe { permute_feistel_lazy_adx(sponge, l, r, k) };
        }
        permute_feistel_lazy(sponge, l, r, k)
    }

    /// Eight permutations at a time in AVX-512 IFMA lanes where the CPU has them
    /// ([`permute_feistel_many_packed`] on [`zkaccel_fp256::PackedFp256Ifma`]); otherwise six
    /// at a time on [`zkaccel_fp256::LazyHybridFp256`] lanes where the CPU has AVX2, BMI2 and
    /// ADX and `4p < 2^256` ([`zkaccel_fp256::LazyHybridFp256::feistel_chain`], the same chain
    /// as one permutation runs); one at a time on the single-chain path otherwise.
    fn permute_feistel_many(
        sponge: &MimcSponge<Self>,
        ls: &mut [Self],
        rs: &mut [Self],
        k: Self,
    ) -> Result<(), MimcError> {
        check_lengths(ls.len(), rs.len())?;
        #[cfg(target_arch = "x86_64")]
        if zkaccel_fp256::Ifma::detect().is_some() && ls.len() >= 8 {
            // The widest packing a batch of eight or more fills: the IFMA lanes.
            return permute_feistel_many_packed(ls.len(), sponge, ls, rs, k);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(cpu) = zkaccel_fp256::Avx2::detect() {
            if zkaccel_fp256::LazyHybridFp256::<C>::available() {
                // SAFETY: AVX2 was detected, and hybrid values can be built (BMI2 and ADX).
                unsafe { permute_feistel_many_hybrid(cpu, sponge, ls, rs, k) };
                return Ok(());
            }
        }
        permute_feistel_each(sponge, ls, rs, k);
        Ok(())
    }

    fn encrypt_many(
        params: &MimcParams<Self>,
        xs: &mut [Self],
        ks: &[Self],
    ) -> Result<(), MimcError> {
        check_lengths(xs.len(), ks.len())?;
        #[cfg(target_arch = "x86_64")]
        if zkaccel_fp256::Ifma::detect().is_some() && xs.len() >= 8 {
            // The widest packing a batch of eight or more fills: the IFMA lanes.
            return encrypt_many_packed(xs.len(), params, xs, ks);
        }
        encrypt_many_hybrid(params, xs, ks)
    }
}

/// The batch kernel of CPUs without AVX-512 IFMA: six ciphers per step, four in AVX2 lanes and
/// two in scalar lanes run by one interleaved kernel ([`zkaccel_fp256::LazyHybridFp256`]), where
/// the CPU has AVX2, BMI2 and ADX and the field `4p < 2^256`; otherwise [`encrypt_many_avx2`].
/// `xs` and `ks` have equal lengths.
///
/// Measured on a 2-core AMD EPYC (Zen 3, no AVX-512), circomlib preset, thread CPU time,
/// in-process alternating runs (`examples/mimc_batch_compare.rs`, best of 15 runs of 15
/// rounds): 3.18–3.20 µs per cipher, against 4.30–4.41 for the four AVX2 lanes alone
/// ([`encrypt_many_avx2`]; 4.19–4.20 since their round sums go to the kernels unreduced). Each
/// group of six is one
/// [`zkaccel_fp256::LazyHybridFp256::power_of_sum_rounds`], whose round additions happen inside
/// the last product's kernel: 3.18–3.19 µs against 3.27–3.29 with the additions between
/// kernels (round by round `power_of_sum`, in the same runs).
pub fn encrypt_many_hybrid<C: Fp256Config>(
    params: &MimcParams<Fp256<C>>,
    xs: &mut [Fp256<C>],
    ks: &[Fp256<C>],
) -> Result<(), MimcError> {
    check_lengths(xs.len(), ks.len())?;
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = zkaccel_fp256::Avx2::detect() {
        if zkaccel_fp256::LazyHybridFp256::<C>::available() {
            // SAFETY: AVX2 was detected, and hybrid values can be built (BMI2 and ADX).
            unsafe { encrypt_many_hybrid_lanes(cpu, params, xs, ks) };
            return Ok(());
        }
    }
    encrypt_many_avx2(params, xs, ks)
}

/// Four ciphers per step in AVX2 lanes ([`zkaccel_fp256::LazyPackedFp256Avx2`], radix 2^29,
/// lazily reduced, the state kept in that form for all rounds), the remainder (and every
/// cipher on a CPU without AVX2) on [`encrypt_many_lazy`]. `xs` and `ks` have equal lengths.
///
/// Measured on a 2-core AMD EPYC (Zen 3, no AVX-512), circomlib preset, thread CPU time,
/// in-process alternating runs (`examples/mimc_batch_compare.rs`, best of 15 runs of 15
/// rounds): 4.30 µs per cipher, against 7.49 µs for four scalar ciphers interleaved
/// ([`encrypt_many_lazy`]); 4.40–4.41 and 7.62 before x^7's middle step took a squaring
/// instead of a second product. Each round is one
/// [`zkaccel_fp256::LazyPackedFp256Avx2::power_of_sum`], the sum `x + k + c_i` going to the
/// kernels unreduced: 4.19–4.20 µs against 4.30–4.32 with it reduced (Zen 3, as above).
pub fn encrypt_many_avx2<C: Fp256Config>(
    params: &MimcParams<Fp256<C>>,
    xs: &mut [Fp256<C>],
    ks: &[Fp256<C>],
) -> Result<(), MimcError> {
    check_lengths(xs.len(), ks.len())?;
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = zkaccel_fp256::Avx2::detect() {
        // SAFETY: the detection proves AVX2 is present.
        unsafe { encrypt_many_avx2_lanes(cpu, params, xs, ks) };
        return Ok(());
    }
    encrypt_many_lazy(params, xs, ks)
}

/// The scalar kernel of the 256-bit fields: [`SCALAR_LANES`] independent ciphers advanced round
/// by round on lazily reduced values ([`LazyFp256`], as in the single-cipher path), the
/// products on the assembly kernel when the CPU has BMI2 and ADX. Fields without room for lazy
/// reduction (`4p ≥ 2^256`) run [`encrypt_many_interleaved`]. `xs` and `ks` have equal lengths.
///
/// This is the batch kernel of CPUs without AVX2 and the remainder kernel of the SIMD ones.
/// Measured on a 2-core AMD EPYC (Zen 3; thread CPU time, 240 ciphers, in-process alternating
/// runs, best of 11 runs of 11 rounds): 7.0 µs per cipher, against 8.0 µs for
/// [`encrypt_many_interleaved`] on canonical values; 7.3 µs when each round formed `k + c_i`
/// reduced before adding it ([`LazyFp256::add_two_canonical`] adds the unreduced sum).
/// The product kernel is limited by the integer multiplier's throughput more than by its
/// latency (a `mulx` issues every 1.35 cycles there, an `imul` every cycle), so the gain
/// comes from lazy reduction, not from the interleaving.
pub fn encrypt_many_lazy<C: Fp256Config>(
    params: &MimcParams<Fp256<C>>,
    xs: &mut [Fp256<C>],
    ks: &[Fp256<C>],
) -> Result<(), MimcError> {
    check_lengths(xs.len(), ks.len())?;
    if !LazyFp256::<C>::SUPPORTED {
        return encrypt_many_interleaved(params, xs, ks);
    }
    #[cfg(target_arch = "x86_64")]
    if zkaccel_field::cpu::Bmi2Adx::detect().is_some() {
        // SAFETY: BMI2 and ADX were detected just above.
        unsafe { encrypt_many_lazy_adx(params, xs, ks) };
        return Ok(());
    }
    encrypt_many_lazy_lanes(params, xs, ks);
    Ok(())
}

/// [`encrypt_many_lazy`]'s lanes, for a field with `4p < 2^256`.
#[inline(always)]
fn encrypt_many_lazy_lanes<C: Fp256Config>(
    params: &MimcParams<Fp256<C>>,
    xs: &mut [Fp256<C>],
    ks: &[Fp256<C>],
) {
    let d = params.exponent();
    let lazy = |x: Fp256<C>| LazyFp256::new(x).expect("4p < 2^256 was checked");
    let mut cx = xs.chunks_exact_mut(SCALAR_LANES);
    let mut ck = ks.chunks_exact(SCALAR_LANES);
    for (x, k) in (&mut cx).zip(&mut ck) {
        let mut lanes = [lazy(x[0]); SCALAR_LANES];
        for i in 1..SCALAR_LANES {
            lanes[i] = lazy(x[i]);
        }
        for &c in params.constants() {
            for i in 0..SCALAR_LANES {
                lanes[i] = pow_sbox_with(&lanes[i].add_two_canonical(k[i], c), d);
            }
        }
        for i in 0..SCALAR_LANES {
            x[i] = lanes[i].reduce() + k[i];
        }
    }
    for (x, &k) in cx.into_remainder().iter_mut().zip(ck.remainder()) {
        *x = encrypt_lazy(params, lazy(*x), k);
    }
}

/// [`encrypt_many_lazy_lanes`] compiled with `mulx`/`adcx`/`adox` available.
///
/// # Safety
/// The CPU must support BMI2 and ADX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,adx")]
unsafe fn encrypt_many_lazy_adx<C: Fp256Config>(
    params: &MimcParams<Fp256<C>>,
    xs: &mut [Fp256<C>],
    ks: &[Fp256<C>],
) {
    encrypt_many_lazy_lanes(params, xs, ks);
}

/// `E_k(x)` on lazily reduced values: each round adds `k + c_i`, that sum left unreduced (so
/// `x + k + c_i`, below `4p`, is brought below `2p` by one conditional subtraction of `2p`;
/// 2.5 % faster per cipher on Zen 3 than reducing `k + c_i` first), and runs the S-box's
/// schedule without final subtractions, its squarings on the squaring kernel
/// ([`LazyFp256::square`]) and x^7's middle step as one product and one squaring interleaved
/// ([`pow_sbox_with`]).
#[inline(always)]
fn encrypt_lazy<C: Fp256Config>(
    params: &MimcParams<Fp256<C>>,
    x: LazyFp256<C>,
    k: Fp256<C>,
) -> Fp256<C> {
    let d = params.exponent();
    let mut x = x;
    for &c in params.constants() {
        x = pow_sbox_with(&x.add_two_canonical(k, c), d);
    }
    x.reduce() + k
}

/// `F_k(xL, xR)` on lazily reduced values, for a field with `4p < 2^256`: the chain carries
/// the S-box inputs `u_i = xL_i + k + c_i` alone. Round `i`'s output `t_i` gives
/// `u_{i+1} = xR_i + t_i + k + c_{i+1}`, and `xR_i = xL_{i−1} = u_{i−1} − k − c_{i−1}`, so
/// `u_{i+1} = t_i + (u_{i−1} + c_{i+1} − c_{i−1})`: the key cancels, the bracket (with the
/// sponge's precomputed [`MimcSponge::constant_steps`]) is ready before `t_i`, and only the
/// S-box and one addition sit on the chain. The halves are recovered at the end.
///
/// Measured on a 2-core AMD EPYC (Zen 3), circomlib's MiMCSponge, a chain of permutations,
/// thread CPU time: 63.7 ns per round, against 72.0 when each round also formed the halves
/// (`xL ← xR + t` reduced, `xR + k + c_{i+1}`) beside the chain, 72 for the textbook loop on
/// canonical values, and 58.3 for the S-box chain alone (with its addition of a constant).
#[inline(always)]
fn permute_feistel_lazy<C: Fp256Config>(
    sponge: &MimcSponge<Fp256<C>>,
    l: Fp256<C>,
    r: Fp256<C>,
    k: Fp256<C>,
) -> (Fp256<C>, Fp256<C>) {
    let params = sponge.params();
    let (d, c) = (params.exponent(), params.constants());
    let rounds = c.len();
    let Some(first) = LazyFp256::new(l + (k + c[0])) else {
        return permute_feistel_textbook(params, l, r, k);
    };
    let mut t = pow_sbox_with(&first, d);
    if rounds == 1 {
        return (l, r + t.reduce());
    }
    let Some(right) = LazyFp256::new(r + (k + c[1])) else {
        return permute_feistel_textbook(params, l, r, k);
    };
    // `before` is u_{i−1} and `now` u_i at the top of the loop's round i (1 ≤ i ≤ R − 2).
    let (mut before, mut now) = (first, t + right);
    for &step in sponge.constant_steps() {
        t = pow_sbox_with(&now, d);
        let ahead = before.add_canonical(step);
        before = now;
        now = t + ahead;
    }
    t = pow_sbox_with(&now, d);
    // The last round keeps xL_{R−1} = u_{R−1} − k − c_{R−1} and adds t to xR_{R−1} = xL_{R−2}.
    (
        now.reduce() - (k + c[rounds - 1]),
        before.reduce() - (k + c[rounds - 2]) + t.reduce(),
    )
}

/// [`permute_feistel_lazy`] compiled with `mulx`/`adcx`/`adox` available.
///
/// # Safety
/// The CPU must support BMI2 and ADX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,adx")]
unsafe fn permute_feistel_lazy_adx<C: Fp256Config>(
    sponge: &MimcSponge<Fp256<C>>,
    l: Fp256<C>,
    r: Fp256<C>,
    k: Fp256<C>,
) -> (Fp256<C>, Fp256<C>) {
    permute_feistel_lazy(sponge, l, r, k)
}

/// [`encrypt_lazy`] compiled with `mulx`/`adcx`/`adox` available.
///
/// # Safety
/// The CPU must support BMI2 and ADX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,adx")]
unsafe fn encrypt_lazy_adx<C: Fp256Config>(
    params: &MimcParams<Fp256<C>>,
    x: LazyFp256<C>,
    k: Fp256<C>,
) -> Fp256<C> {
    encrypt_lazy(params, x, k)
}

/// `xs[i] ← E_{ks[i]}(xs[i])` on the widest packing of `F` with at most `max_lanes` lanes that
/// the CPU offers ([`zkaccel_field::Field::run_packed_within`]): a packing of several lanes
/// runs `P::WIDTH` ciphers per step in its lanes (the remainder one at a time), the scalar
/// one [`encrypt_many_interleaved`].
///
/// The 256-bit fields' [`MimcField::encrypt_many`] runs it on eight AVX-512 IFMA lanes where
/// the CPU has them, the squarings on the squaring kernel. Measured on a 2-core AMD EPYC
/// (Zen 4), circomlib preset, one thread, in-process alternating runs
/// (`examples/mimc_batch_compare.rs`, best of 11 rounds of 240, three runs, beside a CI
/// build): 2.00–2.01 µs per cipher, against 2.07–2.08 with squarings as products and
/// 2.73–2.75 on the hybrid lanes ([`encrypt_many_hybrid`]).
///
/// # Errors
/// [`MimcError::LengthMismatch`] when `xs` and `ks` differ in length (nothing is written).
pub fn encrypt_many_packed<F: MimcField>(
    max_lanes: usize,
    params: &MimcParams<F>,
    xs: &mut [F],
    ks: &[F],
) -> Result<(), MimcError> {
    encrypt_many_on_packings(max_lanes, false, params, xs, ks)
}

/// [`encrypt_many_packed`], and with `narrow_as_interleaved` [`MimcField::encrypt_many`]'s
/// default (see [`EncryptMany`]).
fn encrypt_many_on_packings<F: MimcField>(
    max_lanes: usize,
    narrow_as_interleaved: bool,
    params: &MimcParams<F>,
    xs: &mut [F],
    ks: &[F],
) -> Result<(), MimcError> {
    check_lengths(xs.len(), ks.len())?;
    let kernel = EncryptMany {
        params,
        xs,
        ks,
        narrow_as_interleaved,
    };
    F::run_packed_within(max_lanes, kernel);
    Ok(())
}

/// [`encrypt_many_packed`] as a kernel over packings.
struct EncryptMany<'a, F: PrimeField> {
    params: &'a MimcParams<F>,
    xs: &'a mut [F],
    ks: &'a [F],
    /// Whether a packing of at most [`SCALAR_LANES`] lanes runs the interleaved scalar kernel
    /// instead ([`MimcField::encrypt_many`]'s choice): it runs as many ciphers side by side,
    /// and for Goldilocks faster (Zen 4, 1,024 ciphers of x^7 with 23 rounds: 4 AVX2 lanes
    /// 141.7 µs, 4 interleaved scalar chains 121.7–127.3, 8 AVX-512 lanes 103.0).
    narrow_as_interleaved: bool,
}

impl<F: MimcField> PackedKernel<F> for EncryptMany<'_, F> {
    type Output = ();
    #[inline(always)]
    fn run<P: PackedField<Scalar = F>>(self, cpu: P::Cpu) {
        if P::WIDTH == 1 || (self.narrow_as_interleaved && P::WIDTH <= SCALAR_LANES) {
            encrypt_many_interleaved(self.params, self.xs, self.ks)
                .expect("the caller checked the lengths");
        } else {
            encrypt_many_packed_lanes::<F, P>(cpu, self.params, self.xs, self.ks);
        }
    }
}

/// `P::WIDTH` ciphers per step in the lanes of a packed type, the state kept in its form for all
/// rounds (converted in and out once per cipher); the remainder one at a time
/// ([`MimcField::encrypt_one`]). `xs` and `ks` have equal lengths. The caller should be
/// compiled with `P`'s instructions (as [`zkaccel_field::Field::run_packed`] does) so that
/// `P`'s operators inline.
#[inline(always)]
fn encrypt_many_packed_lanes<F: MimcField, P: PackedField<Scalar = F>>(
    cpu: P::Cpu,
    params: &MimcParams<F>,
    xs: &mut [F],
    ks: &[F],
) {
    debug_assert_eq!(xs.len(), ks.len());
    let d = params.exponent();
    let w = P::WIDTH;
    let mut constants = Vec::with_capacity(params.constants().len());
    for &c in params.constants() {
        constants.push(P::broadcast(cpu, c));
    }
    let mut cx = xs.chunks_exact_mut(w);
    let mut ck = ks.chunks_exact(w);
    for (x, k) in (&mut cx).zip(&mut ck) {
        let (mut px, pk) = (P::from_slice(cpu, x), P::from_slice(cpu, k));
        for &c in &constants {
            px = pow_sbox_packed(px + (pk + c), d);
        }
        (px + pk).write_to_slice(x);
    }
    for (x, &k) in cx.into_remainder().iter_mut().zip(ck.remainder()) {
        *x = F::encrypt_one(params, *x, k);
    }
}

/// `(ls[i], rs[i]) ← F_k(ls[i], rs[i])` for every `i` on the widest packing of `F` with at most
/// `max_lanes` lanes that the CPU offers ([`zkaccel_field::Field::run_packed_within`]),
/// `P::WIDTH` permutations per step, on the chain of the single-permutation path
/// ([`MimcField::permute_feistel`] on the 256-bit fields): only the S-box inputs are carried,
/// `u_{i+1} = u_i^d + (u_{i−1} + c_{i+1} − c_{i−1})` ([`MimcSponge::constant_steps`]), and the
/// halves are recovered after the last round. The remainder, and permutations of fewer than
/// two rounds, run one at a time ([`MimcField::permute_feistel`]).
///
/// [`MimcField::permute_feistel_many`] runs it on eight AVX-512 IFMA lanes for the 256-bit
/// fields where the CPU has them, and on the widest packing for the other fields. Measured on
/// a 2-core AMD EPYC (Zen 4), circomlib's MiMCSponge (x^5, 220 rounds), one thread,
/// in-process alternating runs (`examples/mimc_batch_compare.rs`, best of 11 rounds of 240,
/// three runs, beside a CI build): 3.90 µs per permutation on the IFMA lanes with the
/// squarings on their squaring kernel ([`pow_sbox_packed`]; 4.19–4.28 with squarings as
/// products), against 5.64–5.66 on the hybrid lanes and 12.1 one at a time.
///
/// # Errors
/// [`MimcError::LengthMismatch`] when `ls` and `rs` differ in length (nothing is written).
pub fn permute_feistel_many_packed<F: MimcField>(
    max_lanes: usize,
    sponge: &MimcSponge<F>,
    ls: &mut [F],
    rs: &mut [F],
    k: F,
) -> Result<(), MimcError> {
    check_lengths(ls.len(), rs.len())?;
    F::run_packed_within(max_lanes, FeistelMany { sponge, ls, rs, k });
    Ok(())
}

/// [`permute_feistel_many_packed`] as a kernel over packings.
struct FeistelMany<'a, F: PrimeField> {
    sponge: &'a MimcSponge<F>,
    ls: &'a mut [F],
    rs: &'a mut [F],
    k: F,
}

impl<F: MimcField> PackedKernel<F> for FeistelMany<'_, F> {
    type Output = ();
    #[inline(always)]
    fn run<P: PackedField<Scalar = F>>(self, cpu: P::Cpu) {
        if P::WIDTH == 1 {
            permute_feistel_each(self.sponge, self.ls, self.rs, self.k);
        } else {
            permute_feistel_many_packed_unchecked::<F, P>(
                cpu,
                self.sponge,
                self.ls,
                self.rs,
                self.k,
            );
        }
    }
}

/// [`permute_feistel_many_packed`]'s lanes for `ls` and `rs` of equal lengths. Inlined always,
/// so that a caller compiled with `P`'s features (the IFMA kernel) inlines `P`'s operators: as
/// a separate function it ran MiMCSponge batches 57 times slower.
#[inline(always)]
fn permute_feistel_many_packed_unchecked<F: MimcField, P: PackedField<Scalar = F>>(
    cpu: P::Cpu,
    sponge: &MimcSponge<F>,
    ls: &mut [F],
    rs: &mut [F],
    k: F,
) {
    debug_assert_eq!(ls.len(), rs.len());
    let n = ls.len();
    let params = sponge.params();
    let (d, c) = (params.exponent(), params.constants());
    let rounds = c.len();
    if rounds < 2 || n < P::WIDTH {
        return permute_feistel_each(sponge, ls, rs, k);
    }
    let mut steps = Vec::with_capacity(sponge.constant_steps().len());
    for &step in sponge.constant_steps() {
        steps.push(P::broadcast(cpu, step));
    }
    let first_key = P::broadcast(cpu, k + c[0]);
    let second_key = P::broadcast(cpu, k + c[1]);
    let last_key = P::broadcast(cpu, k + c[rounds - 1]);
    let key_before_last = P::broadcast(cpu, k + c[rounds - 2]);
    let mut cl = ls.chunks_exact_mut(P::WIDTH);
    let mut cr = rs.chunks_exact_mut(P::WIDTH);
    for (l, r) in (&mut cl).zip(&mut cr) {
        // `before` is u_{i−1} and `now` u_i at the top of round i (1 ≤ i ≤ R − 2).
        let mut before = P::from_slice(cpu, l) + first_key;
        let mut now = pow_sbox_packed(before, d) + (P::from_slice(cpu, r) + second_key);
        for &step in &steps {
            let ahead = before + step;
            before = now;
            now = pow_sbox_packed(now, d) + ahead;
        }
        // The last round keeps xL_{R−1} = u_{R−1} − k − c_{R−1} and adds u_{R−1}^d to
        // xR_{R−1} = xL_{R−2}.
        (now - last_key).write_to_slice(l);
        (before - key_before_last + pow_sbox_packed(now, d)).write_to_slice(r);
    }
    permute_feistel_each(sponge, cl.into_remainder(), cr.into_remainder(), k);
}

/// Four ciphers per step in AVX2 lanes (radix 2^29), on lazily reduced values
/// ([`zkaccel_fp256::LazyPackedFp256Avx2`]): each round adds the canonical `k + c_i` and runs
/// the S-box's schedule with the squarings on the squaring kernel and no final subtractions;
/// the state is reduced once per cipher. The remainder runs on [`encrypt_many_lazy`].
///
/// Measured on a 2-core AMD EPYC (Zen 3), µs per cipher: computing `k + c_i` inside the loop,
/// where the CPU overlaps it with the chain, 4.7 against 5.2 with all rounds' sums computed
/// first; two groups of AVX2 lanes advanced together (5.1), or one scalar lazy lane beside the
/// four AVX2 lanes (5.0), did not help.
///
/// # Safety
/// The CPU must support AVX2 (which `cpu`, a detected token, proves).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn encrypt_many_avx2_lanes<C: Fp256Config>(
    cpu: zkaccel_fp256::Avx2,
    params: &MimcParams<Fp256<C>>,
    xs: &mut [Fp256<C>],
    ks: &[Fp256<C>],
) {
    use zkaccel_field::PackedField as _;
    use zkaccel_fp256::{LazyPackedFp256Avx2, PackedFp256Avx2};
    const W: usize = 4;
    let d = params.exponent();
    if xs.len() < W {
        return encrypt_many_lazy(params, xs, ks).expect("the caller checked the lengths");
    }
    let constants = broadcast_constants(cpu, params);
    let mut cx = xs.chunks_exact_mut(W);
    let mut ck = ks.chunks_exact(W);
    for (x, k) in (&mut cx).zip(&mut ck) {
        let k = PackedFp256Avx2::from_slice(cpu, k);
        let mut state = LazyPackedFp256Avx2::new(PackedFp256Avx2::from_slice(cpu, x));
        for c in &constants {
            state = state.power_of_sum(k, c.get(), d);
        }
        (state.reduce() + k).write_to_slice(x);
    }
    encrypt_many_lazy(params, cx.into_remainder(), ck.remainder())
        .expect("the caller checked the lengths");
}

/// The round constants for the AVX2 lanes, each kept as one lane's limbs
/// ([`zkaccel_fp256::BroadcastFp256Avx2`], 72 bytes) and broadcast when used. Stored as full
/// four-lane values (288 bytes each, 26 KB for circomlib's 91 rounds) they filled most of the
/// 32 KB L1 data cache beside the state: measured on Zen 3, the hybrid kernel took 3.54–3.55
/// µs per cipher with the full table against 3.47–3.49 with this one.
/// Inlined, and a loop rather than an iterator's closure, so that the conversions compile
/// with the caller's AVX2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn broadcast_constants<C: Fp256Config>(
    cpu: zkaccel_fp256::Avx2,
    params: &MimcParams<Fp256<C>>,
) -> Vec<zkaccel_fp256::BroadcastFp256Avx2<C>> {
    let mut constants = Vec::with_capacity(params.constants().len());
    for &c in params.constants() {
        constants.push(zkaccel_fp256::BroadcastFp256Avx2::new(cpu, c));
    }
    constants
}

/// Six ciphers per step on [`zkaccel_fp256::LazyHybridFp256`] lanes: four in AVX2 registers
/// and two in general registers, each product and squaring of a round one kernel with both
/// instruction streams interleaved, so the integer multiplier works while the vector unit
/// does. Each group is one [`zkaccel_fp256::LazyHybridFp256::power_of_sum_rounds`]: `x + k +
/// c_i` unreduced into the S-box's schedule, added inside the previous round's last product,
/// the round constants kept compact ([`zkaccel_fp256::HybridBroadcast`], as
/// [`broadcast_constants`] for the AVX2 lanes); the state is reduced once per cipher. The
/// remainder runs on [`encrypt_many_avx2_lanes`].
///
/// # Safety
/// The CPU must support BMI2 and ADX besides AVX2 (the function is compiled for them; where
/// [`zkaccel_fp256::LazyHybridFp256::available`] holds, it does).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2,adx")]
unsafe fn encrypt_many_hybrid_lanes<C: Fp256Config>(
    cpu: zkaccel_fp256::Avx2,
    params: &MimcParams<Fp256<C>>,
    xs: &mut [Fp256<C>],
    ks: &[Fp256<C>],
) {
    use zkaccel_fp256::{HybridBroadcast, HybridCanonical, LazyHybridFp256};
    const W: usize = 6;
    let Some(schedule) = sbox_schedule(params.exponent()) else {
        return encrypt_many_lazy(params, xs, ks).expect("the caller checked the lengths");
    };
    // A plain loop, inlined, so that the conversions compile with this function's AVX2.
    let mut constants = Vec::with_capacity(params.constants().len());
    for &c in params.constants() {
        constants.push(HybridBroadcast::new(cpu, c));
    }
    let mut cx = xs.chunks_exact_mut(W);
    let mut ck = ks.chunks_exact(W);
    for (x, k) in (&mut cx).zip(&mut ck) {
        let x: &mut [Fp256<C>; W] = x.try_into().expect("chunks of six");
        let k: &[Fp256<C>; W] = k.try_into().expect("chunks of six");
        let Some(state) = LazyHybridFp256::from_elements(cpu, x) else {
            // Not reached (the caller checked that hybrid values can be built); were it, this
            // group would still be encrypted once, on the AVX2 lanes.
            // SAFETY: the caller runs on an AVX2 CPU.
            unsafe { encrypt_many_avx2_lanes(cpu, params, x, k) };
            continue;
        };
        let key = HybridCanonical::from_elements(cpu, k);
        *x = state.power_of_sum_rounds(&key, &constants, &schedule);
    }
    // SAFETY: the caller runs on an AVX2 CPU.
    unsafe { encrypt_many_avx2_lanes(cpu, params, cx.into_remainder(), ck.remainder()) };
}

/// Six Feistel permutations per step on [`zkaccel_fp256::LazyHybridFp256`] lanes (four AVX2,
/// two scalar, one interleaved kernel per product), the chain of [`permute_feistel_lazy`] on
/// each lane ([`zkaccel_fp256::LazyHybridFp256::feistel_chain`]): the S-box inputs
/// `u_{i+1} = u_i^d + (u_{i−1} + c_{i+1} − c_{i−1})`, the halves recovered at the end. The
/// steps are kept compact ([`zkaccel_fp256::HybridBroadcast`], as the MiMC-p/p constants of
/// [`encrypt_many_hybrid_lanes`]). The remainder, and permutations of fewer than two rounds,
/// run on the single-chain path.
///
/// # Safety
/// The CPU must support BMI2 and ADX besides AVX2 (the function is compiled for them; where
/// [`zkaccel_fp256::LazyHybridFp256::available`] holds, it does).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2,adx")]
unsafe fn permute_feistel_many_hybrid<C: Fp256Config>(
    cpu: zkaccel_fp256::Avx2,
    sponge: &MimcSponge<Fp256<C>>,
    ls: &mut [Fp256<C>],
    rs: &mut [Fp256<C>],
    k: Fp256<C>,
) {
    use zkaccel_fp256::{HybridBroadcast, LazyHybridFp256};
    const W: usize = 6;
    let params = sponge.params();
    let c = params.constants();
    let rounds = c.len();
    let schedule = sbox_schedule(params.exponent());
    let (Some(schedule), true) = (schedule, rounds >= 2 && ls.len() >= W) else {
        return permute_feistel_each(sponge, ls, rs, k);
    };
    // A plain loop, inlined, so that the conversions compile with this function's AVX2.
    let mut steps = Vec::with_capacity(sponge.constant_steps().len());
    for &step in sponge.constant_steps() {
        steps.push(HybridBroadcast::new(cpu, step));
    }
    let (first_key, second_key) = (k + c[0], k + c[1]);
    let (last_key, key_before_last) = (k + c[rounds - 1], k + c[rounds - 2]);
    let mut cl = ls.chunks_exact_mut(W);
    let mut cr = rs.chunks_exact_mut(W);
    for (l, r) in (&mut cl).zip(&mut cr) {
        let (mut u, mut v) = ([first_key; W], [second_key; W]);
        for i in 0..W {
            u[i] = l[i] + first_key;
            v[i] = r[i] + second_key;
        }
        let chain = match (
            LazyHybridFp256::from_elements(cpu, &u),
            LazyHybridFp256::from_elements(cpu, &v),
        ) {
            (Some(u), Some(v)) => LazyHybridFp256::feistel_chain(u, v, &steps, &schedule),
            _ => None,
        };
        let Some([last, before_last, power]) = chain else {
            // Not reached (the caller checked that hybrid values can be built, and every
            // exponent of at least 2 has a schedule ending in register 0); were it, this group
            // would still be permuted once, one pair at a time.
            permute_feistel_each(sponge, l, r, k);
            continue;
        };
        for i in 0..W {
            l[i] = last[i] - last_key;
            r[i] = before_last[i] - key_before_last + power[i];
        }
    }
    permute_feistel_each(sponge, cl.into_remainder(), cr.into_remainder(), k);
}
