// Helpers the Verilator benches share: wide words as little-endian 32-bit limbs, read from
// and written as hexadecimal, moved to and from Verilator's wide ports.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace wide {

using Word = std::vector<uint32_t>;

// Parses the hexadecimal string s (no prefix) into `words` little-endian limbs. Returns false,
// leaving `out` unspecified, for an empty string, a character that is not a hex digit, or a
// value that does not fit in 32·words bits (leading zeros are allowed).
inline bool parse_hex(const std::string& s, int words, Word& out) {
  out.assign(static_cast<size_t>(words), 0);
  if (s.empty() || words <= 0) return false;
  int bit = 0;
  for (int i = static_cast<int>(s.size()) - 1; i >= 0; --i, bit += 4) {
    const char c = s[i];
    uint32_t v;
    if (c >= '0' && c <= '9') {
      v = static_cast<uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      v = static_cast<uint32_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      v = static_cast<uint32_t>(c - 'A' + 10);
    } else {
      return false;
    }
    if (bit >= 32 * words) {
      if (v != 0) return false;
      continue;
    }
    out[bit / 32] |= v << (bit % 32);
  }
  return true;
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

// The number of 32-bit limbs of a Verilator wide port (VlWide<N> holds exactly N of them).
template <typename Port>
constexpr size_t port_words(const Port&) {
  return sizeof(Port) / sizeof(uint32_t);
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
