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
