//! The multi-dimensional (four-step) decomposition: a transform of `N = N1·N2` points is an
//! `N1 × N2` matrix (point `r·N2 + c` at row `r`, column `c`) transformed by
//!
//! 1. `N2` column transforms of `N1` points,
//! 2. a twiddle pass multiplying point `(r, c)` by `ω_N^{rev(r)·c}`,
//! 3. `N1` row transforms of `N2` points.
//!
//! With decimation in frequency in both passes the output is exactly the bit-reversed order
//! of the whole transform (`rev_N(k1 + N1·k2) = rev(k1)·N2 + rev(k2)`), and decimation in time
//! runs the same steps backwards (rows, twiddles, columns) from bit-reversed input to natural
//! output, so no transpose is ever needed. Rows are the core size (`2^core_log` points, the NTT
//! paper's 4096-point core, UniZK's 32-point planes); columns longer than the core are split
//! again, so every sub-transform the arithmetic sees has at most the core size. Column
//! transforms of neighbouring columns run together as one transform of wider points, which is
//! what keeps them cache- and SIMD-friendly.

use core::mem::{size_of, MaybeUninit};
use core::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::memory::l2_cache_bytes;
use crate::NttField;
use crate::WritePrefetch;
use rayon::prelude::*;

use crate::kernels::{
    dit_from_stage, pass_sizes, radix2, radix2_dif_wide_checked, radix2_wide_scaled, reverse_bits,
    wide_stages_from, SharedPtr, StageTables,
};

/// The tables of one direction (forward or inverse).
#[derive(Debug, Clone)]
pub(crate) struct Direction<F> {
    pub(crate) tables: StageTables<F>,
    /// `roots[l]` = the primitive `2^l`-th root (or its inverse) for `l ≤ max_log`.
    pub(crate) roots: Vec<F>,
    /// The row twiddles of one size of single points, shared by the polynomials of a
    /// polynomial-major batch ([`SinglePointRows`]); none outside such a batch.
    pub(crate) single_rows: Option<Arc<SinglePointRows<F>>>,
}

/// Every row twiddle of the four-step split of one polynomial of `2^log_n` points (with one
/// scale), computed once for a polynomial-major batch: otherwise each polynomial's row pass
/// computes its rows' twiddles again, one product per point, as many as it then applies. On
/// the 2-core Xeon (AVX-512, IFMA) this took the `2^16 × 135` polynomial-major forward
/// transform from 58.5–58.6 to 53.7–54.2 ms on one thread and from 29.8–30.0 to 27.4–28.1 on
/// two (old and new builds alternating, one process each); see
/// `NttPlan::sharing_row_twiddles` for the sizes that take one.
#[derive(Debug)]
pub(crate) struct SinglePointRows<F> {
    log_n: usize,
    /// The split's rows, `2^l1` of them, `2^(log_n − l1)` points each.
    l1: usize,
    scale: Option<F>,
    /// Row `r`'s twiddles `scale·base_r^c` at `r·2^(log_n − l1) + c`.
    table: Vec<F>,
}

impl<F: NttField> SinglePointRows<F> {
    /// The row twiddles of a transform of `2^log_n` single points in direction `dir` with the
    /// plan's core `2^core_log`, scaled by `scale`; `None` where that transform has no row
    /// pass (it fits the core).
    pub(crate) fn new(
        dir: &Direction<F>,
        log_n: usize,
        core_log: usize,
        scale: Option<F>,
        parallel: bool,
    ) -> Option<Self> {
        if log_n <= core_log {
            return None;
        }
        let l1 = four_step_rows_log(log_n, core_log, 1, F::cheap_roots_log());
        let n2 = 1usize << (log_n - l1);
        let omega = dir.roots[log_n];
        let mut table = vec![F::ZERO; 1 << log_n];
        let fill = |(r, row): (usize, &mut [F])| {
            fill_row_twiddles(row, omega.exp_u64(reverse_bits(r, l1) as u64), scale);
        };
        if parallel {
            table.par_chunks_mut(n2).enumerate().for_each(fill);
        } else {
            table.chunks_mut(n2).enumerate().for_each(fill);
        }
        Some(Self {
            log_n,
            l1,
            scale,
            table,
        })
    }

    /// Whether these are the twiddles of the row pass of `shape` split into `2^l1` rows with
    /// `scale`.
    fn is_for(&self, shape: Shape, l1: usize, scale: Option<F>) -> bool {
        shape.width == 1
            && shape.stride == 1
            && shape.log_n == self.log_n
            && l1 == self.l1
            && scale == self.scale
    }

    /// Row `r`'s twiddles.
    fn row(&self, r: usize) -> &[F] {
        let n2 = 1usize << (self.log_n - self.l1);
        &self.table[r * n2..(r + 1) * n2]
    }
}

/// Bytes a column pass gives one group of columns (measured on a 2-core Xeon: long runs per
/// row matter more than fitting L2 — power-of-two row strides make short runs conflict in the
/// cache — so groups are large, then split until every thread has several). With the radix-8
/// blocks kept in registers, 8 MiB beat 4 MiB by about 5–10 % on the 2^20 → 2^23 LDE
/// (`examples/lde_compare`), and 1 MiB lost 25 %.
const COLUMN_GROUP_BYTES: usize = 1 << 23;

/// Shape and options of one recursive call.
#[derive(Clone, Copy)]
pub(crate) struct Shape {
    pub(crate) log_n: usize,
    pub(crate) width: usize,
    pub(crate) stride: usize,
}

/// What a transform does to its outputs after their last butterfly.
#[derive(Clone, Copy)]
pub(crate) struct Outputs<F> {
    /// Multiplies every output (the inverse transform's `1/n`).
    pub(crate) scale: Option<F>,
    /// Runs once on every output, after the scale, while the output is still in cache
    /// ([`crate::NttPlan::finishing_outputs_with`]).
    pub(crate) finish: Option<fn(&mut [F])>,
}

impl<F> Outputs<F> {
    /// Outputs left as the butterflies leave them.
    pub(crate) const PLAIN: Self = Self {
        scale: None,
        finish: None,
    };

