//! Chains of power maps: the rounds of MiMC's ciphers as field kernels.
//!
//! MiMC-p/p's cipher is one chain `x ← (x + k + c_i)^d`, then `x + k` ([`MimcField::power_chain`]),
//! and
//! circomlib's MiMCSponge Feistel permutation is one chain on its S-box inputs
//! ([`MimcField::feistel_chain`]). Each is a serial chain of `R·(cost of x^d)` dependent
//! multiplications, so its speed is the field's multiplication latency, and many chains side by
//! side ([`MimcField::power_chains`], [`MimcField::feistel_chains`]) fill the multiplier's pipeline —
//! the software form of AMAZE's 13-deep pipeline.
//!
//! The chains are the hooks of [`MimcField`], a trait of this crate that the field crates
//! implement (as `p3-goldilocks` implements the kernel traits of Plonky3's hash crates). Its
//! defaults are written once here: a single chain with the field's own operations, and
//! batches on the widest packing the CPU offers ([`Field::run_packed`]), [`CHAIN_LANES`]
//! chains interleaved on the portable path. A field with a faster form of the chain (lazily
//! reduced 256-bit elements, a kernel that mixes vector and scalar lanes) overrides the hooks
//! in its own crate; any other field needs only `impl MimcField for MyField {}`.

use zkaccel_field::{Field, FieldError, Interleaved, PackedField, PackedKernel};
use zkaccel_symmetric::sbox::pow_sbox_packed;

/// Chains the portable batch kernels interleave ([`Interleaved`] lanes).
pub const CHAIN_LANES: usize = 4;

/// A [`Field`] with the chains of power maps MiMC's ciphers run (see the module's text). Every
/// method has a portable default.
pub trait MimcField: Field {
    /// `x ← (x + k + c)^d` for each `c` of `constants` in turn, then `x + k`: MiMC-p/p's
    /// `E_k(x)` with round constants `constants` and S-box `x^d`. One dependent chain; the
    /// default runs it with the field's own operations
    /// ([`power_chain_textbook`]).
    #[inline]
    fn power_chain(x: Self, k: Self, constants: &[Self], d: u64) -> Self {
        power_chain_textbook(x, k, constants, d)
    }

    /// `xs[i] ← power_chain(xs[i], ks[i], constants, d)` for every `i`, chains side by side.
    /// The default runs them on the widest packing the batch fills
    /// ([`power_chains_default`]).
    ///
    /// # Errors
    /// [`FieldError::UnequalLengths`] when `xs` and `ks` differ in length (nothing is written).
    fn power_chains(
        xs: &mut [Self],
        ks: &[Self],
        constants: &[Self],
        d: u64,
    ) -> Result<(), FieldError> {
        power_chains_default(xs, ks, constants, d)
    }

    /// The chain of a Feistel permutation on its S-box inputs (circomlib's MiMCSponge carries
    /// `u_i = xL_i + k + c_i` alone): `u_1 = u^d + v`, then `u_{i+1} = u_i^d + (u_{i−1} +
    /// steps[i − 1])` for each step; returns `(u_last, u_before_last + u_last^d)`. With `R ≥ 2`
    /// rounds, `u = xL + k + c_0`, `v = xR + k + c_1` and `steps[j] = c_{j+2} − c_j`, the
    /// permuted halves are the first output minus `k + c_{R−1}` and the second minus
    /// `k + c_{R−2}`. The default runs it with the field's own operations
    /// ([`feistel_chain_textbook`]).
    #[inline]
    fn feistel_chain(u: Self, v: Self, steps: &[Self], d: u64) -> (Self, Self) {
        feistel_chain_textbook(u, v, steps, d)
    }

    /// `(us[i], vs[i]) ← feistel_chain(us[i], vs[i], steps, d)` for every `i`, chains side by
    /// side. The default runs them on the widest packing the batch fills
    /// ([`feistel_chains_packed`]).
    ///
    /// # Errors
    /// [`FieldError::UnequalLengths`] when `us` and `vs` differ in length (nothing is written).
    fn feistel_chains(
        us: &mut [Self],
        vs: &mut [Self],
        steps: &[Self],
        d: u64,
    ) -> Result<(), FieldError> {
        feistel_chains_packed(us.len(), us, vs, steps, d)
    }
}

/// The error of two slices that must have equal lengths.
///
/// # Errors
/// [`FieldError::UnequalLengths`] when `left != right`.
pub fn check_equal_lengths(left: usize, right: usize) -> Result<(), FieldError> {
    if left == right {
        Ok(())
    } else {
        Err(FieldError::UnequalLengths { left, right })
    }
}

