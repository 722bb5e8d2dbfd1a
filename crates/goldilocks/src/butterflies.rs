//! Radix-2 butterflies on runs of Goldilocks elements, for NTTs: with a twiddle per pair
//! (one stage of one transform) or one twiddle for the whole run (a batch of transforms, or a
//! four-step column pass), on AVX-512 (8 lanes) or AVX2 (4 lanes) when present.
//!
//! DIF (Gentleman–Sande): `lo, hi ← lo + hi, (lo − hi)·w`. DIT (Cooley–Tukey):
//! `lo, hi ← lo + hi·w, lo − hi·w`.

use crate::Goldilocks;

/// Where the twiddle of pair `j` comes from.
trait Twiddle: Copy {
    fn at(self, j: usize) -> Goldilocks;
    #[cfg(target_arch = "x86_64")]
    fn avx512(self, cpu: crate::x86_64::Avx512, j: usize) -> crate::x86_64::PackedGoldilocksAvx512;
    #[cfg(target_arch = "x86_64")]
    fn avx2(self, cpu: crate::x86_64::Avx2, j: usize) -> crate::x86_64::PackedGoldilocksAvx2;
}

impl Twiddle for &[Goldilocks] {
    #[inline(always)]
    fn at(self, j: usize) -> Goldilocks {
        self[j]
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn avx512(self, cpu: crate::x86_64::Avx512, j: usize) -> crate::x86_64::PackedGoldilocksAvx512 {
        let w: [Goldilocks; 8] = self[j..j + 8].try_into().expect("8 twiddles");
        crate::x86_64::PackedGoldilocksAvx512::from_array(cpu, w)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn avx2(self, cpu: crate::x86_64::Avx2, j: usize) -> crate::x86_64::PackedGoldilocksAvx2 {
        let w: [Goldilocks; 4] = self[j..j + 4].try_into().expect("4 twiddles");
        crate::x86_64::PackedGoldilocksAvx2::from_array(cpu, w)
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
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn avx512(
        self,
        cpu: crate::x86_64::Avx512,
        _j: usize,
    ) -> crate::x86_64::PackedGoldilocksAvx512 {
        crate::x86_64::PackedGoldilocksAvx512::broadcast(cpu, self.0)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn avx2(self, cpu: crate::x86_64::Avx2, _j: usize) -> crate::x86_64::PackedGoldilocksAvx2 {
        crate::x86_64::PackedGoldilocksAvx2::broadcast(cpu, self.0)
    }
}

#[inline(always)]
fn scalar<T: Twiddle, const DIF: bool>(
    lo: &mut [Goldilocks],
    hi: &mut [Goldilocks],
    tw: T,
    from: usize,
) {
    for j in from..lo.len() {
        (lo[j], hi[j]) = butterfly::<DIF>(lo[j], hi[j], tw.at(j));
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

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn run_avx512<T: Twiddle, const DIF: bool>(
    cpu: crate::x86_64::Avx512,
    lo: &mut [Goldilocks],
    hi: &mut [Goldilocks],
    tw: T,
) {
    use crate::x86_64::PackedGoldilocksAvx512 as P;
    let whole = lo.len() / 8 * 8;
    for j in (0..whole).step_by(8) {
        let x = P::from_array(cpu, lo[j..j + 8].try_into().expect("8 lanes"));
        let y = P::from_array(cpu, hi[j..j + 8].try_into().expect("8 lanes"));
        let w = tw.avx512(cpu, j);
        let (a, b) = if DIF {
            (x + y, (x - y) * w)
        } else {
            let t = y * w;
            (x + t, x - t)
        };
        lo[j..j + 8].copy_from_slice(&a.to_array());
        hi[j..j + 8].copy_from_slice(&b.to_array());
    }
    scalar::<T, DIF>(lo, hi, tw, whole);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn run_avx2<T: Twiddle, const DIF: bool>(
    cpu: crate::x86_64::Avx2,
    lo: &mut [Goldilocks],
    hi: &mut [Goldilocks],
    tw: T,
) {
    use crate::x86_64::PackedGoldilocksAvx2 as P;
    let whole = lo.len() / 4 * 4;
    for j in (0..whole).step_by(4) {
        let x = P::from_array(cpu, lo[j..j + 4].try_into().expect("4 lanes"));
        let y = P::from_array(cpu, hi[j..j + 4].try_into().expect("4 lanes"));
        let w = tw.avx2(cpu, j);
        let (a, b) = if DIF {
            (x + y, (x - y) * w)
        } else {
            let t = y * w;
            (x + t, x - t)
        };
        lo[j..j + 4].copy_from_slice(&a.to_array());
        hi[j..j + 4].copy_from_slice(&b.to_array());
    }
    scalar::<T, DIF>(lo, hi, tw, whole);
}

fn run<T: Twiddle, const DIF: bool>(lo: &mut [Goldilocks], hi: &mut [Goldilocks], tw: T) {
    assert_eq!(lo.len(), hi.len(), "runs of equal length");
    #[cfg(target_arch = "x86_64")]
    if lo.len() >= 8 {
        if let Some(cpu) = crate::x86_64::Avx512::detect() {
            // SAFETY: the token proves AVX-512F is present.
            return unsafe { run_avx512::<T, DIF>(cpu, lo, hi, tw) };
        }
        if let Some(cpu) = crate::x86_64::Avx2::detect() {
            // SAFETY: the token proves AVX2 is present.
            return unsafe { run_avx2::<T, DIF>(cpu, lo, hi, tw) };
        }
    }
    scalar::<T, DIF>(lo, hi, tw, 0)
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
