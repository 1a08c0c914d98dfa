package lobby_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"stax/games"
	"stax/server/httpx"
	"stax/server/httpx/httpxtest"
	"stax/server/lobby"
	"stax/server/store"
	"stax/server/store/sqlite"

	"github.com/coder/websocket"
)

// fakeStarter records the games the lobby starts instead of playing them.
type fakeStarter struct {
	mu      sync.Mutex
	started []started
}

type started struct {
	spec    string
	players []string
	rated   bool
	clock   *store.Clock
}

func (f *fakeStarter) StartGame(ctx context.Context, spec, start string, players []*store.User, rated bool, clock *store.Clock) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var names []string
	for _, p := range players {
		names = append(names, p.Name)
	}
	f.started = append(f.started, started{spec, names, rated, clock})
	return httpx.NewID(), nil
}

// fakeRatings gives every account the same rating.
type fakeRatings struct{ rating float64 }

func (f fakeRatings) Rating(ctx context.Context, userID, pool string) (store.Rating, error) {
	return store.Rating{UserID: userID, Pool: pool, Rating: f.rating, Deviation: 60, Games: 12}, nil
}

// newLobby serves a lobby alone, on a real SQLite store, with fakes of
// the accounts, live play and ratings around it.
func newLobby(t *testing.T) (*httptest.Server, *fakeStarter, httpxtest.Sessions) {
	return newLobbyQuiet(t, 0)
}

// newLobbyQuiet is newLobby with a lobby that closes connections quiet
// for quiet (0 for the default).
func newLobbyQuiet(t *testing.T, quiet time.Duration) (*httptest.Server, *fakeStarter, httpxtest.Sessions) {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "lobby.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	users := httpxtest.Sessions{}
	for _, name := range []string{"ann", "bob"} {
		u := &store.User{ID: "id-" + name, Name: name, PasswordHash: "x", Created: time.Now().UTC().Truncate(time.Millisecond)}
		if err := st.CreateUser(context.Background(), u); err != nil {
			t.Fatal(err)
		}
		users[name] = u
	}
	starter := &fakeStarter{}
	lb := lobby.New(lobby.Config{Seeks: st, Pairing: st, Users: st, Feed: st, Games: games.All(), Sessions: users,
		Starter: starter, Ratings: fakeRatings{1612}, Sockets: httpx.NewSockets(httpx.SocketLimits{MaxConns: 10, MaxConnsPerIP: 10}, nil, nil),
		Quiet: quiet})
	// The seeks' changes come back through the store's feed, as the
	// server composing the domains passes them on.
	wctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := st.Watch(wctx, func(ev store.Event) {
		if ev.Kind == store.EventSeek {
			lb.Publish(ev.Game)
		}
	}); err != nil {
		t.Fatal(err)
	}
	m := http.NewServeMux()
	lb.Routes(m)
	ts := httptest.NewServer(m)
	t.Cleanup(ts.Close)
	return ts, starter, users
}

// call sends a request as user ("" for a guest) and decodes the answer
// into out, failing unless the status is want.
func call(t *testing.T, ts *httptest.Server, user, method, path string, body any, want int, out any) {
	t.Helper()
	httpxtest.Call(t, ts.URL, user, method, path, body, want, out)
}

