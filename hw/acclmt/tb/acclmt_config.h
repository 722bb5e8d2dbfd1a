// The AcclMT engine's configuration as `zkaccel hw acclmt-vectors` and `acclmt-tree-vectors`
// write it, shared by the engine's and the Merkle controller's benches: after the header, the
// modulus, P' and Montgomery one (one hexadecimal word each), a count, then that many
// `address word` lines — the uniform rounds' constants and the beats' 3 × 3 blocks at the
// engine's addresses (crates/hwvectors/src/program.rs). Word 3 (rounds, S-box, t) comes
// from the header.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <istream>
#include <string>
#include <utility>
#include <vector>

#include "bench_args.h"
#include "wide.h"

namespace acclmt {

constexpr int kWidth = 256;
constexpr int kWords = kWidth / 32;
// The engine's configuration address space (15 bits); 0 … 3 are the parameters.
constexpr unsigned long long kAddressSpace = 1ULL << 15;

using bench::parse_decimal;

struct EngineConfig {
  int lanes = 0, alpha = 0, full_rounds = 0, partial_rounds = 0;
  wide::Word modulus, modulus_inv, one;
  std::vector<std::pair<unsigned, wide::Word>> words;  // (address, word)

  // Word 3: [1:0] α code, [15:8] R_F, [23:16] R_P, [27:24] t.
  wide::Word params(int t) const {
    wide::Word w(kWords, 0);
    w[0] = static_cast<uint32_t>((alpha == 3 ? 0 : alpha == 5 ? 1 : 2) | (full_rounds << 8) |
                                 (partial_rounds << 16) | (t << 24));
    return w;
  }
};

// Reads one hexadecimal word; false (with a message) if missing or malformed.
inline bool read_word(std::istream& in, const char* path, wide::Word& w) {
  std::string s;
  if (!(in >> s) || !wide::parse_hex(s, kWords, w)) {
    std::fprintf(stderr, "%s: missing or malformed word\n", path);
    return false;
  }
  return true;
}

// Checks the header's instance against an engine of max_width lanes and max_rounds rounds.
inline bool check_instance(const char* path, const EngineConfig& c, unsigned long long width,
                           int max_width, int max_rounds) {
  if (width != kWidth || c.lanes < 2 || c.lanes > max_width) {
    std::fprintf(stderr, "%s: a %llu-bit, t = %d instance; the engine is %d-bit, t = 2 … %d\n",
                 path, width, c.lanes, kWidth, max_width);
    return false;
  }
  if (c.alpha != 3 && c.alpha != 5 && c.alpha != 7) {
    std::fprintf(stderr, "%s: S-box exponent %d (the engine takes 3, 5, 7)\n", path, c.alpha);
    return false;
  }
  const int rounds = c.full_rounds + c.partial_rounds;
  if (c.full_rounds < 2 || c.full_rounds % 2 != 0 || c.partial_rounds < c.full_rounds / 2 ||
      rounds > max_rounds) {
    std::fprintf(stderr, "%s: rounds (%d, %d) outside what the engine takes\n", path,
                 c.full_rounds, c.partial_rounds);
    return false;
  }
  return true;
}

// Reads the modulus, P', one and the address/word list; false (with a message) on anything
// malformed: a count past the address space, an address of the parameters (0 … 3) or past
// the space, a repeated address.
inline bool read_config_words(std::istream& in, const char* path, EngineConfig& c) {
  if (!read_word(in, path, c.modulus) || !read_word(in, path, c.modulus_inv) ||
      !read_word(in, path, c.one)) {
    return false;
  }
  std::string tok;
  unsigned long long count = 0;
  if (!(in >> tok) || !parse_decimal(tok, kAddressSpace, count)) {
    std::fprintf(stderr, "%s: bad configuration word count\n", path);
    return false;
  }
  std::vector<bool> seen(kAddressSpace, false);
  c.words.resize(count);
  for (auto& [addr, w] : c.words) {
    unsigned long long a = 0;
    if (!(in >> tok) || !parse_decimal(tok, kAddressSpace - 1, a) || a < 4 || seen[a]) {
      std::fprintf(stderr, "%s: bad or repeated configuration address\n", path);
      return false;
    }
    seen[a] = true;
    addr = static_cast<unsigned>(a);
    if (!read_word(in, path, w)) return false;
  }
  return true;
}

// Writes the configuration through write(address, word).
template <typename Write>
void write_config(const EngineConfig& c, Write&& write) {
  write(0u, c.modulus);
  write(1u, c.modulus_inv);
  write(2u, c.one);
  write(3u, c.params(c.lanes));
  for (const auto& [addr, w] : c.words) write(addr, w);
}

}  // namespace acclmt
