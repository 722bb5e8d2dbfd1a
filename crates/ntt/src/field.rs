//! [`NttField`]: the butterflies a field may accelerate. The defaults are portable scalar
//! code; Goldilocks overrides them with its AVX-512/AVX2 kernels.

use zkaccel_field::TwoAdicField;
use zkaccel_fp256::{Fp256, Fp256Config};
use zkaccel_goldilocks::{butterflies, Goldilocks, Goldilocks2};

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
}

impl NttField for Goldilocks2 {}

impl<C: Fp256Config> NttField for Fp256<C> {}
