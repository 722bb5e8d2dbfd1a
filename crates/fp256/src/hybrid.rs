//! Six lanes of a 256-bit field in one instruction stream: four in AVX2 registers (radix
//! `2^29`, as [`LazyPackedFp256Avx2`]) and two in general registers (radix `2^64`, as
//! [`LazyFp256`]), all lazily reduced.
//!
//! The AVX2 product kernel keeps the vector multipliers busy and leaves the integer multiplier
//! idle; a scalar product is the reverse. Run one after the other, the two barely overlap,
//! because each is a long dependent chain that fills the out-of-order window (a scalar lane
//! beside four vector lanes cost nearly its own time). The kernels here interleave the two
//! instruction streams line by line (`tools/gen_avx2_asm.py hybrid-mul|hybrid-square`): the
//! vector product with its carry pass, and two scalar lazy CIOS products spread among its
//! lines, so six lanes cost little more than four did (`PERF.md`, "The hybrid kernels"). A
//! third kernel (`hybrid-mul-add`) is the product with an addend added to
//! its result, so that a MiMC round's last product hands the next round its input
//! ([`LazyHybridFp256::power_of_sum_rounds`]).
//!
//! Each kernel is some 650 instructions and inlines into its caller: a chain that runs many
//! of them should loop over its steps (`zkaccel_symmetric::sbox::run_sbox_schedule` for the S-box)
//! rather than unroll them, or the loop outgrows the CPU's cache of decoded instructions.
//!
//! The lanes keep their own representations: the vector lanes `x·2^261` plus a multiple of `p`
//! below `2p + 2^234` (eight low limbs normalised), the scalar lanes `x·2^256` plus a multiple
//! of `p` below `2p`. The scalar lanes need `4p < 2^256` ([`LazyFp256::SUPPORTED`]: BN254 Fr,
//! not BLS12-381 Fr) and BMI2 and ADX.

use core::arch::x86_64::__m256i;
use core::marker::PhantomData;
use core::ops::Mul;

use zkaccel_field::modmul::U256;
use zkaccel_symmetric::sbox::{run_sbox_schedule, SboxArithmetic, SboxStep, SBOX_REGISTERS};

use crate::arith::{add_words, backend, sub_words};
use crate::avx2::{LazyPackedFp256Avx2, Radix29Constants, LIMBS};
use crate::lazy::LazyFp256;
use crate::{Avx2, BroadcastFp256Avx2, Fp256, Fp256Config, MulBackend, PackedFp256Avx2};

/// Scalar lanes of a hybrid value.
const SCALAR_LANES: usize = 2;

/// The words the kernels read and write: the vector lanes' nine limbs, then the scalar lanes'
/// four words each (byte offsets 0 and 288, which the assembly uses).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct HybridLimbs {
    vector: [__m256i; LIMBS],
    /// Lane `i`'s four words, least significant first. Words, not registers: the scalar code
    /// writes them one by one, and a 32-byte read of words just written separately stalls.
    scalar: [U256; SCALAR_LANES],
}

const _: () = assert!(core::mem::offset_of!(HybridLimbs, scalar) == 32 * LIMBS);

/// An addend for [`hybrid_product_add`], `a + b` for canonical `a` and `b` in every lane: the
/// vector lanes' limbs carried into normalised limbs (a value below `2p`), the scalar lanes'
/// words (below `2p`), and, for the scalar lanes' select, those words minus `2p` modulo
/// `2^256` (byte offsets 0, 288 and 352, which the assembly uses).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct HybridAddend {
    sum: HybridLimbs,
    scalar_minus_two_p: [U256; SCALAR_LANES],
}

const _: () = assert!(core::mem::offset_of!(HybridAddend, scalar_minus_two_p) == 32 * (LIMBS + 2));

impl HybridAddend {
    /// `a + b`, lane by lane.
    ///
    /// The fields are written in place: a helper taking the summed limbs by value cost the
    /// MiMC batch kernel a sixth of its time.
    #[inline(always)]
    fn new<C: Fp256Config>(a: &HybridCanonical<C>, b: &HybridCanonical<C>) -> Self {
        // Canonical summands: below 2p, no carry out of four words.
        let scalar: [U256; SCALAR_LANES] = [
            add_words(&a.scalar[0].0, &b.scalar[0].0).0,
            add_words(&a.scalar[1].0, &b.scalar[1].0).0,
        ];
        Self {
            sum: HybridLimbs {
                vector: PackedFp256Avx2::normalised_sum(a.vector, b.vector),
                scalar,
            },
            scalar_minus_two_p: [
                sub_words(&scalar[0], &LazyFp256::<C>::TWO_P).0,
                sub_words(&scalar[1], &LazyFp256::<C>::TWO_P).0,
            ],
        }
    }

