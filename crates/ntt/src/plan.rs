//! [`NttPlan`]: the precomputed tables and the public transforms.

use rayon::prelude::*;

use crate::NttField;

use crate::error::NttError;
use core::mem::MaybeUninit;

use crate::four_step::{
    assume_init_mut, copy_uninit_over_pool, extend_dit, transform, transform_dif_checked,
    Direction, Outputs, Shape, SinglePointRows,
};
use crate::kernels::{bit_reverse_points, StageTables};
use crate::memory::{l2_cache_bytes, populate_pages, with_capacity_for_pages};
use std::sync::Arc;

/// The polynomials of a polynomial-major batch from which they share their row twiddles
/// ([`SinglePointRows`]).
const SHARED_ROW_TWIDDLES_MIN_COUNT: usize = 4;

/// The order of a transform's input and output: `N`atural or bit-`R`eversed, input first
/// (UniZK's NN, NR, RN and RR).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Order {
    /// Natural in, natural out.
    NN,
    /// Natural in, bit-reversed out (plain DIF).
    NR,
    /// Bit-reversed in, natural out (plain DIT).
    RN,
    /// Bit-reversed in, bit-reversed out.
    RR,
}

impl Order {
    /// Whether the input is in bit-reversed order.
    pub fn input_reversed(self) -> bool {
        matches!(self, Order::RN | Order::RR)
    }

    /// Whether the output is in bit-reversed order.
    pub fn output_reversed(self) -> bool {
        matches!(self, Order::NR | Order::RR)
    }
}

/// How the polynomials of a batch are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layout {
    /// One polynomial after another (`poly·n + i`).
    PolynomialMajor,
    /// One evaluation point (index) after another, all polynomials' values at that index
    /// together (`i·count + poly`): Plonky2/Plonky3's row-major matrices, UniZK's index-major
    /// layout. Transformed in place without a transpose.
    IndexMajor,
}

/// What the polynomials of a batched low-degree extension are given as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LdeInput {
    /// Coefficients, natural order (plonky2's `PolynomialBatch::from_coeffs`).
    Coefficients,
    /// Evaluations on the subgroup `⟨ω_n⟩`, natural order (plonky2's `from_values`,
    /// Plonky3's `coset_lde_batch`).
    Evaluations,
}

/// The algorithm a plan runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Iterative radix-2 over the whole size (DIF or DIT as the order needs).
    Radix2,
    /// The four-step decomposition into sub-transforms of at most the core size; sizes up to
    /// the core run radix-2 directly.
    FourStep {
        /// `log2` of the core size (12: the NTT paper's 4096 points; 5: UniZK's 32), from 1 to
        /// the field's two-adicity.
        core_log: usize,
    },
}

/// The default core: 4096 points, the NTT paper's core and a size whose working set stays
/// in L1/L2 on current CPUs.
pub const DEFAULT_CORE_LOG: usize = 12;

/// Precomputed twiddles for transforms up to `2^max_log_n` points over `F`.
///
/// Memory: the stage tables hold `2·(2^t − 1)` elements for
/// `t = min(max_log_n, max(core_log + 1, max_log_n − core_log))` (`t = max_log_n` for
/// [`Algorithm::Radix2`]) plus `2·max_log_n` roots; transforms run in
/// place, coset and bit-reversal passes too; [`NttPlan::lde`] allocates its output.
#[derive(Debug, Clone)]
pub struct NttPlan<F> {
    max_log_n: usize,
    core_log: usize,
    forward: Direction<F>,
    inverse: Direction<F>,
    parallel: bool,
    finish: Option<fn(&mut [F])>,
    accept: Option<fn(&[F]) -> bool>,
    huge_pages: bool,
}

impl<F: NttField> NttPlan<F> {
    /// A four-step plan with the default core, multi-threaded.
    ///
    /// # Errors
    /// [`NttError::TooLarge`] when `max_log_n` exceeds the field's two-adicity.
    pub fn new(max_log_n: usize) -> Result<Self, NttError> {
        Self::with_algorithm(
            max_log_n,
            Algorithm::FourStep {
                core_log: DEFAULT_CORE_LOG,
            },
        )
    }

    /// A plan running `algorithm`.
    ///
    /// # Errors
    /// [`NttError::TooLarge`] when `max_log_n` or the four-step core's `core_log` exceeds the
    /// field's two-adicity; [`NttError::CoreTooSmall`] for a zero core size.
    pub fn with_algorithm(max_log_n: usize, algorithm: Algorithm) -> Result<Self, NttError> {
        Self::build(max_log_n, algorithm, |l| Ok(F::two_adic_generator(l)?))
    }

