package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"stax/game"
	"stax/search"
)

// CheckConfig describes a conformance check of an external engine.
type CheckConfig struct {
	// Command is the engine's program and arguments.
	Command []string
	// Registry loads the games of Specs.
	Registry game.Registry
	// Specs are the variants the engine is taken through, one scripted
	// session each.
	Specs []string
	// MoveTime is the movetime of each go (default 50 ms).
	MoveTime time.Duration
	// MaxPlies bounds each game played (default 60 plies).
	MaxPlies int
	// Log, when not nil, receives every line sent (">") and received
	// ("<").
	Log io.Writer
	// Clock measures the engine's answers against their deadlines
	// (default SystemClock; tests of a well-behaved engine pass a fake one
	// that never moves, so that a slow machine is not taken for a slow
	// engine).
	Clock Clock
}

// CheckReport is the result of a check: every violation of the protocol
// found, and notes (variants the engine declined, which the protocol
// allows).
type CheckReport struct {
	Violations []string
	Notes      []string
	Games      int // games played to their end or to MaxPlies
}

// handshakeWait and answerWait bound the engine's answers to stax and to
// isready, as stax match does.
const (
	handshakeWait = 10 * time.Second
	answerWait    = 5 * time.Second
)

// checker drives the engine process of a check.
type checker struct {
	cfg   CheckConfig
	rep   *CheckReport
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
	spec  string // the variant being checked, for the messages
}

// Check runs an engine through a scripted session of every variant of
// cfg.Specs and reports every protocol violation: the handshake, isready,
// newgame and position answered as the protocol says, well-formed info
// lines, a legal bestmove within the movetime for every position of a
// whole game (the engine plays every seat), bestmove none after the end,
// exactly one error line for an illegal move, stop ending go infinite,
// and quit ending the process. It returns an error only when the engine
// cannot be started.
func Check(ctx context.Context, cfg CheckConfig) (*CheckReport, error) {
	if cfg.MoveTime <= 0 {
		cfg.MoveTime = 50 * time.Millisecond
	}
	if cfg.MaxPlies <= 0 {
		cfg.MaxPlies = 60
	}
	if cfg.Clock == nil {
		cfg.Clock = SystemClock
	}
	if len(cfg.Command) == 0 {
		return nil, fmt.Errorf("engine-check: empty command")
	}
	c := &checker{cfg: cfg, rep: &CheckReport{}, lines: make(chan string, 256)}
	c.cmd = exec.CommandContext(ctx, cfg.Command[0], cfg.Command[1:]...)
	stdin, stdout, err := startProcess(c.cmd)
	if err != nil {
		return nil, err
	}
	c.stdin = stdin
	exited := make(chan struct{})
	stop := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64*1024), maxLine)
	read:
		for sc.Scan() {
			select {
			case c.lines <- sc.Text():
			case <-stop:
				break read
			}
		}
		close(c.lines)
		io.Copy(io.Discard, stdout)
		c.cmd.Wait()
		close(exited)
	}()
	defer func() {
		close(stop)
		c.cmd.Process.Kill()
		<-exited
	}()

	if c.handshake() {
		for _, spec := range cfg.Specs {
			c.spec = spec
			if !c.session(spec) {
				break
			}
		}
		c.spec = ""
		c.send("quit")
		c.stdin.Close()
		select {
		case <-exited:
		case <-time.After(2 * time.Second):
			c.violation("quit", "the process was still running 2 s after quit")
		}
	}
	return c.rep, nil
}

// maxViolations stops a check: an engine that floods its output with bad
// lines would otherwise be reported without end.
const maxViolations = 40

func (c *checker) violation(step, format string, args ...any) {
	if len(c.rep.Violations) >= maxViolations {
		return
	}
	if len(c.rep.Violations) == maxViolations-1 {
		c.rep.Violations = append(c.rep.Violations, fmt.Sprintf("%d violations: the check stops here", maxViolations))
		return
	}
	where := step
	if c.spec != "" {
		where = c.spec + ": " + step
	}
	v := where + ": " + fmt.Sprintf(format, args...)
	if slices.Contains(c.rep.Violations, v) {
		return // the same fault again: reported once
	}
	c.rep.Violations = append(c.rep.Violations, v)
}

func (c *checker) send(line string) bool {
	if c.cfg.Log != nil {
		fmt.Fprintf(c.cfg.Log, "> %s\n", line)
	}
	_, err := io.WriteString(c.stdin, line+"\n")
	return err == nil
}