    /// A value of [`LazyHybridFp256`] as an addend: its vector lanes' limbs are normalised (a
    /// value below `2p + 2^234`, which the kernel's sum keeps below `4p + 2^235`) and its
    /// scalar lanes below `2p`, as the kernel needs.
    #[inline(always)]
    fn from_lazy<C: Fp256Config>(x: &LazyHybridFp256<C>) -> Self {
        let scalar = x.limbs.scalar;
        Self {
            sum: x.limbs,
            scalar_minus_two_p: [
                sub_words(&scalar[0], &LazyFp256::<C>::TWO_P).0,
                sub_words(&scalar[1], &LazyFp256::<C>::TWO_P).0,
            ],
        }
    }
}

/// The operands' registers of a schedule's last step and the steps before it, where that step
/// is a product into register 0 (as for every odd `d > 1`): the product a kernel that adds to
/// its result can replace.
#[inline(always)]
fn last_product_into_register_0(schedule: &[SboxStep]) -> Option<(usize, usize, &[SboxStep])> {
    match schedule.split_last() {
        Some((&SboxStep::Product { a, b, dst }, body))
            if usize::from(dst) % SBOX_REGISTERS == 0 =>
        {
            Some((
                usize::from(a) % SBOX_REGISTERS,
                usize::from(b) % SBOX_REGISTERS,
                body,
            ))
        }
        _ => None,
    }
}

/// The four words a vector register holds, least significant first.
#[inline(always)]
fn register_to_words(register: __m256i) -> U256 {
    // SAFETY: `__m256i` and `[u64; 4]` have the same size and no invalid bit patterns.
    unsafe { core::mem::transmute::<__m256i, U256>(register) }
}

/// Six elements of a 256-bit field, lazily reduced: four AVX2 lanes and two scalar lanes whose
/// products and squarings run in one interleaved kernel. A value exists only on a CPU with
/// AVX2, BMI2 and ADX, and for a field with `4p < 2^256`.
///
/// This is the form of the MiMC batch kernel on CPUs with AVX2 but without AVX-512 IFMA.
///
/// ```
/// # #[cfg(target_arch = "x86_64")] {
/// use zkaccel_symmetric::sbox::pow_sbox_with;
/// use zkaccel_field::{Algebra, Field, PrimeField};
/// use zkaccel_fp256::kernels::LazyHybridFp256;
/// use zkaccel_fp256::{Avx2, Fp256, Fp256Config};
///
/// #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
/// struct Bn254FrConfig;
/// impl Fp256Config for Bn254FrConfig {
///     const NAME: &'static str = "BN254 Fr";
///     const MODULUS: [u64; 4] = [
///         0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d, 0x30644e72e131a029,
///     ];
///     const GENERATOR: u64 = 5;
/// }
/// type Fr = Fp256<Bn254FrConfig>;
///
/// let x: [Fr; 6] = core::array::from_fn(|i| Fr::from_u64_reduced(i as u64 + 2));
/// if let Some(lazy) = Avx2::detect().and_then(|cpu| LazyHybridFp256::from_elements(cpu, &x)) {
///     let sevenths = pow_sbox_with(&lazy, 7).reduce();
///     assert_eq!(sevenths, x.map(|v| v.square().square() * v.square() * v));
/// }
/// # }
/// ```
pub struct LazyHybridFp256<C> {
    limbs: HybridLimbs,
    _field: PhantomData<C>,
}

copy_for_every_config!(LazyHybridFp256);

impl<C: Fp256Config> LazyHybridFp256<C> {
    #[cfg(feature = "kernels")]
    /// Number of lanes: the four vector lanes first, then the two scalar ones.
    pub const WIDTH: usize = 4 + SCALAR_LANES;

