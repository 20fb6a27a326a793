// Command synth writes N synthetic signals as JSON Lines in the import
// format, for benchmarks and load tests:
//
//	go run ./tools/synth -n 100000 > signals.jsonl
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"signals/internal/demo"
)

func main() {
	n := flag.Int("n", 100_000, "how many signals")
	seed := flag.Int64("seed", 1, "random seed (the same seed writes the same signals)")
	flag.Parse()
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	if err := demo.WriteSynthetic(w, *n, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "synth:", err)
		os.Exit(1)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "synth:", err)
		os.Exit(1)
	}
}
