package match

import (
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"stax/ai"
	"stax/engine/internal/enginetest"
	"stax/game"
	"stax/game/record"
	"stax/games"
	"stax/search"
)

// progs holds the programs built by TestMain.
var progs enginetest.Programs

func TestMain(m *testing.M) {
	enginetest.Main(m, &progs, false)
}

func TestParseEngine(t *testing.T) {
	tests := []struct {
		in   string
		want Engine
		err  bool
	}{
		{"stax:hard", Engine{Name: "stax:hard", Level: "hard"}, false},
		{"h=stax:hard", Engine{Name: "h", Level: "hard"}, false},
		{"mine=./bot --depth 3", Engine{Name: "mine", Command: []string{"./bot", "--depth", "3"}}, false},
		{"./bot --opt=1", Engine{Name: "./bot --opt=1", Command: []string{"./bot", "--opt=1"}}, false},
		{`b="/my dir/bot" -q`, Engine{Name: "b", Command: []string{"/my dir/bot", "-q"}}, false},
		{"x=", Engine{}, true},
		{"x=stax:", Engine{}, true},
		{"x='open", Engine{}, true},
	}
	for _, tc := range tests {
		got, err := ParseEngine(tc.in)
		if (err != nil) != tc.err || got.Name != tc.want.Name || got.Level != tc.want.Level || !slices.Equal(got.Command, tc.want.Command) {
			t.Errorf("ParseEngine(%q) = %+v, %v; want %+v, error %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestLineups(t *testing.T) {
	tests := []struct {
		engines, seats int
		want           [][]int
	}{
		{2, 2, [][]int{{0, 1}, {1, 0}}},
		{1, 2, [][]int{{0, 0}}},
		{2, 4, [][]int{{0, 1, 0, 1}, {1, 0, 1, 0}}},
		{3, 2, [][]int{{0, 1}, {1, 0}, {0, 2}, {2, 0}, {1, 2}, {2, 1}}},
		{4, 4, [][]int{{0, 1, 2, 3}, {1, 2, 3, 0}, {2, 3, 0, 1}, {3, 0, 1, 2}}},
	}
	for _, tc := range tests {
		got := lineups(tc.engines, tc.seats)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("lineups(%d, %d) = %v; want %v", tc.engines, tc.seats, got, tc.want)
		}
	}
	// Every engine gets every seat equally often over the rotations.
	for _, c := range [][2]int{{3, 4}, {5, 4}, {5, 2}} {
		count := map[[2]int]int{}
		for _, l := range lineups(c[0], c[1]) {
			for s, e := range l {
				count[[2]int{e, s}]++
			}
		}
		for s := 0; s < c[1]; s++ {
			for e := 1; e < c[0]; e++ {
				if count[[2]int{e, s}] != count[[2]int{0, s}] {
					t.Errorf("lineups(%d, %d): engine %d sits in seat %d %d times, engine 0 %d times", c[0], c[1], e, s, count[[2]int{e, s}], count[[2]int{0, s}])
				}
			}
		}
	}
}

func TestOpening(t *testing.T) {
	g, _ := games.Load("pogo")
	a, b := opening(g, 4, 7, 3), opening(g, 4, 7, 3)
	if len(a) != 4 || !slices.Equal(a, b) {
		t.Errorf("opening(pogo, 4, 7, 3) = %q then %q; want the same 4 plies", a, b)
	}
	if c := opening(g, 4, 7, 4); slices.Equal(a, c) {
		t.Errorf("openings 3 and 4 are both %q", a)
	}
	if len(opening(g, 0, 7, 3)) != 0 {
		t.Error("an opening of 0 plies has moves")
	}
}

func TestStats(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 0.5 }
	if e := EloOf(0.75); !near(e, 190.85) {
		t.Errorf("EloOf(0.75) = %.2f; want 190.85", e)
	}
	if p := ExpectedScore(EloOf(0.3)); math.Abs(p-0.3) > 1e-9 {
		t.Errorf("ExpectedScore(EloOf(0.3)) = %v", p)
	}
	var s Score
	for i := 0; i < 100; i++ {
		s.add([]float64{1, 0.5, 0}[i%3])
	}
	e, lo, hi := s.Elo()
	if !(lo < e && e < hi) || math.Abs(e-EloOf(s.Mean())) > 1e-9 {
		t.Errorf("Elo() = %.1f [%.1f, %.1f]; want the estimate inside its interval", e, lo, hi)
	}
	// 34 wins, 33 draws, 33 losses: a mean of 0.505, variance about 0.67.
	if hi-lo < 100 || hi-lo > 150 {
		t.Errorf("interval width %.1f; want about 130 for 100 games with a third of draws", hi-lo)
	}
	var all Score
	for i := 0; i < 10; i++ {
		all.add(1)
	}
	// The Wilson bound of 10 wins in 10 games: 10 / (10 + 1.96²).
	if e, lo, _ := all.Elo(); !math.IsInf(e, 1) || !near(lo, EloOf(10/(10+1.96*1.96))) {
		t.Errorf("a perfect score: Elo %v, lower bound %v; want +inf and the Wilson bound %.1f", e, lo, EloOf(10/(10+1.96*1.96)))
	}
	// All draws: an estimate of 0 inside an interval of some width, which
	// narrows as the draws accumulate.
	width := math.Inf(1)
	for _, n := range []int{1, 8, 100} {
		e, lo, hi := scores(0, n, 0).Elo()
		if e != 0 || !(lo < -10 && hi > 10) || math.Abs(lo+hi) > 1 || hi-lo >= width {
			t.Errorf("%d draws: Elo %.1f [%.1f, %.1f]; want 0 in a symmetric interval narrower than %.1f", n, e, lo, hi, width)
		}
		width = hi - lo
	}
	tests := []struct {
		sprt SPRT
		s    Score
		want Decision
	}{
		{SPRT{Elo0: 0, Elo1: 50}, scores(60, 20, 20), AcceptH1},
		{SPRT{Elo0: 0, Elo1: 50}, scores(20, 20, 60), AcceptH0},
		{SPRT{Elo0: 0, Elo1: 50}, scores(11, 0, 9), Continue},
		{SPRT{Elo0: 0, Elo1: 200}, scores(20, 0, 0), AcceptH1},
	}
	for _, tc := range tests {
		if got := tc.sprt.Decide(tc.s); got != tc.want {
			t.Errorf("%+v.Decide(+%d =%d -%d) = %v (LLR %.2f); want %v", tc.sprt, tc.s.Wins, tc.s.Draws, tc.s.Losses, got, tc.sprt.LLR(tc.s), tc.want)
		}
	}
}

func scores(w, d, l int) Score {
	var s Score
	for range w {
		s.add(1)
	}
	for range d {
		s.add(0.5)
	}
	for range l {
		s.add(0)
	}
	return s
}

// check replays every record and compares it with its game.
func checkRecords(t *testing.T, rep *Report, text string) {
	t.Helper()
	recs, err := record.ParseAll(text)
	if err != nil {
		t.Fatalf("the records do not parse: %v", err)
	}
	if len(recs) != len(rep.Games) {
		t.Fatalf("%d records for %d games", len(recs), len(rep.Games))
	}
	for i, r := range recs {
		h, err := r.Replay(games.All())
		if err != nil {
			t.Errorf("record %d: %v\n%s", i+1, err, r)
			continue
		}
		if got, want := h.Outcome().ResultString(), rep.Games[i].Outcome.ResultString(); got != want {
			t.Errorf("record %d replays to %s; the game ended %s", i+1, got, want)
		}
		if r.Get("Termination") == "" || r.Get("Seat1") == "" {
			t.Errorf("record %d lacks Termination or Seat1:\n%s", i+1, r)
		}
	}
}

// TestMisbehavingEngines plays a match in which four external engines
// crash, hang, play an illegal move and print garbage: it completes, and
// every fault is reported in the table and the records. The match runs on
// a fake clock, one game at a time: the hanging engine says when it
// hangs, and only then does the test move the clock past the move's
// timeout, so no other engine ever runs out of time.
func TestMisbehavingEngines(t *testing.T) {
	g, _ := games.Load("pogo")
	clock := enginetest.NewClock()
	const timeout = 500 * time.Millisecond
	hangs := advanceOnHang(t, clock, timeout)
	bad := func(mode string, after int) Engine {
		return Engine{Name: mode, Command: []string{progs.Bad, "-mode", mode, "-after", fmt.Sprint(after), "-signal", hangs}}
	}
	engines := []Engine{
		{Name: "random", Level: "random"},
		bad("crash", 1), bad("hang", 0), bad("illegal", 0), bad("garbage", 0),
		{Name: "stax", Command: []string{progs.Bad, "-mode", "none"}},
	}
	var out strings.Builder
	var statuses int
	cfg := Config{
		Game: g, Engines: engines, Games: len(lineups(len(engines), 2)), Concurrency: 1,
		MoveTime: 5 * time.Millisecond, Timeout: timeout, Openings: 2, Seed: 3,
		NewPlayer: ai.NewSeeded, Records: &out, Progress: func(Status) { statuses++ }, TimeSource: clock,
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Games) != cfg.Games || statuses != cfg.Games {
		t.Fatalf("%d games and %d progress calls; want %d", len(rep.Games), statuses, cfg.Games)
	}
	wantKind := map[string]string{"crash": "crash", "hang": "time", "illegal": "illegal move", "garbage": "protocol"}
	wantDetail := map[string]string{"crash": "simulated crash", "hang": "no bestmove within 500ms", "illegal": "illegal move 1a1-c3", "garbage": "I am a chess engine"}
	for e, eng := range engines {
		faults := rep.Table.Faults(e)
		kind, bad := wantKind[eng.Name]
		if !bad {
			if len(faults) != 0 {
				t.Errorf("%s: faults %v; want none", eng.Name, faults)
			}
			continue
		}
		if len(faults) != 1 || faults[kind] == 0 {
			t.Errorf("%s: faults %v; want only %s", eng.Name, faults, kind)
		}
	}
	for _, gr := range rep.Games {
		if gr.FaultEngine < 0 {
			for _, e := range gr.Seats {
				if _, bad := wantKind[engines[e].Name]; bad && engines[e].Name != "crash" {
					t.Errorf("game %d: %s played without a fault", gr.Number, engines[e].Name)
				}
			}
			continue
		}
		name := engines[gr.FaultEngine].Name
		if !strings.Contains(gr.Fault, wantDetail[name]) {
			t.Errorf("game %d: fault %q; want it to mention %q", gr.Number, gr.Fault, wantDetail[name])
		}
		if gr.Outcome.Reason != game.ByForfeit && gr.Outcome.Reason != game.ByTime {
			t.Errorf("game %d: reason %v after a fault", gr.Number, gr.Outcome.Reason)
		}
		for s, e := range gr.Seats {
			if lost := gr.Outcome.Results[s] == game.Loss; lost != (e == gr.FaultEngine) {
				t.Errorf("game %d: seat %d (%s) result %v after a fault by %s", gr.Number, s+1, engines[e].Name, gr.Outcome.Results[s], name)
			}
		}
	}
	checkRecords(t, rep, out.String())
	if !strings.Contains(out.String(), `[Termination "time: no bestmove within 500ms"]`) || !strings.Contains(out.String(), `[Termination "forfeit: illegal move 1a1-c3"]`) {
		t.Error("the records lack the time and illegal move terminations")
	}
	var table strings.Builder
	rep.Write(&table)
	wants := []string{"Faults (each lost the game):"}
	for e, eng := range engines {
		if kind, bad := wantKind[eng.Name]; bad {
			wants = append(wants, fmt.Sprintf("%s: %d × %s, e.g. ", eng.Name, rep.Table.Faults(e)[kind], kind))
		}
	}
	for _, want := range wants {
		if !strings.Contains(table.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, table.String())
		}
	}
	t.Logf("\n%s", table.String())
}