    /// Whether hybrid values can be built here, given AVX2 (which the vector lanes prove): the
    /// CPU has BMI2 and ADX (the scalar lanes' instructions) and the field has room for lazy
    /// reduction.
    #[inline(always)]
    pub fn available() -> bool {
        LazyFp256::<C>::SUPPORTED && backend() == MulBackend::Adx
    }

    /// The lanes of `vector` and `scalar`, or `None` where they are not
    /// [`available`](LazyHybridFp256::available).
    #[inline(always)]
    pub fn new(
        vector: LazyPackedFp256Avx2<C>,
        scalar: [LazyFp256<C>; SCALAR_LANES],
    ) -> Option<Self> {
        Self::available().then_some(Self {
            limbs: HybridLimbs {
                vector: vector.limbs,
                scalar: scalar.map(|s| s.0),
            },
            _field: PhantomData,
        })
    }

    /// Loads six canonical elements (the first four into the vector lanes), or `None` as
    /// [`LazyHybridFp256::new`].
    #[inline(always)]
    pub fn from_elements(cpu: Avx2, x: &[Fp256<C>; 6]) -> Option<Self> {
        let vector = PackedFp256Avx2::from_elements(cpu, &[x[0], x[1], x[2], x[3]]);
        Self::new(
            LazyPackedFp256Avx2::new(vector),
            [LazyFp256::new(x[4])?, LazyFp256::new(x[5])?],
        )
    }

    /// The vector lanes and the scalar lanes.
    #[inline(always)]
    pub fn parts(self) -> (LazyPackedFp256Avx2<C>, [LazyFp256<C>; SCALAR_LANES]) {
        (
            LazyPackedFp256Avx2::from_limbs(self.limbs.vector),
            self.limbs.scalar.map(|s| LazyFp256(s, PhantomData)),
        )
    }

    /// Adds canonical elements lane by lane: `vector` to the vector lanes, `scalar` to the
    /// scalar ones (each part's `add_canonical`).
    #[inline(always)]
    pub fn add_canonical(
        self,
        vector: PackedFp256Avx2<C>,
        scalar: [Fp256<C>; SCALAR_LANES],
    ) -> Self {
        let (v, s) = self.parts();
        Self {
            limbs: HybridLimbs {
                vector: v.add_canonical(vector).limbs,
                scalar: [
                    s[0].add_canonical(scalar[0]).0,
                    s[1].add_canonical(scalar[1]).0,
                ],
            },
            _field: PhantomData,
        }
    }

    /// One MiMC round on every lane: `registers[0] ← (registers[0] + a + b)^d`, where `schedule`
    /// computes `x^d` on the registers ([`zkaccel_symmetric::sbox::sbox_schedule`]; the other
    /// registers are its scratch).
    ///
    /// The sum goes to the kernels unreduced: in the vector lanes `a + b` is carried into
    /// normalised limbs (beside the chain) and added to the state's limbs with no carry pass,
    /// which the kernels accept (limbs below `2^30`, value below `4p + 2^235`); the scalar
    /// lanes add both at once ([`LazyFp256::add_two_canonical`]). Against `add_canonical`
    /// on a reduced `a + b`, that leaves one vector addition per limb on the chain and about
    /// a hundred fewer instructions per round. A schedule whose last step does not write register 0 (the
    /// empty one of `d = 1`) gets the reduced sum. A whole cipher runs faster still on
    /// [`LazyHybridFp256::power_of_sum_rounds`], which adds the sums inside the kernels.
    #[inline(always)]
    pub fn power_of_sum(
        registers: &mut [Self; SBOX_REGISTERS],
        a: &HybridCanonical<C>,
        b: &HybridCanonical<C>,
        schedule: &[SboxStep],
    ) {
        registers[0] = if schedule.last().is_some_and(|step| step.destination() == 0) {
            registers[0].sum_for_kernels(a, b)
        } else {
            let scalar = [a.scalar[0] + b.scalar[0], a.scalar[1] + b.scalar[1]];
            registers[0].add_canonical(a.vector + b.vector, scalar)
        };
        run_sbox_schedule(registers, schedule);
    }

