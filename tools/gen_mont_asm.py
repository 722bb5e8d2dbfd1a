#!/usr/bin/env python3
"""Generates the instruction lines of `crates/fp256/src/asm.rs`: CIOS Montgomery
multiplication on four limbs with mulx/adcx/adox.

`tools/gen_fp256_asm.py` writes the five blocks into `crates/fp256/src/generated.rs`: the CIOS
loop (the body of `cios_adx!`), the final subtraction (`mont_mul_adx`), the pair kernel
(`mont_mul_pair_lazy_adx`), the squaring kernel (`mont_square_lazy_adx`) and the
product-and-square kernel (`mont_product_and_square_lazy_adx`).

The single kernel: a0..a3 hold a; rdx holds b[0], then each multiplier word and each m in
turn; {c} points at [b1, b2, b3, p0, p1, p2, p3, inv]; the five accumulator words rotate
through r0..r4 (t_k lives in r[(i + k) % 5] in iteration i), so no moves are needed; lo and hi
take the halves of each product. That is 13 general registers, as many as an asm block can
always get.

The pair kernel: x = a*c and y = b*c (lazy CIOS, no final subtraction), the two loops
interleaved step by step so that one product's multiplications fill the other's carry and
reduction latency. A product's steps form one long dependent chain that fills the
out-of-order scheduler, so two products issued one after the other hardly overlap; issued
interleaved they do. Registers: rdx (multiplier word or m), x0..x4 and y0..y4 (the two
rotating accumulators), lo, hi, and {w} pointing at [a, b, c, p, inv] (17 words): 14 in all.

The squaring kernel: the single kernel's loop with row i adding a_i*a_i at word i and a_i times
the words of 2*(a - (a mod 2^(64(i+1)))) above it (a_j << 1 next to the diagonal, with a_(j-1)'s
top bit joined beyond), so each off-diagonal product is computed once and counted twice: 26 mulx
instead of 32. The doubled words come from memory ({c}), made beside the chain before the asm.
The product-and-square kernel is the pair kernel with y = c*c in those rows: x^7's middle step
(x^3 = x^2 * x, x^4 = (x^2)^2), 58 mulx instead of 64.
"""


def first_step(e, T, operand, n=4):
    """t = operand * rdx, for t = 0 (CF chain only), on n limbs (T has n + 1 words)."""
    e(f"mulx {T[1]}, {T[0]}, {operand(0)}")
    for j in range(1, n):
        e(f"mulx {T[j + 1]}, {{lo}}, {operand(j)}")
        e(f"{'add' if j == 1 else 'adc'} {T[j]}, {{lo}}")
    e(f"adc {T[n]}, 0")


def mul_step(e, T, operand, start=0, n=4):
    """t += rdx * operand(j) at position j, for j from start to n - 1 (start > 0: a squaring's
    row `start`, rdx = a_start), low halves on the OF chain and high halves on the CF chain."""
    e("xor {lo:e}, {lo:e}")
    for j in range(start, n - 1):
        e(f"mulx {{hi}}, {{lo}}, {operand(j)}")
        e(f"adox {T[j]}, {{lo}}")
        e(f"adcx {T[j + 1]}, {{hi}}")
    e(f"mulx {T[n]}, {{lo}}, {operand(n - 1)}")
    e(f"adox {T[n - 1]}, {{lo}}")
    e("mov {lo:e}, 0")
    e(f"adox {T[n]}, {{lo}}")
    e(f"adcx {T[n]}, {{lo}}")


def reduction_step(e, T, modulus, inv, n=4):
    """m = t0 * inv; t = (t + m * p) / 2^64 (t0 becomes zero and is the next top word)."""
    e(f"mov rdx, {T[0]}")
    e(f"imul rdx, {inv}")
    e("xor {lo:e}, {lo:e}")
    for j in range(n):
        e(f"mulx {{hi}}, {{lo}}, {modulus(j)}")
        e(f"adox {T[j]}, {{lo}}")
        e(f"adcx {T[j + 1]}, {{hi}}")
    e("mov {lo:e}, 0")
    e(f"adox {T[n]}, {{lo}}")


