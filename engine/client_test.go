package engine

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"stax/engine/internal/enginetest"
	"stax/game"
	"stax/games"
)

// progs holds the programs built by TestMain.
var progs enginetest.Programs

func TestMain(m *testing.M) {
	enginetest.Main(m, &progs, true)
}

// startClient starts argv on a fake clock that nobody advances: no wait
// for an answer times out, however slow the machine.
func startClient(t *testing.T, argv ...string) *Client {
	t.Helper()
	return startClientOn(t, enginetest.NewClock(), argv...)
}

// startClientOn starts argv with the clock given.
func startClientOn(t *testing.T, clock Clock, argv ...string) *Client {
	t.Helper()
	c, err := StartWithClock(argv, 5*time.Second, clock)
	if err != nil {
		t.Fatalf("Start(%q): %v", argv, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// within runs f and returns its error, failing the test if f has not
// returned within a minute: a bound for the code under test waiting on an
// event (never for measuring it), whose fake clock does not move.
func within(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatalf("%s has not returned after a minute", what)
		return nil
	}
}

// TestSubprocessGames drives stax engine as a subprocess through whole
// games of every game, 4-player Diam included, checking every bestmove
// against the rules.
func TestSubprocessGames(t *testing.T) {
	c := startClient(t, progs.Stax, "engine", "--level", "random")
	if c.Name != "stax" || c.Author == "" || len(c.Options) < 3 {
		t.Errorf("handshake: name %q author %q options %q", c.Name, c.Author, c.Options)
	}
	for _, spec := range loadable(t) {
		t.Run(spec, func(t *testing.T) {
			g, _ := games.Load(spec)
			h := game.NewHistory(g, nil)
			newgame := spec
			for !h.Over() {
				if err := c.Setup(newgame, nil, "startpos", h.Notation(), 5*time.Second); err != nil {
					t.Fatalf("ply %d: setup: %v", h.Ply(), err)
				}
				newgame = ""
				res, err := c.Go("movetime 5", 5*time.Second)
				if err != nil {
					t.Fatalf("ply %d: go: %v", h.Ply(), err)
				}
				if err := h.Play(res.Move); err != nil {
					t.Fatalf("ply %d: bestmove %q: %v", h.Ply(), res.Move, err)
				}
			}
			if err := c.Setup("", nil, "startpos", h.Notation(), 5*time.Second); err != nil {
				t.Fatal(err)
			}
			if res, err := c.Go("", 5*time.Second); err != nil || res.Move != "none" {
				t.Errorf("go after the end = %q, %v; want none", res.Move, err)
			}
			t.Logf("%s: %d plies, %s", spec, h.Ply(), h.Outcome().Describe(g))
		})
	}
}

// TestSubprocessLevels plays one move at each named level through a
// subprocess, from a position string with a move list.
func TestSubprocessLevels(t *testing.T) {
	c := startClient(t, progs.Stax, "engine")
	for i, level := range []string{"beginner", "easy", "medium", "hard", "strongest", "greedy"} {
		spec := []string{"pogo", "diam(players=4)"}[i%2]
		pos := map[string]string{"pogo": "bb,bb,bb/-,-,-/ww,ww,ww w", "diam(players=4)": "r/-/-/-/-/-/-/- 2"}[spec]
		opts := map[string]string{"level": level}
		if err := c.Setup(spec, opts, pos, nil, 5*time.Second); err != nil {
			t.Fatalf("%s: %v", level, err)
		}
		res, err := c.Go("movetime 50", 5*time.Second)
		if err != nil {
			t.Fatalf("%s: %v", level, err)
		}
		g, _ := games.Load(spec)
		s, _ := g.ParseState(pos)
		if _, err := s.ParseMove(res.Move); err != nil {
			t.Errorf("%s: bestmove %q: %v", level, res.Move, err)
		}
	}
}

func TestSetupRefused(t *testing.T) {
	c := startClient(t, progs.Stax, "engine")
	err := c.Setup("chess", nil, "startpos", nil, 5*time.Second)
	var f *Fault
	if !errors.As(err, &f) || f.Kind != Refused || !strings.Contains(f.Detail, "unknown game") {
		t.Errorf("Setup(chess) = %v; want an engine error naming the unknown game", err)
	}
}

// TestClientFaults checks that each misbehaviour of an engine is reported
// as its kind of Fault: a crash or garbage as soon as it happens (the
// fake clock does not move), a hang when the clock passes the deadline.
func TestClientFaults(t *testing.T) {
	tests := []struct {
		mode    string
		kind    FaultKind
		detail  string
		advance time.Duration // the fake clock's move once Go waits
	}{
		{"crash", Crashed, "simulated crash", 0},
		{"hang", TimedOut, "no bestmove within 300ms", 300 * time.Millisecond},
		{"garbage", Garbled, "I am a chess engine", 0},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			clock := enginetest.NewClock()
			c := startClientOn(t, clock, progs.Bad, "-mode", tc.mode)
			if err := c.Setup("pogo", nil, "startpos", nil, 5*time.Second); err != nil {
				t.Fatal(err)
			}
			if tc.advance > 0 {
				go clock.AdvanceWhenPending(t, tc.advance)
			}
			var res Search
			err := within(t, "Go", func() (err error) {
				res, err = c.Go("movetime 10", 300*time.Millisecond)
				return err
			})
			var f *Fault
			if !errors.As(err, &f) || f.Kind != tc.kind || !strings.Contains(f.Detail, tc.detail) {
				t.Fatalf("Go = %q, %v; want a %v fault mentioning %q", res.Move, err, tc.kind, tc.detail)
			}
			if err := c.Kill(); err != nil {
				t.Error(err)
			}
			if c.Alive() {
				t.Error("the engine is still running after Kill")
			}
		})
	}
	t.Run("illegal", func(t *testing.T) {
		c := startClient(t, progs.Bad, "-mode", "illegal", "-after", "1")
		if err := c.Setup("pogo", nil, "startpos", nil, 5*time.Second); err != nil {
			t.Fatal(err)
		}
		for i, want := range []bool{true, false} {
			res, err := c.Go("movetime 10", time.Second)
			if err != nil {
				t.Fatal(err)
			}
			legal := slices.Contains(legalMoves(t, "pogo"), res.Move)
			if legal != want {
				t.Errorf("go %d: bestmove %q legal %v; want %v", i+1, res.Move, legal, want)
			}
		}
	})
	t.Run("silent", func(t *testing.T) {
		clock := enginetest.NewClock()
		go clock.AdvanceWhenPending(t, 300*time.Millisecond)
		_, err := StartWithClock([]string{progs.Bad, "-mode", "silent"}, 300*time.Millisecond, clock)
		var f *Fault
		if !errors.As(err, &f) || f.Kind != TimedOut || !strings.Contains(f.Detail, "no staxok") {
			t.Errorf("Start = %v; want a time fault for the missing staxok", err)
		}
	})
	t.Run("missing program", func(t *testing.T) {
		_, err := Start([]string{"/nonexistent/engine"}, time.Second)
		var f *Fault
		if !errors.As(err, &f) || f.Kind != Crashed || !strings.Contains(f.Detail, "cannot start") {
			t.Errorf("Start = %v; want a crash fault saying it cannot start", err)
		}
	})
	t.Run("exits at once", func(t *testing.T) {
		_, err := Start([]string{"/bin/sh", "-c", "echo oops >&2; exit 4"}, time.Second)
		var f *Fault
		if !errors.As(err, &f) || f.Kind != Crashed || !strings.Contains(f.Detail, "exit status 4") || !strings.Contains(f.Detail, "oops") {
			t.Errorf("Start = %v; want a crash fault with the exit status and stderr", err)
		}
	})
}

