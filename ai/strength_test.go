package ai

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"stax/engine/match"
	"stax/game"
)

var (
	strength      = flag.Bool("strength", false, "play the level ladder and print the tables of docs/strength.md")
	strengthSpecs = flag.String("strength.specs", "pogo,pisola,diam,diam(players=4)", "games of the ladder, separated by semicolons or commas outside parentheses")
	strengthPairs = flag.String("strength.pairs", "beginner/random,easy/beginner,medium/easy,hard/medium,strongest/hard,strongest/random", "pairings a/b, comma-separated")
	strengthGames = flag.Int("strength.games", 20, "games per pairing")
	strengthOut   = flag.String("strength.out", "", "append the markdown tables to this file")
	strengthSeed  = flag.Uint64("strength.seed", 1, "seed of the openings and the players")
)

// ladderPairs are the pairings of the level ladder.
func ladderPairs() [][2]string {
	var out [][2]string
	for _, p := range strings.Split(*strengthPairs, ",") {
		a, b, _ := strings.Cut(p, "/")
		out = append(out, [2]string{a, b})
	}
	return out
}

// splitSpecs splits a list of specs at commas outside parentheses.
func splitSpecs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',', ';':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// pairing plays games of level a against level b on g with the match
// runner: seats alternate (in four-player games a takes seats 1 and 3, or 2
// and 4, in turn), every game opens with randomPlies random plies, and each
// seat gets a fresh player seeded from seed. It returns a's score against
// b.
func pairing(t *testing.T, g game.Game, a, b string, games, randomPlies int, seed uint64) match.Score {
	t.Helper()
	rep, err := match.Run(context.Background(), match.Config{
		Game: g, Engines: []match.Engine{{Name: a, Level: a}, {Name: b, Level: b}},
		Games: games, Openings: randomPlies, Seed: seed, NewPlayer: NewSeeded,
	})
	if err != nil {
		t.Fatalf("%s: %s vs %s: %v", game.SpecOf(g), a, b, err)
	}
	for _, res := range rep.Games {
		if res.Fault != "" {
			t.Errorf("%s: %s vs %s, game %d: %s", game.SpecOf(g), a, b, res.Number, res.Fault)
		}
	}
	return rep.Table.Pair(0, 1)
}

// TestStrengthLadder plays the level ladder with -strength:
//
//	go test ./ai -run TestStrengthLadder -strength -timeout 0 -strength.games 20
//
// It prints one markdown table per game: each pairing's wins, draws and
// losses from the first level's side (in four-player games, the games
// whose pairwise score is neither is counted apart as partial), and its
// score (a draw counts half). Games open with two random plies so that
// deterministic levels do not repeat one game.
func TestStrengthLadder(t *testing.T) {
	if !*strength {
		t.Skip("run with -strength")
	}
	for _, spec := range splitSpecs(*strengthSpecs) {
		g := load(t, spec)
		var b strings.Builder
		fmt.Fprintf(&b, "\n### %s\n\n", spec)
		fmt.Fprintf(&b, "| pairing | games | wins | draws | losses | partial | score | time |\n")
		fmt.Fprintf(&b, "|---|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, pr := range ladderPairs() {
			start := time.Now()
			sc := pairing(t, g, pr[0], pr[1], *strengthGames, 2, *strengthSeed)
			line := fmt.Sprintf("| %s vs %s | %d | %d | %d | %d | %d | %.0f%% | %s |\n",
				pr[0], pr[1], sc.N, sc.Wins, sc.Draws, sc.Losses, sc.Partial, 100*sc.Mean(), time.Since(start).Round(time.Second))
			b.WriteString(line)
			t.Logf("%s: %s", spec, strings.TrimSpace(line))
		}
		if *strengthOut != "" {
			f, err := os.OpenFile(*strengthOut, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(b.String())
			f.Close()
		} else {
			fmt.Print(b.String())
		}
	}
}

// TestStrengthShort is the ladder's short version: in every game a few
// games at small budgets, checking that searching levels beat the random
// baseline and the weakest level.
func TestStrengthShort(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	cases := []struct {
		spec, a, b string
		games      int
		minScore   float64 // the least score of a, a win 1 and a draw 1/2
	}{
		{"pogo", "medium", "random", 8, 8},
		{"pogo", "hard", "beginner", 8, 6},
		{"diam", "medium", "random", 8, 8},
		{"diam", "hard", "medium", 8, 6},
		{"diam(players=4)", "easy", "beginner", 6, 4},
		{"pisola", "medium", "easy", 16, 11},
		{"pisola(roofs=true)", "easy", "random", 6, 5},
		{"pisola(size=8)", "easy", "random", 4, 3},
	}
	for _, tc := range cases {
		t.Run(tc.spec+"/"+tc.a+"-"+tc.b, func(t *testing.T) {
			g := load(t, tc.spec)
			sc := pairing(t, g, tc.a, tc.b, tc.games, 2, 7)
			if sc.Sum < tc.minScore {
				t.Errorf("%s vs %s: +%d =%d -%d ~%d, score %.1f; want at least %g", tc.a, tc.b, sc.Wins, sc.Draws, sc.Losses, sc.Partial, sc.Sum, tc.minScore)
			}
		})
	}
}
