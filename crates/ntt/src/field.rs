//! [`NttField`]: the kernels a number-theoretic transform runs over a [`TwoAdicField`], as a
//! trait of this crate that the field crates implement for their fast paths (as
//! `p3-goldilocks` implements `p3-dft`'s), with portable defaults ([`crate::butterflies`]).
//! The field traits of `zkaccel-field` stay mathematics: changing the transform's blocking
//! touches this trait and its implementations, no field trait.

use zkaccel_field::TwoAdicField;

use crate::butterflies;
use crate::WritePrefetch;

/// A [`TwoAdicField`] with the butterflies and block shapes the transforms run. Every method
/// has a portable default; a field with SIMD kernels overrides them in its own crate. The
/// block methods take the region the transform writes next ([`WritePrefetch`]), which a
/// kernel may prefetch for writing as it goes.
///
/// ```
/// use zkaccel_goldilocks::Goldilocks;
/// use zkaccel_field::Field;
/// use zkaccel_ntt::NttField;
///
/// let (mut lo, mut hi) = (vec![Goldilocks::from_u64_reduced(5)], vec![Goldilocks::ONE]);
/// Goldilocks::dif_butterflies(&mut lo, &mut hi, &[Goldilocks::TWO]);
/// assert_eq!(lo[0], Goldilocks::from_u64_reduced(6));
/// assert_eq!(hi[0], Goldilocks::from_u64_reduced(8));
/// ```
pub trait NttField: TwoAdicField {
    /// Whether the field's products are fastest in batches ([`NttField::mul_slices`], e.g. eight
    /// at a time in AVX-512 IFMA lanes): then the default butterflies take a run's sums and
    /// differences first and its products as one batch ([`butterflies::dif_batched`] and its
    /// siblings), not one element at a time. `false` by default; the 256- and 384-bit fields
    /// say `true` and override only [`NttField::mul_slices`].
    const PRODUCTS_IN_BATCHES: bool = false;

    /// `lo[j], hi[j] ← lo[j] + hi[j], (lo[j] − hi[j])·tw[j]` (equal-length runs,
    /// `tw.len() ≥ lo.len()`).
    #[inline]
    fn dif_butterflies(lo: &mut [Self], hi: &mut [Self], tw: &[Self]) {
        if Self::PRODUCTS_IN_BATCHES {
            butterflies::dif_batched(lo, hi, tw);
        } else {
            butterflies::dif_scalar(lo, hi, tw);
        }
    }

    /// `lo[j], hi[j] ← lo[j] + hi[j]·tw[j], lo[j] − hi[j]·tw[j]`.
    #[inline]
    fn dit_butterflies(lo: &mut [Self], hi: &mut [Self], tw: &[Self]) {
        if Self::PRODUCTS_IN_BATCHES {
            butterflies::dit_batched(lo, hi, tw);
        } else {
            butterflies::dit_scalar(lo, hi, tw);
        }
    }

    /// The butterflies of twiddle one, `lo, hi ← lo + hi, lo − hi`, over two runs of equal
    /// length: a stage's first pair of points, and every pair of a transform's last DIF or
    /// first DIT stage.
    #[inline]
    fn add_sub_runs(lo: &mut [Self], hi: &mut [Self]) {
        butterflies::add_sub(lo, hi);
    }

    /// DIF butterflies with one twiddle `w` for the whole run.
    #[inline]
    fn dif_butterflies_same(lo: &mut [Self], hi: &mut [Self], w: Self) {
        if Self::PRODUCTS_IN_BATCHES {
            butterflies::dif_same_batched(lo, hi, w);
        } else {
            butterflies::dif_same_scalar(lo, hi, w);
        }
    }

    /// DIT butterflies with one twiddle `w` for the whole run.
    #[inline]
    fn dit_butterflies_same(lo: &mut [Self], hi: &mut [Self], w: Self) {
        if Self::PRODUCTS_IN_BATCHES {
            butterflies::dit_same_batched(lo, hi, w);
        } else {
            butterflies::dit_same_scalar(lo, hi, w);
        }
    }

    /// `a[i] ← a[i]·b[i]` (`b` at least as long as `a`): the batch of products a field with
    /// [`NttField::PRODUCTS_IN_BATCHES`] overrides.
    #[inline]
    fn mul_slices(a: &mut [Self], b: &[Self]) {
        for (x, y) in a.iter_mut().zip(b) {
            *x *= *y;
        }
    }

