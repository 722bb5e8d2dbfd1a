//! The butterfly passes: radix-2 decimation in frequency (Gentleman–Sande, natural order in,
//! bit-reversed out) and decimation in time (Cooley–Tukey, bit-reversed in, natural out), over
//! "points" that are each a run of `width` contiguous elements, `stride` elements apart.
//! Width 1 and stride 1 is one polynomial; width `m` and stride `m` is `m` polynomials stored
//! index-major (one row per evaluation point); stride > width is a group of columns of a
//! matrix (the four-step column pass). Every butterfly of a point pair uses one twiddle for
//! the whole run, which is what makes batches and column passes vectorise.

use crate::butterflies::{butterfly_runs, SHORT_RUN};
use crate::{NttField, WritePrefetch};

use crate::error::NttError;

/// Twiddles of every radix-2 stage up to size `2^log`: the stage of half-size `h` reads
/// `ω_{2h}^j`, `j < h`, at `table[h − 1 + j]` (contiguous per stage, `2^log − 1` in all).
#[derive(Debug, Clone)]
pub(crate) struct StageTables<F> {
    pub(crate) log: usize,
    pub(crate) table: Vec<F>,
}

impl<F: NttField> StageTables<F> {
    /// Tables for sizes up to `2^log` with the roots `ω` (forward) or `ω^{-1}` (inverse),
    /// `root(l)` being the generator of the order-`2^l` subgroup.
    pub(crate) fn new(
        log: usize,
        inverse: bool,
        root: impl Fn(usize) -> Result<F, NttError>,
    ) -> Result<Self, NttError> {
        let mut table = Vec::with_capacity((1usize << log).saturating_sub(1));
        for l in 1..=log {
            let mut w = root(l)?;
            if inverse {
                w = w.inverse();
            }
            let h = 1usize << (l - 1);
            let mut x = F::ONE;
            for _ in 0..h {
                table.push(x);
                x *= w;
            }
        }
        Ok(Self { log, table })
    }
}

impl<F: Copy> StageTables<F> {
    fn stage(&self, h: usize) -> &[F] {
        &self.table[h - 1..2 * h - 1]
    }

    /// The seven twiddles of the radix-8 block at offset `j` of the three stages of
    /// half-sizes `h`, `2h`, `4h` (the layout `three_stages_same` takes).
    fn radix8(&self, h: usize, j: usize) -> [F; 7] {
        let (t1, t2, t4) = (self.stage(h), self.stage(2 * h), self.stage(4 * h));
        [
            t1[j],
            t2[j],
            t2[j + h],
            t4[j],
            t4[j + h],
            t4[j + 2 * h],
            t4[j + 3 * h],
        ]
    }
}

/// The stage of half-size `h` on contiguous points (`stride == width`).
fn stage_contiguous<F: NttField>(data: &mut [F], h: usize, width: usize, tw: &[F], dif: bool) {
    for block in data.chunks_exact_mut(2 * h * width) {
        let (lo, hi) = block.split_at_mut(h * width);
        if width == 1 && h >= SHORT_RUN {
            // One polynomial: a twiddle per pair, contiguous — the SIMD case.
            if dif {
                F::dif_butterflies(lo, hi, tw);
            } else {
                F::dit_butterflies(lo, hi, tw);
            }
            continue;
        }
        for (j, (a, b)) in lo
            .chunks_exact_mut(width)
            .zip(hi.chunks_exact_mut(width))
            .enumerate()
        {
            butterfly_runs(a, b, tw[j], j == 0, dif);
        }
    }
}

/// A raw pointer that may cross threads; users guarantee that concurrent tasks touch
/// disjoint elements.
#[derive(Clone, Copy)]
pub(crate) struct SharedPtr<F>(pub(crate) *mut F);
// SAFETY: only used to hand disjoint regions of one buffer to rayon tasks (see callers).
unsafe impl<F: Send> Send for SharedPtr<F> {}
// SAFETY: as above; the pointer itself is never dereferenced concurrently for one element.
unsafe impl<F: Sync> Sync for SharedPtr<F> {}

impl<F> SharedPtr<F> {
    /// The pointer (a method, so closures capture the whole `Send` wrapper, not the field).
    #[inline(always)]
    pub(crate) fn get(self) -> *mut F {
        self.0
    }
}

