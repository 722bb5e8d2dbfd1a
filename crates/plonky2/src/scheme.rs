//! plonky2's FRI scheme.

use std::sync::OnceLock;

use zkaccel_field::{ExtensionField, Field, TwoAdicField};
use zkaccel_fri::FriScheme;
use zkaccel_goldilocks::{Goldilocks, Goldilocks2};
use zkaccel_poseidon::Poseidon;

use crate::{Plonky2Challenger, Plonky2Hasher};

/// plonky2's and starky's scheme (`PoseidonGoldilocksConfig`, `D = 2`): Goldilocks and its
/// quadratic extension `X² − 7`, Poseidon (width 12) for the trees (`hash_or_noop` leaves,
/// `two_to_one` nodes) and the transcript (duplex, rate 8), the coset shift and roots of
/// unity from plonky2's multiplicative generator `14293326489335486720`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Plonky2Goldilocks;

impl FriScheme for Plonky2Goldilocks {
    type F = Goldilocks;
    type E = Goldilocks2;
    type Hasher = Plonky2Hasher;
    type Permutation = &'static Poseidon<Goldilocks>;

    const NAME: &'static str = "plonky2-goldilocks";

    fn hasher() -> Plonky2Hasher {
        Plonky2Hasher
    }

    fn challenger() -> Plonky2Challenger {
        crate::challenger()
    }

    fn coset_shift() -> Goldilocks {
        Goldilocks::PLONKY2_GENERATOR
    }

    fn base_root() -> Goldilocks {
        Goldilocks::plonky2_two_adic_generator(Goldilocks::TWO_ADICITY)
            .expect("the two-adicity is within range")
    }

    fn extension_root() -> Goldilocks2 {
        static ROOT: OnceLock<Goldilocks2> = OnceLock::new();
        *ROOT.get_or_init(|| {
            // A square root of the base root: order 2^33, and its even powers are the base
            // field's roots.
            Goldilocks2::from_base(Self::base_root())
                .sqrt()
                .expect("the base root is a square in the extension")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkaccel_field::Algebra;

    #[test]
    fn the_extension_root_squares_to_the_base_root() {
        let r = Plonky2Goldilocks::extension_root();
        assert_eq!(
            r.square(),
            Goldilocks2::from_base(Plonky2Goldilocks::base_root())
        );
        assert_ne!(r.exp_power_of_2(32), Goldilocks2::ONE);
    }
}
