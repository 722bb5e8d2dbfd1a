//! The reference's security checks on an MDS candidate: the three `algorithm_*` functions of
//! `generate_parameters_grain.sage` (Grassi, Rechberger, Schofnegger, "Proving resistance
//! against infinitely long subspace trails", ePrint 2020/500), for one partial-round S-box on
//! lane 0 (`s = 1`).
//!
//! With `s = 1` the three algorithms reduce to:
//! 1. for `i = 1 … t−1`, with `A = M^i` and `S_i = {x : x₀ = 0, (M^k x)₀ = 0 for k < i}`:
//!    `A` is not a multiple of the identity, no eigenvector of `A` with an eigenvalue in `F`
//!    lies in `S_i`, and `M^j S_i ≠ S_i` for `j = 1 … i`;
//! 2. `e₀` is a cyclic vector of `M` (its Krylov space is everything);
//! 3. `e₀` is a cyclic vector of `M^r` for `r = 2 … 4t`.
//!
//! The eigenvector test needs no root finding: an eigenvector in `S` spans an `A`-invariant
//! line inside `S`, so it exists exactly when the largest `A`-invariant subspace `W ⊆ S` has a
//! restriction `A|_W` whose characteristic polynomial has a root in `F`, i.e. shares a factor
//! with `X^p − X`.

use zkaccel_field::{Field, PrimeField};

use crate::matrix::Matrix;

/// Whether `m` passes the reference's three algorithms.
pub fn is_secure<F: PrimeField>(m: &Matrix<F>) -> bool {
    algorithm_1(m) && is_cyclic_e0(m) && algorithm_3(m)
}

fn algorithm_1<F: PrimeField>(m: &Matrix<F>) -> bool {
    let t = m.size();
    let mut power = m.clone(); // M^i
                               // Constraint rows of S_i: e₀ and the first rows of M^1 … M^{i−1}.
    let mut constraints: Vec<Vec<F>> = vec![unit(t, 0)];
    for i in 1..t {
        if i > 1 {
            power = power.mul(m);
        }
        let a = &power;
        let scalar = a.get(0, 0);
        if Matrix::from_fn(t, |r, c| if r == c { scalar } else { F::ZERO }) == *a {
            return false;
        }
        if has_eigenvector_in(a, &constraints) {
            return false;
        }
        // M^j S_i = S_i ⇔ M^j maps a basis of S_i into S_i (M is invertible).
        let basis = nullspace(&constraints, t);
        let mut mj = m.clone();
        for j in 1..=i {
            if j > 1 {
                mj = mj.mul(m);
            }
            let invariant = basis.iter().all(|b| satisfies(&constraints, &mj.apply(b)));
            if invariant {
                return false;
            }
        }
        // S_{i+1} adds the constraint (M^i x)₀ = 0.
        constraints.push(a.row(0).to_vec());
    }
    true
}

fn algorithm_3<F: PrimeField>(m: &Matrix<F>) -> bool {
    let t = m.size();
    let mut power = m.clone();
    for _ in 2..=4 * t {
        power = power.mul(m);
        if !is_cyclic_e0(&power) {
            return false;
        }
    }
    true
}

/// Algorithm 2 with `s = 1`: the Krylov space of `e₀` under `m` has full dimension.
fn is_cyclic_e0<F: Field>(m: &Matrix<F>) -> bool {
    let t = m.size();
    let mut v = unit(t, 0);
    let mut krylov = vec![v.clone()];
    for _ in 1..t {
        v = m.apply(&v);
        krylov.push(v.clone());
    }
    rank(&krylov, t) == t
}

/// Whether some eigenvector of `a` (eigenvalue in `F`) satisfies `constraints·x = 0`.
fn has_eigenvector_in<F: PrimeField>(a: &Matrix<F>, constraints: &[Vec<F>]) -> bool {
    let t = a.size();
    // Largest invariant subspace: W ← W ∩ A⁻¹W until stable, W = {x : C x = 0}.
    let mut c: Vec<Vec<F>> = constraints.to_vec();
    let mut current_rank = rank(&c, t);
    loop {
        let pulled: Vec<Vec<F>> = c.iter().map(|row| a.transpose().apply(row)).collect();
        c.extend(pulled);
        c = row_basis(&c, t);
        let r = c.len();
        if r == current_rank {
            break;
        }
        current_rank = r;
    }
    let basis = nullspace(&c, t);
    let d = basis.len();
    if d == 0 {
        return false;
    }
    // The matrix R of A|_W in this basis: A·B = B·R, solved by reducing [B | A·B].
    let images: Vec<Vec<F>> = basis.iter().map(|b| a.apply(b)).collect();
    let mut aug: Vec<Vec<F>> = (0..t)
        .map(|r| {
            basis
                .iter()
                .map(|b| b[r])
                .chain(images.iter().map(|im| im[r]))
                .collect()
        })
        .collect();
    rref(&mut aug, d);
    let restricted = Matrix::from_fn(d, |r, col| aug[r][d + col]);
    let chi = characteristic_polynomial(&restricted);
    has_root(&chi)
}

