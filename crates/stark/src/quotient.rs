//! The constraints on the LDE coset, combined with each challenge and divided by the
//! vanishing polynomial (starky's `compute_quotient_polys` before its interpolation),
//! evaluated on packed lanes; and the per-point program of field operations that the kernel
//! trace records, derived by running this same code over elements that log their operations.

use rayon::prelude::*;
use zkaccel_field::{Field, PackedField, PackedKernel};
use zkaccel_fri::{FriScheme, PolynomialBatch};
use zkaccel_kernel_trace::VectorOp;

use crate::air::{Air, Combiner};
use crate::op_program::{logged, marginal, Counted};
use crate::StarkError;

/// Points per parallel task (and per batch inversion of the selectors' denominators).
pub(crate) const CHUNK: usize = 1 << 10;

/// The quotient's evaluation domain: the coset `shift·⟨ω⟩` of `size = n·2^qdb` points, read
/// from the trace's LDE every `step` points, with the next row `next_step` points on.
#[derive(Debug, Clone)]
pub(crate) struct Domain<T> {
    pub(crate) size: usize,
    pub(crate) step: usize,
    pub(crate) next_step: usize,
    pub(crate) shift: T,
    pub(crate) omega: T,
    pub(crate) g: T,
    pub(crate) g_inv: T,
    /// `n` as a field element.
    pub(crate) n: T,
    /// `Z_H(x) = x^n − 1` on the coset: `2^qdb` values, repeating.
    pub(crate) z_h: Vec<T>,
    /// Their inverses.
    pub(crate) z_h_inverses: Vec<T>,
}

/// A chunk's row selectors, per point: `x − g^{-1}` (the transition filter) and the first
/// and last rows' Lagrange selectors.
#[derive(Debug, Default)]
pub(crate) struct Selectors<T> {
    pub(crate) z_last: Vec<T>,
    pub(crate) first: Vec<T>,
    pub(crate) last: Vec<T>,
}

/// The selectors of points `start..start + len` from the chunk's first point `x`: the points
/// (`x ← x·ω`), the denominators `n(x − 1)` and `n(gx − 1)` inverted together, and each
/// times `Z_H(x)`.
pub(crate) fn selectors<T: Field>(
    domain: &Domain<T>,
    mut x: T,
    start: usize,
    len: usize,
    out: &mut Selectors<T>,
) {
    let mut xs = Vec::with_capacity(len);
    for _ in 0..len {
        xs.push(x);
        x *= domain.omega;
    }
    let mut dens: Vec<T> = xs
        .iter()
        .flat_map(|&x| [domain.n * (x - T::ONE), domain.n * (domain.g * x - T::ONE)])
        .collect();
    batch_inverse(&mut dens);
    out.z_last.clear();
    out.first.clear();
    out.last.clear();
    for (k, &x) in xs.iter().enumerate() {
        let z_h = domain.z_h[(start + k) % domain.next_step];
        out.z_last.push(x - domain.g_inv);
        out.first.push(z_h * dens[2 * k]);
        out.last.push(z_h * dens[2 * k + 1]);
    }
}

/// One group of `P::WIDTH` points: the AIR's constraints combined with each challenge (the
/// accumulators, which start at zero), each combination times `1/Z_H`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn combine<A: Air, P: PackedField>(
    air: &A,
    cpu: P::Cpu,
    local: &[P],
    next: &[P],
    public_inputs: &[P],
    alphas: &[P],
    [z_last, lagrange_first, lagrange_last]: [P; 3],
    z_h_inverse: P,
    accumulators: &mut [P],
) {
    let zero = P::broadcast(cpu, P::Scalar::ZERO);
    accumulators.iter_mut().for_each(|a| *a = zero);
    let mut builder = Combiner {
        local,
        next,
        public_inputs,
        alphas,
        accumulators: &mut *accumulators,
        z_last,
        lagrange_first,
        lagrange_last,
        lift: |c| P::broadcast(cpu, c),
        _field: core::marker::PhantomData,
    };
    air.eval(&mut builder);
    accumulators.iter_mut().for_each(|a| *a *= z_h_inverse);
}

