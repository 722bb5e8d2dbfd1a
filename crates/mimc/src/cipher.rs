//! The MiMC-p/p block cipher and the Miyaguchi–Preneel hash built from it.
//!
//! ```text
//! E_k(x):  for i in 0..R: x ← (x + k + c_i)^d;   return x + k
//! H_k(m_1 … m_n):  h ← k;  for each m: h ← h + m + E_h(m);  return h
//! ```

use rayon::prelude::*;
use zkaccel_field::modmul::{Barrett256, ModularMultiplier, MulAlgorithm, RussianPeasant256, U256};
use zkaccel_field::{limbs, PrimeField};
use zkaccel_symmetric::sbox::pow_sbox;

use crate::batch::for_each_block;
use crate::chains::MimcField;
use crate::error::MimcError;
use crate::params::MimcParams;

/// MiMC-p/p over `F` with fixed parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mimc<F> {
    params: MimcParams<F>,
}

/// Elements per parallel task in the multi-threaded batch APIs: a multiple of every batch
/// kernel's group (eight IFMA lanes, six hybrid lanes, four AVX2 or scalar lanes), so no task
/// leaves lanes to a slower remainder path; small enough that a batch of a thousand splits
/// into ten or more tasks per core (so a core slowed by other load does not hold the batch up);
/// large enough that a task's setup (the packed round constants) is a few per cent of its work.
/// On the 2-core Zen 3 machine, 1024 circomlib ciphers on both cores, medians of 40 runs: 48
/// gave 434k–488k ciphers/s, 128 gave 381k–388k.
const PAR_CHUNK: usize = 48;

impl<F: PrimeField + MimcField> Mimc<F> {
    /// A cipher with validated parameters.
    pub fn new(params: MimcParams<F>) -> Self {
        Self { params }
    }

    /// The parameters.
    pub fn params(&self) -> &MimcParams<F> {
        &self.params
    }

    /// `E_k(x)`, on the field's lowest-latency chain ([`crate::MimcField::power_chain`]:
    /// on BN254 lazily reduced, on the assembly kernels).
    pub fn encrypt(&self, x: F, k: F) -> F {
        F::power_chain(x, k, self.params.constants(), self.params.exponent())
    }

    /// `xs[i] ← E_{ks[i]}(xs[i])` on the calling thread, the chains side by side on the
    /// field's batch kernel ([`crate::MimcField::power_chains`]).
    fn encrypt_in_place(&self, xs: &mut [F], ks: &[F]) -> Result<(), MimcError> {
        check_lengths(xs.len(), ks.len())?;
        let (c, d) = (self.params.constants(), self.params.exponent());
        F::power_chains(xs, ks, c, d)?;
        Ok(())
    }

    /// The Miyaguchi–Preneel hash of `inputs` (one field element per block, no padding) with
    /// initial chaining value `key` (0 in circomlib, gnark, ethsnarks and AMAZE).
    pub fn hash(&self, inputs: &[F], key: F) -> F {
        inputs.iter().fold(key, |h, &m| h + m + self.encrypt(m, h))
    }

    /// Many independent ciphers `E_{k_i}(x_i)` on all cores; each task interleaves independent
    /// lanes (or runs eight per IFMA instruction sequence) to hide multiplication latency.
    ///
    /// # Errors
    /// [`MimcError::LengthMismatch`] when `xs` and `ks` differ in length.
    pub fn encrypt_batch(&self, xs: &[F], ks: &[F]) -> Result<Vec<F>, MimcError> {
        check_lengths(xs.len(), ks.len())?;
        let mut out = xs.to_vec();
        out.par_chunks_mut(PAR_CHUNK)
            .zip(ks.par_chunks(PAR_CHUNK))
            .try_for_each(|(x, k)| self.encrypt_in_place(x, k))?;
        Ok(out)
    }

    /// [`Mimc::encrypt_batch`] on the calling thread only.
    ///
    /// # Errors
    /// [`MimcError::LengthMismatch`] when `xs` and `ks` differ in length.
    pub fn encrypt_batch_single_thread(&self, xs: &[F], ks: &[F]) -> Result<Vec<F>, MimcError> {
        check_lengths(xs.len(), ks.len())?;
        let mut out = xs.to_vec();
        self.encrypt_in_place(&mut out, ks)?;
        Ok(out)
    }

    /// Many independent Miyaguchi–Preneel hashes, all with initial value `key`, on all cores.
    /// Hashes of different lengths may be mixed; lanes are grouped block by block.
    pub fn hash_batch<I: AsRef<[F]> + Sync>(&self, inputs: &[I], key: F) -> Vec<F> {
        let mut out = vec![key; inputs.len()];
        out.par_chunks_mut(PAR_CHUNK / 2)
            .zip(inputs.par_chunks(PAR_CHUNK / 2))
            .for_each(|(h, msgs)| self.hash_group(msgs, h));
        out
    }

    /// Advances the chaining values `h` of a group of hashes block by block, running the block
    /// ciphers of all hashes that still have a block as one batch.
    fn hash_group<I: AsRef<[F]>>(&self, msgs: &[I], h: &mut [F]) {
        for_each_block(msgs, |live, blocks| {
            let ks: Vec<F> = live.iter().map(|&i| h[i]).collect();
            let mut e = blocks.to_vec();
            self.encrypt_in_place(&mut e, &ks)
                .expect("one key per block");
            for ((&i, &m), e) in live.iter().zip(blocks).zip(e) {
                h[i] = h[i] + m + e;
            }
        });
    }
}