    /// `self + a + b` in the form the kernels take and [`LazyHybridFp256::power_of_sum`]
    /// describes: not a value of this type until a kernel's result replaces it.
    #[inline(always)]
    fn sum_for_kernels(self, a: &HybridCanonical<C>, b: &HybridCanonical<C>) -> Self {
        let (v, s) = self.parts();
        Self {
            limbs: HybridLimbs {
                vector: v.sum_limbs_for_kernels(a.vector, b.vector),
                scalar: [
                    s[0].add_two_canonical(a.scalar[0], b.scalar[0]).0,
                    s[1].add_two_canonical(a.scalar[1], b.scalar[1]).0,
                ],
            },
            _field: PhantomData,
        }
    }

    /// The MiMC-p/p cipher `E_key` on every lane, reduced: `x_n + key`, where `x_0 = self` and
    /// `x_{i+1} = (x_i + key + c_i)^d` for the round constants `c_0 … c_{n−1}` in turn,
    /// `schedule` computing `x^d` as in [`LazyHybridFp256::power_of_sum`].
    ///
    /// Where the schedule ends with a product into register 0 (every odd `d > 1`), the next
    /// round's addend `key + c_{i+1}` (after the last round, `key`) is added inside that
    /// product's kernel, so the state never leaves the kernels between rounds: no addition
    /// runs on the chain between one round's last product and the next round's first
    /// squaring; the separate additions of [`LazyHybridFp256::power_of_sum`] cost a seventh of
    /// the round (`PERF.md`, "The hybrid kernels"). Other schedules run `power_of_sum` round by round.
    #[inline(always)]
    pub fn power_of_sum_rounds(
        self,
        key: &HybridCanonical<C>,
        constants: &[HybridBroadcast<C>],
        schedule: &[SboxStep],
    ) -> [Fp256<C>; 6] {
        let mut registers = [self; SBOX_REGISTERS];
        let last_product = last_product_into_register_0(schedule);
        let (Some((a, b, body)), Some((first, rest))) = (last_product, constants.split_first())
        else {
            for c in constants {
                Self::power_of_sum(&mut registers, key, &c.get(), schedule);
            }
            return registers[0].add_canonical(key.vector, key.scalar).reduce();
        };
        let k = Self::constants();
        registers[0] = self.sum_for_kernels(key, &first.get());
        // The addend of round i's last product: key + c_{i+1}, and key after the last round.
        let zero = HybridCanonical::zero();
        for next in rest.iter().map(Some).chain([None]) {
            run_sbox_schedule(&mut registers, body);
            let addend = match next {
                Some(c) => HybridAddend::new(key, &c.get()),
                None => HybridAddend::new(key, &zero),
            };
            // SAFETY: a value of this type exists only on a CPU with AVX2, BMI2 and ADX.
            registers[0].limbs =
                unsafe { hybrid_product_add(&registers[a].limbs, &registers[b].limbs, &addend, k) };
        }
        // Register 0 holds x_n + key in the kernels' input form, which the reduction (a
        // product by 2^261 mod p in the vector lanes) takes; the scalar lanes are below 2p.
        registers[0].reduce()
    }