// advanceOnHang listens for the signals of badengine -mode hang -signal
// ADDR and returns ADDR: after each, once the client waits for the
// engine's answer, it advances clock by d. The listener closes when the
// test ends.
func advanceOnHang(t *testing.T, clock *enginetest.Clock, d time.Duration) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() {
		ln.Close()
		<-done
	})
	go func() {
		defer close(done)
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			io.Copy(io.Discard, conn)
			conn.Close()
			clock.WaitPending(t, 1)
			clock.Advance(d)
		}
	}()
	return ln.Addr().String()
}

// TestFourPlayers plays 4-player Diam, free-for-all and in teams, with
// built-in and external engines, and checks the pairwise scores.
func TestFourPlayers(t *testing.T) {
	for _, spec := range []string{"diam(players=4)", "diam(players=4,teams=true)"} {
		t.Run(spec, func(t *testing.T) {
			g, err := games.Load(spec)
			if err != nil {
				t.Fatal(err)
			}
			engines := []Engine{
				{Name: "random", Level: "random"},
				{Name: "greedy", Level: "greedy"},
				{Name: "ext", Command: []string{progs.Bad, "-mode", "none"}},
			}
			if strings.Contains(spec, "teams") {
				engines = engines[1:]
			}
			var out strings.Builder
			cfg := Config{Game: g, Engines: engines, Games: 2 * len(lineups(len(engines), 4)), MoveTime: 5 * time.Millisecond, Openings: 1, NewPlayer: ai.NewSeeded, Records: &out}
			rep, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			checkRecords(t, rep, out.String())
			for e := range engines {
				for f := range engines {
					if e == f {
						continue
					}
					p, q := rep.Table.Pair(e, f), rep.Table.Pair(f, e)
					if p.N != cfg.Games || math.Abs(p.Sum+q.Sum-float64(p.N)) > 1e-9 {
						t.Errorf("pair %s-%s: %d games, scores %v + %v; want %d games summing to that", engines[e].Name, engines[f].Name, p.N, p.Sum, q.Sum, cfg.Games)
					}
					if strings.Contains(spec, "teams") && p.Partial > 0 {
						t.Errorf("team game pair %s-%s has fractional scores", engines[e].Name, engines[f].Name)
					}
				}
			}
			var table strings.Builder
			rep.Write(&table)
			t.Logf("\n%s", table.String())
		})
	}
}

