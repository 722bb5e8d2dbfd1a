//! Proofs that the running CPU has an x86-64 vector extension, shared by the field crates'
//! SIMD types: a packed value can only be built with its token, so its intrinsics only run on a
//! CPU that has them.

/// A token type: a unit struct only `detect` builds, `Some` when every named feature is present.
macro_rules! cpu_token {
    ($(#[$doc:meta])* $name:ident, $what:literal, $($feature:tt),+) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy)]
        pub struct $name(());

        impl $name {
            #[doc = concat!("`Some` when the CPU supports ", $what, ".")]
            #[inline]
            pub fn detect() -> Option<Self> {
                ($(std::arch::is_x86_feature_detected!($feature))&&+).then_some(Self(()))
            }
        }
    };
}

cpu_token!(
    /// Proof that the running CPU has AVX2. Obtain it with [`Avx2::detect`].
    Avx2,
    "AVX2",
    "avx2"
);

cpu_token!(
    /// Proof that the running CPU has AVX-512F. Obtain it with [`Avx512::detect`].
    Avx512,
    "AVX-512F",
    "avx512f"
);

cpu_token!(
    /// Proof that the running CPU has AVX-512F and AVX-512 IFMA (52-bit multiply-add). Obtain
    /// it with [`Avx512Ifma::detect`].
    Avx512Ifma,
    "AVX-512F and AVX-512 IFMA",
    "avx512f",
    "avx512ifma"
);

impl Avx512Ifma {
    /// The AVX-512F token this one implies.
    #[inline(always)]
    pub fn avx512(self) -> Avx512 {
        Avx512(())
    }
}
