#!/usr/bin/env bash
# Builds and runs the shared arithmetic units' benches (hw/common): lint (Verilator -Wall) at
# every width and multiplier latency, an Icarus elaboration check, and the self-checking
# Verilator bench of the Montgomery multiplier (Algorithm 1 of the FPGA NTT paper) at 256 and
# 384 bits against vectors the Rust golden model writes (`zkaccel hw mont-vectors`), checking
# the latency the module documents: 3·(MulLatency + 1) cycles.
#
#   hw/common/run.sh [COUNT]      (products per modulus, three moduli per width; default 4000)
#
# Needs verilator, iverilog and a C++ compiler (scripts/test-all.sh installs them).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
count="${1:-4000}"
build="${HW_COMMON_BUILD_DIR:-$root/target/hw/common}"
mkdir -p "$build"

cargo build -q --release --locked -p zkaccel-cli
zkaccel="$root/target/release/zkaccel"

srcs=("$here/rtl/mont_wide_mul.sv" "$here/rtl/mont_mul.sv")
if command -v iverilog >/dev/null 2>&1; then
  iverilog -g2012 -s mont_mul -o "$build/icarus_check.vvp" "${srcs[@]}"
  echo "icarus: mont_mul elaborates"
fi

status=0
for width in 256 384; do
  "$zkaccel" hw mont-vectors --out "$build" --width "$width" --count "$count"
  for mul_latency in 0 5; do
    params=(-GWidth="$width" -GMulLatency="$mul_latency")
    verilator --lint-only -Wall --top-module mont_mul "${params[@]}" "${srcs[@]}"
    obj="$build/obj_mont_mul_${width}_${mul_latency}"
    verilator --cc --exe --build -j 2 -O2 --x-assign unique --x-initial unique --top-module mont_mul \
      "${params[@]}" -Mdir "$obj" -o Vmont_mul "${srcs[@]}" "$here/tb/mont_mul_tb.cpp" -CFLAGS "-I$here/tb" >/dev/null
    out="$build/result_mont_mul_${width}_${mul_latency}.txt"
    if ! "$obj/Vmont_mul" "$build/mont_vectors_${width}.hex" "$width" | tee "$out"; then
      status=1
      continue
    fi
    measured=$(sed -n 's/.*RESULT latency=\([0-9]*\).*/\1/p' "$out")
    expected=$((3 * (mul_latency + 1)))
    if [[ "$measured" != "$expected" ]]; then
      echo "mont_mul W=$width MulLatency=$mul_latency: latency $measured cycles, documented $expected" >&2
      status=1
    fi
  done
done

# Hostile command lines and vectors: the bench must refuse each (exit 2) within a bounded time.
bench="$build/obj_mont_mul_256_0/Vmont_mul"
bad="$build/hostile.hex"
expect_refusal() {
  local what="$1"; shift
  local rc=0
  timeout 20 "$@" >/dev/null 2>&1 || rc=$?
  if [[ "$rc" != 2 ]]; then
    echo "FAIL: the bench accepted $what (exit $rc, want 2)" >&2
    status=1
  fi
}
expect_refusal "384-bit vectors on the 256-bit unit" "$bench" "$build/mont_vectors_384.hex" 384
expect_refusal "width 100" "$bench" "$build/mont_vectors_256.hex" 100
expect_refusal "width 0" "$bench" "$build/mont_vectors_256.hex" 0
expect_refusal "an empty file" "$bench" /dev/null 256
sed '1s/^./z/' "$build/mont_vectors_256.hex" >"$bad"
expect_refusal "a non-hex word" "$bench" "$bad" 256
sed '1s/^/1/' "$build/mont_vectors_256.hex" >"$bad"
expect_refusal "a word wider than 256 bits" "$bench" "$bad" 256
[[ "$status" == 0 ]] && echo "bench: every hostile command line and vector file refused"
exit $status
