// Drives an NTT core's ports from a Verilator bench (ntt_core, or a top that contains one with
// the same port names): reset, configuration (modulus, P', twiddles), and runs of sub-tasks
// through its P lanes (sub-task q on lane q mod P), at full rate or with random input gaps and
// output back-pressure, optionally resetting the core part-way.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "bench_args.h"
#include "wide.h"

// The command line every core bench takes: <vectors.hex> <pipelines> [seed].
struct BenchArgs {
  const char* path = nullptr;
  int pipelines = 0;
  uint64_t seed = 1;
};

// Parses argv into `args`; prints the usage or the fault and returns false on a bad line.
inline bool parse_bench_args(int argc, char** argv, BenchArgs& args) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: %s <vectors.hex> <pipelines> [seed]\n", argv[0]);
    return false;
  }
  args.path = argv[1];
  char* end = nullptr;
  const long pipelines = std::strtol(argv[2], &end, 10);
  if (*argv[2] == '\0' || *end != '\0' || pipelines < 1 || pipelines > 32) {
    std::fprintf(stderr, "pipelines must be 1 to 32, not %s\n", argv[2]);
    return false;
  }
  args.pipelines = static_cast<int>(pipelines);
  return bench::parse_seed(argc, argv, 3, args.seed);
}

// Reads a vectors file: whitespace-separated decimal header fields, then hexadecimal words of
// a fixed width. Every read reports failure (end of file, a malformed or oversized token).
class VectorReader {
 public:
  explicit VectorReader(const char* path) : in_(path) {}

  bool header(int& value) { return static_cast<bool>(in_ >> value); }

  bool word(wide::Word& w, int words) {
    std::string token;
    return static_cast<bool>(in_ >> token) && wide::parse_hex(token, words, w);
  }

  bool words(std::vector<wide::Word>& ws, int words) {
    for (auto& w : ws)
      if (!word(w, words)) return false;
    return true;
  }

  // True when nothing but whitespace is left (a longer file is not the task it claims to be).
  bool at_end() {
    std::string token;
    return !(in_ >> token);
  }

 private:
  std::ifstream in_;
};

struct RunOutcome {
  bool complete = false;   // every output arrived (none extra, no stall)
  bool was_reset = false;  // the run was cut short by a reset
  uint64_t cycles = 0;     // first input accepted to last output taken
};

// A lane's beat carries one element (ntt_core: natural order in, bit-reversed order out, one
// at a time) or two (ntt_core_pipe: in, beat j of a sub-task of M points is (x_j, x_{j+M/2});
// out, beat k is outputs 2k and 2k + 1 of the bit-reversed order), low element first.
template <typename Dut>
class CoreDriver {
 public:
  CoreDriver(Dut& dut, int lanes, int words, uint64_t seed, int beat_elements = 1)
      : dut_(dut), lanes_(lanes), words_(words), beat_(beat_elements), rng_(seed) {}

  // Whether the built core has `lanes` lanes of `beat_elements` elements of `words` limbs
  // (its Pipelines and Width): a bench must not drive a core other than the one its task and
  // command line describe (more lanes than built would write past the packed input port).
  static bool matches(const Dut& dut, int lanes, int words, int beat_elements = 1) {
    const size_t width = wide::port_words(dut.cfg_modulus_i);
    const size_t lane_words = wide::port_words(dut.in_data_i);
    const size_t per_lane = width * static_cast<size_t>(beat_elements);
    if (width == static_cast<size_t>(words) && lane_words == per_lane * static_cast<size_t>(lanes))
      return true;
    std::fprintf(stderr,
                 "the core was built with %zu-bit elements and %zu pipeline(s); the task has "
                 "%d-bit elements and the command line %d pipeline(s)\n",
                 32 * width, per_lane == 0 ? 0 : lane_words / per_lane, 32 * words, lanes);
    return false;
  }

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

  void configure(const wide::Word& modulus, const wide::Word& modulus_inv,
                 const std::vector<wide::Word>& twiddles) {
    wide::set_wide(dut_.cfg_modulus_i, modulus);
    wide::set_wide(dut_.cfg_modulus_inv_i, modulus_inv);
    dut_.cfg_we_i = 1;
    tick();
    dut_.cfg_we_i = 0;
    for (size_t k = 0; k < twiddles.size(); ++k) {
      dut_.tw_addr_i = static_cast<uint32_t>(k);
      wide::set_wide(dut_.tw_data_i, twiddles[k]);
      dut_.tw_we_i = 1;
      tick();
    }
    dut_.tw_we_i = 0;
    dut_.eval();
  }