def square_operand(i, j, own, doubled):
    """Row i's factor at position j: a_i itself on the diagonal, else word j of
    2*(a - (a mod 2^(64(i+1)))): a_j << 1 next to the diagonal, (a_j << 1) | (a_(j-1) >> 63)
    beyond it."""
    if j == i:
        return own(i)
    return doubled("shifted" if j == i + 1 else "joined", j)


def rotation(regs, i):
    """The accumulator words t_0..t_n of iteration i (n + 1 = len(regs) rotating registers)."""
    return [regs[(i + k) % len(regs)] for k in range(len(regs))]


def qword(base, k):
    return f"qword ptr [{{{base}}} + {8 * k}]"


def blocks():
    """The five kernels' instruction lines by name."""
    # ---- The single kernel.
    R = [f"{{r{k}}}" for k in range(5)]
    A = [f"{{a{k}}}" for k in range(4)]
    loop = []
    e = loop.append
    for i in range(4):
        T = rotation(R, i)
        if i == 0:
            e("// t = a * b[0] (b[0] is in rdx)")
            first_step(e, T, lambda j: A[j])
        else:
            e(f"// t += a * b[{i}]")
            e(f"mov rdx, {qword('c', i - 1)}")
            mul_step(e, T, lambda j: A[j])
        e("// m = t0 * inv; t = (t + m * p) / 2^64")
        reduction_step(e, T, lambda j: qword("c", 3 + j), qword("c", 7))
    
    T = rotation(R, 4)[:4]
    final = ["// t < 2p: subtract p unless that borrows (a0..a3 are free now)"]
    for k in range(4):
        final.append(f"mov {A[k]}, {T[k]}")
        final.append(f"{'sub' if k == 0 else 'sbb'} {A[k]}, {qword('c', 3 + k)}")
    for k in range(4):
        final.append(f"cmovnc {T[k]}, {A[k]}")
    
    
    # ---- The pair kernel.
    X = [f"{{x{k}}}" for k in range(5)]
    Y = [f"{{y{k}}}" for k in range(5)]
    pair = []
    e = pair.append
    for i in range(4):
        TX, TY = rotation(X, i), rotation(Y, i)
        e(f"// ---- iteration {i}: both accumulators += (a or b) * c[{i}], then reduce each")
        e(f"mov rdx, {qword('w', 8 + i)}")
        step = first_step if i == 0 else mul_step
        step(e, TX, lambda j: qword("w", j))
        step(e, TY, lambda j: qword("w", 4 + j))
        for T in (TX, TY):
            reduction_step(e, T, lambda j: qword("w", 12 + j), qword("w", 16))
    

    # ---- The squaring kernel: a in a0..a3 and a[0] in rdx; {c} points at [a1 << 1, a2 << 1,
    # a3 << 1, (a2 << 1) | (a1 >> 63), (a3 << 1) | (a2 >> 63), p0, p1, p2, p3, inv].
    offsets = {("shifted", 1): 0, ("shifted", 2): 1, ("shifted", 3): 2, ("joined", 2): 3,
               ("joined", 3): 4}
    square = []
    e = square.append
    for i in range(4):
        T = rotation(R, i)
        def operand(j, i=i):
            return square_operand(i, j, lambda k: A[k],
                                  lambda kind, k: qword("c", offsets[(kind, k)]))
        if i == 0:
            e("// t = a[0] * (a[0], then the doubled words of a)")
            first_step(e, T, operand)
        else:
            e(f"// t += a[{i}] * (a[{i}] at word {i}, then the doubled words of a)")
            e(f"mov rdx, {A[i]}")
            mul_step(e, T, operand, start=i)
        e("// m = t0 * inv; t = (t + m * p) / 2^64")
        reduction_step(e, T, lambda j: qword("c", 5 + j), qword("c", 9))

    # ---- The product-and-square kernel: x = a*c and y = c*c, the pair kernel's loops with y's
    # rows those of the squaring kernel. {w} points at [a (4), c1 << 1, c2 << 1, c3 << 1,
    # (c2 << 1) | (c1 >> 63), (c3 << 1) | (c2 >> 63), c (4), p (4), inv]: 18 words.
    pair_square = []
    e = pair_square.append
    for i in range(4):
        TX, TY = rotation(X, i), rotation(Y, i)
        def operand(j, i=i):
            return square_operand(i, j, lambda k: qword("w", 9 + k),
                                  lambda kind, k: qword("w", 4 + offsets[(kind, k)]))
        e(f"// ---- iteration {i}: x += a * c[{i}], y += c[{i}] * (row {i} of the square), "
          "then reduce each")
        e(f"mov rdx, {qword('w', 9 + i)}")
        if i == 0:
            first_step(e, TX, lambda j: qword("w", j))
            first_step(e, TY, operand)
        else:
            mul_step(e, TX, lambda j: qword("w", j))
            mul_step(e, TY, operand, start=i)
        for T in (TX, TY):
            reduction_step(e, T, lambda j: qword("w", 13 + j), qword("w", 17))
    x_out, y_out = ", ".join(rotation(X, 4)[:4]), ", ".join(rotation(Y, 4)[:4])
    single_out = ", ".join(rotation(R, 4)[:4])
    return {
        "adx_cios_loop": (f"the CIOS loop of `cios_adx!`; the result is in {single_out}", loop),
        "adx_final_subtraction": ("the final subtraction of `mont_mul_adx`", final),
        "adx_pair": (f"the pair kernel; x is in {x_out} and y in {y_out}", pair),
        "adx_square": (f"the squaring kernel; the result is in {single_out}", square),
        "adx_product_and_square": (
            f"the product-and-square kernel; x is in {x_out} and y in {y_out}",
            pair_square,
        ),
    }