// next returns the next line within wait; ok is false when the engine
// did not answer in time or its output ended.
func (c *checker) next(wait time.Duration) (line string, ok bool, ended bool) {
	if wait <= 0 || len(c.rep.Violations) >= maxViolations {
		return "", false, false
	}
	timeUp, stop := c.cfg.Clock.After(wait)
	defer stop()
	select {
	case l, open := <-c.lines:
		if !open {
			return "", false, true
		}
		if c.cfg.Log != nil {
			fmt.Fprintf(c.cfg.Log, "< %s\n", l)
		}
		return l, true, false
	case <-timeUp:
		return "", false, false
	}
}

// handshake checks stax ... staxok and isready; it reports whether the
// engine can be checked further.
func (c *checker) handshake() bool {
	c.send("stax")
	deadline := c.cfg.Clock.Now().Add(handshakeWait)
	for {
		l, ok, ended := c.next(deadline.Sub(c.cfg.Clock.Now()))
		switch {
		case ended:
			c.violation("stax", "the engine's output ended before staxok (did it exit?)")
			return false
		case !ok:
			c.violation("stax", "no staxok within %v", handshakeWait)
			return false
		}
		kw, rest, _ := strings.Cut(l, " ")
		switch kw {
		case "staxok":
			return c.ready("stax")
		case "id":
			if k, _, _ := strings.Cut(rest, " "); k != "name" && k != "author" {
				c.violation("stax", "id line %q: want id name <name> or id author <author>", l)
			}
		case "option":
			if err := checkOption(rest); err != nil {
				c.violation("stax", "option line %q: %v", l, err)
			}
		case "info":
			c.checkInfo("stax", rest, nil)
		default:
			c.violation("stax", "unexpected line %q during the handshake", l)
		}
	}
}

// checkOption checks the words after option: name N type T default V.
func checkOption(rest string) error {
	f := strings.Fields(rest)
	if len(f) < 4 || f[0] != "name" {
		return fmt.Errorf("want name <N> type <combo|spin|string|check|button> ...")
	}
	i := slices.Index(f, "type")
	if i < 2 || i+1 >= len(f) {
		return fmt.Errorf("missing type")
	}
	switch f[i+1] {
	case "combo", "spin", "string", "check", "button":
	default:
		return fmt.Errorf("type %q: want combo, spin, string, check or button", f[i+1])
	}
	return nil
}

// ready sends isready and checks that readyok comes, with nothing but
// info lines before it; it returns the error lines seen (for commands
// that may be refused) through errs, and whether the engine answered.
func (c *checker) ready(step string) bool {
	_, ok := c.readyErrors(step)
	return ok
}

func (c *checker) readyErrors(step string) (errs []string, ok bool) {
	c.send("isready")
	deadline := c.cfg.Clock.Now().Add(answerWait)
	for {
		l, ok, ended := c.next(deadline.Sub(c.cfg.Clock.Now()))
		switch {
		case ended:
			c.violation(step, "the engine's output ended (did it crash?)")
			return errs, false
		case !ok:
			c.violation(step, "no readyok within %v after isready", answerWait)
			return errs, false
		}
		kw, rest, _ := strings.Cut(l, " ")
		switch kw {
		case "readyok":
			return errs, true
		case "error":
			errs = append(errs, rest)
		case "info":
			c.checkInfo(step, rest, nil)
		default:
			c.violation(step, "unexpected line %q before readyok", l)
		}
	}
}

// session takes the engine through one variant; it reports whether the
// engine is still fit to go on.
func (c *checker) session(spec string) bool {
	g, err := c.cfg.Registry.Load(spec)
	if err != nil {
		c.rep.Notes = append(c.rep.Notes, fmt.Sprintf("%s: not checked: %v", spec, err))
		return true
	}
	c.send("newgame " + spec)
	c.send("position startpos")
	errs, ok := c.readyErrors("newgame")
	if !ok {
		return false
	}
	if len(errs) > 0 {
		c.rep.Notes = append(c.rep.Notes, fmt.Sprintf("%s: declined (%s); not checked", spec, errs[0]))
		return true
	}

	// A whole game, the engine playing every seat.
	h := game.NewHistory(g, nil)
	for !h.Over() && h.Ply() < c.cfg.MaxPlies {
		line := "position startpos"
		if h.Ply() > 0 {
			line += " moves " + strings.Join(h.Notation(), " ")
		}
		c.send(line)
		move, ok := c.goMove(fmt.Sprintf("go movetime %d", c.cfg.MoveTime.Milliseconds()), h.State(), c.cfg.MoveTime)
		if !ok {
			return false
		}
		if move == "" {
			return true // reported
		}
		if err := h.Play(move); err != nil {
			c.violation(fmt.Sprintf("move %d", h.Ply()+1), "bestmove %s is illegal: %v", move, err)
			return true
		}
	}
	c.rep.Games++
	if h.Over() {
		c.send("position startpos moves " + strings.Join(h.Notation(), " "))
		c.send("go movetime 10")
		l, ok := c.untilBestmove("go after the end", 1*time.Second+10*time.Millisecond, nil)
		if !ok {
			return false
		}
		if l != "none" {
			c.violation("go after the end", "bestmove %q in a finished game; want bestmove none", l)
		}
	}

	// A move that no game has: exactly one error line.
	c.send("position startpos moves zz9-zz9")
	errs, ok = c.readyErrors("illegal position")
	if !ok {
		return false
	}
	if len(errs) != 1 {
		c.violation("illegal position", "%d error lines for position startpos moves zz9-zz9; want exactly one", len(errs))
	}

	// go infinite ends with stop.
	c.send("position startpos")
	c.send("go infinite")
	time.Sleep(100 * time.Millisecond)
	c.send("stop")
	if _, ok := c.untilBestmove("go infinite then stop", time.Second, g.Start()); !ok {
		return false
	}
	return c.ready("after stop")
}

