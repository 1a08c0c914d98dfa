package bot

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"stax/engine"
	"stax/game"
	"stax/games"
	"stax/search"
	"stax/server/bots"
	"stax/server/lobby"
)

// engineLogEnv makes the test binary an engine (see TestMain) that
// appends every command it reads to the file the variable names.
const engineLogEnv = "STAX_BOT_TEST_ENGINE_LOG"

func TestMain(m *testing.M) {
	if path := os.Getenv(engineLogEnv); path != "" {
		os.Exit(runTestEngine(path))
	}
	os.Exit(m.Run())
}

// runTestEngine speaks the engine protocol on standard input and output
// with a random player, logging the commands it reads to path.
func runTestEngine(path string) int {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return 1
	}
	defer f.Close()
	srv := engine.NewServer(engine.Config{Registry: games.All(), Level: "random",
		NewPlayer: func(g game.Game, level string) (search.Player, error) { return search.NewRandom(1), nil }})
	if err := srv.Run(context.Background(), io.TeeReader(os.Stdin, f), os.Stdout); err != nil {
		return 1
	}
	return 0
}

// recorder is an Engine that records the turns it is asked about and
// plays the last legal move (the bot's own fallback is the first).
type recorder struct {
	// changed, when set, is called after each change, for tests that
	// wait on the recorder.
	changed func()

	mu      sync.Mutex
	turns   []Turn
	started int
	closed  int
}

func (r *recorder) NewPlayer(ctx context.Context, spec string) (Player, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.started++
	return recPlayer{r}, nil
}

type recPlayer struct{ r *recorder }

func (p recPlayer) Move(ctx context.Context, t Turn) (string, error) {
	p.r.mu.Lock()
	p.r.turns = append(p.r.turns, t)
	p.r.mu.Unlock()
	p.r.notify()
	return t.Legal[len(t.Legal)-1], nil
}

func (p recPlayer) Close() error {
	p.r.mu.Lock()
	p.r.closed++
	p.r.mu.Unlock()
	p.r.notify()
	return nil
}

// notify calls changed, r.mu not held.
func (r *recorder) notify() {
	if r.changed != nil {
		r.changed()
	}
}

// lockedBuffer is a buffer for the bot's log.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startBot runs a bot against the fake server until the test ends, and
// checks then that Run returned nil; the bot's log is shown when the test
// fails.
func startBot(t *testing.T, f *fakeServer, cfg Config) {
	t.Helper()
	cfg.URL, cfg.Token = f.srv.URL, "secret"
	if cfg.MinBackoff == 0 {
		cfg.MinBackoff, cfg.MaxBackoff = 10*time.Millisecond, 50*time.Millisecond
	}
	var logs lockedBuffer
	cfg.Log = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run = %v; want nil after its context is cancelled", err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("Run has not returned 30s after its context was cancelled")
		}
		if t.Failed() {
			t.Logf("the bot's log:\n%s", logs.String())
		}
	})
}

// anyGame is a policy that accepts every game.
var anyGame = Policy{Rated: true, Casual: true, Fischer: true, Correspondence: true, Concurrent: 4}

