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
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "Vntt_core.h"
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
  std::ifstream in(path);
  if (!(in >> t.width >> t.log_points >> t.subtasks)) return false;
  if (t.width % 32 != 0 || t.log_points < 2 || t.log_points > 12 || t.subtasks < 1) return false;
  const int words = t.width / 32;
  auto next = [&](Word& w) {
    std::string s;
    if (!(in >> s)) return false;
    w = wide::parse_hex(s, words);
    return true;
  };
  const size_t points = size_t{1} << t.log_points;
  const size_t total = points * static_cast<size_t>(t.subtasks);
  t.twiddles.resize(points / 2);
  t.inputs.resize(total);
  t.outputs.resize(total);
  if (!next(t.modulus) || !next(t.modulus_inv)) return false;
  for (auto& w : t.twiddles)
    if (!next(w)) return false;
  for (auto& w : t.inputs)
    if (!next(w)) return false;
  for (auto& w : t.outputs)
    if (!next(w)) return false;
  return true;
}

class Bench {
 public:
  Bench(const Task& task, int pipelines, uint64_t seed)
      : t_(task), lanes_(pipelines), words_(task.width / 32), rng_(seed) {}

  void tick() {
    dut_.clk_i = 0;
    dut_.eval();
    dut_.clk_i = 1;
    dut_.eval();
    ++cycle_;
  }

  void reset() {
    dut_.rst_ni = 0;
    dut_.cfg_we_i = 0;
    dut_.tw_we_i = 0;
    dut_.in_valid_i = 0;
    dut_.out_ready_i = 0;
    tick();
    tick();
    dut_.rst_ni = 1;
    dut_.eval();
  }

  void configure() {
    wide::set_wide(dut_.cfg_modulus_i, t_.modulus);
    wide::set_wide(dut_.cfg_modulus_inv_i, t_.modulus_inv);
    dut_.cfg_we_i = 1;
    tick();
    dut_.cfg_we_i = 0;
    for (size_t k = 0; k < t_.twiddles.size(); ++k) {
      dut_.tw_addr_i = static_cast<uint32_t>(k);
      wide::set_wide(dut_.tw_data_i, t_.twiddles[k]);
      dut_.tw_we_i = 1;
      tick();
    }
    dut_.tw_we_i = 0;
    dut_.eval();
  }

  // Runs the whole task once. `stress`: random input gaps and output back-pressure;
  // `reset_after`: reset the core after that many cycles and return false (the task is lost).
  // Returns true when every output arrived and matched; `cycles` gets the cycles from the
  // first input accepted to the last output taken.
  bool run(bool stress, uint64_t reset_after, uint64_t& cycles, bool& was_reset) {
    const size_t points = size_t{1} << t_.log_points;
    std::vector<size_t> fed(lanes_, 0), seen(lanes_, 0), owed(lanes_, 0);
    // Lane p carries sub-tasks p, p + P, …: its elements, in order.
    auto element = [&](int lane, size_t i) {
      return (static_cast<size_t>(lane) + static_cast<size_t>(lanes_) * (i / points)) * points +
             i % points;
    };
    for (int p = 0; p < lanes_; ++p) {
      for (size_t q = static_cast<size_t>(p); q < static_cast<size_t>(t_.subtasks); q += lanes_)
        owed[p] += points;
    }
    const uint64_t start = cycle_;
    uint64_t first_in = 0, last_out = 0, idle = 0;
    bool any_in = false;
    was_reset = false;
    for (;;) {
      bool done = true;
      uint32_t in_valid = 0, out_ready = 0;
      for (int p = 0; p < lanes_; ++p) {
        if (seen[p] < owed[p]) done = false;
        if (fed[p] < owed[p] && (!stress || rng_() % 4 != 0)) {
          in_valid |= 1u << p;
          wide::set_wide(dut_.in_data_i, t_.inputs[element(p, fed[p])],
                         static_cast<size_t>(p) * words_);
        }
        if (!stress || rng_() % 3 != 0) out_ready |= 1u << p;
      }
      if (done) break;
      dut_.in_valid_i = in_valid;
      dut_.out_ready_i = out_ready;
      dut_.eval();
      const uint32_t accepted = in_valid & dut_.in_ready_o;
      const uint32_t taken = dut_.out_valid_o & out_ready;
      bool progress = accepted != 0 || taken != 0;
      for (int p = 0; p < lanes_; ++p) {
        if (accepted >> p & 1) {
          if (!any_in) first_in = cycle_;
          any_in = true;
          ++fed[p];
        }
        if (taken >> p & 1) {
          if (seen[p] >= owed[p]) {
            std::fprintf(stderr, "FAIL: lane %d: an output beyond the task's %zu\n", p, owed[p]);
            return false;
          }
          const size_t e = element(p, seen[p]);
          const Word got = wide::get_wide(dut_.out_data_o, words_, static_cast<size_t>(p) * words_);
          if (got != t_.outputs[e]) {
            if (++mismatches_ <= 5) {
              std::fprintf(stderr, "MISMATCH sub-task %zu index %zu (lane %d)\n  want %s\n  got  %s\n",
                           e / points, e % points, p, wide::to_hex(t_.outputs[e]).c_str(),
                           wide::to_hex(got).c_str());
            }
          }
          ++seen[p];
          last_out = cycle_;
        }
      }
      tick();
      if (reset_after != 0 && cycle_ - start == reset_after) {
        reset();
        was_reset = true;
        return false;
      }
      idle = progress ? 0 : idle + 1;
      if (idle > 100000) {
        std::fprintf(stderr, "FAIL: no progress for %llu cycles\n",
                     static_cast<unsigned long long>(idle));
        return false;
      }
    }
    dut_.in_valid_i = 0;
    dut_.out_ready_i = 0;
    dut_.eval();
    cycles = last_out - first_in + 1;
    return mismatches_ == 0;
  }