    /// A plan running `algorithm` whose roots of unity derive from `root`, a generator of the
    /// field's whole order-`2^TWO_ADICITY` subgroup: the size-`2^l` root is
    /// `root^(2^(TWO_ADICITY − l))`. For libraries whose convention differs from the field's
    /// [`two_adic_generator`](zkaccel_field::TwoAdicField::two_adic_generator): plonky2
    /// derives Goldilocks' roots from another multiplicative generator than Plonky3 does
    /// (`Goldilocks::plonky2_two_adic_generator(32)` gives its root), so its transforms list
    /// the same evaluations in another order.
    ///
    /// # Errors
    /// As [`NttPlan::with_algorithm`], and [`NttError::NotPrimitiveRoot`] when `root` does not
    /// have order exactly `2^TWO_ADICITY`.
    pub fn with_two_adic_root(
        max_log_n: usize,
        algorithm: Algorithm,
        root: F,
    ) -> Result<Self, NttError> {
        let s = F::TWO_ADICITY;
        // Order exactly 2^s ⇔ root^(2^(s−1)) = −1 (then root^(2^s) = 1).
        if s == 0 || root.exp_power_of_2(s - 1) != F::NEG_ONE {
            return Err(NttError::NotPrimitiveRoot { two_adicity: s });
        }
        Self::build(max_log_n, algorithm, |l| Ok(root.exp_power_of_2(s - l)))
    }

    /// The plan with the size-`2^l` subgroup generators `root(l)`, `l ≤ TWO_ADICITY`.
    fn build(
        max_log_n: usize,
        algorithm: Algorithm,
        root: impl Fn(usize) -> Result<F, NttError>,
    ) -> Result<Self, NttError> {
        if max_log_n > F::TWO_ADICITY {
            return Err(NttError::TooLarge {
                log_n: max_log_n,
                max: F::TWO_ADICITY,
                reason: "the field's two-adicity",
            });
        }
        let core_log = match algorithm {
            Algorithm::Radix2 => max_log_n.max(1),
            Algorithm::FourStep { core_log: 0 } => return Err(NttError::CoreTooSmall),
            // Checked before any arithmetic on it (`core_log + 1` below).
            Algorithm::FourStep { core_log } if core_log > F::TWO_ADICITY => {
                return Err(NttError::TooLarge {
                    log_n: core_log,
                    max: F::TWO_ADICITY,
                    reason: "a four-step core within the field's two-adicity",
                })
            }
            Algorithm::FourStep { core_log } => core_log,
        };
        // Stage tables up to twice the core, or up to the longer factor of the split of the
        // largest size (`max_log_n − core_log` when that exceeds it): the LDE's row pass
        // keeps its columns within the core and so runs longer rows, and may take rows of
        // one stage more than the core where that saves a pass (`extension_split`).
        let table_log = (core_log + 1)
            .max(max_log_n.saturating_sub(core_log))
            .min(max_log_n);
        let direction = |inverse: bool| -> Result<Direction<F>, NttError> {
            let roots = (0..=max_log_n)
                .map(|l| {
                    let w = root(l)?;
                    Ok(if inverse { w.inverse() } else { w })
                })
                .collect::<Result<_, NttError>>()?;
            Ok(Direction {
                tables: StageTables::new(table_log, inverse, &root)?,
                roots,
                single_rows: None,
            })
        };
        Ok(Self {
            max_log_n,
            core_log,
            forward: direction(false)?,
            inverse: direction(true)?,
            parallel: true,
            finish: None,
            accept: None,
            huge_pages: false,
        })
    }

    /// The same plan, asking (`true`) that the outputs its extensions allocate
    /// ([`NttPlan::lde`], [`NttPlan::lde_from_evaluations`], [`NttPlan::lde_batch`]) be backed
    /// by transparent huge pages (Linux `madvise(MADV_HUGEPAGE)`; elsewhere nothing). Off by
    /// default: it saves the page faults of a large output on a machine with free huge pages
    /// (about a tenth of a `2^23`-point extension on an idle 2-core Zen 4), but where memory is
    /// fragmented the kernel compacts it on those faults, and on a long-running shared 2-core
    /// Xeon the `2^20 × 8 → 2^23` extension's median rose by 40 % with it, its runs spread
    /// from 0.84 to 2.0 s.
    pub fn advising_huge_pages(mut self, advise: bool) -> Self {
        self.huge_pages = advise;
        self
    }

