#!/usr/bin/env python3
"""Generates the instruction lines of `crates/fp256/src/asm.rs` (CIOS, four limbs,
mulx/adcx/adox, every operand in a register except the multiplier words b[1..4], the modulus
and inv, which are read from one small array).

Run: python3 tools/gen_mont_asm.py, then paste the three blocks into asm.rs: the CIOS loop
(the body of `cios_adx!`), the final subtraction (`mont_mul_adx`) and the pair kernel
(`mont_mul_pair_lazy_adx`).

Registers: a0..a3 hold a; rdx holds b[0], then each multiplier word and each m in turn;
{c} points at [b1, b2, b3, p0, p1, p2, p3, inv]; the five accumulator words rotate through
r0..r4 (t_k lives in r[(i + k) % 5] in iteration i), so no moves are needed; lo and hi take the
halves of each product. That is 13 general registers, all x86-64 offers an asm block.
"""

def P(j):
    return f"qword ptr [{{c}} + {24 + 8 * j}]"

R = [f"{{r{k}}}" for k in range(5)]
A = [f"{{a{k}}}" for k in range(4)]

loop = []
e = loop.append
for i in range(4):
    T = [R[(i + k) % 5] for k in range(5)]
    if i == 0:
        e("// t = a * b[0] (b[0] is in rdx)")
        e(f"mulx {T[1]}, {T[0]}, {A[0]}")
        for j in range(1, 4):
            e(f"mulx {T[j + 1]}, {{lo}}, {A[j]}")
            e(f"{'add' if j == 1 else 'adc'} {T[j]}, {{lo}}")
        e(f"adc {T[4]}, 0")
    else:
        e(f"// t += a * b[{i}]")
        e(f"mov rdx, qword ptr [{{c}} + {8 * (i - 1)}]")
        e("xor {lo:e}, {lo:e}")
        for j in range(3):
            e(f"mulx {{hi}}, {{lo}}, {A[j]}")
            e(f"adox {T[j]}, {{lo}}")
            e(f"adcx {T[j + 1]}, {{hi}}")
        e(f"mulx {T[4]}, {{lo}}, {A[3]}")
        e(f"adox {T[3]}, {{lo}}")
        e("mov {lo:e}, 0")
        e(f"adox {T[4]}, {{lo}}")
        e(f"adcx {T[4]}, {{lo}}")
    e("// m = t0 * inv; t = (t + m * p) / 2^64")
    e(f"mov rdx, {T[0]}")
    e("imul rdx, qword ptr [{c} + 56]")
    e("xor {lo:e}, {lo:e}")
    for j in range(4):
        e(f"mulx {{hi}}, {{lo}}, {P(j)}")
        e(f"adox {T[j]}, {{lo}}")
        e(f"adcx {T[j + 1]}, {{hi}}")
    e("mov {lo:e}, 0")
    e(f"adox {T[4]}, {{lo}}")

T = [R[(4 + k) % 5] for k in range(4)]
final = ["// t < 2p: subtract p unless that borrows (a0..a3 are free now)"]
for k in range(4):
    final.append(f"mov {A[k]}, {T[k]}")
    final.append(f"{'sub' if k == 0 else 'sbb'} {A[k]}, {P(k)}")
for k in range(4):
    final.append(f"cmovnc {T[k]}, {A[k]}")

print("// ---- CIOS loop; the result is in", ", ".join(T))
print("\n".join(f'                "{l}",' for l in loop))
print("// ---- final subtraction")
print("\n".join(f'        "{l}",' for l in final))

# ---- The pair kernel: x = a*c and y = b*c (lazy CIOS, no final subtraction), the two loops
# interleaved step by step so that one product's multiplications fill the other's carry and
# reduction latency. A product's steps form one long dependent chain that fills the
# out-of-order scheduler, so two products issued one after the other hardly overlap; issued
# interleaved they do. Registers: rdx (multiplier word or m), x0..x4 and y0..y4 (the two
# rotating accumulators), lo, hi, and {w} pointing at [a, b, c, p, inv] (17 words): 14 in all.

def W(k):
    return f"qword ptr [{{w}} + {8 * k}]"

X = [f"{{x{k}}}" for k in range(5)]
Y = [f"{{y{k}}}" for k in range(5)]
pair = []
e = pair.append

def first_step(T, base):
    e(f"mulx {T[1]}, {T[0]}, {W(base)}")
    for j in range(1, 4):
        e(f"mulx {T[j + 1]}, {{lo}}, {W(base + j)}")
        e(f"{'add' if j == 1 else 'adc'} {T[j]}, {{lo}}")
    e(f"adc {T[4]}, 0")

def mul_step(T, base):
    e("xor {lo:e}, {lo:e}")
    for j in range(3):
        e(f"mulx {{hi}}, {{lo}}, {W(base + j)}")
        e(f"adox {T[j]}, {{lo}}")
        e(f"adcx {T[j + 1]}, {{hi}}")
    e(f"mulx {T[4]}, {{lo}}, {W(base + 3)}")
    e(f"adox {T[3]}, {{lo}}")
    e("mov {lo:e}, 0")
    e(f"adox {T[4]}, {{lo}}")
    e(f"adcx {T[4]}, {{lo}}")

def reduction_step(T):
    e(f"mov rdx, {T[0]}")
    e(f"imul rdx, {W(16)}")
    e("xor {lo:e}, {lo:e}")
    for j in range(4):
        e(f"mulx {{hi}}, {{lo}}, {W(12 + j)}")
        e(f"adox {T[j]}, {{lo}}")
        e(f"adcx {T[j + 1]}, {{hi}}")
    e("mov {lo:e}, 0")
    e(f"adox {T[4]}, {{lo}}")

for i in range(4):
    TX = [X[(i + k) % 5] for k in range(5)]
    TY = [Y[(i + k) % 5] for k in range(5)]
    e(f"// ---- iteration {i}: both accumulators += (a or b) * c[{i}], then reduce each")
    e(f"mov rdx, {W(8 + i)}")
    step = first_step if i == 0 else mul_step
    step(TX, 0)
    step(TY, 4)
    reduction_step(TX)
    reduction_step(TY)

print("// ---- pair kernel; x is in", ", ".join(X[(4 + k) % 5] for k in range(4)),
      "and y in", ", ".join(Y[(4 + k) % 5] for k in range(4)))
print("\n".join(f'            "{l}",' for l in pair))
