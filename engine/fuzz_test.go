package engine

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// FuzzServer feeds arbitrary command lines to a server, after a game and
// position are set, and checks that it neither panics nor stops answering.
func FuzzServer(f *testing.F) {
	seeds := []string{
		"go movetime 1",                          // a search
		"position startpos moves 1a1-a2 1a3-b3",  // a move list
		"position pos bb,bb,bb/-,-,-/ww,ww,ww w", // a position string
		"position pos",                           // a missing position string
		"setoption name level value hard",        // an option
		"setoption name value value",             // a confusing option
		"newgame diam(players=4)",                // another game
		"newgame diam(players=4",                 // a broken spec
		"go depth 99999999999999999999",          // an overflowing number
		"go infinite",                            // a search stopped by the end of input
		"\x00\xff stax",                          // binary junk
		"legal",                                  // the legal moves
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		in := "newgame pogo\nposition startpos\n" + strings.ReplaceAll(cmd, "\r", "\n") + "\nisready\n"
		done := make(chan error, 1)
		var out strings.Builder
		go func() {
			done <- NewServer(testConfig()).Run(context.Background(), strings.NewReader(in), &lockedBuilder{b: &out})
		}()
		select {
		case err := <-done:
			if err != nil && err != io.EOF {
				t.Logf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("server stuck on %q", cmd)
		}
	})
}

// lockedBuilder is a writer for FuzzServer; the server serialises its
// writes itself.
type lockedBuilder struct{ b *strings.Builder }

func (l *lockedBuilder) Write(p []byte) (int, error) { return l.b.Write(p) }

// FuzzSplitCommand checks that SplitCommand never panics and that its
// words, quoted back, split to the same words.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{"stax engine", `"a b" 'c d' e\ f`, `'`, `\`, "\t x \t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := SplitCommand(s)
		if err != nil {
			return
		}
		var q []string
		for _, w := range words {
			q = append(q, "'"+strings.ReplaceAll(w, "'", `'\''`)+"'")
		}
		again, err := SplitCommand(strings.Join(q, " "))
		if err != nil || strings.Join(again, "\x00") != strings.Join(words, "\x00") {
			t.Errorf("SplitCommand(%q) = %q; quoted back it splits to %q, %v", s, words, again, err)
		}
	})
}
