package analysis_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"stax/game"
	"stax/games"
	"stax/search"
	"stax/server/analysis"
	"stax/server/httpx"
	"stax/server/store"
	"stax/server/store/sqlite"
)

// newBoard serves the analysis board alone on a real SQLite store, with
// no Analyst: what it answers without searching.
func newBoard(t *testing.T) (*httptest.Server, store.Store) {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "a.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	b := analysis.New(analysis.Config{Games: games.All(), Stored: st})
	t.Cleanup(b.Close)
	m := http.NewServeMux()
	b.Routes(m)
	ts := httptest.NewServer(m)
	t.Cleanup(ts.Close)
	return ts, st
}

func post(t *testing.T, url string, body any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	res, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

// TestSetup checks that a position set up by hand is read by the game's
// own parser: a legal one comes back as its position string and view, a
// bad one with the parser's message.
func TestSetup(t *testing.T) {
	ts, _ := newBoard(t)
	code, out := post(t, ts.URL+"/api/setup", analysis.SetupRequest{Spec: "pogo", Stacks: []string{"bb", "bb", "bb", "", "", "", "ww", "ww", "ww"}, ToMove: 0})
	if code != http.StatusOK || out["position"] == "" || out["view"] == nil {
		t.Fatalf("setup of the start: %d %v; want 200 with its position and view", code, out)
	}
	for _, tc := range []struct {
		name string
		req  analysis.SetupRequest
	}{
		{"unknown game", analysis.SetupRequest{Spec: "chess"}},
		{"too few cells", analysis.SetupRequest{Spec: "pogo", Stacks: []string{"b"}}},
		{"bad seat", analysis.SetupRequest{Spec: "pogo", Stacks: []string{"bb", "bb", "bb", "", "", "", "ww", "ww", "ww"}, ToMove: 5}},
	} {
		if code, out := post(t, ts.URL+"/api/setup", tc.req); code != http.StatusBadRequest || out["error"] == "" {
			t.Errorf("%s: %d %v; want 400 with a message", tc.name, code, out)
		}
	}
}

// TestNoAnalyst checks that a site without an Analyst says so instead of
// failing, and that a review of a game it does not hold is 404 either way.
func TestNoAnalyst(t *testing.T) {
	ts, st := newBoard(t)
	now := time.Now().UTC().Truncate(time.Millisecond)
	g := &store.Game{ID: "abcdefghijklmnop", Spec: "pogo", Status: store.Finished, Created: now, Updated: now,
		Seats: []store.Seat{{Kind: "human", Joined: true}, {Kind: "human", Joined: true}}, End: store.End{Outcome: "0-1 resignation", Resigned: 0}}
	if err := st.Create(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	if code, _ := post(t, ts.URL+"/api/analyze", analysis.AnalyzeRequest{Spec: "pogo"}); code != http.StatusNotFound {
		t.Errorf("analyze without an analyst: %d; want 404", code)
	}
	res, err := http.Get(ts.URL + "/api/games/" + g.ID + "/review")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("review without an analyst: %d; want 404", res.StatusCode)
	}
}

// gatedAnalyst analyses a position once let through: it records which
// game each analysis it starts is of, then waits at the gate.
type gatedAnalyst struct {
	started chan string
	gate    chan struct{}
}

func (a gatedAnalyst) Analyze(ctx context.Context, pos search.Position, opt search.AnalyzeOptions) (search.Analysis, error) {
	a.started <- pos.State.Game().Info().Name
	select {
	case <-a.gate:
	case <-ctx.Done():
	}
	return search.Analysis{}, nil
}

func (a gatedAnalyst) Review(ctx context.Context, h *game.History, opt search.ReviewOptions, progress func(done, total int)) (search.Review, error) {
	return search.Review{}, nil
}

// TestFairWorkers: one analysis worker; an address with a crowd of
// analyses waiting does not hold another's: the waiting addresses are
// served in turn, and an address past its two waiting analyses is told the
// workers are busy at once.
func TestFairWorkers(t *testing.T) {
	an := gatedAnalyst{started: make(chan string, 10), gate: make(chan struct{})}
	proxies, _ := httpx.ParseTrustedProxies("127.0.0.1,::1")
	b := analysis.New(analysis.Config{Analyst: an, Games: games.All(), Workers: 1, Burst: 100, Proxies: proxies})
	t.Cleanup(b.Close)
	m := http.NewServeMux()
	b.Routes(m)
	ts := httptest.NewServer(m)
	defer ts.Close()
	codes := make(chan int, 10)
	ask := func(from, spec string) {
		body, _ := json.Marshal(analysis.AnalyzeRequest{Spec: spec})
		req, _ := http.NewRequest("POST", ts.URL+"/api/analyze", bytes.NewReader(body))
		req.Header.Set("X-Forwarded-For", from)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			codes <- 0
			return
		}
		res.Body.Close()
		codes <- res.StatusCode
	}
	const a, c, bAddr = "203.0.113.1", "203.0.113.3", "203.0.113.2"
	go ask(a, "pogo")
	if got := <-an.started; got != "pogo" {
		t.Fatalf("first analysis of %s", got)
	}
	// Behind it, in this order: two of a's, two of c's, one of b's; a
	// third of a's is turned away.
	for i, q := range []struct{ from, spec string }{{a, "pogo"}, {a, "pogo"}, {c, "diam"}, {c, "diam"}, {bAddr, "pisola"}} {
		go ask(q.from, q.spec)
		// In this order: each waits before the next is sent.
		for deadline := time.Now().Add(10 * time.Second); b.Waiting() != i+1; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d analyses waiting after the %d-th was sent; want %d", b.Waiting(), i+1, i+1)
			}
		}
	}
	go ask(a, "pogo")
	if code := <-codes; code != http.StatusServiceUnavailable {
		t.Fatalf("a third waiting analysis of one address: %d; want 503 at once", code)
	}
	var order []string
	for range 6 {
		an.gate <- struct{}{}
		if len(order) < 5 {
			order = append(order, <-an.started)
		}
	}
	if want := []string{"pogo", "diam", "pisola", "pogo", "diam"}; !slices.Equal(order, want) {
		t.Fatalf("served %v; want the addresses in turn, %v", order, want)
	}
}
