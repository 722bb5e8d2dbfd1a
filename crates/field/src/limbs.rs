//! Little-endian multi-precision helpers on `u64` limbs.
//!
//! These are the plain integer operations the field encodings and the modular-multiplication
//! reference algorithms are built from. They work on slices so that every field size shares
//! them; the hot paths of the concrete fields use their own fixed-size code.

use core::cmp::Ordering;

use crate::error::{excerpt, FieldError};

/// Adds with carry: returns `a + b + carry` as (low word, carry out).
#[inline(always)]
pub const fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + b as u128 + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// Subtracts with borrow: returns `a - b - borrow` as (low word, borrow out in {0, 1}).
#[inline(always)]
pub const fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let t = (a as u128).wrapping_sub(b as u128 + borrow as u128);
    (t as u64, ((t >> 64) as u64) & 1)
}

/// `a` where `condition` holds, else `b`, through a mask and no branch: for choices that depend
/// on the data (is a sum at least `p`?), where a branch would be mispredicted about half the
/// time. Not `core::hint::select_unpredictable` on the arrays, nor on each word: the compiler
/// turned both into stores of the two candidates and one wide load of the chosen one, which
/// stalls on store forwarding when the words were just written one by one.
#[inline(always)]
pub fn select_words<const N: usize>(condition: bool, a: [u64; N], b: [u64; N]) -> [u64; N] {
    let mask = 0u64.wrapping_sub(u64::from(condition));
    core::array::from_fn(|i| b[i] ^ ((a[i] ^ b[i]) & mask))
}

/// Multiply-accumulate: returns `a + b * c + carry` as (low word, high word). Never overflows.
#[inline(always)]
pub const fn mac(a: u64, b: u64, c: u64, carry: u64) -> (u64, u64) {
    let t = a as u128 + (b as u128) * (c as u128) + carry as u128;
    (t as u64, (t >> 64) as u64)
}

/// Compares two equally long little-endian numbers.
pub fn cmp(a: &[u64], b: &[u64]) -> Ordering {
    debug_assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().rev().zip(b.iter().rev()) {
        match x.cmp(y) {
            Ordering::Equal => continue,
            other => return other,
        }
    }
    Ordering::Equal
}

/// Compares a little-endian number of any length with another, ignoring leading zero limbs.
pub fn cmp_padded(a: &[u64], b: &[u64]) -> Ordering {
    let n = a.len().max(b.len());
    for i in (0..n).rev() {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        match x.cmp(&y) {
            Ordering::Equal => continue,
            other => return other,
        }
    }
    Ordering::Equal
}

/// `a += b` over `a.len()` limbs (`b` zero-extended); returns the carry out.
pub fn add_assign(a: &mut [u64], b: &[u64]) -> u64 {
    let mut carry = 0;
    for (i, x) in a.iter_mut().enumerate() {
        let (s, c) = adc(*x, b.get(i).copied().unwrap_or(0), carry);
        *x = s;
        carry = c;
    }
    carry
}

/// `a -= b` over `a.len()` limbs (`b` zero-extended); returns the borrow out.
pub fn sub_assign(a: &mut [u64], b: &[u64]) -> u64 {
    let mut borrow = 0;
    for (i, x) in a.iter_mut().enumerate() {
        let (d, br) = sbb(*x, b.get(i).copied().unwrap_or(0), borrow);
        *x = d;
        borrow = br;
    }
    borrow
}

/// Whether every limb is zero.
pub fn is_zero(a: &[u64]) -> bool {
    a.iter().all(|&x| x == 0)
}

/// Number of significant bits.
pub fn bit_len(a: &[u64]) -> u32 {
    for (i, &x) in a.iter().enumerate().rev() {
        if x != 0 {
            return 64 * i as u32 + (64 - x.leading_zeros());
        }
    }
    0
}

