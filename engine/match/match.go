// Package match plays matches between engines — built-in levels and
// external programs speaking the stax engine protocol — and sums them up
// in a cross table with Elo differences, confidence intervals and an
// optional SPRT.
//
// Seats rotate: every opening (a few random plies from the start) is played
// once with each rotation of the engines over the seats, so that no engine
// keeps the first move or a favourable opening. An engine that crashes,
// exceeds its time, plays an illegal move or breaks the protocol loses that
// game; the reason goes into the game's record, its process is killed and
// restarted for the next game, and the match goes on.
//
// With more than two players (4-player Diam), every game is also scored
// pairwise: for two engines e and f in a game, e's score against f is the
// average, over every seat s of e and t of f, of 1 if s did better than t
// (a win against a loss), 0 if worse and 1/2 if equal. Each game thus adds
// one score in [0, 1] to each pair of engines that took part in it, and the
// Elo of a pair comes from its mean score. In team games partners share a
// result, so this is the team result.
package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"stax/engine"
	"stax/game"
	"stax/game/record"
	"stax/search"
)

// Engine is a player of a match: a built-in level or an external command.
type Engine struct {
	// Name is shown in the table and in the records' Seat tags.
	Name string
	// Level is the built-in level, when Command is empty.
	Level string
	// Command is an external program speaking the protocol, and its
	// arguments.
	Command []string
}

// ParseEngine parses an engine argument: NAME=CMD or CMD alone (then the
// name is CMD). CMD is stax:LEVEL for a built-in level or a command line
// (quotes allowed) for an external program.
func ParseEngine(s string) (Engine, error) {
	name, cmd, ok := strings.Cut(s, "=")
	if !ok || strings.ContainsAny(name, " \t\"'/") {
		name, cmd = "", s
	}
	name, cmd = strings.TrimSpace(name), strings.TrimSpace(cmd)
	if cmd == "" {
		return Engine{}, fmt.Errorf("engine %q: want NAME=CMD, where CMD is stax:LEVEL or a command", s)
	}
	if name == "" {
		name = cmd
	}
	if level, ok := strings.CutPrefix(cmd, "stax:"); ok {
		if level == "" || strings.ContainsAny(level, " \t") {
			return Engine{}, fmt.Errorf("engine %q: want stax:LEVEL, e.g. stax:hard", s)
		}
		return Engine{Name: name, Level: level}, nil
	}
	argv, err := engine.SplitCommand(cmd)
	if err != nil {
		return Engine{}, fmt.Errorf("engine %q: %v", s, err)
	}
	return Engine{Name: name, Command: argv}, nil
}

// Seat returns who the engine is in a record's Seat tag: stax:LEVEL for a
// built-in level, engine:NAME for an external program.
func (e Engine) Seat() record.Seat {
	if e.External() {
		return record.Seat{Kind: record.Engine, Name: e.Name}
	}
	return record.Seat{Kind: record.Level, Name: e.Level}
}

// External reports whether the engine is an external program.
func (e Engine) External() bool { return len(e.Command) > 0 }

