//! The portable radix-2 butterflies behind [`NttField`]'s methods: a field with SIMD
//! butterflies (Goldilocks, the 256-bit fields) overrides those methods in its own crate, and
//! every number-theoretic transform reaches them through the trait.

use crate::{NttField, WritePrefetch};

/// Runs shorter than this take the inline scalar loop in [`butterfly_runs`], not the field's
/// run kernel.
pub const SHORT_RUN: usize = 8;

/// `lo[j], hi[j] ← lo[j] + hi[j], (lo[j] − hi[j])·tw[j]`, one element at a time.
#[inline(always)]
pub fn dif_scalar<F: NttField>(lo: &mut [F], hi: &mut [F], tw: &[F]) {
    for ((x, y), &w) in lo.iter_mut().zip(hi.iter_mut()).zip(tw) {
        let (s, d) = (*x + *y, *x - *y);
        *x = s;
        *y = d * w;
    }
}

/// `lo[j], hi[j] ← lo[j] + hi[j]·tw[j], lo[j] − hi[j]·tw[j]`, one element at a time.
#[inline(always)]
pub fn dit_scalar<F: NttField>(lo: &mut [F], hi: &mut [F], tw: &[F]) {
    for ((x, y), &w) in lo.iter_mut().zip(hi.iter_mut()).zip(tw) {
        let t = *y * w;
        let u = *x;
        *x = u + t;
        *y = u - t;
    }
}

/// DIF butterflies with one twiddle for the whole run, one element at a time.
#[inline(always)]
pub fn dif_same_scalar<F: NttField>(lo: &mut [F], hi: &mut [F], w: F) {
    for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
        let (s, d) = (*x + *y, *x - *y);
        *x = s;
        *y = d * w;
    }
}

/// DIT butterflies with one twiddle for the whole run, one element at a time.
#[inline(always)]
pub fn dit_same_scalar<F: NttField>(lo: &mut [F], hi: &mut [F], w: F) {
    for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
        let t = *y * w;
        let u = *x;
        *x = u + t;
        *y = u - t;
    }
}

/// `lo, hi ← lo + hi, lo − hi` (the butterfly with a unit twiddle).
#[inline(always)]
pub fn add_sub<F: NttField>(lo: &mut [F], hi: &mut [F]) {
    for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
        let (s, d) = (*x + *y, *x - *y);
        *x = s;
        *y = d;
    }
}

// ---- The butterflies of a field whose products are fastest in batches (its
// [`NttField::mul_slices`], e.g. eight at a time in AVX-512 IFMA lanes): the sums and
// differences of a run first, then its products as one batch. The 256- and 384-bit fields
// route their butterfly methods here.

/// [`dif_scalar`]'s result, the twiddle products as one batch.
#[inline(always)]
pub fn dif_batched<F: NttField>(lo: &mut [F], hi: &mut [F], tw: &[F]) {
    add_sub(lo, hi);
    F::mul_slices(hi, &tw[..hi.len()]);
}

/// [`dit_scalar`]'s result, the twiddle products as one batch.
#[inline(always)]
pub fn dit_batched<F: NttField>(lo: &mut [F], hi: &mut [F], tw: &[F]) {
    F::mul_slices(hi, &tw[..hi.len()]);
    add_sub(lo, hi);
}

/// `v[i] ← v[i]·w` through [`NttField::mul_slices`], in chunks against a run of `w`s.
#[inline(always)]
pub fn mul_by_constant_batched<F: NttField>(v: &mut [F], w: F) {
    const CHUNK: usize = 32;
    let ws = [w; CHUNK];
    for chunk in v.chunks_mut(CHUNK) {
        F::mul_slices(chunk, &ws[..chunk.len()]);
    }
}

/// [`dif_same_scalar`]'s result, the products as one batch.
#[inline(always)]
pub fn dif_same_batched<F: NttField>(lo: &mut [F], hi: &mut [F], w: F) {
    add_sub(lo, hi);
    mul_by_constant_batched(hi, w);
}

/// [`dit_same_scalar`]'s result, the products as one batch.
#[inline(always)]
pub fn dit_same_batched<F: NttField>(lo: &mut [F], hi: &mut [F], w: F) {
    mul_by_constant_batched(hi, w);
    add_sub(lo, hi);
}

/// One butterfly of two runs with twiddle `w` (`unit` when `w = 1`): the unit twiddle skips
/// the products, short runs (the last DIF / first DIT stages of one polynomial) stay inline,
/// longer ones go to the field's [`NttField::dif_butterflies_same`] or
/// [`NttField::dit_butterflies_same`].
#[inline(always)]
pub fn butterfly_runs<F: NttField>(a: &mut [F], b: &mut [F], w: F, unit: bool, dif: bool) {
    if unit {
        if a.len() < SHORT_RUN {
            add_sub(a, b);
        } else {
            F::add_sub_runs(a, b);
        }
    } else if a.len() < SHORT_RUN {
        if dif {
            dif_same_scalar(a, b, w);
        } else {
            dit_same_scalar(a, b, w);
        }
    } else if dif {
        F::dif_butterflies_same(a, b, w);
    } else {
        F::dit_butterflies_same(a, b, w);
    }
}

/// The twelve butterflies of a radix-8 block across eight runs, in stage order (DIT half-sizes
/// 1, 2, 4; DIF 4, 2, 1): `pair(lo, hi, slot)` for runs `m` and `m + h`, with the twiddle slot
/// `h − 1 + m mod h`.
pub fn for_each_block_pair<F>(
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

/// Three radix-2 stages on one block of eight consecutive elements (DIF: half-sizes 4, 2, 1;
/// DIT: 1, 2, 4), with `tw4 = [ω_8^j]_{j<4}` and `tw2 = [ω_4^j]_{j<2}` (or the inverses).
#[inline(always)]
pub fn three_stages_block<F: NttField>(x: &mut [F], tw4: &[F], tw2: &[F], dif: bool) {
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

/// [`NttField::three_stages_block_row`] block by block through the field's
/// [`NttField::three_stages_same`] and [`NttField::three_stages_scaled`]: the
/// default, and a field kernel's fallback.
///
/// # Panics
/// As [`NttField::three_stages_block_row`].
pub fn block_row_by_blocks<F: NttField>(
    data: &mut [F],
    h: usize,
    width: usize,
    t: [&[F]; 3],
    dif: bool,
    points: Option<&[F]>,
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
    for row in data.chunks_exact_mut(8 * h * width) {
        for j in 0..h {
            let w = [
                t[0][j],
                t[1][j],
                t[1][j + h],
                t[2][j],
                t[2][j + h],
                t[2][j + 2 * h],
                t[2][j + 3 * h],
            ];
            let mut blocks = row.chunks_exact_mut(h * width);
            let mut runs: [&mut [F]; 8] = core::array::from_fn(|_| {
                let block = blocks.next().expect("eight blocks of h points");
                &mut block[j * width..(j + 1) * width]
            });
            match points {
                Some(p) => {
                    let scales: [F; 8] = core::array::from_fn(|m| p[j + m * h]);
                    F::three_stages_scaled(&mut runs, &w, j == 0, dif, &scales, prefetch);
                }
                None => F::three_stages_same(&mut runs, &w, j == 0, dif, prefetch),
            }
        }
    }
}
