package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"stax/game"
	"stax/search"
)

// Config says what a Server plays with and how it introduces itself.
type Config struct {
	// Name and Author are sent in the id lines.
	Name, Author string
	// Registry lists the games newgame accepts.
	Registry game.Registry
	// NewPlayer returns a fresh player for a variant and level, its
	// randomness seeded from a real source.
	NewPlayer func(g game.Game, level string) (search.Player, error)
	// NewSeeded, when set, returns a player whose randomness is seeded
	// with seed; the engine then offers the seed option, for reproducible
	// sessions.
	NewSeeded func(g game.Game, level string, seed uint64) (search.Player, error)
	// Levels lists the levels offered for a variant, weakest first; nil
	// offers only Level.
	Levels func(g game.Game) []string
	// Extra lists levels NewPlayer accepts beyond Levels (e.g. random and
	// greedy baselines).
	Extra []string
	// Level is the level used until setoption name level changes it.
	Level string
	// MaxThreads bounds the threads option (at least 1).
	MaxThreads int
	// Prepare, when set, makes a level ready to play a variant at its full
	// strength (the perfect level's table, built when missing): isready
	// calls it, after newgame, and answers readyok when it returns.
	Prepare func(ctx context.Context, g game.Game, level string) error
	// Clock times the notes of isready while a level is being prepared
	// (default SystemClock; tests pass a fake one). The searches keep to
	// the system's clock.
	Clock Clock
}

// infiniteTime is the time budget of go infinite: longer than any session.
const infiniteTime = 100 * 365 * 24 * time.Hour

// Server answers the engine protocol for one session. It is not safe for
// concurrent use: call Run once.
type Server struct {
	cfg Config

	outMu sync.Mutex // guards out
	out   *bufio.Writer

	g       game.Game
	hist    *game.History // nil: no position
	level   string        // the level asked for, kept from game to game
	playing string        // the level played in g: level, or a stand-in when g lacks it
	games   []string      // the games newgame accepts; nil: every game of the registry
	threads int
	hash    int
	seed    uint64        // 0: random players; else the seed of the next one
	player  search.Player // for g and level; nil until needed

	cur *searchJob // the running search, nil when idle
}

// searchJob is one go command in progress.
type searchJob struct {
	cancel   context.CancelFunc
	done     chan struct{}
	infinite bool
}

// NewServer returns a server for cfg.
func NewServer(cfg Config) *Server {
	if cfg.Name == "" {
		cfg.Name = "stax"
	}
	if cfg.MaxThreads < 1 {
		cfg.MaxThreads = 1
	}
	return &Server{cfg: cfg, level: cfg.Level, playing: cfg.Level, threads: 1, hash: 16}
}

// Run reads commands from r and writes answers to w until quit, the end of
// the input, or the cancellation of ctx. It returns an error only when
// reading or writing fails; bad commands are answered with error lines.
//
// Run reads r in a goroutine of its own, which never outlives Run when r
// can be interrupted: on the cancellation of ctx a read in progress is cut
// short by a read deadline when r has SetReadDeadline (files opened for
// polling, pipes, network connections), else by closing r when it is an
// io.Closer (an io.PipeReader). A reader that allows neither (a terminal's
// blocking standard input) keeps that goroutine until its read returns.
func (s *Server) Run(ctx context.Context, r io.Reader, w io.Writer) error {
	s.out = bufio.NewWriter(w)
	lines := make(chan inputLine)
	readErr := make(chan error, 1)
	done := make(chan struct{})
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		defer close(lines)
		br := bufio.NewReaderSize(r, 64*1024)
		for {
			l, err := readLine(br)
			if err != nil && !errors.Is(err, errTooLong) {
				readErr <- err
				return
			}
			select {
			case lines <- inputLine{text: l, tooLong: err != nil}:
			case <-done:
				return
			}
		}
	}()
	defer func() {
		close(done)
		if ctx.Err() != nil && interruptRead(r) {
			<-readerDone
		}
	}()
	defer s.stopSearch()
	for {
		select {
		case <-ctx.Done():
			return nil
		case in, ok := <-lines:
			if !ok {
				// The end of the input lets a bounded search finish.
				s.waitSearch()
				if err := <-readErr; err != io.EOF {
					return err
				}
				return nil
			}
			if in.tooLong {
				s.send("error line longer than %d bytes ignored", maxLine)
				continue
			}
			if quit := s.handle(ctx, in.text); quit {
				return nil
			}
		}
	}
}

