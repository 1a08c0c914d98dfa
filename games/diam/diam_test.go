package diam_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"stax/game"
	"stax/game/gametest"
	"stax/games/diam"
)

// variantSpecs are the variants every test runs over.
var variantSpecs = []string{
	"diam",
	"diam(drop=any)",
	"diam(players=4)",
	"diam(players=4,drop=any)",
	"diam(players=4,teams=true)",
	"diam(players=4,teams=true,drop=any)",
}

var registry = game.Registry{diam.Info}

func load(t testing.TB, spec string) *diam.Game {
	t.Helper()
	g, err := registry.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g.(*diam.Game)
}

func mustState(t testing.TB, g *diam.Game, pos string) *diam.State {
	t.Helper()
	s, err := g.Parse(pos)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// play applies moves given in notation, failing the test on any error.
func play(t testing.TB, s *diam.State, moves ...string) {
	t.Helper()
	for _, mv := range moves {
		m, err := s.ParseMove(mv)
		if err != nil {
			t.Fatalf("%s: ParseMove(%q): %v", s, mv, err)
		}
		s.Apply(m)
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

// conformancePositions are positions from play, in the players' count
// they belong to.
var conformancePositions = map[int][]string{
	2: {"-/r/r/yr/r/-/g/bg 1", "y/rg/-/b/brg/-/r/- 1", "ryry/gbgb/bgbg/ryry/-/-/-/- 2", "r/gry/yy/bg/grg/-/-/- 1"},
	4: {"b/gryr/yggg/rbby/-/r/by/- 2", "byyb/gyg/bygr/rg/-/-/-/rrb 3", "-/ryy/y/-/-/r/gb/g 3", "y/-/bg/-/gr/r/by/br 3"},
}

func TestConformance(t *testing.T) {
	specs := append(slices.Clone(variantSpecs), "diam(maxplies=30)", "diam(rep=2)", "diam(players=4,teams=true,rep=0,maxplies=0)")
	for _, spec := range specs {
		g := load(t, spec)
		t.Run(spec, func(t *testing.T) {
			gametest.Run(t, g, gametest.Config{Positions: conformancePositions[g.Players()]})
		})
	}
}

func TestStart(t *testing.T) {
	tests := []struct {
		spec  string
		moves int
		names []string
	}{
		{"diam", 16, []string{"Player 1 (red, yellow)", "Player 2 (green, blue)"}},
		{"diam(drop=any)", 16, []string{"Player 1 (red, yellow)", "Player 2 (green, blue)"}},
		{"diam(players=4)", 8, []string{"Red", "Green", "Yellow", "Blue"}},
		{"diam(players=4,teams=true)", 8, []string{"Red", "Green", "Yellow", "Blue"}},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			g := load(t, tt.spec)
			s := g.NewStart()
			if got, want := s.String(), "-/-/-/-/-/-/-/- 1"; got != want {
				t.Errorf("start = %q, want %q", got, want)
			}
			if n := len(s.Legal(nil)); n != tt.moves {
				t.Errorf("start has %d moves, want %d", n, tt.moves)
			}
			if g.Players() != len(tt.names) {
				t.Fatalf("Players() = %d, want %d", g.Players(), len(tt.names))
			}
			for p, want := range tt.names {
				if got := g.PlayerName(p); got != want {
					t.Errorf("PlayerName(%d) = %q, want %q", p, got, want)
				}
			}
		})
	}
}

func TestOptions(t *testing.T) {
	for _, spec := range []string{"diam(teams=true)", "diam(players=2,teams=true)"} {
		_, err := registry.Load(spec)
		if err == nil || !errors.Is(err, diam.ErrTeamsNeedFour) || !strings.Contains(err.Error(), "players=4") {
			t.Errorf("Load(%s) error = %v, want one saying teams needs players=4", spec, err)
		}
	}
	if _, err := diam.New(game.Options{"teams": "true"}); !errors.Is(err, diam.ErrTeamsNeedFour) {
		t.Errorf("New(teams=true) error = %v, want ErrTeamsNeedFour", err)
	}
	if _, err := diam.Info.New(game.Options{"players": "3", "teams": "false", "drop": "empty", "rep": "3", "maxplies": "200"}); err == nil {
		t.Errorf("Info.New(players=3) succeeded")
	}
	for _, spec := range []string{"diam(players=3)", "diam(drop=full)", "diam(rep=101)"} {
		if _, err := registry.Load(spec); err == nil {
			t.Errorf("Load(%s) succeeded", spec)
		}
	}
	g := load(t, "diam")
	if g.Repetition() != 3 || g.MaxPlies() != 200 || g.Teams() || g.DropAny() {
		t.Errorf("defaults: rep %d maxplies %d teams %v drop=any %v", g.Repetition(), g.MaxPlies(), g.Teams(), g.DropAny())
	}
}

func TestCapacity(t *testing.T) {
	// Cell 1 holds two pieces and cell 2 three: the red piece at level 1
	// of cell 1 would carry two pieces onto cell 2, making five.
	for _, spec := range []string{"diam", "diam(drop=any)"} {
		g := load(t, spec)
		s := mustState(t, g, "ry/gbg/-/-/-/-/-/- 1")
		got := moveStrings(s)
		for _, want := range []string{"1:1-", "1:2-", "1:2+"} {
			if !slices.Contains(got, want) {
				t.Errorf("%s: moves %v lack %s", spec, got, want)
			}
		}
		if slices.Contains(got, "1:1+") {
			t.Errorf("%s: moves %v include 1:1+, which makes five pieces on cell 2", spec, got)
		}
		_, err := s.ParseMove("1:1+")
		if !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), "cell 2 would hold 5 pieces; a cell holds at most 4") {
			t.Errorf("%s: ParseMove(1:1+) error = %v", spec, err)
		}
	}
	// With drop=any a piece goes on any cell holding fewer than 4.
	g := load(t, "diam(drop=any)")
	s := mustState(t, g, "rgyb/gyg/-/-/-/-/-/- 1")
	if _, err := s.ParseMove("r@1"); err == nil || !strings.Contains(err.Error(), "cell 1 would hold 5 pieces") {
		t.Errorf("r@1 on a full cell: error = %v", err)
	}
	play(t, s, "r@2")
	if got, want := s.String(), "rgyb/gygr/-/-/-/-/-/- 2"; got != want {
		t.Errorf("after r@2: %q, want %q", got, want)
	}
	// With drop=empty only on empty cells.
	s = mustState(t, load(t, "diam"), "rgyb/gyg/-/-/-/-/-/- 1")
	if _, err := s.ParseMove("r@2"); err == nil || !strings.Contains(err.Error(), "cell 2 is not empty") {
		t.Errorf("r@2 on an occupied cell with drop=empty: error = %v", err)
	}
}

