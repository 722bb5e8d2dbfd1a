// Helpers the Verilator benches share: wide words as little-endian 32-bit limbs, read from
// and written as hexadecimal, moved to and from Verilator's wide ports.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace wide {

using Word = std::vector<uint32_t>;

// The hexadecimal string s (no prefix) as `words` limbs; digits beyond them are dropped.
inline Word parse_hex(const std::string& s, int words) {
  Word w(words, 0);
  int bit = 0;
  for (int i = static_cast<int>(s.size()) - 1; i >= 0 && bit < 32 * words; --i, bit += 4) {
    const char c = s[i];
    const uint32_t v = (c >= '0' && c <= '9')   ? c - '0'
                       : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                                                : c - 'A' + 10;
    w[bit / 32] |= v << (bit % 32);
  }
  return w;
}

inline std::string to_hex(const Word& w) {
  std::string out;
  char buf[16];
  for (int i = static_cast<int>(w.size()) - 1; i >= 0; --i) {
    std::snprintf(buf, sizeof buf, "%08x", w[i]);
    out += buf;
  }
  return out;
}

// Writes w into a wide port (or a lane of a packed array of them, from limb `offset`).
template <typename Port>
void set_wide(Port& port, const Word& w, size_t offset = 0) {
  for (size_t i = 0; i < w.size(); ++i) port[offset + i] = w[i];
}

template <typename Port>
Word get_wide(const Port& port, int words, size_t offset = 0) {
  Word w(words, 0);
  for (int i = 0; i < words; ++i) w[i] = port[offset + i];
  return w;
}

}  // namespace wide
