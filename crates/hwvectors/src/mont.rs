//! The Montgomery multiplier's vectors (hw/common: Algorithm 1 of the FPGA NTT paper), from the
//! word-serial golden model (itself checked against big integers and, through the fields built
//! on it, against arkworks).

use std::fmt::Write as _;

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use zkaccel_field::modmul::MontgomeryWords;
use zkaccel_field::{limbs, PrimeField};

use crate::{HwVectorError, VectorFile, MAX_VECTORS};

/// The multiplier's operand widths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MontWidth {
    /// 256 bits: BN254 Fr, BLS12-381 Fr and a random odd modulus.
    W256,
    /// 384 bits: BLS12-377 Fq, NIST P-384 and a random odd modulus.
    W384,
}

impl MontWidth {
    /// Bits per operand.
    pub fn bits(self) -> u32 {
        match self {
            Self::W256 => 256,
            Self::W384 => 384,
        }
    }
}

/// `mont_vectors_<W>.hex`: per line `p p' a b c` (hex, `W/4` digits each), with
/// `p' = −p^{−1} mod 2^W` and `c = a·b·2^{−W} mod p`, `count` lines for each modulus of the
/// width; the operands are edge values (0, 1, 2, p − 1, p − 2, `2^W mod p`, `2^{2W} mod p`)
/// paired with each other, then random values below `p` from `seed` (which also draws the
/// random modulus).
///
/// # Errors
/// [`HwVectorError::TooLarge`] past [`MAX_VECTORS`] products per modulus.
pub fn vectors(width: MontWidth, count: u64, seed: u64) -> Result<VectorFile, HwVectorError> {
    if count > MAX_VECTORS {
        return Err(HwVectorError::TooLarge {
            what: "products per modulus",
            got: count,
            max: MAX_VECTORS,
        });
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let text = match width {
        MontWidth::W256 => {
            let moduli = [
                zkaccel_bn254::Fr::modulus(),
                zkaccel_bls12_381::Fr::modulus(),
                random_odd_modulus::<4>(&mut rng),
            ];
            lines(&moduli, count, &mut rng)?
        }
        MontWidth::W384 => {
            use zkaccel_fp384::Fp384Config;
            let moduli = [
                zkaccel_bls12_377::Fq::modulus(),
                zkaccel_fp384::NistP384::MODULUS,
                random_odd_modulus::<6>(&mut rng),
            ];
            lines(&moduli, count, &mut rng)?
        }
    };
    Ok(VectorFile {
        name: format!("mont_vectors_{}.hex", width.bits()),
        text,
    })
}

/// An odd modulus with its top bit set (the full width, where the carries are hardest).
fn random_odd_modulus<const N: usize>(rng: &mut StdRng) -> [u64; N] {
    let mut p: [u64; N] = core::array::from_fn(|_| rng.next_u64());
    p[0] |= 1;
    p[N - 1] |= 1 << 63;
    p
}

/// The vector lines of [`vectors`] for each modulus.
fn lines<const N: usize>(
    moduli: &[[u64; N]],
    count: u64,
    rng: &mut StdRng,
) -> Result<String, std::fmt::Error> {
    let digits = 16 * N;
    let word_hex = |w: &[u64; N]| limbs::to_hex(w, digits)[2..].to_owned();
    let mut text = String::new();
    for p in moduli {
        let m = MontgomeryWords::<N>::new(*p);
        let (p_hex, inv_hex) = (word_hex(p), word_hex(&m.neg_inverse()));
        let small = |v: u64| -> [u64; N] { core::array::from_fn(|i| if i == 0 { v } else { 0 }) };
        let minus = |v: u64| -> [u64; N] { m.sub(&[0; N], &small(v)) };
        let edges = [small(0), small(1), small(2), minus(1), minus(2), m.r, m.r2];
        let mut operands: Vec<([u64; N], [u64; N])> = Vec::new();
        for a in &edges {
            for b in &edges {
                operands.push((*a, *b));
            }
        }
        let below_p = |rng: &mut StdRng| -> [u64; N] {
            let wide: Vec<u64> = (0..2 * N).map(|_| rng.next_u64()).collect();
            let r = limbs::rem(&wide, p);
            core::array::from_fn(|i| r.get(i).copied().unwrap_or(0))
        };
        // At most MAX_VECTORS, so the count fits a usize.
        let count = count as usize;
        while operands.len() < count {
            operands.push((below_p(rng), below_p(rng)));
        }
        operands.truncate(count);
        for (a, b) in &operands {
            let c = m.mul(a, b);
            writeln!(
                text,
                "{p_hex} {inv_hex} {} {} {}",
                word_hex(a),
                word_hex(b),
                word_hex(&c)
            )?;
        }
    }
    Ok(text)
}