    /// Only the finishing step (a pass that is the last to touch the outputs).
    fn finish_only(self) -> Self {
        Self {
            scale: None,
            finish: self.finish,
        }
    }
}

/// Runs `finish` on the `width` elements of every point.
///
/// # Safety
/// As [`transform`].
unsafe fn finish_points<F>(data: *mut F, shape: Shape, finish: fn(&mut [F])) {
    let n = 1usize << shape.log_n;
    if shape.width == shape.stride {
        // SAFETY: the points are `n·width` contiguous elements, exclusively ours.
        finish(unsafe { core::slice::from_raw_parts_mut(data, n * shape.width) });
        return;
    }
    for i in 0..n {
        // SAFETY: point `i < n` is valid and exclusively ours (caller's contract).
        finish(unsafe { core::slice::from_raw_parts_mut(data.add(i * shape.stride), shape.width) });
    }
}

/// Multiplies the `width` elements of every point by `s`.
///
/// # Safety
/// As [`transform`].
unsafe fn scale_points<F: NttField>(data: *mut F, shape: Shape, s: F) {
    let n = 1usize << shape.log_n;
    if shape.width == shape.stride {
        // SAFETY: the points are `n·width` contiguous elements, exclusively ours.
        let all = unsafe { core::slice::from_raw_parts_mut(data, n * shape.width) };
        // The field's slice product (SIMD where it has it), not one element at a time: the
        // `1/n` of an inverse transform within the core took a third of a `2^10`-point
        // polynomial's time on the 2-core Xeon element by element.
        F::mul_by_constant(all, s);
        return;
    }
    for i in 0..n {
        // SAFETY: point `i < n` is valid and exclusively ours (caller's contract).
        let run =
            unsafe { core::slice::from_raw_parts_mut(data.add(i * shape.stride), shape.width) };
        run.iter_mut().for_each(|x| *x *= s);
    }
}

/// Transforms `2^log_n` points in place: DIF (natural → bit-reversed) or DIT (bit-reversed →
/// natural), then scaling and finishing every output as `outputs` says, splitting sizes above
/// `2^core_log` by the four-step decomposition, on all cores when `parallel`.
///
/// # Safety
/// For every `i < 2^log_n`, `data.add(i·stride) .. data.add(i·stride + width)` is valid for
/// reads and writes, `width ≤ stride`, nobody else touches those elements during the call,
/// and `dir` holds tables up to `2^core_log` and roots up to `2^log_n`.
pub(crate) unsafe fn transform<F: NttField>(
    data: *mut F,
    shape: Shape,
    dir: &Direction<F>,
    core_log: usize,
    dif: bool,
    outputs: Outputs<F>,
    parallel: bool,
) {
    let Shape {
        log_n,
        width,
        stride,
    } = shape;
    if log_n <= core_log {
        if parallel && width > 1 && width == stride && log_n > 0 {
            // Independent columns of an index-major batch: split them over the cores.
            let chunk = width.div_ceil(rayon::current_num_threads() * 4).max(8);
            let ptr = SharedPtr(data);
            (0..width.div_ceil(chunk)).into_par_iter().for_each(|g| {
                let w = chunk.min(width - g * chunk);
                let sub = Shape {
                    log_n,
                    width: w,
                    stride,
                };
                // SAFETY: the columns `g·chunk .. g·chunk + w` of every point are disjoint from
                // other tasks' and inside this call's points.
                unsafe {
                    transform(
                        ptr.get().add(g * chunk),
                        sub,
                        dir,
                        core_log,
                        dif,
                        outputs,
                        false,
                    )
                };
            });
            return;
        }
        // SAFETY: forwarded contract; the tables cover `2^log_n ≤ 2^core_log`.
        unsafe {
            radix2(data, log_n, width, stride, &dir.tables, dif);
            if let Some(s) = outputs.scale {
                scale_points(data, shape, s);
            }
            if let Some(f) = outputs.finish {
                finish_points(data, shape, f);
            }
        }
        return;
    }
    let l1 = four_step_rows_log(log_n, core_log, width, F::cheap_roots_log());
    if dif {
        // SAFETY: forwarded contract.
        unsafe {
            column_pass(
                data,
                l1,
                shape,
                dir,
                core_log,
                dif,
                Outputs::PLAIN,
                parallel,
            );
            row_pass(data, l1, shape, dir, core_log, dif, outputs, parallel);
        }
    } else {
        // SAFETY: forwarded contract.
        unsafe { row_pass(data, l1, shape, dir, core_log, dif, outputs, parallel) };
        // SAFETY: forwarded contract.
        unsafe {
            column_pass(
                data,
                l1,
                shape,
                dir,
                core_log,
                dif,
                outputs.finish_only(),
                parallel,
            )
        };
    }
}

/// The `log2` row lengths for which single points take the cheap-roots split (see
/// [`four_step_rows_log`]).
const SINGLE_POINT_CHEAP_ROWS_LOG: core::ops::RangeInclusive<usize> = 9..=10;

/// `l1`, the rows (`2^l1`) of the four-step split of `2^log_n > 2^core_log` points of `width`
/// elements: the core's split (`log_n − core_log`: rows as long as the core), except for wide
/// points of a field whose kernels multiply by the roots of order up to `2^c` cheaply
/// (`c` from [`NttField::cheap_roots_log`]): a column pass over `2^c` rows puts all its stages on
/// such roots, and the rows' last `c` stages are on them either way, so where `c` exceeds the
/// core's split and the stages on cheap roots are more, the columns are `2^c` points long
/// (the rows then shorter than the core). For `2^16 × 135` Goldilocks on a Zen 4 EPYC the
/// split `2^6 × 2^10` took 9–11 % less CPU time than the core's `2^4 × 2^12`.
///
/// Single points take the cheap split only where it leaves rows of
/// [`SINGLE_POINT_CHEAP_ROWS_LOG`]: on an Intel Xeon (AVX-512, IFMA), 135 polynomials of
/// `2^15` points one after another took 4–10 % less CPU time split `2^6 × 2^9` than `2^3 × 2^12`,
/// and of `2^16` points 4–8 % less split `2^6 × 2^10` than `2^4 × 2^12`, but `2^17` points took
/// 3–6 % more split `2^6 × 2^11`, and `2^13`, `2^14` points 2–5 % more split `2^6 × 2^7`,
/// `2^6 × 2^8`.
fn four_step_rows_log(log_n: usize, core_log: usize, width: usize, c: usize) -> usize {
    let core_split = log_n - core_log;
    // Both factors non-trivial, the columns within the core.
    if c <= core_split || c >= log_n || c > core_log {
        return core_split;
    }
    if width == 1 {
        return if SINGLE_POINT_CHEAP_ROWS_LOG.contains(&(log_n - c)) {
            c
        } else {
            core_split
        };
    }
    let cheap = |l1: usize| l1.min(c) + (log_n - l1).min(c);
    if cheap(c) > cheap(core_split) {
        c
    } else {
        core_split
    }
}

