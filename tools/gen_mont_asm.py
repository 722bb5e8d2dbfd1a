#!/usr/bin/env python3
"""Generates the body of `crates/fp256/src/asm.rs`'s CIOS kernel (4 limbs, mulx/adcx/adox).

Run: python3 tools/gen_mont_asm.py > /tmp/body.txt, then paste between the markers in asm.rs.
Register roles rotate each iteration (t0..t4 live in r[(i + k) % 5]) so no moves are needed.
"""
lines = []
def e(s): lines.append(s)
R = [f"{{r{k}}}" for k in range(5)]
e("// t = 0")
for k in range(4):
    e(f"xor {R[k]:s}, {R[k]:s}".replace("{", "{{").replace("}", "}}") if False else f"xor {R[k]}, {R[k]}")
for i in range(4):
    T = [R[(i + k) % 5] for k in range(5)]
    e(f"// ---- iteration {i}: t += a * b[{i}]")
    e("xor eax, eax")
    e(f"mov rdx, qword ptr [{{b}} + {8*i}]")
    for j in range(4):
        if j < 3:
            e(f"mulx {{hi}}, {{lo}}, qword ptr [{{a}} + {8*j}]")
            e(f"adox {T[j]}, {{lo}}")
            e(f"adcx {T[j+1]}, {{hi}}")
        else:
            e(f"mulx {T[4]}, {{lo}}, qword ptr [{{a}} + {8*j}]")
            e(f"adox {T[3]}, {{lo}}")
    e(f"adox {T[4]}, rax")
    e(f"adcx {T[4]}, rax")
    e(f"// m = t0 * inv; t = (t + m * p) / 2^64")
    e(f"mov rdx, {T[0]}")
    e("imul rdx, {inv}")
    e("xor eax, eax")
    for j in range(4):
        e(f"mulx {{hi}}, {{lo}}, qword ptr [{{p}} + {8*j}]")
        e(f"adox {T[j]}, {{lo}}")
        e(f"adcx {T[j+1]}, {{hi}}")
    e(f"adox {T[4]}, rax")
T = [R[(4 + k) % 5] for k in range(4)]
e("// result < 2p: subtract p unless that borrows")
tmp = ["{a}", "{b}", "{lo}", "{hi}"]
for k in range(4):
    e(f"mov {tmp[k]}, {T[k]}")
    e(f"{'sub' if k == 0 else 'sbb'} {tmp[k]}, qword ptr [{{p}} + {8*k}]")
for k in range(4):
    e(f"cmovnc {T[k]}, {tmp[k]}")
print("\n".join(f'"{l}",' for l in lines))
print("// result registers:", T)
