//! Proofs that the running CPU has an x86-64 vector extension, shared by the field crates'
//! SIMD types: a packed value can only be built with its token, so its intrinsics only run on a
//! CPU that has them.

/// Proof that the running CPU has AVX2. Obtain it with [`Avx2::detect`].
#[derive(Debug, Clone, Copy)]
pub struct Avx2(());

impl Avx2 {
    /// `Some` when the CPU supports AVX2.
    #[inline]
    pub fn detect() -> Option<Self> {
        std::arch::is_x86_feature_detected!("avx2").then_some(Self(()))
    }
}

/// Proof that the running CPU has AVX-512F. Obtain it with [`Avx512::detect`].
#[derive(Debug, Clone, Copy)]
pub struct Avx512(());

impl Avx512 {
    /// `Some` when the CPU supports AVX-512F.
    #[inline]
    pub fn detect() -> Option<Self> {
        std::arch::is_x86_feature_detected!("avx512f").then_some(Self(()))
    }
}

/// Proof that the running CPU has AVX-512F and AVX-512 IFMA (52-bit multiply-add). Obtain it
/// with [`Avx512Ifma::detect`].
#[derive(Debug, Clone, Copy)]
pub struct Avx512Ifma(());

impl Avx512Ifma {
    /// `Some` when the CPU supports AVX-512F and AVX-512 IFMA.
    #[inline]
    pub fn detect() -> Option<Self> {
        (std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512ifma"))
        .then_some(Self(()))
    }

    /// The AVX-512F token this one implies.
    #[inline(always)]
    pub fn avx512(self) -> Avx512 {
        Avx512(())
    }
}
