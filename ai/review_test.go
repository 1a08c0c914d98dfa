package ai_test

import (
	"context"
	"testing"

	"stax/ai"
	"stax/ai/aitest"
	"stax/game"
	"stax/game/gametest"
	"stax/games"
	"stax/search"
)

// TestReviewPogoExact reviews a Pogo game from the table: Black's second
// move turns a win in 9 into a loss in 2, and the review marks it a
// blunder naming the one winning move.
func TestReviewPogoExact(t *testing.T) {
	cfg := ai.Config{Tables: aitest.Tables(t)}
	h := history(t, "pogo", "2c1-c3", "2a3-c3", "2b1-b3", "2c3-a3", "2a1-a3")
	r, err := cfg.Review(context.Background(), h, search.ReviewOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exact || len(r.Moves) != 5 {
		t.Fatalf("review: exact %v, %d moves; want exact, 5", r.Exact, len(r.Moves))
	}
	m := r.Moves[3]
	if m.Mark != search.Blunder || m.Played.Score != search.LossIn(2) || m.Best.Score != search.WinIn(9) || len(m.Better) != 1 {
		t.Errorf("move 4: %s, played %v, best %v, %d better; want blunder, loss 2, win 9, 1 better", m.Mark, m.Played.Score, m.Best.Score, len(m.Better))
	}
	if r.Moves[0].Mark != search.Mistake || r.Moves[4].Mark != search.Good {
		t.Errorf("marks of moves 1 and 5: %q, %q; want mistake and none", r.Moves[0].Mark, r.Moves[4].Mark)
	}
	if n := r.Counts(1); n[search.Blunder] != 1 {
		t.Errorf("Black's counts %v; want one blunder", n)
	}
}

// TestAnalyzeSearch checks a searched analysis: every legal move once,
// best first, with its source, and the best line starting with the best
// move; a finished position is refused.
func TestAnalyzeSearch(t *testing.T) {
	for _, spec := range []string{"diam", "pisola", "diam(players=4)", "pogo"} {
		g, err := games.Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		s := g.Start()
		a, err := ai.Config{}.Analyze(context.Background(), search.Position{State: s}, search.AnalyzeOptions{Depth: 2})
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if len(a.Moves) != len(s.Legal(nil)) || a.Exact || a.Line[0] != a.Best().Move {
			t.Errorf("%s: %d verdicts of %d moves, exact %v", spec, len(a.Moves), len(s.Legal(nil)), a.Exact)
		}
		for i := 1; i < len(a.Moves); i++ {
			if a.Moves[i].Score.Int() > a.Moves[i-1].Score.Int() {
				t.Errorf("%s: verdicts not best first at %d", spec, i)
			}
		}
	}
	h := history(t, "pogo", "2c1-c3", "2a3-c3", "2b1-b3", "2c3-a3", "2a1-a3")
	if _, err := (ai.Config{}).Analyze(context.Background(), search.PositionOf(h), search.AnalyzeOptions{Depth: 1}); err != search.ErrNoMoves {
		t.Errorf("Analyze of a finished game: %v; want ErrNoMoves", err)
	}
}

func history(t *testing.T, spec string, moves ...string) *game.History {
	t.Helper()
	g, err := games.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	return gametest.History(t, g, moves...)
}