    /// `a[i] ← a[i]·w`.
    #[inline]
    fn mul_by_constant(a: &mut [Self], w: Self) {
        if Self::PRODUCTS_IN_BATCHES {
            butterflies::mul_by_constant_batched(a, w);
        } else {
            for x in a.iter_mut() {
                *x *= w;
            }
        }
    }

    /// Three radix-2 stages across eight equal-length runs, elementwise: for every `j` the
    /// points `runs[0][j] … runs[7][j]` go through one radix-8 block (DIT half-sizes 1, 2, 4,
    /// or DIF 4, 2, 1), where the stage of half-size `h` pairs runs `m` and `m + h` with
    /// twiddle `w[h − 1 + m mod h]` (so `w = [w1, w2₀, w2₁, w4₀, …, w4₃]`). `unit` says that
    /// `w[0]`, `w[1]` and `w[3]` are one. The default runs the twelve butterflies run by run;
    /// a field may keep the eight points in registers instead.
    #[inline]
    fn three_stages_same(
        runs: &mut [&mut [Self]; 8],
        w: &[Self; 7],
        unit: bool,
        dif: bool,
        prefetch: &mut WritePrefetch<'_>,
    ) {
        let _ = prefetch;
        butterflies::for_each_block_pair(runs, dif, |a, b, slot| {
            butterflies::butterfly_runs(
                a,
                b,
                w[slot],
                unit && (slot == 0 || slot == 1 || slot == 3),
                dif,
            )
        });
    }

    /// [`NttField::three_stages_same`] with the points scaled: in DIF, point `m` of every
    /// run is multiplied by `points[m]` before the block; in DIT, after it (a four-step row's
    /// twiddles on its first or last pass). The default scales the runs in passes of their
    /// own; a field may scale the points in registers instead.
    #[inline]
    fn three_stages_scaled(
        runs: &mut [&mut [Self]; 8],
        w: &[Self; 7],
        unit: bool,
        dif: bool,
        points: &[Self; 8],
        prefetch: &mut WritePrefetch<'_>,
    ) {
        if dif {
            for (run, &p) in runs.iter_mut().zip(points) {
                Self::mul_by_constant(run, p);
            }
        }
        Self::three_stages_same(runs, w, unit, dif, prefetch);
        if !dif {
            for (run, &p) in runs.iter_mut().zip(points) {
                Self::mul_by_constant(run, p);
            }
        }
    }

    /// The radix-8 blocks of the three stages of half-sizes `h`, `2h`, `4h` over rows of `8h`
    /// contiguous points of `width` elements each (`data.len()` a multiple of `8h·width`,
    /// index-major): in every row, for every `j < h`, points `j + m·h` (`m < 8`) go through
    /// [`NttField::three_stages_same`] with the twiddles `[t[0][j], t[1][j], t[1][j + h],
    /// t[2][j], t[2][j + h], t[2][j + 2h], t[2][j + 3h]]` (`t` holds the stages of half-sizes
    /// `h`, `2h`, `4h`), unit for `j = 0`; with `points`, scaled as
    /// [`NttField::three_stages_scaled`] (point `c` by `points[c]`). The default calls
    /// those block by block; a field may run the whole row in one kernel.
    ///
    /// # Panics
    /// When `data.len()` is not a multiple of `8h·width`, a stage table is shorter than its
    /// stage, or `points` is given for more than one row or holds fewer than `8h` elements.
    fn three_stages_block_row(
        data: &mut [Self],
        h: usize,
        width: usize,
        t: [&[Self]; 3],
        dif: bool,
        points: Option<&[Self]>,
        prefetch: &mut WritePrefetch<'_>,
    ) {
        butterflies::block_row_by_blocks(data, h, width, t, dif, points, prefetch);
    }

    /// `t.len()` radix-2 stages (1, 2 or 4) of half-sizes `h`, `2h`, … over rows of
    /// `2^t.len()·h` contiguous points of `width` elements each: in every row, for every
    /// `j < h`, the points `j + m·h`; the stage of half-size `2^s·h` pairs block points `m` and
    /// `m + 2^s` (bit `s` of `m` clear) with the twiddle `t[s][j + (m mod 2^s)·h]` (one for
    /// `j = 0` and `m mod 2^s = 0`, as in [`NttField::three_stages_block_row`]), DIT from
    /// `s = 0` up, DIF from the top down. Returns `false`, having done nothing, where the field
    /// has no such kernel (the default): the caller then runs the stages pair by pair on runs
    /// of slices. A field overrides it where a kernel of its own beats that (Goldilocks on
    /// AVX-512: stage by stage over cache-sized chunks).
    ///
    /// # Panics
    /// An override may panic when `data.len()` is not a multiple of `2^t.len()·h·width` or a
    /// stage table is shorter than its stage.
    #[inline]
    fn stages_block_row(
        data: &mut [Self],
        h: usize,
        width: usize,
        t: &[&[Self]],
        dif: bool,
        prefetch: &mut WritePrefetch<'_>,
    ) -> bool {
        let _ = (data, h, width, t, dif, prefetch);
        false
    }