fn unit<F: Field>(t: usize, i: usize) -> Vec<F> {
    (0..t)
        .map(|k| if k == i { F::ONE } else { F::ZERO })
        .collect()
}

fn satisfies<F: Field>(constraints: &[Vec<F>], x: &[F]) -> bool {
    constraints.iter().all(|row| {
        row.iter()
            .zip(x)
            .fold(F::ZERO, |acc, (&a, &b)| acc + a * b)
            .is_zero()
    })
}

/// Reduces `rows` to reduced row echelon form over the first `pivot_cols` columns, dropping
/// zero rows; returns the pivot columns.
fn rref<F: Field>(rows: &mut Vec<Vec<F>>, pivot_cols: usize) -> Vec<usize> {
    let mut pivots = Vec::new();
    let mut r = 0;
    for col in 0..pivot_cols {
        let Some(p) = (r..rows.len()).find(|&i| !rows[i][col].is_zero()) else {
            continue;
        };
        rows.swap(r, p);
        let inv = rows[r][col].inverse();
        for v in rows[r].iter_mut() {
            *v *= inv;
        }
        let pivot_row = rows[r].clone();
        for (i, row) in rows.iter_mut().enumerate() {
            if i != r && !row[col].is_zero() {
                let f = row[col];
                for (v, &pv) in row.iter_mut().zip(&pivot_row) {
                    *v -= f * pv;
                }
            }
        }
        pivots.push(col);
        r += 1;
        if r == rows.len() {
            break;
        }
    }
    rows.truncate(r);
    pivots
}

fn row_basis<F: Field>(rows: &[Vec<F>], cols: usize) -> Vec<Vec<F>> {
    let mut r = rows.to_vec();
    rref(&mut r, cols);
    r
}

fn rank<F: Field>(rows: &[Vec<F>], cols: usize) -> usize {
    row_basis(rows, cols).len()
}

/// A basis of `{x : rows·x = 0}`.
fn nullspace<F: Field>(rows: &[Vec<F>], cols: usize) -> Vec<Vec<F>> {
    let mut r = rows.to_vec();
    let pivots = rref(&mut r, cols);
    (0..cols)
        .filter(|c| !pivots.contains(c))
        .map(|free| {
            let mut x = vec![F::ZERO; cols];
            x[free] = F::ONE;
            for (row, &p) in r.iter().zip(&pivots) {
                x[p] = -row[free];
            }
            x
        })
        .collect()
}

fn determinant<F: Field>(m: &Matrix<F>) -> F {
    let n = m.size();
    let mut a: Vec<Vec<F>> = (0..n).map(|r| m.row(r).to_vec()).collect();
    let mut det = F::ONE;
    for col in 0..n {
        let Some(p) = (col..n).find(|&i| !a[i][col].is_zero()) else {
            return F::ZERO;
        };
        if p != col {
            a.swap(p, col);
            det = -det;
        }
        det *= a[col][col];
        let inv = a[col][col].inverse();
        for r in col + 1..n {
            let f = a[r][col] * inv;
            if f.is_zero() {
                continue;
            }
            let (top, bottom) = a.split_at_mut(r);
            for (x, &v) in bottom[0][col..].iter_mut().zip(&top[col][col..]) {
                *x -= f * v;
            }
        }
    }
    det
}

/// `det(X·I − m)` (monic, low-order coefficient first), by evaluating at `X = 0 … n` and
/// interpolating (the field is larger than `n`).
fn characteristic_polynomial<F: Field>(m: &Matrix<F>) -> Vec<F> {
    let n = m.size();
    let xs: Vec<F> = (0..=n as u64).map(F::from_u64_reduced).collect();
    let ys: Vec<F> = xs
        .iter()
        .map(|&x| {
            determinant(&Matrix::from_fn(n, |r, c| {
                let d = if r == c { x } else { F::ZERO };
                d - m.get(r, c)
            }))
        })
        .collect();
    // Lagrange interpolation.
    let mut poly = vec![F::ZERO; n + 1];
    for (i, (&xi, &yi)) in xs.iter().zip(&ys).enumerate() {
        let mut basis = vec![F::ONE];
        let mut denom = F::ONE;
        for (j, &xj) in xs.iter().enumerate() {
            if i == j {
                continue;
            }
            basis = poly_mul(&basis, &[-xj, F::ONE]);
            denom *= xi - xj;
        }
        let scale = yi * denom.inverse();
        for (p, b) in poly.iter_mut().zip(basis) {
            *p += scale * b;
        }
    }
    poly
}

