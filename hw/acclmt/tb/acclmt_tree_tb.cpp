// Self-checking Verilator bench for acclmt_tree (AcclMT's Merkle controller): reads a tree
// (`zkaccel hw acclmt-tree-vectors`: the Poseidon instance's configuration, the domain tag, the
// leaves' elements and zkaccel-merkle's root, Montgomery form), configures the controller and
// streams the elements in:
//
//   0. a tree size the controller does not build first: cfg_error_o must rise and no element
//      be taken;
//   1. the elements at a stated off-chip bandwidth (BYTES_PER_CYCLE: element n is offered once
//      (n + 1)·32 bytes have arrived): the root must equal the golden model's; RESULT prints
//      the cycles from the first element offered to the root, and each engine's hashes;
//   2. (unless ONCE is `once`) a reset part-way through the same stream, then the stream
//      again with random gaps: the root must again be the golden model's;
//   3. (unless ONCE) the next tree without a reset: the shape written again starts it, and a
//      shape written while it is under way must be ignored; the same elements at the same
//      pace must give the same root in the same cycles as run 1.
//
// Every run also checks the engines' hash counts (A^d leaf hashes, (A^d − 1)/(A − 1) root hashes
// for a tree of depth d and arity A = ACCLMT_ARITY; each leaf is A elements).
//
// Exits 1 on a wrong root, a stall or an element refused; 2 on a bad command line or vectors
// file, or a tree the built controller does not take.
//
// Usage: Vacclmt_tree <acclmt_tree_vectors.hex> <bytes per cycle> [seed [once]]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "Vacclmt_tree.h"
#include "acclmt_config.h"
#include "verilated.h"
#include "wide.h"

#ifndef ACCLMT_SUBTREE_DEPTH
#error "build with -DACCLMT_SUBTREE_DEPTH=<the controller's SubtreeDepth parameter>"
#endif
#ifndef ACCLMT_MAX_DEPTH
#error "build with -DACCLMT_MAX_DEPTH=<SubtreeDepth + Level0Depth + Level1Depth>"
#endif
#ifndef ACCLMT_MAX_ROUNDS
#error "build with -DACCLMT_MAX_ROUNDS=<the engines' MaxRounds parameter>"
#endif
#ifndef ACCLMT_ARITY
#error "build with -DACCLMT_ARITY=<the controller's Arity parameter>"
#endif

namespace {

using acclmt::kWidth;
using acclmt::kWords;
using acclmt::parse_decimal;
using wide::Word;

constexpr int kTagAddr = 0x8000;
constexpr int kShapeAddr = 0x8001;
constexpr int kArity = ACCLMT_ARITY;
constexpr uint64_t kMaxElements = uint64_t{1} << 19;  // acclmt-tree-vectors' largest tree
constexpr uint64_t kStallCycles = 400000;

// kArity^depth.
uint64_t leaves_of(int depth) {
  uint64_t v = 1;
  for (int i = 0; i < depth; ++i) v *= kArity;
  return v;
}

struct Tree {
  acclmt::EngineConfig config;
  int depth = 0, digest_lane = 0;  // a tree of kArity^depth leaves
  Word tag, root;
  std::vector<Word> elements;
};

// Reads and validates the tree file; false (with a message) on anything malformed.
bool read_tree(const char* path, Tree& tree) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", path);
    return false;
  }
  std::string tok[7];
  unsigned long long head[7];
  const unsigned long long max[7] = {4096, 64, 7, 64, 255, 63, 1};
  for (int i = 0; i < 7; ++i) {
    if (!(in >> tok[i]) || !parse_decimal(tok[i], max[i], head[i])) {
      std::fprintf(stderr, "%s: bad header field %d\n", path, i + 1);
      return false;
    }
  }
  acclmt::EngineConfig& c = tree.config;
  c.lanes = static_cast<int>(head[1]);
  c.alpha = static_cast<int>(head[2]);
  c.full_rounds = static_cast<int>(head[3]);
  c.partial_rounds = static_cast<int>(head[4]);
  tree.depth = static_cast<int>(head[5]);
  tree.digest_lane = static_cast<int>(head[6]);
  // Trees of arity A: the engines' states are [tag, child 0, …, child A − 1].
  if (!acclmt::check_instance(path, c, head[0], kArity + 1, ACCLMT_MAX_ROUNDS)) return false;
  if (c.lanes != kArity + 1) {
    std::fprintf(stderr, "%s: t = %d; this controller's trees have arity %d (t = %d)\n", path,
                 c.lanes, kArity, kArity + 1);
    return false;
  }
  // The deepest tree whose elements (A^(depth + 1)) a file may hold.
  int most = 0;
  for (uint64_t e = kArity * kArity; e <= kMaxElements; e *= kArity) ++most;
  if (most > ACCLMT_MAX_DEPTH) most = ACCLMT_MAX_DEPTH;
  if (tree.depth < ACCLMT_SUBTREE_DEPTH || tree.depth > most) {
    std::fprintf(stderr, "%s: %d^%d leaves; this controller builds %d^%d to %d^%d\n", path,
                 kArity, tree.depth, kArity, ACCLMT_SUBTREE_DEPTH, kArity, most);
    return false;
  }
  auto word = [&](Word& w) { return acclmt::read_word(in, path, w); };
  if (!acclmt::read_config_words(in, path, c)) return false;
  if (!word(tree.tag)) return false;
  tree.elements.resize(static_cast<size_t>(leaves_of(tree.depth)) * kArity);
  for (Word& w : tree.elements) {
    if (!word(w)) return false;
  }
  if (!word(tree.root)) return false;
  std::string extra;
  if (in >> extra) {
    std::fprintf(stderr, "%s: trailing data after the root\n", path);
    return false;
  }
  return true;
}

