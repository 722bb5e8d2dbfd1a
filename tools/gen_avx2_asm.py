#!/usr/bin/env python3
"""Generates the instruction lines of `mont_steps29_asm` in `crates/fp256/src/avx2.rs`: the nine
word-steps of radix-2^29 Montgomery multiplication on four lanes with AVX2 (vpmuludq).

Run: python3 tools/gen_avx2_asm.py, then paste the lines into the asm! block.

Registers: t0..t8 are the accumulator limbs (they rotate by one name per step, so no moves are
needed), bi holds limb i of b, m the step's multiplier, tmp one product. {a} and {b} point at
the operands' nine limbs, {k} at [p limbs (9), -p^-1 mod 2^29, 2^29 - 1], every entry a
32-byte broadcast; they are read as memory operands, so twelve vector registers suffice.
"""

LIMBS = 9
T = [f"{{t{j}}}" for j in range(LIMBS)]
lines = []
e = lines.append
for i in range(LIMBS):
    e(f"vmovdqu {{bi}}, ymmword ptr [{{b}} + {32 * i}]")
    # t += a * b_i (in step 0 the accumulator is zero: the products are its limbs).
    for j in range(LIMBS):
        if i == 0:
            e(f"vpmuludq {T[j]}, {{bi}}, ymmword ptr [{{a}} + {32 * j}]")
        else:
            e(f"vpmuludq {{tmp}}, {{bi}}, ymmword ptr [{{a}} + {32 * j}]")
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
    e(f"vpxor {T[0]}, {T[0]}, {T[0]}")
    T = T[1:] + T[:1]
assert T == [f"{{t{j}}}" for j in range(LIMBS)], "nine rotations bring the names back"
print("\n".join(f'            "{l}",' for l in lines))
