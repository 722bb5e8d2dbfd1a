//! [`NttField`]: the butterflies a field may accelerate. The defaults are portable scalar
//! code; Goldilocks overrides them with its AVX-512/AVX2 kernels.

use zkaccel_field::TwoAdicField;
use zkaccel_fp256::{Fp256, Fp256Config};
use zkaccel_goldilocks::{butterflies, Goldilocks, Goldilocks2};

use crate::kernels::butterfly_runs;

/// A field the transforms run over: a [`TwoAdicField`] whose butterfly runs may be SIMD.
/// Implementing it with no methods gives the portable kernels.
pub trait NttField: TwoAdicField {
    /// `lo[j], hi[j] ← lo[j] + hi[j], (lo[j] − hi[j])·tw[j]` (equal-length runs,
    /// `tw.len() ≥ lo.len()`).
    #[inline]
    fn dif_butterflies(lo: &mut [Self], hi: &mut [Self], tw: &[Self]) {
        for ((x, y), &w) in lo.iter_mut().zip(hi.iter_mut()).zip(tw) {
            let (s, d) = (*x + *y, *x - *y);
            *x = s;
            *y = d * w;
        }
    }

    /// `lo[j], hi[j] ← lo[j] + hi[j]·tw[j], lo[j] − hi[j]·tw[j]`.
    #[inline]
    fn dit_butterflies(lo: &mut [Self], hi: &mut [Self], tw: &[Self]) {
        for ((x, y), &w) in lo.iter_mut().zip(hi.iter_mut()).zip(tw) {
            let t = *y * w;
            let u = *x;
            *x = u + t;
            *y = u - t;
        }
    }

    /// `a[i] ← a[i]·b[i]` (equal lengths).
    #[inline]
    fn mul_slices(a: &mut [Self], b: &[Self]) {
        for (x, y) in a.iter_mut().zip(b) {
            *x *= *y;
        }
    }

    /// `a[i] ← a[i]·w`.
    #[inline]
    fn mul_by_constant(a: &mut [Self], w: Self) {
        for x in a.iter_mut() {
            *x *= w;
        }
    }

    /// Three radix-2 stages across eight equal-length runs, elementwise: for every `j` the
    /// points `runs[0][j] … runs[7][j]` go through one radix-8 block (DIT half-sizes 1, 2, 4,
    /// or DIF 4, 2, 1), where the stage of half-size `h` pairs runs `m` and `m + h` with
    /// twiddle `w[h − 1 + m mod h]` (so `w = [w1, w2₀, w2₁, w4₀, …, w4₃]`). `unit` says that
    /// `w[0]`, `w[1]` and `w[3]` are one. The default runs the twelve butterflies run by run;
    /// a field may keep the eight points in registers instead.
    #[inline]
    fn three_stages_same(runs: &mut [&mut [Self]; 8], w: &[Self; 7], unit: bool, dif: bool) {
        for_each_block_pair(runs, dif, |a, b, slot| {
            butterfly_runs(
                a,
                b,
                w[slot],
                unit && (slot == 0 || slot == 1 || slot == 3),
                dif,
            )
        });
    }

    /// [`NttField::three_stages_same`] with a twiddle per element: slot `i`'s twiddle for
    /// element `j` is `tw[i][j]` (each table at least as long as the runs). This is three
    /// stages of one polynomial, whose runs are consecutive pieces of it.
    #[inline]
    fn three_stages(runs: &mut [&mut [Self]; 8], tw: &[&[Self]; 7], dif: bool) {
        for_each_block_pair(runs, dif, |a, b, slot| {
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
            three_stages(block, tw4, tw2, true);
        }
    }

    /// The first three DIT stages (half-sizes 1, 2, 4) on every block of eight consecutive
    /// elements (see [`NttField::dif_last_three_stages`]).
    #[inline]
    fn dit_first_three_stages(data: &mut [Self], tw4: &[Self], tw2: &[Self]) {
        for block in data.chunks_exact_mut(8) {
            three_stages(block, tw4, tw2, false);
        }
    }

    /// DIF butterflies with one twiddle `w` for the whole run.
    #[inline]
    fn dif_butterflies_same(lo: &mut [Self], hi: &mut [Self], w: Self) {
        for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
            let (s, d) = (*x + *y, *x - *y);
            *x = s;
            *y = d * w;
        }
    }

    /// DIT butterflies with one twiddle `w` for the whole run.
    #[inline]
    fn dit_butterflies_same(lo: &mut [Self], hi: &mut [Self], w: Self) {
        for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
            let t = *y * w;
            let u = *x;
            *x = u + t;
            *y = u - t;
        }
    }
}

