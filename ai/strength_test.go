package ai

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
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
	strengthConc  = flag.Int("strength.concurrency", 1, "games of a pairing played at once")
	strengthElo   = flag.Bool("strength.elo", false, "also print the levels' ratings that best explain the pairings' scores, random at 0")
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

// gamesWon counts a level's games by who won them: in wins the games won
// by one of its seats, in losses those won by one of the other level's,
// the rest in draws. With two players it is the usual count; with four,
// it is the ladder's measure (see docs/strength.md).
type gamesWon struct{ n, wins, draws, losses int }

// score is the share of the games won, a draw counting half.
func (w gamesWon) score() float64 {
	return (float64(w.wins) + float64(w.draws)/2) / float64(max(w.n, 1))
}

// pairing plays games of level a against level b on g with the match
// runner: seats alternate (in four-player games a takes seats 1 and 3, or 2
// and 4, in turn), every game opens with randomPlies random plies, and each
// seat gets a fresh player seeded from seed. It returns a's score against
// b pairwise, as the match runner scores it, and the games won by a's
// seats and by b's.
func pairing(t *testing.T, g game.Game, a, b string, games, randomPlies int, seed uint64) (match.Score, gamesWon) {
	t.Helper()
	rep, err := match.Run(context.Background(), match.Config{
		Game: g, Engines: []match.Engine{{Name: a, Level: a}, {Name: b, Level: b}},
		Games: games, Openings: randomPlies, Seed: seed, NewPlayer: NewSeeded, Concurrency: *strengthConc,
		// The levels are bounded by depth, nodes or playouts (strongest
		// by time): a long timeout only guards against a hung search, and
		// keeps a budgeted move from being forfeited on a loaded machine.
		Timeout: 10 * time.Minute,
	})
	if err != nil {
		t.Fatalf("%s: %s vs %s: %v", game.SpecOf(g), a, b, err)
	}
	var won gamesWon
	for _, res := range rep.Games {
		if res.Fault != "" {
			t.Errorf("%s: %s vs %s, game %d: %s", game.SpecOf(g), a, b, res.Number, res.Fault)
		}
		won.n++
		switch ws := res.Outcome.Winners(); {
		case len(ws) == 0:
			won.draws++
		case res.Seats[ws[0]] == 0:
			won.wins++
		default:
			won.losses++
		}
	}
	return rep.Table.Pair(0, 1), won
}