/// Bit `i` (0 = least significant); bits past the end read as zero.
pub fn bit(a: &[u64], i: usize) -> bool {
    a.get(i / 64).is_some_and(|w| (w >> (i % 64)) & 1 == 1)
}

/// `a >>= shift` in place.
pub fn shr_assign(a: &mut [u64], shift: u32) {
    let words = (shift / 64) as usize;
    let bits = shift % 64;
    let n = a.len();
    for i in 0..n {
        let lo = a.get(i + words).copied().unwrap_or(0);
        let hi = a.get(i + words + 1).copied().unwrap_or(0);
        a[i] = if bits == 0 {
            lo
        } else {
            (lo >> bits) | (hi << (64 - bits))
        };
    }
}

/// `a <<= shift` in place (bits shifted out of the top are lost).
pub fn shl_assign(a: &mut [u64], shift: u32) {
    let words = (shift / 64) as usize;
    let bits = shift % 64;
    let n = a.len();
    for i in (0..n).rev() {
        let lo = if i >= words { a[i - words] } else { 0 };
        let lower = if i > words { a[i - words - 1] } else { 0 };
        a[i] = if bits == 0 {
            lo
        } else {
            (lo << bits) | (lower >> (64 - bits))
        };
    }
}

/// Keeps the low `bits` bits of `a`.
pub fn truncate_bits(a: &mut [u64], bits: u32) {
    for (i, x) in a.iter_mut().enumerate() {
        let start = 64 * i as u32;
        if start >= bits {
            *x = 0;
        } else if bits - start < 64 {
            *x &= (1u64 << (bits - start)) - 1;
        }
    }
}

/// Schoolbook product: `out = a * b`, with `out.len() >= a.len() + b.len()`.
pub fn mul_into(a: &[u64], b: &[u64], out: &mut [u64]) {
    assert!(out.len() >= a.len() + b.len(), "product buffer too short");
    out.fill(0);
    for (i, &x) in a.iter().enumerate() {
        let mut carry = 0;
        for (j, &y) in b.iter().enumerate() {
            let (lo, hi) = mac(out[i + j], x, y, carry);
            out[i + j] = lo;
            carry = hi;
        }
        out[i + b.len()] = carry;
    }
}

/// `a = a * m + add` for small `m`; returns the word that overflowed the top.
pub fn mul_small_add(a: &mut [u64], m: u64, add: u64) -> u64 {
    let mut carry = add;
    for x in a.iter_mut() {
        let (lo, hi) = mac(carry, *x, m, 0);
        *x = lo;
        carry = hi;
    }
    carry
}

/// `a /= d` for a non-zero word `d`; returns the remainder.
pub fn div_small(a: &mut [u64], d: u64) -> u64 {
    assert!(d != 0, "division by zero");
    let mut rem: u128 = 0;
    for x in a.iter_mut().rev() {
        let cur = (rem << 64) | *x as u128;
        *x = (cur / d as u128) as u64;
        rem = cur % d as u128;
    }
    rem as u64
}

/// `a mod m` for arbitrary-length `a` (slow; for reduction of external inputs and for deriving
/// constants, not for hot paths). `m` must be non-zero.
pub fn rem(a: &[u64], m: &[u64]) -> Vec<u64> {
    div_rem(a, m).1
}

/// `(a / m, a mod m)` by binary long division; the quotient has `a.len()` limbs and the
/// remainder `m.len()`. `m` must be non-zero.
pub fn div_rem(a: &[u64], m: &[u64]) -> (Vec<u64>, Vec<u64>) {
    assert!(!is_zero(m), "modulus is zero");
    let n = m.len();
    let mut q = vec![0u64; a.len()];
    let mut r = vec![0u64; n + 1];
    let mut mm = m.to_vec();
    mm.push(0);
    for i in (0..bit_len(a) as usize).rev() {
        shl_assign(&mut r, 1);
        if bit(a, i) {
            r[0] |= 1;
        }
        if cmp(&r, &mm) != Ordering::Less {
            sub_assign(&mut r, &mm);
            q[i / 64] |= 1 << (i % 64);
        }
    }
    r.truncate(n);
    (q, r)
}