fn trim<F: Field>(mut p: Vec<F>) -> Vec<F> {
    while p.last().is_some_and(|c| c.is_zero()) {
        p.pop();
    }
    p
}

fn poly_mul<F: Field>(a: &[F], b: &[F]) -> Vec<F> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut out = vec![F::ZERO; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

/// `a mod m` for a nonzero `m`.
fn poly_rem<F: Field>(a: &[F], m: &[F]) -> Vec<F> {
    let mut r = trim(a.to_vec());
    let m = trim(m.to_vec());
    let lead_inv = m[m.len() - 1].inverse();
    while r.len() >= m.len() {
        let shift = r.len() - m.len();
        let f = r[r.len() - 1] * lead_inv;
        for (k, &c) in m.iter().enumerate() {
            r[shift + k] -= f * c;
        }
        r = trim(r);
    }
    r
}

fn poly_gcd<F: Field>(a: &[F], b: &[F]) -> Vec<F> {
    let (mut a, mut b) = (trim(a.to_vec()), trim(b.to_vec()));
    while !b.is_empty() {
        let r = poly_rem(&a, &b);
        a = b;
        b = r;
    }
    a
}

/// Whether the nonconstant polynomial `f` has a root in `F`: `gcd(X^p − X, f) ≠ 1`.
fn has_root<F: PrimeField>(f: &[F]) -> bool {
    let f = trim(f.to_vec());
    if f.len() <= 1 {
        return false;
    }
    // X^p mod f by square-and-multiply over the bits of p.
    let p = F::modulus();
    let p = p.as_ref();
    let bits = zkaccel_field::limbs::bit_len(p);
    let x = poly_rem(&[F::ZERO, F::ONE], &f);
    let mut acc = vec![F::ONE];
    for i in (0..bits as usize).rev() {
        acc = poly_rem(&poly_mul(&acc, &acc), &f);
        if zkaccel_field::limbs::bit(p, i) {
            acc = poly_rem(&poly_mul(&acc, &x), &f);
        }
    }
    // X^p − X
    let mut diff = acc;
    diff.resize(diff.len().max(2), F::ZERO);
    diff[1] -= F::ONE;
    poly_gcd(&diff, &f).len() > 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkaccel_bn254::Fr;

    fn fr(v: u64) -> Fr {
        Fr::from_u64_reduced(v)
    }

    #[test]
    fn root_detection() {
        // (X − 3)(X² + 1)... X² + 1 has roots in BN254 Fr (p ≡ 1 mod 4); X² − 5 does not
        // (5 is a non-residue: the multiplicative generator).
        assert!(has_root(&[fr(1), fr(0), fr(1)]));
        assert!(!has_root(&[-fr(5), fr(0), fr(1)]));
        assert!(has_root(&poly_mul(
            &[-fr(5), fr(0), fr(1)],
            &[-fr(3), fr(1)]
        )));
    }

    #[test]
    fn characteristic_polynomial_of_companion() {
        // Companion matrix of X³ − 2X² + 7X − 11.
        let m = Matrix::from_fn(3, |r, c| match (r, c) {
            (1, 0) | (2, 1) => fr(1),
            (0, 2) => fr(11),
            (1, 2) => -fr(7),
            (2, 2) => fr(2),
            _ => fr(0),
        });
        assert_eq!(
            characteristic_polynomial(&m),
            vec![-fr(11), fr(7), -fr(2), fr(1)]
        );
    }

    #[test]
    fn insecure_matrices_are_rejected() {
        // The identity and a diagonal matrix have invariant subspaces everywhere.
        assert!(!is_secure(&Matrix::<Fr>::identity(3)));
        let diag = Matrix::from_fn(3, |r, c| if r == c { fr(r as u64 + 2) } else { fr(0) });
        assert!(!is_secure(&diag));
        // Block-diagonal: lanes 1 and 2 never mix with lane 0.
        let block = Matrix::from_fn(3, |r, c| match (r, c) {
            (0, 0) => fr(2),
            (0, _) | (_, 0) => fr(0),
            _ => fr((r * 3 + c) as u64 + 1),
        });
        assert!(!is_secure(&block));
    }
}