/// A radix-2 transform of `2^log_n` points in place: DIF (natural → bit-reversed) or DIT
/// (bit-reversed → natural).
///
/// # Safety
/// For every `i < 2^log_n`, `data.add(i·stride) .. data.add(i·stride + width)` must be valid
/// for reads and writes, `width ≤ stride`, and no other thread may access those elements
/// during the call.
pub(crate) unsafe fn radix2<F: NttField>(
    data: *mut F,
    log_n: usize,
    width: usize,
    stride: usize,
    tables: &StageTables<F>,
    dif: bool,
) {
    debug_assert!(log_n <= tables.log && width <= stride);
    let n = 1usize << log_n;
    if n == 1 {
        return;
    }
    if width == 1 && stride == 1 && log_n >= 3 {
        // SAFETY: the points are `n` contiguous elements that this call owns exclusively
        // (caller's contract).
        let slice = unsafe { core::slice::from_raw_parts_mut(data, n) };
        // One polynomial: a twiddle per pair (SIMD over pairs); the three stages whose
        // pairs lie within blocks of eight run together as 8-point blocks (transposed SIMD
        // where the field has it).
        if dif {
            let last = small_block_stages::<F>(log_n);
            let mut s = 0;
            while s < log_n - last {
                if log_n - last - s >= 3 && n >> (s + 3) >= SHORT_RUN {
                    three_stages_contiguous(slice, n >> (s + 3), tables, true);
                    s += 3;
                } else {
                    let h = n >> (s + 1);
                    stage_contiguous(slice, h, 1, tables.stage(h), true);
                    s += 1;
                }
            }
            if last == 4 {
                F::dif_last_four_stages(slice, tables.stage(8), tables.stage(4), tables.stage(2));
            } else {
                F::dif_last_three_stages(slice, tables.stage(4), tables.stage(2));
            }
        } else {
            dit_from_stage(slice, 0, tables);
        }
        return;
    }
    // Wide points (an index-major batch, a group of matrix columns): three stages per pass
    // over the data (radix-8 blocks of runs), single stages for the rest.
    // SAFETY: forwarded contract.
    unsafe {
        wide_stages(
            data,
            log_n,
            0,
            width,
            stride,
            tables,
            dif,
            None,
            &mut WritePrefetch::none(),
        )
    };
}

/// A [`radix2`] of wide points whose point `c` is multiplied by `points[c]` before the
/// transform (DIF) or after it (DIT), on the first (DIF) or last (DIT) radix-8 pass rather
/// than in a pass of its own: a four-step row's twiddles. Returns `false`, having done
/// nothing, for fewer than 8 points (no radix-8 pass).
///
/// # Safety
/// As [`radix2`], and `points` holds at least `2^log_n` elements.
pub(crate) unsafe fn radix2_wide_scaled<F: NttField>(
    data: *mut F,
    log_n: usize,
    width: usize,
    stride: usize,
    tables: &StageTables<F>,
    dif: bool,
    points: &[F],
) -> bool {
    debug_assert!(log_n <= tables.log && width <= stride && points.len() >= 1 << log_n);
    if log_n < 3 {
        return false;
    }
    // SAFETY: forwarded contract; the scaled pass is the first (DIF) or last (DIT) and a
    // radix-8 one, as checked above.
    unsafe {
        wide_stages(
            data,
            log_n,
            0,
            width,
            stride,
            tables,
            dif,
            Some(points),
            &mut WritePrefetch::none(),
        )
    };
    true
}

/// The DIT stages `first .. log_n` of `2^log_n` contiguous wide points (the stages below
/// `first` already done), with point `c` then multiplied by `points[c]` on the last radix-8
/// pass when `points` is given. Returns whether the points were scaled: `false` when
/// `points` is `None` or fewer than three stages run (then the caller scales them).
///
/// # Safety
/// As [`radix2`] with `stride = width`, and `points` holds at least `2^log_n` elements.
pub(crate) unsafe fn wide_stages_from<F: NttField>(
    data: *mut F,
    log_n: usize,
    first: usize,
    width: usize,
    tables: &StageTables<F>,
    points: Option<&[F]>,
    prefetch: &mut WritePrefetch<'_>,
) -> bool {
    let scaled = points.filter(|_| log_n >= first + 3);
    // SAFETY: forwarded contract; with `scaled`, the last pass is a radix-8 one.
    unsafe {
        wide_stages(
            data, log_n, first, width, width, tables, false, scaled, prefetch,
        )
    };
    scaled.is_some()
}

/// Stages `first ..` of [`radix2`]'s wide path (points that are runs), in the passes
/// [`pass_sizes`] gives. With `points`, the pass of stages `0..3` (DIF, `first = 0`) or
/// `log_n − 3 .. log_n` (DIT) scales point `c` by `points[c]` before (DIF) or after (DIT) its
/// butterflies; callers give `points` only where three or more stages run.
///
/// # Safety
/// As [`radix2`].
#[allow(clippy::too_many_arguments)] // the transform's options and the row's scales
unsafe fn wide_stages<F: NttField>(
    data: *mut F,
    log_n: usize,
    first: usize,
    width: usize,
    stride: usize,
    tables: &StageTables<F>,
    dif: bool,
    points: Option<&[F]>,
    prefetch: &mut WritePrefetch<'_>,
) {
    let n = 1usize << log_n;
    let mut s = first;
    for stages in pass_sizes(log_n - first, dif, points.is_some()) {
        let h = if dif { n >> (s + stages) } else { 1 << s };
        // SAFETY: forwarded contract; `h·2^stages ≤ n` by construction.
        unsafe {
            if stages == 3 {
                // The scaled pass covers all `n` points as one block row (`8h = n`).
                let scaled = points.filter(|_| 8 * h == n);
                three_stages_of_runs(data, n, h, width, stride, tables, dif, scaled, prefetch);
            } else if stages == 4 {
                four_stages_of_runs(data, n, h, width, stride, tables, dif, prefetch);
            } else if stages == 2 {
                two_stages_of_runs(data, n, h, width, stride, tables, dif, prefetch);
            } else {
                stage_of_runs(data, n, h, width, stride, tables.stage(h), dif, prefetch);
            }
        }
        s += stages;
    }
}