/// Formats a little-endian number in decimal.
pub fn to_decimal(a: &[u64]) -> String {
    let mut x = a.to_vec();
    if is_zero(&x) {
        return "0".to_owned();
    }
    let mut chunks = Vec::new();
    const TEN19: u64 = 10_000_000_000_000_000_000;
    while !is_zero(&x) {
        chunks.push(div_small(&mut x, TEN19));
    }
    let mut s = chunks.pop().map(|c| c.to_string()).unwrap_or_default();
    for c in chunks.iter().rev() {
        s.push_str(&format!("{c:019}"));
    }
    s
}

/// Formats a little-endian number as `0x`-prefixed lower-case hexadecimal, zero-padded to
/// `hex_digits` digits.
pub fn to_hex(a: &[u64], hex_digits: usize) -> String {
    let mut s = String::with_capacity(hex_digits + 2);
    s.push_str("0x");
    let mut body = String::new();
    for w in a.iter().rev() {
        body.push_str(&format!("{w:016x}"));
    }
    let trimmed = body.trim_start_matches('0');
    let width = hex_digits.max(trimmed.len()).max(1);
    for _ in trimmed.len()..width {
        s.push('0');
    }
    s.push_str(trimmed);
    s
}

/// Parses a decimal string or a `0x`/`0X`-prefixed hexadecimal string into `n` limbs.
///
/// Leading and trailing ASCII whitespace is ignored; underscores are not accepted.
///
/// # Errors
/// [`FieldError::Malformed`] when the string is empty, has a character that is not a digit of
/// its base, or does not fit in `n` limbs.
pub fn parse(s: &str, n: usize) -> Result<Vec<u64>, FieldError> {
    let malformed = |reason| FieldError::Malformed {
        input: excerpt(s),
        reason,
    };
    let t = s.trim();
    let (digits, radix) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(rest) => (rest, 16u64),
        None => (t, 10u64),
    };
    if digits.is_empty() {
        return Err(malformed("no digits"));
    }
    let mut out = vec![0u64; n];
    for c in digits.chars() {
        let d = c.to_digit(radix as u32).ok_or_else(|| {
            if radix == 16 {
                malformed("not a hexadecimal digit")
            } else {
                malformed("not a decimal digit (hexadecimal needs a 0x prefix)")
            }
        })?;
        if mul_small_add(&mut out, radix, d as u64) != 0 {
            return Err(malformed("number too large for the field's encoding"));
        }
    }
    Ok(out)
}

/// Walks a decimal or `0x`-hexadecimal string (trimmed) in chunks of at most 19 decimal or 16
/// hexadecimal digits, most significant first: `chunk(radix, digits, value)` for each, where
/// `value < radix^digits ≤ 2^64`. Linear in the length of the string.
///
/// # Errors
/// [`FieldError::Malformed`] for an empty string or a character that is not a digit.
pub fn parse_chunks(s: &str, mut chunk: impl FnMut(u64, u32, u64)) -> Result<(), FieldError> {
    let malformed = |reason| FieldError::Malformed {
        input: excerpt(s),
        reason,
    };
    let t = s.trim();
    let (digits, radix, per_chunk) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(rest) => (rest, 16u64, 16usize),
        None => (t, 10u64, 19usize),
    };
    if digits.is_empty() {
        return Err(malformed("no digits"));
    }
    // Chunks aligned at the end, so that all but the first are full (one scale for them).
    let bytes = digits.as_bytes();
    let first = match bytes.len() % per_chunk {
        0 => per_chunk,
        r => r,
    };
    let mut start = 0;
    let mut end = first.min(bytes.len());
    while start < bytes.len() {
        let mut value = 0u64;
        for &b in &bytes[start..end] {
            let d = (b as char).to_digit(radix as u32).ok_or_else(|| {
                if radix == 16 {
                    malformed("not a hexadecimal digit")
                } else {
                    malformed("not a decimal digit (hexadecimal needs a 0x prefix)")
                }
            })?;
            value = value * radix + u64::from(d);
        }
        chunk(radix, (end - start) as u32, value);
        start = end;
        end = (end + per_chunk).min(bytes.len());
    }
    Ok(())
}

