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

	"github.com/coder/websocket"

	"stax/games"
	"stax/server/httpx"
	"stax/server/httpx/httpxtest"
	"stax/server/lobby"
	"stax/server/store"
	"stax/server/store/sqlite"
)

// newBotLobby serves a lobby alone, as newLobby does, to ann and bob,
// cat who accepts no rated games against bots, and the bot account
// robot; it returns the lobby too.
func newBotLobby(t *testing.T) (*httptest.Server, *lobby.Lobby, *fakeStarter) {
	t.Helper()
	return newBotLobbyAt(t, nil)
}

// newBotLobbyAt is newBotLobby with the lobby's clock now (nil for the
// time).
func newBotLobbyAt(t *testing.T, now func() time.Time) (*httptest.Server, *lobby.Lobby, *fakeStarter) {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "lobby.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	users := httpxtest.Sessions{}
	ctx := context.Background()
	for _, u := range []*store.User{{Name: "ann"}, {Name: "bob"}, {Name: "cat", NoRatedBots: true}, {Name: "robot", Bot: true}} {
		u.ID, u.PasswordHash, u.Created = "id-"+u.Name, "x", time.Now().UTC().Truncate(time.Millisecond)
		if err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		users[u.Name] = u
	}
	if err := st.SetBot(ctx, "id-robot"); err != nil {
		t.Fatal(err)
	}
	if err := st.SetBotsRated(ctx, "id-cat", false); err != nil {
		t.Fatal(err)
	}
	starter := &fakeStarter{}
	lb := lobby.New(lobby.Config{Seeks: st, Pairing: st, Users: st, Feed: st, Games: games.All(), Sessions: users,
		Starter: starter, Ratings: fakeRatings{1500}, Sockets: httpx.NewSockets(httpx.SocketLimits{MaxConns: 10, MaxConnsPerIP: 10}, nil, nil), Now: now})
	wctx, cancel := context.WithCancel(ctx)
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
	return ts, lb, starter
}

// errorOf sends a request as user and returns the status and the error's
// code.
func errorOf(t *testing.T, ts *httptest.Server, user, method, path string, body any) (int, string) {
	t.Helper()
	code, data := httpxtest.Do(t, ts.URL, user, method, path, body)
	var e struct{ Error, Code string }
	json.Unmarshal(data, &e)
	return code, e.Code
}