func TestCarry(t *testing.T) {
	g := load(t, "diam")
	s := mustState(t, g, "rgb/y/-/-/-/-/-/- 1")
	// Player 1 moves red from the bottom of cell 1, carrying green and blue.
	play(t, s, "1:1+")
	if got, want := s.String(), "-/yrgb/-/-/-/-/-/- 2"; got != want {
		t.Errorf("after 1:1+: %q, want %q", got, want)
	}
	// Player 2 moves blue at level 4 of cell 2 alone, counter-clockwise.
	play(t, s, "2:4-")
	if got, want := s.String(), "b/yrg/-/-/-/-/-/- 1"; got != want {
		t.Errorf("after 2:4-: %q, want %q", got, want)
	}
	// Player 1 cannot move green, though it rides on red.
	if _, err := s.ParseMove("2:3+"); err == nil || !strings.Contains(err.Error(), "is green") {
		t.Errorf("moving green for player 1: error = %v", err)
	}
	// Clockwise from 8 goes to 1.
	s = mustState(t, g, "-/-/-/-/-/-/-/y 1")
	play(t, s, "8:1+")
	if got, want := s.String(), "y/-/-/-/-/-/-/- 2"; got != want {
		t.Errorf("after 8:1+: %q, want %q", got, want)
	}
}

