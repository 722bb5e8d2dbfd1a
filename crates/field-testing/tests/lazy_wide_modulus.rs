//! The lazy chains on a modulus just below `2^254`, the widest that lazy reduction allows
//! (`4p < 2^256`): wide enough that a squaring's first row (`a_0` times the doubled words of
//! `a`, plus `m·p`) would overflow five words for some inputs, so `LazyFp256` must not use the
//! squaring kernels there. BN254 Fr, the other lazily reduced field, is below `2^256/5`. The
//! lazy AVX2 and hybrid lanes run here too: their bounds (`2p + 2^234`, the top-limb thresholds
//! for subtracting `p` and `2p`) are at their widest, and so do the canonical kernels and
//! packed lanes (the IFMA and AVX2 squaring kernels among them).

use zkaccel_fp256::Fp256Config;

/// `p = 2^254 − 245`, the largest prime below `2^254` (checked with 16 Miller–Rabin bases
/// when it was chosen, and by the generic suite's Fermat checks here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
struct WideConfig;

impl Fp256Config for WideConfig {
    const NAME: &'static str = "2^254 - 245";
    const MODULUS: [u64; 4] = [
        0xffff_ffff_ffff_ff0b,
        0xffff_ffff_ffff_ffff,
        0xffff_ffff_ffff_ffff,
        0x3fff_ffff_ffff_ffff,
    ];
    /// Not used by these tests (only products, squarings and sums are).
    const GENERATOR: u64 = 3;
}

#[test]
fn modulus_is_in_the_range_this_test_is_about() {
    let m = WideConfig::MODULUS;
    assert!(m[3] < 1 << 62, "4p < 2^256");
    // 5p ≥ 2^256: p above 0x3333…33.
    assert!(m[3] > 0x3333_3333_3333_3333);
}

#[test]
fn lazy_chains_agree_with_canonical_arithmetic() {
    zkaccel_field_testing::check_fp256_lazy_chains::<WideConfig>();
}

#[test]
fn lazy_avx2_and_hybrid_lanes_agree_with_integers() {
    zkaccel_field_testing::check_fp256_lazy_packed_avx2::<WideConfig>();
    zkaccel_field_testing::check_fp256_lazy_hybrid::<WideConfig>();
}

/// The canonical kernels, the packed IFMA and AVX2 lanes among them (their squaring kernels'
/// column sums and results depend on `p`'s size), agree with integer products.
#[test]
fn canonical_kernels_agree_with_integers() {
    zkaccel_field_testing::check_fp256_kernels::<WideConfig>();
}
