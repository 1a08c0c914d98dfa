package explorer_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"stax/game"
	"stax/games"
	"stax/server/explorer"
	"stax/server/store"
	"stax/server/store/postgres"
	"stax/server/store/sqlite"
)

// TestExplorerAtScale measures the explorer's store with many indexed
// games: STAX_EXPLORER_GAMES=100000 indexes that many random Pogo games of
// up to 40 plies (on SQLite in a temporary file, or on the PostgreSQL
// database STAX_EXPLORER_DB names) and times the queries of positions at
// the start, after 2 plies and after 8 (docs/performance.md). Without the
// variable it is skipped: it takes minutes.
func TestExplorerAtScale(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("STAX_EXPLORER_GAMES"))
	if n <= 0 {
		t.Skip("STAX_EXPLORER_GAMES not set: the explorer at scale is not measured")
	}
	ctx := context.Background()
	var st store.Store
	var err error
	if url := os.Getenv("STAX_EXPLORER_DB"); url != "" {
		st, err = postgres.Open(ctx, url, postgres.Options{})
	} else {
		st, err = sqlite.Open(filepath.Join(t.TempDir(), "scale.db"), sqlite.Options{})
	}
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	xs := st.(store.Explorer)
	g, err := games.All().Load("pogo")
	if err != nil {
		t.Fatal(err)
	}
	// The games: random moves, the first game's line kept to query.
	var line []string
	start := time.Now()
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var entries int
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				rng := rand.New(rand.NewPCG(uint64(i), 1))
				sg := &store.Game{ID: fmt.Sprintf("g%07d", i), Spec: "pogo", End: store.End{Outcome: []string{"1-0 resignation", "0-1 resignation", "1/2-1/2 agreement"}[rng.IntN(3)]}}
				s := g.Start()
				for ply := 0; ply < 40 && !s.Terminal(); ply++ {
					legal := s.Legal(nil)
					m := legal[rng.IntN(len(legal))]
					sg.Moves = append(sg.Moves, s.FormatMove(m))
					s.Apply(m)
				}
				es, err := explorer.Entries(g, sg, nil)
				if err != nil {
					t.Error(err)
					return
				}
				if err := xs.IndexGame(ctx, sg.ID, "pogo", i%3 == 0, time.Now(), es); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				entries += len(es)
				if i == 0 {
					line = slices.Clone(sg.Moves)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	t.Logf("indexed %d games (%d entries) in %s", n, entries, time.Since(start).Round(time.Second))
	for _, ply := range []int{0, 2, 8} {
		s := g.Start()
		for _, text := range line[:ply] {
			m, err := s.ParseMove(text)
			if err != nil {
				t.Fatal(err)
			}
			s.Apply(m)
		}
		var times []time.Duration
		var rows []store.ExplorerMove
		for range 200 {
			t0 := time.Now()
			rows, err = xs.ExplorerMoves(ctx, game.SpecOf(g).String(), s.Hash())
			times = append(times, time.Since(t0))
			if err != nil {
				t.Fatal(err)
			}
		}
		slices.Sort(times)
		games := 0
		for _, r := range rows {
			games += r.Games
		}
		t.Logf("after %d plies: %d rows (%d games); query median %s, 99th percentile %s", ply, len(rows), games, times[len(times)/2], times[len(times)*99/100])
	}
}