    /// The same plan, single-threaded (`false`) or on all of rayon's threads (`true`).
    pub fn parallel(mut self, parallel: bool) -> Self {
        self.parallel = parallel;
        self
    }

    /// The same plan, running `finish` on the outputs of its transforms ([`NttPlan::forward`],
    /// [`NttPlan::inverse`], the coset and batch variants; not the LDEs) right after their
    /// last arithmetic, on runs of outputs still in cache, instead of in a separate pass over
    /// memory. `finish` must leave every element equal as a field element (a change of
    /// representation, as `Goldilocks::canonical_words_mut` makes): the plan
    /// may call it on some elements more than once, and permutes outputs after it.
    pub fn finishing_outputs_with(mut self, finish: fn(&mut [F])) -> Self {
        self.finish = Some(finish);
        self
    }

    /// The same plan, refusing inputs that `accept` rejects: its transforms (as for
    /// [`NttPlan::finishing_outputs_with`]) call `accept` on runs of their inputs and return
    /// [`NttError::InputRejected`] when it returns `false` for one, with the values as they
    /// were (equal as field elements, and finished by the plan's finishing step). A transform
    /// from natural order of one polynomial runs the check inside its first pass, on each run
    /// of inputs just before its first butterfly, and undoes what it had transformed when a
    /// run is refused; the others check all their inputs first, in a pass of their own.
    pub fn checking_inputs_with(mut self, accept: fn(&[F]) -> bool) -> Self {
        self.accept = Some(accept);
        self
    }

    /// `Err(InputRejected)` unless the plan accepts every element of `data` (in parallel
    /// chunks on a parallel plan); `Ok` for a plan without a check.
    fn accept_all(&self, data: &[F]) -> Result<(), NttError> {
        const CHUNK: usize = 1 << 14;
        let Some(accept) = self.accept else {
            return Ok(());
        };
        let ok = if self.parallel {
            data.par_chunks(CHUNK).all(accept)
        } else {
            data.chunks(CHUNK).all(accept)
        };
        if ok {
            Ok(())
        } else {
            Err(NttError::InputRejected)
        }
    }

    /// The largest `log2` size this plan transforms.
    pub fn max_log_n(&self) -> usize {
        self.max_log_n
    }

    /// `log2` of the size up to which sub-transforms run radix-2 directly.
    pub fn core_log(&self) -> usize {
        self.core_log
    }

    fn check_len(&self, len: usize) -> Result<usize, NttError> {
        if !len.is_power_of_two() {
            return Err(NttError::NotPowerOfTwo { len });
        }
        let log_n = len.trailing_zeros() as usize;
        if log_n > self.max_log_n {
            return Err(NttError::TooLarge {
                log_n,
                max: self.max_log_n,
                reason: if self.max_log_n == F::TWO_ADICITY {
                    "the field's two-adicity"
                } else {
                    "the plan's size"
                },
            });
        }
        Ok(log_n)
    }

    /// Transforms `2^log_n` contiguous points of `width` elements, checking the inputs with
    /// the plan's check when `check_inputs` (inside the first pass where it can).
    ///
    /// # Errors
    /// [`NttError::InputRejected`], the values as they were.
    fn run(
        &self,
        data: &mut [F],
        log_n: usize,
        width: usize,
        order: Order,
        inverse: bool,
        check_inputs: bool,
    ) -> Result<(), NttError> {
        let scale = inverse.then(|| Self::inverse_size(log_n));
        match self.accept.filter(|_| check_inputs) {
            Some(accept) if width == 1 && !order.input_reversed() => {
                let (dir, undo) = if inverse {
                    (&self.inverse, &self.forward)
                } else {
                    (&self.forward, &self.inverse)
                };
                let outputs = Outputs {
                    scale,
                    finish: self.finish,
                };
                // SAFETY: `data` is `2^log_n` contiguous elements (the callers checked the
                // length), borrowed mutably for the call; both directions' tables cover
                // `2^min(log_n, core_log)` and their roots `2^log_n`.
                let accepted = unsafe {
                    transform_dif_checked(
                        data.as_mut_ptr(),
                        log_n,
                        dir,
                        undo,
                        self.core_log,
                        outputs,
                        self.parallel,
                        accept,
                    )
                };
                if !accepted {
                    return Err(NttError::InputRejected);
                }
                if order == Order::NN {
                    bit_reverse_points(data, log_n, 1);
                }
            }
            Some(_) => {
                self.accept_all(data)?;
                self.run_scaled(data, log_n, width, order, inverse, scale, self.finish);
            }
            None => self.run_scaled(data, log_n, width, order, inverse, scale, self.finish),
        }
        Ok(())
    }

