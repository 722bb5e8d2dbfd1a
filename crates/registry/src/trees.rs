//! The Merkle tree standards zkaccel builds byte for byte, by one name each, and a visitor
//! that runs generic tree code on the hasher a [`TreeSpec`] names.

use core::fmt;
use core::str::FromStr;

use zkaccel_merkle::TreeHasher;
use zkaccel_plonky2::Plonky2Hasher;
use zkaccel_poseidon::PoseidonError;
use zkaccel_presets::{CircomHasher, CircomPoseidon, NeptuneHasher, NeptunePoseidon, Strength};

use zkaccel_bls12_381::Fr as Bls381Fr;

use crate::{FieldId, RegisteredField};

/// The tree standards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TreePreset {
    /// plonky2's `MerkleTree` (Goldilocks rows hashed with `hash_or_noop`, binary, caps).
    Plonky2,
    /// neptune (Filecoin) over BLS12-381 Fr: single-element leaves, arities 2, 4, 8, 11, …
    Neptune,
    /// circomlib's Poseidon over BN254 Fr: single-element leaves, arity 2 to 16.
    Circomlib,
}

impl TreePreset {
    /// Every preset, in the order front ends list them.
    pub const ALL: [TreePreset; 3] = [
        TreePreset::Plonky2,
        TreePreset::Neptune,
        TreePreset::Circomlib,
    ];

    /// The name front ends show and accept.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Plonky2 => "plonky2",
            Self::Neptune => "neptune",
            Self::Circomlib => "circomlib",
        }
    }

    /// The field of the preset's leaves and digests.
    #[must_use]
    pub const fn field(self) -> FieldId {
        match self {
            Self::Plonky2 => FieldId::Goldilocks,
            Self::Neptune => FieldId::Bls12_381,
            Self::Circomlib => FieldId::Bn254,
        }
    }
}

impl fmt::Display for TreePreset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TreePreset {
    type Err = TreeSpecError;

    fn from_str(name: &str) -> Result<Self, TreeSpecError> {
        Self::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| TreeSpecError::UnknownPreset {
                name: name.to_owned(),
            })
    }
}

/// Why a [`TreeSpec`] names no hasher.
#[derive(Debug, thiserror::Error)]
pub enum TreeSpecError {
    /// A preset name no front end knows.
    #[error("unknown tree preset {name:?}; known: plonky2, neptune, circomlib")]
    UnknownPreset {
        /// The name given.
        name: String,
    },
    /// plonky2's trees are binary.
    #[error("plonky2 trees are binary: arity 2, not {arity}")]
    NotBinary {
        /// The arity asked for.
        arity: usize,
    },
    /// A strength other than the standard one for a preset that has none.
    #[error("the strength applies to neptune trees only, not {preset}")]
    StrengthNotApplicable {
        /// The preset.
        preset: TreePreset,
    },
    /// The preset has no instance at this arity (neptune's and circomlib's own refusal).
    #[error(transparent)]
    Poseidon(#[from] PoseidonError),
}

/// A tree hasher of the registry: its leaves and digests are elements of a
/// [`RegisteredField`], so front ends convert them with the registry's words form.
pub trait RegisteredHasher:
    TreeHasher<Element: RegisteredField> + Clone + Send + Sync + 'static
{
}

impl<H> RegisteredHasher for H where
    H: TreeHasher<Element: RegisteredField> + Clone + Send + Sync + 'static
{
}

/// Generic tree code to run on the hasher a [`TreeSpec`] names ([`TreeSpec::visit`]).
pub trait TreeVisitor {
    /// What the code returns.
    type Output;
    /// Runs the code with `hasher`.
    fn visit<H: RegisteredHasher>(self, hasher: H) -> Self::Output;
}

/// A tree standard at an arity (and, for neptune, a strength).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TreeSpec {
    /// The standard.
    pub preset: TreePreset,
    /// Children per node.
    pub arity: usize,
    /// neptune's strength; [`Strength::Standard`] for the others.
    pub strength: Strength,
}