/// The row pass of a four-step split of `shape` into `2^l1` rows of `2^(log_n − l1)` points:
/// each row twiddled (with `outputs`' scale) and transformed; DIF ends with the rows, so they
/// also finish its outputs, DIT with the columns.
///
/// # Safety
/// As [`transform`].
#[allow(clippy::too_many_arguments)] // the transform's options, as in `transform`
unsafe fn row_pass<F: NttField>(
    data: *mut F,
    l1: usize,
    shape: Shape,
    dir: &Direction<F>,
    core_log: usize,
    dif: bool,
    outputs: Outputs<F>,
    parallel: bool,
) {
    let Shape {
        log_n,
        width,
        stride,
    } = shape;
    let l2 = log_n - l1;
    let (n1, n2) = (1usize << l1, 1usize << l2);
    let omega = dir.roots[log_n];
    let ptr = SharedPtr(data);
    let wide = width > 1 || stride > 1;
    // The batch's shared row twiddles, where they are this pass's.
    let shared = dir
        .single_rows
        .as_deref()
        .filter(|t| t.is_for(shape, l1, outputs.scale));
    let run = |r: usize| {
        // SAFETY: row `r` is the points `r·n2 .. (r+1)·n2`, disjoint from other rows.
        let row = unsafe { ptr.get().add(r * n2 * stride) };
        let sub = Shape {
            log_n: l2,
            width,
            stride,
        };
        let base = || omega.exp_u64(reverse_bits(r, l1) as u64);
        if wide && l2 <= core_log {
            // Rows of wide points within the core: the twiddles ride on the row transform's
            // first (DIF) or last (DIT) radix-8 pass where it has one.
            let tw = row_twiddles(n2, base(), outputs.scale);
            // SAFETY: the row's points, exclusively ours; the tables cover `2^l2 ≤ 2^core_log`.
            if unsafe { radix2_wide_scaled(row, l2, width, stride, &dir.tables, dif, &tw) } {
                if let (true, Some(f)) = (dif, outputs.finish) {
                    // SAFETY: as above.
                    unsafe { finish_points(row, sub, f) };
                }
                return;
            }
        }
        // SAFETY: the row's points, exclusively ours; a shared table's row has a factor per
        // point.
        unsafe {
            if !dif {
                transform(row, sub, dir, core_log, dif, Outputs::PLAIN, false);
            }
            match shared {
                Some(t) => apply_row_twiddles(row, sub, t.row(r)),
                None => twiddle_row(row, sub, base(), outputs.scale),
            }
            if dif {
                transform(row, sub, dir, core_log, dif, outputs.finish_only(), false);
            }
        }
    };
    if parallel {
        (0..n1).into_par_iter().for_each(run);
    } else {
        (0..n1).for_each(run);
    }
}

/// [`transform`] in DIF of one polynomial (`2^log_n` contiguous points of one element) whose
/// inputs `accept` must pass, checked inside the first pass: every run of inputs just before
/// its first butterfly, while it is loaded anyway — inside the column groups' first radix-8
/// pass ([`radix2_dif_wide_checked`]) where the columns are at least 8 and at most
/// `2^core_log` points long, else a group's rows just before the group's transform. Returns
/// `false` when `accept` refuses a run, having put back the runs it had transformed (by
/// `undo`, the other direction's tables: the same elements, finished by `outputs`'
/// finishing step).
///
/// # Safety
/// As [`transform`], with `width = stride = 1`; `undo` holds the tables of the opposite
/// direction to `dir`, to the same sizes.
#[allow(clippy::too_many_arguments)] // the transform's options, as in `transform`
pub(crate) unsafe fn transform_dif_checked<F: NttField>(
    data: *mut F,
    log_n: usize,
    dir: &Direction<F>,
    undo: &Direction<F>,
    core_log: usize,
    outputs: Outputs<F>,
    parallel: bool,
    accept: fn(&[F]) -> bool,
) -> bool {
    let shape = Shape {
        log_n,
        width: 1,
        stride: 1,
    };
    if log_n <= core_log {
        // SAFETY: the `2^log_n` contiguous points (caller's contract), only read here.
        if !accept(unsafe { core::slice::from_raw_parts(data, 1 << log_n) }) {
            return false;
        }
        // SAFETY: forwarded contract.
        unsafe { transform(data, shape, dir, core_log, true, outputs, parallel) };
        return true;
    }
    // The column pass, checking each group's columns before transforming them.
    let l1 = four_step_rows_log(log_n, core_log, 1, F::cheap_roots_log());
    let (n1, n2) = (1usize << l1, 1usize << (log_n - l1));
    let group = column_group::<F>(n1, n2, 1, parallel);
    let columns = Shape {
        log_n: l1,
        width: group,
        stride: n2,
    };
    let refused = AtomicBool::new(false);
    let transformed: Vec<AtomicBool> = (0..n2 / group).map(|_| AtomicBool::new(false)).collect();
    let ptr = SharedPtr(data);
    let run = |g: usize| {
        if refused.load(Ordering::Relaxed) {
            return;
        }
        // SAFETY: group `g` owns columns `g·group .. (g+1)·group` of every row: a region
        // disjoint from every other group's, inside this call's points.
        let base = unsafe { ptr.get().add(g * group) };
        if (3..=core_log).contains(&l1) {
            // Columns short enough for one radix-2 run, in radix-8 passes: the check rides
            // on the first pass's loads.
            // SAFETY: as above; the tables cover `2^l1 ≤ 2^core_log` points.
            let accepted = unsafe {
                radix2_dif_wide_checked(
                    base,
                    l1,
                    group,
                    n2,
                    &dir.tables,
                    &undo.tables,
                    accept,
                    outputs.finish,
                )
            };
            if accepted {
                transformed[g].store(true, Ordering::Relaxed);
            } else {
                refused.store(true, Ordering::Relaxed);
            }
            return;
        }
        for r in 0..n1 {
            // SAFETY: row `r`'s run of the group's columns, read only.
            let inputs = unsafe { core::slice::from_raw_parts(base.add(r * n2), group) };
            if !accept(inputs) {
                refused.store(true, Ordering::Relaxed);
                return;
            }
        }
        // SAFETY: as above.
        unsafe { transform(base, columns, dir, core_log, true, Outputs::PLAIN, false) };
        transformed[g].store(true, Ordering::Relaxed);
    };
    if parallel {
        (0..n2 / group).into_par_iter().for_each(run);
    } else {
        (0..n2 / group).for_each(run);
    }
    if refused.into_inner() {
        // The inverse of a DIF column transform is the opposite direction's DIT, scaled.
        let put_back = Outputs {
            scale: Some(F::from_u64_reduced(n1 as u64).inverse()),
            finish: outputs.finish,
        };
        let back = |g: usize| {
            if transformed[g].load(Ordering::Relaxed) {
                // SAFETY: group `g`'s columns, as in the pass above.
                unsafe {
                    transform(
                        ptr.get().add(g * group),
                        columns,
                        undo,
                        core_log,
                        false,
                        put_back,
                        false,
                    )
                };
            }
        };
        if parallel {
            (0..n2 / group).into_par_iter().for_each(back);
        } else {
            (0..n2 / group).for_each(back);
        }
        return false;
    }
    // SAFETY: forwarded contract.
    unsafe { row_pass(data, l1, shape, dir, core_log, true, outputs, parallel) };
    true
}

