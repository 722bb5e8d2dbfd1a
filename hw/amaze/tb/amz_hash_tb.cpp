// Self-checking Verilator bench for amz_hash: hashes every message of the golden model's
// hash_vectors.hex (`n key m_1 … m_n H`, hex) and compares the digests; exits non-zero on any
// mismatch or timeout.
//
// Usage: Vamz_hash <hash_vectors.hex> <design-name>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "Vamz_hash.h"
#include "amz_tb_util.h"
#include "verilated.h"

namespace {

using amz::get_wide;
using amz::parse_hex;
using amz::set_wide;
using amz::to_hex;
using amz::Word;

struct Message {
  Word key;
  std::vector<Word> blocks;
  Word digest;
};
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <hash_vectors.hex> <design>\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1]);
  const std::string design = argv[2];
  std::vector<Message> msgs;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    size_t n;
    std::string tok;
    if (!(ss >> n)) continue;
    Message m;
    ss >> tok;
    m.key = parse_hex(tok);
    for (size_t i = 0; i < n; ++i) {
      ss >> tok;
      m.blocks.push_back(parse_hex(tok));
    }
    ss >> tok;
    m.digest = parse_hex(tok);
    msgs.push_back(m);
  }
  if (msgs.empty()) {
    std::fprintf(stderr, "no vectors read\n");
    return 2;
  }
  Verilated::commandArgs(argc, argv);
  auto* dut = new Vamz_hash;
  auto step = [&] {
    dut->clk_i = 0;
    dut->eval();
    dut->clk_i = 1;
    dut->eval();
  };
  dut->rst_ni = 0;
  dut->start_i = 0;
  dut->m_valid_i = 0;
  step();
  step();
  dut->rst_ni = 1;
  size_t errors = 0;
  uint64_t cycles = 0, blocks = 0;
  for (size_t i = 0; i < msgs.size(); ++i) {
    const Message& m = msgs[i];
    set_wide(dut->key_i, m.key);
    dut->start_i = 1;
    step();
    dut->start_i = 0;
    size_t next = 0;
    uint64_t guard = 0;
    bool done = false;
    while (!done) {
      dut->m_valid_i = next < m.blocks.size();
      if (next < m.blocks.size()) {
        set_wide(dut->m_i, m.blocks[next]);
        dut->m_last_i = next + 1 == m.blocks.size();
      }
      dut->clk_i = 0;
      dut->eval();
      if (dut->h_valid_o) {
        Word got = get_wide(dut->h_o);
        if (got != m.digest) {
          std::fprintf(stderr, "[%s] MISMATCH message %zu (%zu blocks)\n  expected %s\n  actual   %s\n", design.c_str(),
                       i, m.blocks.size(), to_hex(m.digest).c_str(), to_hex(got).c_str());
          ++errors;
        }
        done = true;
      }
      if (dut->m_valid_i && dut->m_ready_o) ++next;
      dut->clk_i = 1;
      dut->eval();
      ++cycles;
      if (++guard > 400000ULL * (m.blocks.size() + 1)) {
        std::fprintf(stderr, "[%s] TIMEOUT on message %zu\n", design.c_str(), i);
        return 1;
      }
    }
    blocks += m.blocks.size();
  }
  dut->final();
  delete dut;
  std::printf("%s hash: %zu messages, %llu blocks, %zu mismatches, %.1f cycles per block\n", design.c_str(),
              msgs.size(), (unsigned long long)blocks, errors, static_cast<double>(cycles) / blocks);
  return errors == 0 ? 0 : 1;
}