/// `x ← (x + k + c)^d` for each `c` of `constants` in turn, then `x + k` (MiMC-p/p's
/// `E_k(x)`), with the field's own operations: [`MimcField::power_chain`]'s default.
#[inline(always)]
pub fn power_chain_textbook<F: Field>(x: F, k: F, constants: &[F], d: u64) -> F {
    let mut x = x;
    // (k + c) does not depend on x, so only one addition sits on the chain.
    for &c in constants {
        x = pow_sbox_packed(x + (k + c), d);
    }
    x + k
}

/// The Feistel chain on S-box inputs with the field's own operations:
/// [`MimcField::feistel_chain`]'s default (see there).
#[inline(always)]
pub fn feistel_chain_textbook<F: Field>(u: F, v: F, steps: &[F], d: u64) -> (F, F) {
    feistel_chain_lanes(u, v, steps, d)
}

/// [`MimcField::feistel_chain`] on the lanes of a packing (steps already broadcast or scalar).
#[inline(always)]
fn feistel_chain_lanes<P: PackedField>(u: P, v: P, steps: &[P], d: u64) -> (P, P) {
    // `before` is u_{i−1} and `now` u_i at the top of round i.
    let (mut before, mut now) = (u, pow_sbox_packed(u, d) + v);
    for &step in steps {
        let ahead = before + step;
        before = now;
        now = pow_sbox_packed(now, d) + ahead;
    }
    (now, before + pow_sbox_packed(now, d))
}

/// `xs[i] ← power_chain(xs[i], ks[i])` on the widest packing of `F` with at most `max_lanes`
/// lanes that the CPU offers ([`Field::run_packed_within`]): `P::WIDTH` chains per step in the
/// packing's lanes, the state kept in its form for all rounds; the scalar packing runs
/// [`CHAIN_LANES`] chains interleaved. The remainder runs one chain at a time
/// ([`MimcField::power_chain`]). Every packing can be reached through `max_lanes`, for tests and
/// benchmarks.
///
/// # Errors
/// [`FieldError::UnequalLengths`] when `xs` and `ks` differ in length (nothing is written).
pub fn power_chains_packed<F: MimcField>(
    max_lanes: usize,
    xs: &mut [F],
    ks: &[F],
    constants: &[F],
    d: u64,
) -> Result<(), FieldError> {
    power_chains_on_packings(max_lanes, false, xs, ks, constants, d)
}

/// [`MimcField::power_chains`]'s default: [`power_chains_packed`] on the widest packing the batch
/// fills, except that packings of at most [`CHAIN_LANES`] lanes give way to the interleaved
/// scalar chains, which run as many chains side by side and, on Goldilocks, faster (Zen 4,
/// 1,024 chains of x^7 with 23 rounds: 4 AVX2 lanes 141.7 µs, 4 interleaved scalar chains
/// 121.7–127.3, 8 AVX-512 lanes 103.0).
///
/// # Errors
/// [`FieldError::UnequalLengths`] when `xs` and `ks` differ in length (nothing is written).
pub fn power_chains_default<F: MimcField>(
    xs: &mut [F],
    ks: &[F],
    constants: &[F],
    d: u64,
) -> Result<(), FieldError> {
    power_chains_on_packings(xs.len(), true, xs, ks, constants, d)
}

fn power_chains_on_packings<F: MimcField>(
    max_lanes: usize,
    narrow_as_interleaved: bool,
    xs: &mut [F],
    ks: &[F],
    constants: &[F],
    d: u64,
) -> Result<(), FieldError> {
    check_equal_lengths(xs.len(), ks.len())?;
    let kernel = PowerChains {
        xs,
        ks,
        constants,
        d,
        narrow_as_interleaved,
    };
    F::run_packed_within(max_lanes, kernel);
    Ok(())
}

/// [`power_chains_packed`] as a kernel over packings.
struct PowerChains<'a, F> {
    xs: &'a mut [F],
    ks: &'a [F],
    constants: &'a [F],
    d: u64,
    /// Whether a packing of at most [`CHAIN_LANES`] lanes runs the interleaved scalar chains.
    narrow_as_interleaved: bool,
}

