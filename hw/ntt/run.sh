#!/usr/bin/env bash
# Builds and runs the FPGA NTT core's benches (hw/ntt): lint (Verilator -Wall) of every
# configuration, an Icarus elaboration check, and the self-checking Verilator bench of the
# core (the paper's, its PipeZK replica, and the fully pipelined ntt_core_pipe) on a 4096-point
# task (2^(12−m) sub-tasks of 2^m points) for Table III's configurations (m round units,
# P pipelines) on each field: BN254 Fr and BLS12-381 Fr on the 256-bit unit, BLS12-377 Fq on
# the 384-bit unit (HW_NTT_JOBS below says which rows run where); outputs equal to
# zkaccel-ntt's (`zkaccel hw ntt-vectors`). The PipeZK replica runs too, and a few
# configurations off the paper's grid. Every measured cycle count must equal the cycle model's
# (`zkaccel model ntt-fpga tables`); they are printed beside Table III's and written to
# $build/cycles.csv. Then a 2^16-point (256-bit) and a 2^12-point (384-bit) transform through
# the core in the paper's √N×√N plan (ntt_four_step), equal to zkaccel-ntt's.
#
#   hw/ntt/run.sh [MUL_LATENCY]     (the wide multiplier's latency; default 5, the paper-faithful
#                                    butterfly interval 3·(5 + 1) + 1 = 19 cycles)
#
# Needs verilator, iverilog and a C++ compiler (scripts/test-all.sh installs them).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=../common/lib.sh
source "$here/../common/lib.sh"
common="$root/hw/common"
mul_latency="${1:-5}"
knob_count MUL_LATENCY "$mul_latency" 0 64
knob_choice HW_NTT_JOBS "${HW_NTT_JOBS:-ci}" ci full
build="${HW_NTT_BUILD_DIR:-$root/target/hw/ntt}"
mkdir -p "$build" "$build/tmp"

cargo build -q --release --locked -p zkaccel-cli
zkaccel="$root/target/release/zkaccel"

srcs=("$common/rtl/mont_wide_mul.sv" "$common/rtl/mont_mul.sv" "$common/rtl/mod_add_sub.sv"
      "$here/rtl/ntt_butterfly.sv" "$here/rtl/ntt_round.sv" "$here/rtl/ntt_pipeline.sv"
      "$here/rtl/ntt_core.sv")
pipe_srcs=("$common/rtl/mont_wide_mul.sv" "$common/rtl/mont_mul_pipe.sv" "$common/rtl/mod_add_sub.sv"
           "$here/rtl/ntt_butterfly_pipe.sv" "$here/rtl/ntt_round_pipe.sv"
           "$here/rtl/ntt_pipeline_pipe.sv" "$here/rtl/ntt_core_pipe.sv")
if command -v iverilog >/dev/null 2>&1; then
  # Icarus's "sorry" notes (SystemVerilog it accepts but simplifies) are not failures.
  for top in ntt_core ntt_core_pipe; do
    if [[ "$top" == ntt_core ]]; then top_srcs=("${srcs[@]}"); else top_srcs=("${pipe_srcs[@]}"); fi
    rm -f "$build/icarus_check_$top.vvp"
    { iverilog -g2012 -s "$top" -o "$build/icarus_check_$top.vvp" "${top_srcs[@]}" 2>&1 || true; } |
      { grep -v "sorry" || true; }
    [[ -f "$build/icarus_check_$top.vvp" ]] || { echo "icarus: $top does not elaborate" >&2; exit 1; }
  done
  echo "icarus: ntt_core and ntt_core_pipe elaborate"
fi

# Jobs: width field m P multiplier-latency core sub-tasks paper-cycles(or -), core = 1 (the
# paper's, sub-tasks overlapping), 0 (its PipeZK replica) or pipe (the fully pipelined core,
# ntt_core_pipe). Table III's five configurations ("m rounds & 2^(12−m) sub-tasks & P
# sub-tasks in parallel") on each field, the PipeZK replica of Tables IV and V, the fully
# pipelined core on Table III's configurations (256 bits, both fields; 384 bits, 8 rounds),
# and configurations off the paper's grid (odd sub-task counts, other latencies) that pin the
# cycle model to the RTL.
#
# Each (core, width, m, P, latency) is a Verilator build of its own (most of this script's time);
# the fields of one width share it. HW_NTT_JOBS=ci (the default) runs the paper-faithful 256-bit
# core on all five rows and, on the 384-bit unit and the fully pipelined core, rows 8 & 1 and
# 4 & 4 (the extremes); HW_NTT_JOBS=full runs every row everywhere (six more builds).
jobs=()
table_iii=("8 1 39094" "8 2 20361" "4 1 39407" "4 2 20312" "4 4 10524")
case "${HW_NTT_JOBS:-ci}" in
  ci) extremes=("8 1 39094" "4 4 10524") ;;
  full) extremes=("${table_iii[@]}") ;;