// TestSPRTStops checks that a decided SPRT ends the match early.
func TestSPRTStops(t *testing.T) {
	g, _ := games.Load("pogo")
	cfg := Config{
		Game: g, Engines: []Engine{{Name: "greedy", Level: "greedy"}, {Name: "random", Level: "random"}},
		Games: 400, MoveTime: time.Millisecond, Openings: 2, NewPlayer: ai.NewSeeded,
		SPRT: &SPRT{Elo0: 0, Elo1: 100},
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Decision != AcceptH1 || len(rep.Games) >= cfg.Games {
		t.Errorf("after %d games: %v; want H1 accepted early", len(rep.Games), rep.Decision)
	}
	var b strings.Builder
	rep.Write(&b)
	if !strings.Contains(b.String(), "SPRT of greedy against random") || !strings.Contains(b.String(), "H1 accepted") {
		t.Errorf("report lacks the SPRT line:\n%s", b.String())
	}
}

func TestCancel(t *testing.T) {
	g, _ := games.Load("pogo")
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	cfg := Config{
		Game: g, Engines: []Engine{{Name: "a", Level: "random"}, {Name: "b", Level: "random"}},
		Games: 1000, NewPlayer: ai.NewSeeded, Progress: func(st Status) {
			if st.Done >= 3 {
				once.Do(cancel)
			}
		},
	}
	rep, err := Run(ctx, cfg)
	if err != context.Canceled || rep == nil || len(rep.Games) < 3 || len(rep.Games) > 10 {
		t.Errorf("Run after cancel = %d games, %v; want a few games and context.Canceled", len(rep.Games), err)
	}
}

func TestConfigErrors(t *testing.T) {
	g, _ := games.Load("pogo")
	two := []Engine{{Name: "a", Level: "random"}, {Name: "b", Level: "random"}}
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no game", Config{Engines: two, Games: 1, NewPlayer: ai.NewSeeded}, "no game"},
		{"no engines", Config{Game: g, Games: 1, NewPlayer: ai.NewSeeded}, "no engines"},
		{"no games", Config{Game: g, Engines: two, NewPlayer: ai.NewSeeded}, "at least one game"},
		{"same names", Config{Game: g, Engines: []Engine{two[0], two[0]}, Games: 1, NewPlayer: ai.NewSeeded}, "two engines named"},
		{"bad level", Config{Game: g, Engines: []Engine{two[0], {Name: "x", Level: "godlike"}}, Games: 1, NewPlayer: ai.NewSeeded}, "godlike"},
		{"sprt of three", Config{Game: g, Engines: append(two, Engine{Name: "c", Level: "random"}), Games: 1, NewPlayer: ai.NewSeeded, SPRT: &SPRT{Elo1: 10}}, "exactly two"},
	}
	for _, tc := range tests {
		if _, err := Run(context.Background(), tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Run = %v; want an error mentioning %q", tc.name, err, tc.want)
		}
	}
}