    /// The chain of the MiMC Feistel permutation (circomlib's MiMCSponge) on every lane:
    /// `u_1 = u_0^d + v` and `u_{i+1} = u_i^d + (u_{i−1} + s_i)` for the steps `s_1 … s_{n−1}`
    /// in turn, `schedule` computing `x^d` as in [`LazyHybridFp256::power_of_sum`]. Returns
    /// `[u_n, u_{n−1}, u_n^d]`, reduced, for `n = steps.len() + 1`, or `None` for a schedule
    /// whose last step does not write register 0 (of [`zkaccel_symmetric::sbox::sbox_schedule`]'s,
    /// only the empty one of `d = 1`): the chain needs each power to be a kernel's result.
    ///
    /// With `u_i = xL_i + k + c_i` (round `i`'s S-box input), `v = xR_0 + k + c_1` and
    /// `s_i = c_{i+1} − c_{i−1}`, this is the permutation's chain (`zkaccel-mimc` recovers the
    /// halves from the result). The bracket is ready before `u_i^d`, and where the schedule
    /// ends with a product into register 0 (every odd `d > 1`) that product's kernel adds it
    /// (as in [`LazyHybridFp256::power_of_sum_rounds`]), handing the next S-box its input in
    /// the form the kernels take; otherwise the vector lanes' limbs are added after the
    /// kernel, without a carry pass. The reduced `u_{i+1}`, needed a round later, is computed
    /// beside the chain.
    #[inline(always)]
    pub fn feistel_chain(
        first: Self,
        v: Self,
        steps: &[HybridBroadcast<C>],
        schedule: &[SboxStep],
    ) -> Option<[[Fp256<C>; 6]; 3]> {
        if schedule.last().is_none_or(|step| step.destination() != 0) {
            return None;
        }
        let last_product = last_product_into_register_0(schedule);
        let k = Self::constants();
        let mut registers = [first; SBOX_REGISTERS];
        // u_{i−1} and u_i reduced, at the top of round i.
        let (mut before, mut now) = (first, first);
        for i in 0..=steps.len() {
            let ahead = match i.checked_sub(1) {
                None => v,
                Some(j) => {
                    let c = steps[j].get();
                    before.add_canonical(c.vector, c.scalar)
                }
            };
            // registers[0] ← u_i^d + ahead, in the kernels' input form.
            match last_product {
                Some((a, b, body)) => {
                    run_sbox_schedule(&mut registers, body);
                    let addend = HybridAddend::from_lazy(&ahead);
                    // SAFETY: a value of this type exists only on a CPU with AVX2, BMI2 and
                    // ADX.
                    registers[0].limbs = unsafe {
                        hybrid_product_add(&registers[a].limbs, &registers[b].limbs, &addend, k)
                    };
                }
                None => {
                    run_sbox_schedule(&mut registers, schedule);
                    registers[0] = registers[0].sum_for_kernels_lazy(ahead);
                }
            }
            before = now;
            now = registers[0].reduce_sum_with_power();
        }
        run_sbox_schedule(&mut registers, schedule);
        Some([now.reduce(), before.reduce(), registers[0].reduce()])
    }

    /// `self + other` for `self` a kernel's result (below `2p` in every lane), in the form the
    /// kernels take: the vector lanes' limbs added without a carry pass, the scalar lanes'
    /// `LazyFp256` sum.
    #[inline(always)]
    fn sum_for_kernels_lazy(self, other: Self) -> Self {
        let (v, s) = self.parts();
        let (w, t) = other.parts();
        // SAFETY: a value of this type exists only on a CPU with AVX2.
        let vector = unsafe {
            let mut sum = v.limbs;
            for (x, y) in sum.iter_mut().zip(w.limbs) {
                *x = core::arch::x86_64::_mm256_add_epi64(*x, y);
            }
            sum
        };
        Self {
            limbs: HybridLimbs {
                vector,
                scalar: [(s[0] + t[0]).0, (s[1] + t[1]).0],
            },
            _field: PhantomData,
        }
    }

    /// A value of this type from a kernel's result plus a value of this type, in the kernels'
    /// input form ([`LazyHybridFp256::sum_for_kernels_lazy`] or a `hybrid-mul-add` kernel's
    /// result): the vector lanes as [`LazyPackedFp256Avx2::from_sum_with_product`], the scalar
    /// lanes already below `2p`.
    #[inline(always)]
    fn reduce_sum_with_power(self) -> Self {
        Self {
            limbs: HybridLimbs {
                vector: LazyPackedFp256Avx2::<C>::from_sum_with_product(self.limbs.vector).limbs,
                scalar: self.limbs.scalar,
            },
            _field: PhantomData,
        }
    }

    /// The six elements, fully reduced, in lane order.
    #[inline(always)]
    pub fn reduce(self) -> [Fp256<C>; 6] {
        let (v, s) = self.parts();
        let v = v.reduce().to_elements();
        [v[0], v[1], v[2], v[3], s[0].reduce(), s[1].reduce()]
    }

    /// The kernels' constants.
    #[inline(always)]
    fn constants() -> &'static Radix29Constants {
        PackedFp256Avx2::<C>::constants()
    }
}

/// Six canonical elements in the lanes of a [`LazyHybridFp256`] (four in an AVX2 value, two
/// scalar), to add to one ([`LazyHybridFp256::power_of_sum`]).
pub struct HybridCanonical<C> {
    /// The vector lanes' elements.
    pub vector: PackedFp256Avx2<C>,
    /// The scalar lanes' elements.
    pub scalar: [Fp256<C>; SCALAR_LANES],
}

copy_for_every_config!(HybridCanonical);