// legalMoves returns the legal moves at the start of spec, in notation.
func legalMoves(t *testing.T, spec string) []string {
	g, err := games.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	s := g.Start()
	var out []string
	for _, m := range s.Legal(nil) {
		out = append(out, s.FormatMove(m))
	}
	return out
}

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  bool
	}{
		{"stax engine", []string{"stax", "engine"}, false},
		{"  ./my engine  --level 3 ", []string{"./my", "engine", "--level", "3"}, false},
		{`"/path with space/eng" -x 'a b' c\ d`, []string{"/path with space/eng", "-x", "a b", "c d"}, false},
		{`a "" b`, []string{"a", "", "b"}, false},
		{`'unclosed`, nil, true},
		{`trailing\`, nil, true},
		{"   ", nil, true},
	}
	for _, tc := range tests {
		got, err := SplitCommand(tc.in)
		if (err != nil) != tc.err || !slices.Equal(got, tc.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q, error %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

// TestKillScript checks that killing a script engine also ends the
// processes it started, which hold its output open.
func TestKillScript(t *testing.T) {
	script := `read line; echo staxok; sleep 60; echo late`
	clock := enginetest.NewClock()
	c, err := StartWithClock([]string{"/bin/sh", "-c", script}, 5*time.Second, clock)
	if err != nil {
		t.Fatal(err)
	}
	go clock.AdvanceWhenPending(t, 200*time.Millisecond)
	if _, err := c.Go("", 200*time.Millisecond); err == nil {
		t.Fatal("a sleeping script answered go")
	}
	// Kill returns long before the script's sleep 60 would end.
	if err := killWithin(c, 20*time.Second); err != nil {
		t.Fatal(err)
	}
}

// killWithin kills c and returns Kill's error, or an error if Kill has not
// returned after limit: a limit that only a Kill waiting for the engine's
// own end would reach, however loaded the machine.
func killWithin(c *Client, limit time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- c.Kill() }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		return fmt.Errorf("Kill had not returned after %v; want it not to wait for the engine", limit)
	}
}

// TestFloodAfterGo checks that an engine that keeps printing after the
// client stopped reading (here, after a time fault) neither blocks the
// client's reader nor outlives Kill: Kill returns at once, the process is
// reaped and no goroutine is left behind.
func TestFloodAfterGo(t *testing.T) {
	before := runtime.NumGoroutine()
	clock := enginetest.NewClock()
	c, err := StartWithClock([]string{progs.Bad, "-mode", "flood"}, 5*time.Second, clock)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Setup("pogo", nil, "startpos", nil, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	go clock.AdvanceWhenPending(t, 200*time.Millisecond)
	_, err = c.Go("movetime 10", 200*time.Millisecond)
	var f *Fault
	if !errors.As(err, &f) || f.Kind != TimedOut {
		t.Fatalf("Go = %v; want a time fault", err)
	}
	// Let the output fill the client's buffer while nobody reads.
	for deadline := time.Now().Add(5 * time.Second); len(c.lines) < cap(c.lines); {
		if time.Now().After(deadline) {
			t.Fatalf("the flood filled %d of %d buffered lines", len(c.lines), cap(c.lines))
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The flood never ends by itself: Kill returns all the same.
	if err := killWithin(c, 20*time.Second); err != nil {
		t.Fatalf("Kill: %v", err)
	}
	if c.cmd.ProcessState == nil {
		t.Error("the engine process was not reaped")
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close after Kill: %v", err)
	}
	checkNoLeak(t, before, "Kill")
}

// checkNoLeak waits up to 5 s for the number of goroutines to fall back to
// before, and reports the stacks of those left over after what.
func checkNoLeak(t *testing.T, before int, what string) {
	t.Helper()
	var after int
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if after = runtime.NumGoroutine(); after <= before || time.Now().After(deadline) {
			break
		}
	}
	if after > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines after %s, %d before:\n%s", after, what, before, buf[:runtime.Stack(buf, true)])
	}
}

// TestReadyWhilePreparing checks that the info lines of an engine that
// prepares at isready keep the client waiting past its timeout, while a
// silent one times out. The scripts print each line when the test says
// ("next" on their input), and the test moves the fake clock by 200ms
// between lines: 1.2s in all against a timeout of 300ms.
func TestReadyWhilePreparing(t *testing.T) {
	script := `read line; echo staxok; read line; for i in 1 2 3 4 5 6; do read next; echo "info string preparing"; done; read next; echo readyok; read line`
	clock := enginetest.NewClock()
	c, err := StartWithClock([]string{"/bin/sh", "-c", script}, 5*time.Second, clock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Kill()
	started := clock.Started()
	done := make(chan error, 1)
	go func() { done <- c.Ready(300 * time.Millisecond) }()
	for range 7 {
		// Each line read, the client waits anew.
		clock.WaitStarted(t, started+1)
		started = clock.Started()
		clock.Advance(200 * time.Millisecond)
		if err := c.Send("next"); err != nil {
			t.Fatal(err)
		}
	}
	if err := within(t, "Ready", func() error { return <-done }); err != nil {
		t.Errorf("Ready with an info line every 200ms over 1.2s, timeout 300ms: %v", err)
	}

	silent := `read line; echo staxok; read line; read next; echo readyok; read line`
	c2, err := StartWithClock([]string{"/bin/sh", "-c", silent}, 5*time.Second, clock)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Kill()
	go clock.AdvanceWhenPending(t, 300*time.Millisecond)
	var f *Fault
	if err := within(t, "Ready", func() error { return c2.Ready(300 * time.Millisecond) }); !errors.As(err, &f) || f.Kind != TimedOut {
		t.Errorf("Ready of a silent engine = %v; want a time fault", err)
	}
}

// TestGoStop checks that GoStop stops a search that is still running at
// its stop time and takes the bestmove that follows, and that an engine
// that ignores stop is a time fault at the deadline.
func TestGoStop(t *testing.T) {
	t.Run("stopped in time", func(t *testing.T) {
		clock := enginetest.NewClock()
		c := startClientOn(t, clock, progs.Stax, "engine", "--level", "strongest")
		if err := c.Setup("pisola", nil, "startpos", nil, 5*time.Second); err != nil {
			t.Fatal(err)
		}
		// go infinite searches until stop: only the stop ends it.
		go clock.AdvanceWhenPending(t, 200*time.Millisecond)
		var res Search
		err := within(t, "GoStop", func() (err error) {
			res, err = c.GoStop("infinite", 200*time.Millisecond, time.Second)
			return err
		})
		if err != nil || !slices.Contains(legalMoves(t, "pisola"), res.Move) {
			t.Fatalf("GoStop(infinite) = %q, %v; want a legal move after the stop", res.Move, err)
		}
		// The session goes on: the next go is answered as usual.
		if res, err := c.Go("movetime 10", 5*time.Second); err != nil || res.Move == "" {
			t.Errorf("go after the stopped search = %q, %v", res.Move, err)
		}
	})
	t.Run("stop ignored", func(t *testing.T) {
		clock := enginetest.NewClock()
		c := startClientOn(t, clock, progs.Bad, "-mode", "hang")
		if err := c.Setup("pogo", nil, "startpos", nil, 5*time.Second); err != nil {
			t.Fatal(err)
		}
		go func() {
			clock.WaitPending(t, 1)
			n := clock.Started()
			clock.Advance(200 * time.Millisecond)
			// The second wait, after the stop, runs to the deadline.
			clock.WaitStarted(t, n+1)
			clock.Advance(100 * time.Millisecond)
		}()
		err := within(t, "GoStop", func() error {
			_, err := c.GoStop("movetime 10", 200*time.Millisecond, 300*time.Millisecond)
			return err
		})
		var f *Fault
		if !errors.As(err, &f) || f.Kind != TimedOut || !strings.Contains(f.Detail, "no bestmove within 300ms") {
			t.Errorf("GoStop = %v; want a time fault at the deadline", err)
		}
	})
}