// interruptRead cuts short a read of r in progress, if r allows it, and
// reports whether it did.
func interruptRead(r io.Reader) bool {
	if d, ok := r.(interface{ SetReadDeadline(time.Time) error }); ok {
		if d.SetReadDeadline(time.Now()) == nil {
			return true
		}
	}
	if _, ok := r.(*os.File); ok {
		return false // closing a file does not end a blocking read
	}
	if c, ok := r.(io.Closer); ok {
		return c.Close() == nil
	}
	return false
}

// inputLine is one line read by Run.
type inputLine struct {
	text    string
	tooLong bool
}

// maxLine bounds the length of a command line.
const maxLine = 1 << 20

var errTooLong = errors.New("line too long")

// readLine reads one line without its line ending. A line longer than
// maxLine is skipped to its end and reported as errTooLong; a last line
// without a newline is returned before io.EOF.
func readLine(br *bufio.Reader) (string, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) <= maxLine+2 {
			buf = append(buf, chunk...)
		} else {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			if err != nil && err != io.EOF {
				return "", err
			}
			return "", errTooLong
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(buf) > 0:
			return strings.TrimRight(string(buf), "\r\n"), nil
		case err != nil:
			return "", err
		}
		return strings.TrimRight(string(buf), "\r\n"), nil
	}
}

// send writes one line and flushes it.
func (s *Server) send(format string, args ...any) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	fmt.Fprintf(s.out, format, args...)
	s.out.WriteByte('\n')
	s.out.Flush()
}

// preparingTick is how often isready says that a level is still being
// prepared.
const preparingTick = 2 * time.Second

// prepare runs cfg.Prepare for the current variant and level, saying every
// preparingTick that it is still at work, so that a client waiting for
// readyok (which restarts its timeout on each info line) knows the engine
// is alive.
func (s *Server) prepare(ctx context.Context) {
	done := make(chan error, 1)
	go func() { done <- s.cfg.Prepare(ctx, s.g, s.playing) }()
	clock := s.cfg.Clock
	if clock == nil {
		clock = SystemClock
	}
	start := clock.Now()
	for {
		tick, stop := clock.After(preparingTick)
		select {
		case err := <-done:
			stop()
			if err != nil {
				s.send("info string level %s is not ready: %v", s.playing, oneLine(err.Error()))
			}
			return
		case <-tick:
			s.send("info string preparing level %s for %s (%v so far)", s.playing, game.SpecOf(s.g), clock.Now().Sub(start).Round(time.Second))
		}
	}
}

// commandNames lists the commands, for the error about an unknown one.
var commandNames = []string{"stax", "isready", "setoption", "newgame", "position", "go", "stop", "legal", "show", "quit"}

// handle runs one command line and reports whether it was quit.
func (s *Server) handle(ctx context.Context, line string) (quit bool) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return false
	}
	cmd, args := fields[0], fields[1:]
	switch cmd {
	case "isready":
		if s.cfg.Prepare != nil && s.g != nil {
			s.prepare(ctx)
		}
		s.send("readyok")
		return false
	case "stop":
		s.stopSearch()
		return false
	case "quit":
		s.stopSearch()
		return true
	}
	// Any other command waits for a running search to end (and stops an
	// infinite one), so that its bestmove comes before the command's answer.
	s.waitSearch()
	var err error
	switch cmd {
	case "stax":
		s.hello()
	case "setoption":
		err = s.setOption(args)
	case "newgame":
		err = s.newGame(args)
	case "position":
		err = s.position(line, args)
	case "go":
		err = s.goSearch(ctx, args)
	case "legal":
		err = s.legal()
	case "show":
		err = s.show()
	default:
		err = fmt.Errorf("unknown command %q; want one of %s", cmd, strings.Join(commandNames, ", "))
	}
	if err != nil {
		s.send("error %s", oneLine(err.Error()))
	}
	return false
}