/// The combinations `Σ α^k·C_k(x)/Z_H(x)` at every point of the domain, point-major
/// (`out[i·alphas + j]`), chunk by chunk on all cores, each chunk on the widest packing the
/// CPU offers.
///
/// # Errors
/// [`StarkError::Fri`] when the trace's LDE is shorter than the domain reads.
pub(crate) fn evaluate<A: Air, S: FriScheme>(
    air: &A,
    trace: &PolynomialBatch<S>,
    domain: &Domain<S::F>,
    public_inputs: &[S::F],
    alphas: &[S::F],
) -> Result<Vec<S::F>, StarkError> {
    let chunks: Vec<Vec<S::F>> = (0..domain.size)
        .into_par_iter()
        .step_by(CHUNK)
        .map(|start| {
            let end = (start + CHUNK).min(domain.size);
            let mut out = vec![S::F::ZERO; (end - start) * alphas.len()];
            S::F::run_packed(Chunk {
                air,
                trace,
                domain,
                public_inputs,
                alphas,
                start,
                end,
                out: &mut out,
            })?;
            Ok(out)
        })
        .collect::<Result<_, StarkError>>()?;
    Ok(chunks.concat())
}

/// One chunk of [`evaluate`], as a kernel over the packing [`Field::run_packed`] chooses.
struct Chunk<'a, A, S: FriScheme> {
    air: &'a A,
    trace: &'a PolynomialBatch<S>,
    domain: &'a Domain<S::F>,
    public_inputs: &'a [S::F],
    alphas: &'a [S::F],
    start: usize,
    end: usize,
    out: &'a mut [S::F],
}

impl<A: Air, S: FriScheme> PackedKernel<S::F> for Chunk<'_, A, S> {
    type Output = Result<(), StarkError>;

    #[inline(always)]
    fn run<P: PackedField<Scalar = S::F>>(mut self, cpu: P::Cpu) -> Self::Output {
        let (domain, start) = (self.domain, self.start);
        let len = self.end - start;
        let mut sel = Selectors::default();
        let x = domain.shift * domain.omega.exp_u64(start as u64);
        selectors(domain, x, start, len, &mut sel);
        let whole = len / P::WIDTH * P::WIDTH;
        lanes::<A, S, P>(&mut self, cpu, &sel, 0, whole)?;
        // A chunk shorter than the packing (a small domain): one point at a time.
        lanes::<A, S, S::F>(&mut self, (), &sel, whole, len)
    }
}

/// Points `from..to` of a chunk (a multiple of `P::WIDTH` of them), `P::WIDTH` at a time.
#[inline(always)]
fn lanes<A: Air, S: FriScheme, P: PackedField<Scalar = S::F>>(
    chunk: &mut Chunk<'_, A, S>,
    cpu: P::Cpu,
    sel: &Selectors<S::F>,
    from: usize,
    to: usize,
) -> Result<(), StarkError> {
    let (domain, w) = (chunk.domain, P::WIDTH);
    let columns = chunk.air.columns();
    let challenges = chunk.alphas.len();
    let broadcast =
        |values: &[S::F]| -> Vec<P> { values.iter().map(|&v| P::broadcast(cpu, v)).collect() };
    let public_inputs = broadcast(chunk.public_inputs);
    let alphas = broadcast(chunk.alphas);
    let zero = P::broadcast(cpu, S::F::ZERO);
    let (mut local, mut next) = (vec![zero; columns], vec![zero; columns]);
    let mut accumulators = vec![zero; challenges];
    // Lane-major staging: `rows[c·w + l]` is column `c` at lane `l`.
    let (mut local_rows, mut next_rows) =
        (vec![S::F::ZERO; columns * w], vec![S::F::ZERO; columns * w]);
    let mut z_h_inverses = vec![S::F::ZERO; w];
    let mut lanes_out = vec![S::F::ZERO; w];
    for k in (from..to).step_by(w) {
        for l in 0..w {
            let i = chunk.start + k + l;
            let row = chunk.trace.lde_values(i, domain.step)?;
            let next_row = chunk
                .trace
                .lde_values((i + domain.next_step) % domain.size, domain.step)?;
            for c in 0..columns {
                local_rows[c * w + l] = row[c];
                next_rows[c * w + l] = next_row[c];
            }
            z_h_inverses[l] = domain.z_h_inverses[i % domain.next_step];
        }
        for c in 0..columns {
            local[c] = P::from_slice(cpu, &local_rows[c * w..(c + 1) * w]);
            next[c] = P::from_slice(cpu, &next_rows[c * w..(c + 1) * w]);
        }
        let filters =
            [&sel.z_last, &sel.first, &sel.last].map(|s| P::from_slice(cpu, &s[k..k + w]));
        combine(
            chunk.air,
            cpu,
            &local,
            &next,
            &public_inputs,
            &alphas,
            filters,
            P::from_slice(cpu, &z_h_inverses),
            &mut accumulators,
        );
        for (j, acc) in accumulators.iter().enumerate() {
            acc.write_to_slice(&mut lanes_out);
            for (l, &v) in lanes_out.iter().enumerate() {
                chunk.out[(k + l) * challenges + j] = v;
            }
        }
    }
    Ok(())
}

