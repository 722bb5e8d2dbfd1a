//! Radix-2 butterflies on runs of Goldilocks elements, for NTTs: with a twiddle per pair
//! (one stage of one transform) or one twiddle for the whole run (a batch of transforms, or a
//! four-step column pass), on AVX-512 (8 lanes) or AVX2 (4 lanes) when present.
//!
//! DIF (Gentleman–Sande): `lo, hi ← lo + hi, (lo − hi)·w`. DIT (Cooley–Tukey):
//! `lo, hi ← lo + hi·w, lo − hi·w`.

use crate::Goldilocks;
use zkaccel_field::Algebra;
use zkaccel_field::Field as _;
#[cfg(target_arch = "x86_64")]
use zkaccel_field::PackedField;
use zkaccel_ntt::WritePrefetch;

/// Where the twiddle of pair `j` comes from. The vector forms default to `at(j)` in every
/// lane, which is right for a twiddle shared by the whole run; a table of one per pair loads
/// its own.
trait Twiddle: Copy {
    /// Every twiddle is one: the butterflies are `(lo + hi, lo − hi)`, with no product.
    const UNIT: bool = false;
    fn at(self, j: usize) -> Goldilocks;
    /// The twiddles of pairs `j .. j + P::WIDTH`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn packed<P: PackedField<Scalar = Goldilocks>>(self, cpu: P::Cpu, j: usize) -> P {
        P::broadcast(cpu, self.at(j))
    }
}