// goMove sends a go command in position st and checks its answer: info
// lines, then a bestmove within movetime plus a grace of a second. It
// returns the move ("" after a reported violation that leaves the engine
// usable) and whether the engine answered at all.
func (c *checker) goMove(cmd string, st game.State, movetime time.Duration) (string, bool) {
	start := c.cfg.Clock.Now()
	c.send(cmd)
	move, ok := c.untilBestmove("go", movetime+time.Second, st)
	if !ok {
		return "", false
	}
	if el := c.cfg.Clock.Now().Sub(start); el > movetime+500*time.Millisecond {
		c.violation("go", "bestmove came %v after %s; want it within the movetime", el.Round(time.Millisecond), cmd)
	}
	if move == "none" {
		c.violation("go", "bestmove none in a position with legal moves")
		return "", true
	}
	return move, true
}

// untilBestmove reads info lines until bestmove, within wait, and returns
// the bestmove's argument.
func (c *checker) untilBestmove(step string, wait time.Duration, st game.State) (string, bool) {
	deadline := c.cfg.Clock.Now().Add(wait)
	for {
		l, ok, ended := c.next(deadline.Sub(c.cfg.Clock.Now()))
		switch {
		case ended:
			c.violation(step, "the engine's output ended (did it crash?)")
			return "", false
		case !ok:
			c.violation(step, "no bestmove within %v", wait)
			return "", false
		}
		kw, rest, _ := strings.Cut(l, " ")
		switch kw {
		case "bestmove":
			f := strings.Fields(rest)
			if len(f) != 1 {
				c.violation(step, "bestmove line %q: want bestmove <move>", l)
				return "", true
			}
			return f[0], true
		case "info":
			c.checkInfo(step, rest, st)
		case "error":
			c.violation(step, "error line %q instead of a bestmove", l)
		default:
			c.violation(step, "unexpected line %q while searching", l)
		}
	}
}

// checkInfo checks the words of an info line: known keys with values of
// the right form, a score as the protocol writes it, and a principal
// variation of legal moves from st (when st is given).
func (c *checker) checkInfo(step, rest string, st game.State) {
	f := strings.Fields(rest)
	for i := 0; i < len(f); i++ {
		switch key := f[i]; key {
		case "string":
			return
		case "depth", "nodes", "nps", "time", "seldepth", "multipv", "hashfull":
			if i+1 >= len(f) {
				c.violation(step, "info %s without a value in %q", key, rest)
				return
			}
			i++
			if n, err := strconv.ParseInt(f[i], 10, 64); err != nil || n < 0 {
				c.violation(step, "info %s %q: want a number, 0 or more", key, f[i])
			}
		case "score":
			if i+1 >= len(f) {
				c.violation(step, "info score without a value")
				return
			}
			text := f[i+1]
			i++
			if (text == "win" || text == "loss") && i+1 < len(f) {
				text += " " + f[i+1]
				i++
			}
			if _, err := search.ParseScore(text); err != nil {
				c.violation(step, "info %v", err)
			}
		case "pv":
			if st == nil {
				return
			}
			s := st.Clone()
			for _, m := range f[i+1:] {
				mv, err := s.ParseMove(m)
				if err != nil || s.Terminal() || !slices.Contains(s.Legal(nil), mv) {
					c.violation(step, "info pv: %s is not a legal move there (pv %s)", m, strings.Join(f[i+1:], " "))
					return
				}
				s.Apply(mv)
			}
			return
		default:
			c.violation(step, "info: unknown key %q (want depth, score, nodes, nps, time, pv or string)", key)
			return
		}
	}
}
