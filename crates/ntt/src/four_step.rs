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

use rayon::prelude::*;
use zkaccel_field::Field;

use crate::field::NttField;

use crate::kernels::{radix2, reverse_bits, SharedPtr, StageTables};

/// The tables of one direction (forward or inverse).
#[derive(Debug, Clone)]
pub(crate) struct Direction<F> {
    pub(crate) tables: StageTables<F>,
    /// `roots[l]` = the primitive `2^l`-th root (or its inverse) for `l ≤ max_log`.
    pub(crate) roots: Vec<F>,
}

/// Bytes a column pass gives one group of columns (measured on a 2-core Xeon: long runs per
/// row matter more than fitting L2 — power-of-two row strides make short runs conflict in the
/// cache — so groups are large, then split until every thread has several).
const COLUMN_GROUP_BYTES: usize = 1 << 22;

/// Shape and options of one recursive call.
#[derive(Clone, Copy)]
pub(crate) struct Shape {
    pub(crate) log_n: usize,
    pub(crate) width: usize,
    pub(crate) stride: usize,
}

/// Multiplies the `width` elements of every point by `s`.
///
/// # Safety
/// As [`transform`].
unsafe fn scale_points<F: Field>(data: *mut F, shape: Shape, s: F) {
    for i in 0..1usize << shape.log_n {
        // SAFETY: point `i < n` is valid and exclusively ours (caller's contract).
        let run =
            unsafe { core::slice::from_raw_parts_mut(data.add(i * shape.stride), shape.width) };
        run.iter_mut().for_each(|x| *x *= s);
    }
}

/// Transforms `2^log_n` points in place: DIF (natural → bit-reversed) or DIT (bit-reversed →
/// natural), multiplying every output by `scale` when given, splitting sizes above
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
    scale: Option<F>,
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
                        scale,
                        false,
                    )
                };
            });
            return;
        }
        // SAFETY: forwarded contract; the tables cover `2^log_n ≤ 2^core_log`.
        unsafe {
            radix2(data, log_n, width, stride, &dir.tables, dif);
            if let Some(s) = scale {
                scale_points(data, shape, s);
            }
        }
        return;
    }
    let l2 = core_log;
    let l1 = log_n - l2;
    let (n1, n2) = (1usize << l1, 1usize << l2);
    let omega = dir.roots[log_n];
    let ptr = SharedPtr(data);

    let columns = |parallel: bool| {
        if width == stride {
            // Neighbouring columns are contiguous: transform groups of them as wide points.
            let per_column = n1 * width * core::mem::size_of::<F>();
            let tasks = if parallel {
                4 * rayon::current_num_threads()
            } else {
                1
            };
            let group = (COLUMN_GROUP_BYTES / per_column.max(1))
                .next_power_of_two()
                .min((n2 / tasks).max(8))
                .clamp(1, n2);
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
                        None,
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
                        None,
                        false,
                    )
                };
            }
        }
    };
    let rows = |parallel: bool| {
        let run = |r: usize| {
            // SAFETY: row `r` is the points `r·n2 .. (r+1)·n2`, disjoint from other rows.
            let row = unsafe { ptr.get().add(r * n2 * stride) };
            let sub = Shape {
                log_n: l2,
                width,
                stride,
            };
            let base = omega.exp_u64(reverse_bits(r, l1) as u64);
            let twiddle = || {
                // The row's twiddles `scale·base^c`, by doubling with slice products.
                let mut tw = Vec::with_capacity(n2);
                tw.push(scale.unwrap_or(F::ONE));
                let mut step = base;
                while tw.len() < n2 {
                    let k = tw.len();
                    tw.extend_from_within(..k);
                    F::mul_by_constant(&mut tw[k..], step);
                    step = step.square();
                }
                if width == stride && width == 1 {
                    // SAFETY: the row's `n2` contiguous points, exclusively ours.
                    let run = unsafe { core::slice::from_raw_parts_mut(row, n2) };
                    F::mul_slices(run, &tw);
                } else {
                    for (c, &w) in tw.iter().enumerate() {
                        // SAFETY: point `c` of row `r`.
                        let run =
                            unsafe { core::slice::from_raw_parts_mut(row.add(c * stride), width) };
                        F::mul_by_constant(run, w);
                    }
                }
            };
            if !dif {
                // SAFETY: the row's points, exclusively ours.
                unsafe { transform(row, sub, dir, core_log, dif, None, false) };
            }
            twiddle();
            if dif {
                // SAFETY: as above.
                unsafe { transform(row, sub, dir, core_log, dif, None, false) };
            }
        };
        if parallel {
            (0..n1).into_par_iter().for_each(run);
        } else {
            (0..n1).for_each(run);
        }
    };
    if dif {
        columns(parallel);
        rows(parallel);
    } else {
        rows(parallel);
        columns(parallel);
    }
}