esac
for fw in "256 bn254-fr" "256 bls12-381-fr" "384 bls12-377-fq"; do
  rows=("${table_iii[@]}")
  [[ "$fw" == 384* ]] && rows=("${extremes[@]}")
  for row in "${rows[@]}"; do
    read -r m p paper <<<"$row"
    jobs+=("$fw $m $p $mul_latency 1 $((1 << (12 - m))) $paper")
  done
  jobs+=("$fw 8 1 $mul_latency 0 16 -")
done
for fw in "256 bn254-fr" "256 bls12-381-fr"; do
  for row in "${extremes[@]}"; do
    read -r m p paper <<<"$row"
    jobs+=("$fw $m $p $mul_latency pipe $((1 << (12 - m))) $paper")
  done
done
jobs+=("384 bls12-377-fq 8 1 $mul_latency pipe 16 39094")
jobs+=("256 bn254-fr 6 2 2 1 63 -" "256 bn254-fr 3 3 0 0 50 -" "256 bn254-fr 2 3 1 1 100 -"
       "256 bn254-fr 3 3 0 pipe 50 -" "256 bn254-fr 2 1 1 pipe 100 -")

status=0
csv="width,field,log_points,pipelines,mul_latency,core,subtasks,rtl_cycles,model_cycles,paper_cycles"
for job in "${jobs[@]}"; do
  read -r width field m p lat overlap subtasks paper <<<"$job"
  vectors="$build/ntt_vectors_${field}_${m}_${subtasks}.hex"
  if [[ ! -f "$vectors" ]]; then
    "$zkaccel" hw ntt-vectors --out "$build/tmp" --field "$field" --log-points "$m" \
      --subtasks "$subtasks" 2>/dev/null
    mv "$build/tmp/ntt_vectors_${field}_${m}.hex" "$vectors"
  fi
  params=(-GWidth="$width" -GLogPoints="$m" -GPipelines="$p" -GMulLatency="$lat")
  if [[ "$overlap" == pipe ]]; then
    top=ntt_core_pipe; top_srcs=("${pipe_srcs[@]}"); defines="-DNTT_CORE_PIPE"; kind=(--core pipelined)
  else
    top=ntt_core; top_srcs=("${srcs[@]}"); defines=""; params+=(-GSubtaskOverlap="$overlap")
    kind=(); [[ "$overlap" == 0 ]] && kind=(--core pipezk)
  fi
  obj="$build/obj_${top}_${width}_${m}_${p}_${lat}_${overlap}"
  verilator --lint-only -Wall --top-module "$top" "${params[@]}" "${top_srcs[@]}"
  verilator --cc --exe --build -j 2 -O2 "${verilator_cxx_opt[@]}" --x-assign unique --x-initial unique \
    --top-module "$top" "${params[@]}" -CFLAGS "-I$common/tb -I$here/tb $defines" -Mdir "$obj" \
    -o "V$top" "${top_srcs[@]}" "$here/tb/ntt_core_tb.cpp" >/dev/null
  out="$build/result_${top}_${field}_${m}_${p}_${lat}_${overlap}_${subtasks}.txt"
  if ! "$obj/V$top" "$vectors" "$p" | tee "$out"; then
    status=1
    continue
  fi
  cycles=$(sed -n 's/.*RESULT cycles=\([0-9]*\).*/\1/p' "$out")
  model=$("$zkaccel" model ntt-fpga run --log-points "$m" --pipelines "$p" --mul-latency "$lat" \
    --width "$width" --points $((subtasks << m)) "${kind[@]}" | sed -n 's/^cycles=//p')
  if [[ "$model" != "$cycles" ]]; then
    echo "FAIL: cycle model $model cycles, RTL $cycles ($job)" >&2
    status=1
  fi
  if [[ "$paper" != "-" ]]; then
    label="paper-faithful"; [[ "$overlap" == pipe ]] && label="fully pipelined"
    awk -v c="$cycles" -v p="$paper" -v m="$m" -v n="$p" -v w="$width" -v l="$label" \
      'BEGIN { printf "  Table III, %d-bit, %d rounds, %d pipeline(s), %s: RTL = model %d cycles, paper %d (%+.1f %%)\n", w, m, n, l, c, p, 100 * (c / p - 1) }'
  else
    echo "  RTL = model: $cycles cycles"
  fi
  csv+=$'\n'"$width,$field,$m,$p,$lat,$overlap,$subtasks,$cycles,$model,$paper"