func TestDecide(t *testing.T) {
	p := Policy{
		Variants: []Variant{{Game: "pogo"}, {Game: "pisola", Spec: "pisola(size=8)"}},
		Casual:   true, Fischer: true, MinInitial: time.Minute, MaxInitial: 10 * time.Minute, MaxIncrement: 5 * time.Second,
		Concurrent: 2,
	}
	fischer := func(initial, inc time.Duration) Challenge {
		return Challenge{From: "ann", Spec: "pogo", Fischer: true, Initial: initial, Increment: inc}
	}
	with := func(c Challenge, change func(*Challenge)) Challenge { change(&c); return c }
	only := p
	only.From = []string{"Ann"}
	tests := []struct {
		name    string
		p       Policy
		c       Challenge
		playing int
		want    string // "" to accept
	}{
		{"pogo 3+2", p, fischer(3*time.Minute, 2*time.Second), 0, ""},
		{"any pogo variant", p, with(fischer(3*time.Minute, 0), func(c *Challenge) { c.Spec = "pogo(u=false)" }), 1, ""},
		{"the variant listed", p, with(fischer(3*time.Minute, 0), func(c *Challenge) { c.Spec = "pisola(size=8)" }), 0, ""},
		{"another variant", p, with(fischer(3*time.Minute, 0), func(c *Challenge) { c.Spec = "pisola" }), 0, DeclineVariant},
		{"a game not listed", p, with(fischer(3*time.Minute, 0), func(c *Challenge) { c.Spec = "diam" }), 0, DeclineVariant},
		{"rated", p, with(fischer(3*time.Minute, 0), func(c *Challenge) { c.Rated = true }), 0, DeclineRated},
		{"casual, rated only", Policy{Rated: true, Fischer: true, Concurrent: 1}, fischer(time.Minute, 0), 0, DeclineCasual},
		{"too little time", p, fischer(30*time.Second, 0), 0, DeclineTooFast},
		{"at the least time", p, fischer(time.Minute, 0), 0, ""},
		{"too much time", p, fischer(15*time.Minute, 0), 0, DeclineTooSlow},
		{"too much increment", p, fischer(3*time.Minute, 10*time.Second), 0, DeclineTooSlow},
		{"correspondence", p, Challenge{From: "ann", Spec: "pogo", Days: 3}, 0, DeclineTimeControl},
		{"no clock", p, Challenge{From: "ann", Spec: "pogo"}, 0, DeclineTimeControl},
		{"correspondence accepted", anyGame, Challenge{From: "ann", Spec: "diam", Days: 3}, 0, ""},
		{"fischer refused", Policy{Casual: true, Correspondence: true, Concurrent: 1}, fischer(time.Minute, 0), 0, DeclineTimeControl},
		{"busy", p, fischer(3*time.Minute, 0), 2, DeclineLater},
		{"from a listed account", only, fischer(3*time.Minute, 0), 0, ""},
		{"from another account", only, with(fischer(3*time.Minute, 0), func(c *Challenge) { c.From = "bob" }), 0, DeclineGeneric},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.p.Decide(tt.c, tt.playing)
			switch {
			case tt.want == "" && !d.Accept:
				t.Errorf("Decide(%+v) declines (%s: %s); want it accepted", tt.c, d.Reason, d.Why)
			case tt.want != "" && (d.Accept || d.Reason != tt.want || d.Why == ""):
				t.Errorf("Decide(%+v) = %+v; want it declined with the reason %s and why", tt.c, d, tt.want)
			}
		})
	}
}

