#!/usr/bin/env python3
"""Generates the instruction lines of the radix-2^29 Montgomery kernels in
`crates/fp256/src/avx2.rs`: the nine word-steps of a product (`mont_steps29_asm`) and of a
squaring (`mont_square29_asm`) on four lanes with AVX2 (vpmuludq).

Run: python3 tools/gen_avx2_asm.py mul|square, then paste the lines into the kernel's radix29_asm! call.

Registers: t0..t8 are the accumulator limbs (they rotate by one name per step, so no moves are
needed; the limb a step frees is rewritten by the next row's first term at the top, not
zeroed), bi holds limb i of b (of a, when squaring; b2 then holds 2*a_i), m the step's
multiplier, tmp one product. {a} and {b} point at the operands' nine limbs, {k} at
[p limbs (9), -p^-1 mod 2^29, 2^29 - 1], every entry a 32-byte broadcast; they are read as
memory operands, so twelve (thirteen) vector registers suffice.

The squaring adds row i as a_i*a_i at position 2i and (2*a_i)*a_j at positions i+j for j > i:
45 word products instead of 81. Every position p receives its rows' terms before reduction step
p (rows r with 2r <= p), so the interleaved reduction stays exact.
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


if __name__ == "__main__":
    kind = sys.argv[1] if len(sys.argv) > 1 else "mul"
    if kind not in ("mul", "square"):
        sys.exit("usage: gen_avx2_asm.py mul|square")
    print("\n".join(f'            "{l}",' for l in steps(kind == "square")))