// TestSeekStartsGame checks the lobby on its own: a rated seek shows the
// owner's rating, its owner cannot take it, a guest cannot post one, and
// another player's acceptance starts one game through the Starter with
// the seek's clock and seats, after which the seek is gone.
func TestSeekStartsGame(t *testing.T) {
	ts, starter, _ := newLobby(t)
	req := lobby.SeekRequest{Spec: "pogo", Rated: true, Clock: &lobby.ClockSpec{Initial: 180, Increment: 2}, Seat: json.RawMessage(`0`)}
	call(t, ts, "", "POST", "/api/seeks", req, http.StatusUnauthorized, nil)
	var sk lobby.Seek
	call(t, ts, "ann", "POST", "/api/seeks", req, http.StatusCreated, &sk)
	if sk.Owner != "ann" || sk.Pool != "pogo" || sk.Rating == nil || *sk.Rating != 1612 || sk.Seat != 0 {
		t.Fatalf("seek %+v; want ann's rated pogo seek in seat 0 with her rating 1612", sk)
	}
	var list struct{ Seeks []lobby.Seek }
	call(t, ts, "", "GET", "/api/seeks", nil, http.StatusOK, &list)
	if len(list.Seeks) != 1 || list.Seeks[0].ID != sk.ID {
		t.Fatalf("seeks %+v; want ann's", list.Seeks)
	}
	call(t, ts, "ann", "POST", "/api/seeks/"+sk.ID+"/accept", nil, http.StatusConflict, nil)
	var acc lobby.AcceptResponse
	call(t, ts, "bob", "POST", "/api/seeks/"+sk.ID+"/accept", nil, http.StatusCreated, &acc)
	if !httpx.ValidID(acc.Game) {
		t.Fatalf("accept answered game %q; want an id", acc.Game)
	}
	want := started{"pogo", []string{"ann", "bob"}, true, &store.Clock{Initial: 180 * time.Second, Increment: 2 * time.Second}}
	if len(starter.started) != 1 {
		t.Fatalf("%d games started; want 1", len(starter.started))
	}
	got := starter.started[0]
	if got.spec != want.spec || len(got.players) != 2 || got.players[0] != "ann" || got.players[1] != "bob" || got.rated != want.rated || *got.clock != *want.clock {
		t.Fatalf("started %+v %+v; want %+v %+v", got, got.clock, want, want.clock)
	}
	call(t, ts, "bob", "POST", "/api/seeks/"+sk.ID+"/accept", nil, http.StatusNotFound, nil)
}

// TestSeekErrors checks that bad seeks and challenges get a clear answer
// and start nothing: among them rated games without a clock or with one
// too short to be decided by the board, and games past the site's ply cap.
func TestSeekErrors(t *testing.T) {
	ts, starter, _ := newLobby(t)
	for _, tc := range []struct {
		name, path string
		req        lobby.SeekRequest
		want       int
	}{
		{"rated 1+0 is long enough", "/api/seeks", lobby.SeekRequest{Spec: "pogo", Rated: true, Clock: &lobby.ClockSpec{Initial: 60}}, http.StatusCreated},
		{"rated 20+1 is long enough", "/api/seeks", lobby.SeekRequest{Spec: "pogo", Rated: true, Clock: &lobby.ClockSpec{Initial: 20, Increment: 1}}, http.StatusCreated},
		{"rated correspondence", "/api/seeks", lobby.SeekRequest{Spec: "pogo", Rated: true, Days: 3}, http.StatusCreated},
		{"no spec", "/api/seeks", lobby.SeekRequest{}, http.StatusBadRequest},
		{"four players", "/api/seeks", lobby.SeekRequest{Spec: "diam(players=4)"}, http.StatusBadRequest},
		{"unrated variant rated", "/api/seeks", lobby.SeekRequest{Spec: "pogo(u=false)", Rated: true}, http.StatusBadRequest},
		{"clock and days", "/api/seeks", lobby.SeekRequest{Spec: "pogo", Clock: &lobby.ClockSpec{Initial: 60}, Days: 3}, http.StatusBadRequest},
		{"challenge nobody", "/api/challenges", lobby.SeekRequest{Spec: "pogo", To: "zed"}, http.StatusNotFound},
		{"challenge oneself", "/api/challenges", lobby.SeekRequest{Spec: "pogo", To: "ANN"}, http.StatusBadRequest},
		{"seek with a target", "/api/seeks", lobby.SeekRequest{Spec: "pogo", To: "bob"}, http.StatusBadRequest},
		{"rated without a clock", "/api/seeks", lobby.SeekRequest{Spec: "pogo", Rated: true}, http.StatusBadRequest},
		{"rated 0+1", "/api/seeks", lobby.SeekRequest{Spec: "pogo", Rated: true, Clock: &lobby.ClockSpec{Initial: 0, Increment: 1}}, http.StatusBadRequest},
		{"rated 30+0", "/api/seeks", lobby.SeekRequest{Spec: "pogo", Rated: true, Clock: &lobby.ClockSpec{Initial: 30}}, http.StatusBadRequest},
		{"under a second", "/api/seeks", lobby.SeekRequest{Spec: "pogo", Clock: &lobby.ClockSpec{Initial: 0, Increment: 0.9}}, http.StatusBadRequest},
		{"no ply cap", "/api/seeks", lobby.SeekRequest{Spec: "pogo(rep=0,maxplies=0)"}, http.StatusBadRequest},
		{"past the ply cap", "/api/seeks", lobby.SeekRequest{Spec: "pogo(maxplies=5000)"}, http.StatusBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			call(t, ts, "ann", "POST", tc.path, tc.req, tc.want, nil)
		})
	}
	if len(starter.started) != 0 {
		t.Fatalf("%d games started; want none", len(starter.started))
	}
}

