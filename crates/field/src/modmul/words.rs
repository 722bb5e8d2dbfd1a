//! Montgomery arithmetic over `N` 64-bit words for any odd modulus below `2^(64N)`, every
//! constant derived from the modulus in `const` context: the portable core of the fields wider
//! than 256 bits (`zkaccel-fp384`) and the reference for the multiplier RTL at `W = 64N`.
//!
//! The product is CIOS (Koç, Acar, Kaliski 1996): per word of `b`, `t ← t + a·b_i`, then
//! `m ← t_0·(−p^{-1}) mod 2^64` and `t ← (t + m·p)/2^64`, with `t` one word and a carry wider
//! than `a`; one conditional subtraction at the end brings `t < 2p` below `p`.

use crate::limbs::{adc, mac, sbb};

/// The constants of Montgomery arithmetic modulo an odd `N`-word `p` (`R = 2^(64N)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MontgomeryWords<const N: usize> {
    /// The modulus `p`, little-endian words.
    pub modulus: [u64; N],
    /// `−p^{-1} mod 2^64`, the per-word CIOS constant.
    pub inv: u64,
    /// `R mod p`, the Montgomery form of 1.
    pub r: [u64; N],
    /// `R^2 mod p`, used to enter Montgomery form.
    pub r2: [u64; N],
}

impl<const N: usize> MontgomeryWords<N> {
    /// Derives every constant from the modulus.
    ///
    /// # Panics
    /// For an even modulus or one below 3 (in a `const` context, compilation fails).
    pub const fn new(modulus: [u64; N]) -> Self {
        assert!(
            N > 0 && modulus[0] & 1 == 1,
            "Montgomery arithmetic needs an odd modulus"
        );
        assert!(!lt_small(&modulus, 3), "the modulus must be at least 3");
        // Newton iteration for p^{-1} mod 2^64: each step doubles the correct low bits.
        let mut inv = 1u64;
        let mut i = 0;
        while i < 6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(modulus[0].wrapping_mul(inv)));
            i += 1;
        }
        // R mod p and R^2 mod p by doubling 1 modulo p.
        let mut acc = [0u64; N];
        acc[0] = 1;
        let mut r = [0u64; N];
        let mut i = 0;
        while i < 128 * N {
            acc = double_mod(&acc, &modulus);
            i += 1;
            if i == 64 * N {
                r = acc;
            }
        }
        Self {
            modulus,
            inv: inv.wrapping_neg(),
            r,
            r2: acc,
        }
    }

    /// `P' = −p^{−1} mod R`, the full-width constant of the FPGA NTT paper's Algorithm 1 (the
    /// word-serial product needs only its low word, [`MontgomeryWords::inv`]): Newton's
    /// iteration `x ← x·(2 − p·x) mod R`, each step doubling the correct low bits.
    pub const fn neg_inverse(&self) -> [u64; N] {
        let mut x = [0u64; N];
        x[0] = 1;
        let mut two = [0u64; N];
        two[0] = 2;
        let mut correct_bits = 1;
        while correct_bits < 64 * N {
            let px = mul_low(&self.modulus, &x);
            x = mul_low(&x, &sub(&two, &px).0);
            correct_bits *= 2;
        }
        sub(&[0; N], &x).0
    }

    /// Whether the modulus leaves the top word's two highest bits clear (`p < 2^(64N − 2)`
    /// with room to spare: top word below `2^63 − 1`), so that [`MontgomeryWords::mul`] can
    /// run CIOS without the extra carry words (the "no-carry" CIOS of gnark and arkworks: every
    /// intermediate `t` then fits in `N` words). BLS12-377 Fq (377 bits) qualifies.
    pub const fn no_carry(&self) -> bool {
        self.modulus[N - 1] < (u64::MAX >> 1)
    }

    /// The Montgomery product `a·b·R^{-1} mod p` of `a, b < p`, below `p`.
    #[inline]
    pub const fn mul(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        if self.no_carry() {
            return self.mul_no_carry(a, b);
        }
        let p = &self.modulus;
        // t = (t_lo, t_hi, t_top): N words, then two more (t < 2p·2^64 throughout).
        let mut t = [0u64; N];
        let (mut t_hi, mut t_top) = (0u64, 0u64);
        let mut i = 0;
        while i < N {
            // t += a·b_i
            let mut carry = 0;
            let mut j = 0;
            while j < N {
                let (lo, hi) = mac(t[j], a[j], b[i], carry);
                t[j] = lo;
                carry = hi;
                j += 1;
            }
            let (s, c) = adc(t_hi, carry, 0);
            t_hi = s;
            t_top += c;
            // t = (t + m·p) / 2^64
            let m = t[0].wrapping_mul(self.inv);
            let (_, mut carry) = mac(t[0], m, p[0], 0);
            let mut j = 1;
            while j < N {
                let (lo, hi) = mac(t[j], m, p[j], carry);
                t[j - 1] = lo;
                carry = hi;
                j += 1;
            }
            let (s, c) = adc(t_hi, carry, 0);
            t[N - 1] = s;
            t_hi = t_top + c;
            t_top = 0;
            i += 1;
        }
        if t_hi != 0 || !lt(&t, p) {
            sub(&t, p).0
        } else {
            t
        }
    }

    /// CIOS for a modulus with [`MontgomeryWords::no_carry`]: per word of `b`, the product row
    /// and the reduction row run in one pass, each with its own carry, and the two carries
    /// meet in the top word (`t < 2p < 2^(64N − 1)` throughout, so nothing spills over).
    #[inline]
    const fn mul_no_carry(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        let p = &self.modulus;
        let mut t = [0u64; N];
        let mut i = 0;
        while i < N {
            let (t0, mut carry_ab) = mac(t[0], a[0], b[i], 0);
            let m = t0.wrapping_mul(self.inv);
            let (_, mut carry_mp) = mac(t0, m, p[0], 0);
            let mut j = 1;
            while j < N {
                let (tj, c) = mac(t[j], a[j], b[i], carry_ab);
                carry_ab = c;
                let (lo, c) = mac(tj, m, p[j], carry_mp);
                carry_mp = c;
                t[j - 1] = lo;
                j += 1;
            }
            t[N - 1] = carry_ab.wrapping_add(carry_mp);
            i += 1;
        }
        if lt(&t, p) {
            t
        } else {
            sub(&t, p).0
        }
    }

    /// Enters Montgomery form: `a·R mod p` for `a < p`.
    #[inline]
    pub const fn to_montgomery(&self, a: &[u64; N]) -> [u64; N] {
        self.mul(a, &self.r2)
    }

    /// Leaves Montgomery form: `a·R^{-1} mod p`.
    #[inline]
    pub const fn from_montgomery(&self, a: &[u64; N]) -> [u64; N] {
        let mut one = [0u64; N];
        one[0] = 1;
        self.mul(a, &one)
    }

    /// `a + b mod p` for `a, b < p`. Whether `a + b ≥ p` depends on the data, and a branch on
    /// it is mispredicted about half the time (an NTT's butterflies), so the result is
    /// selected through a mask. A carry out of the top word (a full-width modulus) means
    /// `a + b ≥ p` too.
    #[inline]
    pub const fn add(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        let (s, carry) = add(a, b);
        let (reduced, borrow) = sub(&s, &self.modulus);
        let mask = 0u64.wrapping_sub(carry | (borrow ^ 1));
        select(mask, &reduced, &s)
    }

    /// `a − b mod p` for `a, b < p`: on a borrow, `p` is added back through a mask, no branch.
    #[inline]
    pub const fn sub(&self, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        let (d, borrow) = sub(a, b);
        let mask = 0u64.wrapping_sub(borrow);
        let mut correction = [0u64; N];
        let mut i = 0;
        while i < N {
            correction[i] = self.modulus[i] & mask;
            i += 1;
        }
        add(&d, &correction).0
    }

    /// `−a mod p` for `a < p`.
    #[inline]
    pub const fn neg(&self, a: &[u64; N]) -> [u64; N] {
        self.sub(&[0; N], a)
    }
}

