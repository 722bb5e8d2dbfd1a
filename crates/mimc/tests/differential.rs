//! Differential tests against arkworks-mimc 0.3.0 (the CPU baseline AMAZE measured) on random
//! inputs, and property tests of the batch APIs against the one-at-a-time cipher and of the
//! fast paths against the textbook loops. (The chain kernels themselves are checked in
//! `zkaccel-field-testing`'s generic suite and `zkaccel-fp256`'s kernel tests.)

use ark_ff_03::{BigInteger, PrimeField as ArkPrimeField};
use arkworks_mimc::params::mimc_5_220_bn254::{
    MIMC_5_220_BN254_PARAMS, MIMC_5_220_BN254_ROUND_KEYS,
};
use arkworks_mimc::params::mimc_7_91_bn254::{MIMC_7_91_BN254_PARAMS, MIMC_7_91_BN254_ROUND_KEYS};
use arkworks_mimc::params::round_keys_contants_to_vec;
use arkworks_mimc::MiMC;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use zkaccel_bn254::Fr;
use zkaccel_field::{Field, PrimeField};
use zkaccel_field_testing::random_prime;
use zkaccel_mimc::MimcError;
use zkaccel_presets::MimcPreset as Preset;

type ArkFr = ark_bn254_03::Fr;

fn to_ark(x: Fr) -> ArkFr {
    ArkFr::from_le_bytes_mod_order(&x.to_bytes_le())
}

fn from_ark(x: ArkFr) -> Fr {
    Fr::from_bytes_le(&x.into_repr().to_bytes_le()).unwrap()
}

#[test]
fn mp_hash_matches_arkworks_mimc_on_random_inputs() {
    let mut rng = StdRng::seed_from_u64(7);
    let mimc = Preset::Circomlib.cipher();
    let round_keys = round_keys_contants_to_vec::<ArkFr>(&MIMC_7_91_BN254_ROUND_KEYS);
    for len in [1usize, 1, 2, 3, 5, 8] {
        for _ in 0..8 {
            let k: Fr = random_prime(&mut rng);
            let inputs: Vec<Fr> = (0..len).map(|_| random_prime(&mut rng)).collect();
            let ark = MiMC::<ArkFr, MIMC_7_91_BN254_PARAMS>::new(1, to_ark(k), round_keys.clone());
            let expected =
                from_ark(ark.permute_non_feistel(inputs.iter().map(|&x| to_ark(x)).collect())[0]);
            assert_eq!(mimc.hash(&inputs, k), expected);
            if len == 1 {
                // MP_k([x]) = k + x + E_k(x): the cipher itself.
                assert_eq!(mimc.encrypt(inputs[0], k), expected - k - inputs[0]);
            }
        }
    }
}

#[test]
fn sponge_matches_arkworks_mimc_feistel_on_random_inputs() {
    let mut rng = StdRng::seed_from_u64(8);
    let sponge = Preset::CircomlibSponge.sponge();
    let round_keys = round_keys_contants_to_vec::<ArkFr>(&MIMC_5_220_BN254_ROUND_KEYS);
    for _ in 0..10 {
        let len = rng.gen_range(1..5);
        let outputs = rng.gen_range(1..4);
        let k: Fr = random_prime(&mut rng);
        let inputs: Vec<Fr> = (0..len).map(|_| random_prime(&mut rng)).collect();
        let ark =
            MiMC::<ArkFr, MIMC_5_220_BN254_PARAMS>::new(outputs, to_ark(k), round_keys.clone());
        let expected: Vec<Fr> = ark
            .permute_feistel(inputs.iter().map(|&x| to_ark(x)).collect())
            .into_iter()
            .map(from_ark)
            .collect();
        assert_eq!(sponge.hash(&inputs, k, outputs).unwrap(), expected);
    }
}

