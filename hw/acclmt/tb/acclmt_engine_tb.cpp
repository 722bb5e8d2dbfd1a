// Self-checking Verilator bench for acclmt_engine (AcclMT's Poseidon engine, state widths
// 2 … ACCLMT_MAX_WIDTH): reads acclmt_vectors (`zkaccel hw acclmt-vectors`: the instance's
// modulus, P', Montgomery one, then its configuration words — the uniform rounds' constants
// and the beats' blocks, as `address word` — then input states and zkaccel-poseidon's
// permutations, Montgomery form), configures the engine, and streams the states through it:
//
//   0. a state width the engine does not take (t = ACCLMT_MAX_WIDTH + 1): cfg_error_o must
//      rise and in_ready_o stay low;
//   1. all of them at full rate (a state offered every cycle, every result taken at once,
//      in_last on the final state): every output must equal the golden model's, in order; the
//      steady-state cycles per hash are measured between the ends of the first and the last
//      whole pair of batches (RESULT cycles_per_hash=…), beside the whole run's cycles;
//   2. the first 256 again with random gaps in the input, random back-pressure on the output,
//      in_last at random places and in_close while no state is offered (partial batches,
//      pairs with an empty second batch);
//   3. a stream reset part-way, then streamed again from its start (the configuration
//      registers keep their values).
//
// Exits 1 on any mismatch, missing or extra result or stall; 2 on a bad command line or
// vectors file, or an instance the built engine does not take (width, state width, rounds).
//
// Usage: Vacclmt_engine <acclmt_vectors.hex> [seed]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "Vacclmt_engine.h"
#include "acclmt_config.h"
#include "verilated.h"
#include "wide.h"

#ifndef ACCLMT_BATCH
#error "build with -DACCLMT_BATCH=<the engine's Batch parameter>"
#endif
#ifndef ACCLMT_MAX_ROUNDS
#error "build with -DACCLMT_MAX_ROUNDS=<the engine's MaxRounds parameter>"
#endif
#ifndef ACCLMT_MAX_WIDTH
#error "build with -DACCLMT_MAX_WIDTH=<the engine's MaxWidth parameter>"
#endif

namespace {

using acclmt::kWords;
using acclmt::parse_decimal;
using wide::Word;

constexpr size_t kMaxCount = 1000000;
constexpr size_t kStressCount = 256;

struct Instance {
  acclmt::EngineConfig config;
  std::vector<std::vector<Word>> inputs, outputs;  // per permutation, t words
};

// Reads and validates the vectors file; false (with a message) on anything malformed.
bool read_instance(const char* path, Instance& inst) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path);
    return false;
  }
  std::string tok[6];
  unsigned long long head[6];
  const unsigned long long max[6] = {4096, 64, 7, 64, 255, kMaxCount};
  for (int i = 0; i < 6; ++i) {
    if (!(in >> tok[i]) || !parse_decimal(tok[i], max[i], head[i])) {
      std::fprintf(stderr, "%s: bad header field %d\n", path, i + 1);
      return false;
    }
  }
  acclmt::EngineConfig& c = inst.config;
  c.lanes = static_cast<int>(head[1]);
  c.alpha = static_cast<int>(head[2]);
  c.full_rounds = static_cast<int>(head[3]);
  c.partial_rounds = static_cast<int>(head[4]);
  const unsigned long long count = head[5];
  if (!acclmt::check_instance(path, c, head[0], ACCLMT_MAX_WIDTH, ACCLMT_MAX_ROUNDS)) {
    return false;
  }
  if (count == 0) {
    std::fprintf(stderr, "%s: no permutations\n", path);
    return false;
  }
  if (!acclmt::read_config_words(in, path, c)) return false;
  const size_t t = static_cast<size_t>(c.lanes);
  inst.inputs.assign(count, std::vector<Word>(t));
  inst.outputs.assign(count, std::vector<Word>(t));
  for (size_t i = 0; i < count; ++i) {
    for (Word& w : inst.inputs[i]) {
      if (!acclmt::read_word(in, path, w)) return false;
    }
    for (Word& w : inst.outputs[i]) {
      if (!acclmt::read_word(in, path, w)) return false;
    }
  }
  std::string extra;
  if (in >> extra) {
    std::fprintf(stderr, "%s: trailing data after %llu permutations\n", path, count);
    return false;
  }
  return true;
}