/// A row's twiddles `scale·base^c`, `c < n` (a power of two), by doubling with slice
/// products.
fn row_twiddles<F: NttField>(n: usize, base: F, scale: Option<F>) -> Vec<F> {
    let mut tw = vec![F::ZERO; n];
    fill_row_twiddles(&mut tw, base, scale);
    tw
}

/// Writes `scale·base^c` to `tw[c]` (`tw.len()` a power of two), by doubling with slice
/// products.
fn fill_row_twiddles<F: NttField>(tw: &mut [F], base: F, scale: Option<F>) {
    let n = tw.len();
    debug_assert!(n.is_power_of_two());
    tw[0] = scale.unwrap_or(F::ONE);
    let mut step = base;
    let mut k = 1;
    while k < n {
        let (done, next) = tw.split_at_mut(k);
        next[..k].copy_from_slice(done);
        F::mul_by_constant(&mut next[..k], step);
        step = step.square();
        k *= 2;
    }
}

/// Multiplies point `c` of a row (`2^shape.log_n` points) by `scale·base^c`.
///
/// # Safety
/// As [`transform`], for the row's points.
unsafe fn twiddle_row<F: NttField>(row: *mut F, shape: Shape, base: F, scale: Option<F>) {
    let tw = row_twiddles(1 << shape.log_n, base, scale);
    // SAFETY: forwarded contract; `tw` has a factor per point.
    unsafe { apply_row_twiddles(row, shape, &tw) };
}

/// Multiplies point `c` of a row (`2^shape.log_n` points) by `tw[c]`.
///
/// # Safety
/// As [`transform`], for the row's points; `tw` has `2^shape.log_n` factors.
unsafe fn apply_row_twiddles<F: NttField>(row: *mut F, shape: Shape, tw: &[F]) {
    let Shape {
        log_n,
        width,
        stride,
    } = shape;
    let n = 1usize << log_n;
    debug_assert_eq!(tw.len(), n);
    if width == stride && width == 1 {
        // SAFETY: the row's `n` contiguous points, exclusively ours (caller's contract).
        let run = unsafe { core::slice::from_raw_parts_mut(row, n) };
        F::mul_slices(run, tw);
    } else {
        for (c, &w) in tw.iter().enumerate() {
            // SAFETY: point `c` of the row.
            let run = unsafe { core::slice::from_raw_parts_mut(row.add(c * stride), width) };
            F::mul_by_constant(run, w);
        }
    }
}

/// Columns per task of a column pass over `n2` columns of `n1` points of `width` elements:
/// [`COLUMN_GROUP_BYTES`] each, split until every thread has several.
fn column_group<F>(n1: usize, n2: usize, width: usize, parallel: bool) -> usize {
    let per_column = n1 * width * core::mem::size_of::<F>();
    let tasks = if parallel {
        4 * rayon::current_num_threads()
    } else {
        1
    };
    (COLUMN_GROUP_BYTES / per_column.max(1))
        .next_power_of_two()
        .min((n2 / tasks).max(8))
        .clamp(1, n2)
}