impl Twiddle for &[Goldilocks] {
    #[inline(always)]
    fn at(self, j: usize) -> Goldilocks {
        self[j]
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn packed<P: PackedField<Scalar = Goldilocks>>(self, cpu: P::Cpu, j: usize) -> P {
        P::from_slice(cpu, &self[j..j + P::WIDTH])
    }
}

/// The twiddles of the pairs `j .. j + len` (`len < 8`) of an AVX-512 run's tail, zeros above
/// (by default `at(j)` in every lane, as for [`Twiddle::packed`]).
trait TailTwiddle: Twiddle {
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn prefix(
        self,
        cpu: crate::x86_64::Avx512,
        j: usize,
        _len: usize,
    ) -> crate::x86_64::PackedGoldilocksAvx512 {
        crate::x86_64::PackedGoldilocksAvx512::broadcast(cpu, self.at(j))
    }
}

impl TailTwiddle for &[Goldilocks] {
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn prefix(
        self,
        cpu: crate::x86_64::Avx512,
        j: usize,
        len: usize,
    ) -> crate::x86_64::PackedGoldilocksAvx512 {
        crate::x86_64::PackedGoldilocksAvx512::from_prefix(cpu, &self[j..j + len])
    }
}

/// One twiddle for every pair (broadcast once per call).
#[derive(Clone, Copy)]
struct Same(Goldilocks);

impl Twiddle for Same {
    #[inline(always)]
    fn at(self, _j: usize) -> Goldilocks {
        self.0
    }
}

impl TailTwiddle for Same {}

/// The twiddle one for every pair: no products at all.
#[derive(Clone, Copy)]
struct Unit;

impl Twiddle for Unit {
    const UNIT: bool = true;
    #[inline(always)]
    fn at(self, _j: usize) -> Goldilocks {
        Goldilocks::ONE
    }
}

impl TailTwiddle for Unit {}

#[inline(always)]
fn scalar<T: Twiddle, const DIF: bool>(
    lo: &mut [Goldilocks],
    hi: &mut [Goldilocks],
    tw: T,
    from: usize,
) {
    for j in from..lo.len() {
        (lo[j], hi[j]) = if T::UNIT {
            (lo[j] + hi[j], lo[j] - hi[j])
        } else {
            butterfly::<DIF>(lo[j], hi[j], tw.at(j))
        };
    }
}

/// One scalar butterfly: DIF `(x + y, (x − y)·w)`, DIT `(x + y·w, x − y·w)`.
#[inline(always)]
pub(crate) fn butterfly<const DIF: bool>(
    x: Goldilocks,
    y: Goldilocks,
    w: Goldilocks,
) -> (Goldilocks, Goldilocks) {
    if DIF {
        (x + y, (x - y) * w)
    } else {
        let t = y * w;
        (x + t, x - t)
    }
}

/// The butterflies `P::WIDTH` pairs at a time, up to the last whole vector; returns where the
/// tail starts.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn run_packed<P: PackedField<Scalar = Goldilocks>, T: Twiddle, const DIF: bool>(
    cpu: P::Cpu,
    lo: &mut [Goldilocks],
    hi: &mut [Goldilocks],
    tw: T,
) -> usize {
    let whole = lo.len() / P::WIDTH * P::WIDTH;
    for j in (0..whole).step_by(P::WIDTH) {
        let x = P::from_slice(cpu, &lo[j..j + P::WIDTH]);
        let y = P::from_slice(cpu, &hi[j..j + P::WIDTH]);
        let (a, b) = if T::UNIT {
            (x + y, x - y)
        } else if DIF {
            let w = tw.packed::<P>(cpu, j);
            (x + y, (x - y) * w)
        } else {
            let t = y * tw.packed::<P>(cpu, j);
            (x + t, x - t)
        };
        a.write_to_slice(&mut lo[j..j + P::WIDTH]);
        b.write_to_slice(&mut hi[j..j + P::WIDTH]);
    }
    whole
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn run_avx512<T: TailTwiddle, const DIF: bool>(
    cpu: crate::x86_64::Avx512,
    lo: &mut [Goldilocks],
    hi: &mut [Goldilocks],
    tw: T,
) {
    use crate::x86_64::PackedGoldilocksAvx512 as P;
    let j = run_packed::<P, T, DIF>(cpu, lo, hi, tw);
    let len = lo.len() - j;
    if len > 0 {
        // The tail in one masked vector (zeros in the unused lanes).
        let x = P::from_prefix(cpu, &lo[j..]);
        let y = P::from_prefix(cpu, &hi[j..]);
        let (a, b) = if T::UNIT {
            (x + y, x - y)
        } else if DIF {
            (x + y, (x - y) * tw.prefix(cpu, j, len))
        } else {
            let t = y * tw.prefix(cpu, j, len);
            (x + t, x - t)
        };
        a.write_prefix(&mut lo[j..]);
        b.write_prefix(&mut hi[j..]);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn run_avx2<T: Twiddle, const DIF: bool>(
    cpu: crate::x86_64::Avx2,
    lo: &mut [Goldilocks],
    hi: &mut [Goldilocks],
    tw: T,
) {
    let whole = run_packed::<crate::x86_64::PackedGoldilocksAvx2, T, DIF>(cpu, lo, hi, tw);
    scalar::<T, DIF>(lo, hi, tw, whole);
}

fn run<T: TailTwiddle, const DIF: bool>(lo: &mut [Goldilocks], hi: &mut [Goldilocks], tw: T) {
    #[cfg(target_arch = "x86_64")]
    run_on::<T, DIF>(crate::x86_64::Backend::Avx512, lo, hi, tw);
    #[cfg(not(target_arch = "x86_64"))]
    {
        assert_eq!(lo.len(), hi.len(), "runs of equal length");
        scalar::<T, DIF>(lo, hi, tw, 0)
    }
}

/// [`run`] on at most `backend`'s instruction set (a set the CPU lacks falls back to the next
/// narrower one).
#[cfg(target_arch = "x86_64")]
fn run_on<T: TailTwiddle, const DIF: bool>(
    backend: crate::x86_64::Backend,
    lo: &mut [Goldilocks],
    hi: &mut [Goldilocks],
    tw: T,
) {
    use crate::x86_64::Backend;
    assert_eq!(lo.len(), hi.len(), "runs of equal length");
    if lo.len() >= 8 {
        if backend == Backend::Avx512 {
            if let Some(cpu) = crate::x86_64::Avx512::detect() {
                // SAFETY: the token proves AVX-512F is present.
                return unsafe { run_avx512::<T, DIF>(cpu, lo, hi, tw) };
            }
        }
        if backend != Backend::Scalar {
            if let Some(cpu) = crate::x86_64::Avx2::detect() {
                // SAFETY: the token proves AVX2 is present.
                return unsafe { run_avx2::<T, DIF>(cpu, lo, hi, tw) };
            }
        }
    }
    scalar::<T, DIF>(lo, hi, tw, 0)
}

/// The twiddles of a run of butterflies, for [`butterflies_with`].
#[derive(Clone, Copy, Debug)]
pub enum RunTwiddles<'a> {
    /// `tw[j]` for pair `j` (at least as many as pairs).
    PerPair(&'a [Goldilocks]),
    /// One twiddle for every pair.
    Same(Goldilocks),
    /// The twiddle one for every pair ([`add_sub_runs`]).
    Unit,
}

/// The run butterflies ([`dif_butterflies`], [`dit_butterflies`], their `_same` forms and
/// [`add_sub_runs`]) on at most `backend`'s instruction set, so that tests and benches reach
/// the AVX2 and scalar paths on a CPU with AVX-512 too; a set the CPU lacks falls back to the
/// next narrower one.
///
/// # Panics
/// When the runs differ in length or a per-pair table is shorter.
#[cfg(target_arch = "x86_64")]
pub fn butterflies_with(
    backend: crate::x86_64::Backend,
    lo: &mut [Goldilocks],
    hi: &mut [Goldilocks],
    tw: RunTwiddles<'_>,
    dif: bool,
) {
    match (tw, dif) {
        (RunTwiddles::PerPair(t), _) => {
            assert!(t.len() >= lo.len(), "a twiddle per pair");
            if dif {
                run_on::<&[Goldilocks], true>(backend, lo, hi, t)
            } else {
                run_on::<&[Goldilocks], false>(backend, lo, hi, t)
            }
        }
        (RunTwiddles::Same(w), true) => run_on::<Same, true>(backend, lo, hi, Same(w)),
        (RunTwiddles::Same(w), false) => run_on::<Same, false>(backend, lo, hi, Same(w)),
        (RunTwiddles::Unit, _) => run_on::<Unit, true>(backend, lo, hi, Unit),
    }
}

/// DIF butterflies with twiddle `tw[j]` for pair `j`.
///
/// # Panics
/// When the runs differ in length or `tw` is shorter.
pub fn dif_butterflies(lo: &mut [Goldilocks], hi: &mut [Goldilocks], tw: &[Goldilocks]) {
    assert!(tw.len() >= lo.len(), "a twiddle per pair");
    run::<&[Goldilocks], true>(lo, hi, tw)
}

/// DIT butterflies with twiddle `tw[j]` for pair `j`.
///
/// # Panics
/// When the runs differ in length or `tw` is shorter.
pub fn dit_butterflies(lo: &mut [Goldilocks], hi: &mut [Goldilocks], tw: &[Goldilocks]) {
    assert!(tw.len() >= lo.len(), "a twiddle per pair");
    run::<&[Goldilocks], false>(lo, hi, tw)
}

/// DIF butterflies with the same twiddle `w` for every pair.
///
/// # Panics
/// When the runs differ in length.
pub fn dif_butterflies_same(lo: &mut [Goldilocks], hi: &mut [Goldilocks], w: Goldilocks) {
    run::<Same, true>(lo, hi, Same(w))
}

/// DIT butterflies with the same twiddle `w` for every pair.
///
/// # Panics
/// When the runs differ in length.
pub fn dit_butterflies_same(lo: &mut [Goldilocks], hi: &mut [Goldilocks], w: Goldilocks) {
    run::<Same, false>(lo, hi, Same(w))
}

/// The butterflies of twiddle one, `lo, hi ← lo + hi, lo − hi` (a stage's first pair, and
/// every pair of its last DIF or first DIT stage).
///
/// # Panics
/// When the runs differ in length.
pub fn add_sub_runs(lo: &mut [Goldilocks], hi: &mut [Goldilocks]) {
    run::<Unit, true>(lo, hi, Unit)
}

/// The twiddles of three radix-2 stages on eight runs (a radix-8 block): `[w1, w2₀, w2₁, w4₀,
/// w4₁, w4₂, w4₃]`, where the stage of half-size `h` pairs runs `m` and `m + h` with twiddle
/// `w_h[m mod h]`.
pub type ThreeStageTwiddles = [Goldilocks; 7];

/// One butterfly between points `a` and `b` of a block; `w = None` is the twiddle one.
#[inline(always)]
fn block_butterfly<V: Algebra, const DIF: bool>(v: &mut [V; 8], a: usize, b: usize, w: Option<V>) {
    let (x, y) = (v[a], v[b]);
    if DIF {
        let d = x - y;
        v[a] = x + y;
        v[b] = match w {
            Some(w) => d * w,
            None => d,
        };
    } else {
        let t = match w {
            Some(w) => y * w,
            None => y,
        };
        v[a] = x + t;
        v[b] = x - t;
    }
}

/// The stage of half-size `h ∈ {1, 2, 4}` of a radix-8 block; slot `i` of `w` holds pair
/// `m`'s twiddle at `h − 1 + m mod h`, and with `UNIT` the twiddle of `m mod h = 0` is one.
#[inline(always)]
fn block_stage<V: Algebra, const DIF: bool, const UNIT: bool>(
    v: &mut [V; 8],
    w: &[V; 7],
    h: usize,
) {
    for m in 0..8 {
        if m & h == 0 {
            let slot = m % h;
            let tw = if UNIT && slot == 0 {
                None
            } else {
                Some(w[h - 1 + slot])
            };
            block_butterfly::<V, DIF>(v, m, m + h, tw);
        }
    }
}

/// One radix-8 block on values `v` (eight points), in registers: DIT stages of half-sizes 1, 2,
/// 4 or DIF stages 4, 2, 1. With `UNIT`, the twiddles `w1`, `w2₀`, `w4₀` are one and their
/// products are skipped.
#[inline(always)]
fn radix8<V: Algebra, const DIF: bool, const UNIT: bool>(v: &mut [V; 8], w: &[V; 7]) {
    if DIF {
        block_stage::<V, DIF, UNIT>(v, w, 4);
        block_stage::<V, DIF, UNIT>(v, w, 2);
        block_stage::<V, DIF, UNIT>(v, w, 1);
    } else {
        block_stage::<V, DIF, UNIT>(v, w, 1);
        block_stage::<V, DIF, UNIT>(v, w, 2);
        block_stage::<V, DIF, UNIT>(v, w, 4);
    }
}

/// [`radix8`], with `SCALED` point `m` multiplied by `points[m]` before the block (DIF) or
/// after it (DIT): a four-step pass's twiddles on the row transform's first (DIF) or last
/// (DIT) pass, instead of a pass of their own.
#[inline(always)]
fn scaled_radix8<V: Algebra, const DIF: bool, const UNIT: bool, const SCALED: bool>(
    v: &mut [V; 8],
    w: &[V; 7],
    points: &[V; 8],
) {
    if SCALED && DIF {
        for (x, &p) in v.iter_mut().zip(points) {
            *x *= p;
        }
    }
    radix8::<V, DIF, UNIT>(v, w);
    if SCALED && !DIF {
        for (x, &p) in v.iter_mut().zip(points) {
            *x *= p;
        }
    }
}

/// Radix-8 blocks on element `from..` of eight runs, one element at a time.
#[inline(always)]
fn three_stages_scalar<T: Twiddle, const DIF: bool, const UNIT: bool, const SCALED: bool>(
    runs: &mut [&mut [Goldilocks]; 8],
    tw: &[T; 7],
    points: &[Goldilocks; 8],
    from: usize,
) {
    for j in from..runs[0].len() {
        let mut v: [Goldilocks; 8] = core::array::from_fn(|m| runs[m][j]);
        let w = [
            tw[0].at(j),
            tw[1].at(j),
            tw[2].at(j),
            tw[3].at(j),
            tw[4].at(j),
            tw[5].at(j),
            tw[6].at(j),
        ];
        scaled_radix8::<Goldilocks, DIF, UNIT, SCALED>(&mut v, &w, points);
        for (run, x) in runs.iter_mut().zip(v) {
            run[j] = x;
        }
    }
}

/// Radix-8 blocks `P::WIDTH` elements at a time, up to the last whole vector; returns where
/// the tail starts.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn three_stages_packed<
    P: PackedField<Scalar = Goldilocks>,
    T: Twiddle,
    const DIF: bool,
    const UNIT: bool,
    const SCALED: bool,
>(
    cpu: P::Cpu,
    runs: &mut [&mut [Goldilocks]; 8],
    tw: &[T; 7],
    points: &[Goldilocks; 8],
) -> usize {
    let whole = runs[0].len() / P::WIDTH * P::WIDTH;
    let points: [P; 8] = core::array::from_fn(|m| P::broadcast(cpu, points[m]));
    for j in (0..whole).step_by(P::WIDTH) {
        let mut v = [P::broadcast(cpu, Goldilocks::ZERO); 8];
        for (x, run) in v.iter_mut().zip(runs.iter()) {
            *x = P::from_slice(cpu, &run[j..j + P::WIDTH]);
        }
        let w = [
            tw[0].packed::<P>(cpu, j),
            tw[1].packed::<P>(cpu, j),
            tw[2].packed::<P>(cpu, j),
            tw[3].packed::<P>(cpu, j),
            tw[4].packed::<P>(cpu, j),
            tw[5].packed::<P>(cpu, j),
            tw[6].packed::<P>(cpu, j),
        ];
        scaled_radix8::<P, DIF, UNIT, SCALED>(&mut v, &w, &points);
        for (x, run) in v.iter().zip(runs.iter_mut()) {
            x.write_to_slice(&mut run[j..j + P::WIDTH]);
        }
    }
    whole
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn three_stages_avx512<T: TailTwiddle, const DIF: bool, const UNIT: bool, const SCALED: bool>(
    cpu: crate::x86_64::Avx512,
    runs: &mut [&mut [Goldilocks]; 8],
    tw: &[T; 7],
    points: &[Goldilocks; 8],
) {
    use crate::x86_64::PackedGoldilocksAvx512 as P;
    let j = three_stages_packed::<P, T, DIF, UNIT, SCALED>(cpu, runs, tw, points);
    let len = runs[0].len() - j;
    if len > 0 {
        // The tail in one masked vector per run (zeros in the unused lanes).
        let mut v: [P; 8] = core::array::from_fn(|m| P::from_prefix(cpu, &runs[m][j..]));
        let w: [P; 7] = core::array::from_fn(|i| tw[i].prefix(cpu, j, len));
        let points: [P; 8] = core::array::from_fn(|m| P::broadcast(cpu, points[m]));
        scaled_radix8::<P, DIF, UNIT, SCALED>(&mut v, &w, &points);
        for (x, run) in v.iter().zip(runs.iter_mut()) {
            x.write_prefix(&mut run[j..]);
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn three_stages_avx2<T: Twiddle, const DIF: bool, const UNIT: bool, const SCALED: bool>(
    cpu: crate::x86_64::Avx2,
    runs: &mut [&mut [Goldilocks]; 8],
    tw: &[T; 7],
    points: &[Goldilocks; 8],
) {
    use crate::x86_64::PackedGoldilocksAvx2 as P;
    let whole = three_stages_packed::<P, T, DIF, UNIT, SCALED>(cpu, runs, tw, points);
    three_stages_scalar::<T, DIF, UNIT, SCALED>(runs, tw, points, whole);
}

fn three_stages_on<T: TailTwiddle, const DIF: bool, const UNIT: bool, const SCALED: bool>(
    runs: &mut [&mut [Goldilocks]; 8],
    tw: &[T; 7],
    points: &[Goldilocks; 8],
) {
    let len = runs[0].len();
    assert!(runs.iter().all(|r| r.len() == len), "runs of equal length");
    #[cfg(target_arch = "x86_64")]
    if len >= 2 {
        // AVX-512 takes any run of two or more (its tail in masked vectors); AVX2 from four.
        if let Some(cpu) = crate::x86_64::Avx512::detect() {
            // SAFETY: the token proves AVX-512F is present.
            return unsafe { three_stages_avx512::<T, DIF, UNIT, SCALED>(cpu, runs, tw, points) };
        }
        if let Some(cpu) = crate::x86_64::Avx2::detect() {
            // SAFETY: the token proves AVX2 is present.
            return unsafe { three_stages_avx2::<T, DIF, UNIT, SCALED>(cpu, runs, tw, points) };
        }
    }
    three_stages_scalar::<T, DIF, UNIT, SCALED>(runs, tw, points, 0)
}

/// Runs at least this long take [`runs_layered`]'s path.
const LAYERED_MIN_RUN: usize = 32;

/// The twiddles of the three stages on eight runs: one per slot (`unit`: slots 0, 1 and 3
/// are one), or a table per slot with one per element.
#[derive(Clone, Copy)]
enum SlotTwiddles<'a> {
    Same(&'a ThreeStageTwiddles, bool),
    Table(&'a [&'a [Goldilocks]; 7]),
}

/// The three stages on eight runs on AVX-512, one stage at a time over chunks of the runs
/// that fit the level-1 cache together: each pair of runs then streams through its
/// butterflies (four vectors in flight), where a radix-8 block in registers is a chain three
/// stages deep. `false` (nothing done) without AVX-512F or for runs shorter than
/// [`LAYERED_MIN_RUN`].
fn runs_layered(
    runs: &mut [&mut [Goldilocks]; 8],
    tw: SlotTwiddles<'_>,
    dif: bool,
    points: Option<&[Goldilocks; 8]>,
    prefetch: &mut WritePrefetch<'_>,
) -> bool {
    let len = runs[0].len();
    assert!(runs.iter().all(|r| r.len() == len), "runs of equal length");
    #[cfg(target_arch = "x86_64")]
    if len >= LAYERED_MIN_RUN {
        if let Some(cpu) = crate::x86_64::Avx512::detect() {
            // SAFETY: the token proves AVX-512F is present.
            unsafe {
                if dif {
                    runs_layered_avx512::<true>(cpu, runs, tw, points, prefetch);
                } else {
                    runs_layered_avx512::<false>(cpu, runs, tw, points, prefetch);
                }
            }
            return true;
        }
    }
    let _ = (tw, dif, points, prefetch);
    false
}

/// [`runs_layered`] on AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn runs_layered_avx512<const DIF: bool>(
    cpu: crate::x86_64::Avx512,
    runs: &mut [&mut [Goldilocks]; 8],
    tw: SlotTwiddles<'_>,
    points: Option<&[Goldilocks; 8]>,
    prefetch: &mut WritePrefetch<'_>,
) {
    let len = runs[0].len();
    let chunk = LAYER_CHUNK_ELEMS / 8;
    for e0 in (0..len).step_by(chunk) {
        let e1 = (e0 + chunk).min(len);
        if DIF {
            scale_runs(cpu, runs, e0, e1, points);
        }
        for k in 0..3 {
            let s = if DIF { 2 - k } else { k };
            let half = 1usize << s;
            for m in (0..8).filter(|m| m & half == 0) {
                // As in `layered_blocks_avx512`.
                prefetch.step((e1 - e0).div_ceil(4 * 8));
                let slot = half - 1 + m % half;
                let (lo, hi) = runs.split_at_mut(m + half);
                let (a, b) = (&mut lo[m][e0..e1], &mut hi[0][e0..e1]);
                match tw {
                    SlotTwiddles::Same(w, unit) => {
                        let w = (!unit || m % half > 0).then_some(w[slot]);
                        butterflies_twiddled::<DIF>(cpu, a, b, w);
                    }
                    SlotTwiddles::Table(t) => {
                        butterflies_table::<DIF>(cpu, a, b, &t[slot][e0..e1]);
                    }
                }
            }
        }
        if !DIF {
            scale_runs(cpu, runs, e0, e1, points);
        }
    }
}

/// The point scales of an unscaled block (never read).
const NO_POINTS: [Goldilocks; 8] = [Goldilocks::ZERO; 8];

/// One twiddle per slot, the same for every element of the runs.
fn same_twiddles(w: &ThreeStageTwiddles) -> [Same; 7] {
    w.map(Same)
}

/// The slot twiddle tables, checked to cover the runs.
fn per_element_twiddles<'a>(
    runs: &[&mut [Goldilocks]; 8],
    tw: &[&'a [Goldilocks]; 7],
) -> [&'a [Goldilocks]; 7] {
    assert!(
        tw.iter().all(|t| t.len() >= runs[0].len()),
        "a twiddle per element in every slot"
    );
    *tw
}

/// Three DIT stages (half-sizes 1, 2, 4) across eight equal-length runs, elementwise: for
/// every `j`, the eight points `runs[0][j] … runs[7][j]` go through one radix-8 block with the
/// twiddles `w` (see [`ThreeStageTwiddles`]), kept in registers between the stages. `unit`
/// says that `w1`, `w2₀` and `w4₀` are one (their products are then skipped).
///
/// # Panics
/// When the runs differ in length.
pub fn dit_three_stages_same(
    runs: &mut [&mut [Goldilocks]; 8],
    w: &ThreeStageTwiddles,
    unit: bool,
    prefetch: &mut WritePrefetch<'_>,
) {
    if runs_layered(runs, SlotTwiddles::Same(w, unit), false, None, prefetch) {
        return;
    }
    if unit {
        three_stages_on::<_, false, true, false>(runs, &same_twiddles(w), &NO_POINTS)
    } else {
        three_stages_on::<_, false, false, false>(runs, &same_twiddles(w), &NO_POINTS)
    }
}

/// Three DIF stages (half-sizes 4, 2, 1) across eight equal-length runs, as
/// [`dit_three_stages_same`].
///
/// # Panics
/// When the runs differ in length.
pub fn dif_three_stages_same(
    runs: &mut [&mut [Goldilocks]; 8],
    w: &ThreeStageTwiddles,
    unit: bool,
    prefetch: &mut WritePrefetch<'_>,
) {
    if runs_layered(runs, SlotTwiddles::Same(w, unit), true, None, prefetch) {
        return;
    }
    if unit {
        three_stages_on::<_, true, true, false>(runs, &same_twiddles(w), &NO_POINTS)
    } else {
        three_stages_on::<_, true, false, false>(runs, &same_twiddles(w), &NO_POINTS)
    }
}

/// Three DIT stages across eight equal-length runs with a twiddle per element: as
/// [`dit_three_stages_same`], with slot `i`'s twiddle for element `j` at `tw[i][j]` (the
/// stages of one polynomial, whose runs are consecutive pieces of it).
///
/// # Panics
/// When the runs differ in length or a twiddle table is shorter than them.
pub fn dit_three_stages(runs: &mut [&mut [Goldilocks]; 8], tw: &[&[Goldilocks]; 7]) {
    let tw = per_element_twiddles(runs, tw);
    if runs_layered(
        runs,
        SlotTwiddles::Table(&tw),
        false,
        None,
        &mut WritePrefetch::none(),
    ) {
        return;
    }
    three_stages_on::<_, false, false, false>(runs, &tw, &NO_POINTS)
}

/// Three DIF stages across eight equal-length runs with a twiddle per element, as
/// [`dit_three_stages`].
///
/// # Panics
/// When the runs differ in length or a twiddle table is shorter than them.
pub fn dif_three_stages(runs: &mut [&mut [Goldilocks]; 8], tw: &[&[Goldilocks]; 7]) {
    let tw = per_element_twiddles(runs, tw);
    if runs_layered(
        runs,
        SlotTwiddles::Table(&tw),
        true,
        None,
        &mut WritePrefetch::none(),
    ) {
        return;
    }
    three_stages_on::<_, true, false, false>(runs, &tw, &NO_POINTS)
}

/// [`dif_three_stages_same`] with point `m` of every run first multiplied by `points[m]`: a
/// four-step row's twiddles on its first pass.
///
/// # Panics
/// When the runs differ in length.
pub fn dif_three_stages_scaled(
    runs: &mut [&mut [Goldilocks]; 8],
    w: &ThreeStageTwiddles,
    unit: bool,
    points: &[Goldilocks; 8],
    prefetch: &mut WritePrefetch<'_>,
) {
    if runs_layered(
        runs,
        SlotTwiddles::Same(w, unit),
        true,
        Some(points),
        prefetch,
    ) {
        return;
    }
    if unit {
        three_stages_on::<_, true, true, true>(runs, &same_twiddles(w), points)
    } else {
        three_stages_on::<_, true, false, true>(runs, &same_twiddles(w), points)
    }
}

/// [`dit_three_stages_same`] with point `m` of every run then multiplied by `points[m]`: a
/// four-step row's twiddles on its last pass.
///
/// # Panics
/// When the runs differ in length.
pub fn dit_three_stages_scaled(
    runs: &mut [&mut [Goldilocks]; 8],
    w: &ThreeStageTwiddles,
    unit: bool,
    points: &[Goldilocks; 8],
    prefetch: &mut WritePrefetch<'_>,
) {
    if runs_layered(
        runs,
        SlotTwiddles::Same(w, unit),
        false,
        Some(points),
        prefetch,
    ) {
        return;
    }
    if unit {
        three_stages_on::<_, false, true, true>(runs, &same_twiddles(w), points)
    } else {
        three_stages_on::<_, false, false, true>(runs, &same_twiddles(w), points)
    }
}

/// The radix-8 blocks of the three stages of half-sizes `h`, `2h`, `4h` over rows of `8h`
/// contiguous points of `width` elements (see `NttField::three_stages_block_row`): on
/// AVX-512 the layered kernel's three-stage case ([`stages_block_row`]); else block by block
/// through [`dif_three_stages_same`] and friends.
///
/// # Panics
/// When `data.len()` is not a multiple of `8h·width`, a stage table is shorter than its
/// stage, or `points` is given for more than one row or holds fewer than `8h` elements.
pub fn three_stages_block_row(
    data: &mut [Goldilocks],
    h: usize,
    width: usize,
    t: [&[Goldilocks]; 3],
    dif: bool,
    points: Option<&[Goldilocks]>,
    prefetch: &mut WritePrefetch<'_>,
) {
    assert!(
        h > 0 && width > 0 && data.len().is_multiple_of(8 * h * width),
        "rows of eight runs of h points"
    );
    assert!(
        t[0].len() >= h && t[1].len() >= 2 * h && t[2].len() >= 4 * h,
        "a twiddle per block and slot"
    );
    assert!(
        points.is_none_or(|p| p.len() >= 8 * h && data.len() == 8 * h * width),
        "a scale per point of one row"
    );
    // The layered kernel where there is one (AVX-512F), else block by block. Short DIF blocks
    // (`h < 4`) used to run as radix-8 blocks in registers; once the layered kernel took the
    // twiddles `±2^s` by shifts ([`crate::x86_64::PowerTwiddle`]: the short stages' roots
    // are all such powers), it ran the `2^16 × 135` forward transform 4–8 %
    // faster than they did on a Zen 4 EPYC.
    if !stages_block_row(data, h, width, &t, dif, points, prefetch) {
        zkaccel_ntt::butterflies::block_row_by_blocks(data, h, width, t, dif, points, prefetch);
    }
}

/// The most stages [`stages_block_row`] runs in one pass (radix-16 blocks).
pub const MAX_BLOCK_ROW_STAGES: usize = 4;

/// Elements that the layered kernels take through all their stages at a time: a level-1
/// data cache's worth (32 KiB).
const LAYER_CHUNK_ELEMS: usize = 4096;

/// The block length `h` from which [`stages_block_row`] walks chunks of one row's blocks
/// (below it, chunks of whole rows).
const LAYERED_MIN_H: usize = 4;

/// `stages` (1 to 4) radix-2 stages of half-sizes `h`, `2h`, … over rows of `2^stages·h`
/// contiguous points of `width` elements each (index-major): in every row, for every `j < h`,
/// the points `j + m·h` (`m < 2^stages`); the stage of half-size `2^s·h` pairs points `m` and
/// `m + 2^s` (bit `s` of `m` clear) with the twiddle `t[s][j + (m mod 2^s)·h]` (`t[s]` the
/// stage table of half-size `2^s·h`; for `j = 0` the pairs with `m mod 2^s = 0` take one),
/// DIT from `s = 0` up, DIF from the top down; with `points`, point `c` of the (single) row is
/// multiplied by `points[c]` before (DIF) or after (DIT) them. [`three_stages_block_row`] is
/// the three-stage case.
///
/// On AVX-512 the stages run one at a time over chunks that fit the level-1 cache (the
/// blocks of consecutive `j` in a row, whole rows where `h` is short, or segments of each
/// point where one block is wider than two chunks), so each stage's
/// butterflies are independent of one another and stream four vectors at a time. A radix-8
/// block held in registers is a chain three stages deep whose eight points and seven twiddles
/// crowd the registers: on a Zen 4 EPYC this kernel took 0.24 ns per element and stage where
/// the radix-8 blocks took 0.29–0.37 (eight-element points). A run's twiddle `±2^k` (every
/// twiddle of a stage of half-size up to 32) is applied by shifts
/// ([`crate::x86_64::PowerTwiddle`]), where the points are wider than one vector or share it
/// down a chunk's rows. Returns `false`, having done
/// nothing, where there is no such kernel (no AVX-512F, `width < 2`): the caller then runs the
/// stages its own way.
///
/// # Panics
/// When `t` has no stage or more than [`MAX_BLOCK_ROW_STAGES`], `h` or `width` is zero or
/// `2^stages·h·width` overflows, `data.len()` is not a multiple of it, a stage table is shorter than its stage, or `points` is given for
/// more than one row or holds fewer than `2^stages·h` elements.
pub fn stages_block_row(
    data: &mut [Goldilocks],
    h: usize,
    width: usize,
    t: &[&[Goldilocks]],
    dif: bool,
    points: Option<&[Goldilocks]>,
    prefetch: &mut WritePrefetch<'_>,
) -> bool {
    let stages = t.len();
    assert!(
        (1..=MAX_BLOCK_ROW_STAGES).contains(&stages),
        "one to four stages"
    );
    // Checked products: a row length that overflows is refused, not wrapped.
    let row_len = h
        .checked_mul(width)
        .and_then(|x| x.checked_mul(1 << stages))
        .filter(|&len| len > 0);
    assert!(
        row_len.is_some_and(|len| data.len().is_multiple_of(len)),
        "rows of 2^stages runs of h points"
    );
    assert!(
        t.iter().enumerate().all(|(s, ts)| ts.len() >= h << s),
        "a twiddle per block and slot"
    );
    assert!(
        points.is_none_or(|p| p.len() >= h << stages && Some(data.len()) == row_len),
        "a scale per point of one row"
    );
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = crate::x86_64::Avx512::detect().filter(|_| width >= 2) {
        // SAFETY: the token proves AVX-512F is present (every arm's call needs only that).
        unsafe {
            match (dif, h >= LAYERED_MIN_H || points.is_some()) {
                (true, true) => {
                    layered_blocks_avx512::<true>(cpu, data, h, width, t, points, prefetch)
                }
                (false, true) => {
                    layered_blocks_avx512::<false>(cpu, data, h, width, t, points, prefetch)
                }
                (true, false) => layered_rows_avx512::<true>(cpu, data, h, width, t),
                (false, false) => layered_rows_avx512::<false>(cpu, data, h, width, t),
            }
        }
        return true;
    }
    let _ = (t, dif, points, prefetch);
    false
}

/// The twiddle of the pair `(m, m + 2^s)` of block `j`, `None` where it is one.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn block_twiddle(
    t: &[&[Goldilocks]],
    s: usize,
    slot: usize,
    j: usize,
    h: usize,
) -> Option<Goldilocks> {
    (j > 0 || slot > 0).then(|| t[s][slot * h + j])
}

/// [`stages_block_row`] on AVX-512, one chunk of a row at a time: `c` consecutive blocks `j`
/// whole, or, where one block is wider than two level-1 chunks (a column group of a four-step
/// column pass), one block's points in segments of `LAYER_CHUNK_ELEMS / 2^stages` elements.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn layered_blocks_avx512<const DIF: bool>(
    cpu: crate::x86_64::Avx512,
    data: &mut [Goldilocks],
    h: usize,
    width: usize,
    t: &[&[Goldilocks]],
    points: Option<&[Goldilocks]>,
    prefetch: &mut WritePrefetch<'_>,
) {
    use crate::x86_64::PackedGoldilocksAvx512 as P;
    let stages = t.len();
    let r = 1usize << stages;
    // Segments `seg` elements of each point; `c` consecutive blocks (a power of two, so
    // chunks tile `h`), one where the points are segmented.
    let (seg, c) = if r * width > 2 * LAYER_CHUNK_ELEMS && width > P::WIDTH {
        ((LAYER_CHUNK_ELEMS / r).max(P::WIDTH), 1)
    } else {
        (
            width,
            1usize << (LAYER_CHUNK_ELEMS / (r * width)).clamp(1, h).ilog2(),
        )
    };
    for row in data.chunks_exact_mut(r * h * width) {
        for j0 in (0..h).step_by(c) {
            for e0 in (0..width).step_by(seg) {
                // Elements `e0 .. e0 + len` of points `j0 + m·h ..` (`c` of them, whole
                // where `c > 1`): contiguous runs of `c·len`.
                let len = seg.min(width - e0);
                let chunk = Chunk { j0, c, e0, len };
                if DIF {
                    scale_points(cpu, row, h, width, r, chunk, points);
                }
                for k in 0..stages {
                    let s = if DIF { stages - 1 - k } else { k };
                    let half = 1 << s;
                    for m in (0..r).filter(|m| m & half == 0) {
                        // A line of a region the caller writes next per four vectors'
                        // butterflies.
                        prefetch.step((c * len).div_ceil(4 * P::WIDTH));
                        let slot = m % half;
                        // Points `j0 + m·h ..` and `j0 + (m + half)·h ..`, `c ≤ half·h` apart.
                        let (lo_at, hi_at) = (
                            (j0 + m * h) * width + e0,
                            (j0 + (m + half) * h) * width + e0,
                        );
                        let (head, tail) = row.split_at_mut(hi_at);
                        let lo = &mut head[lo_at..lo_at + c * len];
                        let hi = &mut tail[..c * len];
                        if len == P::WIDTH {
                            let tw = &t[s][slot * h + j0..slot * h + j0 + c];
                            butterflies_per_vector::<DIF>(cpu, lo, hi, tw, j0 == 0 && slot == 0);
                        } else {
                            for (j, (a, b)) in lo
                                .chunks_exact_mut(len)
                                .zip(hi.chunks_exact_mut(len))
                                .enumerate()
                            {
                                let w = block_twiddle(t, s, slot, j0 + j, h);
                                butterflies_twiddled::<DIF>(cpu, a, b, w);
                            }
                        }
                    }
                }
                if !DIF {
                    scale_points(cpu, row, h, width, r, chunk, points);
                }
            }
        }
    }
}

/// The part of a row [`layered_blocks_avx512`] works on: elements `e0 .. e0 + len` of the
/// points of blocks `j0 .. j0 + c`.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Chunk {
    j0: usize,
    c: usize,
    e0: usize,
    len: usize,
}

/// [`stages_block_row`] on AVX-512 for short blocks (`h` below [`LAYERED_MIN_H`]), without
/// scales: chunks of whole rows at a time. A butterfly's twiddle depends only on its place in
/// the row, so each one runs down the chunk's rows with one twiddle (four rows at a time for
/// one-vector points).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn layered_rows_avx512<const DIF: bool>(
    cpu: crate::x86_64::Avx512,
    data: &mut [Goldilocks],
    h: usize,
    width: usize,
    t: &[&[Goldilocks]],
) {
    use crate::x86_64::{PackedGoldilocksAvx512 as P, PowerTwiddle};
    let stages = t.len();
    let r = 1usize << stages;
    let row_len = r * h * width;
    let rows_per_chunk = (LAYER_CHUNK_ELEMS / row_len).max(1);
    for chunk in data.chunks_mut(rows_per_chunk * row_len) {
        let rows = chunk.len() / row_len;
        for k in 0..stages {
            let s = if DIF { stages - 1 - k } else { k };
            let half = 1 << s;
            for m in (0..r).filter(|m| m & half == 0) {
                for j in 0..h {
                    let w = block_twiddle(t, s, m % half, j, h);
                    let (a_at, b_at) = ((j + m * h) * width, (j + (m + half) * h) * width);
                    let mut row = 0;
                    if width == P::WIDTH {
                        row = match w.map(|w| (w, PowerTwiddle::of(cpu, w))) {
                            None => {
                                rows_one_vector::<DIF, _>(cpu, chunk, row_len, a_at, b_at, Unit)
                            }
                            Some((_, Some(PowerTwiddle::Low(power)))) => {
                                rows_one_vector::<DIF, _>(cpu, chunk, row_len, a_at, b_at, power)
                            }
                            Some((_, Some(PowerTwiddle::High(power)))) => {
                                rows_one_vector::<DIF, _>(cpu, chunk, row_len, a_at, b_at, power)
                            }
                            Some((w, None)) => {
                                let w = P::broadcast(cpu, w);
                                rows_one_vector::<DIF, _>(cpu, chunk, row_len, a_at, b_at, w)
                            }
                        };
                    }
                    for row in row..rows {
                        let at = row * row_len;
                        let (head, tail) = chunk[at..at + row_len].split_at_mut(b_at);
                        butterflies_twiddled::<DIF>(
                            cpu,
                            &mut head[a_at..a_at + width],
                            &mut tail[..width],
                            w,
                        );
                    }
                }
            }
        }
    }
}

/// The AVX-512 vector the run kernels work on.
#[cfg(target_arch = "x86_64")]
type Packed = crate::x86_64::PackedGoldilocksAvx512;

/// How the butterflies of a run apply its one twiddle: [`Unit`] (no product), a
/// [`PackedPowerOfTwo`](crate::x86_64::PackedPowerOfTwo) (shifts), or a broadcast element (a
/// product). Generic kernels over it keep the choice out of their inner loops.
#[cfg(target_arch = "x86_64")]
trait VectorTwiddle: Copy {
    /// The DIF (`DIF`) or DIT butterfly of `x` and `y` with this twiddle.
    fn butterfly<const DIF: bool>(self, x: Packed, y: Packed) -> (Packed, Packed);
}

#[cfg(target_arch = "x86_64")]
impl VectorTwiddle for Unit {
    #[inline(always)]
    fn butterfly<const DIF: bool>(self, x: Packed, y: Packed) -> (Packed, Packed) {
        Packed::add_sub(x, y)
    }
}

#[cfg(target_arch = "x86_64")]
impl VectorTwiddle for Packed {
    #[inline(always)]
    fn butterfly<const DIF: bool>(self, x: Self, y: Self) -> (Self, Self) {
        if DIF {
            Self::dif_butterfly(x, y, self)
        } else {
            Self::dit_butterfly(x, y, self)
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl<const HIGH: bool> VectorTwiddle for crate::x86_64::PackedPowerOfTwo<HIGH> {
    #[inline(always)]
    fn butterfly<const DIF: bool>(self, x: Packed, y: Packed) -> (Packed, Packed) {
        if DIF {
            self.dif_butterfly(x, y)
        } else {
            self.dit_butterfly(x, y)
        }
    }
}

/// [`butterflies_same`] with the twiddle `w` (`None`: one) applied the cheapest way: by
/// shifts where it is `±2^s`, `s < 64`, else by products.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn butterflies_twiddled<const DIF: bool>(
    cpu: crate::x86_64::Avx512,
    a: &mut [Goldilocks],
    b: &mut [Goldilocks],
    w: Option<Goldilocks>,
) {
    use crate::x86_64::{PackedGoldilocksAvx512 as P, PowerTwiddle};
    match w {
        None => butterflies_same::<DIF, _>(cpu, a, b, Unit),
        Some(w) => match PowerTwiddle::of(cpu, w) {
            Some(PowerTwiddle::Low(power)) => butterflies_same::<DIF, _>(cpu, a, b, power),
            Some(PowerTwiddle::High(power)) => butterflies_same::<DIF, _>(cpu, a, b, power),
            None => butterflies_same::<DIF, _>(cpu, a, b, P::broadcast(cpu, w)),
        },
    }
}

/// The butterflies of one-vector points `a_at` and `b_at` of the rows of `chunk` (rows of
/// `row_len` elements), one twiddle for all, four rows at a time; returns the rows done (the
/// rest, fewer than four, are the caller's).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn rows_one_vector<const DIF: bool, K: VectorTwiddle>(
    cpu: crate::x86_64::Avx512,
    chunk: &mut [Goldilocks],
    row_len: usize,
    a_at: usize,
    b_at: usize,
    w: K,
) -> usize {
    use crate::x86_64::PackedGoldilocksAvx512 as P;
    const U: usize = 4;
    let rows = chunk.len() / row_len;
    let mut row = 0;
    while row + U <= rows {
        let zero = P::broadcast(cpu, Goldilocks::ZERO);
        let (mut x, mut y) = ([zero; U], [zero; U]);
        for u in 0..U {
            let (a, b) = ((row + u) * row_len + a_at, (row + u) * row_len + b_at);
            x[u] = P::from_slice(cpu, &chunk[a..a + P::WIDTH]);
            y[u] = P::from_slice(cpu, &chunk[b..b + P::WIDTH]);
        }
        for u in 0..U {
            let (a, b) = ((row + u) * row_len + a_at, (row + u) * row_len + b_at);
            let (p, q) = w.butterfly::<DIF>(x[u], y[u]);
            p.write_to_slice(&mut chunk[a..a + P::WIDTH]);
            q.write_to_slice(&mut chunk[b..b + P::WIDTH]);
        }
        row += U;
    }
    row
}

/// The butterflies of one-vector points (`lo[8j..8j + 8]` with `hi[8j..8j + 8]`, twiddle
/// `tw[j]`; with `unit_first`, the first twiddle is one), four at a time so that four
/// independent products are in flight. Plain loops, no closures: a closure would not inherit
/// the caller's target features, and the packed operations inside it would stop inlining.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn butterflies_per_vector<const DIF: bool>(
    cpu: crate::x86_64::Avx512,
    lo: &mut [Goldilocks],
    hi: &mut [Goldilocks],
    tw: &[Goldilocks],
    unit_first: bool,
) {
    use crate::x86_64::PackedGoldilocksAvx512 as P;
    const U: usize = 4;
    let (mut lo, mut hi, mut tw) = (lo, hi, tw);
    if unit_first && !tw.is_empty() {
        let (a, rest_lo) = lo.split_at_mut(P::WIDTH);
        let (b, rest_hi) = hi.split_at_mut(P::WIDTH);
        butterflies_same::<DIF, _>(cpu, a, b, Unit);
        (lo, hi, tw) = (rest_lo, rest_hi, &tw[1..]);
    }
    let zero = P::broadcast(cpu, Goldilocks::ZERO);
    let mut lo_c = lo.chunks_exact_mut(U * P::WIDTH);
    let mut hi_c = hi.chunks_exact_mut(U * P::WIDTH);
    let mut tw_c = tw.chunks_exact(U);
    for ((a, b), w) in (&mut lo_c).zip(&mut hi_c).zip(&mut tw_c) {
        let (mut x, mut y) = ([zero; U], [zero; U]);
        for u in 0..U {
            x[u] = P::from_slice(cpu, &a[u * P::WIDTH..(u + 1) * P::WIDTH]);
            y[u] = P::from_slice(cpu, &b[u * P::WIDTH..(u + 1) * P::WIDTH]);
        }
        for u in 0..U {
            let (p, q) = P::broadcast(cpu, w[u]).butterfly::<DIF>(x[u], y[u]);
            p.write_to_slice(&mut a[u * P::WIDTH..(u + 1) * P::WIDTH]);
            q.write_to_slice(&mut b[u * P::WIDTH..(u + 1) * P::WIDTH]);
        }
    }
    for ((a, b), &w) in lo_c
        .into_remainder()
        .chunks_exact_mut(P::WIDTH)
        .zip(hi_c.into_remainder().chunks_exact_mut(P::WIDTH))
        .zip(tw_c.remainder())
    {
        butterflies_twiddled::<DIF>(cpu, a, b, Some(w));
    }
}

/// `a[e] ← a[e]·c` for every element, the tail in a masked vector.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn scale_run(
    cpu: crate::x86_64::Avx512,
    a: &mut [Goldilocks],
    c: crate::x86_64::PackedGoldilocksAvx512,
) {
    use crate::x86_64::PackedGoldilocksAvx512 as P;
    let mut chunks = a.chunks_exact_mut(P::WIDTH);
    for v in &mut chunks {
        (P::from_slice(cpu, v) * c).write_to_slice(v);
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        (P::from_prefix(cpu, rest) * c).write_prefix(rest);
    }
}