/// The stage of half-size `h` over `n` points of runs.
///
/// # Safety
/// As [`radix2`], with `2h ≤ n`.
#[allow(clippy::too_many_arguments)] // the transform's options and the region written next
unsafe fn stage_of_runs<F: NttField>(
    data: *mut F,
    n: usize,
    h: usize,
    width: usize,
    stride: usize,
    tw: &[F],
    dif: bool,
    prefetch: &mut WritePrefetch<'_>,
) {
    // SAFETY: forwarded contract.
    if unsafe { block_row_kernel(data, n, h, width, stride, &[tw], dif, prefetch) } {
        return;
    }
    for start in (0..n).step_by(2 * h) {
        for (j, &w) in tw.iter().enumerate() {
            // SAFETY: points `start + j` and `start + j + h` are distinct points below
            // `n`, whose runs are valid and exclusively ours (caller's contract); runs of
            // distinct points do not overlap because `width ≤ stride`.
            let (a, b) = unsafe {
                (
                    core::slice::from_raw_parts_mut(data.add((start + j) * stride), width),
                    core::slice::from_raw_parts_mut(data.add((start + j + h) * stride), width),
                )
            };
            butterfly_runs(a, b, w, j == 0, dif);
        }
    }
}

/// The stage counts of the passes over `stages` stages of wide points, in the order they
/// run: three per pass, the remainder as one pass of two or as one of four (a radix-8 pass
/// and a single stage on run chunks still in L1), placed last in DIF and first in DIT, so
/// that the first DIF pass and the last DIT pass are radix-8 ones wherever three or more
/// stages run — where `scaled` needs them (a remainder of one with exactly four stages then
/// runs as its own single-stage pass).
pub(crate) fn pass_sizes(stages: usize, dif: bool, scaled: bool) -> Vec<usize> {
    let mut sizes = vec![3; stages / 3];
    match stages % 3 {
        0 => {}
        1 if stages == 1 || (scaled && stages == 4) => sizes.push(1),
        1 => {
            sizes.pop();
            sizes.push(4);
        }
        r => sizes.push(r),
    }
    if !dif {
        sizes.reverse();
    }
    sizes
}

/// The four stages of half-sizes `h` … `8h` over `n` points of runs as radix-16 blocks, run
/// chunk by run chunk so that a chunk stays in L1 across them: DIF the stage of half-size
/// `8h`, then the radix-8 blocks of each half; DIT the reverse. One pass over the data.
///
/// # Safety
/// As [`radix2`], with `16h ≤ n`.
#[allow(clippy::too_many_arguments)] // the transform's options and the region written next
unsafe fn four_stages_of_runs<F: NttField>(
    data: *mut F,
    n: usize,
    h: usize,
    width: usize,
    stride: usize,
    tables: &StageTables<F>,
    dif: bool,
    prefetch: &mut WritePrefetch<'_>,
) {
    let t = [
        tables.stage(h),
        tables.stage(2 * h),
        tables.stage(4 * h),
        tables.stage(8 * h),
    ];
    // SAFETY: forwarded contract.
    if unsafe { block_row_kernel(data, n, h, width, stride, &t, dif, prefetch) } {
        return;
    }
    let chunk = (RUN_CHUNK_BYTES / core::mem::size_of::<F>()).max(SHORT_RUN);
    let t8 = t[3];
    for start in (0..n).step_by(16 * h) {
        for j in 0..h {
            let w = tables.radix8(h, j);
            let base = start + j;
            for c in (0..width).step_by(chunk) {
                let len = chunk.min(width - c);
                // SAFETY: points `base + m·h`, `m < 16`, are distinct points below `n`
                // (`start + 16h ≤ n`) and `c + len ≤ width`; this iteration holds the only
                // references to their chunks.
                let (mut lo, mut hi) = unsafe {
                    (
                        block_run_chunks::<F, 8>(data, base, h, stride, c, len),
                        block_run_chunks::<F, 8>(data, base + 8 * h, h, stride, c, len),
                    )
                };
                // The stage of half-size 8h pairs point m with m + 8 (twiddle index j + m·h).
                let wide_stage = |lo: &mut [&mut [F]; 8], hi: &mut [&mut [F]; 8]| {
                    for (m, (a, b)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
                        butterfly_runs(a, b, t8[j + m * h], j == 0 && m == 0, dif);
                    }
                };
                if dif {
                    wide_stage(&mut lo, &mut hi);
                }
                F::three_stages_same(&mut lo, &w, j == 0, dif, prefetch);
                F::three_stages_same(&mut hi, &w, j == 0, dif, prefetch);
                if !dif {
                    wide_stage(&mut lo, &mut hi);
                }
            }
        }
    }
}