impl<C: Fp256Config> HybridCanonical<C> {
    /// Zero in every lane.
    #[inline(always)]
    fn zero() -> Self {
        // SAFETY: called only by `LazyHybridFp256`'s methods, and a value of that type exists
        // only on a CPU with AVX2.
        let zero = unsafe { core::arch::x86_64::_mm256_setzero_si256() };
        Self {
            vector: PackedFp256Avx2::from_limbs([zero; LIMBS]),
            scalar: [Fp256::from_mont([0; 4]); SCALAR_LANES],
        }
    }

    /// Six elements, in lane order.
    #[inline(always)]
    pub fn from_elements(cpu: Avx2, x: &[Fp256<C>; 6]) -> Self {
        Self {
            vector: PackedFp256Avx2::from_elements(cpu, &[x[0], x[1], x[2], x[3]]),
            scalar: [x[4], x[5]],
        }
    }

    #[cfg(feature = "kernels")]
    /// `x` in every lane.
    #[inline(always)]
    pub fn broadcast(cpu: Avx2, x: Fp256<C>) -> Self {
        Self {
            vector: PackedFp256Avx2::broadcast(cpu, x),
            scalar: [x; SCALAR_LANES],
        }
    }
}

/// One element meant for every lane of a [`LazyHybridFp256`], kept compact: the vector lanes'
/// part as one lane's limbs ([`BroadcastFp256Avx2`], broadcast when used) beside the element
/// itself, 104 bytes in all, so a table of MiMC's round constants stays in the L1 cache
/// beside the state ([`LazyHybridFp256::power_of_sum_rounds`]).
pub struct HybridBroadcast<C> {
    vector: BroadcastFp256Avx2<C>,
    scalar: Fp256<C>,
}

copy_for_every_config!(HybridBroadcast);

impl<C: Fp256Config> HybridBroadcast<C> {
    /// `x`, for every lane.
    #[inline(always)]
    pub fn new(cpu: Avx2, x: Fp256<C>) -> Self {
        Self {
            vector: BroadcastFp256Avx2::new(cpu, x),
            scalar: x,
        }
    }

    /// The element in all six lanes.
    #[inline(always)]
    pub fn get(&self) -> HybridCanonical<C> {
        HybridCanonical {
            vector: self.vector.get(),
            scalar: [self.scalar; SCALAR_LANES],
        }
    }
}

/// The `asm!` call of a hybrid kernel: its instruction lines (from `tools/gen_avx2_asm.py`), the
/// operands every hybrid kernel has (`a` and `k` as pointers, the vector kernel's registers
/// `t0..t8`, `bi`, `m`, `tmp`, the scalar lanes' `r0..r4`, `lo`, `hi` and `rdx`, and `s0`, `s1`,
/// `w` that gather the scalar results) and the kernel's own operands; the value is the result.
/// Expands to an unsafe operation.
///
/// The whole result comes out in vector registers, so the compiler stores it where the value
/// goes. Two earlier forms were slower: storing the result to a local that was then moved
/// (a `memcpy` call per operation), and storing the scalar words one by one to be read back
/// as 32-byte values (a store-forwarding stall at the end of every operation).
macro_rules! hybrid_asm {
    ($a:expr, $k:expr, [$($line:expr),* $(,)?], $($operand:tt)*) => {{
        let (t0, t1, t2, t3, t4, t5, t6, t7, t8, s0, s1): (
            __m256i,
            __m256i,
            __m256i,
            __m256i,
            __m256i,
            __m256i,
            __m256i,
            __m256i,
            __m256i,
            __m256i,
            __m256i,
        );
        core::arch::asm!(
            // Each kernel at a 64-byte boundary, so the round loops' layout does not follow
            // the function's place in the binary (`PERF.md`, "The hybrid kernels").
            ".p2align 6",
            $($line,)*
            a = in(reg) core::ptr::from_ref($a),
            k = in(reg) core::ptr::from_ref($k),
            t0 = out(ymm_reg) t0,
            t1 = out(ymm_reg) t1,
            t2 = out(ymm_reg) t2,
            t3 = out(ymm_reg) t3,
            t4 = out(ymm_reg) t4,
            t5 = out(ymm_reg) t5,
            t6 = out(ymm_reg) t6,
            t7 = out(ymm_reg) t7,
            t8 = out(ymm_reg) t8,
            s0 = out(ymm_reg) s0,
            s1 = out(ymm_reg) s1,
            w = out(ymm_reg) _,
            bi = out(ymm_reg) _,
            m = out(ymm_reg) _,
            tmp = out(ymm_reg) _,
            r0 = out(reg) _,
            r1 = out(reg) _,
            r2 = out(reg) _,
            r3 = out(reg) _,
            r4 = out(reg) _,
            lo = out(reg) _,
            hi = out(reg) _,
            out("rdx") _,
            $($operand)*
            options(pure, readonly, nostack),
        );
        HybridLimbs {
            vector: [t0, t1, t2, t3, t4, t5, t6, t7, t8],
            scalar: [register_to_words(s0), register_to_words(s1)],
        }
    }};
}

