package record_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"stax/game"
	"stax/game/record"
	"stax/games"
)

var update = flag.Bool("update", false, "rewrite the golden records in testdata/")

// goldenSpecs lists the variants whose games the golden records hold, by
// game name. A registered game missing here gets its default variant.
var goldenSpecs = map[string][]string{
	"pogo":   {"pogo", "pogo(u=false)", "pogo(first=black)"},
	"pisola": {"pisola", "pisola(roofs=true)", "pisola(size=8)"},
	"diam":   {"diam", "diam(drop=any)", "diam(players=4)", "diam(players=4,teams=true)"},
}

// TestGolden replays the golden records of every registered game: each
// must replay without error, reach its FinalPosition tag and end with its
// Result tag, and the file must be exactly the records as String writes
// them. Run with -update to rewrite them.
func TestGolden(t *testing.T) {
	for _, info := range games.All() {
		t.Run(info.Name, func(t *testing.T) {
			path := filepath.Join("testdata", info.Name+".txt")
			if *update {
				writeGolden(t, path, info)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./game/record -run TestGolden -update to write it)", err)
			}
			rs, err := record.ParseAll(string(data))
			if err != nil {
				t.Fatalf("%s:%v", path, err)
			}
			if len(rs) == 0 {
				t.Fatalf("%s holds no records", path)
			}
			var texts []string
			for i, r := range rs {
				texts = append(texts, r.String())
				if !strings.HasPrefix(r.Get("Game"), info.Name) {
					t.Errorf("record %d: Game %q is not %s", i+1, r.Get("Game"), info.Name)
				}
				if r.Get("FinalPosition") == "" {
					t.Errorf("record %d has no FinalPosition tag", i+1)
				}
				h, err := r.Replay(games.All())
				if err != nil {
					t.Errorf("record %d (%s): %v", i+1, r.Get("Game"), err)
					continue
				}
				if got, want := h.Outcome().ResultString(), r.Get("Result"); got != want {
					t.Errorf("record %d: replayed result %s, want %s", i+1, got, want)
				}
				if got, want := record.Termination(h.Outcome()), r.Get("Termination"); got != want {
					t.Errorf("record %d: replayed termination %q, want %q", i+1, got, want)
				}
				if back := record.FromHistory(h); !sameMoves(back.Moves, r.Moves) {
					t.Errorf("record %d: FromHistory of the replay has moves %q, want %q", i+1, back.Moves, r.Moves)
				}
			}
			if got := strings.Join(texts, "\n"); got != string(data) {
				t.Errorf("%s is not in the canonical form String writes; run with -update", path)
			}
		})
	}
}

func sameMoves(a, b []string) bool {
	return strings.Join(a, " ") == strings.Join(b, " ")
}

// writeGolden plays seeded games of the game's variants and writes their
// records: finished games, an unfinished one and a resignation.
func writeGolden(t *testing.T, path string, info *game.Info) {
	specs := goldenSpecs[info.Name]
	if len(specs) == 0 {
		specs = []string{info.Name}
	}
	var out []string
	seed := uint64(1)
	add := func(h *game.History, note string) {
		tags := []record.Tag{{"Event", "golden record: " + note}, {"Date", "2026.11.22"}}
		for p := 0; p < h.Game().Players(); p++ {
			tags = append(tags, record.Tag{Name: record.SeatTag(p), Value: "stax:random"})
		}
		r := record.FromHistory(h, tags...)
		r.Set("FinalPosition", h.State().String())
		out = append(out, r.String())
	}
	for i, spec := range specs {
		g, err := games.Load(spec)
		if err != nil {
			t.Fatalf("golden variant %s: %v", spec, err)
		}
		for j := 0; j < 2; j++ {
			seed++
			add(playSeeded(g, seed, -1), fmt.Sprintf("seeded play, seed %d", seed))
		}
		if i == 0 {
			seed++
			add(playSeeded(g, seed, 2*g.Players()+1), fmt.Sprintf("unfinished, seed %d", seed))
			seed++
			h := playSeeded(g, seed, 3*g.Players())
			if !h.Over() {
				h.Resign(h.State().ToMove(), game.ByResignation, "")
			}
			add(h, fmt.Sprintf("resignation, seed %d", seed))
		}
	}
	if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// playSeeded plays a game in which each player makes a winning move when
// it has one and a random move otherwise, stopping after maxPlies plies
// when that is not negative.
func playSeeded(g game.Game, seed uint64, maxPlies int) *game.History {
	rng := rand.New(rand.NewPCG(seed, 0x60d))
	h := game.NewHistory(g, nil)
	for !h.Over() && h.Ply() != maxPlies {
		s := h.State()
		moves := s.Legal(nil)
		m := moves[rng.IntN(len(moves))]
		for _, c := range moves {
			next := s.Clone()
			next.Apply(c)
			if o := next.Outcome(); o.Over() && o.Results[s.ToMove()] == game.Win {
				m = c
				break
			}
		}
		if err := h.PlayMove(m); err != nil {
			panic(err)
		}
	}
	return h
}