/// The two stages of half-sizes `h` and `2h` over `n` points of runs as radix-4 blocks (DIF
/// from `2h` down, DIT from `h` up), each block run chunk by run chunk so that a chunk stays
/// in L1 between its two stages: one pass over the data for both.
///
/// # Safety
/// As [`radix2`], with `4h ≤ n`.
#[allow(clippy::too_many_arguments)] // the transform's options and the region written next
unsafe fn two_stages_of_runs<F: NttField>(
    data: *mut F,
    n: usize,
    h: usize,
    width: usize,
    stride: usize,
    tables: &StageTables<F>,
    dif: bool,
    prefetch: &mut WritePrefetch<'_>,
) {
    let (t1, t2) = (tables.stage(h), tables.stage(2 * h));
    // SAFETY: forwarded contract.
    if unsafe { block_row_kernel(data, n, h, width, stride, &[t1, t2], dif, prefetch) } {
        return;
    }
    let chunk = (RUN_CHUNK_BYTES / core::mem::size_of::<F>()).max(SHORT_RUN);
    for start in (0..n).step_by(4 * h) {
        for j in 0..h {
            let base = start + j;
            for c in (0..width).step_by(chunk) {
                let len = chunk.min(width - c);
                // SAFETY: points `base + m·h`, `m < 4`, are distinct points below `n`
                // (`start + 4h ≤ n`) and `c + len ≤ width`; this iteration holds the only
                // references to their chunks.
                let [a, b, x, y] =
                    unsafe { block_run_chunks::<F, 4>(data, base, h, stride, c, len) };
                // Stage 2h pairs points 0–2 and 1–3, stage h pairs 0–1 and 2–3.
                if dif {
                    butterfly_runs(a, x, t2[j], j == 0, true);
                    butterfly_runs(b, y, t2[j + h], false, true);
                    butterfly_runs(a, b, t1[j], j == 0, true);
                    butterfly_runs(x, y, t1[j], j == 0, true);
                } else {
                    butterfly_runs(a, b, t1[j], j == 0, false);
                    butterfly_runs(x, y, t1[j], j == 0, false);
                    butterfly_runs(a, x, t2[j], j == 0, false);
                    butterfly_runs(b, y, t2[j + h], false, false);
                }
            }
        }
    }
}

/// The `t.len()` stages of half-sizes `h`, `2h`, … over `n` contiguous points (`width =
/// stride`) through the field's block-row kernel ([`NttField::stages_block_row`]), where
/// it has one; `false` (nothing done) otherwise, and for points that are not contiguous.
///
/// # Safety
/// As [`radix2`], with `2^t.len()·h ≤ n`.
#[allow(clippy::too_many_arguments)] // the transform's options and the region written next
unsafe fn block_row_kernel<F: NttField>(
    data: *mut F,
    n: usize,
    h: usize,
    width: usize,
    stride: usize,
    t: &[&[F]],
    dif: bool,
    prefetch: &mut WritePrefetch<'_>,
) -> bool {
    if width != stride {
        return false;
    }
    // SAFETY: the `n` points are contiguous (`width = stride`), valid and exclusively ours
    // (caller's contract).
    let rows = unsafe { core::slice::from_raw_parts_mut(data, n * width) };
    F::stages_block_row(rows, h, width, t, dif, prefetch)
}

/// The run chunks `c .. c + len` of the `N` points `base + m·h` (`m < N`) of a block, as
/// `N` slices.
///
/// # Safety
/// The points `base + m·h` are distinct (`h ≥ 1`), valid for the caller's lifetime `'a` and
/// exclusively its own; `c + len ≤ width ≤ stride`, so each chunk lies inside its point's
/// run and distinct points' runs do not overlap, which makes the slices disjoint; and no
/// other reference to these chunks is alive while the slices are.
unsafe fn block_run_chunks<'a, F, const N: usize>(
    data: *mut F,
    base: usize,
    h: usize,
    stride: usize,
    c: usize,
    len: usize,
) -> [&'a mut [F]; N] {
    core::array::from_fn(|m| {
        // SAFETY: the caller's contract above.
        unsafe { core::slice::from_raw_parts_mut(data.add((base + m * h) * stride + c), len) }
    })
}

/// Bytes of each run a radix-8 block processes at a time (eight of them stay in L1).
const RUN_CHUNK_BYTES: usize = 512;

