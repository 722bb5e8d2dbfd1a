//! bellman 0.14 as a peer (BLS12-381 Fr): conversion from ours and its prover's H steps on its
//! public `EvaluationDomain` API. Shared by `tests/bellman.rs` and `benches/groth16.rs`.

use bellman::domain::{EvaluationDomain, Scalar as BellmanScalar};
use bellman::multicore::Worker;
use bls12_381::Scalar;
use ff::PrimeField as _;
use zkaccel_bls12_381::Fr;
use zkaccel_field::PrimeField;

/// bellman's wrapped scalar.
pub type Theirs = BellmanScalar<Scalar>;

/// Ours as bellman's (through the canonical little-endian bytes).
pub fn to_bellman(x: &Fr) -> Theirs {
    let bytes: [u8; 32] = x.to_bytes_le().try_into().expect("32 bytes");
    BellmanScalar(Option::from(Scalar::from_repr(bytes)).expect("a canonical element"))
}

/// bellman's prover (`groth16::prover`): the H coefficients from A, B, C's evaluations.
pub fn bellman_h(a: Vec<Theirs>, b: Vec<Theirs>, c: Vec<Theirs>) -> Vec<Theirs> {
    let worker = Worker::new();
    let mut a = EvaluationDomain::from_coeffs(a).expect("a domain");
    let mut b = EvaluationDomain::from_coeffs(b).expect("a domain");
    let mut c = EvaluationDomain::from_coeffs(c).expect("a domain");
    a.ifft(&worker);
    a.coset_fft(&worker);
    b.ifft(&worker);
    b.coset_fft(&worker);
    c.ifft(&worker);
    c.coset_fft(&worker);
    a.mul_assign(&worker, &b);
    drop(b);
    a.sub_assign(&worker, &c);
    drop(c);
    a.divide_by_z_on_coset(&worker);
    a.icoset_fft(&worker);
    let mut h = a.into_coeffs();
    h.truncate(h.len() - 1);
    h
}