/// The column pass of a four-step split of `shape` into `2^l1` rows: every column (one
/// point per row, `2^(log_n − l1)` columns) transformed as `2^l1` points, `outputs` applied.
///
/// # Safety
/// As [`transform`].
#[allow(clippy::too_many_arguments)] // the transform's options, as in `transform`
unsafe fn column_pass<F: NttField>(
    data: *mut F,
    l1: usize,
    shape: Shape,
    dir: &Direction<F>,
    core_log: usize,
    dif: bool,
    outputs: Outputs<F>,
    parallel: bool,
) {
    let Shape {
        log_n,
        width,
        stride,
    } = shape;
    let (n1, n2) = (1usize << l1, 1usize << (log_n - l1));
    let ptr = SharedPtr(data);
    if width == stride {
        // Neighbouring columns are contiguous: transform groups of them as wide points.
        let group = column_group::<F>(n1, n2, width, parallel);
        let run = |g: usize| {
            let sub = Shape {
                log_n: l1,
                width: group * width,
                stride: n2 * width,
            };
            // SAFETY: group `g` owns columns `g·group .. (g+1)·group` of every row: a
            // region disjoint from every other group's, inside this call's points.
            unsafe {
                transform(
                    ptr.get().add(g * group * width),
                    sub,
                    dir,
                    core_log,
                    dif,
                    outputs,
                    false,
                )
            };
        };
        if parallel {
            (0..n2 / group).into_par_iter().for_each(run);
        } else {
            (0..n2 / group).for_each(run);
        }
    } else {
        for c in 0..n2 {
            let sub = Shape {
                log_n: l1,
                width,
                stride: n2 * stride,
            };
            // SAFETY: column `c` of this call's points, sequentially.
            unsafe {
                transform(
                    ptr.get().add(c * stride),
                    sub,
                    dir,
                    core_log,
                    dif,
                    outputs,
                    false,
                )
            };
        }
    }
}

/// `l1`, the rows (`2^l1`) of the four-step split of an extension of `2^log_n` points of
/// `width` elements of `elem_bytes` whose first `k` stages are the fill (see [`extend_dit`]).
/// One row when the whole transform fits the core, else the core's split: the columns stay
/// within the core (a longer column pass would recurse into strided four-step transforms)
/// and rows beyond it run from the plan's longer stage tables (`2^table_log` points).
///
/// Wide points choose among the splits the plan's tables allow: fewest passes over the
/// output first (rows run `l2 − k` stages, columns `l1`, each in passes of three as
/// [`pass_sizes`] groups them), then a row that fits the level-2 cache, then the larger
/// rows (fewer strided rows for the column pass); where no row fits, the core's split. On
/// the shared 2-core Xeon (1 MiB L2) the 2^20 × 8 → 2^23 extension's split 2^10 × 2^13
/// (six passes, 512 KiB rows) beat the core's 2^11 × 2^12 (seven) by 5–9 %. Single points
/// (a polynomial-major batch) choose the same way: on the shared 2-core Zen 4 each
/// polynomial's `2^20 → 2^23` took 9–10 % less time on `2^10` rows of `2^13` (64 KiB) than on
/// the core's `2^11` rows of `2^12`, and 2–4 % more on `2^12` rows of `2^11` (one process,
/// 1 and 2 threads).
fn extension_split(
    log_n: usize,
    k: usize,
    width: usize,
    core_log: usize,
    table_log: usize,
    elem_bytes: usize,
    row_budget: usize,
) -> usize {
    let core_split = log_n.saturating_sub(core_log).min(core_log);
    if core_split == 0 {
        return core_split;
    }
    (1..=core_log.min(log_n))
        .filter(|&l1| (k..=table_log).contains(&(log_n - l1)))
        .min_by_key(|&l1| {
            let l2 = log_n - l1;
            let passes = pass_sizes(l2 - k, false, true).len() + pass_sizes(l1, false, false).len();
            let fits = (width << l2).saturating_mul(elem_bytes) <= row_budget;
            let preference = if fits {
                usize::MAX - l2
            } else {
                l1.abs_diff(core_split)
            };
            (passes, !fits, preference)
        })
        .unwrap_or(core_split)
}

