package search_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"stax/ai"
	"stax/game"
	"stax/games"
	"stax/search"
)

// forcedWins are positions in which the side to move wins in exactly n
// plies (and not sooner), found by random play and checked by exhaustive
// search; few moves win in each.
var forcedWins = []struct {
	spec, pos string
	plies     int
}{
	{"pogo", "bbbbww,wbww,-/-,w,b/-,-,- w", 1},  // only 1b2-c2
	{"pogo", "bbbbwwww,b,-/-,bw,-/w,-,- w", 1},  // two winning moves
	{"pogo", "bbbbw,wb,-/www,-,-/-,-,wb w", 3},  // only 2a2-b3
	{"pogo", "bbbbwwwwb,wb,-/-,-,-/w,-,- b", 3}, // only 2b3-c2
	{"pogo", "bbb,wbwwb,-/-,w,bww/-,-,- b", 5},  // two winning moves
	{"pogo", "-,-,-/bwwwbw,-,bb/w,wbb,- b", 5},  // only 2b1-a2
	{"diam", "bg/g/r/b/rry/-/yb/g 2", 1},        // only 4:1-
	{"diam", "bg/g/r/br/ry/gb/y/g 2", 1},        // only 1:1+
	{"diam", "b/-/by/-/-/-/y/r 1", 3},           // only y@6
	{"diam", "bg/g/r/brry/-/g/yb/g 2", 3},       // only b@5
	{"diam", "-/y/bg/-/-/yy/-/b 1", 5},          // only y@1
	{"diam", "-/g/r/-/-/yyr/b/ggb 2", 5},        // only 8:1-
}

func mustLoad(t testing.TB, spec, pos string) game.State {
	t.Helper()
	g, err := games.Load(spec)
	if err != nil {
		t.Fatalf("Load(%q): %v", spec, err)
	}
	if pos == "" {
		return g.Start()
	}
	s, err := g.ParseState(pos)
	if err != nil {
		t.Fatalf("ParseState(%q): %v", pos, err)
	}
	return s
}

// winsIn reports whether m wins in n plies from s, by exhaustive search.
func winsIn(t *testing.T, s game.State, m game.Move, n int) bool {
	c := s.Clone()
	c.Apply(m)
	if c.Terminal() {
		return c.Outcome().Value(s.ToMove()) == 1
	}
	r, err := search.NewAlphaBeta(search.Zero, 16, 1).Play(context.Background(), search.Position{State: c}, search.Limits{Depth: n}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r.Score.Int() <= -(search.WinScore - n)
}

func TestForcedWins(t *testing.T) {
	for _, tc := range forcedWins {
		t.Run(tc.spec+"/"+tc.pos, func(t *testing.T) {
			s := mustLoad(t, tc.spec, tc.pos)
			before := s.String()
			g := s.Game()
			decisive := search.NewMCTS(ai.Evaluator(g), 1)
			decisive.Decisive = true
			smp := search.NewAlphaBeta(ai.Evaluator(g), 16, 1)
			smp.Threads = 2
			players := map[string]search.Player{
				"alphabeta":     search.NewAlphaBeta(ai.Evaluator(g), 16, 1),
				"alphabeta-2":   smp,
				"mcts":          search.NewMCTS(ai.Evaluator(g), 1),
				"mcts-decisive": decisive,
			}
			for name, p := range players {
				res, err := p.Play(context.Background(), search.Position{State: s}, search.Limits{Time: 5 * time.Second, Nodes: 400_000}, nil)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if s.String() != before {
					t.Fatalf("%s modified the position: %s", name, s.String())
				}
				if want := search.WinIn(tc.plies); res.Score != want {
					t.Errorf("%s: score %v (move %s), want %v", name, res.Score, s.FormatMove(res.Move), want)
				}
				if !winsIn(t, s, res.Move, tc.plies-1) {
					t.Errorf("%s: move %s does not win in %d", name, s.FormatMove(res.Move), tc.plies)
				}
				if len(res.PV) == 0 || res.PV[0] != res.Move {
					t.Errorf("%s: PV %v does not start with the move %v", name, res.PV, res.Move)
				}
			}
		})
	}
}

// TestCancel checks that every player stops promptly when its context is
// cancelled, answering with a legal move, and refuses to start under a
// cancelled context.
func TestCancel(t *testing.T) {
	specs := []string{"pogo", "diam", "diam(players=4)", "pisola"}
	for _, spec := range specs {
		g, err := games.Load(spec)
		if err != nil {
			t.Logf("%s: %v", spec, err)
			continue
		}
		s := g.Start()
		smp := search.NewAlphaBeta(ai.Evaluator(g), 16, 1)
		smp.Threads = 2
		players := map[string]search.Player{
			"alphabeta":   search.NewAlphaBeta(ai.Evaluator(g), 16, 1),
			"alphabeta-2": smp,
			"mcts":        search.NewMCTS(ai.Evaluator(g), 1),
		}
		for name, p := range players {
			t.Run(spec+"/"+name, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				start := time.Now()
				time.AfterFunc(50*time.Millisecond, cancel)
				res, err := p.Play(ctx, search.Position{State: s}, search.Limits{Time: time.Hour}, nil)
				took := time.Since(start)
				if err != nil && !errors.Is(err, context.Canceled) {
					t.Fatalf("Play: %v", err)
				}
				if took > time.Second {
					t.Errorf("Play took %v after cancelling at 50ms", took)
				}
				if err == nil && !isLegal(s, res.Move) {
					t.Errorf("Play returned illegal move %v", res.Move)
				}
				_, err = p.Play(ctx, search.Position{State: s}, search.Limits{}, nil)
				if !errors.Is(err, context.Canceled) {
					t.Errorf("Play under a cancelled context: %v, want context.Canceled", err)
				}
			})
		}
	}
}

