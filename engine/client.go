package engine

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// FaultKind classifies how an external engine failed.
type FaultKind uint8

// The kinds of fault.
const (
	// Crashed: the process exited or closed its output.
	Crashed FaultKind = iota
	// TimedOut: no answer before the deadline.
	TimedOut
	// Garbled: a line that is not part of the protocol.
	Garbled
	// Refused: the engine answered a command with an error line.
	Refused
)

var faultNames = [...]string{"crash", "time", "protocol", "engine error"}

func (k FaultKind) String() string {
	if int(k) < len(faultNames) {
		return faultNames[k]
	}
	return fmt.Sprintf("FaultKind(%d)", k)
}

// Fault is an error of an external engine: what went wrong, in words fit
// for a game record's termination.
type Fault struct {
	Kind   FaultKind
	Detail string
}

func (f *Fault) Error() string { return f.Kind.String() + ": " + f.Detail }

// Client drives an external engine process through the protocol. Its
// methods are not safe for concurrent use. After any Fault the process
// should be closed: its state is unknown.
type Client struct {
	// Name and Author are what the engine sent in its id lines.
	Name, Author string
	// Options holds the engine's option lines, without the leading
	// "option ".
	Options []string

	argv    []string
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan string   // closed at the end of the output
	stopped chan struct{} // closed by Close and Kill: nobody reads lines any more
	stop    sync.Once     // closes stopped
	exited  chan struct{} // closed when the process has been waited for
	waitErr error         // set before exited is closed
	tooLong bool          // set before lines is closed: the output had an overlong line
	stderr  *tail
	clock   Clock // the protocol's deadlines
}

// tail keeps the last bytes written to it, for crash reports.
type tail struct {
	mu  sync.Mutex // guards buf
	buf []byte
}

const tailSize = 400

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return oneLine(string(t.buf))
}

// Start runs the command argv and performs the handshake (stax ... staxok)
// within timeout. On failure the process is killed.
func Start(argv []string, timeout time.Duration) (*Client, error) {
	return StartWithClock(argv, timeout, SystemClock)
}

// StartWithClock is Start with the clock that measures the timeouts of
// the handshake and of every later wait for an answer (Ready, Setup, Go).
func StartWithClock(argv []string, timeout time.Duration, clock Clock) (*Client, error) {
	if len(argv) == 0 {
		return nil, errors.New("engine: empty command")
	}
	if clock == nil {
		clock = SystemClock
	}
	c := &Client{argv: argv, lines: make(chan string, 64), stopped: make(chan struct{}), exited: make(chan struct{}), stderr: &tail{}, clock: clock}
	c.cmd = exec.Command(argv[0], argv[1:]...)
	c.cmd.Stderr = c.stderr
	stdin, stdout, err := startProcess(c.cmd)
	if err != nil {
		return nil, err
	}
	c.stdin = stdin
	go c.read(stdout)
	if err := c.handshake(timeout); err != nil {
		c.Kill()
		return nil, err
	}
	return c, nil
}

// startProcess starts an engine's process in its own process group, with
// pipes to its standard input and from its standard output.
func startProcess(cmd *exec.Cmd) (io.WriteCloser, io.ReadCloser, error) {
	isolate(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, &Fault{Kind: Crashed, Detail: fmt.Sprintf("cannot start %s: %v", cmd.Args[0], err)}
	}
	return stdin, stdout, nil
}

// read passes the engine's output lines to next until the output ends or
// the client stops reading (Close, Kill), then drains the rest, so that
// the engine never blocks on a full pipe and the reader never blocks on a
// full channel, and finally waits for the process.
func (c *Client) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	reading := true
	for reading && sc.Scan() {
		select {
		case c.lines <- sc.Text():
		case <-c.stopped:
			reading = false
		}
	}
	c.tooLong = errors.Is(sc.Err(), bufio.ErrTooLong)
	close(c.lines)
	// A line too long stops the scanner, and a stopped client reads no
	// more: what is left is discarded.
	io.Copy(io.Discard, stdout)
	c.waitErr = c.cmd.Wait()
	close(c.exited)
}