func TestDiams(t *testing.T) {
	tests := []struct {
		name, spec, pos, move string
		winners               []int // none: the game goes on
		detail                string
	}{
		{"level 1 is no diam", "diam", "r/-/-/-/-/-/-/- 1", "r@5", nil, ""},
		{"level 2", "diam", "ry/-/-/-/y/y/-/- 1", "6:1-", []int{0}, "diam at level 2 in yellow on cells 1 and 5"},
		{"made for the opponent", "diam", "y/rg/-/b/bbg/-/r/- 1", "2:1-", []int{1}, "diam at level 3 in green on cells 1 and 5"},
		{"the higher diam wins", "diam", "y/rg/-/b/brg/-/r/- 1", "2:1-", []int{1}, "diam at level 3 in green on cells 1 and 5"},
		{"the mover's higher diam wins", "diam", "y/gr/-/b/bgr/-/g/- 2", "2:1-", []int{0}, "diam at level 3 in red on cells 1 and 5"},
		{"level 4", "diam", "yyy/b/-/-/ggbb/-/-/- 2", "2:1-", []int{1}, "diam at level 4 in blue on cells 1 and 5"},
		{"same level, not opposite", "diam", "-/gr/-/y/-/-/yr/- 1", "4:1-", nil, ""},
		{"placement with drop=any", "diam(drop=any)", "r/gry/yy/bg/grg/-/-/- 1", "r@1", []int{0}, "diam at level 2 in red on cells 1 and 5"},
		{"four players, level 1", "diam(players=4)", "-/-/-/-/gy/-/-/- 2", "g@1", nil, ""},
		{"four players, placed", "diam(players=4,drop=any)", "g/-/-/-/gy/-/-/- 3", "y@1", []int{2}, "diam at level 2 in yellow on cells 1 and 5"},
		{"four players, another's diam", "diam(players=4)", "-/rb/-/-/gb/-/-/- 1", "2:1-", []int{3}, "diam at level 2 in blue on cells 1 and 5"},
		{"teams", "diam(players=4,teams=true,drop=any)", "y/-/bg/-/gr/r/by/br 3", "8:2+", []int{0, 2}, "diam at level 2 in red on cells 1 and 5: red and yellow win"},
		{"teams, for the others", "diam(players=4,teams=true)", "-/rb/-/-/gb/-/-/- 1", "2:1-", []int{1, 3}, "diam at level 2 in blue on cells 1 and 5: green and blue win"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := load(t, tt.spec)
			s := mustState(t, g, tt.pos)
			if s.Terminal() {
				t.Fatalf("%q is terminal before the move", tt.pos)
			}
			play(t, s, tt.move)
			o := s.Outcome()
			if tt.winners == nil {
				if s.Terminal() || o.Over() {
					t.Errorf("after %s: %q is over: %s", tt.move, s, o.Describe(g))
				}
				return
			}
			if !s.Terminal() || len(s.Legal(nil)) != 0 {
				t.Fatalf("after %s: %q not over", tt.move, s)
			}
			if got := o.Winners(); !slices.Equal(got, tt.winners) || o.Detail != tt.detail || o.Reason != game.ByRules {
				t.Errorf("after %s: winners %v detail %q reason %v, want %v %q", tt.move, got, o.Detail, o.Reason, tt.winners, tt.detail)
			}
			// The finished position reparses as the same finished game.
			again := mustState(t, g, s.String())
			if o2 := again.Outcome(); o2.Detail != o.Detail || !slices.Equal(o2.Winners(), o.Winners()) {
				t.Errorf("reparsed %q: %s, want %s", s, o2.Describe(g), o.Describe(g))
			}
			if _, err := s.ParseMove("pass"); !errors.Is(err, game.ErrGameOver) {
				t.Errorf("a move after the end: error = %v, want ErrGameOver", err)
			}
			s.Undo()
			if s.String() != tt.pos || s.Terminal() {
				t.Errorf("undo gives %q (terminal %v), want %q", s, s.Terminal(), tt.pos)
			}
		})
	}
}

