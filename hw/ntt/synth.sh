#!/usr/bin/env bash
# Resource estimates of the FPGA NTT units and cores with Yosys (Debian's package):
# `synth_xilinx -family xcup` (UltraScale+, the paper's Alveo U50 family), hierarchical (each
# distinct module synthesised once, the totals counted through the hierarchy), no I/O buffers
# (`-noiopad`: the units sit inside a larger design). Printed beside Tables II–IV.
#
# Caveat: the paper's figures come from Vivado HLS and Vivado place-and-route; Yosys maps the
# same arithmetic differently (DSP48E2 tiling of the wide multiplier, carry chains, LUT
# packing), so the columns compare designs, not tools. LUT counts logic LUTs plus LUTs used as
# memory (LUTRAM, shift registers); BRAM counts 18-kbit blocks (a RAMB36E2 is two).
#
#   hw/ntt/synth.sh [ROW...]     rows of hw/ntt/synth_rows.txt (default: all); writes
#                                target/hw/ntt/synth.csv and synth_<row>.{txt,log}
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${HW_NTT_BUILD_DIR:-$root/target/hw/ntt}"
mkdir -p "$build"
command -v yosys >/dev/null || { echo "yosys not found (apt-get install yosys)" >&2; exit 1; }

srcs=("$root/hw/common/rtl/mont_wide_mul.sv" "$root/hw/common/rtl/mont_mul.sv"
      "$root/hw/common/rtl/mont_mul_pipe.sv"
      "$root/hw/common/rtl/mod_add_sub.sv" "$here/rtl/ntt_butterfly.sv" "$here/rtl/ntt_round.sv"
      "$here/rtl/ntt_pipeline.sv" "$here/rtl/ntt_core.sv" "$here/rtl/ntt_butterfly_pipe.sv"
      "$here/rtl/ntt_round_pipe.sv" "$here/rtl/ntt_pipeline_pipe.sv" "$here/rtl/ntt_core_pipe.sv")

# Sums the counts of the cells matching $2 in the stat report $1 (the hierarchy's totals when
# the design has sub-modules; otherwise the one module's).
count_cells() {
  awk -v pattern="$2" '
    /=== design hierarchy ===/ { hier = 1; total = 0 }
    $1 ~ "^(" pattern ")$" && NF == 2 { if (hier) total += $2; else flat += $2 }
    END { print (hier ? total : flat) + 0 }' "$1"
}

csv="row,top,parameters,dsp,ff,lut,bram18,paper_dsp,paper_ff,paper_lut,paper_bram"
printf '%-15s %7s %7s %8s %8s %8s %8s %6s %6s\n' row DSP "paper" FF "paper" LUT "paper" BRAM "paper"
while read -r row top params p_dsp p_ff p_lut p_bram; do
  [[ -z "$row" || "$row" == \#* ]] && continue
  if [[ $# -gt 0 && ! " $* " == *" $row "* ]]; then continue; fi
  chparams=""
  IFS=, read -ra kvs <<<"$params"
  for kv in "${kvs[@]}"; do chparams+=" -set ${kv%%=*} ${kv#*=}"; done
  report="$build/synth_$row.txt"
  if ! yosys -q -l "$build/synth_$row.log" -p "read_verilog -sv ${srcs[*]}
chparam$chparams $top
hierarchy -top $top
synth_xilinx -family xcup -noiopad -top $top
tee -q -o $report.tmp stat" >/dev/null 2>&1; then
    echo "yosys failed on $row; see $build/synth_$row.log" >&2
    tail -5 "$build/synth_$row.log" >&2
    exit 1
  fi
  mv "$report.tmp" "$report"
  dsp=$(count_cells "$report" 'DSP48E2')
  ff=$(count_cells "$report" 'FD[RSCP]E')
  lut=$(count_cells "$report" 'LUT[1-6]|SRL16E|SRLC32E|RAM[0-9]+[MSX][0-9]*|RAM[0-9]+X1[SD]')
  bram=$(( $(count_cells "$report" 'RAMB18E2') + 2 * $(count_cells "$report" 'RAMB36E2') ))
  printf '%-15s %7s %7s %8s %8s %8s %8s %6s %6s\n' "$row" "$dsp" "$p_dsp" "$ff" "$p_ff" "$lut" \
    "$p_lut" "$bram" "$p_bram"
  csv+=$'\n'"$row,$top,\"$params\",$dsp,$ff,$lut,$bram,$p_dsp,$p_ff,$p_lut,$p_bram"
done < "$here/synth_rows.txt"
printf '%s\n' "$csv" >"$build/synth.csv.tmp" && mv "$build/synth.csv.tmp" "$build/synth.csv"
