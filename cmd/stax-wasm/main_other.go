//go:build !(js && wasm)

package main

import (
	"bufio"
	"fmt"
	"os"
)

// main answers the requests of standard input, one JSON object a line,
// with one JSON answer a line on standard output: the engine as the
// browser runs it, natively, for comparing speeds and for scripts.
func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	for in.Scan() {
		if len(in.Bytes()) == 0 {
			continue
		}
		os.Stdout.Write(append(HandleJSON(in.Bytes()), '\n'))
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "stax-wasm: reading the requests:", err)
		os.Exit(1)
	}
}