func (c *Client) handshake(timeout time.Duration) error {
	if err := c.Send("stax"); err != nil {
		return err
	}
	deadline := c.clock.Now().Add(timeout)
	for {
		line, err := c.next(deadline, "staxok")
		if err != nil {
			return withTimeout(err, "no staxok within", timeout)
		}
		kw, rest, _ := strings.Cut(line, " ")
		switch kw {
		case "staxok":
			return nil
		case "id":
			k, v, _ := strings.Cut(rest, " ")
			switch k {
			case "name":
				c.Name = v
			case "author":
				c.Author = v
			}
		case "option":
			c.Options = append(c.Options, rest)
		case "info":
		case "error":
			return &Fault{Kind: Refused, Detail: fmt.Sprintf("answered stax with %q", line)}
		default:
			return &Fault{Kind: Garbled, Detail: fmt.Sprintf("unexpected output %q during the handshake", clip(line))}
		}
	}
}

// clip shortens a line for a message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// Send writes one command line to the engine.
func (c *Client) Send(line string) error {
	if _, err := io.WriteString(c.stdin, line+"\n"); err != nil {
		return c.crashed(fmt.Sprintf("cannot write %q", line))
	}
	return nil
}

// crashed returns the Crashed fault, with the exit status and the end of
// standard error when the process has exited. Its output has closed, so
// it is exiting: the wait for that (and for the rest of its standard
// error) is bounded generously, by the system's clock, since it waits on
// the system and not on the engine's answers.
func (c *Client) crashed(what string) *Fault {
	select {
	case <-c.exited:
	case <-time.After(2 * time.Second):
	}
	detail := what
	select {
	case <-c.exited:
		if c.waitErr != nil {
			detail += ": " + c.waitErr.Error()
		} else {
			detail += ": exited"
		}
	default:
		detail += ": output closed"
	}
	if t := c.stderr.String(); t != "" {
		detail += ": " + clip(t)
	}
	return &Fault{Kind: Crashed, Detail: detail}
}

// known lists the first words of lines an engine may send.
var known = map[string]bool{"id": true, "option": true, "staxok": true, "readyok": true, "info": true, "bestmove": true, "error": true, "legal": true}

// next returns the next non-empty line before the deadline; waiting names
// the answer awaited, for messages.
func (c *Client) next(deadline time.Time, waiting string) (string, error) {
	timeUp, stop := c.clock.After(deadline.Sub(c.clock.Now()))
	defer stop()
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				if c.tooLong {
					return "", &Fault{Kind: Garbled, Detail: "an output line longer than 1 MB while waiting for " + waiting}
				}
				return "", c.crashed("no " + waiting)
			}
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			kw, _, _ := strings.Cut(line, " ")
			if !known[kw] {
				return "", &Fault{Kind: Garbled, Detail: fmt.Sprintf("unexpected output %q while waiting for %s", clip(line), waiting)}
			}
			return line, nil
		case <-timeUp:
			return "", &Fault{Kind: TimedOut, Detail: "no " + waiting + " in time"}
		}
	}
}

// withTimeout rewrites a TimedOut fault's detail to name the wait.
func withTimeout(err error, what string, timeout time.Duration) error {
	var f *Fault
	if errors.As(err, &f) && f.Kind == TimedOut {
		f.Detail = fmt.Sprintf("%s %v", what, timeout)
	}
	return err
}

// Ready sends isready and waits for readyok; an error line before it is a
// Refused fault. Each info line restarts the timeout: an engine that
// prepares a level at isready (solving a game, loading tables) says so
// every few seconds while it works.
func (c *Client) Ready(timeout time.Duration) error {
	if err := c.Send("isready"); err != nil {
		return err
	}
	deadline := c.clock.Now().Add(timeout)
	for {
		line, err := c.next(deadline, "readyok")
		if err != nil {
			return withTimeout(err, "no readyok within", timeout)
		}
		switch kw, rest, _ := strings.Cut(line, " "); kw {
		case "readyok":
			return nil
		case "error":
			return &Fault{Kind: Refused, Detail: rest}
		case "info":
			deadline = c.clock.Now().Add(timeout)
		default:
			return &Fault{Kind: Garbled, Detail: fmt.Sprintf("unexpected %q while waiting for readyok", clip(line))}
		}
	}
}

