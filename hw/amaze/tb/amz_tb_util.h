// Helpers shared by the AMAZE Verilator benches: 256-bit words as eight little-endian 32-bit
// words, parsed from and printed as hex.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace amz {

using Word = std::vector<uint32_t>;

inline Word parse_hex(const std::string& s) {
  Word w(8, 0);
  int bit = 0;
  for (int i = static_cast<int>(s.size()) - 1; i >= 0 && bit < 256; --i, bit += 4) {
    char c = s[i];
    uint32_t v = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : c - 'A' + 10;
    w[bit / 32] |= v << (bit % 32);
  }
  return w;
}

inline std::string to_hex(const Word& w) {
  char buf[16];
  std::string out;
  for (int i = 7; i >= 0; --i) {
    std::snprintf(buf, sizeof buf, "%08x", w[i]);
    out += buf;
  }
  return out;
}

// Copies a word into a Verilator wide port.
template <typename Port>
void set_wide(Port& port, const Word& w) {
  for (int i = 0; i < 8; ++i) port[i] = w[i];
}

// Reads a 254-bit Verilator wide port.
template <typename Port>
Word get_wide(const Port& port) {
  Word w(8, 0);
  for (int i = 0; i < 8; ++i) w[i] = port[i];
  w[7] &= 0x3fffffff;
  return w;
}

}  // namespace amz
