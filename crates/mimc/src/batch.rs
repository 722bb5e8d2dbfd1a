//! What the cipher and the sponge share: the textbook round loops (the reference the fast
//! paths are tested against) and the block walk of batched hashes. The rounds themselves run
//! on the field's chain kernels ([`crate::MimcField::power_chain`],
//! [`crate::MimcField::feistel_chain`] and their batch forms): this crate names no field
//! outside its presets.

use zkaccel_field::PrimeField;
use zkaccel_symmetric::sbox::pow_sbox;

use crate::params::MimcParams;

/// `E_k(x)` one round after the other with the field's own operations.
#[inline(always)]
pub fn encrypt_textbook<F: PrimeField>(params: &MimcParams<F>, x: F, k: F) -> F {
    let d = params.exponent();
    let mut x = x;
    // (k + c_i) does not depend on x, so only one addition sits on the critical path.
    for &c in params.constants() {
        x = pow_sbox(x + (k + c), d);
    }
    x + k
}

/// `F_k(xL, xR)` one round after the other with the field's own operations: `t ← (xL + k +
/// c_i)^d`, then `(xL, xR) ← (xR + t, xL)`, except that the last round adds `t` to `xR` and
/// swaps nothing.
#[inline(always)]
pub fn permute_feistel_textbook<F: PrimeField>(params: &MimcParams<F>, l: F, r: F, k: F) -> (F, F) {
    let d = params.exponent();
    let (mut l, mut r) = (l, r);
    let Some((last, rounds)) = params.constants().split_last() else {
        return (l, r);
    };
    for &c in rounds {
        let t = pow_sbox(l + (k + c), d);
        (l, r) = (r + t, l);
    }
    (l, r + pow_sbox(l + (k + *last), d))
}

/// Walks the blocks of many messages in step: for each block index `j`, `step(live, blocks)`
/// gets the indices of the messages that have a `j`-th block and those blocks, so that a batch
/// kernel runs the hashes still absorbing (messages of different lengths may be mixed).
pub(crate) fn for_each_block<F: Copy, I: AsRef<[F]>>(
    msgs: &[I],
    mut step: impl FnMut(&[usize], &[F]),
) {
    let longest = msgs.iter().map(|m| m.as_ref().len()).max().unwrap_or(0);
    let (mut live, mut blocks) = (Vec::with_capacity(msgs.len()), Vec::new());
    for j in 0..longest {
        live.clear();
        blocks.clear();
        for (i, m) in msgs.iter().enumerate() {
            if let Some(&block) = m.as_ref().get(j) {
                live.push(i);
                blocks.push(block);
            }
        }
        step(&live, &blocks);
    }
}
