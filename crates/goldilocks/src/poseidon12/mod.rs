//! One permutation of a Goldilocks Poseidon of width 12 with `x^7` and 22 partial rounds (the
//! shape of plonky2's Poseidon and of Plonky3's Poseidon1), scheduled for latency: a sponge
//! absorbing, a Merkle path or a challenger has one state, not a batch to spread over SIMD
//! lanes. The chain from partial round to partial round is lane 0's S-box and one
//! multiply-add (`partial`). Where the CPU has AVX-512F and the MDS matrix is circulant plus
//! a diagonal with small entries, the full rounds run with the twelve lanes in two registers
//! and the partial rounds update lanes 1..12 in two registers (`avx512`); elsewhere both
//! are scalar. The constants are the instance's own, so every preset of this shape shares the
//! kernel.

#[cfg(target_arch = "x86_64")]
mod avx512;
mod partial;

use zkaccel_poseidon::Poseidon;

use crate::Goldilocks;
use partial::PartialRounds12;

/// State width.
const WIDTH: usize = 12;
/// Partial rounds.
const PARTIAL_ROUNDS: usize = 22;

/// The latency kernel of one instance, with the CPU features it runs on.
#[derive(Debug, Clone)]
pub struct Latency12 {
    perm: Poseidon<Goldilocks>,
    partial: PartialRounds12,
    /// The vector kernels, where the CPU has AVX-512F (and `ZKACCEL_SIMD` allows it) and the
    /// matrix is a [`avx512::SmallCirculant`].
    #[cfg(target_arch = "x86_64")]
    vector: Option<Vector>,
}

/// What the AVX-512 path needs.
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone)]
struct Vector {
    cpu: crate::x86_64::Avx512,
    /// The full rounds on three 256-bit registers, where the CPU has AVX-512VL and IFMA.
    ifma: Option<avx512::FullRoundsIfma>,
    mds: avx512::SmallCirculant,
    partial: avx512::PartialRoundsAvx512,
}

impl Latency12 {
    /// The kernel of `perm`, when it has width 12, `x^7` and 22 partial rounds.
    pub fn new(perm: Poseidon<Goldilocks>) -> Option<Self> {
        let partial = PartialRounds12::new(perm.kernel_constants())?;
        #[cfg(target_arch = "x86_64")]
        let vector = avx512::SmallCirculant::of(perm.kernel_constants()).and_then(|mds| {
            let cpu = crate::x86_64::Avx512::detect()?;
            Some(Vector {
                cpu,
                ifma: crate::x86_64::Avx512Ifma::detect().and_then(|ifma| {
                    avx512::FullRoundsIfma::new(ifma, perm.kernel_constants(), &mds)
                }),
                mds,
                partial: avx512::PartialRoundsAvx512::new(cpu, &partial),
            })
        });
        Some(Self {
            perm,
            partial,
            #[cfg(target_arch = "x86_64")]
            vector,
        })
    }

    /// The instance.
    pub fn permutation(&self) -> &Poseidon<Goldilocks> {
        &self.perm
    }

    /// Permutes a state in place on the fastest path the CPU has.
    pub fn permute(&self, state: &mut [Goldilocks; WIDTH]) {
        let k = self.perm.kernel_constants();
        #[cfg(target_arch = "x86_64")]
        if let Some(v) = &self.vector {
            match &v.ifma {
                // SAFETY: `full`'s token proves AVX-512F, VL and IFMA; `new` built `full` and
                // `partial` from this kernel.
                Some(full) => unsafe { avx512::permute_ifma(full, &v.partial, state) },
                // SAFETY: `cpu` proves AVX-512F; `mds` and `partial` as above.
                None => unsafe { avx512::permute(v.cpu, k, &v.mds, &v.partial, state) },
            }
            return;
        }
        self.permute_scalar(state);
    }

