#![doc = include_str!("../README.md")]

pub mod sbox;

/// A permutation of a state of [`Permutation::width`] elements (Plonky3's
/// `CryptographicPermutation`), with the width fixed when the permutation is built.
pub trait Permutation<T>: Sync {
    /// Why a state was refused.
    type Error: std::error::Error;

    /// Elements per state.
    fn width(&self) -> usize;

    /// The permutation as kernel traces and the hardware models name it: algorithm, field,
    /// width (e.g. `poseidon-goldilocks-12`).
    fn name(&self) -> String;

    /// Permutes one state in place.
    ///
    /// # Errors
    /// When `state.len()` is not [`Permutation::width`] (nothing is written).
    fn permute_mut(&self, state: &mut [T]) -> Result<(), Self::Error>;

    /// Permutes consecutive states of [`Permutation::width`] elements in place; the default
    /// runs [`Permutation::permute_mut`] on each, implementations run them side by side.
    ///
    /// # Errors
    /// When `states.len()` is not a multiple of the width (nothing is written).
    fn permute_many(&self, states: &mut [T]) -> Result<(), Self::Error>;
}

/// A hash of any number of elements to a digest (Plonky3's `CryptographicHasher`): a sponge,
/// or a chained construction such as Miyaguchi–Preneel.
pub trait Hasher<T>: Sync {
    /// The hash value.
    type Digest;
    /// Why an input was refused.
    type Error: std::error::Error;

    /// The hash of `input`.
    ///
    /// # Errors
    /// When the hasher cannot take `input` (too many elements for a fixed-width hash).
    fn hash(&self, input: &[T]) -> Result<Self::Digest, Self::Error>;
}

/// A compression of exactly [`Compression::arity`] digests into one (Plonky3's
/// `PseudoCompressionFunction`, with the arity fixed when the compression is built): the
/// node hash of an arity-`k` Merkle tree.
pub trait Compression<D>: Sync {
    /// Why the children were refused.
    type Error: std::error::Error;

    /// A short name for proofs and the command line (`"circomlib"`, `"neptune"`).
    const NAME: &'static str;

    /// Digests per node.
    fn arity(&self) -> usize;

    /// Distinguishes parameter sets of one compression whose outputs differ (neptune: 0 for
    /// the Standard strength, 1 for Strengthened); 0 where there is none.
    fn variant(&self) -> u8 {
        0
    }

    /// The parent of exactly [`Compression::arity`] children.
    ///
    /// # Errors
    /// For another number of children.
    fn compress(&self, children: &[D]) -> Result<D, Self::Error>;

    /// The parents of consecutive groups of [`Compression::arity`] children, on all cores.
    ///
    /// # Errors
    /// When `children.len()` is not a multiple of the arity.
    fn compress_many(&self, children: &[D]) -> Result<Vec<D>, Self::Error>;
}

impl<T, P: Permutation<T> + ?Sized> Permutation<T> for &P {
    type Error = P::Error;
    fn width(&self) -> usize {
        (**self).width()
    }
    fn name(&self) -> String {
        (**self).name()
    }
    fn permute_mut(&self, state: &mut [T]) -> Result<(), P::Error> {
        (**self).permute_mut(state)
    }
    fn permute_many(&self, states: &mut [T]) -> Result<(), P::Error> {
        (**self).permute_many(states)
    }
}

/// A field's name as a lower-case slug for [`Permutation::name`] (`"BN254 Fr"` → `bn254-fr`).
pub fn name_slug(name: &str) -> String {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|part| !part.is_empty())
        .map(str::to_ascii_lowercase)
        .collect::<Vec<_>>()
        .join("-")
}

impl<T, H: Hasher<T> + ?Sized> Hasher<T> for &H {
    type Digest = H::Digest;
    type Error = H::Error;
    fn hash(&self, input: &[T]) -> Result<H::Digest, H::Error> {
        (**self).hash(input)
    }
}

impl<D, C: Compression<D> + ?Sized> Compression<D> for &C {
    type Error = C::Error;
    const NAME: &'static str = C::NAME;
    fn arity(&self) -> usize {
        (**self).arity()
    }
    fn variant(&self) -> u8 {
        (**self).variant()
    }
    fn compress(&self, children: &[D]) -> Result<D, C::Error> {
        (**self).compress(children)
    }
    fn compress_many(&self, children: &[D]) -> Result<Vec<D>, C::Error> {
        (**self).compress_many(children)
    }
}