  // Runs inputs.size() / points sub-tasks; outputs[q·points + i] gets sub-task q's i-th output.
  // `stress`: random gaps and back-pressure; `reset_after` (cycles, 0 = never): reset then.
  RunOutcome run(const std::vector<wide::Word>& inputs, size_t points,
                 std::vector<wide::Word>& outputs, bool stress, uint64_t reset_after) {
    const size_t lanes = static_cast<size_t>(lanes_);
    const size_t beat = static_cast<size_t>(beat_);
    const size_t beats = points / beat;  // beats per sub-task
    const size_t subtasks = inputs.size() / points;
    outputs.assign(inputs.size(), wide::Word(words_, 0));
    std::vector<size_t> fed(lanes, 0), seen(lanes, 0), owed(lanes, 0);
    for (size_t q = 0; q < subtasks; ++q) owed[q % lanes] += beats;
    // Lane p's b-th beat belongs to sub-task p + P·(b / beats); element e of that beat is
    // index b mod beats (+ e·M/2) going in, and 2·(b mod beats) + e coming out.
    auto subtask = [&](size_t lane, size_t b) { return (lane + lanes * (b / beats)) * points; };
    auto in_element = [&](size_t lane, size_t b, size_t e) {
      return subtask(lane, b) + b % beats + e * (points / 2);
    };
    auto out_element = [&](size_t lane, size_t b, size_t e) {
      return subtask(lane, b) + beat * (b % beats) + e;
    };
    RunOutcome outcome;
    const uint64_t start = cycle_;
    uint64_t first_in = 0, last_out = 0, idle = 0;
    bool any_in = false;
    for (;;) {
      bool done = true;
      uint32_t in_valid = 0, out_ready = 0;
      for (size_t p = 0; p < lanes; ++p) {
        if (seen[p] < owed[p]) done = false;
        if (fed[p] < owed[p] && (!stress || rng_() % 4 != 0)) {
          in_valid |= 1u << p;
          for (size_t e = 0; e < beat; ++e)
            wide::set_wide(dut_.in_data_i, inputs[in_element(p, fed[p], e)],
                           (p * beat + e) * words_);
        }
        if (!stress || rng_() % 3 != 0) out_ready |= 1u << p;
      }
      if (done) break;
      dut_.in_valid_i = in_valid;
      dut_.out_ready_i = out_ready;
      dut_.eval();
      const uint32_t accepted = in_valid & dut_.in_ready_o;
      const uint32_t taken = dut_.out_valid_o & out_ready;
      for (size_t p = 0; p < lanes; ++p) {
        if (accepted >> p & 1) {
          if (!any_in) first_in = cycle_;
          any_in = true;
          ++fed[p];
        }
        if (taken >> p & 1) {
          if (seen[p] >= owed[p]) {
            std::fprintf(stderr, "FAIL: lane %zu: an output beyond the task's %zu\n", p, owed[p]);
            return outcome;
          }
          for (size_t e = 0; e < beat; ++e)
            outputs[out_element(p, seen[p], e)] =
                wide::get_wide(dut_.out_data_o, words_, (p * beat + e) * words_);
          ++seen[p];
          last_out = cycle_;
        }
      }
      tick();
      if (reset_after != 0 && cycle_ - start == reset_after) {
        reset();
        outcome.was_reset = true;
        return outcome;
      }
      idle = (accepted | taken) != 0 ? 0 : idle + 1;
      if (idle > 100000) {
        std::fprintf(stderr, "FAIL: no progress for %llu cycles\n",
                     static_cast<unsigned long long>(idle));
        return outcome;
      }
    }
    dut_.in_valid_i = 0;
    dut_.out_ready_i = 0;
    dut_.eval();
    outcome.complete = true;
    outcome.cycles = last_out - first_in + 1;
    return outcome;
  }

  std::mt19937_64& rng() { return rng_; }
  uint64_t cycle() const { return cycle_; }

 private:
  Dut& dut_;
  int lanes_;
  int words_;
  int beat_;
  std::mt19937_64 rng_;
  uint64_t cycle_ = 0;
};

// Compares got with want; prints the first few differences (sub-task, index) under `what`.
inline size_t count_mismatches(const std::vector<wide::Word>& got,
                               const std::vector<wide::Word>& want, size_t points,
                               const char* what) {
  size_t mismatches = 0;
  for (size_t e = 0; e < want.size() && e < got.size(); ++e) {
    if (got[e] != want[e] && ++mismatches <= 5) {
      std::fprintf(stderr, "MISMATCH %s: sub-task %zu index %zu\n  want %s\n  got  %s\n", what,
                   e / points, e % points, wide::to_hex(want[e]).c_str(),
                   wide::to_hex(got[e]).c_str());
    }
  }
  return mismatches + (got.size() != want.size() ? 1 : 0);
}
