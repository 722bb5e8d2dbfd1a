// Self-checking Verilator bench for mont_mul (Algorithm 1 of the FPGA NTT paper): for every
// line `p p' a b c` of the golden model's mont_vectors_<W>.hex (hex), loads the modulus
// registers when p changes, multiplies a and b, and compares the result with c. Inputs arrive
// with random gaps, the result is taken with random back-pressure, and the unit is reset in
// the middle of an operation once (that operation is then re-issued). Prints the measured
// latency (cycles from acceptance to a valid result) and exits non-zero on any mismatch or
// timeout.
//
// Usage: Vmont_mul <mont_vectors.hex> <width> [seed]
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "Vmont_mul.h"
#include "mont_vectors.h"
#include "verilated.h"
#include "wide.h"

namespace {

using wide::get_wide;
using wide::set_wide;
using wide::to_hex;
using wide::Word;

}  // namespace

int main(int argc, char** argv) {
  MontBench bench;
  if (!read_mont_bench(argc, argv, bench)) return 2;
  const int words = bench.words;
  const std::vector<MontVector>& vectors = bench.vectors;
  std::mt19937_64 rng(bench.seed);
  Verilated::commandArgs(argc, argv);
  Vmont_mul dut;
  if (!width_matches(dut.a_i, bench)) return 2;
  uint64_t cycle = 0;
  auto tick = [&] {
    dut.clk_i = 0;
    dut.eval();
    dut.clk_i = 1;
    dut.eval();
    ++cycle;
  };
  auto reset = [&] {
    dut.rst_ni = 0;
    dut.in_valid_i = 0;
    dut.cfg_we_i = 0;
    dut.out_ready_i = 0;
    tick();
    tick();
    dut.rst_ni = 1;
    dut.eval();
  };
  reset();

  const uint64_t timeout = 10000;
  Word loaded;  // the modulus in the registers
  size_t mismatches = 0;
  uint64_t latency = 0;
  bool latency_known = false;
  bool reset_done = false;
  const size_t reset_at = vectors.size() / 2;
  size_t back_to_back = 0;
  bool preaccepted = false;  // this vector was accepted as the previous result was taken
  uint64_t accepted = 0;
  for (size_t i = 0; i < vectors.size(); ++i) {
    const MontVector& v = vectors[i];
    if (preaccepted) {
      preaccepted = false;
    } else {
      // Configure when the modulus changes (the unit is idle between operations).
      if (v.p != loaded) {
        set_wide(dut.cfg_modulus_i, v.p);
        set_wide(dut.cfg_modulus_inv_i, v.p_inv);
        dut.cfg_we_i = 1;
        tick();
        dut.cfg_we_i = 0;
        loaded = v.p;
      }
      // A random gap before the operands are offered.
      for (int gap = static_cast<int>(rng() % 3); gap > 0; --gap) tick();
      set_wide(dut.a_i, v.a);
      set_wide(dut.b_i, v.b);
      dut.in_valid_i = 1;
      dut.eval();
      uint64_t waited = 0;
      while (!dut.in_ready_o) {
        tick();
        if (++waited > timeout) {
          std::fprintf(stderr, "FAIL: vector %zu never accepted\n", i);
          return 1;
        }
      }
      tick();  // accepted at this edge
      accepted = cycle;
    }
    dut.in_valid_i = 0;
    // Scramble the operand ports: the unit must have registered them.
    for (int k = 0; k < words; ++k) {
      dut.a_i[k] = static_cast<uint32_t>(rng());
      dut.b_i[k] = static_cast<uint32_t>(rng());
    }
    dut.eval();
    if (!reset_done && i == reset_at) {
      // Reset mid-flight: the operation is lost, the modulus registers keep their value
      // (they have no reset), and the operation is issued again.
      tick();
      reset();
      reset_done = true;
      --i;
      continue;
    }
    uint64_t waited = 0;
    while (!dut.out_valid_o) {
      tick();
      if (++waited > timeout) {
        std::fprintf(stderr, "FAIL: vector %zu produced no result\n", i);
        return 1;
      }
    }
    const uint64_t this_latency = cycle - accepted;
    if (!latency_known) {
      latency = this_latency;
      latency_known = true;
    } else if (this_latency != latency) {
      std::fprintf(stderr, "FAIL: vector %zu took %llu cycles, earlier ones %llu\n", i,
                   static_cast<unsigned long long>(this_latency),
                   static_cast<unsigned long long>(latency));
      return 1;
    }
    // Random back-pressure: the result must stay put until it is taken.
    for (int hold = static_cast<int>(rng() % 3); hold > 0; --hold) {
      tick();
      if (!dut.out_valid_o) {
        std::fprintf(stderr, "FAIL: vector %zu: the result was dropped before it was taken\n", i);
        return 1;
      }
    }
    const Word got = get_wide(dut.c_o, words);
    if (got != v.c) {
      if (++mismatches <= 5) {
        std::fprintf(stderr, "MISMATCH vector %zu: p=%s a=%s b=%s\n  want %s\n  got  %s\n", i,
                     to_hex(v.p).c_str(), to_hex(v.a).c_str(), to_hex(v.b).c_str(),
                     to_hex(v.c).c_str(), to_hex(got).c_str());
      }
    }
    dut.out_ready_i = 1;
    // Half the time the next operands (same modulus) are offered in the cycle the result is
    // taken: the unit must accept them at once (back-to-back issue, one per latency).
    const bool offer_next = i + 1 < vectors.size() && vectors[i + 1].p == v.p &&
                            (i + 1 != reset_at || reset_done) && (rng() & 1) != 0;
    if (offer_next) {
      set_wide(dut.a_i, vectors[i + 1].a);
      set_wide(dut.b_i, vectors[i + 1].b);
      dut.in_valid_i = 1;
      dut.eval();
      if (!dut.in_ready_o) {
        std::fprintf(stderr, "FAIL: vector %zu not accepted as the previous result was taken\n",
                     i + 1);
        return 1;
      }
      preaccepted = true;
      ++back_to_back;
    }
    tick();
    if (offer_next) accepted = cycle;
    dut.out_ready_i = 0;
    dut.in_valid_i = 0;
    dut.eval();
  }
  std::printf("mont_mul W=%d: %zu products (%zu back to back), %zu mismatches, reset mid-flight %s, "
              "RESULT latency=%llu\n",
              bench.width, vectors.size(), back_to_back, mismatches,
              reset_done ? "exercised" : "not exercised", static_cast<unsigned long long>(latency));
  return mismatches == 0 && reset_done && back_to_back > 0 ? 0 : 1;
}
