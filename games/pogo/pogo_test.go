package pogo_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"stax/game"
	"stax/game/gametest"
	"stax/games/pogo"
)

func mustGame(t testing.TB, opts game.Options) *pogo.Game {
	t.Helper()
	g, err := pogo.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mustState(t testing.TB, g *pogo.Game, pos string) *pogo.State {
	t.Helper()
	s, err := g.Parse(pos)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	for _, opts := range []game.Options{
		nil,
		{"u": "false"},
		{"first": "black"},
		{"maxplies": "20"},
		{"rep": "2"},
	} {
		g := mustGame(t, opts)
		t.Run(game.SpecOf(g).String(), func(t *testing.T) {
			gametest.Run(t, g, gametest.Config{Positions: []string{
				"b,-,wbb/bw,w,-/ww,bw,b w",
				"-,wwb,w/bbww,-,b/-,bw,b b",
			}})
		})
	}
}

func TestStart(t *testing.T) {
	g := mustGame(t, nil)
	s := g.NewStart()
	if got, want := s.String(), "bb,bb,bb/-,-,-/ww,ww,ww w"; got != want {
		t.Errorf("start = %q, want %q", got, want)
	}
	if n := len(s.Legal(nil)); n != 16 {
		t.Errorf("start has %d moves, want 16", n)
	}
	if b := mustGame(t, game.Options{"first": "black"}).NewStart(); b.ToMove() != pogo.Black {
		t.Errorf("first=black: %v to move", b.ToMove())
	}
}

func moveStrings(s game.State) []string {
	var out []string
	for _, m := range s.Legal(nil) {
		out = append(out, s.FormatMove(m))
	}
	slices.Sort(out)
	return out
}

func TestDestinations(t *testing.T) {
	// A lone white stack of three on a1, the rest parked out of the way.
	pos := "bbb,-,-/-,-,-/www,-,bbbwww w"
	tests := []struct {
		opts game.Options
		want []string
	}{
		{nil, []string{
			"1a1-a2", "1a1-b1",
			"2a1-a3", "2a1-b2", "2a1-c1",
			"3a1-a2", "3a1-b1", "3a1-b3", "3a1-c2",
			// c1 is topped by White too.
			"1c1-b1", "1c1-c2", "2c1-a1", "2c1-b2", "2c1-c3",
			"3c1-a2", "3c1-b1", "3c1-b3", "3c1-c2",
		}},
		{game.Options{"u": "false"}, []string{
			"1a1-a2", "1a1-b1",
			"2a1-a3", "2a1-b2", "2a1-c1",
			"3a1-b3", "3a1-c2",
			"1c1-b1", "1c1-c2", "2c1-a1", "2c1-b2", "2c1-c3",
			"3c1-a2", "3c1-b3",
		}},
	}
	for _, tt := range tests {
		g := mustGame(t, tt.opts)
		t.Run(game.SpecOf(g).String(), func(t *testing.T) {
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if got := moveStrings(mustState(t, g, pos)); !slices.Equal(got, want) {
				t.Errorf("moves = %v\nwant %v", got, want)
			}
		})
	}
}

func TestCarryOpponentPieces(t *testing.T) {
	g := mustGame(t, nil)
	s := mustState(t, g, "bb,bb,bw/-,-,-/ww,ww,bw w")
	m, err := s.ParseMove("2c1-c3")
	if err != nil {
		t.Fatal(err)
	}
	s.Apply(m)
	if got, want := s.String(), "bb,bb,bwbw/-,-,-/ww,ww,- b"; got != want {
		t.Errorf("after 2c1-c3: %q, want %q", got, want)
	}
}

func TestWin(t *testing.T) {
	g := mustGame(t, nil)
	// Black tops only a3; White captures it and tops every stack.
	s := mustState(t, g, "b,-,-/w,-,-/bbbbbwwwww,-,- w")
	m, err := s.ParseMove("1a2-a3")
	if err != nil {
		t.Fatal(err)
	}
	s.Apply(m)
	if !s.Terminal() || s.Winner() != pogo.White {
		t.Fatalf("after 1a2-a3: terminal %v winner %v, want a White win", s.Terminal(), s.Winner())
	}
	if o := s.Outcome(); o.Results != [4]game.Result{game.Win, game.Loss} || o.Reason != game.ByRules {
		t.Errorf("outcome %+v", o)
	}
	if len(s.Legal(nil)) != 0 {
		t.Errorf("finished game has legal moves")
	}
	// A position string in which one colour tops every stack is a finished
	// game, whoever is to move.
	done := mustState(t, g, "-,-,bbbbbbwwwww/-,-,-/w,-,- w")
	if !done.Terminal() || done.Winner() != pogo.White {
		t.Errorf("%q: terminal %v winner %v, want a White win", done, done.Terminal(), done.Winner())
	}
}

func TestParseErrors(t *testing.T) {
	g := mustGame(t, nil)
	tests := []struct{ in, want string }{
		{"bb,bb,bb/-,-,-/ww,ww,ww", "missing side to move"},
		{"bb,bb,bb/-,-,-/ww,ww,ww x", "want w or b"},
		{"bb,bb,bb/-,-,-/ww,ww,ww/- w", "4 ranks"},
		{"bb,bb,bb,-/-,-,-/ww,ww,ww w", "rank 3 has 4 squares"},
		{"bb,bb,bx/-,-,-/ww,ww,ww w", `unexpected 'x'`},
		{"bb,bb,bb/-,,-/ww,ww,ww w", "b2 is blank"},
		{"bb,bb,b/-,-,-/ww,ww,ww w", "6 white and 5 black"},
	}
	for _, tt := range tests {
		_, err := g.Parse(tt.in)
		var pe *game.PositionError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) error = %v, want a *game.PositionError mentioning %q", tt.in, err, tt.want)
		}
	}
}

