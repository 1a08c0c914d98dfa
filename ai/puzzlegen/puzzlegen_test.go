package puzzlegen

import (
	"context"
	"reflect"
	"testing"

	"stax/ai/aitest"
	"stax/game"
	"stax/games"
	"stax/games/diam"
	"stax/games/pisola"
	"stax/games/pogo"
	"stax/puzzle"
)

func TestSplit(t *testing.T) {
	for _, n := range []int{0, 1, 7, 150, 2000} {
		for name, targets := range map[string]map[puzzle.Theme]int{"pogo": PogoTargets(n), "diam": DiamTargets(n)} {
			sum := 0
			for _, k := range targets {
				sum += k
			}
			if sum != n {
				t.Errorf("%s targets of %d: %v sum to %d", name, n, targets, sum)
			}
		}
	}
}

func TestKeys(t *testing.T) {
	pg, _ := pogo.New(nil)
	dg, _ := diam.New(nil)
	tests := []struct {
		name string
		g    game.Game
		f    finder
		a, b string
		same bool
	}{
		{"pogo mirror", pg, &pogoFinder{}, "bb,bb,bb/-,-,-/ww,ww,ww w", "bb,bb,bb/-,-,-/ww,ww,ww w", true},
		{"pogo reflection", pg, &pogoFinder{}, "bbw,bb,bb/-,-,-/ww,w,ww w", "bb,bb,bbw/-,-,-/ww,w,ww w", true},
		{"pogo flip and colours", pg, &pogoFinder{}, "bbw,bb,bb/-,-,-/ww,w,ww w", "bb,b,bb/-,-,-/wwb,ww,ww b", true},
		{"pogo other", pg, &pogoFinder{}, "bbw,bb,bb/-,-,-/ww,w,ww w", "bbw,bb,bb/-,-,-/ww,w,ww b", false},
		{"diam rotation", dg, &diamFinder{}, "rg/y/-/-/-/-/-/- 1", "-/-/-/rg/y/-/-/- 1", true},
		{"diam reflection", dg, &diamFinder{}, "rg/y/-/-/-/-/-/- 1", "y/rg/-/-/-/-/-/- 1", true},
		{"diam colours", dg, &diamFinder{}, "rg/y/-/-/-/-/-/- 1", "yb/r/-/-/-/-/-/- 1", true},
		{"diam players", dg, &diamFinder{}, "rg/y/-/-/-/-/-/- 1", "gr/b/-/-/-/-/-/- 2", true},
		{"diam other", dg, &diamFinder{}, "rg/y/-/-/-/-/-/- 1", "gr/y/-/-/-/-/-/- 1", false},
	}
	for _, tt := range tests {
		a, err := tt.g.ParseState(tt.a)
		if err != nil {
			t.Fatal(err)
		}
		b, err := tt.g.ParseState(tt.b)
		if err != nil {
			t.Fatal(err)
		}
		if ka, kb := tt.f.key(a), tt.f.key(b); (ka == kb) != tt.same {
			t.Errorf("%s: key(%s) = %q, key(%s) = %q; want equal %v", tt.name, tt.a, ka, tt.b, kb, tt.same)
		}
	}
}

// checkSet checks what every set generated must be: puzzles the rules
// replay, of the themes asked for, no more of each than its target.
func checkSet(t *testing.T, ps []puzzle.Puzzle, targets map[puzzle.Theme]int) {
	t.Helper()
	have := map[puzzle.Theme]int{}
	for _, p := range ps {
		if err := puzzle.Check(games.All(), p); err != nil {
			t.Error(err)
		}
		if _, err := puzzle.Parse(p.String()); err != nil {
			t.Error(err)
		}
		have[p.Themes[0]]++
	}
	for th, n := range have {
		if n > targets[th] {
			t.Errorf("%d puzzles of %s; the target is %d", n, th, targets[th])
		}
	}
	if len(ps) == 0 {
		t.Error("no puzzles")
	}
}

func TestPogoGenerate(t *testing.T) {
	tb, err := aitest.Tables(t).Table(true)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := pogo.New(nil)
	targets := map[puzzle.Theme]int{puzzle.WinIn(1): 4, puzzle.WinIn(2): 4, puzzle.SaveTheDraw: 4}
	opts := Options{Targets: targets, MaxGames: 300, Seed: 11}
	a, err := Pogo(context.Background(), g, tb, opts)
	if err != nil {
		t.Fatal(err)
	}
	checkSet(t, a, targets)
	b, err := Pogo(context.Background(), g, tb, opts)
	if err != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("a second run with the same seed gave %v, %v; want the first run's %v", b, err, a)
	}
	if _, err := Pogo(context.Background(), g, tb, Options{}); err == nil {
		t.Error("Pogo without targets: no error")
	}
	gu, _ := pogo.New(game.Options{"u": "false"})
	if _, err := Pogo(context.Background(), gu, tb, opts); err == nil {
		t.Error("Pogo of pogo(u=false) with the table of pogo: no error")
	}
}

func TestDiamGenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("self-plays Diam games and proves their positions (seconds)")
	}
	for _, spec := range []string{"diam", "diam(drop=any)"} {
		gg, err := games.Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		targets := map[puzzle.Theme]int{puzzle.DiamIn(1): 3, puzzle.DiamIn(2): 1}
		ps, err := Diam(context.Background(), gg.(*diam.Game), Options{Targets: targets, MaxGames: 60, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		checkSet(t, ps, targets)
	}
	g4, _ := games.Load("diam(players=4)")
	if _, err := Diam(context.Background(), g4.(*diam.Game), Options{Targets: DiamTargets(1)}); err == nil {
		t.Error("Diam of four-player Diam: no error")
	}
}

func TestPisolaGenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("self-plays Pisola games and searches their positions (seconds)")
	}
	gg, err := games.Load("pisola")
	if err != nil {
		t.Fatal(err)
	}
	targets := PisolaTargets(2)
	opts := Options{Targets: targets, MaxGames: 20, Seed: 2}
	a, err := Pisola(context.Background(), gg.(*pisola.Game), opts)
	if err != nil {
		t.Fatal(err)
	}
	checkSet(t, a, targets)
	b, err := Pisola(context.Background(), gg.(*pisola.Game), opts)
	if err != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("a second run with the same seed gave %v, %v; want the first run's %v", b, err, a)
	}
}
