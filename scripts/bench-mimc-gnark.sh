#!/usr/bin/env bash
# One MiMC hash's latency against gnark-crypto's (BN254 Fr, x^5, 110 rounds: the `gnark`
# preset), and the bound on this CPU: a dependent chain of one-element Miyaguchi–Preneel
# hashes on each side (`mimc_chain gnark` here, `peers/go/gnark-mimc` there), in alternating
# runs so that both see the same load, on thread CPU time. Both chains must end on the same
# value (else the script fails). Needs Go (gnark-crypto is fetched by the Go toolchain from
# its module proxy, pinned by go.sum). Usage: scripts/bench-mimc-gnark.sh [RUNS] [HASHES].
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
hashes="${2:-2000}"
target="${CARGO_TARGET_DIR:-$PWD/target}"
mkdir -p "$target/go"
(cd peers/go/gnark-mimc && go build -mod=readonly -o "$target/go/gnark-mimc" .)
cargo build --release --locked -q -p zkaccel-mimc --example mimc_chain
ours="$target/release/examples/mimc_chain"
theirs="$target/go/gnark-mimc"

field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p"; }
ours_medians=()
theirs_medians=()
for ((i = 0; i < runs; i++)); do
  o="$("$ours" gnark 5 "$hashes" | tail -1)"
  t="$("$theirs" 5 "$hashes" | tail -1)"
  if [[ "$(field last <<<"$o")" != "$(field last <<<"$t")" ]]; then
    echo "the chains disagree: $o / $t" >&2
    exit 1
  fi
  ours_medians+=("$(field median_us <<<"$o")")
  theirs_medians+=("$(field median_us <<<"$t")")
  bound="$(field bound_us <<<"$o")"
  echo "run $((i + 1)): zkaccel $(field median_us <<<"$o") µs, gnark-crypto $(field median_us <<<"$t") µs, bound $bound µs"
done
python3 - "${ours_medians[*]}" "${theirs_medians[*]}" <<'PY'
import statistics, sys
ours = [float(x) for x in sys.argv[1].split()]
theirs = [float(x) for x in sys.argv[2].split()]
o, t = statistics.median(ours), statistics.median(theirs)
print(f"median of runs: zkaccel {o:.2f} µs, gnark-crypto {t:.2f} µs, ratio zkaccel / gnark-crypto {o / t:.3f}")
PY