// TestQuietPageLeaves checks that a seek lives only while its owner's page
// is there: a page that says it is here keeps it, and one that falls quiet
// (left for another page, frozen) loses its lobby connection and its seek.
func TestQuietPageLeaves(t *testing.T) {
	// A page says it is here ten times within Quiet: a busy machine
	// that delays one or two of them does not make it quiet.
	ts, _, _ := newLobbyQuiet(t, time.Second)
	ctx := context.Background()
	h := http.Header{"X-User": {"ann"}}
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/ws/lobby", &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	var sk lobby.Seek
	call(t, ts, "ann", "POST", "/api/seeks", lobby.SeekRequest{Spec: "pogo"}, http.StatusCreated, &sk)
	seeks := func() int {
		var list struct{ Seeks []lobby.Seek }
		call(t, ts, "", "GET", "/api/seeks", nil, http.StatusOK, &list)
		return len(list.Seeks)
	}
	// The page reads the lobby's messages and says it is here, for a
	// while longer than Quiet.
	go func() {
		for {
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
		}
	}()
	for range 15 {
		if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"here"}`)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if n := seeks(); n != 1 {
		t.Fatalf("%d seeks while the page is here; want ann's", n)
	}
	// Then it falls quiet: the seek goes.
	for deadline := time.Now().Add(20 * time.Second); seeks() != 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the seek of a quiet page stayed; want it withdrawn")
		}
	}
}

// TestSeekChurn: an account may post and cancel ten seeks at once, then one
// every six seconds; and each change reaches a lobby connection as itself,
// a message whose size does not grow with the list.
func TestSeekChurn(t *testing.T) {
	ts, _, _ := newLobby(t)
	ctx := context.Background()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/ws/lobby", &websocket.DialOptions{HTTPHeader: http.Header{"X-User": {"bob"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	read := func() (string, int) {
		rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		_, data, err := c.Read(rctx)
		if err != nil {
			t.Fatal(err)
		}
		var m struct{ Type string }
		json.Unmarshal(data, &m)
		return m.Type, len(data)
	}
	if typ, _ := read(); typ != "seeks" {
		t.Fatalf("first lobby message %q; want the list", typ)
	}
	var ids []string
	for i := range 10 {
		var sk lobby.Seek
		call(t, ts, "ann", "POST", "/api/seeks", lobby.SeekRequest{Spec: "pogo"}, http.StatusCreated, &sk)
		ids = append(ids, sk.ID)
		typ, size := read()
		if typ != "added" || size > 600 {
			t.Fatalf("change %d reached the lobby as %q, %d bytes; want one seek added, in a few hundred bytes", i, typ, size)
		}
	}
	call(t, ts, "ann", "POST", "/api/seeks", lobby.SeekRequest{Spec: "pogo"}, http.StatusTooManyRequests, nil)
	call(t, ts, "ann", "DELETE", "/api/seeks/"+ids[0], nil, http.StatusTooManyRequests, nil)
	// Another account is not held by ann's churn.
	call(t, ts, "bob", "POST", "/api/seeks", lobby.SeekRequest{Spec: "pogo"}, http.StatusCreated, nil)
}
