#!/usr/bin/env bash
# Resource estimates of the AMAZE designs with Yosys (Debian's package): a generic count of the
# integer multipliers (`$mul` cells after elaboration and width reduction) and a Xilinx
# UltraScale+ mapping (`synth_xilinx -family xcup`: LUTs, flip-flops, DSP48E2, carry chains).
# The paper used Quartus on a Stratix V GT (27x27 DSPs, ALMs); these figures are for comparison
# of the designs with each other, not a reproduction of Table 1's resource columns.
#
#   hw/amaze/synth.sh [DESIGN...]      writes target/hw/amaze/synth_<design>.{generic,xcup}.txt
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${AMZ_BUILD_DIR:-$root/target/hw/amaze}"
mkdir -p "$build"
command -v yosys >/dev/null || { echo "yosys not found (apt-get install yosys)" >&2; exit 1; }
cargo run -q --release --locked -p zkaccel-cli -- hw amaze-vectors --out "$build" --count 1 2>/dev/null

rtl=(amz_pkg.sv amz_add_tree.sv amz_int_mul.sv amz_barrett_mul.sv amz_barrett_seq.sv amz_peasant_mul.sv amz_cipher.sv amz_cipher_top.sv)
srcs=""
for f in "${rtl[@]}"; do srcs+=" $here/rtl/$f"; done

printf '%-8s %8s %12s %8s %8s %8s %8s\n' design '$mul' 'product bits' LUTs FFs DSP48E2 CARRY
while read -r design arch red num; do
  [[ -z "$design" || "$design" == \#* ]] && continue
  if [[ $# -gt 0 && ! " $* " == *" $design "* ]]; then continue; fi
  read_cmd="read_verilog -sv -I$build -I$here/rtl -DAMZ_RC_FILE=\"$build/round_constants.memh\" $srcs
chparam -set ArchSel $arch -set ReductionSel $red -set NumMul $num amz_cipher_top
hierarchy -top amz_cipher_top"
  yosys -q -l "$build/synth_$design.generic.log" -p "$read_cmd
proc; flatten; opt; wreduce; opt_clean
tee -q -o $build/synth_$design.generic.txt stat -width" >/dev/null
  yosys -q -l "$build/synth_$design.xcup.log" -p "$read_cmd
synth_xilinx -family xcup -top amz_cipher_top -flatten
tee -q -o $build/synth_$design.xcup.txt stat" >/dev/null
  g="$build/synth_$design.generic.txt"
  x="$build/synth_$design.xcup.txt"
  # `stat -width` lists multipliers as $mul_<product width> <count>; a design may have none
# (AMZ-3: Russian peasant), so an empty grep is not an error under pipefail.
  muls=$({ grep -E '^\s+\$mul_' "$g" || true; } | awk '{s+=$2} END {print s+0}')
  mulbits=$({ grep -E '^\s+\$mul_' "$g" || true; } | awk '{split($1,a,"_"); n+=a[2]*$2} END {print n+0}')
  luts=$({ grep -E '^\s+LUT[1-6]' "$x" || true; } | awk '{s+=$2} END {print s+0}')
  ffs=$({ grep -E '^\s+FD[RSCP]E' "$x" || true; } | awk '{s+=$2} END {print s+0}')
  dsps=$({ grep -E '^\s+DSP48E2' "$x" || true; } | awk '{s+=$2} END {print s+0}')
  carry=$({ grep -E '^\s+CARRY[48]' "$x" || true; } | awk '{s+=$2} END {print s+0}')
  printf '%-8s %8s %12s %8s %8s %8s %8s\n' "$design" "$muls" "$mulbits" "$luts" "$ffs" "$dsps" "$carry"
done < "$here/designs.txt"