// oneLine keeps a message on one protocol line of valid UTF-8: runs of
// white space become one space, and bytes that are not UTF-8 and other
// control characters are written as Go escapes (\xff, \x1b, \u200e), so
// that a message quoting raw input stays readable and valid.
func oneLine(msg string) string {
	var b strings.Builder
	for i, f := range strings.Fields(msg) {
		if i > 0 {
			b.WriteByte(' ')
		}
		for len(f) > 0 {
			r, n := utf8.DecodeRuneInString(f)
			switch {
			case r == utf8.RuneError && n == 1:
				fmt.Fprintf(&b, "\\x%02x", f[0])
			case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
				q := strconv.QuoteRuneToASCII(r)
				b.WriteString(q[1 : len(q)-1])
			default:
				b.WriteString(f[:n])
			}
			f = f[n:]
		}
	}
	return b.String()
}

// Levels lists the levels offered for any game of the registry, weakest
// first, then the extra ones.
func (s *Server) Levels() []string {
	var out []string
	add := func(l string) {
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	if s.cfg.Levels != nil {
		for _, info := range s.cfg.Registry {
			if g, err := info.Variant(nil); err == nil {
				for _, l := range s.cfg.Levels(g) {
					add(l)
				}
			}
		}
	}
	if s.cfg.Levels == nil && s.cfg.Level != "" {
		add(s.cfg.Level)
	}
	for _, l := range s.cfg.Extra {
		add(l)
	}
	return out
}

// levelsFor lists the levels valid for g.
func (s *Server) levelsFor(g game.Game) []string {
	var out []string
	if s.cfg.Levels != nil {
		out = append(out, s.cfg.Levels(g)...)
	} else if s.cfg.Level != "" {
		out = append(out, s.cfg.Level)
	}
	return append(out, s.cfg.Extra...)
}

func (s *Server) hello() {
	s.send("id name %s", s.cfg.Name)
	if s.cfg.Author != "" {
		s.send("id author %s", s.cfg.Author)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "option name level type combo default %s", s.cfg.Level)
	for _, l := range s.Levels() {
		b.WriteString(" var " + l)
	}
	s.send("%s", b.String())
	s.send("option name threads type spin default 1 min 1 max %d", s.cfg.MaxThreads)
	s.send("option name hash type spin default 16 min 1 max 4096")
	s.send("option name games type string default %s", strings.Join(s.cfg.Registry.Names(), ","))
	if s.cfg.NewSeeded != nil {
		s.send("option name seed type string default 0")
	}
	s.send("staxok")
}

// setOption handles setoption name N value V.
func (s *Server) setOption(args []string) error {
	if len(args) < 2 || args[0] != "name" {
		return errors.New("setoption: want setoption name <name> value <value>")
	}
	i := slices.Index(args, "value")
	if i < 2 || i == len(args)-1 {
		return errors.New("setoption: want setoption name <name> value <value>")
	}
	name := strings.ToLower(strings.Join(args[1:i], " "))
	value := strings.Join(args[i+1:], " ")
	switch name {
	case "level":
		if s.g != nil {
			valid := s.levelsFor(s.g)
			level, ok := findFold(valid, value)
			if !ok {
				return fmt.Errorf("setoption level: unknown level %q for %s; want one of %s", value, game.SpecOf(s.g), strings.Join(valid, ", "))
			}
			p, err := s.newPlayer(level)
			if err != nil {
				return fmt.Errorf("setoption level: %v", err)
			}
			s.player = p
			s.level, s.playing = level, level
			return nil
		}
		level, ok := findFold(s.Levels(), value)
		if !ok {
			return fmt.Errorf("setoption level: unknown level %q; want one of %s", value, strings.Join(s.Levels(), ", "))
		}
		s.level, s.playing = level, level
	case "games":
		var names []string
		for _, n := range strings.Split(value, ",") {
			n = strings.ToLower(strings.TrimSpace(n))
			if !slices.Contains(s.cfg.Registry.Names(), n) {
				return fmt.Errorf("setoption games: unknown game %q; want a comma-separated list of %s", n, strings.Join(s.cfg.Registry.Names(), ", "))
			}
			names = append(names, n)
		}
		s.games = names
	case "threads":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > s.cfg.MaxThreads {
			return fmt.Errorf("setoption threads: %q: want an integer from 1 to %d", value, s.cfg.MaxThreads)
		}
		s.threads = n
		if s.player != nil {
			s.applyResources(s.player)
		}
	case "hash":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > 4096 {
			return fmt.Errorf("setoption hash: %q: want an integer from 1 to 4096 (megabytes)", value)
		}
		s.hash = n
		if s.player != nil {
			s.applyResources(s.player)
		}
	case "seed":
		n, err := strconv.ParseUint(value, 10, 64)
		if err != nil || s.cfg.NewSeeded == nil {
			return fmt.Errorf("setoption seed: %q: want an unsigned integer (0: random)", value)
		}
		s.seed = n
		s.player = nil
	default:
		return fmt.Errorf("setoption: unknown option %q; want level, threads, hash, games or seed", name)
	}
	return nil
}

// newGame handles newgame <spec>.
func (s *Server) newGame(args []string) error {
	if len(args) != 1 {
		return errors.New("newgame: want newgame <spec>, e.g. newgame diam(players=4) (a spec has no spaces)")
	}
	g, err := s.cfg.Registry.Load(args[0])
	if err != nil {
		return fmt.Errorf("newgame: %v", err)
	}
	if s.games != nil && !slices.Contains(s.games, g.Info().Name) {
		return fmt.Errorf("newgame: %s is not among the games set by setoption name games (%s)", g.Info().Name, strings.Join(s.games, ","))
	}
	s.g = g
	s.hist = game.NewHistory(g, nil)
	s.player = nil
	s.playing = s.level
	if valid := s.levelsFor(g); !slices.Contains(valid, s.level) {
		s.playing = s.standIn(g)
		s.send("info string level %s is not available for %s; playing %s", s.level, game.SpecOf(g), s.playing)
	}
	return nil
}

// standIn returns the level played in g when the level asked for is not
// offered there: the strongest level g offers (the perfect level of Pogo
// has no equal elsewhere), or the configured default.
func (s *Server) standIn(g game.Game) string {
	if s.cfg.Levels != nil {
		if l := s.cfg.Levels(g); len(l) > 0 {
			return l[len(l)-1]
		}
	}
	return s.cfg.Level
}

// findFold returns the element of names equal to name up to case.
func findFold(names []string, name string) (string, bool) {
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return n, true
		}
	}
	return "", false
}