    /// `1/2^log_n`, the inverse transform's scale.
    fn inverse_size(log_n: usize) -> F {
        F::from_u64_reduced(1u64 << log_n).inverse()
    }

    /// As [`NttPlan::run`], multiplying every output by `scale` (none: the unscaled sum), then
    /// running `finish` on it.
    #[allow(clippy::too_many_arguments)] // a transform's options
    fn run_scaled(
        &self,
        data: &mut [F],
        log_n: usize,
        width: usize,
        order: Order,
        inverse: bool,
        scale: Option<F>,
        finish: Option<fn(&mut [F])>,
    ) {
        let dir = if inverse {
            &self.inverse
        } else {
            &self.forward
        };
        // DIF takes natural input to bit-reversed output, DIT the reverse; a permutation
        // after covers the other two orders.
        let (dif, permute_after) = match order {
            Order::NR => (true, false),
            Order::RN => (false, false),
            Order::NN => (true, true),
            Order::RR => (false, true),
        };
        let shape = Shape {
            log_n,
            width,
            stride: width,
        };
        // SAFETY: `data` holds exactly `2^log_n` contiguous points of `width` elements (the
        // callers checked the length), borrowed mutably for the call; the plan's tables cover
        // `2^min(log_n, core_log)` and its roots `2^log_n`.
        unsafe {
            transform(
                data.as_mut_ptr(),
                shape,
                dir,
                self.core_log,
                dif,
                Outputs { scale, finish },
                self.parallel,
            );
        }
        if permute_after {
            bit_reverse_points(data, log_n, width);
        }
    }

    /// The forward transform in place: `values` (coefficients) become the evaluations on
    /// the subgroup `⟨ω_n⟩`, `X[k] = Σ x[i]·ω_n^{ik}`, in the given orders.
    ///
    /// # Errors
    /// [`NttError::NotPowerOfTwo`] or [`NttError::TooLarge`] for a bad length;
    /// [`NttError::InputRejected`] for an input the plan's check refuses
    /// ([`NttPlan::checking_inputs_with`]), the values as they were.
    pub fn forward(&self, values: &mut [F], order: Order) -> Result<(), NttError> {
        let log_n = self.check_len(values.len())?;
        self.run(values, log_n, 1, order, false, true)
    }

    /// The inverse transform in place (evaluations to coefficients, with the `1/n` scale).
    ///
    /// # Errors
    /// As [`NttPlan::forward`].
    pub fn inverse(&self, values: &mut [F], order: Order) -> Result<(), NttError> {
        let log_n = self.check_len(values.len())?;
        self.run(values, log_n, 1, order, true, true)
    }

    /// Evaluations on the coset `shift·⟨ω_n⟩`: coefficient `i` is multiplied by `shift^i`
    /// before the forward transform. A bit-reversed input is permuted to natural order first.
    ///
    /// # Errors
    /// As [`NttPlan::forward`]; [`NttError::ZeroShift`].
    pub fn coset_forward(&self, values: &mut [F], shift: F, order: Order) -> Result<(), NttError> {
        let log_n = self.check_len(values.len())?;
        check_shift(shift)?;
        // The shift is applied first, so the inputs are checked in a pass of their own.
        self.accept_all(values)?;
        if order.input_reversed() {
            bit_reverse_points(values, log_n, 1);
        }
        scale_by_powers(values, 1, shift, None, self.parallel);
        let natural_in = if order.output_reversed() {
            Order::NR
        } else {
            Order::NN
        };
        self.run(values, log_n, 1, natural_in, false, false)?;
        Ok(())
    }