// Setup sends newgame (when spec is not empty), setoption lines for opts
// and position, then checks with isready that the engine accepted them.
// pos is "startpos" or a position string.
func (c *Client) Setup(spec string, opts map[string]string, pos string, moves []string, timeout time.Duration) error {
	if spec != "" {
		if err := c.Send("newgame " + spec); err != nil {
			return err
		}
	}
	for k, v := range opts {
		if err := c.Send("setoption name " + k + " value " + v); err != nil {
			return err
		}
	}
	line := "position startpos"
	if pos != "" && pos != "startpos" {
		line = "position pos " + pos
	}
	if len(moves) > 0 {
		line += " moves " + strings.Join(moves, " ")
	}
	if err := c.Send(line); err != nil {
		return err
	}
	return c.Ready(timeout)
}

// Search is the answer to a go command.
type Search struct {
	Move string   // the bestmove, as sent
	Info []string // the info lines, without the leading "info "
}

// Go sends go with the given parameters (e.g. "movetime 100", or "" for
// the engine's own budget) and waits for bestmove until timeout. If the
// deadline passes it sends stop and gives up: the process should then be
// closed.
func (c *Client) Go(params string, timeout time.Duration) (Search, error) {
	return c.GoStop(params, timeout, timeout)
}

// GoStop is Go for a move that must come by a deadline whatever the
// engine makes of params: it sends go with params and, when no bestmove
// has come after stopAfter, sends stop and waits for the bestmove until
// timeout (both counted from the go). A bestmove that follows the stop is
// an answer like any other; none by timeout is a TimedOut fault, after
// which the process should be closed. A stopAfter not below timeout sends
// no early stop: it is Go.
func (c *Client) GoStop(params string, stopAfter, timeout time.Duration) (Search, error) {
	var res Search
	line := "go"
	if params != "" {
		line += " " + params
	}
	if err := c.Send(line); err != nil {
		return res, err
	}
	start := c.clock.Now()
	deadline, stopped := start.Add(timeout), false
	if stopAfter < timeout {
		deadline = start.Add(stopAfter)
	}
	for {
		l, err := c.next(deadline, "bestmove")
		var f *Fault
		if err != nil && !stopped && stopAfter < timeout && errors.As(err, &f) && f.Kind == TimedOut {
			// The search is stopped in time; its bestmove follows.
			if err := c.Send("stop"); err != nil {
				return res, err
			}
			deadline, stopped = start.Add(timeout), true
			continue
		}
		if err != nil {
			err = withTimeout(err, "no bestmove within", timeout)
			if errors.As(err, &f) && f.Kind == TimedOut {
				c.Send("stop")
			}
			return res, err
		}
		switch kw, rest, _ := strings.Cut(l, " "); kw {
		case "bestmove":
			res.Move = strings.TrimSpace(rest)
			if res.Move == "" {
				return res, &Fault{Kind: Garbled, Detail: "bestmove without a move"}
			}
			return res, nil
		case "info":
			res.Info = append(res.Info, rest)
		case "error":
			return res, &Fault{Kind: Refused, Detail: rest}
		default:
			return res, &Fault{Kind: Garbled, Detail: fmt.Sprintf("unexpected %q while waiting for bestmove", clip(l))}
		}
	}
}

// Close asks the engine to quit, and kills it if it has not exited within
// a short grace period.
func (c *Client) Close() error {
	c.stopReading()
	c.Send("quit")
	c.stdin.Close()
	select {
	case <-c.exited:
		return nil
	case <-time.After(500 * time.Millisecond):
	}
	return c.Kill()
}

// stopReading tells the reader that nobody reads the output any more:
// what the engine still prints is discarded.
func (c *Client) stopReading() { c.stop.Do(func() { close(c.stopped) }) }

// Kill ends the process at once and waits for it.
func (c *Client) Kill() error {
	c.stopReading()
	c.stdin.Close()
	killAll(c.cmd)
	select {
	case <-c.exited:
	case <-time.After(2 * time.Second):
		return fmt.Errorf("engine %s: still running after kill", c.argv[0])
	}
	return nil
}

// Alive reports whether the process is still running.
func (c *Client) Alive() bool {
	select {
	case <-c.exited:
		return false
	default:
		return true
	}
}

// SplitCommand splits a command line into words at spaces, honouring
// single and double quotes and backslash escapes outside single quotes.
func SplitCommand(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\\':
			escaped, inWord = true, true
		case quote == '"':
			if r == '"' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("command %q: unclosed quote", s)
	}
	if escaped {
		return nil, fmt.Errorf("command %q: trailing backslash", s)
	}
	if inWord {
		out = append(out, cur.String())
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("command %q: empty", s)
	}
	return out, nil
}