/// A DIF [`radix2`] of `2^log_n ≥ 8` wide points (runs of `width` elements, `stride` apart)
/// that refuses inputs `accept` rejects without a pass of its own: its first three stages
/// call `accept` on each radix-8 block's eight run chunks just before their butterflies,
/// while the block's loads are still in flight. On a refusal it stops, puts back the blocks
/// it had transformed (the same blocks' DIT with `undo`'s tables, which hold the inverse
/// twiddles, scaled by `1/8`, then `finish`ed) and returns `false`, every point equal as a
/// field element to what it was.
///
/// # Safety
/// As [`radix2`], and `undo` covers the same sizes as `tables`.
#[allow(clippy::too_many_arguments)] // a transform's options and its check
pub(crate) unsafe fn radix2_dif_wide_checked<F: NttField>(
    data: *mut F,
    log_n: usize,
    width: usize,
    stride: usize,
    tables: &StageTables<F>,
    undo: &StageTables<F>,
    accept: fn(&[F]) -> bool,
    finish: Option<fn(&mut [F])>,
) -> bool {
    debug_assert!(log_n >= 3 && log_n <= tables.log && width <= stride);
    let h = 1usize << (log_n - 3);
    let chunk = (RUN_CHUNK_BYTES / core::mem::size_of::<F>()).max(SHORT_RUN);
    let runs = |j: usize, c: usize| -> [&mut [F]; 8] {
        // SAFETY: points `j + m·h`, `m < 8`, are distinct points below `2^log_n = 8h` and
        // `c + len ≤ width`; the callers below hold one block's slices at a time.
        unsafe { block_run_chunks(data, j, h, stride, c, chunk.min(width - c)) }
    };
    for j in 0..h {
        let w = tables.radix8(h, j);
        for c in (0..width).step_by(chunk) {
            let mut block = runs(j, c);
            if block.iter().all(|run| accept(run)) {
                F::three_stages_same(&mut block, &w, j == 0, true, &mut WritePrefetch::none());
                continue;
            }
            // Refused: the blocks before (j, c) in this order are transformed.
            let eighth = F::from_u64_reduced(8).inverse();
            for (jb, cb) in (0..=j)
                .flat_map(|jb| (0..width).step_by(chunk).map(move |cb| (jb, cb)))
                .take_while(|&(jb, cb)| (jb, cb) < (j, c))
            {
                let mut block = runs(jb, cb);
                F::three_stages_same(
                    &mut block,
                    &undo.radix8(h, jb),
                    jb == 0,
                    false,
                    &mut WritePrefetch::none(),
                );
                for run in block {
                    run.iter_mut().for_each(|x| *x *= eighth);
                    if let Some(f) = finish {
                        f(run);
                    }
                }
            }
            return false;
        }
    }
    // SAFETY: forwarded contract; the first three stages are done.
    unsafe {
        wide_stages(
            data,
            log_n,
            3,
            width,
            stride,
            tables,
            true,
            None,
            &mut WritePrefetch::none(),
        )
    };
    true
}

/// The three stages of half-sizes `h`, `2h`, `4h` (DIT in that order, DIF in the reverse)
/// over `n` points of runs, as radix-8 blocks: the eight points `p, p+h, …, p+7h` are
/// loaded once per chunk of their runs and go through all twelve butterflies, so a pass
/// over the data does three stages. That matters for column groups, whose power-of-two row
/// stride keeps them from staying in cache from one stage to the next.
///
/// With `points` (only when `8h = n`: one row of blocks), block `j`'s point `m` (point
/// `c = j + m·h`) is scaled by `points[c]`, before the butterflies in DIF, after in DIT.
///
/// # Safety
/// As [`radix2`], with `8h ≤ n`, and `8h = n` when `points` is given.
#[allow(clippy::too_many_arguments)] // the transform's options and the row's scales
unsafe fn three_stages_of_runs<F: NttField>(
    data: *mut F,
    n: usize,
    h: usize,
    width: usize,
    stride: usize,
    tables: &StageTables<F>,
    dif: bool,
    points: Option<&[F]>,
    prefetch: &mut WritePrefetch<'_>,
) {
    debug_assert!(points.is_none() || 8 * h == n);
    if width == stride {
        // Contiguous points: all rows of blocks in one call of the field's kernel.
        let t = [tables.stage(h), tables.stage(2 * h), tables.stage(4 * h)];
        // SAFETY: the `n` points are contiguous (`width = stride`), valid and exclusively
        // ours (caller's contract).
        let rows = unsafe { core::slice::from_raw_parts_mut(data, n * width) };
        F::three_stages_block_row(rows, h, width, t, dif, points, prefetch);
        return;
    }
    let chunk = (RUN_CHUNK_BYTES / core::mem::size_of::<F>()).max(SHORT_RUN);
    for start in (0..n).step_by(8 * h) {
        for j in 0..h {
            let w = tables.radix8(h, j);
            let base = start + j;
            let scales: Option<[F; 8]> = points.map(|p| core::array::from_fn(|m| p[base + m * h]));
            for c in (0..width).step_by(chunk) {
                let len = chunk.min(width - c);
                // SAFETY: points `base + m·h`, `m < 8`, are distinct points below `n`
                // (`start + 8h ≤ n`) and `c + len ≤ width`; this iteration holds the only
                // references to their chunks.
                let mut runs = unsafe { block_run_chunks::<F, 8>(data, base, h, stride, c, len) };
                match &scales {
                    Some(p) => F::three_stages_scaled(&mut runs, &w, j == 0, dif, p, prefetch),
                    None => F::three_stages_same(&mut runs, &w, j == 0, dif, prefetch),
                }
            }
        }
    }
}

/// Decimation-in-time stages `first .. log2(len)` of one contiguous polynomial whose stages
/// below `first` are already done (`first = 0`: the whole bit-reversed → natural transform).
pub(crate) fn dit_from_stage<F: NttField>(slice: &mut [F], first: usize, tables: &StageTables<F>) {
    let log_n = slice.len().trailing_zeros() as usize;
    debug_assert!(slice.len().is_power_of_two() && log_n <= tables.log);
    let mut first = first;
    if first == 0 && log_n >= 3 {
        // The three (or four) stages whose pairs lie within blocks of eight (sixteen) run
        // together as 8-point (16-point) blocks (transposed SIMD where the field has it).
        first = small_block_stages::<F>(log_n);
        if first == 4 {
            F::dit_first_four_stages(slice, tables.stage(8), tables.stage(4), tables.stage(2));
        } else {
            F::dit_first_three_stages(slice, tables.stage(4), tables.stage(2));
        }
    }
    let mut s = first;
    while s < log_n {
        let h = 1 << s;
        if log_n - s >= 3 && h >= SHORT_RUN {
            three_stages_contiguous(slice, h, tables, false);
            s += 3;
        } else {
            stage_contiguous(slice, h, 1, tables.stage(h), false);
            s += 1;
        }
    }
}