/// The forward DIT (bit-reversed → natural), in each of `blocks` equal blocks of `out`, of
/// the `src_len·2^log_blowup` elements (points of `width` elements, index-major) whose point
/// `j·2^log_blowup` is the block's source point `j` times `factor·shift^rev(j)` (`rev` on
/// `log2(src_len/width)` bits) and whose other points are zero: the spread, zero-padded and
/// shifted coefficients of a low-degree extension, given bit-reversed. On such input the first
/// `log_blowup` stages only copy each point over its block of `2^log_blowup`, so they are
/// replaced by that fill, which runs inside the four-step row pass: no separate placement
/// pass, no butterflies on zeros. The shift powers are not tabulated: a row of the split reads
/// consecutive `j = r·m + t`, whose reversal is `rev(t)·2^l1 + rev(r)`, so one table of `m`
/// powers and one constant per row (carried by the row's twiddles) cover them.
///
/// Each block's source is its own last `src_len` elements, which the caller has initialised
/// (so an extension needs no buffer besides its output, whose tail the caller's inverse
/// transform or bit reversal already touched); the rest of `out` may start uninitialised:
/// every element is written before it is read, row by row inside the (parallel) row pass, so a
/// fresh output buffer is first touched there and is never zeroed. Row `r` of a block writes
/// `[r·L, (r+1)·L)` (`L` a row's elements) and reads the block's source row `r` at
/// `block_len − src_len + r·L/2^k`, so no row overwrites a later row's source; the rows whose
/// outputs reach into the source run after the others, from a copy of their sources (the last
/// `1/2^k` of them). Without a blowup (`k = 0`, a coset NTT) each row is its own source and is
/// scaled where it lies. The row pass runs row `r` of every block in turn, so the blocks (a
/// polynomial-major batch) share each row's twiddles, computed once. Callers pass power-of-two
/// point counts with `out.len() = blocks·(src_len << log_blowup)`, `width ≥ 1` dividing
/// `src_len`, and `dir` covering the extended size (checked in debug builds).
#[allow(clippy::too_many_arguments)] // the transform's options, as in `transform`
pub(crate) fn extend_dit<F: NttField>(
    out: &mut [MaybeUninit<F>],
    blocks: usize,
    src_len: usize,
    width: usize,
    shift: F,
    factor: F,
    log_blowup: usize,
    dir: &Direction<F>,
    core_log: usize,
    parallel: bool,
) {
    let k = log_blowup;
    debug_assert!(width > 0 && src_len.is_multiple_of(width));
    debug_assert!((src_len / width).is_power_of_two());
    debug_assert!(blocks > 0 && out.len() == blocks * (src_len << k));
    let block_len = out.len() / blocks;
    let tail_start = block_len - src_len;
    let log_n = (block_len / width).trailing_zeros() as usize;
    let shape = Shape {
        log_n,
        width,
        stride: width,
    };
    let row_budget = l2_cache_bytes() / 2;
    let l1 = extension_split(
        log_n,
        k,
        width,
        core_log,
        dir.tables.log,
        size_of::<F>(),
        row_budget,
    );
    let l2 = log_n - l1;
    if k > l2 {
        // A blowup beyond a whole row: place the values and run the plain transform.
        let factors = bit_reversed_powers(shift, factor, log_n - k);
        for block in out.chunks_exact_mut(block_len) {
            // SAFETY: the caller initialised the block's tail.
            let src = unsafe { assume_init_mut(&mut block[tail_start..]) }.to_vec();
            let block = fill_uninit(block, F::ZERO);
            for (j, (point, &y)) in src.chunks_exact(width).zip(&factors).enumerate() {
                let slot = &mut block[(j << k) * width..((j << k) + 1) * width];
                slot.copy_from_slice(point);
                F::mul_by_constant(slot, y);
            }
            // SAFETY: `block` is `2^log_n` contiguous points, borrowed mutably here.
            unsafe {
                transform(
                    block.as_mut_ptr(),
                    shape,
                    dir,
                    core_log,
                    false,
                    Outputs::PLAIN,
                    parallel,
                )
            };
        }
        return;
    }
    let per_row = 1usize << (l2 - k);
    let within = bit_reversed_powers(shift.exp_power_of_2(l1), factor, l2 - k);
    let omega = dir.roots[log_n];
    let row_shape = Shape {
        log_n: l2,
        width,
        stride: width,
    };
    // Row `r`'s twiddles `ω^{rev(r)·c}`, times its coset constant `shift^rev(r)` (the
    // transform is linear, so the constant rides on the twiddles instead of costing a product
    // per source point); none for a single row.
    let twiddles = |r: usize| {
        (l1 > 0).then(|| {
            let rev = reverse_bits(r, l1) as u64;
            row_twiddles(1 << l2, omega.exp_u64(rev), Some(shift.exp_u64(rev)))
        })
    };
    // A row's transform once its points are placed and scaled (`2^k` copies of each source
    // point, times its factor from `within`): the stages from `k` on, then its twiddles.
    // `prefetch` names the region written after this row.
    let finish = |row: &mut [F], tw: Option<&[F]>, prefetch: &mut WritePrefetch<'_>| {
        if width == 1 {
            dit_from_stage(row, k, &dir.tables);
        } else {
            // The row's twiddles ride on its last radix-8 pass where it has one.
            let row = row.as_mut_ptr();
            // SAFETY: the row is `2^l2` contiguous points of `width`, borrowed mutably here;
            // the tables cover `2^l2` points (the plan's longer tables).
            if unsafe { wide_stages_from(row, l2, k, width, &dir.tables, tw, prefetch) } {
                return;
            }
        }
        if let Some(tw) = tw {
            // SAFETY: `row` is `2^l2` contiguous points, borrowed mutably here.
            unsafe { apply_row_twiddles(row.as_mut_ptr(), row_shape, tw) };
        }
    };
    let (row_len, src_row) = (width << l2, per_row * width);
    if k == 0 {
        // No blowup (a coset NTT): each row's source is the row itself, so its points are
        // scaled where they lie, with no copy.
        // SAFETY: with `k = 0` the tail is all of `out`, which the caller initialised.
        let out = unsafe { assume_init_mut(out) };
        let run = |r: usize, row: &mut [F]| {
            if width == 1 {
                F::mul_slices(row, &within);
            } else {
                for (point, &w) in row.chunks_exact_mut(width).zip(&within) {
                    F::mul_by_constant(point, w);
                }
            }
            finish(row, twiddles(r).as_deref(), &mut WritePrefetch::none());
        };
        let rows = 1usize << l1;
        if parallel && l1 > 0 {
            out.par_chunks_mut(row_len)
                .enumerate()
                .for_each(|(i, row)| run(i % rows, row));
        } else {
            for (i, row) in out.chunks_mut(row_len).enumerate() {
                run(i % rows, row);
            }
        }
    } else {
        extension_rows(
            out,
            blocks,
            tail_start,
            row_len,
            src_row,
            parallel && l1 > 0,
            |r, rows, sources, after| {
                let tw = twiddles(r);
                for (b, src) in sources.iter().enumerate() {
                    let (done, next) = rows.split_at_mut(b + 1);
                    let row = &mut done[b];
                    if width == 1 {
                        let mut values = src.to_vec();
                        F::mul_slices(&mut values, &within);
                        for (block, &x) in row.chunks_exact_mut(1 << k).zip(&values) {
                            for slot in block {
                                slot.write(x);
                            }
                        }
                    } else {
                        for ((block, point), &w) in row
                            .chunks_exact_mut(width << k)
                            .zip(src.chunks_exact(width))
                            .zip(&within)
                        {
                            let (first, rest) = block.split_at_mut(width);
                            let first = copy_uninit(first, point);
                            F::mul_by_constant(first, w);
                            for copy in rest.chunks_exact_mut(width) {
                                copy_uninit(copy, first);
                            }
                        }
                    }
                    // SAFETY: the blocks of `2^k` points tile the row (`per_row << k = 2^l2`),
                    // so every element of it was written just above.
                    let row = unsafe { assume_init_mut(row) };
                    // The next block's row prefetched while this one computes (the last one's
                    // successor is `extension_rows`' to name: `after`).
                    match next.first() {
                        Some(next) => {
                            finish(row, tw.as_deref(), &mut WritePrefetch::new(next));
                        }
                        None => finish(row, tw.as_deref(), after),
                    }
                }
            },
        );
    }
    if l1 > 0 {
        for block in out.chunks_exact_mut(block_len) {
            // SAFETY: `block` is `2^log_n` contiguous points, borrowed mutably here, and the
            // row pass initialised all of them.
            unsafe {
                column_pass(
                    block.as_mut_ptr().cast(),
                    l1,
                    shape,
                    dir,
                    core_log,
                    false,
                    Outputs::PLAIN,
                    parallel,
                )
            };
        }
    }
}

