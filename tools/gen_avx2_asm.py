#!/usr/bin/env python3
"""Generates the instruction lines of the radix-2^29 Montgomery kernels in
`crates/fp256/src/avx2.rs`: the nine word-steps of a product (`mont_steps29_asm`) and of a
squaring (`mont_square29_asm`) on four lanes with AVX2 (vpmuludq).

`tools/gen_fp256_asm.py` writes them into `crates/fp256/src/generated.rs`, where the kernels'
radix29_asm! (hybrid_asm!) calls take them.

Registers: t0..t8 are the accumulator limbs (they rotate by one name per step, so no moves are
needed; the limb a step frees is rewritten by the next row's first term at the top, not
zeroed), bi holds limb i of b (of a, when squaring; b2 then holds 2*a_i), m the step's
multiplier, tmp one product. {a} and {b} point at the operands' nine limbs, {k} at
[p limbs (9), -p^-1 mod 2^29, 2^29 - 1], every entry a 32-byte broadcast; they are read as
memory operands, so twelve (thirteen) vector registers suffice.

The squaring adds row i as a_i*a_i at position 2i and (2*a_i)*a_j at positions i+j for j > i:
45 word products instead of 81. Every position p receives its rows' terms before reduction step
p (rows r with 2r <= p), so the interleaved reduction stays exact.

The hybrid kernels (`crates/fp256/src/hybrid.rs`) run four AVX2 lanes and two scalar lanes in
one instruction stream: the vector product (or squaring) with its carry pass, and beside it two
scalar lazy CIOS products (the mulx/adcx/adox steps of gen_mont_asm.py, operands read from
memory through {a}, {b}, {k}), the scalar lines spread evenly among the vector lines. The
scalar lanes use the integer multiplier, which the vector kernel leaves idle, and the
interleaving puts both kinds of work in the out-of-order window at once: issued one after the
other, a product of each kind barely overlapped. The vector result stays in t0..t8, and each
scalar lane's four words are gathered into one vector register (s0, s1, through the scratch
w) as the lane finishes, since the next lane needs the general registers: a result stored
word by word and then read back as one 32-byte value stalls on store forwarding. Registers:
the vector kernel's thirteen and s0, s1, w (sixteen: all of them for the squaring), and
r0..r4, lo, hi, rdx and the three pointers (eleven general).
"""

import sys

LIMBS = 9


def steps(square):
    T = [f"{{t{j}}}" for j in range(LIMBS)]
    lines = []
    e = lines.append
    for i in range(LIMBS):
        if square:
            # Row i: the diagonal a_i*a_i and the doubled cross terms (2*a_i)*a_j, j > i, at
            # relative position j of this step's window.
            e(f"vmovdqu {{bi}}, ymmword ptr [{{a}} + {32 * i}]")
            if i + 1 < LIMBS:
                e("vpaddq {b2}, {bi}, {bi}")
            terms = [(i, "{bi}")] + [(j, "{b2}") for j in range(i + 1, LIMBS)]
        else:
            e(f"vmovdqu {{bi}}, ymmword ptr [{{b}} + {32 * i}]")
            terms = [(j, "{bi}") for j in range(LIMBS)]
        # t += row. In step 0 the accumulator is zero: the products are its limbs. In later
        # steps the top limb (relative position 8, the limb the last step freed) receives its
        # first term from this row, so that product is written instead of added.
        for j, factor in terms:
            if i == 0 or j == LIMBS - 1:
                e(f"vpmuludq {T[j]}, {factor}, ymmword ptr [{{a}} + {32 * j}]")
            else:
                e(f"vpmuludq {{tmp}}, {factor}, ymmword ptr [{{a}} + {32 * j}]")
                e(f"vpaddq {T[j]}, {T[j]}, {{tmp}}")
        # m = t0 * (-p^-1) mod 2^29 (vpmuludq reads t0's low 32 bits).
        e(f"vpmuludq {{m}}, {T[0]}, ymmword ptr [{{k}} + {32 * LIMBS}]")
        e(f"vpand {{m}}, {{m}}, ymmword ptr [{{k}} + {32 * (LIMBS + 1)}]")
        # t += m * p; t0 is now a multiple of 2^29: carry it into t1 and shift down one limb.
        for j in range(LIMBS):
            e(f"vpmuludq {{tmp}}, {{m}}, ymmword ptr [{{k}} + {32 * j}]")
            e(f"vpaddq {T[j]}, {T[j]}, {{tmp}}")
        e(f"vpsrlq {{tmp}}, {T[0]}, 29")
        e(f"vpaddq {T[1]}, {T[1]}, {{tmp}}")
        if i == LIMBS - 1:
            # The result's top limb (position 17) takes no term: it starts, and stays, zero.
            e(f"vpxor {T[0]}, {T[0]}, {T[0]}")
        T = T[1:] + T[:1]
    assert T == [f"{{t{j}}}" for j in range(LIMBS)], "nine rotations bring the names back"
    return lines


