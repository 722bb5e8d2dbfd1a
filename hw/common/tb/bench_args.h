// The command-line pieces every Verilator bench here parses alike: plain decimal numbers and
// the optional seed of its random gaps and back-pressure.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace bench {

// Parses digits only (no sign, space or prefix) into `out`; false unless the number is at most
// `max`.
inline bool parse_decimal(const std::string& s, unsigned long long max, unsigned long long& out) {
  if (s.empty() || s.size() > 20) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  errno = 0;
  char* end = nullptr;
  out = std::strtoull(s.c_str(), &end, 10);
  return errno == 0 && *end == '\0' && out <= max;
}

// Reads the optional seed `argv[index]` (1 where the line stops before it); prints why and
// returns false if it is not a decimal number that fits 64 bits.
inline bool parse_seed(int argc, char** argv, int index, uint64_t& seed) {
  seed = 1;
  if (argc <= index) return true;
  unsigned long long value = 0;
  if (!parse_decimal(argv[index], ~0ULL, value)) {
    std::fprintf(stderr, "bad seed '%s' (a decimal number below 2^64)\n", argv[index]);
    return false;
  }
  seed = value;
  return true;
}

}  // namespace bench
