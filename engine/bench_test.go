package engine

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
)

// BenchmarkRoundTrip measures one position and go command answered by the
// random level through the protocol, in-process: the protocol's own cost
// per move.
func BenchmarkRoundTrip(b *testing.B) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		NewServer(testConfig()).Run(context.Background(), inR, outW)
		outW.Close()
	}()
	sc := bufio.NewScanner(outR)
	io.WriteString(inW, "newgame diam(players=4)\n")
	cmd := "position startpos moves r@1 g@5 y@3 b@7\ngo\n"
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		io.WriteString(inW, cmd)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "bestmove") {
				break
			}
		}
	}
	b.StopTimer()
	inW.Close()
}