func TestParseVariants(t *testing.T) {
	tests := []struct {
		in   string
		want []Variant
		err  string
	}{
		{"pogo", []Variant{{Game: "pogo"}}, ""},
		{" pogo , Diam ", []Variant{{Game: "pogo"}, {Game: "diam"}}, ""},
		{"pisola(roofs=true,size=8),pogo(u=true)", []Variant{{Game: "pisola", Spec: "pisola(roofs=true,size=8)"}, {Game: "pogo", Spec: "pogo"}}, ""},
		{"pisola(size=6)", []Variant{{Game: "pisola", Spec: "pisola"}}, ""},
		{"chess", nil, "unknown game"},
		{"pogo,,diam", nil, "an empty entry"},
		{"pisola(size=7)", nil, "size"},
	}
	for _, tt := range tests {
		got, err := ParseVariants(games.All(), tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseVariants(%q) = %v, %v; want an error mentioning %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ParseVariants(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// TestChallenges sends the bot challenges through its event stream: it
// accepts those its policy allows, declines the others with the reason,
// and ignores its own.
func TestChallenges(t *testing.T) {
	f := newFakeServer(t)
	vs, err := ParseVariants(games.All(), "pogo")
	if err != nil {
		t.Fatal(err)
	}
	startBot(t, f, Config{Engine: &recorder{}, Policy: Policy{Variants: vs, Casual: true, Fischer: true, MinInitial: time.Minute, Concurrent: 1}})
	f.waitFor("the event stream", func() bool { return len(f.events) > 0 })
	blitz := &lobby.ClockSpec{Initial: 180, Increment: 2}
	f.event(bots.Event{Type: bots.EventChallenge, Challenge: &lobby.Seek{ID: "mine", Owner: "Robot", To: "ann", Spec: "pogo", Clock: blitz, Seat: -1}})
	tests := []struct {
		id, from, spec string
		rated          bool
		clock          *lobby.ClockSpec
		days           int
		want           string
	}{
		{"c1", "ann", "diam", false, blitz, 0, DeclineVariant},
		{"c2", "ann", "pogo", true, blitz, 0, DeclineRated},
		{"c3", "ann", "pogo", false, &lobby.ClockSpec{Initial: 30}, 0, DeclineTooFast},
		{"c4", "ann", "pogo", false, nil, 3, DeclineTimeControl},
		{"c5", "ann", "pogo", false, blitz, 0, "accept"},
		// One game at once: c5's is under way.
		{"c6", "bob", "pogo", false, blitz, 0, DeclineLater},
	}
	for _, tt := range tests {
		f.challenge(tt.id, tt.from, tt.spec, tt.rated, tt.clock, tt.days)
		f.waitFor("the answer to "+tt.id, func() bool { return f.answers[tt.id] != "" })
		f.mu.Lock()
		got := f.answers[tt.id]
		f.mu.Unlock()
		if got != tt.want {
			t.Errorf("challenge %s (%s, rated %v, clock %v, %d days): answered %q; want %q", tt.id, tt.spec, tt.rated, tt.clock, tt.days, got, tt.want)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if a, ok := f.answers["mine"]; ok {
		t.Errorf("the bot answered its own challenge: %q", a)
	}
}

// waitMoves waits until the bot has sent n moves, and returns them.
func (f *fakeServer) waitMoves(n int) []fakeMove {
	f.t.Helper()
	f.waitFor(fmt.Sprintf("%d moves of the bot", n), func() bool { return len(f.moves) >= n })
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.moves)
}

// TestPlaysAGame plays a game with the bot to its end: the bot moves
// whenever its seat is to move, with its engine's move, and closes its
// player when the game is over.
func TestPlaysAGame(t *testing.T) {
	f := newFakeServer(t)
	g := f.newGame("pisola", []int{0}, nil, 0)
	rec := &recorder{changed: f.poke}
	startBot(t, f, Config{Engine: rec, Policy: anyGame, MoveTime: 50 * time.Millisecond})
	for i := 1; i <= 5; i++ {
		moves := f.waitMoves(i)
		last := moves[i-1]
		if last.game != g.id || last.ply != 2*(i-1) {
			t.Fatalf("move %d: %+v; want one of %s at ply %d", i, last, g.id, 2*(i-1))
		}
		if i < 5 {
			f.opponentMove(g.id)
		}
	}
	f.finish(g.id)
	f.waitFor("the player closed", func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return rec.closed == 1
	})
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.started != 1 || len(rec.turns) != 5 {
		t.Errorf("%d players started, %d turns; want 1 player for 5 turns", rec.started, len(rec.turns))
	}
	for i, tu := range rec.turns {
		if tu.Clocks != nil || tu.MoveTime != 50*time.Millisecond || len(tu.Moves) != 2*i || tu.Seat != 0 {
			t.Errorf("turn %d: %+v; want no clocks, the move time, %d moves and seat 0", i, tu, 2*i)
		}
		if mv := f.moves[i].move; mv != tu.Legal[len(tu.Legal)-1] {
			t.Errorf("turn %d: the bot sent %s; want its engine's move %s", i, mv, tu.Legal[len(tu.Legal)-1])
		}
	}
}

// TestDrawDeclined: a draw offered to the bot is declined once, however
// many states show it, and the game goes on.
func TestDrawDeclined(t *testing.T) {
	f := newFakeServer(t)
	g := f.newGame("pogo", []int{1}, nil, 0)
	startBot(t, f, Config{Engine: &recorder{}, Policy: anyGame, MoveTime: 10 * time.Millisecond})
	f.waitFor("the game followed", func() bool { return g.opened > 0 })
	offer := g.state()
	offer.DrawOffer = new(int) // seat 0, the opponent, offers
	f.gameLine(g.id, offer)
	f.gameLine(g.id, offer)
	f.waitFor("the offer declined", func() bool { return len(f.draws) > 0 })
	f.opponentMove(g.id)
	f.waitMoves(1)
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.draws) != 1 || f.draws[0] != g.id+" no" {
		t.Errorf("the bot answered the draw offers %v; want one decline of %s", f.draws, g.id)
	}
}

// TestResume starts the bot while a game of its account is under way and
// its seat is to move: the event stream's gameStart makes it follow the
// game, and its engine is asked for the move with every move so far and
// the clocks.
func TestResume(t *testing.T) {
	f := newFakeServer(t)
	g := f.newGame("pogo", []int{1}, []int64{41000, 52000}, 2000)
	for range 3 {
		f.opponentMove(g.id)
	}
	played := g.h.Notation()
	rec := &recorder{}
	before := time.Now()
	startBot(t, f, Config{Engine: rec, Policy: anyGame})
	moves := f.waitMoves(1)
	if moves[0].game != g.id || moves[0].ply != 3 {
		t.Fatalf("the bot sent %+v; want the move of ply 3 of %s", moves[0], g.id)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	tu := rec.turns[0]
	if !slices.Equal(tu.Moves, played) || tu.Seat != 1 || tu.Spec != "pogo" || tu.Game != g.id {
		t.Errorf("turn %+v; want seat 1 of pogo %s after %q", tu, g.id, played)
	}
	// The opponent's clock is as sent; the bot's own is counted down
	// from when the state came.
	if len(tu.Clocks) != 2 || tu.Clocks[0] != 41*time.Second || tu.Clocks[1] > 52*time.Second || tu.Clocks[1] < 42*time.Second || tu.Increment != 2*time.Second {
		t.Errorf("clocks %v + %v; want [41s, at most 52s] + 2s", tu.Clocks, tu.Increment)
	}
	margin := clockMargin(52 * time.Second)
	if tu.Deadline.Before(before.Add(52*time.Second-margin)) || tu.Deadline.After(time.Now().Add(52*time.Second-margin)) {
		t.Errorf("deadline %v after the start; want within the bot's 52s less a margin", tu.Deadline.Sub(before))
	}
}

// TestReconnect drops every stream in the middle of a game: the bot
// connects again to the event stream and to the game's, and plays on.
func TestReconnect(t *testing.T) {
	f := newFakeServer(t)
	g := f.newGame("pogo", []int{1}, []int64{60000, 60000}, 0)
	rec := &recorder{changed: f.poke}
	startBot(t, f, Config{Engine: rec, Policy: anyGame})
	f.waitFor("the game followed", func() bool { return len(g.streams) == 1 })
	f.opponentMove(g.id)
	f.waitMoves(1)
	f.dropAll()
	f.waitFor("both streams again", func() bool { return f.eventsN == 2 && g.opened == 2 })
	f.opponentMove(g.id)
	if m := f.waitMoves(2)[1]; m.ply != 3 {
		t.Errorf("after the reconnection the bot sent %+v; want the move of ply 3", m)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.started != 1 {
		t.Errorf("%d players started; want the game's one, kept across the reconnection", rec.started)
	}
}

// TestQuiet serves an event stream that sends nothing, not even its
// keep-alives: the bot takes the connection for dead and connects again.
func TestQuiet(t *testing.T) {
	f := newFakeServer(t)
	f.silent = true
	startBot(t, f, Config{Engine: &recorder{}, Policy: anyGame, Quiet: 100 * time.Millisecond})
	f.waitFor("a second connection", func() bool { return f.eventsN >= 2 })
}

// TestRefusedToken checks that a token the server refuses ends Run at
// once with an error that says so.
func TestRefusedToken(t *testing.T) {
	f := newFakeServer(t)
	b, err := New(Config{URL: f.srv.URL, Token: "wrong", Engine: &recorder{}, Policy: anyGame})
	if err != nil {
		t.Fatal(err)
	}
	err = b.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "refused the token") || !strings.Contains(err.Error(), "401") {
		t.Errorf("Run with a wrong token = %v; want the server's refusal", err)
	}
}

func TestNew(t *testing.T) {
	for _, tt := range []struct {
		cfg  Config
		want string
	}{
		{Config{URL: "stax.example.org", Token: "t", Engine: &recorder{}}, "want http:// or https://"},
		{Config{URL: "https://stax.example.org", Engine: &recorder{}}, "missing the token"},
		{Config{URL: "https://stax.example.org", Token: "t"}, "missing the engine"},
	} {
		if _, err := New(tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%+v) = %v; want an error mentioning %q", tt.cfg, err, tt.want)
		}
	}
}

// TestClaimVictory: when the server says the opponent left and when the
// bot may claim the game, the bot claims it then.
func TestClaimVictory(t *testing.T) {
	f := newFakeServer(t)
	g := f.newGame("pogo", []int{1}, []int64{60000, 60000}, 0)
	startBot(t, f, Config{Engine: &recorder{}, Policy: anyGame})
	f.waitFor("the game followed", func() bool { return len(g.streams) == 1 })
	f.gameLine(g.id, bots.OpponentGone{Type: bots.LineOpponentGone, Gone: true, ClaimWinInSeconds: 0})
	f.waitFor("the claim", func() bool { return len(f.claims) == 1 })
}

// TestEngineFails runs the bot with an engine that cannot start: it
// plays the first legal move rather than let its clock run out.
func TestEngineFails(t *testing.T) {
	f := newFakeServer(t)
	g := f.newGame("pogo", []int{0}, []int64{60000, 60000}, 0)
	first := g.state().Legal[0]
	startBot(t, f, Config{Engine: &Process{Command: []string{filepath.Join(t.TempDir(), "no-such-engine")}}, Policy: anyGame})
	if m := f.waitMoves(1)[0]; m.move != first {
		t.Errorf("the bot sent %+v; want the first legal move, %s", m, first)
	}
}

// TestProcessEngine plays moves with an engine process (this test binary
// acting as one, logging what it reads): it is told the variant, every
// move so far and, in go, both seats' clocks.
func TestProcessEngine(t *testing.T) {
	log := filepath.Join(t.TempDir(), "engine.log")
	t.Setenv(engineLogEnv, log)
	f := newFakeServer(t)
	g := f.newGame("diam", []int{1}, []int64{41000, 52000}, 2000)
	f.opponentMove(g.id)
	startBot(t, f, Config{Engine: &Process{Command: []string{os.Args[0]}}, Policy: anyGame})
	f.waitMoves(1)
	f.opponentMove(g.id)
	f.waitMoves(2)
	f.mu.Lock()
	played := g.h.Notation()
	f.mu.Unlock()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var gos, positions []string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "go "):
			gos = append(gos, l)
		case strings.HasPrefix(l, "position "):
			positions = append(positions, l)
		}
	}
	if !slices.Contains(lines, "newgame diam") {
		t.Errorf("the engine read %q; want newgame diam", lines)
	}
	if want := "position startpos moves " + strings.Join(played[:3], " "); len(positions) != 2 || positions[1] != want {
		t.Errorf("positions %q; want the second %q", positions, want)
	}
	if len(gos) != 2 {
		t.Fatalf("go lines %q; want two", gos)
	}
	var t1, i1, t2, i2 int
	if _, err := fmt.Sscanf(gos[0], "go time1 %d inc1 %d time2 %d inc2 %d", &t1, &i1, &t2, &i2); err != nil || t1 != 41000 || i1 != 2000 || i2 != 2000 || t2 > 52000 || t2 < 42000 {
		t.Errorf("go line %q; want time1 41000 inc1 2000 time2 (52000 less the time since the state came) inc2 2000", gos[0])
	}
}