impl TreeSpec {
    /// Runs `visitor` with the hasher this spec names.
    ///
    /// # Errors
    /// [`TreeSpecError::NotBinary`] for a plonky2 tree of another arity,
    /// [`TreeSpecError::StrengthNotApplicable`] for a strengthened tree of a preset without
    /// strengths, and the preset's own refusal of an arity it has no instance for.
    pub fn visit<V: TreeVisitor>(&self, visitor: V) -> Result<V::Output, TreeSpecError> {
        if self.preset != TreePreset::Neptune && self.strength != Strength::Standard {
            return Err(TreeSpecError::StrengthNotApplicable {
                preset: self.preset,
            });
        }
        Ok(match self.preset {
            TreePreset::Plonky2 => {
                if self.arity != 2 {
                    return Err(TreeSpecError::NotBinary { arity: self.arity });
                }
                visitor.visit(Plonky2Hasher)
            }
            TreePreset::Neptune => {
                let node = NeptunePoseidon::<Bls381Fr>::new(self.arity, self.strength)?;
                visitor.visit(NeptuneHasher::new(node))
            }
            TreePreset::Circomlib => {
                visitor.visit(CircomHasher::new(CircomPoseidon::for_inputs(self.arity)?))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkaccel_field::Field;
    use zkaccel_merkle::MerkleTree;

    /// The cap of a small tree, as canonical words, built with whichever hasher is visited.
    struct CapWords {
        leaves: usize,
    }
    impl TreeVisitor for CapWords {
        type Output = (FieldId, Vec<u64>);
        fn visit<H: RegisteredHasher>(self, hasher: H) -> Self::Output {
            let leaves: Vec<H::Element> = (0..self.leaves as u64)
                .map(|i| H::Element::from_u64_reduced(3 * i + 1))
                .collect();
            let tree = MerkleTree::new(hasher, leaves, 1, 0).expect("a valid tree");
            let elements: Vec<H::Element> =
                tree.cap().iter().flat_map(H::digest_elements).collect();
            (H::Element::ID, H::Element::to_canonical_words(&elements))
        }
    }

    /// The same cap, built with the hasher named directly.
    fn direct_cap<H: RegisteredHasher>(hasher: H, leaves: usize) -> Vec<u64> {
        CapWords { leaves }.visit(hasher).1
    }

    #[test]
    fn every_preset_visits_its_own_hasher() {
        let spec = |preset, arity| TreeSpec {
            preset,
            arity,
            strength: Strength::Standard,
        };
        let (field, cap) = spec(TreePreset::Plonky2, 2)
            .visit(CapWords { leaves: 8 })
            .unwrap();
        assert_eq!(field, FieldId::Goldilocks);
        assert_eq!(cap, direct_cap(Plonky2Hasher, 8));
        for arity in [2, 4, 8] {
            let (field, cap) = spec(TreePreset::Neptune, arity)
                .visit(CapWords {
                    leaves: arity * arity,
                })
                .unwrap();
            assert_eq!(field, TreePreset::Neptune.field());
            let node = NeptunePoseidon::<Bls381Fr>::new(arity, Strength::Standard).unwrap();
            let direct = NeptuneHasher::new(node);
            assert_eq!(cap, direct_cap(direct, arity * arity));
        }
        let (field, cap) = spec(TreePreset::Circomlib, 3)
            .visit(CapWords { leaves: 9 })
            .unwrap();
        assert_eq!(field, TreePreset::Circomlib.field());
        let direct = CircomHasher::new(CircomPoseidon::for_inputs(3).unwrap());
        assert_eq!(cap, direct_cap(direct, 9));
        // The strengthened neptune tree is another tree.
        let strong = TreeSpec {
            strength: Strength::Strengthened,
            ..spec(TreePreset::Neptune, 2)
        };
        assert_ne!(strong.visit(CapWords { leaves: 4 }).unwrap().1, {
            spec(TreePreset::Neptune, 2)
                .visit(CapWords { leaves: 4 })
                .unwrap()
                .1
        });
    }

    #[test]
    fn specs_without_a_hasher_are_refused_with_their_reason() {
        let refuse = |preset, arity, strength| {
            TreeSpec {
                preset,
                arity,
                strength,
            }
            .visit(CapWords { leaves: 4 })
            .unwrap_err()
        };
        assert!(matches!(
            refuse(TreePreset::Plonky2, 4, Strength::Standard),
            TreeSpecError::NotBinary { arity: 4 }
        ));
        assert!(matches!(
            refuse(TreePreset::Circomlib, 2, Strength::Strengthened),
            TreeSpecError::StrengthNotApplicable {
                preset: TreePreset::Circomlib
            }
        ));
        // circomlib has instances for 1 to 16 inputs (a tree then refuses arity 1 itself).
        for arity in [0, 17, usize::MAX] {
            assert!(matches!(
                refuse(TreePreset::Circomlib, arity, Strength::Standard),
                TreeSpecError::Poseidon(_)
            ));
        }
        assert!(matches!(
            refuse(TreePreset::Neptune, 0, Strength::Standard),
            TreeSpecError::Poseidon(_)
        ));
        for preset in TreePreset::ALL {
            assert_eq!(preset.name().parse::<TreePreset>().unwrap(), preset);
        }
        assert!(matches!(
            "Plonky2".parse::<TreePreset>(),
            Err(TreeSpecError::UnknownPreset { .. })
        ));
    }
}