/// The six lazy products `a·b`: the vector lanes' radix-29 Montgomery product with its carry
/// pass (as `mont_mul29_lazy`), the scalar lanes' CIOS without final subtraction (as
/// `mont_mul_lazy_adx`), interleaved.
///
/// # Safety
/// The CPU must support AVX2, BMI2 and ADX.
#[inline]
#[target_feature(enable = "avx2,bmi2,adx")]
unsafe fn hybrid_product(a: &HybridLimbs, b: &HybridLimbs, k: &Radix29Constants) -> HybridLimbs {
    // SAFETY: the caller runs on a CPU with AVX2, BMI2 and ADX; the asm reads `a`, `b` and `k`
    // (live references) and touches only the declared registers and the flags.
    unsafe {
        hybrid_asm!(
            a,
            k,
            [
                hybrid_mul!(),
            ],
            b = in(reg) core::ptr::from_ref(b),
        )
    }
}

/// The six lazy products `a·b` plus an addend, as [`hybrid_product`] and then, in the same
/// instruction stream, the addend's limbs added to the vector lanes' normalised result (limbs
/// below `2^30`, no carry pass) and its words to each scalar lane's (below `2p`, by two carry
/// chains and a select): the form [`LazyHybridFp256::power_of_sum`] gives its kernels.
///
/// # Safety
/// The CPU must support AVX2, BMI2 and ADX.
#[inline]
#[target_feature(enable = "avx2,bmi2,adx")]
unsafe fn hybrid_product_add(
    a: &HybridLimbs,
    b: &HybridLimbs,
    s: &HybridAddend,
    k: &Radix29Constants,
) -> HybridLimbs {
    // SAFETY: as in `hybrid_product`, the asm also reading `s` (a live reference).
    unsafe {
        hybrid_asm!(
            a,
            k,
            [
                hybrid_mul_add!(),
            ],
            b = in(reg) core::ptr::from_ref(b),
            s = in(reg) core::ptr::from_ref(s),
        )
    }
}

/// The six lazy squares: the vector lanes' squaring kernel (45 word products), the scalar
/// lanes' CIOS product of each word by itself, interleaved.
///
/// # Safety
/// The CPU must support AVX2, BMI2 and ADX.
#[inline]
#[target_feature(enable = "avx2,bmi2,adx")]
unsafe fn hybrid_square(a: &HybridLimbs, k: &Radix29Constants) -> HybridLimbs {
    // SAFETY: as in `hybrid_product`, with `a` read as both operands.
    unsafe {
        hybrid_asm!(
            a,
            k,
            [
                hybrid_square!(),
            ],
            b2 = out(ymm_reg) _,
        )
    }
}

impl<C: Fp256Config> Mul for LazyHybridFp256<C> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        self.product(&rhs)
    }
}

impl<C: Fp256Config> SboxArithmetic for LazyHybridFp256<C> {
    /// The six lazy products in one interleaved kernel.
    #[inline(always)]
    fn product(&self, rhs: &Self) -> Self {
        // SAFETY: a value of this type exists only on a CPU with AVX2, BMI2 and ADX.
        let limbs = unsafe { hybrid_product(&self.limbs, &rhs.limbs, Self::constants()) };
        Self {
            limbs,
            _field: PhantomData,
        }
    }

    /// The six lazy squares in one interleaved kernel.
    #[inline(always)]
    fn sbox_square(&self) -> Self {
        // SAFETY: a value of this type exists only on a CPU with AVX2, BMI2 and ADX.
        let limbs = unsafe { hybrid_square(&self.limbs, Self::constants()) };
        Self {
            limbs,
            _field: PhantomData,
        }
    }
}