// limitsPlayer is a search.Player that records the limits it is given and
// plays randomly.
type limitsPlayer struct {
	mu     sync.Mutex
	limits []search.Limits
	random search.Player
}

func (p *limitsPlayer) Play(ctx context.Context, pos search.Position, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	p.mu.Lock()
	p.limits = append(p.limits, lim)
	p.mu.Unlock()
	return p.random.Play(ctx, pos, lim, report)
}

// TestSearchEngine plays a game's moves with an in-process player: it is
// given the mover's clock in a timed game, and the move time in another.
func TestSearchEngine(t *testing.T) {
	lp := &limitsPlayer{random: search.NewRandom(1)}
	eng := &Search{Registry: games.All(), Computer: func(g game.Game) (search.Player, error) { return lp, nil }}
	p, err := eng.NewPlayer(context.Background(), "pisola(size=8)")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	g, _ := games.Load("pisola(size=8)")
	h := game.NewHistory(g, nil)
	for range 3 {
		h.PlayMove(h.State().Legal(nil)[0])
	}
	var legal []string
	for _, m := range h.State().Legal(nil) {
		legal = append(legal, h.State().FormatMove(m))
	}
	turns := []Turn{
		{Spec: "pisola(size=8)", Moves: h.Notation(), Seat: 1, Legal: legal, Clocks: []time.Duration{time.Minute, 30 * time.Second}, Increment: time.Second, Deadline: time.Now().Add(29 * time.Second)},
		{Spec: "pisola(size=8)", Moves: h.Notation(), Seat: 1, Legal: legal, MoveTime: 20 * time.Millisecond, Deadline: time.Now().Add(time.Second)},
	}
	for _, tu := range turns {
		mv, err := p.Move(context.Background(), tu)
		if err != nil || !slices.Contains(legal, mv) {
			t.Errorf("Move = %q, %v; want a legal move", mv, err)
		}
	}
	want := []search.Limits{{Clock: search.Clock{Remaining: 30 * time.Second, Increment: time.Second}}, {Time: 20 * time.Millisecond}}
	if !slices.Equal(lp.limits, want) {
		t.Errorf("the player was given %+v; want %+v", lp.limits, want)
	}
	if _, err := eng.NewPlayer(context.Background(), "pisola(size=7)"); err == nil {
		t.Error("NewPlayer of a variant that does not exist: no error")
	}
}
