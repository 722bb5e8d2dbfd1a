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
# ZKACCEL_COMPARE_LARGE=0 runs it at 2^18 instead, ZKACCEL_COMPARE_LARGE=skip not at all;
# ZKACCEL_COMPARE_NTTS=0 skips the NTT rows. ZKACCEL_COMPARE_PEER=dit-parallel compares
# against Plonky3's `Radix2DitParallel` instead (its outputs left bit-reversed, as it returns
# them). Rounds per shape: ZKACCEL_COMPARE_ROUNDS
# (default 9 for the NTTs; the LDEs take 7 and 3).
#
# ZKACCEL_COMPARE_BUILDS=split is the issue's harder test: ours built plainly (no
# `target-cpu`; it picks AVX2/AVX-512 at run time), Plonky3 built with `-C target-cpu=native`.
# One process cannot hold both builds, so each side runs alone in its own process (after an
# untimed warm-up round, except at 2^20 × 135), the two alternating ZKACCEL_COMPARE_TURNS times (default 3; who goes
# first alternates too); each figure is the median of the processes' medians. Rounds per
# process: 3 (NTTs and the 2^20 × 8 LDE), 1 (the 2^20 × 135 LDE).
set -euo pipefail
cd "$(dirname "$0")/.."
builds="${ZKACCEL_COMPARE_BUILDS:-native}"
case "$builds" in
  native | split) ;;
  *) echo "ZKACCEL_COMPARE_BUILDS is native or split, not $builds" >&2; exit 2 ;;
esac
native_target="${CARGO_TARGET_DIR:-$PWD/target}/native"
RUSTFLAGS="${RUSTFLAGS:-} -C target-cpu=native" CARGO_TARGET_DIR="$native_target" \
  cargo build --release --locked -p zkaccel-ntt --example lde_compare
bin="$native_target/release/examples/lde_compare"
if [ "$builds" = split ]; then
  cargo build --release --locked -p zkaccel-ntt --example lde_compare
  plain_bin="${CARGO_TARGET_DIR:-$PWD/target}/release/examples/lde_compare"
fi
rounds="${ZKACCEL_COMPARE_ROUNDS:-9}"
turns="${ZKACCEL_COMPARE_TURNS:-3}"
large_log=20
if [ "${ZKACCEL_COMPARE_LARGE:-1}" = 0 ]; then
  large_log=18
fi
echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, $(date -u +%F)"
echo "Plonky3 DFT: ${ZKACCEL_COMPARE_PEER:-small-batch}"
if [ "$builds" = split ]; then
  echo "ours built plainly (SIMD chosen at run time), Plonky3 with -C target-cpu=native; alternating processes"
else
  echo "both built with -C target-cpu=native, alternating in one process"
fi
echo
echo "| kind | shape | layout | threads | Plonky3 / ours, wall | CPU | LDE in place, wall | CPU |"
echo "|---|---|---|---|---|---|---|---|"
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "—" }'; }
# The wall and CPU medians of the report line of `name` in a one-side run's output.
medians_of() { # name output
  grep -E "^  $1 +wall" <<<"$2" |
    sed -E 's/.*wall best +[0-9.]+ median +([0-9.]+) ms \| cpu best +[0-9.]+ median +([0-9.]+) ms.*/\1 \2/'
}
# A row of the split builds: each side alone in its own process, alternating.
split_row() { # kind log_n columns rounds layout threads
  local t out first second ours_w="" ours_c="" in_w="" in_c="" p3_w="" p3_c="" m
  local per=3
  [ "$3" = 135 ] && per=1
  for t in $(seq "$turns"); do
    first=ours second=plonky3
    [ $((t % 2)) = 0 ] && first=plonky3 second=ours
    for who in "$first" "$second"; do
      if [ "$who" = ours ]; then
        out=$(ZKACCEL_COMPARE_SIDE=ours "$plain_bin" "$2" "$per" "$6" "$3" "$5" "$1")
        read -r w c <<<"$(medians_of zkaccel "$out")"
        ours_w+="$w"$'\n' ours_c+="$c"$'\n'
        if [ "$1" = lde ]; then
          read -r w c <<<"$(medians_of "zkaccel, in place" "$out")"
          in_w+="$w"$'\n' in_c+="$c"$'\n'
        fi
      else
        out=$(ZKACCEL_COMPARE_SIDE=plonky3 "$bin" "$2" "$per" "$6" "$3" "$5" "$1")
        read -r w c <<<"$(medians_of plonky3 "$out")"
        p3_w+="$w"$'\n' p3_c+="$c"$'\n'
      fi
    done
  done
  local pw pc wall cpu in_wall=— in_cpu=— layout
  pw=$(printf '%s' "$p3_w" | median) pc=$(printf '%s' "$p3_c" | median)
  wall=$(ratio "$pw" "$(printf '%s' "$ours_w" | median)")
  cpu=$(ratio "$pc" "$(printf '%s' "$ours_c" | median)")
  if [ "$1" = lde ]; then
    in_wall=$(ratio "$pw" "$(printf '%s' "$in_w" | median)")
    in_cpu=$(ratio "$pc" "$(printf '%s' "$in_c" | median)")
  fi
  layout=$([ "$5" = 1 ] && echo polynomial-major || echo index-major)
  local shape="2^$2 × $3"
  [ "$1" = lde ] && shape="2^$2 × $3 → 2^$(($2 + 3))"
  echo "| $1 | $shape | $layout | $6 | $wall | $cpu | $in_wall | $in_cpu |"
}
row() { # kind log_n columns rounds layout threads
  if [ "$builds" = split ]; then
    split_row "$@"
    return
  fi
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
ntt_kinds="forward inverse"
[ "${ZKACCEL_COMPARE_NTTS:-1}" = 0 ] && ntt_kinds=""
for kind in $ntt_kinds; do
  for shape in "16 135" "20 8"; do
    for layout in 0 1; do
      for threads in 1 2; do
        # shellcheck disable=SC2086 # the shape's two numbers
        row "$kind" $shape "$rounds" "$layout" "$threads"
      done
    done
  done
done
lde_shapes=("20 8 7" "$large_log 135 3")
[ "${ZKACCEL_COMPARE_LARGE:-1}" = skip ] && lde_shapes=("20 8 7")
for shape in "${lde_shapes[@]}"; do
  set -- $shape
  for layout in 0 1; do
    for threads in 1 2; do
      row lde "$1" "$2" "$3" "$layout" "$threads"
    done
  done
done
