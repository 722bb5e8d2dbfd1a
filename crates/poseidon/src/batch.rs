//! Many independent permutations: one kernel written over packings ([`PoseidonKernel`]), run
//! on the packing each field chooses for the CPU ([`PoseidonField::run_poseidon_packed`]), and
//! its multi-threaded driver.

use rayon::prelude::*;
use zkaccel_field::{Field, Interleaved, PrimeField};

use crate::{PoseidonField, PoseidonKernel, PoseidonPacking};

use crate::error::PoseidonError;
use crate::permutation::{permute_lanes, KernelConstants, MAX_KERNEL_WIDTH};
use crate::Poseidon;

/// States the portable kernel advances together ([`Interleaved`] lanes).
pub const INTERLEAVE: usize = 4;

/// The widest packing the kernel gathers states for; wider ones run the portable kernel.
const MAX_PACKED_LANES: usize = 64;

/// States per rayon task: enough to amortise scheduling, small enough to balance two cores.
const STATES_PER_TASK: usize = 256;

/// Permutes every whole group of `P::WIDTH` states (lane `i` of the packing holds element `i`
/// of each state); returns the untouched remainder.
#[cfg_attr(not(debug_assertions), inline(always))]
fn permute_groups<'a, P: PoseidonPacking>(
    k: &KernelConstants<P::Constant>,
    cpu: P::Cpu,
    states: &'a mut [P::Scalar],
) -> &'a mut [P::Scalar] {
    let t = k.width();
    debug_assert!(t <= MAX_KERNEL_WIDTH && P::WIDTH <= MAX_PACKED_LANES);
    let mut buf = [P::Scalar::ZERO; MAX_PACKED_LANES];
    let buf = &mut buf[..P::WIDTH];
    let mut groups = states.chunks_exact_mut(P::WIDTH * t);
    for group in &mut groups {
        let mut lanes = [P::broadcast(cpu, P::Scalar::ZERO); MAX_KERNEL_WIDTH];
        for (i, lane) in lanes.iter_mut().enumerate().take(t) {
            for (j, b) in buf.iter_mut().enumerate() {
                *b = group[j * t + i];
            }
            *lane = P::from_slice(cpu, buf);
        }
        permute_lanes::<P>(k, cpu, &mut lanes[..t]);
        for (i, lane) in lanes.iter().enumerate().take(t) {
            lane.write_to_slice(buf);
            for (j, &b) in buf.iter().enumerate() {
                group[j * t + i] = b;
            }
        }
    }
    groups.into_remainder()
}

/// The batch kernel: whole states, fewer than `t ≤ MAX_KERNEL_WIDTH` wide.
struct PermuteMany<'a, F> {
    permutation: &'a Poseidon<F>,
    states: &'a mut [F],
}

impl<F: PrimeField + PoseidonField> PoseidonKernel<F> for PermuteMany<'_, F> {
    type Output = ();

    #[inline(always)]
    fn run<P: PoseidonPacking<Scalar = F>>(self, cpu: P::Cpu) {
        let Self {
            permutation: p,
            states,
        } = self;
        let t = p.width();
        if P::WIDTH == 1 || P::WIDTH > MAX_PACKED_LANES {
            // The portable kernel: groups of interleaved states, then one at a time.
            let k = p.kernel_constants();
            let rest = permute_groups::<Interleaved<F, INTERLEAVE>>(k, (), states);
            for s in rest.chunks_exact_mut(t) {
                permute_lanes::<F>(k, (), s);
            }
            return;
        }
        // The constants in the packing's form, converted on the permutation's first use of
        // this form and kept with it.
        let k = p.converted_constants(|c| P::prepare_constant(cpu, c));
        let rest = permute_groups::<P>(&k, cpu, states);
        if !rest.is_empty() {
            // Fewer states than lanes remain: a narrower packing takes them.
            let lanes = rest.len() / t;
            F::run_poseidon_packed(
                lanes,
                PermuteMany {
                    permutation: p,
                    states: rest,
                },
            );
        }
    }
}

/// Permutes whole states on the calling thread, on packings of at most `max_lanes` lanes.
pub(crate) fn permute_many_within<F: PrimeField + PoseidonField>(
    p: &Poseidon<F>,
    max_lanes: usize,
    states: &mut [F],
) {
    let t = p.width();
    if t > MAX_KERNEL_WIDTH {
        for s in states.chunks_exact_mut(t) {
            p.permute_unchecked(s);
        }
        return;
    }
    // A packing wider than the batch would leave every state to the next one.
    let lanes = max_lanes.min(states.len() / t);
    F::run_poseidon_packed(
        lanes,
        PermuteMany {
            permutation: p,
            states,
        },
    );
}

/// Splits the states over the rayon pool; each task runs the single-thread kernel.
pub(crate) fn permute_many_parallel<F: PrimeField + PoseidonField>(
    p: &Poseidon<F>,
    states: &mut [F],
) -> Result<(), PoseidonError> {
    p.check_states(states.len())?;
    let t = p.width();
    states
        .par_chunks_mut(STATES_PER_TASK * t)
        .for_each(|chunk| permute_many_within(p, usize::MAX, chunk));
    Ok(())
}