func TestParseMoveErrors(t *testing.T) {
	g := mustGame(t, nil)
	s := g.NewStart()
	tests := []struct{ in, want string }{
		{"a1-a2", "want <count><from>-<to>"},
		{"4a1-a2", "count of 1 to 3"},
		{"1a1-d2", "a1 to c3"},
		{"1a2-a3", "a2 is empty"},
		{"1a3-a2", "not White's"},
		{"3a1-a2", "at most 2"},
		{"1a1-a3", "reach only b1, a2"},
	}
	for _, tt := range tests {
		_, err := s.ParseMove(tt.in)
		var me *game.MoveError
		if !errors.As(err, &me) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseMove(%q) error = %v, want a *game.MoveError mentioning %q", tt.in, err, tt.want)
		}
	}
	if _, err := s.ParseMove("1a3-a2"); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("ParseMove(1a3-a2) error %v does not wrap ErrIllegalMove", err)
	}
}

func TestRepetitionDraw(t *testing.T) {
	g := mustGame(t, nil)
	h := game.NewHistory(g, nil)
	for _, m := range strings.Fields("1a1-a2 1a3-b3 1a2-a1 1b3-a3 1a1-a2 1a3-b3 1a2-a1 1b3-a3") {
		if err := h.Play(m); err != nil {
			t.Fatalf("Play(%s): %v", m, err)
		}
	}
	if o := h.Outcome(); !o.IsDraw() || o.Reason != game.ByRepetition {
		t.Errorf("outcome after a threefold repetition: %+v", o)
	}
	if err := h.Play("1a1-a2"); !errors.Is(err, game.ErrGameOver) {
		t.Errorf("move after the end: %v, want ErrGameOver", err)
	}
}

func TestPlyCap(t *testing.T) {
	g := mustGame(t, game.Options{"maxplies": "3"})
	h := game.NewHistory(g, nil)
	for _, m := range strings.Fields("1a1-a2 1a3-b3 1a2-a1") {
		if err := h.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if o := h.Outcome(); !o.IsDraw() || o.Reason != game.ByPlyCap {
		t.Errorf("outcome at the ply cap: %+v", o)
	}
}