pub(crate) fn check_lengths(messages: usize, keys: usize) -> Result<(), MimcError> {
    if messages == keys {
        Ok(())
    } else {
        Err(MimcError::LengthMismatch { messages, keys })
    }
}

impl<F: PrimeField<Limbs = U256> + MimcField> Mimc<F> {
    /// `E_k(x)` with every modular multiplication done by `algorithm`, as the corresponding
    /// AMAZE design computes it: Montgomery is the fast path; Barrett (AMZ-1/1a/1b/2/2a/2b) and
    /// Russian peasant (AMZ-3) work on canonical residues with AMAZE's adders (`a + b`, minus
    /// `p` when that does not go negative).
    ///
    /// # Errors
    /// [`MimcError::Field`] when the field's modulus does not suit the algorithm (Barrett and
    /// Russian peasant take odd moduli below `2^255`, as every 256-bit field here has).
    pub fn encrypt_with(&self, x: F, k: F, algorithm: MulAlgorithm) -> Result<F, MimcError> {
        Ok(match algorithm {
            MulAlgorithm::Montgomery => self.encrypt(x, k),
            MulAlgorithm::Barrett => {
                self.encrypt_residues(&Barrett256::new(F::modulus())?, x, k)?
            }
            MulAlgorithm::RussianPeasant => {
                self.encrypt_residues(&RussianPeasant256::new(F::modulus())?, x, k)?
            }
        })
    }

    /// The Miyaguchi–Preneel hash with every multiplication done by `algorithm`.
    ///
    /// # Errors
    /// As [`Mimc::encrypt_with`].
    pub fn hash_with(&self, inputs: &[F], key: F, algorithm: MulAlgorithm) -> Result<F, MimcError> {
        inputs.iter().try_fold(key, |h, &m| {
            Ok(h + m + self.encrypt_with(m, h, algorithm)?)
        })
    }

    fn encrypt_residues<M: ModularMultiplier>(&self, mul: &M, x: F, k: F) -> Result<F, MimcError> {
        let p = F::modulus();
        let add = |a: &U256, b: &U256| add_mod(a, b, &p);
        let d = self.params.exponent();
        let k = k.to_canonical_limbs();
        let mut x = x.to_canonical_limbs();
        for c in self.params.constants() {
            let t = add(&add(&x, &k), &c.to_canonical_limbs());
            x = pow_residue(mul, &t, d);
        }
        // The modular adders keep residues canonical, which the decoder checks again.
        Ok(F::from_canonical_limbs(add(&x, &k))?)
    }
}

/// `a + b mod p` for canonical `a, b` (AMAZE `galois_add`).
fn add_mod(a: &U256, b: &U256, p: &U256) -> U256 {
    let mut s = *a;
    let carry = limbs::add_assign(&mut s, b);
    if carry != 0 || limbs::cmp(&s, p) != core::cmp::Ordering::Less {
        limbs::sub_assign(&mut s, p);
    }
    s
}

/// `t^d` with the AMAZE schedule, every product by `mul`.
fn pow_residue<M: ModularMultiplier>(mul: &M, t: &U256, d: u64) -> U256 {
    struct Residue<'a, M>(U256, &'a M);
    impl<M> Clone for Residue<'_, M> {
        fn clone(&self) -> Self {
            *self
        }
    }
    impl<M> Copy for Residue<'_, M> {}
    impl<M: ModularMultiplier> core::ops::Mul for Residue<'_, M> {
        type Output = Self;
        fn mul(self, rhs: Self) -> Self {
            Residue(self.1.mul_mod(&self.0, &rhs.0), self.1)
        }
    }
    pow_sbox(Residue(*t, mul), d).0
}

/// The Miyaguchi–Preneel hash with initial chaining value 0 (circomlib's `MultiMiMC7` and
/// circomlibjs's `multiHash` with key 0, gnark's and ethsnarks' hashes).
impl<F: PrimeField + MimcField> zkaccel_symmetric::Hasher<F> for Mimc<F> {
    type Digest = F;
    type Error = MimcError;
    fn hash(&self, inputs: &[F]) -> Result<F, MimcError> {
        Ok(Mimc::hash(self, inputs, F::ZERO))
    }
}

/// The two-to-one Merkle node of circomlib's MiMC7 trees: the hash of the two children with
/// key 0.
impl<F: PrimeField + MimcField> zkaccel_symmetric::Compression<F> for Mimc<F> {
    type Error = MimcError;
    const NAME: &'static str = "mimc";
    fn arity(&self) -> usize {
        2
    }
    fn compress(&self, children: &[F]) -> Result<F, MimcError> {
        pair_length(children.len())?;
        Ok(Mimc::hash(self, children, F::ZERO))
    }
    fn compress_many(&self, children: &[F]) -> Result<Vec<F>, MimcError> {
        pair_length(children.len())?;
        let pairs: Vec<&[F]> = children.chunks_exact(2).collect();
        Ok(self.hash_batch(&pairs, F::ZERO))
    }
}

/// Checks that `len` elements are whole pairs (two-to-one compressions).
///
/// # Errors
/// [`MimcError::InputLength`] (the next even length, or 2 for none) otherwise.
pub(crate) fn pair_length(len: usize) -> Result<(), MimcError> {
    if len == 0 || !len.is_multiple_of(2) {
        return Err(MimcError::InputLength {
            expected: (len + 1).max(2) & !1,
            actual: len,
        });
    }
    Ok(())
}
