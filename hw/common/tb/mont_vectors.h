// The Montgomery multipliers' benches' shared front end: the command line
// `<mont_vectors.hex> <width> [seed]` and the golden model's vectors (`zkaccel hw
// mont-vectors`: one line `P P' A B C` of hexadecimal words per product), refused with a
// message (and exit status 2 from the caller) when malformed.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench_args.h"
#include "wide.h"

struct MontVector {
  wide::Word p, p_inv, a, b, c;
};

struct MontBench {
  const char* path = nullptr;
  int width = 0;
  int words = 0;
  uint64_t seed = 1;
  std::vector<MontVector> vectors;
};

// Parses the command line and reads the vectors; prints why and returns false on bad input.
inline bool read_mont_bench(int argc, char** argv, MontBench& bench) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: %s <mont_vectors.hex> <width> [seed]\n", argv[0]);
    return false;
  }
  bench.path = argv[1];
  char* end = nullptr;
  const long width = std::strtol(argv[2], &end, 10);
  if (*argv[2] == '\0' || *end != '\0' || width <= 0 || width % 32 != 0 || width > 4096) {
    std::fprintf(stderr, "width must be a positive multiple of 32, not %s\n", argv[2]);
    return false;
  }
  bench.width = static_cast<int>(width);
  bench.words = bench.width / 32;
  if (!bench::parse_seed(argc, argv, 3, bench.seed)) return false;
  std::ifstream in(bench.path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    std::string p, pi, a, b, c, extra;
    if (!(ss >> p)) continue;  // a blank line
    MontVector v;
    const int w = bench.words;
    if (!(ss >> pi >> a >> b >> c) || (ss >> extra) || !wide::parse_hex(p, w, v.p) ||
        !wide::parse_hex(pi, w, v.p_inv) || !wide::parse_hex(a, w, v.a) ||
        !wide::parse_hex(b, w, v.b) || !wide::parse_hex(c, w, v.c)) {
      std::fprintf(stderr, "a line of %s is not five %d-bit hexadecimal words: %s\n",
                   bench.path, bench.width, line.c_str());
      return false;
    }
    bench.vectors.push_back(v);
  }
  if (bench.vectors.empty()) {
    std::fprintf(stderr, "no vectors read from %s\n", bench.path);
    return false;
  }
  return true;
}

// Whether the built unit's operand port has the bench's width; prints why not.
template <typename Port>
bool width_matches(const Port& port, const MontBench& bench) {
  if (wide::port_words(port) == static_cast<size_t>(bench.words)) return true;
  std::fprintf(stderr, "width %d does not match the built unit's %zu bits\n", bench.width,
               32 * wide::port_words(port));
  return false;
}
