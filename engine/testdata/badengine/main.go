// Command badengine speaks the stax engine protocol like stax engine at the
// random level, until its fault: from the go command numbered -after + 1
// (counted from 1 in each process) it crashes, hangs, answers an illegal
// move, prints garbage or floods its output with info lines. The engine
// tests use it to check that matches survive misbehaving engines. With
// -signal it tells a test, over TCP, when it starts to hang, so that the
// test can then move its fake clock past the deadline.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"stax/ai"
	"stax/engine"
	"stax/games"
)

// lockedWriter serialises the writes of the server and of the faults.
type lockedWriter struct {
	mu sync.Mutex // guards w
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func main() {
	mode := flag.String("mode", "crash", "the fault: crash, hang, illegal, garbage, flood (info lines without end), silent (never finishes the handshake) or none")
	after := flag.Int("after", 0, "the number of go commands answered properly first")
	signal := flag.String("signal", "", "with -mode hang, the TCP address to which it writes a line when it starts to hang")
	flag.Parse()

	out := &lockedWriter{w: os.Stdout}
	pr, pw := io.Pipe()
	srv := engine.NewServer(engine.Config{
		Name: "badengine-" + *mode, Registry: games.All(),
		NewPlayer: ai.New, Levels: ai.Levels, Level: "random",
	})
	done := make(chan struct{})
	go func() {
		srv.Run(context.Background(), pr, out)
		close(done)
	}()
	sc := bufio.NewScanner(os.Stdin)
	gos := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "stax" && *mode == "silent" {
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), "go") {
			gos++
			if gos > *after {
				switch *mode {
				case "crash":
					fmt.Fprintln(os.Stderr, "badengine: simulated crash")
					os.Exit(3)
				case "hang":
					if *signal != "" {
						if conn, err := net.Dial("tcp", *signal); err == nil {
							fmt.Fprintln(conn, "hang")
							conn.Close()
						}
					}
					for {
						time.Sleep(time.Hour)
					}
				case "illegal":
					fmt.Fprintln(out, "bestmove 1a1-c3")
					continue
				case "garbage":
					fmt.Fprintln(out, "Hello! I am a chess engine. e2e4?")
					continue
				case "flood":
					for i := 0; ; i++ {
						if _, err := fmt.Fprintf(out, "info depth 1 nodes %d score cp 0 pv 1a1-b1\n", i); err != nil {
							os.Exit(4)
						}
					}
				}
			}
		}
		fmt.Fprintln(pw, line)
	}
	pw.Close()
	<-done
}