done
printf '%s\n' "$csv" >"$build/cycles.csv.tmp" && mv "$build/cycles.csv.tmp" "$build/cycles.csv"

# Hostile command lines and vector files: the bench must refuse each (exit 2) before it drives
# the core, within a bounded time: a pipeline count other than the built core's (more lanes
# would write past the packed input port), malformed numbers, truncated, oversized, corrupt and
# over-wide vectors.
bench="$build/obj_ntt_core_256_8_1_${mul_latency}_1/Vntt_core"
good="$build/ntt_vectors_bn254-fr_8_16.hex"
bad="$build/tmp/hostile.hex"
expect_refusal "2 pipelines on a 1-pipeline core" "$bench" "$good" 2
expect_refusal "32 pipelines on a 1-pipeline core" "$bench" "$good" 32
expect_refusal "pipelines '1x'" "$bench" "$good" 1x
expect_refusal "pipelines ''" "$bench" "$good" ""
expect_refusal "seed '7q'" "$bench" "$good" 1 7q
expect_refusal "no arguments" "$bench"
expect_refusal "a missing file" "$bench" "$build/tmp/absent.hex" 1
head -c $(( $(wc -c <"$good") / 2 )) "$good" >"$bad"
expect_refusal "a truncated file" "$bench" "$bad" 1
{ cat "$good"; echo 0; } >"$bad"
expect_refusal "a file with a word too many" "$bench" "$bad" 1
sed '4s/^./g/' "$good" >"$bad"
expect_refusal "a non-hex word" "$bench" "$bad" 1
sed '4s/^/1/' "$good" >"$bad"
expect_refusal "a word wider than 256 bits" "$bench" "$bad" 1
sed '1s/.*/256 8 99999999/' "$good" >"$bad"
expect_refusal "an oversized sub-task count" "$bench" "$bad" 1
sed '1s/.*/384 8 16/' "$good" >"$bad"
expect_refusal "a 384-bit task on the 256-bit core" "$bench" "$bad" 1
pipe_bench="$build/obj_ntt_core_pipe_256_8_1_${mul_latency}_pipe/Vntt_core_pipe"
expect_refusal "2 pipelines on a 1-pipeline fully pipelined core" "$pipe_bench" "$good" 2
expect_refusal "a 384-bit task on the 256-bit fully pipelined core" "$pipe_bench" "$bad" 1
[[ "$status" == 0 ]] && echo "bench: every hostile command line and vector file refused"

# The √N×√N plan (ntt_four_step: the core and the twiddle scaler between the passes): a
# 2^16-point transform on 256-bit BN254 Fr (256 × 256, the paper's 8-round core) and a
# 2^12-point one on 384-bit BLS12-377 Fq (64 × 64, two pipelines), against zkaccel-ntt.
for job in "256 bn254-fr 16 1" "384 bls12-377-fq 12 2"; do
  read -r width field log_n p <<<"$job"
  m=$((log_n / 2))
  vectors="$build/ntt_four_step_${field}_${log_n}.hex"
  [[ -f "$vectors" ]] || "$zkaccel" hw ntt-four-step-vectors --out "$build" --field "$field" \
    --log-n "$log_n" 2>/dev/null
  params=(-GWidth="$width" -GLogPoints="$m" -GPipelines="$p" -GMulLatency="$mul_latency")
  obj="$build/obj_ntt_four_step_${width}_${m}_${p}_${mul_latency}"
  verilator --lint-only -Wall --top-module ntt_four_step "${params[@]}" "${srcs[@]}" "$here/rtl/ntt_four_step.sv"
  verilator --cc --exe --build -j 2 -O2 "${verilator_cxx_opt[@]}" --x-assign unique --x-initial unique \
    --top-module ntt_four_step "${params[@]}" -CFLAGS "-I$common/tb -I$here/tb" -Mdir "$obj" \
    -o Vntt_four_step "${srcs[@]}" "$here/rtl/ntt_four_step.sv" "$here/tb/ntt_four_step_tb.cpp" >/dev/null
  out="$build/result_ntt_four_step_${field}_${log_n}_${p}.txt"
  if ! "$obj/Vntt_four_step" "$vectors" "$p" | tee "$out"; then
    status=1
    continue
  fi
  cycles=$(sed -n 's/.*pass2_cycles=\([0-9]*\).*/\1/p' "$out")
  model=$("$zkaccel" model ntt-fpga run --log-points "$m" --pipelines "$p" --mul-latency "$mul_latency" \
    --width "$width" --points $((1 << log_n)) | sed -n 's/^cycles=//p')
  if [[ "$model" != "$cycles" ]]; then
    echo "FAIL: cycle model $model cycles, RTL pass $cycles ($job)" >&2
    status=1
  fi
done
exit $status