// position handles position startpos [moves ...] and position pos <position
// string> [moves ...]. On an error the engine has no position until the
// next good position command.
func (s *Server) position(line string, args []string) error {
	if s.g == nil {
		return errors.New("position: no game; send newgame <spec> first")
	}
	s.hist = nil
	if len(args) == 0 {
		return errors.New("position: want position startpos [moves ...] or position pos <position> [moves ...]")
	}
	var start game.State
	var moves []string
	mi := slices.Index(args, "moves")
	switch args[0] {
	case "startpos":
		if mi != -1 && mi != 1 || mi == -1 && len(args) > 1 {
			return fmt.Errorf("position: unexpected %q after startpos; want moves", args[1])
		}
		start = s.g.Start()
	case "pos":
		end := len(args)
		if mi != -1 {
			end = mi
		}
		if end == 1 {
			return errors.New("position pos: missing the position string")
		}
		st, err := s.g.ParseState(strings.Join(args[1:end], " "))
		if err != nil {
			return fmt.Errorf("position: %v", err)
		}
		start = st
	default:
		return fmt.Errorf("position: unexpected %q; want startpos or pos", args[0])
	}
	if mi != -1 {
		moves = args[mi+1:]
	}
	h := game.NewHistory(s.g, start)
	for i, m := range moves {
		if err := h.Play(m); err != nil {
			return fmt.Errorf("position: move %d (%s): %v", i+1, m, err)
		}
	}
	s.hist = h
	return nil
}