/// `a + b` and the carry out.
#[inline]
const fn add<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], u64) {
    let mut out = [0u64; N];
    let mut carry = 0;
    let mut i = 0;
    while i < N {
        let (s, c) = adc(a[i], b[i], carry);
        out[i] = s;
        carry = c;
        i += 1;
    }
    (out, carry)
}

/// `a − b` and the borrow out.
#[inline]
const fn sub<const N: usize>(a: &[u64; N], b: &[u64; N]) -> ([u64; N], u64) {
    let mut out = [0u64; N];
    let mut borrow = 0;
    let mut i = 0;
    while i < N {
        let (d, br) = sbb(a[i], b[i], borrow);
        out[i] = d;
        borrow = br;
        i += 1;
    }
    (out, borrow)
}

/// `a` where `mask` is all ones, `b` where it is zero: no branch (the masked form of
/// `limbs::select_words`, usable in `const` context).
#[inline]
const fn select<const N: usize>(mask: u64, a: &[u64; N], b: &[u64; N]) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = b[i] ^ ((a[i] ^ b[i]) & mask);
        i += 1;
    }
    out
}

/// `a·b mod 2^(64N)`.
const fn mul_low<const N: usize>(a: &[u64; N], b: &[u64; N]) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        let mut carry = 0;
        let mut j = 0;
        while i + j < N {
            let (lo, hi) = mac(out[i + j], a[j], b[i], carry);
            out[i + j] = lo;
            carry = hi;
            j += 1;
        }
        i += 1;
    }
    out
}

/// `a < b`.
#[inline]
const fn lt<const N: usize>(a: &[u64; N], b: &[u64; N]) -> bool {
    sub(a, b).1 != 0
}

/// `a < v` for a one-word `v`.
const fn lt_small<const N: usize>(a: &[u64; N], v: u64) -> bool {
    let mut i = 1;
    while i < N {
        if a[i] != 0 {
            return false;
        }
        i += 1;
    }
    a[0] < v
}

/// `2a mod p` for `a < p`.
const fn double_mod<const N: usize>(a: &[u64; N], p: &[u64; N]) -> [u64; N] {
    let (d, carry) = add(a, a);
    if carry != 0 || !lt(&d, p) {
        sub(&d, p).0
    } else {
        d
    }
}