/// The per-point program of [`evaluate`], derived from its code: [`selectors`] run over
/// [`Counted`] elements for one point and for two (the difference is one point's share,
/// its batch inversion's three products per denominator included and the chunk's one
/// inversion, recorded apart, left out), then [`combine`] for one lane. The trace values,
/// the filters and `1/Z_H` vary per point; challenges, public inputs and constants do not.
pub(crate) fn point_program<A: Air, F: Field>(air: &A, challenges: usize) -> Vec<VectorOp> {
    let varying = Counted::<F>::varying;
    let constant = Counted::<F>::constant;
    let domain = Domain {
        size: 2,
        step: 1,
        next_step: 2,
        shift: constant(F::GENERATOR),
        omega: constant(F::NEG_ONE),
        g: constant(F::NEG_ONE),
        g_inv: constant(F::NEG_ONE),
        n: constant(F::TWO),
        z_h: vec![varying(F::TWO), varying(F::TWO)],
        z_h_inverses: vec![varying(F::ONE), varying(F::ONE)],
    };
    let run = |points: usize| {
        logged(|| {
            let mut sel = Selectors::default();
            selectors(&domain, varying(F::GENERATOR), 0, points, &mut sel);
        })
    };
    let mut ops = marginal(&run(2), &run(1));
    let columns = air.columns();
    let local = vec![varying(F::ONE); columns];
    let next = vec![varying(F::TWO); columns];
    let public_inputs = vec![constant(F::ONE); air.public_inputs()];
    let alphas = vec![constant(F::TWO); challenges];
    let mut accumulators = vec![Counted::ZERO; challenges];
    ops.extend(logged(|| {
        combine::<A, Counted<F>>(
            air,
            (),
            &local,
            &next,
            &public_inputs,
            &alphas,
            [varying(F::ONE); 3],
            varying(F::ONE),
            &mut accumulators,
        );
    }));
    ops
}

/// Inverts every element in place (Montgomery's trick: one inversion). Zeros stay zero.
pub(crate) fn batch_inverse<F: Field>(values: &mut [F]) {
    let mut prefix = Vec::with_capacity(values.len());
    let mut acc = F::ONE;
    for v in values.iter() {
        prefix.push(acc);
        if !v.is_zero() {
            acc *= *v;
        }
    }
    let mut inv = acc.inverse();
    for (v, p) in values.iter_mut().zip(prefix).rev() {
        if !v.is_zero() {
            let new = inv * p;
            inv *= *v;
            *v = new;
        }
    }
}

/// The trace check's per-row program: the AIR's constraints with their 0/1 row filters,
/// recorded one by one (no combination), derived from the checker's own builder.
pub(crate) fn row_program<A: Air, F: Field>(air: &A) -> Vec<VectorOp> {
    let local = vec![Counted::<F>::varying(F::ONE); air.columns()];
    let next = vec![Counted::<F>::varying(F::TWO); air.columns()];
    let public_inputs = vec![Counted::<F>::constant(F::ONE); air.public_inputs()];
    let mut values = Vec::new();
    logged(|| {
        let mut recorder = crate::air::Recorder {
            local: &local,
            next: &next,
            public_inputs: &public_inputs,
            // The filters are 0 or 1 and change along the trace.
            z_last: Counted::varying(F::ONE),
            lagrange_first: Counted::varying(F::ONE),
            lagrange_last: Counted::varying(F::ONE),
            values: &mut values,
        };
        air.eval(&mut recorder);
    })
}
