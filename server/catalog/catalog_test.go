package catalog_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"stax/game"
	"stax/games"
	"stax/server/catalog"
)

// newCatalog serves a catalogue alone with two computer levels, one of
// them still being prepared, and a measured rating for one.
func newCatalog(t *testing.T) (*catalog.Catalog, *httptest.Server) {
	t.Helper()
	c := catalog.New(catalog.Config{
		Games:      games.All(),
		Levels:     func(game.Game) []string { return []string{"easy", "perfect"} },
		LevelReady: func(g game.Game, level string) bool { return level != "perfect" },
		LevelElo: func(g game.Game, level string) (int, bool) {
			return 400, level == "easy"
		},
		MaxPlies: 500,
	})
	m := http.NewServeMux()
	c.Routes(m)
	ts := httptest.NewServer(m)
	t.Cleanup(ts.Close)
	return c, ts
}

func get(t *testing.T, url string, want int, out any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != want {
		t.Fatalf("GET %s: %d; want %d", url, res.StatusCode, want)
	}
	if out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCatalog checks what the game picker reads: every game with its
// options (maxplies bounded by the site's ceiling), a variant's levels with
// those being prepared and their ratings, and the levels a seat may have.
func TestCatalog(t *testing.T) {
	c, ts := newCatalog(t)
	var list struct{ Games []catalog.GameInfo }
	get(t, ts.URL+"/api/games", http.StatusOK, &list)
	if len(list.Games) != len(games.All()) {
		t.Fatalf("%d games; want %d", len(list.Games), len(games.All()))
	}
	for _, gi := range list.Games {
		for _, o := range gi.Options {
			if o.Key == "maxplies" && (o.Max == nil || *o.Max != 500) {
				t.Errorf("%s: maxplies up to %v; want the site's 500", gi.Name, o.Max)
			}
		}
	}
	var v catalog.Variant
	get(t, ts.URL+"/api/variant?spec=pisola(size=8)", http.StatusOK, &v)
	if v.Spec != "pisola(size=8)" || v.Players != 2 || !slices.Equal(v.Preparing, []string{"perfect"}) || v.Elo["easy"] != 400 || v.View == nil {
		t.Fatalf("variant %+v", v)
	}
	get(t, ts.URL+"/api/variant?spec=chess", http.StatusBadRequest, nil)
	get(t, ts.URL+"/api/variant", http.StatusBadRequest, nil)
	g, _ := games.Load("pogo")
	for level, want := range map[string]bool{"easy": true, "perfect": true, "random": true, "greedy": true, "grandmaster": false} {
		if c.Known(g, level) != want {
			t.Errorf("Known(%s) = %v; want %v", level, !want, want)
		}
	}
}
