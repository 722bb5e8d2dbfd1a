#!/usr/bin/env bash
# Builds and runs the shared arithmetic units' benches (hw/common): lint (Verilator -Wall) at
# every width and multiplier latency, an Icarus elaboration check, and the self-checking
# Verilator benches of the Montgomery multipliers (Algorithm 1 of the FPGA NTT paper: mont_mul,
# one shared multiplier; mont_mul_pipe, fully pipelined, one product per cycle) at 256 and 384
# bits against vectors the Rust golden model writes (`zkaccel hw mont-vectors`), checking the
# latency the modules document: 3·(MulLatency + 1) cycles.
#
#   hw/common/run.sh [COUNT]      (products per modulus, three moduli per width; default 4000)
#
# Needs verilator, iverilog and a C++ compiler (scripts/test-all.sh installs them).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=lib.sh
source "$here/lib.sh"
count="${1:-4000}"
knob_count COUNT "$count" 1 1000000
build="${HW_COMMON_BUILD_DIR:-$root/target/hw/common}"
mkdir -p "$build"

cargo build -q --release --locked -p zkaccel-cli
zkaccel="$root/target/release/zkaccel"

if command -v iverilog >/dev/null 2>&1; then
  for unit in mont_mul mont_mul_pipe; do
    # Icarus's "sorry" notes (SystemVerilog it accepts but simplifies) are not failures.
    rm -f "$build/icarus_check_$unit.vvp"
    { iverilog -g2012 -s "$unit" -o "$build/icarus_check_$unit.vvp" "$here/rtl/mont_wide_mul.sv" \
      "$here/rtl/$unit.sv" 2>&1 || true; } | { grep -v "sorry" || true; }
    [[ -f "$build/icarus_check_$unit.vvp" ]] || { echo "icarus: $unit does not elaborate" >&2; exit 1; }
  done
  echo "icarus: mont_mul and mont_mul_pipe elaborate"
fi

status=0
for width in 256 384; do
  "$zkaccel" hw mont-vectors --out "$build" --width "$width" --count "$count"
  for mul_latency in 0 5; do
    params=(-GWidth="$width" -GMulLatency="$mul_latency")
    # mont_mul (one shared multiplier) and mont_mul_pipe (one product per cycle): the same
    # latency, 3·(MulLatency + 1) cycles.
    for unit in mont_mul mont_mul_pipe; do
      unit_srcs=("$here/rtl/mont_wide_mul.sv" "$here/rtl/$unit.sv")
      verilator --lint-only -Wall --top-module "$unit" "${params[@]}" "${unit_srcs[@]}"
      obj="$build/obj_${unit}_${width}_${mul_latency}"
      verilator --cc --exe --build -j 2 -O2 "${verilator_cxx_opt[@]}" --x-assign unique --x-initial unique --top-module "$unit" \
        "${params[@]}" -Mdir "$obj" -o "V$unit" "${unit_srcs[@]}" "$here/tb/${unit}_tb.cpp" -CFLAGS "-I$here/tb" >/dev/null
      out="$build/result_${unit}_${width}_${mul_latency}.txt"
      if ! "$obj/V$unit" "$build/mont_vectors_${width}.hex" "$width" | tee "$out"; then
        status=1
        continue
      fi
      measured=$(sed -n 's/.*RESULT latency=\([0-9]*\).*/\1/p' "$out")
      expected=$((3 * (mul_latency + 1)))
      if [[ "$measured" != "$expected" ]]; then
        echo "$unit W=$width MulLatency=$mul_latency: latency $measured cycles, documented $expected" >&2
        status=1
      fi
    done
  done
done

# Hostile command lines and vectors: the bench must refuse each (exit 2) within a bounded time.
bench="$build/obj_mont_mul_256_0/Vmont_mul"
bad="$build/hostile.hex"
expect_refusal "384-bit vectors on the 256-bit unit" "$bench" "$build/mont_vectors_384.hex" 384
expect_refusal "width 100" "$bench" "$build/mont_vectors_256.hex" 100
expect_refusal "width 0" "$bench" "$build/mont_vectors_256.hex" 0
expect_refusal "an empty file" "$bench" /dev/null 256
sed '1s/^./z/' "$build/mont_vectors_256.hex" >"$bad"
expect_refusal "a non-hex word" "$bench" "$bad" 256
sed '1s/^/1/' "$build/mont_vectors_256.hex" >"$bad"
expect_refusal "a word wider than 256 bits" "$bench" "$bad" 256
pipe="$build/obj_mont_mul_pipe_256_0/Vmont_mul_pipe"
expect_refusal "384-bit vectors on the 256-bit pipelined unit" "$pipe" "$build/mont_vectors_384.hex" 384
expect_refusal "width 256x on the pipelined unit" "$pipe" "$build/mont_vectors_256.hex" 256x
expect_refusal "a word wider than 256 bits on the pipelined unit" "$pipe" "$bad" 256
expect_refusal "an empty file on the pipelined unit" "$pipe" /dev/null 256
sed '2s/$/ 0/' "$build/mont_vectors_256.hex" >"$bad"
expect_refusal "a line with a sixth word on the pipelined unit" "$pipe" "$bad" 256
[[ "$status" == 0 ]] && echo "bench: every hostile command line and vector file refused"

# Every hardware script refuses a bad knob (exit 2) before it builds anything, so these take
# no time; one that built instead would run into expect_refusal's 20-second limit and fail.
hw="$root/hw"
expect_refusal "COUNT 0 (hw/common)" bash "$hw/common/run.sh" 0
expect_refusal "COUNT 4k (hw/common)" bash "$hw/common/run.sh" 4k
expect_refusal "AMZ_VECTORS -1" bash "$hw/amaze/run.sh" -1
expect_refusal "AMZ_VECTORS 1e3" bash "$hw/amaze/run.sh" 1e3
expect_refusal "an unknown AMAZE design argument" bash "$hw/amaze/run.sh" 10 AMZ-9
expect_refusal "AMZ_HASH_DESIGNS=AMZ-9" env AMZ_HASH_DESIGNS=AMZ-9 bash "$hw/amaze/run.sh" 10
expect_refusal "HW_NTT_JOBS=most" env HW_NTT_JOBS=most bash "$hw/ntt/run.sh"
expect_refusal "HW_NTT_JOBS=' full'" env HW_NTT_JOBS=" full" bash "$hw/ntt/run.sh"
expect_refusal "an NTT multiplier latency of 65" bash "$hw/ntt/run.sh" 65
expect_refusal "an NTT multiplier latency of 5x" bash "$hw/ntt/run.sh" 5x
expect_refusal "ACCLMT_TREES=FULL" env ACCLMT_TREES=FULL bash "$hw/acclmt/run.sh"
expect_refusal "ACCLMT_TREES=all" env ACCLMT_TREES=all bash "$hw/acclmt/run.sh"
expect_refusal "an AcclMT permutation count of 0" bash "$hw/acclmt/run.sh" 0
expect_refusal "an AcclMT permutation count of 10000000000" bash "$hw/acclmt/run.sh" 10000000000
expect_refusal "SIM_JOBS=0" env SIM_JOBS=0 bash "$hw/acclmt/run.sh"
expect_refusal "SIM_JOBS=two" env SIM_JOBS=two bash "$hw/acclmt/run.sh"
expect_refusal "SIM_JOBS=-1" env SIM_JOBS=-1 bash "$hw/amaze/run.sh" 10
[[ "$status" == 0 ]] && echo "knobs: every hardware script refuses bad knobs before building"
exit $status