    /// Coefficients from evaluations on the coset `shift·⟨ω_n⟩` (the inverse of
    /// [`NttPlan::coset_forward`]). A bit-reversed output is permuted at the end.
    ///
    /// # Errors
    /// As [`NttPlan::coset_forward`].
    pub fn coset_inverse(&self, values: &mut [F], shift: F, order: Order) -> Result<(), NttError> {
        let log_n = self.check_len(values.len())?;
        check_shift(shift)?;
        let natural_out = if order.input_reversed() {
            Order::RN
        } else {
            Order::NN
        };
        self.run(values, log_n, 1, natural_out, true, true)?;
        scale_by_powers(values, 1, shift.inverse(), self.finish, self.parallel);
        if order.output_reversed() {
            bit_reverse_points(values, log_n, 1);
        }
        Ok(())
    }

    /// The low-degree extension of a polynomial given by its `n` coefficients (natural
    /// order): its `n·2^log_blowup` evaluations on the coset `shift·⟨ω_{n·2^log_blowup}⟩`,
    /// in natural order. Allocates the output.
    ///
    /// # Errors
    /// As [`NttPlan::coset_forward`] for the extended size.
    pub fn lde(&self, coefficients: &[F], log_blowup: usize, shift: F) -> Result<Vec<F>, NttError> {
        self.lde_batch(
            coefficients,
            1,
            Layout::IndexMajor,
            log_blowup,
            shift,
            LdeInput::Coefficients,
        )
    }

    /// The low-degree extension of a polynomial given by its evaluations on `⟨ω_n⟩` (natural
    /// order), as Plonky3's `coset_lde_batch` computes it: an inverse transform, then
    /// [`NttPlan::lde`]'s extension. No bit-reversal pass runs: the inverse transform leaves
    /// the coefficients bit-reversed, which is where the forward DIT wants them.
    ///
    /// # Errors
    /// As [`NttPlan::lde`].
    pub fn lde_from_evaluations(
        &self,
        evaluations: &[F],
        log_blowup: usize,
        shift: F,
    ) -> Result<Vec<F>, NttError> {
        self.lde_batch(
            evaluations,
            1,
            Layout::IndexMajor,
            log_blowup,
            shift,
            LdeInput::Evaluations,
        )
    }

    /// Turns `values` (`2^log_n` points of `width`, index-major) given as `input` into the
    /// bit-reversed coefficients times the returned factor, in place: the inverse transform
    /// (NR) leaves its `1/n` to the factor, which the extension folds into its shift powers;
    /// coefficients are only bit-reversed.
    fn reversed_coefficients(
        &self,
        values: &mut [F],
        log_n: usize,
        width: usize,
        input: LdeInput,
    ) -> F {
        match input {
            LdeInput::Evaluations => {
                self.run_scaled(values, log_n, width, Order::NR, true, None, None)
            }
            LdeInput::Coefficients => bit_reverse_points(values, log_n, width),
        }
        Self::input_factor(log_n, input)
    }

    /// The factor [`NttPlan::reversed_coefficients`] leaves out of its values: the inverse
    /// transform's `1/n` for evaluations, one for coefficients.
    fn input_factor(log_n: usize, input: LdeInput) -> F {
        match input {
            LdeInput::Evaluations => Self::inverse_size(log_n),
            LdeInput::Coefficients => F::ONE,
        }
    }

    fn batch_shape(&self, len: usize, count: usize) -> Result<usize, NttError> {
        if count == 0 || !len.is_multiple_of(count) {
            return Err(NttError::BatchShape { len, count });
        }
        self.check_len(len / count)
    }

    fn run_batch(
        &self,
        data: &mut [F],
        count: usize,
        layout: Layout,
        order: Order,
        inverse: bool,
    ) -> Result<(), NttError> {
        let log_n = self.batch_shape(data.len(), count)?;
        if layout == Layout::PolynomialMajor {
            // All polynomials checked before any is transformed (they run in parallel).
            self.accept_all(data)?;
        }
        match layout {
            Layout::IndexMajor => self.run(data, log_n, count, order, inverse, true)?,
            Layout::PolynomialMajor if self.parallel && count > 1 => {
                let single = self
                    .sharing_row_twiddles(log_n, count, inverse)
                    .unwrap_or_else(|| self.clone())
                    .parallel(count < rayon::current_num_threads());
                data.par_chunks_mut(1 << log_n)
                    .try_for_each(|p| single.run(p, log_n, 1, order, inverse, false))?;
            }
            Layout::PolynomialMajor => {
                let sharing = self.sharing_row_twiddles(log_n, count, inverse);
                let single = sharing.as_ref().unwrap_or(self);
                for p in data.chunks_mut(1 << log_n) {
                    single.run(p, log_n, 1, order, inverse, false)?;
                }
            }
        }
        Ok(())
    }

