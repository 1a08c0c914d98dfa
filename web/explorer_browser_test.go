package web_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"stax/games"
	"stax/server"
	"stax/server/store"
	"stax/server/store/sqlite"
	"stax/web"
)

// TestBrowserExplorer: the analysis board shows, on a phone-sized screen,
// the moves the site's finished games played from the position, counted
// as the server indexed them at start, all games or the casual ones; a
// move of the list is played on the board.
func TestBrowserExplorer(t *testing.T) {
	skipShort(t)
	needChromium(t)
	db := filepath.Join(t.TempDir(), "stax.db")
	st, err := sqlite.Open(db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Millisecond)
	for i, g := range []struct {
		id, outcome string
		moves       []string
	}{
		{"x1", "1-0 resignation; Black resigned", []string{"1a1-a2", "1c3-c2"}},
		{"x2", "0-1 resignation; White resigned", []string{"1a1-a2", "1a3-a2"}},
		{"x3", "1-0 resignation; Black resigned", []string{"1b1-b2"}},
	} {
		sg := &store.Game{ID: g.id, Spec: "pogo", Status: store.Playing, Created: now, Updated: now,
			Seats: []store.Seat{{Kind: "human", Name: "a", TokenHash: "a" + g.id, Joined: true}, {Kind: "human", Name: "b", TokenHash: "b" + g.id, Joined: true}},
			End:   store.End{Outcome: "*", Resigned: -1}}
		if err := st.Create(ctx, sg); err != nil {
			t.Fatal(err)
		}
		for ply, m := range g.moves {
			if err := st.AppendMove(ctx, g.id, ply, m, now, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.Finish(ctx, g.id, len(g.moves), store.End{Outcome: g.outcome, Resigned: 1 - i%2}, now.Add(time.Duration(i)*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
	}
	srv, err := server.New(server.Config{Store: st, Games: games.All(), Assets: web.FS()})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		srv.Close()
		hs.Close()
		st.Close()
	})
	b := newBrowserAt(t, hs.URL)
	tab := b.tab(t, 60*time.Second)
	do(t, tab, "a phone-sized screen", chromedp.EmulateViewport(390, 844))
	do(t, tab, "opening the analysis board", chromedp.Navigate(b.base+"/analysis?spec=pogo"))
	waitFor(t, tab, "the explorer's moves", `document.querySelectorAll('[data-testid=explorer-move]').length === 2`)
	if got := eval[string](t, tab, `(r => r.dataset.move + ' ' + r.dataset.games + ' ' + r.dataset.wins + ' ' + r.dataset.losses)(document.querySelector('[data-testid=explorer-move]'))`); got != "1a1-a2 2 1 1" {
		t.Errorf("the first move of the explorer: %q; want 1a1-a2 in 2 games, 1 won, 1 lost", got)
	}
	click(t, tab, "explorer-rated")
	waitFor(t, tab, "no rated games", `document.querySelectorAll('[data-testid=explorer-move]').length === 0`)
	click(t, tab, "explorer-casual")
	waitFor(t, tab, "the casual games", `document.querySelectorAll('[data-testid=explorer-move]').length === 2`)
	shot(t, tab, "explorer")
	do(t, tab, "playing 1a1-a2 from the explorer", chromedp.Click(`[data-testid=explorer-move][data-move="1a1-a2"] button`, chromedp.NodeVisible))
	waitFor(t, tab, "the replies", `location.search.includes('moves=1a1-a2') && document.querySelectorAll('[data-testid=explorer-move]').length === 2 && [...document.querySelectorAll('[data-testid=explorer-move]')].every(r => r.dataset.games === '1')`)
	b.checkNoExceptions(t)
}