/// The stages (three or four) that one contiguous polynomial of `2^log_n ≥ 8` points takes
/// in blocks at its small end: four where the field runs them as one pass
/// ([`NttField::four_stage_blocks`]) and the other stages then group into threes
/// (`log_n ≡ 1 mod 3`: a `2^10` row of the `2^16` four-step split, 3 + 3 + 4), else three.
/// On the 2-core Xeon (AVX-512) the four-stage blocks (their twiddles shifts) in place of a
/// stage of half-size 8 and the three-stage blocks took the `2^16 × 135` polynomial-major
/// forward transform from 53.2 to 50.7–51.8 ms on one thread and from 26.8–27.1 to
/// 25.4–25.5 on two, the inverse by 2–5 %, and 64 polynomials of `2^10` points from
/// 0.24–0.25 to 0.22–0.23 ms (one process, alternating).
fn small_block_stages<F: NttField>(log_n: usize) -> usize {
    if log_n >= 4 && (log_n - 4).is_multiple_of(3) && F::four_stage_blocks() {
        4
    } else {
        3
    }
}

/// The three stages of half-sizes `h, 2h, 4h` of one contiguous polynomial as radix-8 blocks
/// of eight runs of `h` points (DIT from `h` up, DIF from `4h` down).
fn three_stages_contiguous<F: NttField>(
    data: &mut [F],
    h: usize,
    tables: &StageTables<F>,
    dif: bool,
) {
    let (t1, t2, t4) = (tables.stage(h), tables.stage(2 * h), tables.stage(4 * h));
    let tw: [&[F]; 7] = [
        &t1[..h],
        &t2[..h],
        &t2[h..2 * h],
        &t4[..h],
        &t4[h..2 * h],
        &t4[2 * h..3 * h],
        &t4[3 * h..4 * h],
    ];
    for block in data.chunks_exact_mut(8 * h) {
        let mut pieces = block.chunks_exact_mut(h);
        let mut runs: [&mut [F]; 8] =
            core::array::from_fn(|_| pieces.next().expect("eight runs of a block"));
        F::three_stages(&mut runs, &tw, dif);
    }
}

/// Permutes `points` (a power-of-two number of them, each `width` elements, contiguous) into
/// bit-reversed order: point `i` moves to `reverse_bits(i, log2(count))`.
///
/// # Errors
/// [`NttError::PointWidth`] for a zero width or a length that is not a multiple of it;
/// [`NttError::NotPowerOfTwo`] for a point count that is not a power of two.
pub fn bit_reverse<F: Copy + Send + Sync>(points: &mut [F], width: usize) -> Result<(), NttError> {
    if width == 0 || !points.len().is_multiple_of(width) {
        return Err(NttError::PointWidth {
            len: points.len(),
            width,
        });
    }
    let count = points.len() / width;
    if !count.is_power_of_two() {
        return Err(NttError::NotPowerOfTwo { len: count });
    }
    bit_reverse_points(points, count.trailing_zeros() as usize, width);
    Ok(())
}

/// Reverses the low `bits` bits of `i`.
#[inline]
pub fn reverse_bits(i: usize, bits: usize) -> usize {
    if bits == 0 {
        0
    } else {
        i.reverse_bits() >> (usize::BITS as usize - bits)
    }
}

/// Runs `swap(mid, rev(mid))` once for every unordered pair of `m`-bit middle classes
/// `{mid, rev(mid)}` (a class paired with itself included), on all cores when `parallel`.
/// Bit reversal maps class `mid` onto `rev(mid)`, so the pairs are independent tasks.
fn for_each_class_pair(m: usize, parallel: bool, swap: impl Fn(usize, usize) + Sync) {
    let task = |mid: usize| {
        let rmid = reverse_bits(mid, m);
        if mid <= rmid {
            swap(mid, rmid);
        }
    };
    if parallel {
        use rayon::prelude::*;
        (0..1usize << m).into_par_iter().for_each(task);
    } else {
        (0..1usize << m).for_each(task);
    }
}

