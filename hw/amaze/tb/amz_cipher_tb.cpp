// Self-checking Verilator bench for amz_cipher: feeds the vectors the Rust golden model wrote
// (`zkaccel hw amaze-vectors`), compares every output, and measures the cycles from each input's
// handshake to its result. Exits non-zero on any mismatch or timeout.
//
// Usage: Vamz_cipher_top <cipher_vectors.hex> <count> <design-name>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "Vamz_cipher_top.h"
#include "amz_tb_util.h"
#include "verilated.h"

namespace {

using amz::get_wide;
using amz::parse_hex;
using amz::set_wide;
using amz::to_hex;
using amz::Word;

struct Vector {
  Word x, k, y;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s <cipher_vectors.hex> <count> <design>\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", argv[1]);
    return 2;
  }
  const size_t want = std::strtoul(argv[2], nullptr, 10);
  const std::string design = argv[3];
  std::vector<Vector> vecs;
  std::string line;
  while (vecs.size() < want && std::getline(in, line)) {
    std::istringstream ss(line);
    std::string x, k, y;
    if (ss >> x >> k >> y) vecs.push_back({parse_hex(x), parse_hex(k), parse_hex(y)});
  }
  if (vecs.empty()) {
    std::fprintf(stderr, "no vectors read\n");
    return 2;
  }

  Verilated::commandArgs(argc, argv);
  auto* dut = new Vamz_cipher_top;
  uint64_t cycle = 0;
  auto tick = [&] {
    dut->clk_i = 0;
    dut->eval();
    dut->clk_i = 1;
    dut->eval();
    ++cycle;
  };
  dut->clk_i = 0;
  dut->rst_ni = 0;
  dut->valid_i = 0;
  dut->eval();
  tick();
  tick();
  dut->rst_ni = 1;
  dut->eval();
  cycle = 0;

  size_t next_in = 0, next_out = 0, errors = 0;
  std::deque<uint64_t> accepted_at;
  uint64_t lat_min = UINT64_MAX, lat_max = 0, first_in = 0, last_out = 0;
  size_t max_batch = 0;
  const uint64_t timeout = 200000ULL * vecs.size() + 1000000ULL;
  while (next_out < vecs.size()) {
    // Drive this cycle's inputs (combinational ready_o seen before the edge).
    bool offer = next_in < vecs.size();
    dut->valid_i = offer;
    if (offer) {
      set_wide(dut->x_i, vecs[next_in].x);
      set_wide(dut->k_i, vecs[next_in].k);
    }
    dut->clk_i = 0;
    dut->eval();
    bool handshake = offer && dut->ready_o;
    if (dut->valid_o) {
      Word got = get_wide(dut->y_o);
      if (accepted_at.empty()) {
        std::fprintf(stderr, "[%s] output with no input in flight at cycle %llu\n", design.c_str(),
                     (unsigned long long)cycle);
        return 1;
      }
      uint64_t lat = cycle - accepted_at.front();
      accepted_at.pop_front();
      lat_min = std::min(lat_min, lat);
      lat_max = std::max(lat_max, lat);
      last_out = cycle;
      if (got != vecs[next_out].y) {
        if (errors < 10) {
          std::fprintf(stderr, "[%s] MISMATCH vector %zu: x=%s k=%s\n  expected %s\n  actual   %s\n", design.c_str(),
                       next_out, to_hex(vecs[next_out].x).c_str(), to_hex(vecs[next_out].k).c_str(),
                       to_hex(vecs[next_out].y).c_str(), to_hex(got).c_str());
        }
        ++errors;
      }
      ++next_out;
    }
    if (handshake) {
      if (next_in == 0) first_in = cycle;
      accepted_at.push_back(cycle);
      max_batch = std::max(max_batch, accepted_at.size());
      ++next_in;
    }
    dut->clk_i = 1;
    dut->eval();
    ++cycle;
    if (cycle > timeout) {
      std::fprintf(stderr, "[%s] TIMEOUT after %llu cycles (%zu of %zu results)\n", design.c_str(),
                   (unsigned long long)cycle, next_out, vecs.size());
      return 1;
    }
  }
  dut->final();
  delete dut;
  const uint64_t total = last_out - first_in;
  std::printf("%s: %zu ciphers, %zu mismatches, latency %llu cycles (min %llu), batch %zu, %llu cycles in all, "
              "%.1f cycles per cipher amortised\n",
              design.c_str(), vecs.size(), errors, (unsigned long long)lat_max, (unsigned long long)lat_min, max_batch,
              (unsigned long long)total, static_cast<double>(total) / vecs.size());
  std::printf("RESULT design=%s ciphers=%zu mismatches=%zu latency=%llu batch=%zu\n", design.c_str(), vecs.size(),
              errors, (unsigned long long)lat_max, max_batch);
  return errors == 0 ? 0 : 1;
}