struct Outcome {
  bool complete = false;
  bool was_reset = false;
  uint64_t cycles = 0;  // first element offered to the root, inclusive
};

class Driver {
 public:
  Driver(Vacclmt_tree& dut, uint64_t seed) : dut_(dut), rng_(seed) {}

  void tick() {
    dut_.clk_i = 0;
    dut_.eval();
    dut_.clk_i = 1;
    dut_.eval();
    ++cycle_;
  }

  void reset() {
    dut_.rst_ni = 0;
    dut_.in_valid_i = 0;
    dut_.cfg_we_i = 0;
    tick();
    tick();
    dut_.rst_ni = 1;
    dut_.eval();
  }

  void write(unsigned addr, const Word& w) {
    dut_.cfg_we_i = 1;
    dut_.cfg_addr_i = static_cast<uint16_t>(addr);
    wide::set_wide(dut_.cfg_data_i, w);
    tick();
    dut_.cfg_we_i = 0;
  }

  void write_shape(int depth, int lane) {
    Word shape(kWords, 0);
    shape[0] = static_cast<uint32_t>(depth | (lane << 8));
    write(kShapeAddr, shape);
  }

  void configure(const Tree& tree) {
    acclmt::write_config(tree.config, [this](unsigned addr, const Word& w) { write(addr, w); });
    write(kTagAddr, tree.tag);
    write_shape(tree.depth, tree.digest_lane);
    tick();  // the multipliers take the modulus
  }

  // A shape the controller refuses: it must say so and take nothing.
  bool refuses(int depth, int lane) {
    write_shape(depth, lane);
    dut_.in_valid_i = 1;
    bool ok = true;
    for (int i = 0; i < 16; ++i) {
      dut_.eval();
      ok = ok && dut_.cfg_error_o && !dut_.in_ready_o;
      tick();
    }
    dut_.in_valid_i = 0;
    return ok;
  }