    /// The plan for the `count` polynomials of `2^log_n` points of a polynomial-major batch:
    /// from four of them on, and where a polynomial fits half the level-2 cache, one whose
    /// direction holds every row twiddle of their four-step split ([`SinglePointRows`]),
    /// computed once for all of them (one polynomial's size more memory, at most a quarter of
    /// the batch's own); `None` where the batch computes them polynomial by polynomial. Larger
    /// tables come from memory at each polynomial's row pass: the `2^20 × 8` transforms (an
    /// 8 MiB table) took 1–3 % more time with one on the 2-core Xeon (two threads).
    fn sharing_row_twiddles(&self, log_n: usize, count: usize, inverse: bool) -> Option<Self> {
        let table_bytes = core::mem::size_of::<F>() << log_n;
        if count < SHARED_ROW_TWIDDLES_MIN_COUNT || table_bytes > l2_cache_bytes() / 2 {
            return None;
        }
        let scale = inverse.then(|| Self::inverse_size(log_n));
        let dir = if inverse {
            &self.inverse
        } else {
            &self.forward
        };
        let rows = SinglePointRows::new(dir, log_n, self.core_log, scale, self.parallel)?;
        let mut single = self.clone();
        let dir = if inverse {
            &mut single.inverse
        } else {
            &mut single.forward
        };
        dir.single_rows = Some(Arc::new(rows));
        Some(single)
    }

    /// Forward transforms of `count` polynomials of equal power-of-two length stored in
    /// `layout`.
    ///
    /// # Errors
    /// [`NttError::BatchShape`] when `data.len()` is not `count` times a length; as
    /// [`NttPlan::forward`] for that length.
    pub fn forward_batch(
        &self,
        data: &mut [F],
        count: usize,
        layout: Layout,
        order: Order,
    ) -> Result<(), NttError> {
        self.run_batch(data, count, layout, order, false)
    }

    /// The low-degree extensions of `count` polynomials of equal power-of-two length `n`
    /// stored in `layout`: each one's `n·2^log_blowup` evaluations on the coset
    /// `shift·⟨ω_{n·2^log_blowup}⟩`, natural order, returned in the same layout (for
    /// [`Layout::IndexMajor`], the row-major matrix Plonky3's `coset_lde_batch` returns).
    /// Allocates the output; the input is not modified.
    ///
    /// # Errors
    /// [`NttError::BatchShape`] when `data.len()` is not `count` times a length, [`NttError::SizeOverflow`] when the extended
    /// size overflows; as [`NttPlan::lde`] for the extended size; [`NttError::ZeroShift`].
    pub fn lde_batch(
        &self,
        data: &[F],
        count: usize,
        layout: Layout,
        log_blowup: usize,
        shift: F,
        input: LdeInput,
    ) -> Result<Vec<F>, NttError> {
        let mut out = Vec::new();
        self.lde_batch_into(data, count, layout, log_blowup, shift, input, &mut out)?;
        Ok(out)
    }

    /// [`NttPlan::lde_batch`] into `out`, whose contents it replaces and whose allocation it
    /// reuses where large enough: a prover that extends batch after batch then pays the
    /// output's page faults once instead of on every call (on a 2-core Xeon they were a third
    /// of a `2^20 × 8 → 2^23` extension). A new allocation is advised onto huge pages as
    /// [`NttPlan::advising_huge_pages`] says.
    ///
    /// # Errors
    /// As [`NttPlan::lde_batch`]; on an error `out` is left as it was.
    #[allow(clippy::too_many_arguments)] // `lde_batch`'s arguments and the output
    pub fn lde_batch_into(
        &self,
        data: &[F],
        count: usize,
        layout: Layout,
        log_blowup: usize,
        shift: F,
        input: LdeInput,
        out: &mut Vec<F>,
    ) -> Result<(), NttError> {
        let (log_n, total) = self.extension_shape(data.len(), count, log_blowup, shift)?;
        out.clear();
        if out.capacity() < total {
            // The old allocation goes before the new one is made.
            *out = Vec::new();
            *out = with_capacity_for_pages(total, self.huge_pages, self.parallel);
        }
        let slots = &mut out.spare_capacity_mut()[..total];
        // Each polynomial's input goes to the tail of its output block (the whole input to
        // the tail of an index-major output), inside the (parallel) extension.
        let n = data.len() / count;
        let fill = |p: usize, tail: &mut [MaybeUninit<F>]| {
            copy_uninit_over_pool(tail, &data[p * n..p * n + tail.len()], self.parallel);
        };
        self.extend_from_tails(slots, log_n, count, layout, log_blowup, shift, input, fill);
        // SAFETY: `extend_from_tails` wrote all `total` elements of the spare capacity.
        unsafe { out.set_len(total) };
        Ok(())
    }