// Config describes a match.
type Config struct {
	// Game is the variant played.
	Game game.Game
	// Engines are the players, at least two (one is allowed for a
	// self-play match).
	Engines []Engine
	// Games is the number of games.
	Games int
	// Concurrency is the number of games played at once (default 1).
	Concurrency int
	// MoveTime is the time per move sent with go movetime; 0 lets each
	// engine use its own budget.
	MoveTime time.Duration
	// Depth and Nodes, when not 0, bound every move as go depth and go
	// nodes do (a built-in level never searches beyond its own budget).
	Depth int
	Nodes int64
	// Timeout is the time after which a move is lost on time; 0 means
	// MoveTime plus max(1s, MoveTime), or 30s without a MoveTime. With a
	// Clock, a move is lost on time when it empties the mover's clock.
	Timeout time.Duration
	// Clock, when not nil, gives every seat a clock: Base at the start,
	// Increment added after each of its moves, each move's time (from the
	// go command to the bestmove) taken from it. The engines are told every
	// seat's time (go time1 ... inc1 ...), and a seat whose clock runs out
	// loses on time.
	Clock *TimeControl
	// Openings is the number of random plies played from the start before
	// the engines take over; every opening is played with each rotation of
	// the seats.
	Openings int
	// Seed fixes the openings (the built-in players draw their own
	// randomness from NewPlayer).
	Seed uint64
	// SPRT, when not nil, ends a match of two engines as soon as the test
	// decides.
	SPRT *SPRT
	// NewPlayer returns a built-in player for a level, its randomness
	// seeded with seed (stax match passes ai.NewSeeded). The match gives
	// every seat of every game its own player and seed, derived from Seed,
	// so that a match is reproducible.
	NewPlayer func(g game.Game, level string, seed uint64) (search.Player, error)
	// Records receives each finished game in the record format, in the
	// order the games end; nil discards them.
	Records io.Writer
	// Progress, when not nil, is called after each game (never
	// concurrently).
	Progress func(Status)
	// Now returns the time for the Date tag (default TimeSource.Now).
	Now func() time.Time
	// TimeSource is the clock that measures the moves against Timeout
	// and the seats' clocks, and times the engines' handshakes (default
	// engine.SystemClock; tests pass a fake one, so that a move is lost on
	// time when they say and never because the machine is slow). The
	// built-in levels' own budgets stay on the system's clock.
	TimeSource engine.Clock
}

// TimeControl is the clock of every seat in a timed match.
type TimeControl struct {
	Base, Increment time.Duration
}

// String writes the time control as BASE+INCREMENT in seconds, e.g. 10+0.1.
func (tc TimeControl) String() string {
	return strconv.FormatFloat(tc.Base.Seconds(), 'f', -1, 64) + "+" + strconv.FormatFloat(tc.Increment.Seconds(), 'f', -1, 64)
}

// Status is the progress of a running match.
type Status struct {
	Done, Total int
	Elapsed     time.Duration
	Last        *GameResult
	Table       *Table
}

// GameResult is one finished game.
type GameResult struct {
	Number  int   // 1-based, in schedule order
	Opening int   // 1-based opening number
	Seats   []int // the engine index of each seat
	Outcome game.Outcome
	Record  *record.Record
	// Fault says which engine lost by a fault and why, or is empty.
	Fault string
	// FaultEngine is the index of that engine, or -1.
	FaultEngine int
	Plies       int
}

// Report is the result of a match.
type Report struct {
	Config  Config
	Games   []GameResult // in the order they ended
	Table   *Table
	Elapsed time.Duration
	// Decision is the SPRT's decision when Config.SPRT is set.
	Decision Decision
}

// limit returns the time after which a move is lost.
func (c *Config) limit() time.Duration {
	switch {
	case c.Timeout > 0:
		return c.Timeout
	case c.MoveTime > 0:
		return c.MoveTime + max(time.Second, c.MoveTime)
	}
	return 30 * time.Second
}

// lineups returns the seat assignments played on every opening: with e
// engines and p seats, every set of min(e, p) engines, each with every
// cyclic rotation over the seats (engines repeat around the table when
// there are fewer engines than seats).
func lineups(e, p int) [][]int {
	k := min(e, p)
	var out [][]int
	var comb func(start int, cur []int)
	comb = func(start int, cur []int) {
		if len(cur) == k {
			for r := 0; r < k; r++ {
				l := make([]int, p)
				for s := range l {
					l[s] = cur[(s+r)%k]
				}
				out = append(out, l)
			}
			return
		}
		for i := start; i < e; i++ {
			comb(i+1, append(cur, i))
		}
	}
	comb(0, make([]int, 0, k))
	return out
}

