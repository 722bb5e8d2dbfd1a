# Shell helpers the RTL benches' run.sh scripts share (source it; it defines functions and
# variables only).

# expect_refusal WHAT COMMAND...: runs COMMAND (at most 20 s) and requires exit status 2, the
# benches' "bad input"; otherwise prints a failure naming WHAT and sets the caller's `status`
# to 1.
expect_refusal() {
  local what="$1"; shift
  local rc=0
  timeout 20 "$@" >/dev/null 2>&1 || rc=$?
  if [[ "$rc" != 2 ]]; then
    echo "FAIL: the bench accepted $what (exit $rc, want 2)" >&2
    status=1
  fi
}

# Verilator's generated C++ built at -O1: its default, -Os, took a third longer to compile the
# wide datapaths (most of the RTL steps' time) and simulated no faster. Pass it to every
# `verilator --build`.
verilator_cxx_opt=(-MAKEFLAGS "OPT_FAST=-O1 OPT_GLOBAL=-O1")

# knob_choice NAME VALUE CHOICE...: exits 2 (bad input) unless VALUE is one of the CHOICEs. The
# run.sh scripts check their knobs with these first, before building anything.
knob_choice() {
  local name="$1" value="$2"
  shift 2
  local choice
  for choice in "$@"; do
    [[ "$value" == "$choice" ]] && return 0
  done
  echo "$name is one of: $*; not '$value'" >&2
  exit 2
}

# knob_count NAME VALUE MIN MAX: exits 2 (bad input) unless VALUE is a decimal integer (at most
# nine digits) from MIN to MAX.
knob_count() {
  local name="$1" value="$2" min="$3" max="$4"
  if [[ ! "$value" =~ ^[0-9]{1,9}$ ]] || ((10#$value < min || 10#$value > max)); then
    echo "$name is an integer from $min to $max, not '$value'" >&2
    exit 2
  fi
}

# Simulations run side by side, one per core (a Verilator model runs on one thread; the builds
# already use both cores with `-j 2`): `sim_start OUT COMMAND...` starts COMMAND in the
# background once fewer than SIM_JOBS (default: the cores) are running, its output in OUT and
# its exit status in OUT.rc; `wait` then waits for all of them and `sim_result OUT` prints the
# output and returns the status.
sim_jobs="${SIM_JOBS:-$(nproc)}"
knob_count SIM_JOBS "$sim_jobs" 1 256
sim_start() {
  local out="$1"
  shift
  while (($(jobs -rp | wc -l) >= sim_jobs)); do wait -n || true; done
  rm -f "$out.rc"
  (
    rc=0
    "$@" >"$out" 2>&1 || rc=$?
    echo "$rc" >"$out.rc"
  ) &
}
sim_result() {
  local out="$1" rc
  cat "$out"
  rc=$(cat "$out.rc" 2>/dev/null || echo 1)
  return "$rc"
}
