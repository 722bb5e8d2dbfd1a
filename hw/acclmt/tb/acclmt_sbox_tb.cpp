// Self-checking Verilator bench for acclmt_sbox alone (AcclMT's configurable S-box on three
// pipelined Montgomery multipliers): reads acclmt_sbox_vectors (`zkaccel hw
// acclmt-sbox-vectors`: the modulus, P', Montgomery one, then inputs x and the golden model's
// x^α, Montgomery form), configures the S-box and streams the inputs through it:
//
//   1. all of them at the S-box's rate (an input every cycle for α = 3 and 5, every other
//      cycle for α = 7, its initiation interval of 2): every result must equal the golden
//      model's, in order, exactly Latency = 3·MontLatency + 1 cycles after its input
//      (MontLatency = 3·(ACCLMT_MUL_LATENCY + 1));
//   2. all of them again with random gaps (never closer than the initiation interval);
//   3. a reset while results are in flight: none may come out after it; then the first
//      inputs again, checked as in 1.
//
// The whole-engine benches reach α = 5 and 7 only: x³ permutes neither BLS12-381 Fr nor BN254
// Fr, so no Poseidon instance of the workspace uses it, and this bench is what checks the x³
// path (x², x²·x, then ·1).
//
// Exits 1 on any mismatch, a result at another latency, or a missing or extra result; 2 on a
// bad command line or vectors file.
//
// Usage: Vacclmt_sbox <acclmt_sbox_vectors.hex> [seed]
#include <cstdint>
#include <cstdio>
#include <deque>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "Vacclmt_sbox.h"
#include "acclmt_config.h"
#include "verilated.h"
#include "wide.h"

#ifndef ACCLMT_MUL_LATENCY
#error "build with -DACCLMT_MUL_LATENCY=<the S-box's MulLatency parameter>"
#endif

namespace {

using acclmt::kWords;
using acclmt::parse_decimal;
using wide::Word;

constexpr size_t kMaxCount = 1000000;
constexpr uint64_t kLatency = 3 * (3 * (ACCLMT_MUL_LATENCY + 1)) + 1;
constexpr size_t kResetAfter = 5;  // inputs fed before the mid-flight reset

struct Vectors {
  int alpha = 0;
  Word modulus, modulus_inv, one;
  std::vector<Word> x, y;
};

// Reads and validates the vectors file; false (with a message) on anything malformed.
bool read_vectors(const char* path, Vectors& v) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path);
    return false;
  }
  std::string tok[3];
  unsigned long long head[3];
  const unsigned long long max[3] = {4096, 7, kMaxCount};
  for (int i = 0; i < 3; ++i) {
    if (!(in >> tok[i]) || !parse_decimal(tok[i], max[i], head[i])) {
      std::fprintf(stderr, "%s: bad header field %d\n", path, i + 1);
      return false;
    }
  }
  if (head[0] != acclmt::kWidth) {
    std::fprintf(stderr, "%s: a %llu-bit instance; the S-box is %d-bit\n", path, head[0],
                 acclmt::kWidth);
    return false;
  }
  v.alpha = static_cast<int>(head[1]);
  if (v.alpha != 3 && v.alpha != 5 && v.alpha != 7) {
    std::fprintf(stderr, "%s: exponent %d (the S-box takes 3, 5, 7)\n", path, v.alpha);
    return false;
  }
  const size_t count = static_cast<size_t>(head[2]);
  if (count == 0) {
    std::fprintf(stderr, "%s: no inputs\n", path);
    return false;
  }
  if (!acclmt::read_word(in, path, v.modulus) || !acclmt::read_word(in, path, v.modulus_inv) ||
      !acclmt::read_word(in, path, v.one)) {
    return false;
  }
  v.x.assign(count, Word());
  v.y.assign(count, Word());
  for (size_t i = 0; i < count; ++i) {
    if (!acclmt::read_word(in, path, v.x[i]) || !acclmt::read_word(in, path, v.y[i])) {
      return false;
    }
  }
  std::string extra;
  if (in >> extra) {
    std::fprintf(stderr, "%s: trailing data after %zu inputs\n", path, count);
    return false;
  }
  return true;
}

class Bench {
 public:
  Bench(Vacclmt_sbox& dut, const Vectors& v, uint64_t seed) : dut_(dut), v_(v), rng_(seed) {}

  void reset() {
    dut_.rst_ni = 0;
    dut_.valid_i = 0;
    dut_.cfg_we_i = 0;
    dut_.eval();
    tick();
    tick();
    dut_.rst_ni = 1;
    dut_.eval();
    pending_.clear();
  }

  void configure() {
    wide::set_wide(dut_.cfg_modulus_i, v_.modulus);
    wide::set_wide(dut_.cfg_modulus_inv_i, v_.modulus_inv);
    wide::set_wide(dut_.cfg_one_i, v_.one);
    dut_.cfg_alpha_i = v_.alpha == 3 ? 0 : v_.alpha == 5 ? 1 : 2;
    dut_.cfg_we_i = 1;
    tick();
    dut_.cfg_we_i = 0;
  }