impl NttField for Goldilocks {
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn dif_last_three_stages(data: &mut [Self], tw4: &[Self], tw2: &[Self]) {
        zkaccel_goldilocks::x86_64::dif_last_three_stages(data, tw4, tw2)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn dit_first_three_stages(data: &mut [Self], tw4: &[Self], tw2: &[Self]) {
        zkaccel_goldilocks::x86_64::dit_first_three_stages(data, tw4, tw2)
    }
    #[inline]
    fn mul_slices(a: &mut [Self], b: &[Self]) {
        #[cfg(target_arch = "x86_64")]
        zkaccel_goldilocks::x86_64::mul_assign_slices(a, &b[..a.len()]);
        #[cfg(not(target_arch = "x86_64"))]
        for (x, y) in a.iter_mut().zip(b) {
            *x *= *y;
        }
    }
    fn mul_by_constant(a: &mut [Self], w: Self) {
        #[cfg(target_arch = "x86_64")]
        zkaccel_goldilocks::x86_64::mul_assign_constant(a, w);
        #[cfg(not(target_arch = "x86_64"))]
        for x in a.iter_mut() {
            *x *= w;
        }
    }
    #[inline]
    fn dif_butterflies(lo: &mut [Self], hi: &mut [Self], tw: &[Self]) {
        butterflies::dif_butterflies(lo, hi, tw)
    }
    #[inline]
    fn dit_butterflies(lo: &mut [Self], hi: &mut [Self], tw: &[Self]) {
        butterflies::dit_butterflies(lo, hi, tw)
    }
    #[inline]
    fn dif_butterflies_same(lo: &mut [Self], hi: &mut [Self], w: Self) {
        butterflies::dif_butterflies_same(lo, hi, w)
    }
    #[inline]
    fn dit_butterflies_same(lo: &mut [Self], hi: &mut [Self], w: Self) {
        butterflies::dit_butterflies_same(lo, hi, w)
    }
    #[inline]
    fn three_stages_same(runs: &mut [&mut [Self]; 8], w: &[Self; 7], unit: bool, dif: bool) {
        if dif {
            butterflies::dif_three_stages_same(runs, w, unit)
        } else {
            butterflies::dit_three_stages_same(runs, w, unit)
        }
    }
    #[inline]
    fn three_stages(runs: &mut [&mut [Self]; 8], tw: &[&[Self]; 7], dif: bool) {
        if dif {
            butterflies::dif_three_stages(runs, tw)
        } else {
            butterflies::dit_three_stages(runs, tw)
        }
    }
}

impl NttField for Goldilocks2 {}

/// The 256-bit fields: additions one element at a time, the twiddle products eight at a time
/// with AVX-512 IFMA when present ([`Fp256::mul_assign_slices`], scalar otherwise).
impl<C: Fp256Config> NttField for Fp256<C> {
    #[inline]
    fn mul_slices(a: &mut [Self], b: &[Self]) {
        Fp256::mul_assign_slices(a, &b[..a.len()]);
    }
    #[inline]
    fn mul_by_constant(a: &mut [Self], w: Self) {
        mul_by(a, w);
    }
    #[inline]
    fn dif_butterflies(lo: &mut [Self], hi: &mut [Self], tw: &[Self]) {
        add_sub(lo, hi);
        Fp256::mul_assign_slices(hi, &tw[..hi.len()]);
    }
    #[inline]
    fn dit_butterflies(lo: &mut [Self], hi: &mut [Self], tw: &[Self]) {
        Fp256::mul_assign_slices(hi, &tw[..hi.len()]);
        add_sub(lo, hi);
    }
    #[inline]
    fn dif_butterflies_same(lo: &mut [Self], hi: &mut [Self], w: Self) {
        add_sub(lo, hi);
        mul_by(hi, w);
    }
    #[inline]
    fn dit_butterflies_same(lo: &mut [Self], hi: &mut [Self], w: Self) {
        mul_by(hi, w);
        add_sub(lo, hi);
    }
}

/// The twelve butterflies of a radix-8 block across eight runs, in stage order (DIT half-sizes
/// 1, 2, 4; DIF 4, 2, 1): `pair(lo, hi, slot)` for runs `m` and `m + h`, with the twiddle slot
/// `h − 1 + m mod h`.
fn for_each_block_pair<F>(
    runs: &mut [&mut [F]; 8],
    dif: bool,
    mut pair: impl FnMut(&mut [F], &mut [F], usize),
) {
    let order: [usize; 3] = if dif { [4, 2, 1] } else { [1, 2, 4] };
    for h in order {
        for m in (0..8).filter(|m| m & h == 0) {
            let [a, b] = runs
                .get_disjoint_mut([m, m + h])
                .expect("distinct runs of a block");
            pair(a, b, h - 1 + m % h);
        }
    }
}

/// `lo, hi ← lo + hi, lo − hi`.
#[inline(always)]
fn add_sub<F: TwoAdicField>(lo: &mut [F], hi: &mut [F]) {
    for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
        let (s, d) = (*x + *y, *x - *y);
        *x = s;
        *y = d;
    }
}

/// `v[i] ← v[i]·w`, through the slice kernel in chunks.
#[inline(always)]
fn mul_by<C: Fp256Config>(v: &mut [Fp256<C>], w: Fp256<C>) {
    const CHUNK: usize = 32;
    let ws = [w; CHUNK];
    for chunk in v.chunks_mut(CHUNK) {
        Fp256::mul_assign_slices(chunk, &ws[..chunk.len()]);
    }
}

/// Three radix-2 stages on one block of eight (DIF: half-sizes 4, 2, 1; DIT: 1, 2, 4).
#[inline(always)]
fn three_stages<F: TwoAdicField>(x: &mut [F], tw4: &[F], tw2: &[F], dif: bool) {
    let stages: [usize; 3] = if dif { [4, 2, 1] } else { [1, 2, 4] };
    for h in stages {
        for s in (0..8).step_by(2 * h) {
            for j in 0..h {
                let (u, v) = (x[s + j], x[s + j + h]);
                let w = match (h, j) {
                    (_, 0) | (1, _) => None,
                    (4, j) => Some(tw4[j]),
                    (_, j) => Some(tw2[j]),
                };
                if dif {
                    x[s + j] = u + v;
                    x[s + j + h] = w.map_or(u - v, |w| (u - v) * w);
                } else {
                    let t = w.map_or(v, |w| v * w);
                    x[s + j] = u + t;
                    x[s + j + h] = u - t;
                }
            }
        }
    }
}