struct Outcome {
  bool complete = false;
  bool was_reset = false;
  size_t mismatches = 0;
  uint64_t cycles = 0;              // first acceptance to last result, inclusive
  std::vector<uint64_t> out_cycle;  // each result's cycle, from the first acceptance
};

class Driver {
 public:
  Driver(Vacclmt_engine& dut, uint64_t seed) : dut_(dut), rng_(seed) {}

  void tick() {
    dut_.clk_i = 0;
    dut_.eval();
    dut_.clk_i = 1;
    dut_.eval();
    ++cycle_;
  }

  void reset() {
    dut_.rst_ni = 0;
    dut_.in_valid_i = 0;
    dut_.in_close_i = 0;
    dut_.cfg_we_i = 0;
    dut_.out_ready_i = 0;
    tick();
    tick();
    dut_.rst_ni = 1;
    dut_.eval();
  }

  void write(unsigned addr, const Word& w) {
    dut_.cfg_we_i = 1;
    dut_.cfg_addr_i = static_cast<uint16_t>(addr);
    wide::set_wide(dut_.cfg_data_i, w);
    tick();
    dut_.cfg_we_i = 0;
  }

  void configure(const Instance& inst) {
    acclmt::write_config(inst.config, [this](unsigned addr, const Word& w) { write(addr, w); });
    tick();  // the multipliers take the modulus
  }

  // A state width past the engine's: refused (cfg_error_o), no state taken.
  bool refuses_wide(const Instance& inst) {
    write(3, inst.config.params(ACCLMT_MAX_WIDTH + 1));
    dut_.in_valid_i = 1;
    dut_.eval();
    const bool refused = dut_.cfg_error_o && !dut_.in_ready_o;
    dut_.in_valid_i = 0;
    write(3, inst.config.params(inst.config.lanes));
    dut_.eval();
    return refused && !dut_.cfg_error_o;
  }

  // Streams permutations [begin, end); stress adds input gaps, output back-pressure and
  // random in_last; reset_after (cycles, 0 = never) resets the engine then.
  Outcome stream(const Instance& inst, size_t begin, size_t end, bool stress,
                 uint64_t reset_after) {
    Outcome out;
    size_t fed = begin, got = begin;
    const uint64_t start = cycle_;
    uint64_t first_in = 0, idle = 0;
    while (got < end) {
      const bool offer = fed < end && (!stress || rng_() % 4 != 0);
      dut_.in_valid_i = offer;
      dut_.in_last_i = offer && (fed + 1 == end || (stress && rng_() % 40 == 0));
      // in_close_i at random while nothing is offered (part-filled and empty batches).
      dut_.in_close_i = !offer && stress && rng_() % 8 == 0;
      if (offer) {
        for (int l = 0; l < inst.config.lanes; ++l) {
          wide::set_wide(dut_.in_state_i, inst.inputs[fed][l], static_cast<size_t>(l) * kWords);
        }
      } else {
        for (size_t k = 0; k < wide::port_words(dut_.in_state_i); ++k) {
          dut_.in_state_i[k] = static_cast<uint32_t>(rng_());
        }
      }
      const bool ready = !stress || rng_() % 3 != 0;
      dut_.out_ready_i = ready;
      dut_.eval();
      const bool accepted = offer && dut_.in_ready_o;
      const bool taken = dut_.out_valid_o && ready;
      if (taken) {
        if (got >= end || fed == begin) {
          std::fprintf(stderr, "FAIL: a result beyond the states offered\n");
          return out;
        }
        bool same = true;
        for (int l = 0; l < inst.config.lanes; ++l) {
          const Word w = wide::get_wide(dut_.out_state_o, kWords, static_cast<size_t>(l) * kWords);
          same = same && w == inst.outputs[got][l];
        }
        if (!same && ++out.mismatches <= 5) {
          std::fprintf(stderr,
                       "MISMATCH permutation %zu (cycle %llu): input lane 0 %s\n  want lane 0 %s\n"
                       "  got  lane 0 %s\n",
                       got, static_cast<unsigned long long>(cycle_ - first_in),
                       wide::to_hex(inst.inputs[got][0]).c_str(),
                       wide::to_hex(inst.outputs[got][0]).c_str(),
                       wide::to_hex(wide::get_wide(dut_.out_state_o, kWords)).c_str());
        }
        ++got;
        out.cycles = cycle_ - first_in + 1;
        out.out_cycle.push_back(cycle_ - first_in);
      }
      if (accepted) {
        if (fed == begin) first_in = cycle_;
        ++fed;
      }
      tick();
      if (reset_after != 0 && cycle_ - start == reset_after) {
        reset();
        out.was_reset = true;
        return out;
      }
      idle = (accepted || taken) ? 0 : idle + 1;
      if (idle > 100000) {
        std::fprintf(stderr, "FAIL: no progress for 100000 cycles (%zu of %zu results)\n",
                     got - begin, end - begin);
        return out;
      }
    }
    dut_.in_valid_i = 0;
    dut_.in_last_i = 0;
    dut_.in_close_i = 0;
    dut_.out_ready_i = 1;
    for (int i = 0; i < 4 * ACCLMT_BATCH; ++i) {
      dut_.eval();
      if (dut_.out_valid_o) {
        std::fprintf(stderr, "FAIL: a result beyond the %zu offered\n", end - begin);
        return out;
      }
      tick();
    }
    if (dut_.busy_o) {
      std::fprintf(stderr, "FAIL: the engine is still busy after its last result\n");
      return out;
    }
    out.complete = true;
    return out;
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  Vacclmt_engine& dut_;
  std::mt19937_64 rng_;
  uint64_t cycle_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s <acclmt_vectors.hex> [seed]\n", argv[0]);
    return 2;
  }
  uint64_t seed = 1;
  if (!bench::parse_seed(argc, argv, 2, seed)) return 2;
  Instance inst;
  if (!read_instance(argv[1], inst)) return 2;
  const size_t n = inst.inputs.size();

