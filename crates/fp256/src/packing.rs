//! The packings of a 256-bit field, chosen at run time ([`zkaccel_field::Field::run_packed`]
//! for kernels over [`PackedField`], [`zkaccel_poseidon::PoseidonField::run_poseidon_packed`]
//! for Poseidon's kernels over [`zkaccel_poseidon::PoseidonPacking`]).

use zkaccel_field::{PackedField, PackedKernel};
use zkaccel_poseidon::PoseidonKernel;

use crate::{Avx2, Fp256, Fp256Config, Ifma, PackedFp256Avx2, PackedFp256Ifma};

/// A dispatch of one kernel trait (`$kernel`, whose `run` takes the packing) to the packings:
/// the widest the CPU offers with at most `max_lanes` lanes, each run from a function compiled
/// for its instructions. Private: it writes the two dispatchers below from one text.
macro_rules! dispatch {
    ($run:ident, $ifma:ident, $avx2:ident, $kernel:ident) => {
        /// Runs `kernel` on the widest packing the CPU offers with at most `max_lanes` lanes.
        #[inline]
        pub(crate) fn $run<C: Fp256Config, K: $kernel<Fp256<C>>>(
            max_lanes: usize,
            kernel: K,
        ) -> K::Output {
            if max_lanes >= <PackedFp256Ifma<C> as PackedField>::WIDTH {
                if let Some(cpu) = Ifma::detect() {
                    // SAFETY: the token proves AVX-512F and IFMA.
                    return unsafe { $ifma(cpu, kernel) };
                }
            }
            if max_lanes >= <PackedFp256Avx2<C> as PackedField>::WIDTH {
                if let Some(cpu) = Avx2::detect() {
                    // SAFETY: the token proves AVX2.
                    return unsafe { $avx2(cpu, kernel) };
                }
            }
            kernel.run::<Fp256<C>>(())
        }

        /// # Safety
        /// The CPU must support AVX-512F and IFMA (the token proves it).
        #[target_feature(enable = "avx512f,avx512ifma")]
        unsafe fn $ifma<C: Fp256Config, K: $kernel<Fp256<C>>>(cpu: Ifma, kernel: K) -> K::Output {
            kernel.run::<PackedFp256Ifma<C>>(cpu)
        }

        /// # Safety
        /// The CPU must support AVX2 (the token proves it).
        #[target_feature(enable = "avx2")]
        unsafe fn $avx2<C: Fp256Config, K: $kernel<Fp256<C>>>(cpu: Avx2, kernel: K) -> K::Output {
            kernel.run::<PackedFp256Avx2<C>>(cpu)
        }
    };
}

dispatch!(run_packed, run_kernel_ifma, run_kernel_avx2, PackedKernel);
dispatch!(
    run_poseidon_packed,
    run_poseidon_ifma,
    run_poseidon_avx2,
    PoseidonKernel
);

/// The lane counts [`run_packed`] can choose here, widest first.
pub(crate) fn packing_widths<C: Fp256Config>() -> Vec<usize> {
    let mut widths = Vec::new();
    if Ifma::detect().is_some() {
        widths.push(<PackedFp256Ifma<C> as PackedField>::WIDTH);
    }
    if Avx2::detect().is_some() {
        widths.push(<PackedFp256Avx2<C> as PackedField>::WIDTH);
    }
    widths.push(1);
    widths
}
