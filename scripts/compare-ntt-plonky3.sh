#!/usr/bin/env bash
# Every batched Goldilocks NTT and LDE shape of the Plonky3 comparison in one run: ours against
# Plonky3 0.8's `Radix2DFTSmallBatch` (its faster DFT on these shapes), each shape in one
# process (`crates/ntt/examples/lde_compare.rs`), the two alternating round by round on
# identical inputs, built with `-C target-cpu=native` (Plonky3 picks its packed Goldilocks at
# compile time; ours picks its SIMD at run time either way). Prints a Markdown table of
# Plonky3's median time / ours (> 1: ours is faster), wall clock and process CPU time; for the
# LDEs also ours in place (`lde_batch_in_place`, the input taken by value as Plonky3 takes
# its matrix: the like-for-like API).
#
# Shapes: NTTs 2^16 × 135 and 2^20 × 8, forward and inverse; coset LDEs (blowup 8, from
# evaluations) 2^20 × 8 and 2^20 × 135 → 2^23; index-major and polynomial-major; 1 and 2
# threads. The 2^20 × 135 LDE writes 9 GiB a side and needs about 14 GB of memory:
# ZKACCEL_COMPARE_LARGE=0 runs it at 2^18 instead. Rounds per shape: ZKACCEL_COMPARE_ROUNDS
# (default 9 for the NTTs; the LDEs take 7 and 3).
set -euo pipefail
cd "$(dirname "$0")/.."
RUSTFLAGS="${RUSTFLAGS:-} -C target-cpu=native" \
  cargo build --release --locked -p zkaccel-ntt --example lde_compare
bin=target/release/examples/lde_compare
rounds="${ZKACCEL_COMPARE_ROUNDS:-9}"
large_log=20
if [ "${ZKACCEL_COMPARE_LARGE:-1}" = 0 ]; then
  large_log=18
fi
echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, $(date -u +%F)"
echo
echo "| kind | shape | layout | threads | Plonky3 / ours, wall | CPU | LDE in place, wall | CPU |"
echo "|---|---|---|---|---|---|---|---|"
row() { # kind log_n columns rounds layout threads
  local out line
  out=$("$bin" "$2" "$4" "$6" "$3" "$5" "$1")
  line=$(grep 'ratio plonky3/zkaccel (medians)' <<<"$out")
  local wall cpu layout in_wall=— in_cpu=—
  wall=$(sed -E 's/.*medians\): wall ([0-9.]+), cpu ([0-9.]+).*/\1/' <<<"$line")
  cpu=$(sed -E 's/.*medians\): wall ([0-9.]+), cpu ([0-9.]+).*/\2/' <<<"$line")
  if [ "$1" = lde ]; then
    line=$(grep 'ratio plonky3/zkaccel in place' <<<"$out")
    in_wall=$(sed -E 's/.*medians\): wall ([0-9.]+), cpu ([0-9.]+).*/\1/' <<<"$line")
    in_cpu=$(sed -E 's/.*medians\): wall ([0-9.]+), cpu ([0-9.]+).*/\2/' <<<"$line")
  fi
  layout=$([ "$5" = 1 ] && echo polynomial-major || echo index-major)
  local shape="2^$2 × $3"
  [ "$1" = lde ] && shape="2^$2 × $3 → 2^$(($2 + 3))"
  echo "| $1 | $shape | $layout | $6 | $wall | $cpu | $in_wall | $in_cpu |"
}
for kind in forward inverse; do
  for shape in "16 135" "20 8"; do
    for layout in 0 1; do
      for threads in 1 2; do
        # shellcheck disable=SC2086 # the shape's two numbers
        row "$kind" $shape "$rounds" "$layout" "$threads"
      done
    done
  done
done
for shape in "20 8 7" "$large_log 135 3"; do
  set -- $shape
  for layout in 0 1; do
    for threads in 1 2; do
      row lde "$1" "$2" "$3" "$layout" "$threads"
    done
  done
done
