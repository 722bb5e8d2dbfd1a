//! Round numbers: the reference formula of the Poseidon paper (`calc_round_numbers.py`, 128-bit
//! security with its margin) and the older variant neptune (Filecoin) fixed its numbers with.

use crate::error::PoseidonError;

/// The security level every formula here targets, in bits.
pub const SECURITY_BITS: f64 = 128.0;

/// `(R_F, R_P)` from the reference formula for a field of `log2_p` bits (the real-valued
/// `log2 p`), width `t` and S-box `x^α`: brute force over `R_P ∈ 1..500` and even
/// `R_F ∈ 4..100`, keep the pairs that resist the statistical, interpolation and two Gröbner
/// attacks, add the margin (`R_F + 2`, `⌈1.075·R_P⌉`) and minimise the S-box count
/// `t·R_F + R_P` (ties to the smaller `R_F`).
///
/// The reference script then suggests rounding `R_P` up to a multiple of `t`; circomlib did,
/// neptune and plonky2 did not — see [`round_up_to_multiple`].
///
/// # Errors
/// [`PoseidonError::NoRoundNumbers`] when no pair in range is secure, or for `t < 2`,
/// `α < 3`.
pub fn reference_round_numbers(
    log2_p: f64,
    width: usize,
    alpha: u64,
) -> Result<(usize, usize), PoseidonError> {
    let none = PoseidonError::NoRoundNumbers { width, alpha };
    if width < 2 || alpha < 3 {
        return Err(none);
    }
    crate::limits::check("width", width, crate::limits::MAX_WIDTH)?;
    let m = SECURITY_BITS;
    let n = log2_p.ceil();
    let t = width as f64;
    let a = alpha as f64;
    // Python's `log(x, base)`.
    let log = |x: f64, base: f64| x.ln() / base.ln();
    let secure = |r_f: usize, r_p: usize| {
        let r_p = r_p as f64;
        let r1: f64 = if m <= (log2_p - (a - 1.0) / 2.0).floor() * (t + 1.0) {
            6.0
        } else {
            10.0
        };
        let r2 = 1.0 + (log(2.0, a) * m.min(n)).ceil() + log(t, a).ceil() - r_p;
        let r3 = 1.0 + log(2.0, a) * (m / 3.0).min(log2_p / 2.0) - r_p;
        let r4 = t - 1.0 + (log(2.0, a) * m / (t + 1.0)).min(log(2.0, a) * log2_p / 2.0) - r_p;
        let needed = r1.ceil().max(r2.ceil()).max(r3.ceil()).max(r4.ceil());
        r_f as f64 >= needed
    };
    minimise(
        width,
        (1..500).flat_map(|r_p| (4..100).step_by(2).map(move |r_f| (r_f, r_p))),
        secure,
    )
    .ok_or(none)
}

/// neptune's round numbers (its `round_numbers.rs`, a port of an older `calc_round_numbers.py`
/// for `x^5`): field size fixed to 256 bits, `R_F ∈ 2..1000` even, `R_P ∈ 4..200`, a pair secure
/// iff `R_F ≥ max(6 or 10, ⌈0.43·M + log2 t − R_P⌉, ⌈0.21·n − R_P⌉, ⌈(0.14·n − 1 − R_P)/(t − 1)⌉)`,
/// then the same margin and minimisation. Gives `R_P` 55, 56, 57, 57 for arity 2, 4, 8, 11.
///
/// # Errors
/// [`PoseidonError::NoRoundNumbers`] for `t < 2`.
pub fn neptune_round_numbers(width: usize) -> Result<(usize, usize), PoseidonError> {
    let none = PoseidonError::NoRoundNumbers { width, alpha: 5 };
    if width < 2 {
        return Err(none);
    }
    crate::limits::check("width", width, crate::limits::MAX_WIDTH)?;
    let m = SECURITY_BITS;
    let n = 256.0;
    let t = width as f64;
    let secure = |r_f: usize, r_p: usize| {
        let r_p = r_p as f64;
        let r1: f64 = if m <= (n - 3.0) * (t + 1.0) {
            6.0
        } else {
            10.0
        };
        let r2 = (0.43 * m + t.log2() - r_p).ceil();
        let r3 = (0.21 * n - r_p).ceil();
        let r4 = ((0.14 * n - 1.0 - r_p) / (t - 1.0)).ceil();
        r_f as f64 >= r1.max(r2).max(r3).max(r4)
    };
    minimise(
        width,
        (4..200).flat_map(|r_p| (2..1000).step_by(2).map(move |r_f| (r_f, r_p))),
        secure,
    )
    .ok_or(none)
}

/// neptune's "strengthened" partial-round count, `⌈1.25·R_P⌉`.
pub fn strengthened_partial_rounds(partial_rounds: usize) -> usize {
    (partial_rounds * 5).div_ceil(4)
}

/// `R_P` rounded up to a multiple of `t` (what circomlib did with the reference numbers).
pub fn round_up_to_multiple(partial_rounds: usize, width: usize) -> usize {
    partial_rounds.div_ceil(width) * width
}

fn minimise(
    width: usize,
    candidates: impl Iterator<Item = (usize, usize)>,
    secure: impl Fn(usize, usize) -> bool,
) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize, usize)> = None;
    for (r_f, r_p) in candidates {
        if !secure(r_f, r_p) {
            continue;
        }
        let r_f = r_f + 2;
        // ⌈1.075·R_P⌉ in double precision, as the reference computes it.
        let r_p = (1.075 * r_p as f64).ceil() as usize;
        let cost = width * r_f + r_p;
        let better = match best {
            None => true,
            Some((c, f, _)) => cost < c || (cost == c && r_f < f),
        };
        if better {
            best = Some((cost, r_f, r_p));
        }
    }
    best.map(|(_, r_f, r_p)| (r_f, r_p))
}