  // Streams inputs [0, n) (gaps at random with `gaps`), then waits for the results; false
  // after the first failure (reported).
  bool stream(const char* what, size_t n, bool gaps) {
    const int interval = v_.alpha == 7 ? 2 : 1;
    size_t fed = 0;
    int since = interval;  // cycles since the last input
    std::bernoulli_distribution idle(0.4);
    uint64_t quiet = 0;
    while (fed < n || !pending_.empty()) {
      const bool feed = fed < n && since >= interval && !(gaps && idle(rng_));
      dut_.valid_i = feed;
      if (feed) wide::set_wide(dut_.x_i, v_.x[fed]);
      tick();
      if (feed) {
        // Presented in the cycle the edge just ended; its result is visible Latency cycles
        // later (one register: the next cycle).
        pending_.push_back({fed, cycle_ - 1});
        ++fed;
        since = 1;
      } else {
        ++since;
      }
      if (!collect(what)) return false;
      quiet = dut_.valid_o ? 0 : quiet + 1;
      if (quiet > kLatency + 4 && fed == n && !pending_.empty()) {
        std::fprintf(stderr, "%s: result %zu never came\n", what, pending_.front().index);
        return false;
      }
    }
    dut_.valid_i = 0;
    for (uint64_t i = 0; i < kLatency + 4; ++i) {
      tick();
      if (!collect(what)) return false;
    }
    return true;
  }

  // Feeds a few inputs, resets while they are in flight, and checks that none comes out.
  bool reset_mid_flight() {
    const int interval = v_.alpha == 7 ? 2 : 1;
    for (size_t i = 0; i < kResetAfter && i < v_.x.size(); ++i) {
      dut_.valid_i = 1;
      wide::set_wide(dut_.x_i, v_.x[i]);
      tick();
      dut_.valid_i = 0;
      for (int g = 1; g < interval; ++g) tick();
    }
    reset();
    for (uint64_t i = 0; i < 2 * kLatency; ++i) {
      tick();
      if (dut_.valid_o) {
        std::fprintf(stderr, "reset: a result came out %llu cycles after the reset\n",
                     static_cast<unsigned long long>(i + 1));
        return false;
      }
    }
    return true;
  }

  uint64_t cycle() const { return cycle_; }

 private:
  struct InFlight {
    size_t index;
    uint64_t fed_cycle;
  };

  void tick() {
    dut_.clk_i = 0;
    dut_.eval();
    dut_.clk_i = 1;
    dut_.eval();
    ++cycle_;
  }

  // Checks the result on the outputs after this cycle's edge, if any.
  bool collect(const char* what) {
    if (!dut_.valid_o) return true;
    if (pending_.empty()) {
      std::fprintf(stderr, "%s: an extra result at cycle %llu\n", what,
                   static_cast<unsigned long long>(cycle_));
      return false;
    }
    const InFlight f = pending_.front();
    pending_.pop_front();
    const Word got = wide::get_wide(dut_.y_o, kWords);
    if (got != v_.y[f.index]) {
      std::fprintf(stderr, "%s: input %zu: got %s, want %s\n", what, f.index,
                   wide::to_hex(got).c_str(), wide::to_hex(v_.y[f.index]).c_str());
      return false;
    }
    if (cycle_ - f.fed_cycle != kLatency) {
      std::fprintf(stderr, "%s: input %zu came out after %llu cycles, want %llu\n", what,
                   f.index, static_cast<unsigned long long>(cycle_ - f.fed_cycle),
                   static_cast<unsigned long long>(kLatency));
      return false;
    }
    return true;
  }

  Vacclmt_sbox& dut_;
  const Vectors& v_;
  std::mt19937_64 rng_;
  std::deque<InFlight> pending_;
  uint64_t cycle_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  Verilated::commandArgs(argc, argv);
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s <acclmt_sbox_vectors.hex> [seed]\n", argv[0]);
    return 2;
  }
  uint64_t seed = 1;
  if (!bench::parse_seed(argc, argv, 2, seed)) return 2;
  Vectors v;
  if (!read_vectors(argv[1], v)) return 2;

  Vacclmt_sbox dut;
  Bench bench(dut, v, seed);
  bench.reset();
  bench.configure();
  const size_t n = v.x.size();
  bool ok = bench.stream("full rate", n, false) && bench.stream("random gaps", n, true) &&
            bench.reset_mid_flight();
  if (ok) {
    bench.configure();
    ok = bench.stream("after the reset", n < 64 ? n : 64, false);
  }
  dut.final();
  if (!ok) {
    std::printf("FAIL: acclmt_sbox x^%d\n", v.alpha);
    return 1;
  }
  std::printf("PASS: acclmt_sbox x^%d, %zu inputs twice and after a mid-flight reset, latency "
              "%llu cycles\n",
              v.alpha, n, static_cast<unsigned long long>(kLatency));
  return 0;
}