    /// The scalar path (full rounds of the generic kernel, [`PartialRounds12`]).
    fn permute_scalar(&self, state: &mut [Goldilocks; WIDTH]) {
        let k = self.perm.kernel_constants();
        k.full_rounds_half(state, false)
            .expect("new() took a permutation of width 12");
        self.partial.apply(state);
        k.full_rounds_half(state, true)
            .expect("new() took a permutation of width 12");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Edge and random states: each word 0, 1, p − 1, 2^63 or 2^32 − 1 in turn, then random.
    fn states() -> Vec<[Goldilocks; WIDTH]> {
        let p = crate::ORDER;
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let edges = [0, 1, p - 1, 1 << 63, (1 << 32) - 1];
        (0..64)
            .map(|case| {
                core::array::from_fn(|i| {
                    Goldilocks::new_reduced(if case < edges.len() {
                        edges[(case + i) % edges.len()]
                    } else {
                        rng.gen_range(0..p)
                    })
                })
            })
            .collect()
    }

    /// The two matrices of this shape the presets use, with the Grain reference constants:
    /// plonky2's circulant plus diagonal and Plonky3's circulant (`zkaccel-plonky2` and
    /// `zkaccel-presets` test their own constants against the standards' vectors).
    fn instances() -> Vec<zkaccel_poseidon::PoseidonParams<Goldilocks>> {
        let circulant = |circ: [u64; WIDTH], diag0: u64| -> Vec<Goldilocks> {
            (0..WIDTH * WIDTH)
                .map(|k| {
                    let (r, j) = (k / WIDTH, k % WIDTH);
                    let d = if r == 0 && j == 0 { diag0 } else { 0 };
                    Goldilocks::new_reduced(circ[(j + WIDTH - r) % WIDTH] + d)
                })
                .collect()
        };
        let grain = zkaccel_poseidon::reference::reference_params::<Goldilocks>(
            WIDTH,
            7,
            8,
            PARTIAL_ROUNDS,
        )
        .unwrap();
        [
            circulant([17, 15, 41, 16, 2, 28, 13, 13, 39, 18, 34, 20], 8),
            circulant([1, 1, 2, 1, 8, 9, 10, 7, 5, 9, 4, 10], 0),
        ]
        .into_iter()
        .map(|mds| {
            zkaccel_poseidon::PoseidonParams::new(
                WIDTH,
                7,
                8,
                PARTIAL_ROUNDS,
                grain.round_constants().to_vec(),
                mds,
            )
            .unwrap()
        })
        .collect()
    }

    /// Each path `run` takes on every preset of this shape, against the textbook permutation.
    fn check(name: &str, run: impl Fn(&Latency12, &mut [Goldilocks; WIDTH]) -> bool) {
        for params in instances() {
            let kernel = Latency12::new(Poseidon::new(params).unwrap()).unwrap();
            for state in states() {
                let mut want = state;
                kernel.perm.permute_textbook(&mut want).unwrap();
                let mut got = state;
                if !run(&kernel, &mut got) {
                    eprintln!("{name}: not available on this CPU (or ZKACCEL_SIMD=off)");
                    return;
                }
                assert_eq!(
                    got.map(|x| x.as_canonical_u64()),
                    want.map(|x| x.as_canonical_u64()),
                    "{name} on {state:?}"
                );
            }
        }
    }

    #[test]
    fn scalar_path_matches_the_textbook() {
        check("scalar", |k, s| {
            k.permute_scalar(s);
            true
        });
    }

    #[test]
    fn fastest_path_matches_the_textbook() {
        check("fastest", |k, s| {
            k.permute(s);
            true
        });
    }

    /// The AVX-512F path without IFMA (full rounds on the plain MDS layer), which `permute`
    /// does not take on an IFMA CPU.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx512f_path_without_ifma_matches_the_textbook() {
        check("AVX-512F", |k, s| {
            let Some(v) = &k.vector else {
                return false;
            };
            // SAFETY: `cpu` proves AVX-512F; `new` took `mds` from this kernel and built
            // `partial` from its partial rounds.
            unsafe { avx512::permute(v.cpu, k.perm.kernel_constants(), &v.mds, &v.partial, s) };
            true
        });
    }

    #[test]
    fn both_presets_have_the_vector_form() {
        for params in instances() {
            let perm = Poseidon::new(params).unwrap();
            #[cfg(target_arch = "x86_64")]
            assert!(avx512::SmallCirculant::of(perm.kernel_constants()).is_some());
            assert!(PartialRounds12::new(perm.kernel_constants()).is_some());
        }
    }

    #[test]
    fn other_shapes_are_refused() {
        // Width 8, and width 12 with 23 partial rounds.
        for (t, rp) in [(8, 22), (12, 23)] {
            let params =
                zkaccel_poseidon::reference::reference_params::<Goldilocks>(t, 7, 8, rp).unwrap();
            assert!(Latency12::new(Poseidon::new(params).unwrap()).is_none());
        }
    }
}