    /// [`NttPlan::lde_batch`] of the values in `data`, replaced by their extension: the
    /// allocation grows to the output's size (a reallocation, which for large buffers remaps
    /// the pages already written instead of copying them), so no buffer besides the output is
    /// needed, peak memory is the output's alone (the borrowing calls hold the input and the
    /// output), and the input's pages, already written, take no page faults again: `1/2^k` of
    /// the output's. Plonky3's `coset_lde_batch` likewise takes its input by value. The
    /// allocation is the input's, so [`NttPlan::advising_huge_pages`] does not apply to it.
    ///
    /// # Errors
    /// As [`NttPlan::lde_batch`]; on an error `data` is left as it was.
    pub fn lde_batch_in_place(
        &self,
        data: &mut Vec<F>,
        count: usize,
        layout: Layout,
        log_blowup: usize,
        shift: F,
        input: LdeInput,
    ) -> Result<(), NttError> {
        let len = data.len();
        let (log_n, total) = self.extension_shape(len, count, log_blowup, shift)?;
        data.reserve_exact(total - len);
        // The new pages mapped in a few calls, not faulted in one by one by the extension.
        populate_pages(
            data.spare_capacity_mut().as_mut_ptr().cast(),
            (total - len) * size_of::<F>(),
            self.parallel,
        );
        let n = 1usize << log_n;
        // Move each polynomial's input to the tail of its output block of `big = total/count`,
        // the last first: tail `p` starts at `(p + 1)·big − n ≥ (2p + 1)·n` (for `big ≥ 2n`;
        // with `big = n` nothing moves), past every input `q < p` still to move, so no move
        // overwrites a value not yet moved.
        let (moves, src_len) = match layout {
            Layout::PolynomialMajor => (count, n),
            Layout::IndexMajor => (1, len),
        };
        // SAFETY: the allocation holds `total` elements from its start (reserved above), seen
        // as possibly uninitialised slots; `data` is borrowed mutably for the whole call and
        // its length is only set once all of them are written.
        let slots = unsafe {
            core::slice::from_raw_parts_mut(data.as_mut_ptr().cast::<MaybeUninit<F>>(), total)
        };
        for p in (0..moves).rev() {
            let (from, to) = (p * src_len, (p + 1) * (total / moves) - src_len);
            if from + src_len <= to {
                // Disjoint ranges (any blowup of an index-major input): over the rayon pool.
                let (head, tail) = slots.split_at_mut(to);
                // SAFETY: the first `len` slots hold `data`'s values, and this input has not
                // been overwritten by an earlier (later-placed) move.
                let src = unsafe { assume_init_mut(&mut head[from..from + src_len]) };
                copy_uninit_over_pool(&mut tail[..src_len], src, self.parallel);
            } else if from != to {
                slots.copy_within(from..from + src_len, to);
            }
        }
        // The tails hold the inputs already (moved there above).
        let fill = |_: usize, _: &mut [MaybeUninit<F>]| {};
        self.extend_from_tails(slots, log_n, count, layout, log_blowup, shift, input, fill);
        // SAFETY: `extend_from_tails` wrote all `total` elements.
        unsafe { data.set_len(total) };
        Ok(())
    }

    /// The checked shape of an extension of `len` values in `count` polynomials by
    /// `2^log_blowup`: `log2` of a polynomial's length and the output's length.
    fn extension_shape(
        &self,
        len: usize,
        count: usize,
        log_blowup: usize,
        shift: F,
    ) -> Result<(usize, usize), NttError> {
        let log_n = self.batch_shape(len, count)?;
        check_shift(shift)?;
        let n = 1usize << log_n;
        let big = n
            .checked_shl(log_blowup as u32)
            .filter(|&b| b >> log_blowup == n)
            .ok_or(NttError::SizeOverflow {
                what: "the extended size",
            })?;
        self.check_len(big)?;
        let total = big.checked_mul(count).ok_or(NttError::SizeOverflow {
            what: "the batch's extension",
        })?;
        Ok((log_n, total))
    }