/// The butterflies `(a[e], b[e])` with one twiddle `w`, four vectors at a time, the tail in a
/// masked vector. Plain loops, no closures (see [`butterflies_per_vector`]).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn butterflies_same<const DIF: bool, K: VectorTwiddle>(
    cpu: crate::x86_64::Avx512,
    a: &mut [Goldilocks],
    b: &mut [Goldilocks],
    w: K,
) {
    use crate::x86_64::PackedGoldilocksAvx512 as P;
    const U: usize = 4;
    let zero = P::broadcast(cpu, Goldilocks::ZERO);
    let mut a_c = a.chunks_exact_mut(U * P::WIDTH);
    let mut b_c = b.chunks_exact_mut(U * P::WIDTH);
    for (x, y) in (&mut a_c).zip(&mut b_c) {
        let (mut xs, mut ys) = ([zero; U], [zero; U]);
        for u in 0..U {
            xs[u] = P::from_slice(cpu, &x[u * P::WIDTH..(u + 1) * P::WIDTH]);
            ys[u] = P::from_slice(cpu, &y[u * P::WIDTH..(u + 1) * P::WIDTH]);
        }
        for u in 0..U {
            let (p, q) = w.butterfly::<DIF>(xs[u], ys[u]);
            p.write_to_slice(&mut x[u * P::WIDTH..(u + 1) * P::WIDTH]);
            q.write_to_slice(&mut y[u * P::WIDTH..(u + 1) * P::WIDTH]);
        }
    }
    let (x, y) = (a_c.into_remainder(), b_c.into_remainder());
    let mut x_c = x.chunks_exact_mut(P::WIDTH);
    let mut y_c = y.chunks_exact_mut(P::WIDTH);
    for (x, y) in (&mut x_c).zip(&mut y_c) {
        let (p, q) = w.butterfly::<DIF>(P::from_slice(cpu, x), P::from_slice(cpu, y));
        p.write_to_slice(x);
        q.write_to_slice(y);
    }
    let (x, y) = (x_c.into_remainder(), y_c.into_remainder());
    if !x.is_empty() {
        let (p, q) = w.butterfly::<DIF>(P::from_prefix(cpu, x), P::from_prefix(cpu, y));
        p.write_prefix(x);
        q.write_prefix(y);
    }
}

