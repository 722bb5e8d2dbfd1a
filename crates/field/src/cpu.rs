//! CPU feature detection, in one place for every crate: which vector and multiplier extensions
//! the running CPU has, detected once per process, and the tokens that prove it.
//!
//! A packed value or an assembly kernel can only be reached with its token, so its
//! instructions only run on a CPU that has them. Every kernel chooses its instruction set from
//! these answers once, at its entry.
//!
//! **Forcing the portable paths.** With the environment variable [`SIMD_ENV`]
//! (`ZKACCEL_SIMD`) set to `off` (or `portable`, `none`, `0`, `false`) when the process
//! starts, every detection answers "absent": each kernel runs the portable Rust that a CPU
//! without these extensions (or a non-x86 machine) gets. CI runs the whole test suite a second
//! time that way, so the fallback is tested, not assumed.

use std::sync::OnceLock;

/// The environment variable that switches every SIMD and assembly kernel off: see the module
/// documentation.
pub const SIMD_ENV: &str = "ZKACCEL_SIMD";

/// What the running CPU offers the kernels (all `false` when [`SIMD_ENV`] forces the portable
/// paths, or off x86-64).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CpuFeatures {
    /// AVX2.
    pub avx2: bool,
    /// AVX-512F.
    pub avx512f: bool,
    /// AVX-512F, AVX-512VL and AVX-512 IFMA.
    pub avx512ifma: bool,
    /// BMI2 and ADX (`mulx`, `adcx`, `adox`).
    pub bmi2_adx: bool,
    /// Whether [`SIMD_ENV`] switched the extensions off.
    pub forced_portable: bool,
}

/// The features the kernels may use, detected on the first call.
#[inline]
pub fn features() -> CpuFeatures {
    static FEATURES: OnceLock<CpuFeatures> = OnceLock::new();
    *FEATURES.get_or_init(detect_features)
}

/// A Montgomery-multiplication kernel of the multi-word prime fields (`zkaccel-fp256`,
/// `zkaccel-fp384`), as their `mul_backend` reports it and their `mul_using` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MulBackend {
    /// x86-64 assembly with `mulx`/`adcx`/`adox` (needs BMI2 and ADX; a field may admit it
    /// only for some moduli).
    Adx,
    /// Portable Rust (CIOS with the no-carry shortcut where the modulus allows), the fallback
    /// everywhere.
    Portable,
}

/// A kernel of the multi-word prime fields' batches of independent products
/// (`mul_assign_slices`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchBackend {
    /// AVX-512 IFMA, eight products per instruction sequence (radix `2^52`).
    Ifma,
    /// One product at a time on the scalar kernel ([`MulBackend`]).
    Scalar,
}

impl BatchBackend {
    /// The batch kernel this CPU runs: [`BatchBackend::Ifma`] where AVX-512 IFMA was detected
    /// and [`SIMD_ENV`] does not switch it off.
    #[inline]
    pub fn detect() -> Self {
        if features().avx512ifma {
            Self::Ifma
        } else {
            Self::Scalar
        }
    }
}

/// Whether `value` of [`SIMD_ENV`] asks for the portable paths.
pub fn forces_portable(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "off" | "portable" | "none" | "0" | "false"
    )
}

#[cold]
fn detect_features() -> CpuFeatures {
    let forced = std::env::var(SIMD_ENV).is_ok_and(|v| forces_portable(&v));
    let none = CpuFeatures {
        avx2: false,
        avx512f: false,
        avx512ifma: false,
        bmi2_adx: false,
        forced_portable: forced,
    };
    if forced {
        return none;
    }
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let avx512f = has!("avx512f");
        CpuFeatures {
            avx2: has!("avx2"),
            avx512f,
            // Every CPU with IFMA has AVX-512VL; the token promises both.
            avx512ifma: avx512f && has!("avx512ifma") && has!("avx512vl"),
            bmi2_adx: has!("bmi2") && has!("adx"),
            forced_portable: false,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    none
}

/// A token type: a unit struct only `detect` builds, `Some` when the feature is usable.
macro_rules! cpu_token {
    ($(#[$doc:meta])* $name:ident, $what:literal, $field:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy)]
        pub struct $name(());

        impl $name {
            #[doc = concat!("`Some` when the CPU supports ", $what, " and [`SIMD_ENV`] does not switch it off.")]
            #[inline]
            pub fn detect() -> Option<Self> {
                features().$field.then_some(Self(()))
            }
        }
    };
}

cpu_token!(
    /// Proof that the running CPU has AVX2. Obtain it with [`Avx2::detect`].
    Avx2,
    "AVX2",
    avx2
);

cpu_token!(
    /// Proof that the running CPU has AVX-512F. Obtain it with [`Avx512::detect`].
    Avx512,
    "AVX-512F",
    avx512f
);

cpu_token!(
    /// Proof that the running CPU has AVX-512F, AVX-512VL (the 256-bit forms) and AVX-512 IFMA
    /// (52-bit multiply-add). Obtain it with [`Avx512Ifma::detect`].
    Avx512Ifma,
    "AVX-512F, AVX-512VL and AVX-512 IFMA",
    avx512ifma
);

cpu_token!(
    /// Proof that the running CPU has BMI2 and ADX (`mulx`, `adcx`, `adox`), the scalar
    /// multiprecision kernels' instructions. Obtain it with [`Bmi2Adx::detect`].
    Bmi2Adx,
    "BMI2 and ADX",
    bmi2_adx
);

impl Avx512Ifma {
    /// The AVX-512F token this one implies.
    #[inline(always)]
    pub fn avx512(self) -> Avx512 {
        Avx512(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_switch_values() {
        for v in ["off", "OFF", " portable ", "none", "0", "false"] {
            assert!(forces_portable(v), "{v:?}");
        }
        for v in ["", "on", "1", "avx2", "auto"] {
            assert!(!forces_portable(v), "{v:?}");
        }
    }

    #[test]
    fn detection_follows_the_switch_and_the_cpu() {
        let f = features();
        let forced = std::env::var(SIMD_ENV).is_ok_and(|v| forces_portable(&v));
        assert_eq!(f.forced_portable, forced);
        if forced {
            assert!(!f.avx2 && !f.avx512f && !f.avx512ifma && !f.bmi2_adx);
            assert!(Avx2::detect().is_none() && Bmi2Adx::detect().is_none());
        }
        #[cfg(target_arch = "x86_64")]
        if !forced {
            assert_eq!(f.avx2, std::arch::is_x86_feature_detected!("avx2"));
            assert_eq!(f.avx512f, std::arch::is_x86_feature_detected!("avx512f"));
            assert_eq!(
                f.bmi2_adx,
                std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("adx")
            );
        }
        // IFMA implies AVX-512F (and, on x86-64, VL).
        assert!(!f.avx512ifma || f.avx512f);
        #[cfg(target_arch = "x86_64")]
        assert!(!f.avx512ifma || std::arch::is_x86_feature_detected!("avx512vl"));
    }
}