  // Streams the tree's elements; bytes_per_cycle > 0 paces them, 0 offers them with random
  // gaps; reset_after (cycles, 0 = never) resets the controller then; shape_at (cycles, 0 =
  // never) writes another shape then, which the controller must ignore.
  Outcome stream(const Tree& tree, double bytes_per_cycle, uint64_t reset_after,
                 uint64_t shape_at = 0) {
    Outcome out;
    const size_t n = tree.elements.size();
    size_t fed = 0;
    const uint64_t start = cycle_;
    uint64_t idle = 0, last_lhe = 0, last_rhe = 0;
    while (!dut_.root_valid_o) {
      const uint64_t elapsed = cycle_ - start;
      bool offer = fed < n;
      if (bytes_per_cycle > 0) {
        offer = offer && static_cast<double>(elapsed + 1) * bytes_per_cycle >=
                             static_cast<double>((fed + 1) * (kWidth / 8));
      } else {
        offer = offer && rng_() % 2 == 0;
      }
      dut_.in_valid_i = offer;
      if (offer) {
        wide::set_wide(dut_.in_data_i, tree.elements[fed]);
      } else {
        for (size_t k = 0; k < wide::port_words(dut_.in_data_i); ++k) {
          dut_.in_data_i[k] = static_cast<uint32_t>(rng_());
        }
      }
      if (shape_at != 0 && elapsed == shape_at) {
        Word shape(kWords, 0);
        shape[0] = static_cast<uint32_t>(ACCLMT_SUBTREE_DEPTH);
        dut_.cfg_we_i = 1;
        dut_.cfg_addr_i = kShapeAddr;
        wide::set_wide(dut_.cfg_data_i, shape);
      }
      dut_.eval();
      const bool accepted = offer && dut_.in_ready_o;
      if (accepted) ++fed;
      const bool moved = accepted || dut_.lhe_hashes_o != last_lhe || dut_.rhe_hashes_o != last_rhe;
      last_lhe = dut_.lhe_hashes_o;
      last_rhe = dut_.rhe_hashes_o;
      tick();
      dut_.cfg_we_i = 0;
      if (reset_after != 0 && cycle_ - start == reset_after) {
        reset();
        out.was_reset = true;
        return out;
      }
      idle = moved ? 0 : idle + 1;
      if (idle > kStallCycles) {
        std::fprintf(stderr,
                     "FAIL: no progress for %llu cycles (%zu of %zu elements taken, %u leaf and "
                     "%u root hashes issued)\n",
                     static_cast<unsigned long long>(kStallCycles), fed, n, dut_.lhe_hashes_o,
                     dut_.rhe_hashes_o);
        return out;
      }
    }
    dut_.in_valid_i = 0;
    out.cycles = cycle_ - start;
    if (fed != n) {
      std::fprintf(stderr, "FAIL: the root came after %zu of %zu elements\n", fed, n);
      return out;
    }
    out.complete = true;
    return out;
  }

  bool root_is(const Tree& tree) {
    const Word got = wide::get_wide(dut_.root_o, kWords);
    if (got != tree.root) {
      std::fprintf(stderr, "MISMATCH root\n  want %s\n  got  %s\n", wide::to_hex(tree.root).c_str(),
                   wide::to_hex(got).c_str());
      return false;
    }
    return true;
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  Vacclmt_tree& dut_;
  std::mt19937_64 rng_;
  uint64_t cycle_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 5) {
    std::fprintf(stderr, "usage: %s <acclmt_tree_vectors.hex> <bytes per cycle> [seed [once]]\n",
                 argv[0]);
    return 2;
  }
  const bool once = argc == 5 && std::string(argv[4]) == "once";
  if (argc == 5 && !once) {
    std::fprintf(stderr, "bad fourth argument '%s' (once, or nothing)\n", argv[4]);
    return 2;
  }
  errno = 0;
  char* end = nullptr;
  const double bytes_per_cycle = std::strtod(argv[2], &end);
  if (errno != 0 || end == argv[2] || *end != '\0' || !std::isfinite(bytes_per_cycle) ||
      bytes_per_cycle < 0.01 || bytes_per_cycle > 1024) {
    std::fprintf(stderr, "bad bandwidth '%s' (bytes per cycle, 0.01 to 1024)\n", argv[2]);
    return 2;
  }
  uint64_t seed = 1;
  if (!bench::parse_seed(argc, argv, 3, seed)) return 2;
  Tree tree;
  if (!read_tree(argv[1], tree)) return 2;

  Verilated::commandArgs(argc, argv);
  Vacclmt_tree dut;
  Driver unit(dut, seed);
  unit.reset();
  unit.configure(tree);

