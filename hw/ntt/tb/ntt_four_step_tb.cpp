// Self-checking Verilator bench for ntt_four_step: a 2^(2m)-point NTT through the core in the
// FPGA NTT paper's √N×√N plan, against zkaccel-ntt (`zkaccel hw ntt-four-step-vectors`). The
// bench plays the host: it gathers the columns (sub-task n2: x[M·n1 + n2] over n1), runs them
// through the core, streams every output with its twiddle ω_N^(n2·k1) through the scaler,
// gathers the rows (sub-task t: the scaled outputs t of every n2) for the second pass, and
// places output u of sub-task t at X[rev(t) + M·rev(u)]. The first pass runs with random gaps
// and back-pressure, the second at full rate. Prints the cycles of each part; exits non-zero
// on any mismatch.
//
// Usage: Vntt_four_step <ntt_four_step.hex> <pipelines> [seed]
#include <cstdint>
#include <cstdio>
#include <vector>

#include "Vntt_four_step.h"
#include "core_driver.h"
#include "verilated.h"
#include "wide.h"

namespace {

using wide::Word;

struct FourStepTask {
  int width = 0, log_n = 0, log_points = 0;
  Word modulus, modulus_inv;
  std::vector<Word> twiddles, scales, input, output;
};

bool read_task(const char* path, FourStepTask& t) {
  VectorReader in(path);
  if (!in.header(t.width) || !in.header(t.log_n) || !in.header(t.log_points)) return false;
  if (t.width <= 0 || t.width % 32 != 0 || t.width > 1024 || t.log_points < 2 ||
      t.log_n != 2 * t.log_points || t.log_n > 20)
    return false;
  const int words = t.width / 32;
  const size_t n = size_t{1} << t.log_n;
  t.twiddles.resize((size_t{1} << t.log_points) / 2);
  t.scales.resize(n);
  t.input.resize(n);
  t.output.resize(n);
  return in.word(t.modulus, words) && in.word(t.modulus_inv, words) &&
         in.words(t.twiddles, words) && in.words(t.scales, words) && in.words(t.input, words) &&
         in.words(t.output, words) && in.at_end();
}

size_t reverse_bits(size_t i, int bits) {
  size_t r = 0;
  for (int b = 0; b < bits; ++b) r |= ((i >> b) & 1) << (bits - 1 - b);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  BenchArgs args;
  if (!parse_bench_args(argc, argv, args)) return 2;
  FourStepTask task;
  if (!read_task(args.path, task)) {
    std::fprintf(stderr, "cannot read the task in %s\n", args.path);
    return 2;
  }
  const int pipelines = args.pipelines;
  const int words = task.width / 32;
  const size_t m = size_t{1} << task.log_points;
  const size_t n = m * m;

  Verilated::commandArgs(argc, argv);
  Vntt_four_step dut;
  if (!CoreDriver<Vntt_four_step>::matches(dut, pipelines, words)) return 2;
  CoreDriver<Vntt_four_step> core(dut, pipelines, words, args.seed);
  dut.scale_in_valid_i = 0;
  dut.scale_out_ready_i = 0;
  core.reset();
  core.configure(task.modulus, task.modulus_inv, task.twiddles);

  // Pass 1: sub-task n2 is the column x[M·n1 + n2], n1 = 0 … M − 1.
  std::vector<Word> columns(n), first;
  for (size_t n2 = 0; n2 < m; ++n2)
    for (size_t n1 = 0; n1 < m; ++n1) columns[n2 * m + n1] = task.input[m * n1 + n2];
  const RunOutcome pass1 = core.run(columns, m, first, true, 0);
  if (!pass1.complete) return 1;

  // Twiddles between the passes, through the scaler, one product at a time, in order.
  std::vector<Word> scaled(n);
  const uint64_t scale_start = core.cycle();
  size_t fed = 0, taken = 0;
  uint64_t idle = 0;
  while (taken < n) {
    dut.scale_in_valid_i = fed < n;
    if (fed < n) {
      wide::set_wide(dut.scale_value_i, first[fed]);
      wide::set_wide(dut.scale_twiddle_i, task.scales[fed]);
    }
    dut.scale_out_ready_i = 1;
    dut.eval();
    const bool accepted = fed < n && dut.scale_in_ready_o;
    const bool out = dut.scale_out_valid_o;
    if (out) scaled[taken++] = wide::get_wide(dut.scale_out_o, words);
    if (accepted) ++fed;
    core.tick();
    idle = (accepted || out) ? 0 : idle + 1;
    if (idle > 1000) {
      std::fprintf(stderr, "FAIL: the scaler stalled\n");
      return 1;
    }
  }
  dut.scale_in_valid_i = 0;
  dut.scale_out_ready_i = 0;
  const uint64_t scale_cycles = core.cycle() - scale_start;

  // Pass 2: sub-task t gathers output t of every first-pass sub-task.
  std::vector<Word> rows(n), second;
  for (size_t t = 0; t < m; ++t)
    for (size_t n2 = 0; n2 < m; ++n2) rows[t * m + n2] = scaled[n2 * m + t];
  const RunOutcome pass2 = core.run(rows, m, second, false, 0);
  if (!pass2.complete) return 1;

  std::vector<Word> result(n);
  for (size_t t = 0; t < m; ++t)
    for (size_t u = 0; u < m; ++u)
      result[reverse_bits(t, task.log_points) + m * reverse_bits(u, task.log_points)] =
          second[t * m + u];
  if (count_mismatches(result, task.output, n, "four-step") != 0) {
    std::fprintf(stderr, "FAIL: the 2^%d-point transform differs from zkaccel-ntt's\n",
                 task.log_n);
    return 1;
  }
  std::printf("ntt_four_step W=%d 2^%d points as %zu x %zu on %d pipeline(s): equal to "
              "zkaccel-ntt; RESULT pass1_stress_cycles=%llu scale_cycles=%llu pass2_cycles=%llu\n",
              task.width, task.log_n, m, m, pipelines,
              static_cast<unsigned long long>(pass1.cycles),
              static_cast<unsigned long long>(scale_cycles),
              static_cast<unsigned long long>(pass2.cycles));
  return 0;
}
