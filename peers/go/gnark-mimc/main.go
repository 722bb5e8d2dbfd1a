// Command gnark-mimc times gnark-crypto's MiMC over BN254 Fr (x^5, 110 rounds) as a dependent
// chain of one-element Miyaguchi–Preneel hashes (each output is the next input), the same
// chain zkaccel's `mimc_chain gnark` example runs. Usage: gnark-mimc [ROUNDS] [HASHES] [X0].
// The last line is machine readable:
// `chain gnark-crypto best_us=… median_us=… last=<decimal>`.
package main

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"syscall"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr/mimc"
)

func positive(args []string, i, def int) int {
	if len(args) <= i {
		return def
	}
	n, err := strconv.Atoi(args[i])
	if err != nil || n <= 0 {
		fmt.Fprintf(os.Stderr, "argument %d: a positive integer\n", i+1)
		os.Exit(2)
	}
	return n
}

// threadCPU is the calling thread's CPU time in nanoseconds (RUSAGE_THREAD, Linux), so that
// a busy machine's other work is not counted, as on the zkaccel side.
func threadCPU() int64 {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		fmt.Fprintf(os.Stderr, "getrusage: %v\n", err)
		os.Exit(1)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func main() {
	args := os.Args[1:]
	rounds := positive(args, 0, 15)
	hashes := positive(args, 1, 2000)
	var x0 fr.Element
	x0.SetOne()
	if len(args) > 2 {
		if _, err := x0.SetString(args[2]); err != nil {
			fmt.Fprintf(os.Stderr, "X0: %v\n", err)
			os.Exit(2)
		}
	}
	runtime.LockOSThread()
	h := mimc.NewFieldHasher()
	one := make([]fr.Element, 1)
	chain := func() fr.Element {
		x := x0
		for i := 0; i < hashes; i++ {
			h.Reset()
			one[0] = x
			x = h.SumElements(one)
		}
		return x
	}
	last := chain()
	samples := make([]float64, rounds)
	for r := range samples {
		start := threadCPU()
		chain()
		samples[r] = float64(threadCPU()-start) / 1e3 / float64(hashes)
	}
	sort.Float64s(samples)
	best, median := samples[0], samples[len(samples)/2]
	fmt.Printf("gnark-crypto MiMC BN254 (x^5, 110 rounds): %d rounds of %d chained one-element hashes, thread CPU time\n", rounds, hashes)
	fmt.Printf("  hash: best %.2f µs, median %.2f µs\n", best, median)
	fmt.Printf("chain gnark-crypto best_us=%.4f median_us=%.4f last=%s\n", best, median, last.String())
}