// TestStrengthLadder plays the level ladder with -strength:
//
//	go test ./ai -run TestStrengthLadder -strength -timeout 0 -strength.games 20
//
// It prints one markdown table per game: each pairing's wins, draws and
// losses from the first level's side, and its score, the share of the
// games it won (a draw counts half). In four-player games a game is won by
// a level when one of its two seats wins it, and the last column gives
// the match runner's pairwise score too (each of the level's seats
// against each of the other's), which tops out at 3/4 a game. Games open
// with two random plies so that deterministic levels do not repeat one
// game.
func TestStrengthLadder(t *testing.T) {
	if !*strength {
		t.Skip("run with -strength")
	}
	for _, spec := range splitSpecs(*strengthSpecs) {
		g := load(t, spec)
		var b strings.Builder
		fmt.Fprintf(&b, "\n### %s\n\n", spec)
		fmt.Fprintf(&b, "| pairing | games | wins | draws | losses | score | pairwise score | time |\n")
		fmt.Fprintf(&b, "|---|---:|---:|---:|---:|---:|---:|---:|\n")
		var results []ladderResult
		for _, pr := range ladderPairs() {
			start := time.Now()
			sc, won := pairing(t, g, pr[0], pr[1], *strengthGames, 2, *strengthSeed)
			line := fmt.Sprintf("| %s vs %s | %d | %d | %d | %d | %.0f%% | %.0f%% | %s |\n",
				pr[0], pr[1], won.n, won.wins, won.draws, won.losses, 100*won.score(), 100*sc.Mean(), time.Since(start).Round(time.Second))
			b.WriteString(line)
			t.Logf("%s: %s", spec, strings.TrimSpace(line))
			results = append(results, ladderResult{pr[0], pr[1], won})
		}
		if *strengthElo {
			b.WriteString(ladderRatings(results))
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

// ladderResult is the games won in one pairing of the ladder.
type ladderResult struct {
	a, b string
	won  gamesWon
}

// ladderRatings returns a markdown table of the levels' ratings that
// best explain the shares of games won in every pairing (maximum
// likelihood, as match.Ratings computes them from a match), shifted so
// that random is at 0 when it played, and of each pairing's Elo
// difference with its 95% interval (Wilson's interval of the share).
func ladderRatings(results []ladderResult) string {
	var names []string
	index := func(n string) int {
		if i := slices.Index(names, n); i >= 0 {
			return i
		}
		names = append(names, n)
		return len(names) - 1
	}
	for _, r := range results {
		index(r.a)
		index(r.b)
	}
	pairs := make([][]match.Score, len(names))
	for i := range pairs {
		pairs[i] = make([]match.Score, len(names))
	}
	for _, r := range results {
		a, b := index(r.a), index(r.b)
		sum := float64(r.won.wins) + float64(r.won.draws)/2
		pa, pb := &pairs[a][b], &pairs[b][a]
		pa.N, pa.Sum = pa.N+r.won.n, pa.Sum+sum
		pb.N, pb.Sum = pb.N+r.won.n, pb.Sum+float64(r.won.n)-sum
	}
	ratings := match.Ratings(pairs)
	if i := slices.Index(names, "random"); i >= 0 {
		base := ratings[i]
		for j := range ratings {
			ratings[j] -= base
		}
	}
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(ratings[x], ratings[y]) })
	var b strings.Builder
	b.WriteString("\n| level | rating |\n|---|---:|\n")
	for _, i := range order {
		fmt.Fprintf(&b, "| %s | %s |\n", names[i], match.FormatElo(ratings[i]))
	}
	b.WriteString("\n| pairing | score | Elo [95%] |\n|---|---:|---|\n")
	for _, r := range results {
		lo, hi := wilson(r.won.score(), r.won.n)
		fmt.Fprintf(&b, "| %s vs %s | %.0f%% | %s [%s, %s] |\n", r.a, r.b, 100*r.won.score(),
			match.FormatElo(match.EloOf(r.won.score())), match.FormatElo(match.EloOf(lo)), match.FormatElo(match.EloOf(hi)))
	}
	return b.String()
}

// wilson returns the 95% Wilson interval of a share p of n games.
func wilson(p float64, n int) (lo, hi float64) {
	const z = 1.96
	nf := float64(n)
	centre := (p + z*z/(2*nf)) / (1 + z*z/nf)
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / (1 + z*z/nf)
	return centre - half, centre + half
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
		minScore   float64 // the least score of a: a game won by one of its seats 1, a draw 1/2
	}{
		{"pogo", "medium", "random", 8, 8},
		{"pogo", "hard", "beginner", 8, 6},
		{"diam", "medium", "random", 8, 8},
		{"diam", "hard", "medium", 8, 6},
		{"diam(players=4)", "easy", "beginner", 6, 4.5},
		{"pisola", "medium", "easy", 16, 11},
		{"pisola(roofs=true)", "easy", "random", 6, 5},
		{"pisola(size=8)", "easy", "random", 4, 3},
	}
	for _, tc := range cases {
		t.Run(tc.spec+"/"+tc.a+"-"+tc.b, func(t *testing.T) {
			g := load(t, tc.spec)
			_, won := pairing(t, g, tc.a, tc.b, tc.games, 2, 7)
			if sum := float64(won.wins) + float64(won.draws)/2; sum < tc.minScore {
				t.Errorf("%s vs %s: +%d =%d -%d, score %.1f; want at least %g", tc.a, tc.b, won.wins, won.draws, won.losses, sum, tc.minScore)
			}
		})
	}
}
