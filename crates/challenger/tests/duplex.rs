//! The duplex rules checked against the permutation called directly (the expected values come
//! from `Poseidon::permute`, not from the challenger), the proof-of-work witness checked to be
//! the smallest by trying every smaller nonce one permutation at a time, and bad requests.

use rand::{Rng, SeedableRng};
use zkaccel_challenger::{ChallengerError, DuplexChallenger, SpongeCounts};
use zkaccel_field::{Field, PrimeField};
use zkaccel_goldilocks::{Goldilocks, Goldilocks2};
use zkaccel_plonky2::Plonky2Poseidon;
use zkaccel_poseidon::Poseidon;

/// plonky2's challenger (`zkaccel_plonky2::challenger()` is the same): plonky2's width-12
/// Poseidon, rate 8.
fn plonky2() -> DuplexChallenger<Goldilocks, &'static Poseidon<Goldilocks>> {
    DuplexChallenger::new(Plonky2Poseidon::get().permutation(), 8).unwrap()
}

fn g(v: u64) -> Goldilocks {
    Goldilocks::from_u64_reduced(v)
}

fn permuted(state: [Goldilocks; 12]) -> [Goldilocks; 12] {
    let mut s = state;
    Plonky2Poseidon::get().permute(&mut s);
    s
}

#[test]
fn a_fresh_challenger_squeezes_the_permuted_zero_state_from_the_end_of_the_rate() {
    let mut c = plonky2();
    let s = permuted([Goldilocks::ZERO; 12]);
    let got = c.challenges(8);
    let want: Vec<_> = (0..8).rev().map(|i| s[i]).collect();
    assert_eq!(got, want);
    // The ninth challenge permutes again (no input: the state itself).
    let s2 = permuted(s);
    assert_eq!(c.challenge(), s2[7]);
}

#[test]
fn observations_overwrite_the_rate_and_a_full_rate_duplexes_at_once() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let inputs: Vec<Goldilocks> = (0..11).map(|_| g(rng.gen())).collect();
    let mut c = plonky2();
    c.observe_elements(&inputs);
    // Eight inputs duplexed on the eighth; three pending, written over the rate before the
    // challenge's duplexing (the other five rate elements keep the permuted values).
    let mut s = [Goldilocks::ZERO; 12];
    s[..8].copy_from_slice(&inputs[..8]);
    let mut s = permuted(s);
    s[..3].copy_from_slice(&inputs[8..]);
    let s = permuted(s);
    assert_eq!(c.challenge(), s[7]);
    assert_eq!(c.challenge(), s[6]);
    // Observing after a challenge drops the unused outputs.
    c.observe_element(g(5));
    let mut t = s;
    t[0] = g(5);
    let t = permuted(t);
    assert_eq!(c.challenge(), t[7]);
}

#[test]
fn extension_challenges_take_coordinates_lowest_first() {
    let mut a = plonky2();
    let mut b = plonky2();
    a.observe_extension_element(&Goldilocks2::new(g(3), g(4)));
    b.observe_elements(&[g(3), g(4)]);
    let e: Goldilocks2 = a.extension_challenge();
    let (c0, c1) = (b.challenge(), b.challenge());
    assert_eq!(e, Goldilocks2::new(c0, c1));
}

#[test]
fn grinding_returns_the_smallest_witness_and_the_verifier_accepts_it() {
    for bits in [0u32, 1, 4, 9] {
        let mut c = plonky2();
        c.observe_elements(&[g(7), g(bits as u64)]);
        let before = c.clone();
        let w = c.grind(bits).unwrap();
        // Every smaller nonce misses the target, one permutation at a time.
        let mut start = [Goldilocks::ZERO; 12];
        start[..2].copy_from_slice(&[g(7), g(bits as u64)]);
        let w64 = w.to_canonical_limbs()[0];
        for n in 0..=w64 {
            let mut s = start;
            s[2] = g(n);
            let response = permuted(s)[7].to_canonical_limbs()[0];
            assert_eq!(
                response.leading_zeros() >= bits,
                n == w64,
                "bits {bits}, nonce {n}"
            );
        }
        if bits == 0 {
            assert_eq!(w64, 0);
        }
        // The verifier's side: the witness passes, the prover's transcript continues alike.
        let mut v = before.clone();
        assert!(v.check_witness(bits, w).unwrap());
        assert_eq!(v.challenge(), c.challenge());
        if w64 > 0 {
            let mut v = before;
            assert!(!v.check_witness(bits, g(w64 - 1)).unwrap());
        }
    }
}

#[test]
fn the_witness_does_not_depend_on_the_number_of_threads() {
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut c = plonky2();
            c.observe_element(g(42));
            c.grind(12).unwrap()
        })
    };
    assert_eq!(run(1), run(3));
}

#[test]
fn bad_requests_are_typed_errors() {
    let perm = Plonky2Poseidon::get().permutation();
    for rate in [0, 12, 13] {
        assert!(matches!(
            DuplexChallenger::<Goldilocks, _>::new(perm, rate),
            Err(ChallengerError::Rate { width: 12, .. })
        ));
    }
    let mut c = plonky2();
    assert!(matches!(
        c.grind(65),
        Err(ChallengerError::PowBits { bits: 65, max: 64 })
    ));
    assert!(matches!(
        c.check_witness(100, g(0)),
        Err(ChallengerError::PowBits { .. })
    ));
    assert!(c.index_challenge(0).is_ok(), "a zero bound reads as one");
    let bn = zkaccel_presets::CircomPoseidon::get(3).unwrap();
    let mut wide = DuplexChallenger::new(bn.permutation(), 2).unwrap();
    assert!(matches!(
        wide.index_challenge(8),
        Err(ChallengerError::FieldTooWide { bits: 254, .. })
    ));
}

#[test]
fn counts_follow_the_duplexing_rules() {
    let mut c = plonky2();
    assert_eq!(c.counts(), SpongeCounts::default());
    // Ten elements at rate 8: one duplexing when the rate fills, two pending.
    c.observe_elements(&(0..10).map(g).collect::<Vec<_>>());
    assert_eq!(
        c.counts(),
        SpongeCounts {
            absorbed: 10,
            squeezed: 0,
            permutations: 1,
            grind_permutations: 0
        }
    );
    // Pending input forces a duplexing; the next seven come from its output; the ninth
    // needs another.
    let _ = c.challenges(9);
    assert_eq!((c.counts().squeezed, c.counts().permutations), (9, 3));
    // A 4-bit witness lies in the first round, one block of 1024 candidates (the chance it
    // does not is (15/16)^1024), all tried; then the witness is absorbed and one challenge
    // drawn.
    let before = c.counts();
    let w = c.grind(4).unwrap();
    assert!(w.to_canonical_limbs()[0] < 1024);
    let after = c.counts();
    assert_eq!(after.grind_permutations, 1024);
    assert_eq!(after.absorbed, before.absorbed + 1);
    assert_eq!(after.squeezed, before.squeezed + 1);
    assert_eq!(after.permutations, before.permutations + 1);
}
