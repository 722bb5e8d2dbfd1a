//! Generic algorithms over any [`Field`]: batch inversion and Tonelli–Shanks square roots.

use crate::error::FieldError;
use crate::limbs;
use crate::traits::Field;

/// Inverts every element with one field inversion and `3(n-1)` multiplications
/// (Montgomery's trick).
///
/// # Errors
/// [`FieldError::ZeroInBatch`] naming the first zero element; nothing is returned then.
pub fn batch_inverse<F: Field>(elems: &[F]) -> Result<Vec<F>, FieldError> {
    let mut out = elems.to_vec();
    batch_inverse_in_place(&mut out)?;
    Ok(out)
}

/// In-place form of [`batch_inverse`]. On error the slice is left unchanged.
///
/// # Errors
/// [`FieldError::ZeroInBatch`] naming the first zero element.
pub fn batch_inverse_in_place<F: Field>(elems: &mut [F]) -> Result<(), FieldError> {
    if let Some(index) = elems.iter().position(F::is_zero) {
        return Err(FieldError::ZeroInBatch { index });
    }
    if elems.is_empty() {
        return Ok(());
    }
    // prefix[i] = elems[0] * ... * elems[i]
    let mut prefix = Vec::with_capacity(elems.len());
    let mut acc = F::ONE;
    for &e in elems.iter() {
        acc *= e;
        prefix.push(acc);
    }
    let mut inv = acc
        .try_inverse()
        .ok_or(FieldError::ZeroInBatch { index: 0 })?;
    for i in (1..elems.len()).rev() {
        let e = elems[i];
        elems[i] = inv * prefix[i - 1];
        inv *= e;
    }
    elems[0] = inv;
    Ok(())
}

/// Tonelli–Shanks square root in a field whose multiplicative group has order `2^s * q`, `q`
/// odd, given `root` of order exactly `2^s` (for example the field's two-adic generator, which
/// is a non-residue).
///
/// Returns `None` for non-squares.
pub fn tonelli_shanks<F: Field>(x: &F, s: usize, q: &[u64], root: F) -> Option<F> {
    if x.is_zero() {
        return Some(F::ZERO);
    }
    // (q + 1) / 2
    let mut q_plus_1_half = q.to_vec();
    q_plus_1_half.push(0);
    limbs::add_assign(&mut q_plus_1_half, &[1]);
    limbs::shr_assign(&mut q_plus_1_half, 1);

    let mut m = s;
    let mut c = root;
    let mut t = x.exp_limbs(q);
    let mut r = x.exp_limbs(&q_plus_1_half);
    while t != F::ONE {
        // Find the least i with t^(2^i) = 1.
        let mut i = 0;
        let mut t2 = t;
        while t2 != F::ONE {
            t2 = t2.square();
            i += 1;
            if i == m {
                return None;
            }
        }
        let b = c.exp_power_of_2(m - i - 1);
        m = i;
        c = b.square();
        t *= c;
        r *= b;
    }
    Some(r)
}

/// Splits `order = 2^s * q` with `q` odd; returns `(s, q)`.
pub fn split_two_adic(order: &[u64]) -> (usize, Vec<u64>) {
    let mut q = order.to_vec();
    let mut s = 0;
    while !limbs::is_zero(&q) && !limbs::bit(&q, 0) {
        limbs::shr_assign(&mut q, 1);
        s += 1;
    }
    (s, q)
}

/// `a[i] ← a[i]·b[i]` over two equally long slices: each whole group of eight through
/// `eight` (a SIMD kernel on eight elements, e.g. IFMA lanes), the rest one product at a time.
///
/// # Panics
/// Panics when the slices differ in length, before any element is written.
#[inline]
pub fn mul_slices_by_eights<F: Field>(a: &mut [F], b: &[F], mut eight: impl FnMut(&mut [F], &[F])) {
    assert_eq!(a.len(), b.len(), "slices must have equal length");
    let mut chunks_a = a.chunks_exact_mut(8);
    let mut chunks_b = b.chunks_exact(8);
    for (x, y) in (&mut chunks_a).zip(&mut chunks_b) {
        eight(x, y);
    }
    for (x, y) in chunks_a
        .into_remainder()
        .iter_mut()
        .zip(chunks_b.remainder())
    {
        *x *= *y;
    }
}