// legal answers legal m1 m2 ... for the current position.
func (s *Server) legal() error {
	if s.hist == nil {
		return errors.New("legal: no position; send newgame and position first")
	}
	st := s.hist.State()
	var b strings.Builder
	b.WriteString("legal")
	if !s.hist.Over() {
		for _, m := range st.Legal(nil) {
			b.WriteString(" " + st.FormatMove(m))
		}
	}
	s.send("%s", b.String())
	return nil
}

// show describes the current position in info string lines.
func (s *Server) show() error {
	if s.hist == nil {
		return errors.New("show: no position; send newgame and position first")
	}
	st := s.hist.State()
	s.send("info string game %s", game.SpecOf(s.g))
	s.send("info string position %s", st)
	if o := s.hist.Outcome(); o.Over() {
		s.send("info string result %s %s", o.ResultString(), o.Describe(s.g))
	} else {
		s.send("info string tomove %d %s", st.ToMove()+1, s.g.PlayerName(st.ToMove()))
	}
	return nil
}

// SetSeed seeds the players of the session, as setoption name seed does; 0
// seeds them from a real random source.
func (s *Server) SetSeed(seed uint64) { s.seed = seed }

// newPlayer returns a player of level for the current game: seeded when
// the seed option is set (each new player with the next seed, so that a
// session replays exactly), else from a real random source.
func (s *Server) newPlayer(level string) (search.Player, error) {
	var p search.Player
	var err error
	if s.seed == 0 || s.cfg.NewSeeded == nil {
		p, err = s.cfg.NewPlayer(s.g, level)
	} else {
		seed := s.seed
		s.seed++
		if s.seed == 0 {
			s.seed = 1
		}
		p, err = s.cfg.NewSeeded(s.g, level, seed)
	}
	if err == nil {
		s.applyResources(p)
	}
	return p, err
}

// applyResources gives p the threads and hash options, when it takes them.
func (s *Server) applyResources(p search.Player) {
	if r, ok := p.(search.Resources); ok {
		r.SetThreads(s.threads)
		r.SetHashSize(s.hash)
	}
}

// goSearch handles go [movetime MS] [depth D] [nodes N] [infinite]
// [timeK MS incK MS ...] [movestogo N]: it starts the search in a
// goroutine that sends info lines and bestmove.
func (s *Server) goSearch(ctx context.Context, args []string) error {
	var lim search.Limits
	infinite := false
	var clocks, incs [game.MaxPlayers]int64
	var timed [game.MaxPlayers]bool
	movesToGo := 0
	for i := 0; i < len(args); i++ {
		key := args[i]
		if key == "infinite" {
			infinite = true
			continue
		}
		seat := 0
		if rest, ok := strings.CutPrefix(key, "time"); ok && len(rest) == 1 && rest[0] >= '1' && rest[0] <= '0'+game.MaxPlayers {
			seat = int(rest[0] - '0')
		} else if rest, ok := strings.CutPrefix(key, "inc"); ok && len(rest) == 1 && rest[0] >= '1' && rest[0] <= '0'+game.MaxPlayers {
			seat = int(rest[0] - '0')
		} else if key != "movetime" && key != "depth" && key != "nodes" && key != "movestogo" {
			return fmt.Errorf("go: unknown parameter %q; want movetime MS, depth D, nodes N, infinite, time1..time4 MS, inc1..inc4 MS or movestogo N", key)
		}
		if i+1 == len(args) {
			return fmt.Errorf("go: %s needs a value", key)
		}
		i++
		n, err := strconv.ParseInt(args[i], 10, 64)
		clock := seat > 0 // a clock or an increment may be 0
		if err != nil || n < 0 || n == 0 && !clock {
			if clock {
				return fmt.Errorf("go: %s %q: want a number of milliseconds, 0 or more", key, args[i])
			}
			return fmt.Errorf("go: %s %q: want a positive integer", key, args[i])
		}
		n = min(n, int64(infiniteTime/time.Millisecond))
		switch {
		case strings.HasPrefix(key, "time"):
			clocks[seat-1], timed[seat-1] = n, true
		case strings.HasPrefix(key, "inc"):
			incs[seat-1] = n
		case key == "movetime":
			lim.Time = time.Duration(n) * time.Millisecond
		case key == "depth":
			lim.Depth = int(min(n, 1000))
		case key == "nodes":
			lim.Nodes = n
		case key == "movestogo":
			movesToGo = int(min(n, 1000))
		}
	}
	if infinite && lim.Time == 0 {
		lim.Time = infiniteTime
	}
	if s.hist != nil && !infinite {
		if p := s.hist.State().ToMove(); timed[p] {
			lim.Clock = search.Clock{
				Remaining: time.Duration(max(clocks[p], 1)) * time.Millisecond,
				Increment: time.Duration(incs[p]) * time.Millisecond,
				MovesToGo: movesToGo,
			}
		}
	}
	if s.hist == nil {
		return errors.New("go: no position; send newgame and position first")
	}
	if o := s.hist.Outcome(); o.Over() {
		s.send("info string game over: %s", o.Describe(s.g))
		s.send("bestmove none")
		return nil
	}
	if s.player == nil {
		p, err := s.newPlayer(s.playing)
		if err != nil {
			return fmt.Errorf("go: %v", err)
		}
		s.player = p
	}
	sctx, cancel := context.WithCancel(ctx)
	job := &searchJob{cancel: cancel, done: make(chan struct{}), infinite: infinite}
	s.cur = job
	go s.run(sctx, job, s.player, search.PositionOf(s.hist).Clone(), lim, infinite)
	return nil
}

