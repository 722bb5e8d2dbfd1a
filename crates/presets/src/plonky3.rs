//! Plonky3's Goldilocks Poseidon1 of width 12 (`p3_goldilocks::poseidon1`, Plonky3 0.8): `x^7`,
//! 8 full and 22 partial rounds, round constants from the reference Grain LFSR (seeded with
//! field 1, S-box 0, n = 64, t = 12, R_F = 8, R_P = 22, which is how Plonky3 generated
//! `GOLDILOCKS_POSEIDON1_RC_12`), and Plonky3's circulant MDS matrix of small integers. The
//! permutation only: Plonky3 builds its sponges and compressions from it generically, and
//! [`Plonky3Poseidon1`] plugs into ours ([`zkaccel_symmetric::Permutation`]).

use std::sync::OnceLock;

use zkaccel_goldilocks::Goldilocks;

use zkaccel_goldilocks::poseidon12::Latency12;
use zkaccel_poseidon::reference::reference_params;
use zkaccel_poseidon::{Poseidon, PoseidonError, PoseidonParams};

/// State width.
pub const WIDTH: usize = 12;
/// Full rounds.
pub const FULL_ROUNDS: usize = 8;
/// Partial rounds.
pub const PARTIAL_ROUNDS: usize = 22;
/// The S-box exponent.
pub const ALPHA: u64 = 7;
/// First row of the circulant MDS matrix (Plonky3's `MATRIX_CIRC_MDS_12_SML_ROW`).
pub const MDS_CIRC: [u64; WIDTH] = [1, 1, 2, 1, 8, 9, 10, 7, 5, 9, 4, 10];

/// `M[r][j] = CIRC[(j − r) mod 12]`.
pub fn mds() -> Vec<Goldilocks> {
    (0..WIDTH * WIDTH)
        .map(|k| {
            let (r, j) = (k / WIDTH, k % WIDTH);
            Goldilocks::new_reduced(MDS_CIRC[(j + WIDTH - r) % WIDTH])
        })
        .collect()
}

/// The textbook parameters: the Grain reference instance's round constants with Plonky3's
/// matrix in place of the Grain Cauchy matrix.
pub fn params() -> PoseidonParams<Goldilocks> {
    let grain = reference_params::<Goldilocks>(WIDTH, ALPHA, FULL_ROUNDS, PARTIAL_ROUNDS)
        .expect("the reference instance of width 12 exists");
    PoseidonParams::new(
        WIDTH,
        ALPHA,
        FULL_ROUNDS,
        PARTIAL_ROUNDS,
        grain.round_constants().to_vec(),
        mds(),
    )
    .expect("Plonky3's parameters are valid")
}

/// Plonky3's Poseidon1, bit-exact with `default_goldilocks_poseidon1_12()`: one state on the
/// latency kernel plonky2's preset runs (`zkaccel_plonky2::Plonky2Poseidon::permute`), batches on the
/// packed kernels.
#[derive(Debug, Clone)]
pub struct Plonky3Poseidon1 {
    fast: Latency12,
}

impl Plonky3Poseidon1 {
    /// The shared instance (constants are derived once per process).
    pub fn get() -> &'static Self {
        static INSTANCE: OnceLock<Plonky3Poseidon1> = OnceLock::new();
        INSTANCE.get_or_init(|| {
            let perm = Poseidon::new(params()).expect("Plonky3's MDS matrix has invertible minors");
            Self {
                fast: Latency12::new(perm)
                    .expect("Plonky3's permutation has width 12, x^7 and 22 partial rounds"),
            }
        })
    }

    /// The underlying permutation (its batch kernels, its textbook form).
    pub fn permutation(&self) -> &Poseidon<Goldilocks> {
        self.fast.permutation()
    }

    /// Permutes one state in place, scheduled for latency.
    pub fn permute(&self, state: &mut [Goldilocks; WIDTH]) {
        self.fast.permute(state);
    }
}

impl zkaccel_symmetric::Permutation<Goldilocks> for Plonky3Poseidon1 {
    type Error = PoseidonError;

    fn width(&self) -> usize {
        WIDTH
    }

    fn name(&self) -> String {
        format!("poseidon-goldilocks-{WIDTH}")
    }

    fn permute_mut(&self, state: &mut [Goldilocks]) -> Result<(), PoseidonError> {
        let actual = state.len();
        let state: &mut [Goldilocks; WIDTH] =
            state.try_into().map_err(|_| PoseidonError::InputLength {
                expected: WIDTH,
                actual,
            })?;
        self.permute(state);
        Ok(())
    }

    fn permute_many(&self, states: &mut [Goldilocks]) -> Result<(), PoseidonError> {
        zkaccel_symmetric::Permutation::permute_many(self.permutation(), states)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use zkaccel_field::Field;
    use zkaccel_symmetric::Permutation as _;

    #[test]
    fn wrong_lengths_are_refused_and_nothing_is_written() {
        let h = Plonky3Poseidon1::get();
        for len in [0, 1, 11, 13, 24] {
            let mut state = vec![Goldilocks::ONE; len];
            assert!(matches!(
                h.permute_mut(&mut state),
                Err(PoseidonError::InputLength { expected: 12, actual }) if actual == len
            ));
            assert!(state.iter().all(|&x| x == Goldilocks::ONE));
        }
        let mut states = vec![Goldilocks::ONE; 25];
        assert!(h.permute_many(&mut states).is_err());
        assert!(states.iter().all(|&x| x == Goldilocks::ONE));
    }

    #[test]
    fn one_state_and_a_batch_agree_with_the_textbook() {
        let h = Plonky3Poseidon1::get();
        let states: Vec<Goldilocks> = (0..12 * 9)
            .map(|i| Goldilocks::new_reduced(i * 0x1234_5678_9abc))
            .collect();
        let mut batch = states.clone();
        h.permute_many(&mut batch).unwrap();
        for (s, b) in states.chunks(12).zip(batch.chunks(12)) {
            let mut want = s.to_vec();
            h.permutation().permute_textbook(&mut want).unwrap();
            let mut one = s.to_vec();
            h.permute_mut(&mut one).unwrap();
            assert_eq!(one, want);
            assert_eq!(b, &want[..]);
        }
    }

    #[test]
    fn the_matrix_is_circulant_and_secure() {
        let m = mds();
        for r in 1..WIDTH {
            for j in 0..WIDTH {
                assert_eq!(
                    m[r * WIDTH + j],
                    m[(r - 1) * WIDTH + (j + WIDTH - 1) % WIDTH]
                );
            }
        }
        let matrix = zkaccel_poseidon::Matrix::new(WIDTH, m).unwrap();
        assert!(zkaccel_poseidon::mds_security::is_secure(&matrix));
    }
}
