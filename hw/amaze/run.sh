#!/usr/bin/env bash
# Builds and runs the AMAZE RTL benches: lint (Verilator -Wall), an Icarus compile check, and a
# self-checking Verilator simulation of every design in designs.txt against vectors the Rust
# golden model writes. Prints one line per design with the measured latency in cycles.
#
#   hw/amaze/run.sh [COUNT] [DESIGN...]      (COUNT ciphers per design, default 1000)
#
# The Miyaguchi-Preneel hash top wraps whichever cipher it is given; its bench runs over the
# designs in AMZ_HASH_DESIGNS: by default AMZ-1 (pipelined, chunked Barrett) and AMZ-3
# (sequential, Russian peasant), `all` for every design (a Verilator build each).
#
# Needs verilator, iverilog and a C++ compiler (scripts/test-all.sh installs them).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=../common/lib.sh
source "$here/../common/lib.sh"
count="${1:-1000}"
shift || true
knob_count COUNT "$count" 1 1000000
# Every design named (AMZ_HASH_DESIGNS, the arguments after COUNT) must be one of designs.txt's:
# a misspelt one would silently test nothing.
known=" $(awk '$1 !~ /^#/ && NF { printf "%s ", $1 }' "$here/designs.txt")"
for name in "$@"; do
  if [[ "$known" != *" $name "* ]]; then
    echo "unknown design '$name' (designs.txt has:$known)" >&2
    exit 2
  fi
done
hash_designs="${AMZ_HASH_DESIGNS:-AMZ-1 AMZ-3}"
if [[ "$hash_designs" != all ]]; then
  for name in $hash_designs; do
    if [[ "$known" != *" $name "* ]]; then
      echo "AMZ_HASH_DESIGNS: unknown design '$name' (designs.txt has:$known; or 'all')" >&2
      exit 2
    fi
  done
fi
build="${AMZ_BUILD_DIR:-$root/target/hw/amaze}"
mkdir -p "$build"

# Constants and vectors from the golden model; the cycle model for the calibration check.
cargo build -q --release --locked -p zkaccel-cli
zkaccel="$root/target/release/zkaccel"
"$zkaccel" hw amaze-vectors --out "$build" --count "$count"

rtl=(amz_pkg.sv amz_add_tree.sv amz_int_mul.sv amz_barrett_mul.sv amz_barrett_seq.sv amz_peasant_mul.sv amz_cipher.sv amz_cipher_top.sv amz_hash.sv)
srcs=()
for f in "${rtl[@]}"; do srcs+=("$here/rtl/$f"); done
defs=(-I"$build" -I"$here/rtl" "+define+AMZ_RC_FILE=\"$build/round_constants.memh\"")

# Icarus: the sources must elaborate as plain SystemVerilog-2012 too (default parameters).
if command -v iverilog >/dev/null 2>&1; then
  iverilog -g2012 -I"$build" -I"$here/rtl" -DAMZ_RC_FILE="\"$build/round_constants.memh\"" -s amz_cipher_top -s amz_hash \
    -o "$build/icarus_check.vvp" "${srcs[@]}"
  echo "icarus: amz_cipher_top and amz_hash elaborate"
fi

status=0
while read -r design arch red num; do
  [[ -z "$design" || "$design" == \#* ]] && continue
  if [[ $# -gt 0 && ! " $* " == *" $design "* ]]; then continue; fi
  params=(-GArchSel="$arch" -GReductionSel="$red" -GNumMul="$num")
  verilator --lint-only -Wall --top-module amz_cipher_top "${params[@]}" "${defs[@]}" "${srcs[@]}"
  obj="$build/obj_$design"
  verilator --cc --exe --build -j 2 -O2 "${verilator_cxx_opt[@]}" --x-assign fast --x-initial fast --top-module amz_cipher_top \
    "${params[@]}" "${defs[@]}" -Mdir "$obj" -o Vamz_cipher_top "${srcs[@]}" "$here/tb/amz_cipher_tb.cpp" >/dev/null
  if ! "$obj/Vamz_cipher_top" "$build/cipher_vectors.hex" "$count" "$design" | tee "$build/result_$design.txt"; then
    status=1
    continue
  fi
  # Calibration: the cycle model must predict exactly the latency the RTL showed.
  measured=$(sed -n 's/.*RESULT.* latency=\([0-9]*\).*/\1/p' "$build/result_$design.txt")
  modelled=$("$zkaccel" model amaze tables --design "$design" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["model"]["cycles"])')
  if [[ "$measured" != "$modelled" ]]; then
    echo "$design: CALIBRATION MISMATCH: RTL $measured cycles, model $modelled" >&2
    status=1
  else
    echo "$design: cycle model agrees with the RTL ($modelled cycles)"
  fi
  # The Miyaguchi-Preneel hash top over this design's cipher: lint for every design, the
  # bench for those in AMZ_HASH_DESIGNS.
  verilator --lint-only -Wall --top-module amz_hash -GArch="$arch" -GReduction="$red" -GNumMul="$num" "${defs[@]}" "${srcs[@]}"
  [[ "$hash_designs" == all || " $hash_designs " == *" $design "* ]] || continue
  hobj="$build/obj_hash_$design"
  verilator --cc --exe --build -j 2 -O2 "${verilator_cxx_opt[@]}" --x-assign fast --x-initial fast --top-module amz_hash \
    -GArch="$arch" -GReduction="$red" -GNumMul="$num" "${defs[@]}" -Mdir "$hobj" -o Vamz_hash \
    "${srcs[@]}" "$here/tb/amz_hash_tb.cpp" >/dev/null
  "$hobj/Vamz_hash" "$build/hash_vectors.hex" "$design" || status=1
done < "$here/designs.txt"
exit $status