// run is the search goroutine of one go command. A player that fails or
// gives no legal move is reported in an info string, and the first legal
// move is played instead.
func (s *Server) run(ctx context.Context, job *searchJob, p search.Player, pos search.Position, lim search.Limits, infinite bool) {
	defer close(job.done)
	start := time.Now()
	st := pos.State
	var last search.Progress
	reported := false
	res, err := search.Ask(ctx, p, pos, lim, func(pr search.Progress) {
		last, reported = pr, true
		s.sendInfo(st, pr.Depth, pr.Score, pr.Nodes, pr.Elapsed, pr.PV)
	})
	if infinite {
		<-ctx.Done()
	}
	move := res.Move
	if err != nil {
		if errors.Is(err, game.ErrIllegalMove) {
			s.send("info string search returned an illegal move; playing the first legal one")
		} else {
			s.send("info string search ended without a move: %s", oneLine(err.Error()))
		}
		move = st.Legal(nil)[0]
	} else if !reported || last.Depth != res.Depth || last.Nodes != res.Nodes || last.Score != res.Score || !slices.Equal(last.PV, res.PV) {
		el := res.Elapsed
		if el == 0 {
			el = time.Since(start)
		}
		s.sendInfo(st, res.Depth, res.Score, res.Nodes, el, res.PV)
	}
	s.send("bestmove %s", st.FormatMove(move))
}

// sendInfo writes an info line; the pv is cut at its first illegal move.
func (s *Server) sendInfo(st game.State, depth int, score search.Score, nodes int64, el time.Duration, pv []game.Move) {
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d score %s nodes %d", depth, score, nodes)
	if el > 0 {
		fmt.Fprintf(&b, " nps %d", int64(float64(nodes)/el.Seconds()))
	} else {
		b.WriteString(" nps 0")
	}
	fmt.Fprintf(&b, " time %d", el.Milliseconds())
	if len(pv) > 0 {
		b.WriteString(" pv")
		c := st.Clone()
		for _, m := range pv {
			if c.Terminal() || !slices.Contains(c.Legal(nil), m) {
				break
			}
			b.WriteString(" " + c.FormatMove(m))
			c.Apply(m)
		}
	}
	s.send("%s", b.String())
}

// waitSearch waits for the running search, if any, to end; an infinite
// search is stopped.
func (s *Server) waitSearch() {
	if s.cur == nil {
		return
	}
	if s.cur.infinite {
		s.cur.cancel()
	}
	<-s.cur.done
	s.cur.cancel()
	s.cur = nil
}

// stopSearch cancels the running search, if any, and waits until its
// bestmove line has been sent.
func (s *Server) stopSearch() {
	if s.cur == nil {
		return
	}
	s.cur.cancel()
	<-s.cur.done
	s.cur = nil
}