/// Reads little-endian bytes into limbs (any length; extra limbs are zero).
pub fn from_bytes_le(bytes: &[u8], n: usize) -> Vec<u64> {
    let mut out = vec![0u64; n.max(bytes.len().div_ceil(8))];
    for (i, &b) in bytes.iter().enumerate() {
        out[i / 8] |= (b as u64) << (8 * (i % 8));
    }
    out
}

/// Writes limbs as little-endian bytes into `out` (truncating or zero-filling to its length).
pub fn to_bytes_le(a: &[u64], out: &mut [u8]) {
    for (i, b) in out.iter_mut().enumerate() {
        *b = a.get(i / 8).map_or(0, |w| (w >> (8 * (i % 8))) as u8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;
    use proptest::prelude::*;

    fn big(a: &[u64]) -> BigUint {
        let mut bytes = vec![0u8; 8 * a.len()];
        to_bytes_le(a, &mut bytes);
        BigUint::from_bytes_le(&bytes)
    }

    proptest! {
        #[test]
        fn select_words_picks_by_condition(a in prop::array::uniform4(any::<u64>()),
                                           b in prop::array::uniform4(any::<u64>())) {
            prop_assert_eq!(select_words(true, a, b), a);
            prop_assert_eq!(select_words(false, a, b), b);
        }

        #[test]
        fn decimal_and_hex_round_trip(a in prop::array::uniform4(any::<u64>())) {
            let dec = to_decimal(&a);
            prop_assert_eq!(&dec, &big(&a).to_string());
            prop_assert_eq!(parse(&dec, 4).unwrap(), a.to_vec());
            let hex = to_hex(&a, 64);
            prop_assert_eq!(parse(&hex, 4).unwrap(), a.to_vec());
        }

        #[test]
        fn mul_and_rem_match_bigint(a in prop::array::uniform4(any::<u64>()),
                                    b in prop::array::uniform4(any::<u64>()),
                                    m in prop::array::uniform3(any::<u64>())) {
            prop_assume!(!is_zero(&m));
            let mut p = [0u64; 8];
            mul_into(&a, &b, &mut p);
            prop_assert_eq!(big(&p), big(&a) * big(&b));
            let (q, r) = div_rem(&p, &m);
            prop_assert_eq!(big(&r), big(&p) % big(&m));
            prop_assert_eq!(big(&q), big(&p) / big(&m));
        }

        #[test]
        fn shifts_match_bigint(a in prop::array::uniform4(any::<u64>()), s in 0u32..256) {
            let mut r = a;
            shr_assign(&mut r, s);
            prop_assert_eq!(big(&r), big(&a) >> s);
            let mut l = a;
            shl_assign(&mut l, s);
            let mask = (BigUint::from(1u8) << 256u32) - 1u8;
            prop_assert_eq!(big(&l), (big(&a) << s) & mask);
        }
    }

    #[test]
    fn parse_rejects_garbage() {
        assert!(parse("", 4).is_err());
        assert!(parse("0x", 4).is_err());
        assert!(parse("12a", 4).is_err());
        assert!(parse("0xzz", 4).is_err());
        assert!(parse("-1", 4).is_err());
        // 2^64 does not fit in one limb.
        assert!(parse("18446744073709551616", 1).is_err());
        assert_eq!(parse("18446744073709551615", 1).unwrap(), vec![u64::MAX]);
    }
}