func TestRatings(t *testing.T) {
	// a beats b 3:1 (about +191), b beats c 3:1: a should be about 382
	// above c. Priors pull the estimates in a little.
	pairs := make([][]Score, 3)
	for i := range pairs {
		pairs[i] = make([]Score, 3)
	}
	set := func(e, f int, w, d, l int) {
		pairs[e][f] = scores(w, d, l)
		pairs[f][e] = scores(l, d, w)
	}
	set(0, 1, 300, 0, 100)
	set(1, 2, 300, 0, 100)
	r := Ratings(pairs)
	if math.Abs(r[0]+r[1]+r[2]) > 1e-6 || math.Abs(r[0]-r[1]-190) > 5 || math.Abs(r[1]-r[2]-190) > 5 {
		t.Errorf("Ratings = %.1f; want steps of about 190 summing to 0", r)
	}
	// A perfect score still rates finitely.
	set(0, 1, 10, 0, 0)
	set(1, 2, 0, 0, 0)
	pairs[1][2], pairs[2][1] = Score{}, Score{}
	r = Ratings(pairs)
	if math.IsInf(r[0], 0) || math.IsNaN(r[0]) || r[0] <= r[1] || math.Abs(r[0]+r[1]+r[2]) > 1e-6 {
		t.Errorf("Ratings with a perfect score and a loner = %.1f", r)
	}
}

