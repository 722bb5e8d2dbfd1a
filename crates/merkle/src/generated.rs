//! Generated leaves: the rows benchmarks, examples and distributed builds use when no file
//! holds the leaves. Row `i` is the same whichever machine generates it and however the rows
//! are split, so subtrees built from row ranges anywhere combine into the tree of the whole.

use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use zkaccel_field::PrimeField;

/// Rows per parallel task.
const GENERATED_ROWS_PER_TASK: usize = 1024;

/// Fills `out` with generated rows starting at row `first`: with a seed, the ChaCha8 stream
/// (one `u64` per limb plus one, reduced), positioned at the row so that any split of the work
/// gives the same leaves; without one, element `j` of row `i` is `i·1000003 + j`.
fn generate_rows_serial<F: PrimeField>(out: &mut [F], width: usize, first: u64, seed: Option<u64>) {
    let limbs = F::NUM_BYTES.div_ceil(8) + 1;
    let mut rng = seed.map(|s| {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(s);
        // Two 32-bit words per u64.
        rng.set_word_pos(u128::from(first) * (width * limbs * 2) as u128);
        rng
    });
    let mut buf = vec![0u64; limbs];
    for (i, row) in out.chunks_mut(width).enumerate() {
        let index = first + i as u64;
        for (j, slot) in row.iter_mut().enumerate() {
            *slot = match rng.as_mut() {
                Some(rng) => {
                    buf.iter_mut().for_each(|l| *l = rng.gen());
                    F::from_limbs_reduced(&buf)
                }
                None => F::from_limbs_reduced(&[index * 1_000_003 + j as u64]),
            };
        }
    }
}

/// Fills `out` with generated rows of `width` elements starting at row `first` (see
/// `generate_rows_serial`), on all cores; the result does not depend on the split.
pub fn generate_rows<F: PrimeField>(out: &mut [F], width: usize, first: u64, seed: Option<u64>) {
    out.par_chunks_mut(GENERATED_ROWS_PER_TASK * width)
        .enumerate()
        .for_each(|(task, chunk)| {
            let row = first + (task * GENERATED_ROWS_PER_TASK) as u64;
            generate_rows_serial(chunk, width, row, seed);
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkaccel_bn254::Fr;
    use zkaccel_goldilocks::Goldilocks;

    /// Any split of the rows gives the same leaves (what distributed builds rely on), and the
    /// unseeded rule is the documented one.
    #[test]
    fn rows_do_not_depend_on_the_split() {
        fn check<F: PrimeField>(width: usize) {
            let rows = 3000;
            let mut whole = vec![F::ZERO; rows * width];
            generate_rows(&mut whole, width, 0, Some(42));
            for split in [1, 7, 1024, 2999] {
                let mut parts = vec![F::ZERO; rows * width];
                let (a, b) = parts.split_at_mut(split * width);
                generate_rows(a, width, 0, Some(42));
                generate_rows(b, width, split as u64, Some(42));
                assert_eq!(parts, whole, "split at {split}");
            }
            let mut other = vec![F::ZERO; rows * width];
            generate_rows(&mut other, width, 0, Some(43));
            assert_ne!(other, whole);
            let mut plain = vec![F::ZERO; 2 * width];
            generate_rows(&mut plain, width, 5, None);
            let last = (width - 1) as u64;
            assert_eq!(
                plain[2 * width - 1],
                F::from_u64_reduced(6 * 1_000_003 + last)
            );
        }
        check::<Goldilocks>(3);
        check::<Fr>(1);
    }
}