// TestBotsInLobby checks the lobby's rules for bot accounts: a bot's
// seeks say that it is one; a bot may post, accept and challenge but not
// join quick pairing; a player who accepts no rated games against bots is
// sent no rated challenge by a bot, and a rated seek of theirs is neither
// shown to bots (over HTTP and the lobby's websocket) nor taken by one,
// while their casual seeks are.
func TestBotsInLobby(t *testing.T) {
	ts, _, starter := newBotLobby(t)
	rated := lobby.SeekRequest{Spec: "pogo", Rated: true, Days: 3}
	casual := lobby.SeekRequest{Spec: "pogo", Days: 3}
	var robotSeek, catRated, catCasual, annRated lobby.Seek
	call(t, ts, "robot", "POST", "/api/seeks", rated, http.StatusCreated, &robotSeek)
	if !robotSeek.Bot {
		t.Fatalf("the bot's seek %+v; want it marked bot", robotSeek)
	}
	call(t, ts, "cat", "POST", "/api/seeks", rated, http.StatusCreated, &catRated)
	call(t, ts, "cat", "POST", "/api/seeks", casual, http.StatusCreated, &catCasual)
	call(t, ts, "ann", "POST", "/api/seeks", rated, http.StatusCreated, &annRated)
	if !catRated.BotsRefused || catCasual.BotsRefused || annRated.BotsRefused || catRated.Bot {
		t.Fatalf("seeks %+v, %+v, %+v; want only cat's rated one refused to bots", catRated, catCasual, annRated)
	}

	seen := func(user string) map[string]bool {
		var list struct{ Seeks []lobby.Seek }
		call(t, ts, user, "GET", "/api/seeks", nil, http.StatusOK, &list)
		ids := map[string]bool{}
		for _, sk := range list.Seeks {
			ids[sk.ID] = true
		}
		return ids
	}
	for _, tc := range []struct {
		user string
		sees bool
	}{{"robot", false}, {"bob", true}, {"", true}} {
		if got := seen(tc.user)[catRated.ID]; got != tc.sees {
			t.Errorf("%q sees cat's rated seek: %v; want %v", tc.user, got, tc.sees)
		}
		if !seen(tc.user)[catCasual.ID] || !seen(tc.user)[robotSeek.ID] {
			t.Errorf("%q does not see cat's casual seek or the bot's seek", tc.user)
		}
	}
	// The bot's lobby websocket does not list it either.
	c, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(ts.URL, "http")+"/ws/lobby",
		&websocket.DialOptions{HTTPHeader: http.Header{httpxtest.UserHeader: {"robot"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	var first lobby.Message
	if _, data, err := c.Read(context.Background()); err != nil || json.Unmarshal(data, &first) != nil || first.Type != "seeks" {
		t.Fatalf("the bot's first lobby message: %s, %v; want the seeks", data, err)
	}
	for _, sk := range first.Seeks {
		if sk.ID == catRated.ID {
			t.Errorf("the bot's lobby websocket lists cat's rated seek")
		}
	}

	for _, tc := range []struct {
		name, user, method, path string
		body                     any
		want                     int
		code                     string
	}{
		{"a bot in quick pairing", "robot", "POST", "/api/pairing", lobby.PairRequest{Spec: "pogo", Preset: "3+2"}, http.StatusForbidden, lobby.CodeBotsNotPaired},
		{"a bot's rated challenge to cat", "robot", "POST", "/api/challenges", lobby.SeekRequest{Spec: "pogo", Rated: true, Days: 3, To: "cat"}, http.StatusConflict, lobby.CodeNoRatedBots},
		{"a bot takes cat's rated seek", "robot", "POST", "/api/seeks/" + catRated.ID + "/accept", nil, http.StatusConflict, lobby.CodeNoRatedBots},
		{"a bot's casual challenge to cat", "robot", "POST", "/api/challenges", lobby.SeekRequest{Spec: "pogo", Days: 3, To: "cat"}, http.StatusCreated, ""},
		{"a bot's rated challenge to ann", "robot", "POST", "/api/challenges", lobby.SeekRequest{Spec: "pogo", Rated: true, Days: 3, To: "ann"}, http.StatusCreated, ""},
		{"a bot takes cat's casual seek", "robot", "POST", "/api/seeks/" + catCasual.ID + "/accept", nil, http.StatusCreated, ""},
		{"a bot takes ann's rated seek", "robot", "POST", "/api/seeks/" + annRated.ID + "/accept", nil, http.StatusCreated, ""},
		{"cat takes the bot's rated seek", "cat", "POST", "/api/seeks/" + robotSeek.ID + "/accept", nil, http.StatusCreated, ""},
		{"cat in quick pairing", "cat", "POST", "/api/pairing", lobby.PairRequest{Spec: "pogo", Preset: "3+2"}, http.StatusAccepted, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, errCode := errorOf(t, ts, tc.user, tc.method, tc.path, tc.body); code != tc.want || errCode != tc.code {
				t.Fatalf("%s %s as %s: %d %q; want %d %q", tc.method, tc.path, tc.user, code, errCode, tc.want, tc.code)
			}
		})
	}
	if n := len(starter.started); n != 3 {
		t.Fatalf("%d games started; want the three the bot and cat accepted", n)
	}
	// A challenge to a bot says so beside its name.
	var toBot lobby.Seek
	call(t, ts, "ann", "POST", "/api/challenges", lobby.SeekRequest{Spec: "pogo", Rated: true, Days: 3, To: "robot"}, http.StatusCreated, &toBot)
	if !toBot.ToBot || toBot.Bot {
		t.Fatalf("ann's challenge to the bot %+v; want it marked toBot", toBot)
	}
}

// TestAttendKeepsSeeks checks that an account's seeks stay while a
// connection that attends the lobby for it is open, with no lobby
// websocket (a bot's event stream), and for a minute after it closes (a
// bot reconnecting finds them), then go.
func TestAttendKeepsSeeks(t *testing.T) {
	var mu sync.Mutex
	at := time.Now()
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return at }
	advance := func(d time.Duration) time.Time { mu.Lock(); defer mu.Unlock(); at = at.Add(d); return at }
	ts, lb, _ := newBotLobbyAt(t, now)
	var sk lobby.Seek
	call(t, ts, "robot", "POST", "/api/seeks", lobby.SeekRequest{Spec: "pogo"}, http.StatusCreated, &sk)
	leave := lb.Attend(context.Background(), "id-robot")
	count := func() int {
		var list struct{ Seeks []lobby.Seek }
		call(t, ts, "ann", "GET", "/api/seeks", nil, http.StatusOK, &list)
		return len(list.Seeks)
	}
	// Long past the grace of a seek whose owner is away, the presence
	// the lobby renews keeps it.
	lb.Sweep(advance(5 * time.Minute))
	if n := count(); n != 1 {
		t.Fatalf("%d seeks while the bot attends; want its seek", n)
	}
	leave()
	leave() // a second call does nothing
	lb.Sweep(advance(30 * time.Second))
	if n := count(); n != 1 {
		t.Fatalf("%d seeks half a minute after the bot stopped attending; want its seek, kept a minute", n)
	}
	lb.Sweep(advance(time.Minute))
	for deadline := time.Now().Add(5 * time.Second); count() != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the bot's seek stayed over a minute after it stopped attending")
		}
	}
}

// TestBotBrowserLobbyWatches: a bot account's seeks are its program's. Its
// browser's lobby page (a session, not a token) watches: closing it does
// not withdraw them, as closing a person's last lobby page does.
func TestBotBrowserLobbyWatches(t *testing.T) {
	ts, lb, _ := newBotLobby(t)
	var sk lobby.Seek
	call(t, ts, "robot", "POST", "/api/seeks", lobby.SeekRequest{Spec: "pogo"}, http.StatusCreated, &sk)
	c, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(ts.URL, "http")+"/ws/lobby",
		&websocket.DialOptions{HTTPHeader: http.Header{httpxtest.UserHeader: {"robot"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Read(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Close(websocket.StatusNormalClosure, "")
	// The lobby forgets the connection once it has acted on its close.
	for deadline := time.Now().Add(5 * time.Second); lb.Conns() != 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the bot's lobby page is still open")
		}
	}
	var list struct{ Seeks []lobby.Seek }
	call(t, ts, "ann", "GET", "/api/seeks", nil, http.StatusOK, &list)
	if len(list.Seeks) != 1 || list.Seeks[0].ID != sk.ID {
		t.Fatalf("the seeks once the bot's browser left the lobby: %+v; want the bot's", list.Seeks)
	}
}