func TestTeams(t *testing.T) {
	g := load(t, "diam(players=4,teams=true)")
	s := mustState(t, g, "-/ryy/y/-/-/r/gb/g 3")
	// Yellow moves red, a partner's piece...
	got := moveStrings(s)
	for _, want := range []string{"2:1-", "6:1+", "3:1+", "y@1"} {
		if !slices.Contains(got, want) {
			t.Errorf("yellow's moves %v lack %s", got, want)
		}
	}
	// ...but places only yellow and moves no green or blue.
	for _, bad := range []string{"r@1", "g@1", "8:1+"} {
		if slices.Contains(got, bad) {
			t.Errorf("yellow's moves %v include %s", got, bad)
		}
	}
	if _, err := s.ParseMove("r@1"); err == nil || !strings.Contains(err.Error(), "places only their own colour, yellow") {
		t.Errorf("yellow placing red: error = %v", err)
	}
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			if got, want := g.SameTeam(a, b), a%2 == b%2; got != want {
				t.Errorf("SameTeam(%d, %d) = %v, want %v", a, b, got, want)
			}
		}
	}
	// Without teams, yellow may move only yellow.
	solo := mustState(t, load(t, "diam(players=4)"), "-/ryy/y/-/-/r/gb/g 3")
	if _, err := solo.ParseMove("6:1+"); err == nil || !strings.Contains(err.Error(), "Yellow moves yellow") {
		t.Errorf("yellow moving red without teams: error = %v", err)
	}
	// A team win names both partners; a resignation loses for both.
	w := mustState(t, load(t, "diam(players=4,teams=true,drop=any)"), "y/-/bg/-/gr/r/by/br 3")
	play(t, w, "8:2+")
	if got, want := w.Outcome().Describe(w.Game()), "Red and Yellow win (diam at level 2 in red on cells 1 and 5: red and yellow win)"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	h := game.NewHistory(g, nil)
	h.Resign(1, game.ByResignation, "")
	if got := h.Outcome().Winners(); !slices.Equal(got, []int{0, 2}) {
		t.Errorf("green resigns: winners %v, want [0 2]", got)
	}
}

func TestPass(t *testing.T) {
	tests := []struct{ spec, pos, after string }{
		// Player 2's pieces fill cells 2 and 3, between two full cells.
		{"diam", "ryry/gbgb/bgbg/ryry/-/-/-/- 2", "ryry/gbgb/bgbg/ryry/-/-/-/- 1"},
		// Green's four pieces are all stuck, and no cell is empty.
		{"diam(players=4)", "b/gryr/yggg/rbby/-/r/by/- 2", "b/gryr/yggg/rbby/-/r/by/- 3"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			g := load(t, tt.spec)
			s := mustState(t, g, tt.pos)
			if got := moveStrings(s); !slices.Equal(got, []string{"pass"}) || s.Terminal() {
				t.Fatalf("%q: moves %v terminal %v, want just a pass", tt.pos, got, s.Terminal())
			}
			if s.Perft(1) != 1 {
				t.Errorf("Perft(1) = %d, want 1", s.Perft(1))
			}
			play(t, s, "pass")
			if s.String() != tt.after {
				t.Errorf("after pass: %q, want %q", s, tt.after)
			}
			s.Undo()
			if s.String() != tt.pos {
				t.Errorf("undoing the pass: %q, want %q", s, tt.pos)
			}
		})
	}
	s := load(t, "diam").NewStart()
	if _, err := s.ParseMove("pass"); !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), "passes only with none") {
		t.Errorf("pass at the start: error = %v", err)
	}
}

