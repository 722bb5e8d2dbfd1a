// Self-checking Verilator bench for ntt_core (the FPGA NTT paper's NTT core): reads the golden
// model's ntt_vectors_<field>_<m>.hex (`zkaccel hw ntt-vectors`: modulus, P', twiddles,
// sub-task inputs and their transforms from zkaccel-ntt, Montgomery form), configures the
// core, and runs the sub-tasks through it, sub-task q on lane q mod P:
//
//   1. at full rate (every lane always valid, outputs always taken), measuring the core's
//      cycles from the first input accepted to the last output taken (Table III's latency);
//   2. with random gaps on every input lane and random back-pressure on every output lane,
//      resetting the core once in the middle and then running the whole task again (the
//      configuration registers keep their values through reset).
//
// Every output is compared with the golden model's. Exits non-zero on any mismatch, on a
// missing or extra output, or when the core stops making progress.
//
// Usage: Vntt_core <ntt_vectors.hex> <pipelines> [seed]
#include <cstdint>
#include <cstdio>
#include <vector>

// Built with -DNTT_CORE_PIPE, the bench drives ntt_core_pipe (two elements a beat).
#ifdef NTT_CORE_PIPE
#include "Vntt_core_pipe.h"
using Core = Vntt_core_pipe;
constexpr int kBeatElements = 2;
constexpr const char* kCoreName = "ntt_core_pipe";
#else
#include "Vntt_core.h"
using Core = Vntt_core;
constexpr int kBeatElements = 1;
constexpr const char* kCoreName = "ntt_core";
#endif
#include "core_driver.h"
#include "verilated.h"
#include "wide.h"

namespace {

using wide::Word;

struct Task {
  int width = 0, log_points = 0, subtasks = 0;
  Word modulus, modulus_inv;
  std::vector<Word> twiddles, inputs, outputs;
};

bool read_task(const char* path, Task& t) {
  VectorReader in(path);
  if (!in.header(t.width) || !in.header(t.log_points) || !in.header(t.subtasks)) return false;
  if (t.width <= 0 || t.width % 32 != 0 || t.width > 1024 || t.log_points < 2 ||
      t.log_points > 12 || t.subtasks < 1 || t.subtasks > 4096)
    return false;
  const int words = t.width / 32;
  const size_t points = size_t{1} << t.log_points;
  const size_t total = points * static_cast<size_t>(t.subtasks);
  t.twiddles.resize(points / 2);
  t.inputs.resize(total);
  t.outputs.resize(total);
  return in.word(t.modulus, words) && in.word(t.modulus_inv, words) &&
         in.words(t.twiddles, words) && in.words(t.inputs, words) &&
         in.words(t.outputs, words) && in.at_end();
}

}  // namespace

int main(int argc, char** argv) {
  BenchArgs args;
  if (!parse_bench_args(argc, argv, args)) return 2;
  Task task;
  if (!read_task(args.path, task)) {
    std::fprintf(stderr, "cannot read the task in %s\n", args.path);
    return 2;
  }
  const int pipelines = args.pipelines;
  Verilated::commandArgs(argc, argv);
  Core dut;
  if (!CoreDriver<Core>::matches(dut, pipelines, task.width / 32, kBeatElements)) return 2;
  CoreDriver<Core> core(dut, pipelines, task.width / 32, args.seed, kBeatElements);
  const size_t points = size_t{1} << task.log_points;
  core.reset();
  core.configure(task.modulus, task.modulus_inv, task.twiddles);

  std::vector<Word> got;
  // 1. Full rate.
  const RunOutcome full = core.run(task.inputs, points, got, false, 0);
  if (!full.complete || count_mismatches(got, task.outputs, points, "full rate") != 0) {
    std::fprintf(stderr, "FAIL: full-rate run\n");
    return 1;
  }
  // 2. Gaps and back-pressure, a reset part-way, then the whole task again.
  const uint64_t reset_at = full.cycles / 3 + core.rng()() % (full.cycles / 3 + 1);
  if (!core.run(task.inputs, points, got, true, reset_at).was_reset) {
    std::fprintf(stderr, "FAIL: the stress run ended before its reset\n");
    return 1;
  }
  const RunOutcome stress = core.run(task.inputs, points, got, true, 0);
  if (!stress.complete || count_mismatches(got, task.outputs, points, "stress") != 0) {
    std::fprintf(stderr, "FAIL: stress run after the reset\n");
    return 1;
  }
  std::printf("%s W=%d 2^%d-point sub-tasks x %d on %d pipeline(s): full rate, gaps and "
              "back-pressure, reset mid-flight: no mismatch; RESULT cycles=%llu stress_cycles=%llu\n",
              kCoreName, task.width, task.log_points, task.subtasks, pipelines,
              static_cast<unsigned long long>(full.cycles),
              static_cast<unsigned long long>(stress.cycles));
  return 0;
}