def six_limb_blocks():
    """The six-limb kernel of `crates/fp384/src/asm.rs` (`tools/gen_fp384_asm.py` writes it):
    CIOS on six limbs with the final subtraction, for a, b < p < 2^383.

    Six limbs of a and seven accumulator words do not fit in the 13 general registers an asm
    block can get, so a stays in memory ({a} points at its six words; `mulx` reads them as
    operands). rdx holds b[0], then each multiplier word and each m in turn; {c} points at
    [b1, .., b5, p0, .., p5, inv]; the seven accumulator words rotate through r0..r6 as in the
    four-limb kernel; lo and hi take the halves of each product. The final subtraction writes
    t - p into lo, hi, rdx, s, {a} (no longer needed) and the free accumulator word, and keeps
    it unless it borrowed: 13 registers in all.

    Invariant: t < 2p between iterations (for a, b < p), and t + a*b_i + m*p < 2^65 p fits in
    seven words because p < 2^383, so no carry is ever dropped."""
    n = 6
    R = [f"{{r{k}}}" for k in range(n + 1)]
    loop = []
    e = loop.append
    for i in range(n):
        T = rotation(R, i)
        if i == 0:
            e("// t = a * b[0] (b[0] is in rdx)")
            first_step(e, T, lambda j: qword("a", j), n=n)
        else:
            e(f"// t += a * b[{i}]")
            e(f"mov rdx, {qword('c', i - 1)}")
            mul_step(e, T, lambda j: qword("a", j), n=n)
        e("// m = t0 * inv; t = (t + m * p) / 2^64")
        reduction_step(e, T, lambda j: qword("c", n - 1 + j), qword("c", 2 * n - 1), n=n)
    T = rotation(R, n)
    scratch = ["{lo}", "{hi}", "rdx", "{s}", "{a}", T[n]]
    e("// t < 2p: subtract p unless that borrows")
    for k in range(n):
        e(f"mov {scratch[k]}, {T[k]}")
        e(f"{'sub' if k == 0 else 'sbb'} {scratch[k]}, {qword('c', n - 1 + k)}")
    for k in range(n):
        e(f"cmovnc {T[k]}, {scratch[k]}")
    out = ", ".join(T[:n])
    return {
        "adx6_mont_mul": (
            f"the six-limb CIOS product with its final subtraction; the result is in {out}",
            loop,
        ),
    }