func TestFinishedPosition(t *testing.T) {
	g := load(t, "diam")
	for _, pos := range []string{"-/rr/-/-/-/gr/-/- 1", "-/rr/-/-/-/gr/-/- 2"} {
		s := mustState(t, g, pos)
		if !s.Terminal() || len(s.Legal(nil)) != 0 || s.Perft(1) != 0 || s.Perft(0) != 1 {
			t.Errorf("%q: terminal %v, %d moves", pos, s.Terminal(), len(s.Legal(nil)))
		}
		if got := s.Outcome().Describe(g); got != "Player 1 (red, yellow) wins (diam at level 2 in red on cells 2 and 6)" {
			t.Errorf("%q: %s", pos, got)
		}
		if c, l, cell, ok := s.Diam(); !ok || c != diam.Red || l != 1 || cell != 1 {
			t.Errorf("%q: Diam() = %d, %d, %d, %v", pos, c, l, cell, ok)
		}
	}
}

func TestParseErrors(t *testing.T) {
	g := load(t, "diam")
	g4 := load(t, "diam(players=4)")
	tests := []struct {
		g        *diam.Game
		in, want string
	}{
		{g, "-/-/-/-/-/-/-/-", "want the 8 cells"},
		{g, "-/-/-/-/-/-/-/- 3", "want a number from 1 to 2"},
		{g, "-/-/-/-/-/-/-/- 0", "want a number from 1 to 2"},
		{g, "-/-/-/-/-/-/-/- 01", "want a number from 1 to 2"},
		{g4, "-/-/-/-/-/-/-/- 5", "want a number from 1 to 4"},
		{g, "-/-/-/-/-/-/- 1", "7 cells; want 8"},
		{g, "-/-/-/-/-/-/-/-/- 1", "9 cells; want 8"},
		{g, "-/-//-/-/-/-/- 1", "cell 3 is blank"},
		{g, "rgybr/-/-/-/-/-/-/- 1", "cell 1 holds 5 pieces"},
		{g, "rw/-/-/-/-/-/-/- 1", `unexpected 'w'`},
		{g, "R/-/-/-/-/-/-/- 1", `unexpected 'R'`},
		{g, "r-/-/-/-/-/-/-/- 1", `unexpected '-'`},
		{g, "rr/rr/r/-/-/-/-/- 1", "5 red pieces; there are 4 of each colour"},
		{g, "-/rr/yy/-/-/gr/gy/- 1", "diams on cells 2-6 and 3-7"},
		{g, "-/-/-/-/-/-/-/- 1 x", "want the 8 cells"},
	}
	for _, tt := range tests {
		_, err := tt.g.Parse(tt.in)
		var pe *game.PositionError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) error = %v, want a *game.PositionError mentioning %q", tt.in, err, tt.want)
		}
	}
	// Surrounding space is tolerated; the string is canonical again.
	if s, err := g.Parse("  r/-/-/-/-/-/-/-   2 "); err != nil || s.String() != "r/-/-/-/-/-/-/- 2" {
		t.Errorf("Parse with spaces: %v, %v", s, err)
	}
}