func TestFmtScore(t *testing.T) {
	third := 1.0 / 3
	tests := []struct {
		x    float64
		want string
	}{
		{3, "3"}, {2.5, "2.5"}, {0.75, "0.75"}, {third + third + third + 41, "42"}, {third, "0.33"},
	}
	for _, tc := range tests {
		if got := fmtScore(tc.x); got != tc.want {
			t.Errorf("fmtScore(%v) = %q; want %q", tc.x, got, tc.want)
		}
	}
}

// TestPreflight checks that an engine that cannot start, never finishes
// its handshake or refuses the game stops the match before its first game.
// The silent one's 10s are on a fake clock, moved once the handshake
// waits.
func TestPreflight(t *testing.T) {
	g, _ := games.Load("pogo")
	tests := []struct {
		name string
		cmd  []string
		want string
	}{
		{"missing", []string{filepath.Join(t.TempDir(), "no-such-engine")}, "cannot start"},
		{"silent", []string{progs.Bad, "-mode", "silent"}, "no staxok within 10s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clock := enginetest.NewClock()
			if tc.name == "silent" {
				go clock.AdvanceWhenPending(t, handshakeTimeout)
			}
			games := 0
			cfg := Config{
				Game: g, Engines: []Engine{{Name: "r", Level: "random"}, {Name: "x", Command: tc.cmd}},
				Games: 2, NewPlayer: ai.NewSeeded, Progress: func(Status) { games++ }, TimeSource: clock,
			}
			rep, err := Run(context.Background(), cfg)
			if err == nil || rep != nil || games != 0 {
				t.Fatalf("Run = %v, %v after %d games; want an error before the first game", rep, err, games)
			}
			if !strings.Contains(err.Error(), "engine x (") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q; want it to name engine x and say %q", err, tc.want)
			}
		})
	}
}

// TestSeededMatch checks that a match of built-in levels bounded by depth
// is replayed exactly with the same seed, and differs with another.
func TestSeededMatch(t *testing.T) {
	g, _ := games.Load("pogo")
	play := func(seed uint64) string {
		var out strings.Builder
		_, err := Run(context.Background(), Config{
			Game: g, Engines: []Engine{{Name: "b", Level: "beginner"}, {Name: "r", Level: "random"}},
			Games: 4, Depth: 1, Openings: 1, Seed: seed, NewPlayer: ai.NewSeeded, Records: &out,
			Now: func() time.Time { return time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC) },
		})
		if err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	a, b, c := play(5), play(5), play(6)
	if a != b {
		t.Errorf("two matches with seed 5 differ:\n%s\n---\n%s", a, b)
	}
	if a == c {
		t.Errorf("the matches with seeds 5 and 6 are the same:\n%s", a)
	}
}

// illegalPlayer is a built-in player that answers a move of another game.
type illegalPlayer struct{}

func (illegalPlayer) Play(ctx context.Context, pos search.Position, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	return search.Result{Move: 1<<31 + 7}, nil
}

