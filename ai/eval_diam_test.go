package ai

import (
	"testing"

	"stax/games/diam"
)

// TestDiamEval checks the two-player evaluation on positions whose
// judgement is clear: it is zero-sum, an immediate threat is worth more to
// the side to move than to the side that must answer it, and it
// allocates nothing.
func TestDiamEval(t *testing.T) {
	g := load(t, "diam").(*diam.Game)
	ev := diamEvaluator(g)
	parse := func(pos string) *diam.State {
		t.Helper()
		s, err := g.Parse(pos)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// Red at level 2 on cell 1 faces cell 5 of height 1; red on cell 4
	// steps onto it and makes the diam.
	threat := "gr/-/-/r/b/-/-/-"
	tests := []struct {
		better, worse string // better is better for player 1 than worse
	}{
		{threat + " 1", threat + " 2"},
		{threat + " 2", "gr/-/-/-/b/-/-/r 2"}, // the red piece cannot reach cell 5
		{"rg/-/-/g/b/-/-/- 1", "rg/-/-/g/b/-/-/- 2"},
	}
	for _, tc := range tests {
		b, w := parse(tc.better), parse(tc.worse)
		if vb, vw := ev.Evaluate(b, 0), ev.Evaluate(w, 0); vb <= vw {
			t.Errorf("player 1 scores %s %d, %s %d; want the first higher", tc.better, vb, tc.worse, vw)
		}
		for _, s := range []*diam.State{b, w} {
			if v0, v1 := ev.Evaluate(s, 0), ev.Evaluate(s, 1); v0 != -v1 {
				t.Errorf("%s: player 1 scores %d, player 2 %d; want opposites", s, v0, v1)
			}
		}
	}
	s := parse(threat + " 1")
	if n := testing.AllocsPerRun(100, func() { ev.Evaluate(s, 0) }); n != 0 {
		t.Errorf("Evaluate allocates %v times; want 0", n)
	}
}