  // 0. Shapes the controller does not build.
  if (!unit.refuses(ACCLMT_SUBTREE_DEPTH - 1, tree.digest_lane) ||
      !unit.refuses(ACCLMT_MAX_DEPTH + 1, tree.digest_lane) || !unit.refuses(255, tree.digest_lane)) {
    std::fprintf(stderr, "FAIL: a tree size outside the controller's range was not refused\n");
    return 1;
  }
  unit.write_shape(tree.depth, tree.digest_lane);
  if (dut.cfg_error_o) {
    std::fprintf(stderr, "FAIL: cfg_error_o for a tree of %d^%d leaves\n", kArity, tree.depth);
    return 1;
  }

  // 1. At the stated bandwidth.
  const Outcome paced = unit.stream(tree, bytes_per_cycle, 0);
  if (!paced.complete || !unit.root_is(tree)) {
    std::fprintf(stderr, "FAIL: at %.3f bytes per cycle\n", bytes_per_cycle);
    return 1;
  }
  const unsigned lhe = dut.lhe_hashes_o, rhe = dut.rhe_hashes_o;
  const uint64_t leaves = leaves_of(tree.depth);
  if (lhe != leaves || rhe != (leaves - 1) / (kArity - 1)) {
    std::fprintf(stderr, "FAIL: %u leaf and %u root hashes for %d^%d leaves\n", lhe, rhe, kArity,
                 tree.depth);
    return 1;
  }

  if (once) {
    std::printf("acclmt_tree %d^%d leaves (alpha=%d R_F=%d R_P=%d): root = zkaccel-merkle's at "
                "%.3f bytes/cycle; RESULT cycles=%llu lhe_hashes=%u rhe_hashes=%u\n",
                kArity, tree.depth, tree.config.alpha, tree.config.full_rounds, tree.config.partial_rounds,
                bytes_per_cycle, static_cast<unsigned long long>(paced.cycles), lhe, rhe);
    return 0;
  }

  // 2. A reset part-way, then the stream again with random gaps.
  unit.reset();
  const uint64_t at = 1 + unit.rng()() % (paced.cycles / 2);
  if (!unit.stream(tree, bytes_per_cycle, at).was_reset) {
    std::fprintf(stderr, "FAIL: the tree was built before its reset\n");
    return 1;
  }
  const Outcome again = unit.stream(tree, 0, 0);
  if (!again.complete || !unit.root_is(tree) || dut.lhe_hashes_o != lhe ||
      dut.rhe_hashes_o != rhe) {
    std::fprintf(stderr, "FAIL: after a reset, with random gaps\n");
    return 1;
  }

  // 3. The next tree, without a reset. The cycle after the shape's write clears the state: an
  //    element offered then must not be taken (it would be lost).
  unit.write_shape(tree.depth, tree.digest_lane);
  dut.in_valid_i = 1;
  dut.eval();
  if (dut.in_ready_o) {
    std::fprintf(stderr, "FAIL: an element was taken while the controller cleared its state\n");
    return 1;
  }
  dut.in_valid_i = 0;
  const Outcome next = unit.stream(tree, bytes_per_cycle, 0, 1 + paced.cycles / 3);
  if (!next.complete || !unit.root_is(tree) || dut.lhe_hashes_o != lhe ||
      dut.rhe_hashes_o != rhe || next.cycles != paced.cycles) {
    std::fprintf(stderr,
                 "FAIL: the next tree without a reset (%llu cycles, the first took %llu; %u leaf "
                 "and %u root hashes)\n",
                 static_cast<unsigned long long>(next.cycles),
                 static_cast<unsigned long long>(paced.cycles), dut.lhe_hashes_o,
                 dut.rhe_hashes_o);
    return 1;
  }

  std::printf("acclmt_tree %d^%d leaves (alpha=%d R_F=%d R_P=%d): root = zkaccel-merkle's at "
              "%.3f bytes/cycle, after a reset mid-flight, with random input gaps, and as the "
              "next tree without a reset; "
              "RESULT cycles=%llu lhe_hashes=%u rhe_hashes=%u gapped_cycles=%llu\n",
              kArity, tree.depth, tree.config.alpha, tree.config.full_rounds,
              tree.config.partial_rounds, bytes_per_cycle,
              static_cast<unsigned long long>(paced.cycles), lhe, rhe,
              static_cast<unsigned long long>(again.cycles));
  return 0;
}