  size_t mismatches() const { return mismatches_; }
  std::mt19937_64& rng() { return rng_; }

 private:
  const Task& t_;
  int lanes_;
  int words_;
  std::mt19937_64 rng_;
  Vntt_core dut_;
  uint64_t cycle_ = 0;
  size_t mismatches_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <ntt_vectors.hex> <pipelines> [seed]\n", argv[0]);
    return 2;
  }
  Task task;
  if (!read_task(argv[1], task)) {
    std::fprintf(stderr, "cannot read the task in %s\n", argv[1]);
    return 2;
  }
  const int pipelines = std::atoi(argv[2]);
  if (pipelines < 1 || pipelines > 32) {
    std::fprintf(stderr, "pipelines must be 1 to 32\n");
    return 2;
  }
  Verilated::commandArgs(argc, argv);
  Bench bench(task, pipelines, argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1);
  bench.reset();
  bench.configure();

  uint64_t cycles = 0, stress_cycles = 0;
  bool was_reset = false;
  // 1. Full rate.
  if (!bench.run(false, 0, cycles, was_reset)) {
    std::fprintf(stderr, "FAIL: full-rate run (%zu mismatches)\n", bench.mismatches());
    return 1;
  }
  // 2. Gaps and back-pressure, a reset part-way, then the whole task again.
  const uint64_t reset_at = cycles / 3 + bench.rng()() % (cycles / 3 + 1);
  bench.run(true, reset_at, stress_cycles, was_reset);
  if (!was_reset || bench.mismatches() != 0) {
    std::fprintf(stderr, "FAIL: the stress run before the reset (%zu mismatches)\n",
                 bench.mismatches());
    return 1;
  }
  if (!bench.run(true, 0, stress_cycles, was_reset)) {
    std::fprintf(stderr, "FAIL: stress run after reset (%zu mismatches)\n", bench.mismatches());
    return 1;
  }
  std::printf("ntt_core W=%d 2^%d-point sub-tasks x %d on %d pipeline(s): full rate, gaps and "
              "back-pressure, reset mid-flight: no mismatch; RESULT cycles=%llu stress_cycles=%llu\n",
              task.width, task.log_points, task.subtasks, pipelines,
              static_cast<unsigned long long>(cycles),
              static_cast<unsigned long long>(stress_cycles));
  return 0;
}