/// [`bit_reverse_points`] of single elements (`2^(m + 2·TILE_BITS)` of them): each class's
/// two 16 × 16 tiles read row by row (16 contiguous elements each) into L1, then written back
/// transposed and reversed, so no element is swapped on its own.
fn bit_reverse_elements<F: Copy + Send + Sync>(data: &mut [F], m: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = zkaccel_field::cpu::Avx512::detect()
        .filter(|_| core::mem::size_of::<F>() == 8 && core::mem::align_of::<F>() == 8)
    {
        // SAFETY: `F` is `Copy` and has the size and alignment of `u64`, so its elements can
        // be moved as `u64` words: every word written is one that was read from `data`.
        let words =
            unsafe { core::slice::from_raw_parts_mut(data.as_mut_ptr().cast::<u64>(), data.len()) };
        return bit_reverse_words_avx512(cpu, words, m);
    }
    const T: usize = 1 << TILE_BITS;
    let b = TILE_BITS;
    let rev: [usize; T] = core::array::from_fn(|x| reverse_bits(x, b));
    let row = 1usize << (m + b);
    let parallel = core::mem::size_of_val(data) >= 1 << 20;
    let ptr = SharedPtr(data.as_mut_ptr());
    let swap_class = |mid: usize, rmid: usize| {
        let (base, rbase) = (mid << b, rmid << b);
        // SAFETY: row `x` of class `c` is the 16 elements from `x·row + (c << b)`, below
        // `data.len() = 2^(m + 2b)`, and only this task touches classes `mid` and `rmid`
        // (bit reversal maps one onto the other).
        let tile = |c: usize, x: usize| unsafe {
            core::slice::from_raw_parts_mut(ptr.get().add(x * row + c), T)
        };
        let mut a = [[tile(base, 0)[0]; T]; T];
        for (x, r) in a.iter_mut().enumerate() {
            r.copy_from_slice(tile(base, x));
        }
        // Point `(hi, mid, lo)` goes to `(rev lo, rmid, rev hi)`: class `mid`'s tile lands
        // on class `rmid` transposed and reversed, and the other way round.
        let put = |c: usize, from: &[[F; T]; T]| {
            for x in 0..T {
                let out = tile(c, x);
                for (y, o) in out.iter_mut().enumerate() {
                    *o = from[rev[y]][rev[x]];
                }
            }
        };
        if mid != rmid {
            let mut c = a;
            for (x, r) in c.iter_mut().enumerate() {
                r.copy_from_slice(tile(rbase, x));
            }
            put(base, &c);
        }
        put(rbase, &a);
    };
    for_each_class_pair(m, parallel, swap_class);
}

/// [`bit_reverse_elements`] of 8-byte words on AVX-512: the same classes and 16 × 16 tiles,
/// each tile read into registers (two vectors a row) and written back transposed and reversed
/// as four 8 × 8 blocks, each block a selection of even or odd columns and a transpose in
/// registers.
#[cfg(target_arch = "x86_64")]
fn bit_reverse_words_avx512(cpu: zkaccel_field::cpu::Avx512, data: &mut [u64], m: usize) {
    let b = TILE_BITS;
    let row = 1usize << (m + b);
    debug_assert_eq!(data.len(), row << b);
    let parallel = core::mem::size_of_val(data) >= 1 << 20;
    let ptr = SharedPtr(data.as_mut_ptr());
    let swap_class = |mid: usize, rmid: usize| {
        // SAFETY: classes `mid` and `rmid` are only this task's (bit reversal maps one onto
        // the other); each tile row is 16 words from `x·row + (class << b)`, inside `data`.
        unsafe { swap_tiles_avx512(cpu, ptr.get(), row, mid << b, rmid << b) };
    };
    for_each_class_pair(m, parallel, swap_class);
}

/// Swaps the 16 × 16 tiles at columns `base` and `rbase` (rows `row` words apart), each
/// transposed and bit-reversed: word `(x, y)` of one goes to `(rev y, rev x)` of the other
/// (`base = rbase`: the tile onto itself).
///
/// # Safety
/// Words `x·row + c .. x·row + c + 16`, `x < 16`, `c ∈ {base, rbase}`, are valid for reads
/// and writes and nobody else touches them during the call.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn swap_tiles_avx512(
    _cpu: zkaccel_field::cpu::Avx512,
    data: *mut u64,
    row: usize,
    base: usize,
    rbase: usize,
) {
    use core::arch::x86_64::*;
    let load = |c: usize| -> [__m512i; 32] {
        core::array::from_fn(|i| {
            // SAFETY: words `8·(i mod 2) ..` of row `i / 2` of the tile at `c`, inside it
            // per the contract.
            unsafe { _mm512_loadu_si512(data.add((i / 2) * row + c + 8 * (i % 2)).cast()) }
        })
    };
    // Both tiles are read before either is written.
    let a = load(base);
    if base != rbase {
        let r = load(rbase);
        // SAFETY: the tile at `base`, per the contract.
        unsafe { put_tile_avx512(data, row, base, &r) };
    }
    // SAFETY: the tile at `rbase`, per the contract.
    unsafe { put_tile_avx512(data, row, rbase, &a) };
}

/// Writes tile `t` (row `x` in vectors `2x`, `2x + 1`) to the tile at column `c`,
/// transposed and bit-reversed: `out[x][y] = t[rev y][rev x]`.
///
/// With `x = 8X + x'` and `y = 8Y + y'`, `rev x = 2·rev₃(x') + X`: output block `(X, Y)`
/// takes the rows of `t` of parity `Y` (in the order `rev₃(y')`) and their columns of parity
/// `X` (in the order `rev₃(x')`), transposed.
///
/// # Safety
/// As [`swap_tiles_avx512`] for the tile at `c`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn put_tile_avx512(
    data: *mut u64,
    row: usize,
    c: usize,
    t: &[core::arch::x86_64::__m512i; 32],
) {
    use core::arch::x86_64::*;
    let rev3 = |i: usize| reverse_bits(i, 3);
    for x_hi in 0..2 {
        // Columns `2·rev₃(i) + X` of a row's two vectors (indices 8.. name the second).
        let cols: [i64; 8] = core::array::from_fn(|i| (2 * rev3(i) + x_hi) as i64);
        // SAFETY: eight words read from an array of eight.
        let cols = unsafe { _mm512_loadu_si512(cols.as_ptr().cast()) };
        for y_hi in 0..2 {
            let v: [__m512i; 8] = core::array::from_fn(|yp| {
                let r = 2 * rev3(yp) + y_hi;
                _mm512_permutex2var_epi64(t[2 * r], cols, t[2 * r + 1])
            });
            let o = transpose_8x8(v);
            for (xp, o) in o.iter().enumerate() {
                // SAFETY: row `8X + x'` of the tile at `c`, words `8Y ..`.
                unsafe {
                    _mm512_storeu_si512(data.add((8 * x_hi + xp) * row + c + 8 * y_hi).cast(), *o)
                };
            }
        }
    }
}