#[test]
fn sponge_batches_match_arkworks_mimc_feistel() {
    let mut rng = StdRng::seed_from_u64(9);
    let sponge = Preset::CircomlibSponge.sponge();
    let round_keys = round_keys_contants_to_vec::<ArkFr>(&MIMC_5_220_BN254_ROUND_KEYS);
    for (k, outputs) in [(Fr::ZERO, 1), (random_prime(&mut rng), 2)] {
        // Hashes of mixed lengths, the empty one among them; more than one parallel task.
        let msgs: Vec<Vec<Fr>> = (0..21)
            .map(|i| (0..i % 4).map(|_| random_prime(&mut rng)).collect())
            .collect();
        let ark =
            MiMC::<ArkFr, MIMC_5_220_BN254_PARAMS>::new(outputs, to_ark(k), round_keys.clone());
        let expected: Vec<Vec<Fr>> = msgs
            .iter()
            .map(|m| {
                ark.permute_feistel(m.iter().map(|&x| to_ark(x)).collect())
                    .into_iter()
                    .map(from_ark)
                    .collect()
            })
            .collect();
        assert_eq!(sponge.hash_batch(&msgs, k, outputs).unwrap(), expected);
    }
    assert_eq!(
        sponge.hash_batch(&[[Fr::ONE]], Fr::ZERO, 0),
        Err(zkaccel_mimc::MimcError::ZeroOutputs)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    /// Batches of any length (IFMA lanes, hybrid AVX2-and-scalar lanes, remainders) equal
    /// one-at-a-time.
    #[test]
    fn batches_equal_single_ciphers(seed in any::<u64>(), n in 0usize..40) {
        let mut rng = StdRng::seed_from_u64(seed);
        for preset in [Preset::Circomlib, Preset::Gnark] {
            let mimc = preset.cipher();
            let xs: Vec<Fr> = (0..n).map(|_| random_prime(&mut rng)).collect();
            let ks: Vec<Fr> = (0..n).map(|_| random_prime(&mut rng)).collect();
            let expected: Vec<Fr> = xs.iter().zip(&ks).map(|(&x, &k)| mimc.encrypt(x, k)).collect();
            prop_assert_eq!(&mimc.encrypt_batch(&xs, &ks).unwrap(), &expected);
            prop_assert_eq!(&mimc.encrypt_batch_single_thread(&xs, &ks).unwrap(), &expected);
            // Unequal lengths are errors that leave the data as it was.
            if n > 0 {
                let unequal = Err(MimcError::LengthMismatch { messages: n, keys: n - 1 });
                prop_assert_eq!(mimc.encrypt_batch(&xs, &ks[..n - 1]), unequal.clone());
                prop_assert_eq!(mimc.encrypt_batch_single_thread(&xs, &ks[..n - 1]), unequal);
            }
            // Hashes of mixed lengths.
            let msgs: Vec<Vec<Fr>> = (0..n).map(|i| xs[..i % 4].to_vec()).collect();
            let key = ks.first().copied().unwrap_or(Fr::ZERO);
            let want: Vec<Fr> = msgs.iter().map(|m| mimc.hash(m, key)).collect();
            prop_assert_eq!(mimc.hash_batch(&msgs, key), want);
        }
    }
}

#[test]
fn goldilocks_cipher_runs_generic_kernels() {
    use zkaccel_goldilocks::Goldilocks;
    use zkaccel_mimc::{
        constants::{round_constants, ConstantRule},
        Mimc, MimcParams,
    };
    // x^7 is a permutation of Goldilocks (gcd(7, p − 1) = 1); x^3 is not.
    let rounds = zkaccel_mimc::recommended_rounds(7, 64.0);
    let params =
        MimcParams::<Goldilocks>::new(7, round_constants("mimc", rounds, ConstantRule::FirstZero))
            .unwrap();
    assert!(MimcParams::<Goldilocks>::new(3, vec![Goldilocks::ZERO]).is_err());
    let mimc = Mimc::new(params);
    let xs: Vec<Goldilocks> = (0..13).map(Goldilocks::from_u64_reduced).collect();
    let ks: Vec<Goldilocks> = (100..113).map(Goldilocks::from_u64_reduced).collect();
    let expected: Vec<Goldilocks> = xs
        .iter()
        .zip(&ks)
        .map(|(&x, &k)| mimc.encrypt(x, k))
        .collect();
    assert_eq!(mimc.encrypt_batch(&xs, &ks).unwrap(), expected);
    // Batches with a remainder after the whole groups of every packing, against the textbook
    // loops; the Feistel permutation likewise (both one at a time and many at once).
    let mut rng = StdRng::seed_from_u64(0x6d69_6d63);
    let n = 37;
    let xs37: Vec<Goldilocks> = (0..n).map(|_| random_prime(&mut rng)).collect();
    let ks37: Vec<Goldilocks> = (0..n).map(|_| random_prime(&mut rng)).collect();
    let textbook: Vec<Goldilocks> = xs37
        .iter()
        .zip(&ks37)
        .map(|(&x, &k)| zkaccel_mimc::encrypt_textbook(mimc.params(), x, k))
        .collect();
    assert_eq!(mimc.encrypt_batch(&xs37, &ks37).unwrap(), textbook);
    assert_eq!(
        mimc.encrypt_batch_single_thread(&xs37, &ks37).unwrap(),
        textbook
    );
    let sponge = zkaccel_mimc::MimcSponge::new(mimc.params().clone());
    let key = Goldilocks::from_u64_reduced(5);
    let feistel: Vec<(Goldilocks, Goldilocks)> = xs37
        .iter()
        .zip(&ks37)
        .map(|(&l, &r)| zkaccel_mimc::permute_feistel_textbook(mimc.params(), l, r, key))
        .collect();
    let one: Vec<_> = xs37
        .iter()
        .zip(&ks37)
        .map(|(&l, &r)| sponge.permute(l, r, key))
        .collect();
    assert_eq!(one, feistel);
    let (mut ls, mut rs) = (xs37.clone(), ks37.clone());
    sponge.permute_many(&mut ls, &mut rs, key).unwrap();
    let many: Vec<_> = ls.into_iter().zip(rs).collect();
    assert_eq!(many, feistel);
    // Decryption is not offered, but the cipher must be injective in x for a fixed key.
    let mut sorted = expected.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), expected.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    /// One cipher on the field's fast path (lazily reduced on BN254, textbook on BLS12-381,
    /// whose `4p` exceeds 2^256) equals the textbook loop, for the presets' exponents and a
    /// square-and-multiply one, with a key of `p − 1` among the random ones.
    #[test]
    fn single_cipher_fast_path_equals_the_textbook_loop(seed in any::<u64>()) {
        use zkaccel_mimc::{
            constants::{round_constants, ConstantRule},
            encrypt_textbook, Mimc, MimcParams,
        };
        let mut rng = StdRng::seed_from_u64(seed);
        for d in [5u64, 7, 11] {
            let constants = round_constants("mimc", 40, ConstantRule::FirstZero);
            if let Ok(params) = MimcParams::<Fr>::new(d, constants) {
                let mimc = Mimc::new(params);
                for k in [Fr::NEG_ONE, random_prime(&mut rng)] {
                    let x: Fr = random_prime(&mut rng);
                    prop_assert_eq!(mimc.encrypt(x, k), encrypt_textbook(mimc.params(), x, k));
                }
            }
            type Bls = zkaccel_bls12_381::Fr;
            if let Ok(params) = MimcParams::<Bls>::new(d, round_constants("mimc", 40, ConstantRule::FirstZero)) {
                let mimc = Mimc::new(params);
                let (x, k): (Bls, Bls) = (random_prime(&mut rng), random_prime(&mut rng));
                prop_assert_eq!(mimc.encrypt(x, k), encrypt_textbook(mimc.params(), x, k));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    /// The Feistel permutation on the field's fast path (lazily reduced on BN254, textbook on
    /// BLS12-381) equals the textbook loop, for one, two, three and forty rounds, with halves
    /// and keys of 0 and `p − 1` (sums at the top of the lazy range) among the random ones.
    #[test]
    fn feistel_fast_path_equals_the_textbook_loop(seed in any::<u64>()) {
        use zkaccel_mimc::{
            constants::{round_constants, ConstantRule},
            permute_feistel_textbook, MimcParams, MimcSponge,
        };
        let mut rng = StdRng::seed_from_u64(seed);
        for d in [5u64, 7, 11] {
            for rounds in [1usize, 2, 3, 40] {
                let constants = round_constants("seed", rounds, ConstantRule::FirstZero);
                if let Ok(params) = MimcParams::<Fr>::new(d, constants.clone()) {
                    let sponge = MimcSponge::new(params);
                    let picks = [Fr::ZERO, Fr::NEG_ONE, random_prime(&mut rng)];
                    for (l, r, k) in [
                        (picks[1], picks[1], picks[1]),
                        (picks[0], picks[1], picks[2]),
                        (random_prime(&mut rng), random_prime(&mut rng), picks[rounds % 3]),
                    ] {
                        prop_assert_eq!(
                            sponge.permute(l, r, k),
                            permute_feistel_textbook(sponge.params(), l, r, k)
                        );
                    }
                }
                type Bls = zkaccel_bls12_381::Fr;
                if let Ok(params) = MimcParams::<Bls>::new(d, round_constants("seed", rounds, ConstantRule::FirstZero)) {
                    let sponge = MimcSponge::new(params);
                    let (l, r, k): (Bls, Bls, Bls) =
                        (random_prime(&mut rng), random_prime(&mut rng), random_prime(&mut rng));
                    prop_assert_eq!(
                        sponge.permute(l, r, k),
                        permute_feistel_textbook(sponge.params(), l, r, k)
                    );
                }
            }
        }
    }
}

/// circomlib's MiMCSponge and short permutations of each exponent (one round, two, three,
/// seventeen), the lane kernels' edge cases.
fn feistel_sponges() -> Vec<zkaccel_mimc::MimcSponge<Fr>> {
    use zkaccel_mimc::constants::{round_constants, ConstantRule};
    use zkaccel_mimc::{MimcParams, MimcSponge};
    let mut sponges = vec![Preset::CircomlibSponge.sponge()];
    for (d, rounds) in [(5u64, 1usize), (7, 2), (5, 3), (11, 17)] {
        let constants = round_constants("seed", rounds, ConstantRule::FirstZero);
        if let Ok(params) = MimcParams::<Fr>::new(d, constants) {
            sponges.push(MimcSponge::new(params));
        }
    }
    sponges
}

/// Checks `kernel` against one permutation at a time on `n` pairs of each sponge of
/// [`feistel_sponges`], with halves and keys of `p − 1` among random ones.
fn check_feistel_kernel(
    kernel: impl Fn(&zkaccel_mimc::MimcSponge<Fr>, &mut [Fr], &mut [Fr], Fr) -> Result<(), MimcError>,
    seed: u64,
    n: usize,
) -> Result<(), TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let pick = |i: usize, rng: &mut StdRng| {
        if i.is_multiple_of(5) {
            Fr::NEG_ONE
        } else {
            random_prime::<Fr>(rng)
        }
    };
    for sponge in &feistel_sponges() {
        let ls: Vec<Fr> = (0..n).map(|i| pick(i, &mut rng)).collect();
        let rs: Vec<Fr> = (0..n).map(|i| pick(i + 2, &mut rng)).collect();
        let k = pick(n, &mut rng);
        let expected: Vec<(Fr, Fr)> = ls
            .iter()
            .zip(&rs)
            .map(|(&l, &r)| sponge.permute(l, r, k))
            .collect();
        let (mut bl, mut br) = (ls.clone(), rs.clone());
        kernel(sponge, &mut bl, &mut br, k).unwrap();
        let got: Vec<(Fr, Fr)> = bl.into_iter().zip(br).collect();
        prop_assert_eq!(got, expected);
        // One half shorter than the other: an error, and nothing written.
        if n > 0 {
            let (mut bl, mut br) = (ls.clone(), rs[..n - 1].to_vec());
            let outcome = kernel(sponge, &mut bl, &mut br, k);
            prop_assert_eq!(
                outcome,
                Err(MimcError::LengthMismatch {
                    messages: n,
                    keys: n - 1
                })
            );
            prop_assert_eq!(&bl, &ls);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    /// Many Feistel permutations at once (IFMA lanes in groups of eight or hybrid lanes in
    /// groups of six, the remainder one at a time; one-round permutations, which have no
    /// chain, by the textbook loop) equal one at a time, and the one at a time equal the
    /// textbook loop.
    #[test]
    fn feistel_batches_equal_single_permutations(seed in any::<u64>(), n in 0usize..30) {
        check_feistel_kernel(|sponge, ls, rs, k| sponge.permute_many(ls, rs, k), seed, n)?;
    }
}