  Verilated::commandArgs(argc, argv);
  Vacclmt_engine dut;
  Driver unit(dut, seed);
  unit.reset();
  unit.configure(inst);
  if (!unit.refuses_wide(inst)) {
    std::fprintf(stderr, "FAIL: t = %d taken (cfg_error_o low or in_ready_o high)\n",
                 ACCLMT_MAX_WIDTH + 1);
    return 1;
  }

  // 1. Full rate.
  const Outcome full = unit.stream(inst, 0, n, false, 0);
  if (!full.complete || full.mismatches != 0) {
    std::fprintf(stderr, "FAIL: full rate: %zu mismatches\n", full.mismatches);
    return 1;
  }
  const size_t pair = 2 * ACCLMT_BATCH, pairs = n / pair;
  double per_hash = 0;
  if (pairs >= 2) {
    per_hash = static_cast<double>(full.out_cycle[pairs * pair - 1] - full.out_cycle[pair - 1]) /
               static_cast<double>((pairs - 1) * pair);
  }

  // 2. Gaps, back-pressure, partial batches (on at most kStressCount states: every case
  // occurs within a few pairs of batches).
  const size_t m = n < kStressCount ? n : kStressCount;
  const Outcome stressed = unit.stream(inst, 0, m, true, 0);
  if (!stressed.complete || stressed.mismatches != 0) {
    std::fprintf(stderr, "FAIL: with gaps and back-pressure: %zu mismatches\n",
                 stressed.mismatches);
    return 1;
  }

  // 3. A reset part-way, then the same states again.
  // Within the first half of the stressed stream's time: before any run of it can end.
  const uint64_t at = 1 + unit.rng()() % (stressed.cycles > 2 ? stressed.cycles / 2 : 1);
  if (!unit.stream(inst, 0, m, true, at).was_reset) {
    std::fprintf(stderr, "FAIL: the stream ended before its reset\n");
    return 1;
  }
  const Outcome again = unit.stream(inst, 0, m, true, 0);
  if (!again.complete || again.mismatches != 0) {
    std::fprintf(stderr, "FAIL: after a reset: %zu mismatches\n", again.mismatches);
    return 1;
  }

  std::printf("acclmt_engine t=%d alpha=%d R_F=%d R_P=%d: %zu permutations at full rate, with "
              "gaps, back-pressure and partial batches, reset mid-flight: no mismatch; "
              "RESULT cycles=%llu hashes=%zu cycles_per_hash=%.3f\n",
              inst.config.lanes, inst.config.alpha, inst.config.full_rounds,
              inst.config.partial_rounds, n,
              static_cast<unsigned long long>(full.cycles), n, per_hash);
  return 0;
}
