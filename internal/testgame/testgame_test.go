package testgame_test

import (
	"testing"

	"stax/game/gametest"
	"stax/internal/testgame"
)

// TestConformance runs the conformance kit over both variants.
func TestConformance(t *testing.T) {
	for first, positions := range map[string][]string{
		"x": {"xx-/oo-/--- x", "xox/xoo/oxx o", "xxx/oo-/--- o"},
		"o": {"xx-/oo-/--- o", "oxo/oxx/xoo x", "ooo/xx-/--- x"},
	} {
		t.Run("first="+first, func(t *testing.T) {
			g, err := testgame.New(map[string]string{"first": first})
			if err != nil {
				t.Fatal(err)
			}
			gametest.Run(t, g, gametest.Config{Positions: positions})
		})
	}
}

// TestPerft counts the move tree of the whole game: 255,168 games.
func TestPerft(t *testing.T) {
	g, _ := testgame.New(nil)
	var games func(s *testgame.State) int
	games = func(s *testgame.State) int {
		if s.Terminal() {
			return 1
		}
		n := 0
		for _, m := range s.Legal(nil) {
			s.Apply(m)
			n += games(s)
			s.Undo()
		}
		return n
	}
	if n := games(g.NewStart()); n != 255168 {
		t.Errorf("%d games; want 255168", n)
	}
}

func FuzzParseState(f *testing.F) {
	for _, s := range []string{"---/---/--- x", "xx-/oo-/--- x", "xox/xoo/oxx o", "x/y z", ""} {
		f.Add(s)
	}
	g, _ := testgame.New(nil)
	f.Fuzz(func(t *testing.T, in string) {
		if s := gametest.CheckParseState(t, g, in); s != nil {
			for _, m := range []string{"a1", "b2", "c3", "d4", "", "a"} {
				gametest.CheckParseMove(t, s, m)
			}
		}
	})
}