    /// `c` such that the field's butterfly kernels multiply by the roots of unity of order up
    /// to `2^c` for markedly less than by other twiddles, on this CPU: 0 (none; the default).
    /// Goldilocks on AVX-512 says 6 (those roots are all `±2^k`, applied by shifts). The NTT's
    /// four-step split of wide points uses it to put more stages on such twiddles.
    #[inline]
    fn cheap_roots_log() -> usize {
        0
    }

    /// [`NttField::three_stages_same`] with a twiddle per element: slot `i`'s twiddle for
    /// element `j` is `tw[i][j]` (each table at least as long as the runs). This is three
    /// stages of one polynomial, whose runs are consecutive pieces of it.
    #[inline]
    fn three_stages(runs: &mut [&mut [Self]; 8], tw: &[&[Self]; 7], dif: bool) {
        butterflies::for_each_block_pair(runs, dif, |a, b, slot| {
            if dif {
                Self::dif_butterflies(a, b, tw[slot]);
            } else {
                Self::dit_butterflies(a, b, tw[slot]);
            }
        });
    }

    /// The last three DIF stages (half-sizes 4, 2, 1) on every block of eight consecutive
    /// elements, with `tw4 = [ω_8^j]_{j<4}` and `tw2 = [ω_4^j]_{j<2}` (or the inverses).
    #[inline]
    fn dif_last_three_stages(data: &mut [Self], tw4: &[Self], tw2: &[Self]) {
        for block in data.chunks_exact_mut(8) {
            butterflies::three_stages_block(block, tw4, tw2, true);
        }
    }

    /// The first three DIT stages (half-sizes 1, 2, 4) on every block of eight consecutive
    /// elements (see [`NttField::dif_last_three_stages`]).
    #[inline]
    fn dit_first_three_stages(data: &mut [Self], tw4: &[Self], tw2: &[Self]) {
        for block in data.chunks_exact_mut(8) {
            butterflies::three_stages_block(block, tw4, tw2, false);
        }
    }

    /// Whether [`NttField::dif_last_four_stages`] and
    /// [`NttField::dit_first_four_stages`] are one pass of the field's own (`false`: the
    /// defaults, a stage and then the three-stage blocks). The transforms of one polynomial
    /// then take their last (first) four stages in blocks of sixteen where the stages before
    /// (after) them group into threes.
    #[inline]
    fn four_stage_blocks() -> bool {
        false
    }

    /// The last four DIF stages (half-sizes 8, 4, 2, 1) on every block of sixteen consecutive
    /// elements, with `tw8 = [ω_16^j]_{j<8}`, `tw4 = [ω_8^j]_{j<4}` and `tw2 = [ω_4^j]_{j<2}`
    /// (or the inverses).
    ///
    /// # Panics
    /// When a table is shorter than its stage.
    #[inline]
    fn dif_last_four_stages(data: &mut [Self], tw8: &[Self], tw4: &[Self], tw2: &[Self]) {
        for block in data.chunks_exact_mut(16) {
            let (lo, hi) = block.split_at_mut(8);
            Self::dif_butterflies(lo, hi, &tw8[..8]);
        }
        Self::dif_last_three_stages(data, tw4, tw2);
    }

    /// The first four DIT stages (half-sizes 1, 2, 4, 8) on every block of sixteen
    /// consecutive elements (see [`NttField::dif_last_four_stages`]).
    ///
    /// # Panics
    /// When a table is shorter than its stage.
    #[inline]
    fn dit_first_four_stages(data: &mut [Self], tw8: &[Self], tw4: &[Self], tw2: &[Self]) {
        Self::dit_first_three_stages(data, tw4, tw2);
        for block in data.chunks_exact_mut(16) {
            let (lo, hi) = block.split_at_mut(8);
            Self::dit_butterflies(lo, hi, &tw8[..8]);
        }
    }
}