/// The butterflies `(a[e], b[e])` with twiddle `tw[e]`, four vectors at a time, the tail in
/// masked vectors. Plain loops, no closures (see [`butterflies_per_vector`]).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn butterflies_table<const DIF: bool>(
    cpu: crate::x86_64::Avx512,
    a: &mut [Goldilocks],
    b: &mut [Goldilocks],
    tw: &[Goldilocks],
) {
    use crate::x86_64::PackedGoldilocksAvx512 as P;
    const U: usize = 4;
    let zero = P::broadcast(cpu, Goldilocks::ZERO);
    let mut a_c = a.chunks_exact_mut(U * P::WIDTH);
    let mut b_c = b.chunks_exact_mut(U * P::WIDTH);
    let mut t_c = tw.chunks_exact(U * P::WIDTH);
    for ((x, y), t) in (&mut a_c).zip(&mut b_c).zip(&mut t_c) {
        let (mut xs, mut ys, mut ws) = ([zero; U], [zero; U], [zero; U]);
        for u in 0..U {
            xs[u] = P::from_slice(cpu, &x[u * P::WIDTH..(u + 1) * P::WIDTH]);
            ys[u] = P::from_slice(cpu, &y[u * P::WIDTH..(u + 1) * P::WIDTH]);
            ws[u] = P::from_slice(cpu, &t[u * P::WIDTH..(u + 1) * P::WIDTH]);
        }
        for u in 0..U {
            let (p, q) = ws[u].butterfly::<DIF>(xs[u], ys[u]);
            p.write_to_slice(&mut x[u * P::WIDTH..(u + 1) * P::WIDTH]);
            q.write_to_slice(&mut y[u * P::WIDTH..(u + 1) * P::WIDTH]);
        }
    }
    let (x, y, t) = (a_c.into_remainder(), b_c.into_remainder(), t_c.remainder());
    for ((x, y), t) in x
        .chunks_mut(P::WIDTH)
        .zip(y.chunks_mut(P::WIDTH))
        .zip(t.chunks(P::WIDTH))
    {
        let (p, q) =
            P::from_prefix(cpu, t).butterfly::<DIF>(P::from_prefix(cpu, x), P::from_prefix(cpu, y));
        p.write_prefix(x);
        q.write_prefix(y);
    }
}