    /// The extension in `slots` (`count` output blocks, or one index-major matrix) whose
    /// tails hold the inputs once `fill(p, tail)` has initialised them (called with each
    /// polynomial's block's last `2^log_n` slots, polynomial-major, inside the parallel work,
    /// or once with `p = 0` and the last `count·2^log_n` slots, index-major); the rest may be
    /// uninitialised and is written before it is read. The inputs become their bit-reversed
    /// coefficients there (times `factor`: the inverse transform's `1/n`, folded into the
    /// shift powers) and are extended in place.
    #[allow(clippy::too_many_arguments)] // the extension's options and its fill
    fn extend_from_tails(
        &self,
        slots: &mut [MaybeUninit<F>],
        log_n: usize,
        count: usize,
        layout: Layout,
        log_blowup: usize,
        shift: F,
        input: LdeInput,
        fill: impl Fn(usize, &mut [MaybeUninit<F>]) + Sync,
    ) {
        let n = 1usize << log_n;
        let total = slots.len();
        let big = total / count;
        let (blocks, src_len, width, factor) = match layout {
            Layout::PolynomialMajor => {
                // Each input to its block's tail as bit-reversed coefficients (the
                // polynomials in parallel where there are enough of them), then one extension
                // of all the blocks, whose rows share their twiddles.
                let single = self.clone().parallel(count < rayon::current_num_threads());
                let prepare = |(p, block): (usize, &mut [MaybeUninit<F>])| {
                    fill(p, &mut block[big - n..]);
                    // SAFETY: `fill` initialised the block's tail.
                    let tail = unsafe { assume_init_mut(&mut block[big - n..]) };
                    single.reversed_coefficients(tail, log_n, 1, input);
                };
                if self.parallel {
                    slots.par_chunks_mut(big).enumerate().for_each(prepare);
                } else {
                    slots.chunks_mut(big).enumerate().for_each(prepare);
                }
                // `count` blocks, each of one-element points.
                (count, n, 1, Self::input_factor(log_n, input))
            }
            Layout::IndexMajor => {
                // Row `p` of the reversed coefficients (coefficient `rev(p)`) times
                // `factor·shift^rev(p)` goes to row `p·2^k` of the extension, zeros between,
                // and one forward DIT over rows of `count` elements gives natural order; its
                // first `k` stages are the fill inside the row pass.
                let src_len = n * count;
                fill(0, &mut slots[total - src_len..]);
                // SAFETY: `fill` initialised the tail.
                let tail = unsafe { assume_init_mut(&mut slots[total - src_len..]) };
                let factor = self.reversed_coefficients(tail, log_n, count, input);
                // One block of `count`-element points.
                (1, src_len, count, factor)
            }
        };
        extend_dit(
            slots,
            blocks,
            src_len,
            width,
            shift,
            factor,
            log_blowup,
            &self.forward,
            self.core_log,
            self.parallel,
        );
    }

    /// Inverse transforms of a batch (see [`NttPlan::forward_batch`]).
    ///
    /// # Errors
    /// As [`NttPlan::forward_batch`].
    pub fn inverse_batch(
        &self,
        data: &mut [F],
        count: usize,
        layout: Layout,
        order: Order,
    ) -> Result<(), NttError> {
        self.run_batch(data, count, layout, order, true)
    }
}

fn check_shift<F: NttField>(shift: F) -> Result<(), NttError> {
    if shift.is_zero() {
        Err(NttError::ZeroShift)
    } else {
        Ok(())
    }
}

/// Multiplies point `i` (of `width` elements) by `shift^i`, then runs `finish` on the points.
pub(crate) fn scale_by_powers<F: NttField>(
    data: &mut [F],
    width: usize,
    shift: F,
    finish: Option<fn(&mut [F])>,
    parallel: bool,
) {
    const CHUNK: usize = 1 << 12;
    let run = |(c, chunk): (usize, &mut [F])| {
        let mut w = shift.exp_u64((c * CHUNK) as u64);
        for point in chunk.chunks_mut(width) {
            point.iter_mut().for_each(|x| *x *= w);
            w *= shift;
        }
        if let Some(f) = finish {
            f(chunk);
        }
    };
    if parallel {
        data.par_chunks_mut(CHUNK * width).enumerate().for_each(run);
    } else {
        data.chunks_mut(CHUNK * width).enumerate().for_each(run);
    }
}