// TestBuiltinFault checks that a built-in player that gives an illegal
// move loses the game by forfeit, as an external engine would.
func TestBuiltinFault(t *testing.T) {
	g, _ := games.Load("pogo")
	rep, err := Run(context.Background(), Config{
		Game: g, Engines: []Engine{{Name: "bad", Level: "bad"}, {Name: "r", Level: "random"}}, Games: 2,
		NewPlayer: func(g game.Game, level string, seed uint64) (search.Player, error) {
			if level == "bad" {
				return illegalPlayer{}, nil
			}
			return ai.NewSeeded(g, level, seed)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, gr := range rep.Games {
		if gr.FaultEngine != 0 || !strings.Contains(gr.Fault, "illegal move") || gr.Outcome.Reason != game.ByForfeit {
			t.Errorf("game %d: fault %q by engine %d, reason %v; want bad's forfeit for an illegal move", gr.Number, gr.Fault, gr.FaultEngine, gr.Outcome.Reason)
		}
	}
	if got := rep.Table.Faults(0)["illegal move"]; got != 2 {
		t.Errorf("bad's faults %v; want 2 illegal moves", rep.Table.Faults(0))
	}
}

// TestClock plays timed games of the strongest level (given its clock, it
// budgets its moves from it, as search's tests check) against an external
// engine, which is told the clocks, on a fake clock that does not move:
// nobody loses on time, and the records and the report give the time
// control. TestClockRunsOut checks the flag's fall.
func TestClock(t *testing.T) {
	g, _ := games.Load("pogo")
	var out strings.Builder
	cfg := Config{
		Game: g, Engines: []Engine{{Name: "strongest", Level: "strongest"}, {Name: "ext", Command: []string{progs.Bad, "-mode", "none"}}},
		Games: 2, Openings: 2, Seed: 5, Clock: &TimeControl{Base: time.Second, Increment: 50 * time.Millisecond},
		NewPlayer: ai.NewSeeded, Records: &out, TimeSource: enginetest.NewClock(),
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, gr := range rep.Games {
		if gr.Fault != "" {
			t.Errorf("game %d: %s", gr.Number, gr.Fault)
		}
	}
	if !strings.Contains(out.String(), `[TimeControl "1+0.05"]`) {
		t.Errorf("the records lack the time control:\n%s", out.String())
	}
	var report strings.Builder
	rep.Write(&report)
	if !strings.Contains(report.String(), "clock 1+0.05") {
		t.Errorf("the report does not give the clock:\n%s", report.String())
	}
}

// TestClockRunsOut checks a seat's clock on a fake one: an external
// engine answers its first two moves at once (no time passes) and hangs on
// the third, when its clock holds the base and two increments; the test
// moves the clock on by that much and the engine loses on time, in each
// of the two games.
func TestClockRunsOut(t *testing.T) {
	g, _ := games.Load("pogo")
	clock := enginetest.NewClock()
	hangs := advanceOnHang(t, clock, 1100*time.Millisecond)
	cfg := Config{
		Game: g, Engines: []Engine{{Name: "random", Level: "random"}, {Name: "ext", Command: []string{progs.Bad, "-mode", "hang", "-after", "2", "-signal", hangs}}},
		Games: 2, Seed: 5, Clock: &TimeControl{Base: time.Second, Increment: 50 * time.Millisecond},
		NewPlayer: ai.NewSeeded, TimeSource: clock,
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Games) != 2 {
		t.Fatalf("%d games; want 2", len(rep.Games))
	}
	for _, gr := range rep.Games {
		if gr.FaultEngine != 1 || !strings.HasSuffix(gr.Fault, "no bestmove within 1.1s") || gr.Outcome.Reason != game.ByTime {
			t.Errorf("game %d: fault %q by engine %d, reason %v; want ext to lose on time with 1.1s left", gr.Number, gr.Fault, gr.FaultEngine, gr.Outcome.Reason)
		}
	}
}

// TestGoParams checks the go command sent to external engines for every
// move, and the budget the report names.
func TestGoParams(t *testing.T) {
	for _, tc := range []struct {
		cfg               Config
		command, reported string
	}{
		{Config{}, "", ""},
		{Config{MoveTime: 100 * time.Millisecond}, "movetime 100", "movetime 100ms"},
		{Config{MoveTime: time.Second, Depth: 6, Nodes: 5000}, "movetime 1000 depth 6 nodes 5000", "movetime 1000ms depth 6 nodes 5000"},
		{Config{Nodes: 200}, "nodes 200", "nodes 200"},
	} {
		if got := tc.cfg.goParams(""); got != tc.command {
			t.Errorf("goParams of %+v = %q; want %q", tc.cfg, got, tc.command)
		}
		if got := tc.cfg.goParams("ms"); got != tc.reported {
			t.Errorf("the report's budget of %+v = %q; want %q", tc.cfg, got, tc.reported)
		}
	}
}
