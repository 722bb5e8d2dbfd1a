//! The hot paths: modular addition, subtraction and the Montgomery product, with the product's
//! kernel chosen at run time.

use core::sync::atomic::{AtomicU8, Ordering};

use zkaccel_field::limbs::{adc, mac, sbb, select_words};
use zkaccel_field::modmul::U256;

pub use zkaccel_field::cpu::{BatchBackend, MulBackend};

/// Cached answer of CPU feature detection for the scalar product (one relaxed load per
/// product on the hot path).
const UNKNOWN: u8 = 0;
const PORTABLE: u8 = 1;
const ADX: u8 = 2;
static BACKEND: AtomicU8 = AtomicU8::new(UNKNOWN);

#[cold]
fn detect() -> u8 {
    let found = if zkaccel_field::cpu::features().bmi2_adx {
        ADX
    } else {
        PORTABLE
    };
    BACKEND.store(found, Ordering::Relaxed);
    found
}

#[inline(always)]
fn backend_code() -> u8 {
    match BACKEND.load(Ordering::Relaxed) {
        UNKNOWN => detect(),
        b => b,
    }
}

/// The kernel [`mont_mul`] uses on this CPU.
pub(crate) fn backend() -> MulBackend {
    if backend_code() == ADX {
        MulBackend::Adx
    } else {
        MulBackend::Portable
    }
}

/// `a·b·2^{-256} mod p`, on the fastest kernel this CPU has.
#[inline(always)]
pub(crate) fn mont_mul(a: &U256, b: &U256, p: &U256, inv: u64) -> U256 {
    #[cfg(target_arch = "x86_64")]
    if backend_code() == ADX {
        // SAFETY: ADX is only reported after BMI2 and ADX were detected (or enabled at compile
        // time).
        return unsafe { crate::asm::mont_mul_adx(a, b, p, inv) };
    }
    mont_mul_portable(a, b, p, inv)
}

/// `a·b·2^{-256} + j·p` for `j ∈ {0, 1}` (no final subtraction; see [`mont_mul_unreduced`]), on
/// the fastest kernel this CPU has.
#[inline(always)]
pub(crate) fn mont_mul_lazy(a: &U256, b: &U256, p: &U256, inv: u64) -> U256 {
    mont_mul_lazy_using(MulBackend::Adx, a, b, p, inv)
}

/// [`mont_mul_lazy`] on a chosen kernel; one the CPU lacks falls back to the portable code.
#[inline(always)]
pub(crate) fn mont_mul_lazy_using(
    backend: MulBackend,
    a: &U256,
    b: &U256,
    p: &U256,
    inv: u64,
) -> U256 {
    #[cfg(target_arch = "x86_64")]
    if backend == MulBackend::Adx && backend_code() == ADX {
        // SAFETY: as in `mont_mul`.
        return unsafe { crate::asm::mont_mul_lazy_adx(a, b, p, inv) };
    }
    let _ = backend;
    mont_mul_unreduced(a, b, p, inv)
}

/// `a²` as [`mont_mul_lazy`]`(a, a)` gives it (the same representation: the lazy result is
/// unique), on the assembly squaring kernel where the CPU has it, else `None`. The modulus
/// must satisfy `5p < 2^256` (`LazyFp256` checks).
#[inline(always)]
pub(crate) fn mont_square_lazy_adx(a: &U256, p: &U256, inv: u64) -> Option<U256> {
    #[cfg(target_arch = "x86_64")]
    if backend_code() == ADX {
        // SAFETY: as in `mont_mul`.
        return Some(unsafe { crate::asm::mont_square_lazy_adx(a, p, inv) });
    }
    let _ = (a, p, inv);
    None
}

/// `(a·c, c²)` as [`mont_mul_lazy`] gives them, on the assembly product-and-square kernel
/// where the CPU has it, else `None`. The modulus must satisfy `5p < 2^256`.
#[inline(always)]
pub(crate) fn mont_product_and_square_lazy_adx(
    a: &U256,
    c: &U256,
    p: &U256,
    inv: u64,
) -> Option<(U256, U256)> {
    #[cfg(target_arch = "x86_64")]
    if backend_code() == ADX {
        // SAFETY: as in `mont_mul`.
        return Some(unsafe { crate::asm::mont_product_and_square_lazy_adx(a, c, p, inv) });
    }
    let _ = (a, c, p, inv);
    None
}

/// `(a·c, b·c)` as two [`mont_mul_lazy`] products, interleaved on the assembly kernel.
#[inline(always)]
pub(crate) fn mont_mul_pair_lazy(a: &U256, b: &U256, c: &U256, p: &U256, inv: u64) -> (U256, U256) {
    #[cfg(target_arch = "x86_64")]
    if backend_code() == ADX {
        let w = [
            a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], c[0], c[1], c[2], c[3], p[0], p[1],
            p[2], p[3], inv,
        ];
        // SAFETY: as in `mont_mul`.
        return unsafe { crate::asm::mont_mul_pair_lazy_adx(&w) };
    }
    (
        mont_mul_unreduced(a, c, p, inv),
        mont_mul_unreduced(b, c, p, inv),
    )
}