func isLegal(s game.State, m game.Move) bool {
	for _, x := range s.Legal(nil) {
		if x == m {
			return true
		}
	}
	return false
}

// TestLimits checks that node, depth and time limits bound a search and
// that progress reports come in order.
func TestLimits(t *testing.T) {
	s := mustLoad(t, "pogo", "")
	ev := ai.Evaluator(s.Game())
	t.Run("depth", func(t *testing.T) {
		var depths []int
		res, err := search.NewAlphaBeta(ev, 16, 1).Play(context.Background(), search.Position{State: s}, search.Limits{Depth: 4}, func(p search.Progress) {
			depths = append(depths, p.Depth)
		})
		if err != nil || res.Depth != 4 {
			t.Fatalf("Play = depth %d, %v; want depth 4", res.Depth, err)
		}
		for i, d := range depths {
			if d != i+1 {
				t.Fatalf("progress depths %v, want 1, 2, 3, 4", depths)
			}
		}
	})
	t.Run("nodes", func(t *testing.T) {
		for name, p := range map[string]search.Player{
			"alphabeta": search.NewAlphaBeta(ev, 16, 1),
			"mcts":      search.NewMCTS(ev, 1),
		} {
			res, err := p.Play(context.Background(), search.Position{State: s}, search.Limits{Nodes: 1000}, nil)
			if err != nil || res.Nodes > 1100 || !isLegal(s, res.Move) {
				t.Errorf("%s: Play = %d nodes, %v; want at most 1000", name, res.Nodes, err)
			}
		}
	})
	t.Run("time", func(t *testing.T) {
		for name, p := range map[string]search.Player{
			"alphabeta": search.NewAlphaBeta(ev, 16, 1),
			"mcts":      search.NewMCTS(ev, 1),
		} {
			start := time.Now()
			_, err := p.Play(context.Background(), search.Position{State: s}, search.Limits{Time: 100 * time.Millisecond}, nil)
			if took := time.Since(start); err != nil || took > time.Second {
				t.Errorf("%s: Play took %v, %v; want about 100ms", name, took, err)
			}
		}
	})
}

// TestNoMoves checks the error for a finished position.
func TestNoMoves(t *testing.T) {
	s := mustLoad(t, "pogo", "wwwwwwbb,bb,bb/-,-,-/-,-,- w")
	for name, p := range map[string]search.Player{
		"random":    search.NewRandom(1),
		"greedy":    search.NewGreedy(nil, 1),
		"alphabeta": search.NewAlphaBeta(nil, 10, 1),
		"mcts":      search.NewMCTS(nil, 1),
	} {
		if _, err := p.Play(context.Background(), search.Position{State: s}, search.Limits{Nodes: 10}, nil); !errors.Is(err, search.ErrNoMoves) {
			t.Errorf("%s: Play on a finished game: %v, want ErrNoMoves", name, err)
		}
	}
}

// TestRepetitionDraw checks that alpha-beta scores a return to an earlier
// position of the game as a draw.
func TestRepetitionDraw(t *testing.T) {
	s := mustLoad(t, "pogo", "")
	ab := search.NewAlphaBeta(search.Zero, 12, 1)
	res, err := ab.Play(context.Background(), search.Position{State: s}, search.Limits{Depth: 4}, nil)
	if err != nil || res.Score != search.Estimate(0) {
		t.Fatalf("Play = %v, %v; want 0 with a zero evaluation", res.Score, err)
	}
}

// TestMCTSReuse checks that MCTS keeps its tree when the new position lies
// below the old root.
func TestMCTSReuse(t *testing.T) {
	s := mustLoad(t, "pogo", "")
	m := search.NewMCTS(ai.Evaluator(s.Game()), 1)
	m.Workers = 1
	res, err := m.Play(context.Background(), search.Position{State: s}, search.Limits{Nodes: 5000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PV) < 2 {
		t.Fatalf("PV %v too short", res.PV)
	}
	s.Apply(res.PV[0])
	s.Apply(res.PV[1])
	var first []search.Progress
	_, err = m.Play(context.Background(), search.Position{State: s}, search.Limits{Nodes: 1}, func(p search.Progress) { first = append(first, p) })
	if err != nil {
		t.Fatal(err)
	}
	if len(first) == 0 || first[0].Nodes != 0 || len(first[0].PV) == 0 {
		t.Errorf("first report %+v: want a move before any playout, from the old tree", first)
	}
}

// TestRepetitionScored checks that alpha-beta scores a return to an earlier
// position of the game as the rules adjudicate it: in Pisola, a win for the
// side that tops more squares.
func TestRepetitionScored(t *testing.T) {
	s := mustLoad(t, "pisola", "")
	var buf []game.Move
	for ply := 0; !s.Terminal(); ply++ {
		buf = s.Legal(buf[:0])
		for _, m := range buf {
			c := s.Clone()
			c.Apply(m)
			if o := c.Adjudicate(game.ByRepetition); ply >= 20 && !c.Terminal() && o.Results[s.ToMove()] == game.Win {
				ab := search.NewAlphaBeta(search.Zero, 12, 1)
				pos := search.Position{State: s, Prior: []uint64{c.Hash()}}
				res, err := ab.Play(context.Background(), pos, search.Limits{Depth: 1}, nil)
				if err != nil || res.Move != m || res.Score.Int() != search.WinScore/4 {
					t.Fatalf("%s, after which %s repeats a winning position: Play = %s %v, %v", s, s.FormatMove(m), s.FormatMove(res.Move), res.Score, err)
				}
				return
			}
		}
		s.Apply(buf[ply*7919%len(buf)])
	}
	t.Fatal("no position with a winning repetition")
}