impl<F: MimcField> PackedKernel<F> for PowerChains<'_, F> {
    type Output = ();
    #[inline(always)]
    fn run<P: PackedField<Scalar = F>>(self, cpu: P::Cpu) {
        if P::WIDTH == 1 || (self.narrow_as_interleaved && P::WIDTH <= CHAIN_LANES) {
            power_chains_lanes::<F, Interleaved<F, CHAIN_LANES>>(
                (),
                self.xs,
                self.ks,
                self.constants,
                self.d,
            );
        } else {
            power_chains_lanes::<F, P>(cpu, self.xs, self.ks, self.constants, self.d);
        }
    }
}

/// `P::WIDTH` chains per step in the lanes of `P`, converted in and out once per chain; the
/// remainder one at a time. `xs` and `ks` have equal lengths. Inlined always, so that a caller
/// compiled with `P`'s instructions (as [`Field::run_packed`] does) inlines `P`'s operators.
#[inline(always)]
fn power_chains_lanes<F: MimcField, P: PackedField<Scalar = F>>(
    cpu: P::Cpu,
    xs: &mut [F],
    ks: &[F],
    constants: &[F],
    d: u64,
) {
    debug_assert_eq!(xs.len(), ks.len());
    let w = P::WIDTH;
    // A plain loop, no iterator closure: a closure would not inherit the caller's features.
    let mut packed = Vec::with_capacity(constants.len());
    for &c in constants {
        packed.push(P::broadcast(cpu, c));
    }
    let mut cx = xs.chunks_exact_mut(w);
    let mut ck = ks.chunks_exact(w);
    for (x, k) in (&mut cx).zip(&mut ck) {
        let (mut px, pk) = (P::from_slice(cpu, x), P::from_slice(cpu, k));
        for &c in &packed {
            px = pow_sbox_packed(px + (pk + c), d);
        }
        (px + pk).write_to_slice(x);
    }
    for (x, &k) in cx.into_remainder().iter_mut().zip(ck.remainder()) {
        *x = F::power_chain(*x, k, constants, d);
    }
}

/// `(us[i], vs[i]) ← feistel_chain(us[i], vs[i])` on the widest packing of `F` with at most
/// `max_lanes` lanes that the CPU offers, `P::WIDTH` chains per step; the scalar packing, and
/// the remainder, one chain at a time ([`MimcField::feistel_chain`]). Every packing can be reached
/// through `max_lanes`, for tests and benchmarks; [`MimcField::feistel_chains`]' default is this
/// on the widest packing the batch fills.
///
/// # Errors
/// [`FieldError::UnequalLengths`] when `us` and `vs` differ in length (nothing is written).
pub fn feistel_chains_packed<F: MimcField>(
    max_lanes: usize,
    us: &mut [F],
    vs: &mut [F],
    steps: &[F],
    d: u64,
) -> Result<(), FieldError> {
    check_equal_lengths(us.len(), vs.len())?;
    F::run_packed_within(max_lanes, FeistelChains { us, vs, steps, d });
    Ok(())
}

/// [`feistel_chains_packed`] as a kernel over packings.
struct FeistelChains<'a, F> {
    us: &'a mut [F],
    vs: &'a mut [F],
    steps: &'a [F],
    d: u64,
}

impl<F: MimcField> PackedKernel<F> for FeistelChains<'_, F> {
    type Output = ();
    #[inline(always)]
    fn run<P: PackedField<Scalar = F>>(self, cpu: P::Cpu) {
        let Self { us, vs, steps, d } = self;
        if P::WIDTH == 1 {
            return feistel_chains_each(us, vs, steps, d);
        }
        let mut packed = Vec::with_capacity(steps.len());
        for &step in steps {
            packed.push(P::broadcast(cpu, step));
        }
        let mut cu = us.chunks_exact_mut(P::WIDTH);
        let mut cv = vs.chunks_exact_mut(P::WIDTH);
        for (u, v) in (&mut cu).zip(&mut cv) {
            let (pu, pv) = (P::from_slice(cpu, u), P::from_slice(cpu, v));
            let (last, second) = feistel_chain_lanes(pu, pv, &packed, d);
            last.write_to_slice(u);
            second.write_to_slice(v);
        }
        feistel_chains_each(cu.into_remainder(), cv.into_remainder(), steps, d);
    }
}

/// [`MimcField::feistel_chain`] on each pair in turn (`us` and `vs` of equal lengths).
#[inline(always)]
pub fn feistel_chains_each<F: MimcField>(us: &mut [F], vs: &mut [F], steps: &[F], d: u64) {
    for (u, v) in us.iter_mut().zip(vs.iter_mut()) {
        (*u, *v) = F::feistel_chain(*u, *v, steps, d);
    }
}