/// [`mont_mul`] on a chosen kernel; one the CPU lacks falls back to the portable code.
#[inline]
pub(crate) fn mont_mul_using(backend: MulBackend, a: &U256, b: &U256, p: &U256, inv: u64) -> U256 {
    #[cfg(target_arch = "x86_64")]
    if backend == MulBackend::Adx && backend_code() == ADX {
        // SAFETY: as in `mont_mul`.
        return unsafe { crate::asm::mont_mul_adx(a, b, p, inv) };
    }
    let _ = backend;
    mont_mul_portable(a, b, p, inv)
}

/// CIOS with the "no-carry" shortcut (valid when `p[3] < 2^63 − 1`): the accumulator needs no
/// fifth word because `t + a·b_i + m·p` never carries out of the top limb.
#[inline(always)]
pub(crate) fn mont_mul_portable(a: &U256, b: &U256, p: &U256, inv: u64) -> U256 {
    reduce_once(mont_mul_unreduced(a, b, p, inv), p)
}

/// The CIOS loop without its final subtraction: `a·b·2^{-256} + j·p` for `j ∈ {0, 1}`, below
/// `a·b/2^256 + p`. For `a, b < 2p` with `4p < 2^256` that is below `2p`, and every
/// intermediate stays below `3p + 2^64 < 2^256`, so the no-carry shortcut still holds.
#[inline(always)]
pub(crate) fn mont_mul_unreduced(a: &U256, b: &U256, p: &U256, inv: u64) -> U256 {
    let mut t = [0u64; 4];
    for &bi in b.iter() {
        let (t0, mut carry_a) = mac(t[0], a[0], bi, 0);
        let m = t0.wrapping_mul(inv);
        let (_, mut carry_m) = mac(t0, m, p[0], 0);
        for j in 1..4 {
            let (tj, ca) = mac(t[j], a[j], bi, carry_a);
            carry_a = ca;
            let (tj, cm) = mac(tj, m, p[j], carry_m);
            carry_m = cm;
            t[j - 1] = tj;
        }
        t[3] = carry_a + carry_m;
    }
    t
}

/// `a + b mod 2^256` and the carry out (0 or 1): one carry chain over the four words.
#[inline(always)]
pub(crate) fn add_words(a: &U256, b: &U256) -> (U256, u64) {
    let (s0, c) = adc(a[0], b[0], 0);
    let (s1, c) = adc(a[1], b[1], c);
    let (s2, c) = adc(a[2], b[2], c);
    let (s3, c) = adc(a[3], b[3], c);
    ([s0, s1, s2, s3], c)
}

/// `a − b mod 2^256` and the borrow out (0 or 1): one borrow chain over the four words.
#[inline(always)]
pub(crate) fn sub_words(a: &U256, b: &U256) -> (U256, u64) {
    let (d0, br) = sbb(a[0], b[0], 0);
    let (d1, br) = sbb(a[1], b[1], br);
    let (d2, br) = sbb(a[2], b[2], br);
    let (d3, br) = sbb(a[3], b[3], br);
    ([d0, d1, d2, d3], br)
}

/// `t − p` if `t ≥ p`, else `t`; for `t < 2p` this is `t mod p`, and for `t < 3p` it is below
/// `2p`.
#[inline(always)]
pub(crate) fn reduce_once(t: U256, p: &U256) -> U256 {
    let (d, borrow) = sub_words(&t, p);
    // Whether `t ≥ p` depends on the data: a branch would be mispredicted about as often as
    // not in a chain of random values, so select without one.
    select_words(borrow == 0, d, t)
}

/// `(a + b) mod p` for `a, b < p < 2^255`.
#[inline(always)]
pub(crate) fn add_mod(a: &U256, b: &U256, p: &U256) -> U256 {
    reduce_once(add_words(a, b).0, p)
}

/// `(a − b) mod p` for `a, b < p`.
#[inline(always)]
pub(crate) fn sub_mod(a: &U256, b: &U256, p: &U256) -> U256 {
    let (d, borrow) = sub_words(a, b);
    // On a borrow add p back (masked, branch-free).
    let mask = 0u64.wrapping_sub(borrow);
    add_words(&d, &p.map(|w| w & mask)).0
}

/// `−a mod p` for `a < p`.
#[inline(always)]
pub(crate) fn neg_mod(a: &U256, p: &U256) -> U256 {
    if a == &[0; 4] {
        *a
    } else {
        sub_words(p, a).0
    }
}
