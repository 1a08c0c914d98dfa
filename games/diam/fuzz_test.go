package diam_test

import (
	"testing"

	"stax/game"
	"stax/game/gametest"
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
			st := gametest.CheckParseState(t, g, in)
			if st == nil {
				continue
			}
			s := st.(*diam.State)
			pos, hash := s.String(), s.Hash()
			moves := s.Legal(nil)
			if s.Terminal() != (len(moves) == 0) {
				t.Fatalf("%q: terminal %v with %d moves", s, s.Terminal(), len(moves))
			}
			for _, m := range moves {
				s.Apply(m)
				s.Undo()
			}
			if s.String() != pos || s.Hash() != hash {
				t.Fatalf("%q: Apply and Undo of every move give %q", pos, s)
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
			gametest.CheckParseMove(t, s, in)
		}
	})
}
