package view_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"stax/games"
	"stax/server/view"
)

// TestHandler checks GET /api/view on its own: the view of a position, of
// the position a move leads to with the move's cells marked, and a clear
// error for a bad spec, position or move.
func TestHandler(t *testing.T) {
	ts := httptest.NewServer(view.Handler(games.All()))
	defer ts.Close()
	get := func(spec, pos, move string, want int) *view.View {
		t.Helper()
		q := url.Values{"spec": {spec}, "position": {pos}, "move": {move}}
		res, err := http.Get(ts.URL + "?" + q.Encode())
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != want {
			t.Fatalf("view of %s %q %q: %d; want %d", spec, pos, move, res.StatusCode, want)
		}
		var v view.View
		json.NewDecoder(res.Body).Decode(&v)
		return &v
	}
	v := get("pogo", "", "", http.StatusOK)
	if len(v.Board.Stacks) != 9 || len(v.List()) != 16 {
		t.Fatalf("pogo's start: %+v; want 9 cells and the legal moves", v)
	}
	v = get("pogo", "", "1a1-a2", http.StatusOK)
	if len(v.Last) != 2 {
		t.Fatalf("after 1a1-a2 the last move marks %v; want its two cells", v.Last)
	}
	get("chess", "", "", http.StatusBadRequest)
	get("pogo", "not a position", "", http.StatusBadRequest)
	get("pogo", "", "9z9-z9", http.StatusBadRequest)
}