/// The chunk's segments of points `j0 + m·h .. j0 + m·h + c` (`m < r`) of a row times their
/// `points` scales.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn scale_points(
    cpu: crate::x86_64::Avx512,
    row: &mut [Goldilocks],
    h: usize,
    width: usize,
    r: usize,
    chunk: Chunk,
    points: Option<&[Goldilocks]>,
) {
    use crate::x86_64::PackedGoldilocksAvx512 as P;
    let Some(p) = points else {
        return;
    };
    let Chunk { j0, c, e0, len } = chunk;
    for m in 0..r {
        let first = j0 + m * h;
        for (k, &scale) in (first..).zip(&p[first..first + c]) {
            let at = k * width + e0;
            scale_run(cpu, &mut row[at..at + len], P::broadcast(cpu, scale));
        }
    }
}

/// Elements `e0 .. e1` of run `m` times `points[m]`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn scale_runs(
    cpu: crate::x86_64::Avx512,
    runs: &mut [&mut [Goldilocks]; 8],
    e0: usize,
    e1: usize,
    points: Option<&[Goldilocks; 8]>,
) {
    use crate::x86_64::PackedGoldilocksAvx512 as P;
    let Some(p) = points else {
        return;
    };
    for (run, &c) in runs.iter_mut().zip(p) {
        scale_run(cpu, &mut run[e0..e1], P::broadcast(cpu, c));
    }
}