func TestParseMoveErrors(t *testing.T) {
	g := load(t, "diam")
	s := mustState(t, g, "ryyy/g/-/-/-/-/-/y 1")
	tests := []struct{ in, want string }{
		{"", "want <colour>@<cell>"},
		{"r3", "want <colour>@<cell>"},
		{"x@3", "colour 'x'; want r, y, g or b"},
		{"r@9", "cells run from 1 to 8"},
		{"r@0", "cells run from 1 to 8"},
		{"9:1+", "cells run from 1 to 8"},
		{"1:5+", "levels run from 1 to 4"},
		{"1:1*", "want + (clockwise) or -"},
		{"g@3", "green is not Player 1 (red, yellow)'s"},
		{"y@3", "no yellow piece is left in reserve"},
		{"r@2", "cell 2 is not empty"},
		{"3:1+", "cell 3 is empty"},
		{"2:2+", "cell 2 has no piece at level 2; it holds 1"},
		{"2:1+", "is green; Player 1 (red, yellow) moves red and yellow"},
		{"1:1+", "cell 2 would hold 5 pieces"},
		{"1:1-", "cell 8 would hold 5 pieces"},
		{"pass", "passes only with none"},
	}
	for _, tt := range tests {
		_, err := s.ParseMove(tt.in)
		var me *game.MoveError
		if !errors.As(err, &me) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseMove(%q) error = %v, want a *game.MoveError mentioning %q", tt.in, err, tt.want)
		}
	}
	for _, in := range []string{"r@3", " 1:4+ ", "1:2+"} {
		if _, err := s.ParseMove(in); err != nil {
			t.Errorf("ParseMove(%q): %v", in, err)
		}
	}
}

func TestRepetitionAndPlyCap(t *testing.T) {
	// After r@1 g@5 the two pieces step away and back: the position after
	// g@5 occurs for the third time at the end of the second round.
	moves := strings.Fields("r@1 g@5 1:1+ 5:1+ 2:1- 6:1- 1:1+ 5:1+ 2:1- 6:1-")
	h := game.NewHistory(load(t, "diam"), nil)
	for i, mv := range moves {
		if h.Over() {
			t.Fatalf("over after %d moves: %s", i, h.Outcome().Describe(h.Game()))
		}
		if err := h.Play(mv); err != nil {
			t.Fatalf("Play(%s): %v", mv, err)
		}
	}
	if o := h.Outcome(); !o.IsDraw() || o.Reason != game.ByRepetition {
		t.Errorf("after a threefold repetition: %s (%v)", o.Describe(h.Game()), o.Reason)
	}
	h = game.NewHistory(load(t, "diam(maxplies=3)"), nil)
	for _, mv := range moves[:3] {
		if err := h.Play(mv); err != nil {
			t.Fatalf("Play(%s): %v", mv, err)
		}
	}
	if o := h.Outcome(); !o.IsDraw() || o.Reason != game.ByPlyCap {
		t.Errorf("at the ply cap: %s (%v)", o.Describe(h.Game()), o.Reason)
	}
}

func TestHash(t *testing.T) {
	g := load(t, "diam(players=4)")
	seen := map[uint64]string{}
	for _, pos := range []string{
		"-/-/-/-/-/-/-/- 1", "-/-/-/-/-/-/-/- 2", "-/-/-/-/-/-/-/- 3", "-/-/-/-/-/-/-/- 4",
		"r/-/-/-/-/-/-/- 1", "-/r/-/-/-/-/-/- 1", "g/-/-/-/-/-/-/- 1", "rg/-/-/-/-/-/-/- 1", "gr/-/-/-/-/-/-/- 1",
	} {
		h := mustState(t, g, pos).Hash()
		if prev, ok := seen[h]; ok {
			t.Errorf("%q and %q hash alike", pos, prev)
		}
		seen[h] = pos
	}
}

func TestNoAllocs(t *testing.T) {
	g := load(t, "diam")
	s := mustState(t, g, "yg/r/bb/-/gr/y/-/rb 1")
	moves := s.Legal(make([]game.Move, 0, g.MaxMoves()))
	s.Apply(moves[0])
	s.Undo()
	if n := testing.AllocsPerRun(100, func() {
		for _, m := range moves {
			s.Apply(m)
			s.Undo()
		}
	}); n != 0 {
		t.Errorf("Apply and Undo allocate %v times", n)
	}
	if n := testing.AllocsPerRun(5, func() { s.Perft(3) }); n != 0 {
		t.Errorf("Perft allocates %v times", n)
	}
	buf := make([]game.Move, 0, g.MaxMoves())
	if n := testing.AllocsPerRun(100, func() { buf = s.Legal(buf[:0]) }); n != 0 {
		t.Errorf("Legal allocates %v times", n)
	}
}