/// The extension's row pass with a blowup (`k ≥ 1`, so a row's source is shorter than the
/// row) over `blocks` equal blocks of `out`: row `r` of a block has as its source the `r`-th
/// run of `src_row` elements of the block's initialised tail, from `tail_start` within the
/// block; `run(r, rows, sources, after)` fills and transforms row `r` (`row_len` slots) of
/// every block, `after` the region written after them (the next row of the first block, or
/// none), for the last block's kernels to prefetch. The rows before the tails run first, reading their sources where they lie (no row
/// overwrites a later row's source); the rows that reach into the tails run after, from a
/// copy of their sources.
fn extension_rows<F: Copy + Send + Sync>(
    out: &mut [MaybeUninit<F>],
    blocks: usize,
    tail_start: usize,
    row_len: usize,
    src_row: usize,
    parallel: bool,
    run: impl Fn(usize, &mut [&mut [MaybeUninit<F>]], &[&[F]], &mut WritePrefetch<'_>) + Sync,
) {
    let block_len = out.len() / blocks;
    let rows_before_source = tail_start / row_len;
    // Row `r` of every block with its sources, for `r` from `first`. A task takes a run of
    // consecutive rows, and while a row's butterflies run the lines of the row it writes next
    // are prefetched for writing (a [`WritePrefetch`]: the next block's row, which `run` names,
    // then the next row of the first block, named here), so that its first writes find their lines
    // in cache. Without the prefetch those writes waited on memory a few misses at a time: on
    // the shared 2-core Xeon they took 81–87 ms of a `2^20 × 8 → 2^23` extension's 830 ms on
    // one thread, and 40–42 ms with it, the extension 3–4 % faster.
    let each = |first: usize, rows: Vec<Vec<&mut [MaybeUninit<F>]>>, sources: &[&[F]]| {
        let body = |i: usize, rows: &mut Vec<&mut [MaybeUninit<F>]>, after: WritePrefetch<'_>| {
            let sources: Vec<&[F]> = sources
                .iter()
                .map(|s| &s[i * src_row..(i + 1) * src_row])
                .collect();
            run(first + i, rows, &sources, &mut { after });
        };
        let mut rows: Vec<(usize, Vec<&mut [MaybeUninit<F>]>)> =
            rows.into_iter().enumerate().collect();
        let run_of_rows = |group: &mut [(usize, Vec<&mut [MaybeUninit<F>]>)]| {
            for at in 0..group.len() {
                let (done, next) = group.split_at_mut(at + 1);
                let (i, rows) = &mut done[at];
                let after = match next.first() {
                    Some((_, next)) => WritePrefetch::new(&*next[0]),
                    None => WritePrefetch::none(),
                };
                body(*i, rows, after);
            }
        };
        if parallel {
            let group = (rows.len() / (rayon::current_num_threads() * 8)).max(1);
            rows.par_chunks_mut(group).for_each(run_of_rows);
        } else {
            run_of_rows(&mut rows);
        }
    };
    {
        let mut heads = Vec::with_capacity(blocks);
        let mut sources: Vec<&[F]> = Vec::with_capacity(blocks);
        for block in out.chunks_mut(block_len) {
            let (head, tail) = block.split_at_mut(tail_start);
            heads.push(&mut head[..rows_before_source * row_len]);
            // SAFETY: the caller initialised the tail.
            sources.push(unsafe { assume_init_mut(tail) });
        }
        each(0, rows_by_index(heads, row_len), &sources);
    }
    if rows_before_source * row_len < block_len {
        // The rows that overwrite the sources: their own sources copied out first.
        let mut heads = Vec::with_capacity(blocks);
        let mut copies = Vec::with_capacity(blocks);
        for block in out.chunks_mut(block_len) {
            // SAFETY: the tail is still initialised (the rows above wrote only before it).
            let tail = unsafe { assume_init_mut(&mut block[tail_start..]) };
            copies.push(tail[rows_before_source * src_row..].to_vec());
            heads.push(&mut block[rows_before_source * row_len..]);
        }
        let sources: Vec<&[F]> = copies.iter().map(Vec::as_slice).collect();
        each(rows_before_source, rows_by_index(heads, row_len), &sources);
    }
}

/// The rows of `heads` (one slice per block, rows of `row_len`) grouped by row index.
fn rows_by_index<T>(heads: Vec<&mut [T]>, row_len: usize) -> Vec<Vec<&mut [T]>> {
    let (blocks, count) = (heads.len(), heads.first().map_or(0, |h| h.len() / row_len));
    let mut rows: Vec<Vec<&mut [T]>> = (0..count).map(|_| Vec::with_capacity(blocks)).collect();
    for head in heads {
        for (r, row) in head.chunks_mut(row_len).enumerate() {
            rows[r].push(row);
        }
    }
    rows
}

/// Copies `src` into `slots` and returns them as initialised.
pub(crate) fn copy_uninit<'a, F: Copy>(slots: &'a mut [MaybeUninit<F>], src: &[F]) -> &'a mut [F] {
    for (slot, &x) in slots.iter_mut().zip(src) {
        slot.write(x);
    }
    // SAFETY: `slots` and `src` have the same length (callers' chunks), so every element was
    // written just above.
    unsafe { assume_init_mut(slots) }
}

/// Elements from which [`copy_uninit_over_pool`] copies over the rayon pool, in chunks of
/// this many (1 MiB of Goldilocks).
const PARALLEL_COPY_MIN: usize = 1 << 17;

/// [`copy_uninit`] of equal-length slices, in chunks over the rayon pool where `parallel` and
/// the copy is long: an extension's index-major input is copied (or moved in place) in one
/// piece before any parallel work, and its 64 MiB (2^20 × 8) took 10 ms on one thread of the
/// shared 2-core Xeon.
pub(crate) fn copy_uninit_over_pool<F: Copy + Send + Sync>(
    slots: &mut [MaybeUninit<F>],
    src: &[F],
    parallel: bool,
) {
    debug_assert_eq!(slots.len(), src.len());
    if parallel && src.len() >= PARALLEL_COPY_MIN {
        slots
            .par_chunks_mut(PARALLEL_COPY_MIN)
            .zip(src.par_chunks(PARALLEL_COPY_MIN))
            .for_each(|(slots, src)| {
                copy_uninit(slots, src);
            });
    } else {
        copy_uninit(slots, src);
    }
}