// opening returns the random plies of opening number i: plies uniformly
// random legal moves from the start that do not end the game.
func opening(g game.Game, plies int, seed uint64, i int) []string {
	rng := rand.New(rand.NewPCG(seed, uint64(i)*0x9e3779b97f4a7c15+1))
	for try := 0; ; try++ {
		h := game.NewHistory(g, nil)
		var moves []string
		for len(moves) < plies && !h.Over() {
			s := h.State()
			legal := s.Legal(nil)
			m := s.FormatMove(legal[rng.IntN(len(legal))])
			if h.Play(m) != nil {
				break
			}
			moves = append(moves, m)
		}
		if !h.Over() || try == 100 {
			return moves
		}
	}
}

// job is one scheduled game.
type job struct {
	number, opening int
	seats           []int
	moves           []string
}

// Run plays the match and returns its report. It returns an error for a
// bad configuration, or when ctx is cancelled (with the report of the games
// finished so far).
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.TimeSource == nil {
		cfg.TimeSource = engine.SystemClock
	}
	if err := preflight(cfg); err != nil {
		return nil, err
	}
	clock := cfg.TimeSource
	start := clock.Now()
	if cfg.Now == nil {
		cfg.Now = clock.Now
	}
	names := make([]string, len(cfg.Engines))
	for i, e := range cfg.Engines {
		names[i] = e.Name
	}
	rep := &Report{Config: cfg, Table: newTable(names)}
	lus := lineups(len(cfg.Engines), cfg.Game.Players())

	// Cancelling sched stops the schedule; the games under way finish.
	sched, stopSchedule := context.WithCancel(ctx)
	defer stopSchedule()
	jobs := make(chan job)
	go func() {
		defer close(jobs)
		var open []string
		for i := 0; i < cfg.Games; i++ {
			o := i / len(lus)
			if i%len(lus) == 0 {
				open = opening(cfg.Game, cfg.Openings, cfg.Seed, o)
			}
			select {
			case jobs <- job{number: i + 1, opening: o + 1, seats: lus[i%len(lus)], moves: open}:
			case <-sched.Done():
				return
			}
		}
	}()

	var mu sync.Mutex // guards rep and the calls of Progress and Records
	var writeErr error
	var wg sync.WaitGroup
	for w := 0; w < max(1, cfg.Concurrency); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pl := &worker{cfg: &cfg, clients: map[int]*engine.Client{}}
			defer pl.close()
			for j := range jobs {
				res, ok := pl.play(ctx, j)
				if !ok {
					continue
				}
				mu.Lock()
				rep.Games = append(rep.Games, res)
				rep.Table.add(&res, cfg.Game)
				if cfg.Records != nil && writeErr == nil {
					text := res.Record.String()
					if len(rep.Games) > 1 {
						text = "\n" + text
					}
					_, writeErr = io.WriteString(cfg.Records, text)
				}
				if cfg.SPRT != nil && rep.Decision == Continue {
					if rep.Decision = cfg.SPRT.Decide(rep.Table.GamePairs()); rep.Decision != Continue {
						stopSchedule()
					}
				}
				if cfg.Progress != nil {
					cfg.Progress(Status{Done: len(rep.Games), Total: cfg.Games, Elapsed: clock.Now().Sub(start), Last: &res, Table: rep.Table})
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	rep.Elapsed = clock.Now().Sub(start)
	if writeErr != nil {
		return rep, fmt.Errorf("writing records: %v", writeErr)
	}
	return rep, ctx.Err()
}

func (cfg *Config) check() error {
	switch {
	case cfg.Game == nil:
		return errors.New("match: no game")
	case len(cfg.Engines) == 0:
		return errors.New("match: no engines")
	case cfg.Games < 1:
		return errors.New("match: want at least one game")
	case cfg.SPRT != nil && len(cfg.Engines) != 2:
		return errors.New("match: an SPRT needs exactly two engines")
	case cfg.Openings < 0:
		return errors.New("match: negative openings")
	}
	seen := map[string]bool{}
	for _, e := range cfg.Engines {
		if seen[e.Name] {
			return fmt.Errorf("match: two engines named %q; name them NAME=CMD", e.Name)
		}
		seen[e.Name] = true
		if !e.External() {
			if cfg.NewPlayer == nil {
				return fmt.Errorf("match: engine %s: no built-in players", e.Name)
			}
			if _, err := cfg.NewPlayer(cfg.Game, e.Level, cfg.Seed); err != nil {
				return fmt.Errorf("match: engine %s: %v", e.Name, err)
			}
		}
	}
	return nil
}

// handshakeTimeout bounds an external engine's start: from its launch to
// its staxok, and its answer to the first newgame and isready.
const handshakeTimeout = 10 * time.Second

// preflight starts every external engine once, before the first game, and
// checks that it completes the handshake and accepts the game: a command
// that does not exist, or an engine that never answers staxok or refuses
// the variant, is an error rather than a match of forfeits.
func preflight(cfg Config) error {
	errs := make([]error, len(cfg.Engines))
	var wg sync.WaitGroup
	for i, e := range cfg.Engines {
		if !e.External() {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := engine.StartWithClock(e.Command, handshakeTimeout, cfg.TimeSource)
			if err == nil {
				err = c.Setup(game.SpecOf(cfg.Game).String(), nil, "startpos", nil, handshakeTimeout)
				c.Close()
			}
			if err != nil {
				errs[i] = fmt.Errorf("engine %s (%s) failed its check before the match: %v", e.Name, strings.Join(e.Command, " "), err)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// worker plays games one after another, keeping one process per external
// engine between games.
type worker struct {
	cfg     *Config
	clients map[int]*engine.Client // by engine index; nil after a fault
	clocks  []time.Duration        // each seat's time left, in a timed match
	fresh   map[int]bool           // clients that have had no newgame in this game
}

func (w *worker) close() {
	for _, c := range w.clients {
		c.Close()
	}
}

// seatPlayer plays one seat of a game.
type seatPlayer struct {
	engine int
	player search.Player // built-in
}

// play plays one game; ok is false when ctx was cancelled during it.
func (w *worker) play(ctx context.Context, j job) (res GameResult, ok bool) {
	cfg := w.cfg
	g := cfg.Game
	h := game.NewHistory(g, nil)
	for _, m := range j.moves {
		h.Play(m)
	}
	seats := make([]seatPlayer, len(j.seats))
	for s, e := range j.seats {
		seats[s].engine = e
		if !cfg.Engines[e].External() {
			p, err := cfg.NewPlayer(g, cfg.Engines[e].Level, playerSeed(cfg.Seed, j.number, s))
			if err != nil {
				return res, false // checked in Config.check
			}
			seats[s].player = p
		}
	}
	w.fresh = map[int]bool{}
	for _, e := range j.seats {
		w.fresh[e] = true
	}
	res = GameResult{Number: j.number, Opening: j.opening, Seats: j.seats, FaultEngine: -1}
	w.clocks = nil
	if cfg.Clock != nil {
		w.clocks = make([]time.Duration, len(j.seats))
		for i := range w.clocks {
			w.clocks[i] = cfg.Clock.Base
		}
	}
	for !h.Over() {
		if ctx.Err() != nil {
			return res, false
		}
		seat := h.State().ToMove()
		e := seats[seat].engine
		start := cfg.TimeSource.Now()
		move, fault := w.move(ctx, seats[seat], h)
		if w.clocks != nil && fault == nil {
			w.clocks[seat] -= cfg.TimeSource.Now().Sub(start)
			if w.clocks[seat] < 0 {
				fault = &engine.Fault{Kind: engine.TimedOut, Detail: fmt.Sprintf("%s's clock ran out", g.PlayerName(seat))}
			} else {
				w.clocks[seat] += cfg.Clock.Increment
			}
		}
		if fault == nil {
			if err := h.Play(move); err != nil {
				fault = &engine.Fault{Kind: engine.Garbled, Detail: "illegal move " + move}
			}
		}
		if fault != nil {
			if ctx.Err() != nil {
				return res, false
			}
			w.forfeit(h, seat, e, j.seats, fault)
			res.Fault = cfg.Engines[e].Name + ": " + termination(fault)
			res.FaultEngine = e
			if c := w.clients[e]; c != nil {
				c.Kill()
				delete(w.clients, e)
			}
		}
	}
	res.Outcome = h.Outcome()
	res.Plies = h.Ply()
	tags := []record.Tag{
		{Name: "Event", Value: "stax match"},
		record.DateTag(cfg.Now()),
		{Name: "Round", Value: strconv.Itoa(j.number)},
	}
	for s, e := range j.seats {
		tags = append(tags, cfg.Engines[e].Seat().Tag(s))
	}
	tags = append(tags, record.Tag{Name: "Opening", Value: fmt.Sprintf("%d (%d random plies)", j.opening, len(j.moves))})
	switch {
	case cfg.Clock != nil:
		tags = append(tags, record.Tag{Name: "TimeControl", Value: cfg.Clock.String()})
	case cfg.MoveTime > 0:
		tags = append(tags, record.Tag{Name: "TimeControl", Value: fmt.Sprintf("movetime %dms", cfg.MoveTime.Milliseconds())})
	}
	res.Record = record.FromHistory(h, tags...)
	return res, true
}

// goParams returns the parameters of the go command of every move, with
// unit written after the move time (for the report).
func (c *Config) goParams(unit string) string {
	var ps []string
	if c.MoveTime > 0 {
		ps = append(ps, fmt.Sprintf("movetime %d%s", c.MoveTime.Milliseconds(), unit))
	}
	if c.Depth > 0 {
		ps = append(ps, fmt.Sprintf("depth %d", c.Depth))
	}
	if c.Nodes > 0 {
		ps = append(ps, fmt.Sprintf("nodes %d", c.Nodes))
	}
	if c.Clock != nil && unit != "" {
		ps = append(ps, "clock "+c.Clock.String())
	}
	return strings.Join(ps, " ")
}

// clockParams returns the go parameters of the seats' clocks.
func (w *worker) clockParams() string {
	var b strings.Builder
	for i, left := range w.clocks {
		fmt.Fprintf(&b, " time%d %d inc%d %d", i+1, max(left.Milliseconds(), 0), i+1, w.cfg.Clock.Increment.Milliseconds())
	}
	return b.String()
}

// termination writes a fault as the Termination detail of a record.
func termination(f *engine.Fault) string {
	if f.Kind == engine.TimedOut {
		return "time: " + f.Detail
	}
	if strings.HasPrefix(f.Detail, "illegal move") {
		return "forfeit: " + f.Detail
	}
	return "forfeit: " + f.Kind.String() + ": " + f.Detail
}

// forfeit ends the game as lost by every seat of engine e (and the
// partners of the faulting seat): the other seats win.
func (w *worker) forfeit(h *game.History, seat, e int, seats []int, f *engine.Fault) {
	g := h.Game()
	reason := game.ByForfeit
	detail := strings.TrimPrefix(termination(f), "forfeit: ")
	if f.Kind == engine.TimedOut {
		reason = game.ByTime
		detail = f.Detail
	}
	tm, _ := g.(game.Teams)
	var winners []int
	for s := range seats {
		if seats[s] == e || s == seat || tm != nil && tm.SameTeam(s, seat) {
			continue
		}
		winners = append(winners, s)
	}
	h.End(game.Decided(g.Players(), reason, detail, winners...))
}

// oneLine keeps a message on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// playerSeed returns the seed of the built-in player of a seat in the game
// numbered number.
func playerSeed(seed uint64, number, seat int) uint64 {
	return seed*0x9e3779b97f4a7c15 + uint64(number)*game.MaxPlayers + uint64(seat) + 1
}

// move asks the seat's engine for a move in the game's position.
func (w *worker) move(ctx context.Context, sp seatPlayer, h *game.History) (string, *engine.Fault) {
	cfg := w.cfg
	limit := cfg.limit()
	lim := search.Limits{Time: cfg.MoveTime, Depth: cfg.Depth, Nodes: cfg.Nodes}
	params := cfg.goParams("")
	if w.clocks != nil {
		left := w.clocks[h.State().ToMove()]
		limit = max(left, time.Millisecond)
		lim.Clock = search.Clock{Remaining: limit, Increment: cfg.Clock.Increment}
		params = strings.TrimSpace(params + w.clockParams())
	}
	if sp.player != nil {
		mctx, cancel := context.WithCancel(ctx)
		defer cancel()
		timeUp, stop := cfg.TimeSource.After(limit)
		defer stop()
		go func() {
			select {
			case <-timeUp:
				cancel()
			case <-mctx.Done():
			}
		}()
		start := cfg.TimeSource.Now()
		pos := search.PositionOf(h)
		res, err := search.Ask(mctx, sp.player, pos, lim, nil)
		switch {
		case cfg.TimeSource.Now().Sub(start) > limit:
			return "", &engine.Fault{Kind: engine.TimedOut, Detail: fmt.Sprintf("no move within %v", limit)}
		case errors.Is(err, game.ErrIllegalMove):
			return "", &engine.Fault{Kind: engine.Garbled, Detail: err.Error()}
		case err != nil:
			return "", &engine.Fault{Kind: engine.Refused, Detail: oneLine(err.Error())}
		}
		return pos.State.FormatMove(res.Move), nil
	}
	c := w.clients[sp.engine]
	if c == nil {
		var err error
		c, err = engine.StartWithClock(cfg.Engines[sp.engine].Command, handshakeTimeout, cfg.TimeSource)
		if err != nil {
			return "", asFault(err, "failed to start")
		}
		w.clients[sp.engine] = c
	}
	spec := ""
	if w.fresh[sp.engine] {
		spec = game.SpecOf(cfg.Game).String()
		w.fresh[sp.engine] = false
	}
	if err := c.Setup(spec, nil, "startpos", h.Notation(), max(limit, 5*time.Second)); err != nil {
		return "", asFault(err, "")
	}
	res, err := c.Go(params, limit)
	if err != nil {
		return "", asFault(err, "")
	}
	return res.Move, nil
}

// asFault turns an error into a Fault, with a prefix for the detail.
func asFault(err error, prefix string) *engine.Fault {
	var f *engine.Fault
	if !errors.As(err, &f) {
		f = &engine.Fault{Kind: engine.Crashed, Detail: oneLine(err.Error())}
	}
	if prefix != "" {
		f = &engine.Fault{Kind: f.Kind, Detail: prefix + ": " + f.Detail}
	}
	return f
}

// Write prints the report: a line about the match, the table, and the
// SPRT's state.
func (r *Report) Write(w io.Writer) {
	cfg := r.Config
	tc := "each engine's own budget per move"
	if p := cfg.goParams("ms"); p != "" {
		tc = p
	}
	plies := "plies"
	if cfg.Openings == 1 {
		plies = "ply"
	}
	fmt.Fprintf(w, "Match: %s, %d of %d games, %s, openings of %d random %s (seed %d), %.1fs\n\n",
		game.SpecOf(cfg.Game), len(r.Games), cfg.Games, tc, cfg.Openings, plies, cfg.Seed, r.Elapsed.Seconds())
	r.Table.Write(w)
	if t := cfg.SPRT; t != nil {
		lo, hi := t.Bounds()
		gp := r.Table.GamePairs()
		fmt.Fprintf(w, "\nSPRT of %s against %s, elo0 %g, elo1 %g, on %d game pairs %s: LLR %.2f (bounds %.2f, %.2f): %s\n",
			r.Table.Names[0], r.Table.Names[1], t.Elo0, t.Elo1, gp.N, pentanomial(gp), t.LLR(gp), lo, hi, r.Decision)
	}
}
