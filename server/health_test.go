package server_test

import (
	"database/sql"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"stax/games"
	"stax/server"
	"stax/server/store/sqlite"
)

// TestHealthReadOnly checks that /healthz fails when the database reads
// but refuses writes.
func TestHealthReadOnly(t *testing.T) {
	db := newDB(t)
	ts := startServer(t, db, server.Config{})
	ts.create(hotseat)
	res, err := http.Get(ts.url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /healthz on a writable database: %d", res.StatusCode)
	}
	ts.stop()

	st, err := sqlite.Open(db, sqlite.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := server.New(server.Config{Store: st, Games: games.All()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	req, _ := http.NewRequest("GET", hs.URL+"/healthz", nil)
	if code, b, _ := do(t, req); code != http.StatusServiceUnavailable || !strings.Contains(b, "database") {
		t.Errorf("GET /healthz on a read-only database: %d %s; want 503 naming the database", code, b)
	}
}

// TestBrokenGameSkipped damages two games in the database, one whose
// moves no longer replay and one whose rows no longer read: the server
// starts, serves the others and reports both in /debug/stats.
func TestBrokenGameSkipped(t *testing.T) {
	db := newDB(t)
	ts := startServer(t, db, server.Config{})
	var ids []string
	for range 3 {
		cr := ts.create(hotseat)
		w := ts.dial("p", cr.ID, cr.Token)
		w.hello()
		w.move("1a1-a2", 0)
		w.waitPly(1)
		w.c.CloseNow()
		ids = append(ids, cr.ID)
	}
	ts.stop()
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`UPDATE moves SET move = 'zz9' WHERE game_id = '` + ids[0] + `'`,
		`UPDATE moves SET at = 'not a time' WHERE game_id = '` + ids[1] + `'`,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()

	ts = startServer(t, db, server.Config{DebugStats: true})
	var st stateOf
	ts.call("GET", "/api/games/"+ids[2], nil, http.StatusOK, &st)
	if st.Ply != 1 {
		t.Errorf("the sound game after the restart: ply %d; want 1", st.Ply)
	}
	res, err := http.Get(ts.url + "/debug/stats")
	if err != nil {
		t.Fatal(err)
	}
	var stats server.Stats
	json.NewDecoder(res.Body).Decode(&stats)
	res.Body.Close()
	found := map[string]bool{}
	for _, b := range stats.Broken {
		found[b.ID] = true
	}
	if !found[ids[0]] || !found[ids[1]] || found[ids[2]] || stats.BrokenCount != 2 {
		t.Errorf("stats list broken games %+v (%d); want %s and %s", stats.Broken, stats.BrokenCount, ids[0], ids[1])
	}
	ts.call("GET", "/api/games/"+ids[0], nil, http.StatusInternalServerError, nil)
}