/// The transpose of eight rows of eight words: `out[i]` lane `j` is `v[j]` lane `i`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn transpose_8x8(v: [core::arch::x86_64::__m512i; 8]) -> [core::arch::x86_64::__m512i; 8] {
    use core::arch::x86_64::*;
    // Pairs of rows interleaved: a[2k] = (v[2k][0], v[2k+1][0], v[2k][2], v[2k+1][2], …).
    let a: [__m512i; 8] = core::array::from_fn(|i| {
        let (p, q) = (v[i & !1], v[i | 1]);
        if i % 2 == 0 {
            _mm512_unpacklo_epi64(p, q)
        } else {
            _mm512_unpackhi_epi64(p, q)
        }
    });
    // Quadruples: b[k] holds words of rows 0–3 (k < 4) or 4–7 for columns k mod 4 and + 4.
    let lo2 = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
    let hi2 = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    let quad = |p: __m512i, q: __m512i, high: bool| {
        _mm512_permutex2var_epi64(p, if high { hi2 } else { lo2 }, q)
    };
    let b = [
        quad(a[0], a[2], false), // column 0 | 4 of rows 0–3
        quad(a[1], a[3], false), // 1 | 5
        quad(a[0], a[2], true),  // 2 | 6
        quad(a[1], a[3], true),  // 3 | 7
        quad(a[4], a[6], false),
        quad(a[5], a[7], false),
        quad(a[4], a[6], true),
        quad(a[5], a[7], true),
    ];
    // Rows 0–3 and 4–7 of each column joined.
    core::array::from_fn(|i| {
        let (p, q) = (b[i % 4], b[4 + i % 4]);
        if i < 4 {
            _mm512_shuffle_i64x2::<0b0100_0100>(p, q)
        } else {
            _mm512_shuffle_i64x2::<0b1110_1110>(p, q)
        }
    })
}

/// Bits of the square tiles the blocked bit-reversal swaps (16 × 16 points).
const TILE_BITS: usize = 4;

/// Permutes `2^log_n` contiguous points of `width` elements into bit-reversed order
/// (an involution), on all cores for large sizes.
///
/// Small sizes swap pairs directly. Larger ones split an index into `hi | mid | lo` with
/// 4-bit `hi` and `lo`: the points with middle bits `mid` go to the tile with middle bits
/// `rev(mid)`, row `rev(lo)`, column `rev(hi)`, so each step reads 16 contiguous points and
/// writes a 16 × 16 tile that stays in L1, instead of one cache miss per point; the pairs
/// `{mid, rev(mid)}` are independent tasks.
/// Callers pass `data.len() = 2^log_n · width` (checked in debug builds).
pub(crate) fn bit_reverse_points<F: Copy + Send + Sync>(
    data: &mut [F],
    log_n: usize,
    width: usize,
) {
    let n = 1usize << log_n;
    debug_assert_eq!(data.len(), n * width, "2^log_n points of `width` elements");
    if log_n < 2 * TILE_BITS + 2 {
        for i in 0..n {
            let j = reverse_bits(i, log_n);
            if i < j {
                let (lo, hi) = data.split_at_mut(j * width);
                lo[i * width..(i + 1) * width].swap_with_slice(&mut hi[..width]);
            }
        }
        return;
    }
    let b = TILE_BITS;
    let m = log_n - 2 * b;
    if width == 1 {
        bit_reverse_elements(data, m);
        return;
    }
    let ptr = SharedPtr(data.as_mut_ptr());
    let swap_class = |mid: usize, rmid: usize| {
        for hi in 0..1usize << b {
            for lo in 0..1usize << b {
                let i = (hi << (m + b)) | (mid << b) | lo;
                let j = (reverse_bits(lo, b) << (m + b)) | (rmid << b) | reverse_bits(hi, b);
                if mid != rmid || i < j {
                    // SAFETY: `i ≠ j` are below `n`, so both runs lie inside `data`, and
                    // they do not overlap. Points with middle bits `mid` or `rmid` are only
                    // touched by this task (bit reversal maps the class `mid` onto `rmid`),
                    // and within the task each unordered pair is swapped once: for
                    // `mid = rmid` only when `i < j`, otherwise `i` ranges over class `mid`.
                    unsafe {
                        core::ptr::swap_nonoverlapping(
                            ptr.get().add(i * width),
                            ptr.get().add(j * width),
                            width,
                        );
                    }
                }
            }
        }
    };
    for_each_class_pair(
        m,
        n * width * core::mem::size_of::<F>() >= 1 << 20,
        swap_class,
    );
}
