#!/usr/bin/env bash
# Modular-multiplier counts of AcclMT's Poseidon sub-engines with Yosys (Debian's package):
# each sub-engine's round datapath (rtl/acclmt_round.sv) elaborated at FullThreads = 3 (the FR
# sub-engine: three full threads) and 1 (the PR sub-engine: one full and two partial threads),
# its pipelined Montgomery multipliers (hw/common's mont_mul_pipe) kept as cells and counted;
# printed beside the paper's 18 / 12 and the two-FR-engine baseline's 36 ("reducing modular
# multiplication resource consumption by 16.7 %"; the paper's synthesised area saving is
# 14.8 %, which needs a cell library this script does not have).
#
#   hw/acclmt/synth.sh           (writes target/hw/acclmt/synth_{fr,pr}.txt)
#   hw/acclmt/synth.sh --area    (also synthesises both round datapaths to gates at Width 64,
#                                 `synth -flatten`, and compares their cells and Yosys' CMOS
#                                 transistor estimate: about 25 minutes and 10 GB of memory;
#                                 writes target/hw/acclmt/area_{fr,pr}.txt)
set -euo pipefail
area=0
case "${1:-}" in
  "") ;;
  --area) area=1 ;;
  *) echo "usage: $0 [--area]" >&2; exit 2 ;;
esac
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${HW_ACCLMT_BUILD_DIR:-$root/target/hw/acclmt}"
mkdir -p "$build"
command -v yosys >/dev/null || { echo "yosys not found (apt-get install yosys)" >&2; exit 1; }

srcs=("$root/hw/common/rtl/mont_wide_mul.sv" "$root/hw/common/rtl/mont_mul_pipe.sv"
      "$root/hw/common/rtl/mod_add_sub.sv" "$here/rtl/acclmt_delay.sv" "$here/rtl/acclmt_sbox.sv"
      "$here/rtl/acclmt_thread.sv" "$here/rtl/acclmt_round.sv")

declare -A count
for sub in fr pr; do
  threads=3; [[ "$sub" == pr ]] && threads=1
  # The count does not depend on the width; 64 bits keeps elaboration quick.
  if ! yosys -q -l "$build/synth_$sub.log" -p "read_verilog -sv ${srcs[*]}
chparam -set FullThreads $threads -set Width 64 acclmt_round
hierarchy -top acclmt_round
setattr -mod -set keep_hierarchy 1 *mont_mul_pipe*
flatten
tee -q -o $build/synth_$sub.txt stat" >/dev/null 2>&1; then
    echo "yosys failed on the $sub sub-engine; see $build/synth_$sub.log" >&2
    exit 1
  fi
  # The mont_mul_pipe instances in acclmt_round's own section of `stat`: "name count" (Yosys
  # 0.23, Debian bookworm) or "count name" (later Yosys).
  count[$sub]=$(awk '/^=== / { top = /acclmt_round/ }
    top && /mont_mul_pipe/ { if ($NF ~ /^[0-9]+$/) { print $NF; exit } if ($1 ~ /^[0-9]+$/) { print $1; exit } }' \
    "$build/synth_$sub.txt")
done
fr="${count[fr]}" pr="${count[pr]}"
echo "FR sub-engine: $fr modular multipliers (paper 18)"
echo "PR sub-engine: $pr modular multipliers (paper 12)"
awk -v fr="$fr" -v pr="$pr" 'BEGIN {
  printf "engine %d against the two-FR baseline %d: %.1f %% fewer (paper: 16.7 %% theoretical, 14.8 %% synthesised area)\n", fr + pr, 2 * fr, 100 * (1 - (fr + pr) / (2 * fr))
}'
[[ "$fr" == 18 && "$pr" == 12 ]] || { echo "FAIL: the sub-engines' multiplier counts differ from the paper's" >&2; exit 1; }

[[ "$area" == 1 ]] || exit 0
# The gates of each sub-engine's round datapath (its threads, S-boxes, MDS products, adders and
# pipeline registers), at Width 64 (one 64-bit limb per product: the multipliers dominate at
# every width, more so at 256). The scheduler, the staging and working buffers are outside
# acclmt_round and are not compared.
declare -A cells transistors
for sub in fr pr; do
  threads=3; [[ "$sub" == pr ]] && threads=1
  if ! yosys -q -l "$build/area_$sub.log" -p "read_verilog -sv ${srcs[*]}
chparam -set FullThreads $threads -set Width 64 acclmt_round
synth -flatten -top acclmt_round
tee -q -o $build/area_$sub.txt stat -tech cmos" >/dev/null 2>&1; then
    echo "yosys failed to synthesise the $sub sub-engine; see $build/area_$sub.log" >&2
    exit 1
  fi
  cells[$sub]=$(awk '/Number of cells:/ { print $NF; exit }' "$build/area_$sub.txt")
  transistors[$sub]=$(awk '/Estimated number of transistors:/ { gsub(/\+/, "", $NF); print $NF; exit }' "$build/area_$sub.txt")
  echo "$sub round datapath (Width 64): ${cells[$sub]} cells, ${transistors[$sub]} transistors (Yosys' CMOS estimate, flip-flops not counted)"
done
awk -v fc="${cells[fr]}" -v pc="${cells[pr]}" -v ft="${transistors[fr]}" -v pt="${transistors[pr]}" 'BEGIN {
  printf "engine (FR + PR) against the two-FR baseline: %.1f %% fewer cells, %.1f %% fewer transistors (paper: 16.7 %% theoretical, 14.8 %% synthesised area of the whole engine)\n", 100 * (1 - (fc + pc) / (2 * fc)), 100 * (1 - (ft + pt) / (2 * ft))
}'