/// Writes `value` over all of `slots` and returns them as initialised.
fn fill_uninit<F: Copy>(slots: &mut [MaybeUninit<F>], value: F) -> &mut [F] {
    for slot in slots.iter_mut() {
        slot.write(value);
    }
    // SAFETY: every element was written just above.
    unsafe { assume_init_mut(slots) }
}

/// `slots` as initialised values.
///
/// # Safety
/// Every element of `slots` must have been written.
pub(crate) unsafe fn assume_init_mut<F>(slots: &mut [MaybeUninit<F>]) -> &mut [F] {
    // SAFETY: `MaybeUninit<F>` has `F`'s layout, and the caller guarantees that every
    // element is initialised.
    unsafe { &mut *(slots as *mut [MaybeUninit<F>] as *mut [F]) }
}

/// `first·shift^rev(p)` at position `p`, for `p < 2^log_n` (`rev` on `log_n` bits): built
/// by doubling, since `rev_l(2q + b) = b·2^(l−1) + rev_(l−1)(q)`.
pub(crate) fn bit_reversed_powers<F: NttField>(shift: F, first: F, log_n: usize) -> Vec<F> {
    let mut table = Vec::with_capacity(1 << log_n);
    table.push(first);
    let mut step = shift; // s^(2^(l−1)) for the table of l bits
    for _ in 0..log_n {
        // From l−1 to l bits: the new low bit of the position weighs 2^(l−1) in the reversed
        // index. Built in place from the back.
        let len = table.len();
        table.resize(2 * len, F::ZERO);
        for q in (0..len).rev() {
            let x = table[q];
            table[2 * q] = x;
            table[2 * q + 1] = x * step;
        }
        step = step.square();
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_step_splits_put_columns_on_cheap_roots() {
        // 2^16 × 135 Goldilocks on AVX-512 (c = 6): 2^6 × 2^10 (12 stages on cheap roots)
        // over the core's 2^4 × 2^12 (10).
        assert_eq!(four_step_rows_log(16, 12, 135, 6), 6);
        assert_eq!(four_step_rows_log(14, 12, 8, 6), 6);
        // Equal counts keep the core's split (2^20: 8 + 12 or 6 + 14, twelve either way).
        assert_eq!(four_step_rows_log(20, 12, 8, 6), 8);
        assert_eq!(four_step_rows_log(18, 12, 135, 6), 6);
        // Single points: the cheap split where it leaves rows of 2^9 or 2^10 points.
        assert_eq!(four_step_rows_log(16, 12, 1, 6), 6);
        assert_eq!(four_step_rows_log(15, 12, 1, 6), 6);
        assert_eq!(four_step_rows_log(17, 12, 1, 6), 5);
        assert_eq!(four_step_rows_log(14, 12, 1, 6), 2);
        // No cheap roots, or columns that would not be a proper factor within the core: the
        // core's split.
        assert_eq!(four_step_rows_log(16, 12, 1, 0), 4);
        assert_eq!(four_step_rows_log(16, 12, 135, 0), 4);
        assert_eq!(four_step_rows_log(6, 4, 8, 6), 2);
        assert_eq!(four_step_rows_log(9, 5, 8, 6), 4);
        // Every split is proper and keeps the rows within the core.
        for log_n in 2..=24 {
            for core in 1..log_n {
                for c in 0..=8 {
                    let l1 = four_step_rows_log(log_n, core, 16, c);
                    assert!(
                        l1 >= 1 && l1 < log_n && log_n - l1 <= core,
                        "{log_n} {core} {c}"
                    );
                }
            }
        }
    }

    #[test]
    fn extension_splits_save_passes_and_keep_rows_in_cache() {
        const KIB: usize = 1 << 10;
        // The benchmark's 2^20 × 8 → 2^23: rows of 2^13 points (512 KiB), six passes; the
        // core's 2^12 rows (seven) where the tables stop at the core's length. A pass saved
        // outweighs a row that fits; among splits of equal passes, one that fits wins.
        assert_eq!(extension_split(23, 3, 8, 12, 13, 8, 512 * KIB), 10);
        assert_eq!(extension_split(23, 3, 8, 12, 12, 8, 512 * KIB), 11);
        assert_eq!(extension_split(23, 3, 8, 12, 13, 8, 256 * KIB), 10);
        assert_eq!(extension_split(22, 3, 8, 12, 13, 8, 256 * KIB), 10);
        assert_eq!(extension_split(22, 3, 8, 12, 13, 8, 64 * KIB), 12);
        // No row fits (135 columns): the core's split. Single points: the longest row the
        // tables allow (seven stages after the fill, ten in the columns: six passes).
        assert_eq!(extension_split(21, 3, 135, 12, 13, 8, 512 * KIB), 9);
        assert_eq!(extension_split(23, 3, 1, 12, 13, 8, 512 * KIB), 10);
        assert_eq!(extension_split(23, 3, 1, 12, 12, 8, 512 * KIB), 11);
        // Within the core: one row.
        assert_eq!(extension_split(12, 3, 8, 12, 13, 8, 512 * KIB), 0);
        // Every split keeps the columns within the core and the rows within the tables and
        // at least as long as the fill.
        for (log_n, k, width, core, table) in [
            (20, 3, 4, 4, 16),
            (9, 1, 3, 3, 6),
            (14, 5, 2, 5, 9),
            (23, 3, 1, 12, 13),
            (17, 0, 1, 6, 11),
        ] {
            for budget in [0, KIB, 64 * KIB, usize::MAX] {
                let l1 = extension_split(log_n, k, width, core, table, 8, budget);
                let l2 = log_n - l1;
                assert!(
                    l1 <= core && l2 <= table && l2 >= k,
                    "{log_n} {k} {width} {budget}"
                );
            }
        }
    }
}
