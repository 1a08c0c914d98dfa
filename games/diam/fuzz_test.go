package diam_test

import (
	"errors"
	"slices"
	"testing"

	"stax/game"
	"stax/games/diam"
)

func FuzzParsePosition(f *testing.F) {
	for _, seed := range []string{
		"-/-/-/-/-/-/-/- 1",             // the start
		"-/r/r/yr/r/-/g/bg 1",           // a middle game
		"ryry/gbgb/bgbg/ryry/-/-/-/- 2", // player 2 must pass
		"-/rr/-/-/-/gr/-/- 2",           // a finished game
		"-/rr/yy/-/-/gr/gy/- 1",         // diams on two diameters
		"-/-/-/-/-/-/-/- 4",             // a player of the four-player game
		"rgybr/-/-/-/-/-/-/- 1",         // five pieces on a cell
		"rr/rr/r/-/-/-/-/- 1",           // five red pieces
		"-/-//-/-/-/-/- 1",              // a blank cell
		"-/-/-/-/-/-/-/-",               // no player to move
		"",
	} {
		f.Add(seed)
	}
	var games []*diam.Game
	for _, opts := range []game.Options{nil, {"players": "4"}} {
		g, err := diam.New(opts)
		if err != nil {
			f.Fatal(err)
		}
		games = append(games, g)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, g := range games {
			s, err := g.Parse(in)
			if err != nil {
				var pe *game.PositionError
				if !errors.As(err, &pe) {
					t.Fatalf("Parse(%q) error %T, want *game.PositionError", in, err)
				}
				continue
			}
			again, err := g.Parse(s.String())
			if err != nil {
				t.Fatalf("Parse(%q).String() = %q does not parse: %v", in, s.String(), err)
			}
			if again.String() != s.String() || again.Hash() != s.Hash() || again.Terminal() != s.Terminal() {
				t.Fatalf("Parse(%q) does not round-trip: %q", in, again)
			}
			moves := s.Legal(nil)
			if s.Terminal() != (len(moves) == 0) {
				t.Fatalf("%q: terminal %v with %d moves", s, s.Terminal(), len(moves))
			}
			for _, m := range moves {
				s.Apply(m)
				s.Undo()
			}
			if s.String() != again.String() || s.Hash() != again.Hash() {
				t.Fatalf("%q: Apply and Undo of every move give %q", again, s)
			}
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, seed := range []string{
		"r@3",   // a placement
		"g@3",   // the other player's colour
		"3:2+",  // a step, clockwise
		"1:1-",  // a step, counter-clockwise
		"1:1+",  // a step onto a full cell
		"pass",  // not legal with other moves
		"x@3",   // bad colour
		"r@9",   // bad cell
		"1:5+",  // bad level
		"1:1*",  // bad direction
		" r@3 ", // spaces
		"r@3@",  // trailing junk
		"",
	} {
		f.Add(seed)
	}
	g, err := diam.New(nil)
	if err != nil {
		f.Fatal(err)
	}
	var states []*diam.State
	for _, pos := range []string{"-/-/-/-/-/-/-/- 1", "ryyy/g/-/-/-/-/-/y 1", "ryry/gbgb/bgbg/ryry/-/-/-/- 2", "-/rr/-/-/-/gr/-/- 2"} {
		s, err := g.Parse(pos)
		if err != nil {
			f.Fatal(err)
		}
		states = append(states, s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, s := range states {
			m, err := s.ParseMove(in)
			if err != nil {
				var me *game.MoveError
				if !errors.As(err, &me) {
					t.Fatalf("%q: ParseMove(%q) error %T, want *game.MoveError", s, in, err)
				}
				continue
			}
			if !slices.Contains(s.Legal(nil), m) {
				t.Fatalf("%q: ParseMove(%q) = %d, not a legal move", s, in, m)
			}
			if back, err := s.ParseMove(s.FormatMove(m)); err != nil || back != m {
				t.Fatalf("%q: ParseMove(%q) = %d, which does not round-trip: %v", s, in, m, err)
			}
		}
	})
}
