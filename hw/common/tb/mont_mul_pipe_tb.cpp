// Self-checking Verilator bench for mont_mul_pipe (the fully pipelined Montgomery multiplier):
// reads the golden model's mont_vectors_<width>.hex (`zkaccel hw mont-vectors`: P, P', A, B
// and C = A·B·R^{-1} mod P), configures the unit once per modulus, and streams each modulus's
// products through it:
//
//   1. the first modulus at full rate (an operation offered every cycle, every result taken):
//      the first result must leave 3·(MulLatency + 1) cycles after its operands and the
//      others one per cycle after it (the run script checks the latency it prints);
//   2. every other modulus with random gaps in the operands and random back-pressure on the
//      results (results must hold still and stay in order), one of them reset part-way and
//      then streamed again from its start (the modulus registers keep their value).
//
// Exits non-zero on any mismatch, a missing result or a stall; 2 on a bad command line or
// vectors file, or a width other than the built unit's.
//
// Usage: Vmont_mul_pipe <mont_vectors.hex> <width> [seed]
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "Vmont_mul_pipe.h"
#include "mont_vectors.h"
#include "verilated.h"
#include "wide.h"

namespace {

using wide::Word;

using Vector = MontVector;

struct Outcome {
  bool complete = false;
  bool was_reset = false;
  size_t mismatches = 0;
  uint64_t first_latency = 0;  // cycles from the first acceptance to the first result
  uint64_t cycles = 0;         // first acceptance to last result, inclusive
};

class Driver {
 public:
  Driver(Vmont_mul_pipe& dut, int words, uint64_t seed) : dut_(dut), words_(words), rng_(seed) {}

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
    dut_.cfg_we_i = 0;
    dut_.out_ready_i = 0;
    tick();
    tick();
    dut_.rst_ni = 1;
    dut_.eval();
  }

  void configure(const Vector& v) {
    wide::set_wide(dut_.cfg_modulus_i, v.p);
    wide::set_wide(dut_.cfg_modulus_inv_i, v.p_inv);
    dut_.cfg_we_i = 1;
    tick();
    dut_.cfg_we_i = 0;
  }

  // Streams vs[begin, end) through the unit; `reset_after` (cycles, 0 = never) resets then.
  Outcome stream(const std::vector<Vector>& vs, size_t begin, size_t end, bool stress,
                 uint64_t reset_after) {
    Outcome out;
    size_t fed = begin, got = begin;
    const uint64_t start = cycle_;
    uint64_t first_in = 0, idle = 0;
    while (got < end) {
      const bool offer = fed < end && (!stress || rng_() % 4 != 0);
      dut_.in_valid_i = offer;
      if (offer) {
        wide::set_wide(dut_.a_i, vs[fed].a);
        wide::set_wide(dut_.b_i, vs[fed].b);
      } else {
        for (int k = 0; k < words_; ++k) dut_.a_i[k] = static_cast<uint32_t>(rng_());
      }
      const bool ready = !stress || rng_() % 3 != 0;
      dut_.out_ready_i = ready;
      dut_.eval();
      const bool accepted = offer && dut_.in_ready_o;
      const bool taken = dut_.out_valid_o && ready;
      if (taken) {
        if (got == begin) out.first_latency = cycle_ - first_in;
        const Word c = wide::get_wide(dut_.c_o, words_);
        if (c != vs[got].c && ++out.mismatches <= 5) {
          std::fprintf(stderr, "MISMATCH vector %zu: a=%s b=%s\n  want %s\n  got  %s\n", got,
                       wide::to_hex(vs[got].a).c_str(), wide::to_hex(vs[got].b).c_str(),
                       wide::to_hex(vs[got].c).c_str(), wide::to_hex(c).c_str());
        }
        ++got;
        out.cycles = cycle_ - first_in + 1;
      } else if (dut_.out_valid_o && got >= end) {
        std::fprintf(stderr, "FAIL: a result beyond the %zu offered\n", end - begin);
        return out;
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
      if (idle > 1000) {
        std::fprintf(stderr, "FAIL: no progress for 1000 cycles (%zu of %zu results)\n",
                     got - begin, end - begin);
        return out;
      }
    }
    dut_.in_valid_i = 0;
    dut_.out_ready_i = 0;
    dut_.eval();
    if (dut_.out_valid_o) {
      std::fprintf(stderr, "FAIL: a result beyond the %zu offered\n", end - begin);
      return out;
    }
    out.complete = true;
    return out;
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  Vmont_mul_pipe& dut_;
  int words_;
  std::mt19937_64 rng_;
  uint64_t cycle_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  MontBench bench;
  if (!read_mont_bench(argc, argv, bench)) return 2;
  const int words = bench.words;
  const std::vector<Vector>& vectors = bench.vectors;
  Verilated::commandArgs(argc, argv);
  Vmont_mul_pipe dut;
  if (!width_matches(dut.a_i, bench)) return 2;
  Driver unit(dut, words, bench.seed);
  unit.reset();

  // The moduli's runs of vectors.
  std::vector<std::pair<size_t, size_t>> groups;
  for (size_t i = 0; i < vectors.size(); ++i) {
    if (groups.empty() || vectors[i].p != vectors[groups.back().first].p)
      groups.push_back({i, i});
    groups.back().second = i + 1;
  }
  uint64_t latency = 0;
  bool reset_done = false;
  size_t streamed = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    const auto [begin, end] = groups[g];
    const size_t n = end - begin;
    unit.configure(vectors[begin]);
    const bool full_rate = g == 0;
    if (!full_rate && !reset_done) {
      // Before the stream can have ended: n products need more than n cycles.
      const uint64_t at = 1 + unit.rng()() % n;
      if (!unit.stream(vectors, begin, end, true, at).was_reset) {
        std::fprintf(stderr, "FAIL: the stream ended before its reset\n");
        return 1;
      }
      reset_done = true;
    }
    const Outcome out = unit.stream(vectors, begin, end, !full_rate, 0);
    if (!out.complete || out.mismatches != 0) {
      std::fprintf(stderr, "FAIL: modulus %zu: %zu mismatches\n", g, out.mismatches);
      return 1;
    }
    if (full_rate) {
      latency = out.first_latency;
      if (out.cycles != n + latency) {
        std::fprintf(stderr, "FAIL: %zu products at full rate took %llu cycles, not %llu\n", n,
                     static_cast<unsigned long long>(out.cycles),
                     static_cast<unsigned long long>(n + latency));
        return 1;
      }
    }
    streamed += n;
  }
  if (!reset_done) {
    std::fprintf(stderr, "FAIL: the vectors have one modulus; the reset was not exercised\n");
    return 1;
  }
  std::printf("mont_mul_pipe W=%d: %zu products, one per cycle at full rate, gaps and "
              "back-pressure, reset mid-flight: no mismatch; RESULT latency=%llu\n",
              bench.width, streamed, static_cast<unsigned long long>(latency));
  return 0;
}