# The hybrid kernels: byte offsets into a hybrid value (nine vector limbs, then the scalar
# lanes' four words each) and into the constants (the scalar modulus and -p^-1 mod 2^64 after
# the radix-29 entries). `crates/fp256/src/hybrid.rs` checks them at compile time.
SCALAR_LANES = 2
SCALAR_BASE = 32 * LIMBS
SCALAR_MODULUS = 1536
SCALAR_INV = 1568
# The addend of the hybrid-mul-add kernel: a hybrid value's layout (nine vector limbs, the
# scalar lanes' words), then each scalar lane's words minus 2p (mod 2^256).
ADDEND_MINUS_TWO_P = SCALAR_BASE + 32 * SCALAR_LANES


def vector_lanes(square, add=False):
    """The four AVX2 lanes: the word-steps and the carry pass, the limbs left in t0..t8; with
    `add`, then the addend's nine normalised limbs added limb by limb (no carry pass)."""
    lines = steps(square)
    for j in range(LIMBS - 1):
        lines.append(f"vpsrlq {{tmp}}, {{t{j}}}, 29")
        lines.append(f"vpaddq {{t{j + 1}}}, {{t{j + 1}}}, {{tmp}}")
        lines.append(f"vpand {{t{j}}}, {{t{j}}}, ymmword ptr [{{k}} + {32 * (LIMBS + 1)}]")
    if add:
        for j in range(LIMBS):
            lines.append(f"vpaddq {{t{j}}}, {{t{j}}}, ymmword ptr [{{s}} + {32 * j}]")
    return lines


def scalar_lanes(square, add=False):
    """The scalar lanes one after the other: lazy CIOS (no final subtraction) with mulx,
    adcx and adox (the steps of gen_mont_asm.py), operands read from memory, lane i's four
    result words gathered into the vector register s<i>. With `add`, the lane's addend `s`
    (below 2p) is added to the product `r` (below 2p; the sum is below 4p < 2^256), and the
    result is r + (s - 2p mod 2^256) where that carries out of 2^256 (r + s >= 2p), else
    r + s: two carry chains side by side and four cmovs, so the lane stays below 2p."""
    from gen_mont_asm import first_step, mul_step, reduction_step, rotation

    regs = [f"{{r{k}}}" for k in range(5)]
    lines = []
    e = lines.append
    for lane in range(SCALAR_LANES):
        def word(base, j, lane=lane):
            return f"qword ptr [{{{base}}} + {SCALAR_BASE + 32 * lane + 8 * j}]"

        b = "a" if square else "b"
        for i in range(4):
            t = rotation(regs, i)
            e(f"mov rdx, {word(b, i)}")
            step = first_step if i == 0 else mul_step
            step(e, t, lambda j: word("a", j))
            reduction_step(
                e,
                t,
                lambda j: f"qword ptr [{{k}} + {SCALAR_MODULUS + 8 * j}]",
                f"qword ptr [{{k}} + {SCALAR_INV}]",
            )
        r = rotation(regs, 4)[:4]
        if add:
            copies = [rotation(regs, 4)[4], "{lo}", "{hi}", "rdx"]
            for j in range(4):
                e(f"mov {copies[j]}, {r[j]}")
            for j in range(4):
                e(f"{'add' if j == 0 else 'adc'} {r[j]}, {word('s', j)}")
            for j in range(4):
                minus = f"qword ptr [{{s}} + {ADDEND_MINUS_TWO_P + 32 * lane + 8 * j}]"
                e(f"{'add' if j == 0 else 'adc'} {copies[j]}, {minus}")
            for j in range(4):
                e(f"cmovc {r[j]}, {copies[j]}")
        # The four result words into one vector register, s0 or s1 (via the scratch w).
        s = f"s{lane}"
        e(f"vmovq {{{s}:x}}, {r[0]}")
        e(f"vpinsrq {{{s}:x}}, {{{s}:x}}, {r[1]}, 1")
        e(f"vmovq {{w:x}}, {r[2]}")
        e(f"vpinsrq {{w:x}}, {{w:x}}, {r[3]}, 1")
        e(f"vinserti128 {{{s}}}, {{{s}}}, {{w:x}}, 1")
    return lines


def hybrid(square, add=False):
    """The vector and the scalar lines merged evenly, so the scalar multiplier works while
    the vector unit does (the scalar lines are about a third of the whole)."""
    vector, scalar = vector_lanes(square, add), scalar_lanes(square, add)
    lines, taken = [], 0
    for i, line in enumerate(vector):
        lines.append(line)
        due = (i + 1) * len(scalar) // len(vector)
        lines.extend(scalar[taken:due])
        taken = due
    assert taken == len(scalar)
    return lines


def blocks():
    """The five kernels' instruction lines by name."""
    return {
        "avx2_mul": ("the radix-2^29 product on four AVX2 lanes", steps(False)),
        "avx2_square": ("the radix-2^29 squaring on four AVX2 lanes", steps(True)),
        "hybrid_mul": ("four AVX2 lanes' product and two scalar lanes'", hybrid(False)),
        "hybrid_square": ("four AVX2 lanes' squaring and two scalar lanes' product", hybrid(True)),
        "hybrid_mul_add": (
            "the hybrid product with an addend added to each lane",
            hybrid(False, add=True),
        ),
    }
