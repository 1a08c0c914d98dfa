package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"stax/rating"
	"stax/server/account"
	"stax/server/lobby"
	"stax/server/ratings"
	"stax/server/view"
)

// lobbyMsg is a lobby websocket message.
type lobbyMsg struct {
	Type  string       `json:"type"`
	Seeks []lobby.Seek `json:"seeks"`
	Game  string       `json:"game"`
	Seek  string       `json:"seek"`
	By    string       `json:"by"`
	Title string       `json:"title"`
}

// lists holds what each lobby connection was told of the seeks: the list
// when it opened, then each seek added and removed.
var lists = struct {
	sync.Mutex
	of map[*websocket.Conn][]lobby.Seek
}{of: map[*websocket.Conn][]lobby.Seek{}}

// readLobby reads a lobby message; a change of the seeks ("seeks",
// "added", "removed") comes back as the list it leaves, of type "seeks".
func readLobby(t *testing.T, c *websocket.Conn) lobbyMsg {
	t.Helper()
	m := readLobbyRaw(t, c)
	lists.Lock()
	defer lists.Unlock()
	switch m.Type {
	case "seeks":
		lists.of[c] = m.Seeks
	case "added":
		for _, sk := range m.Seeks {
			list := lists.of[c]
			i := slices.IndexFunc(list, func(x lobby.Seek) bool { return x.ID == sk.ID })
			if i >= 0 {
				list[i] = sk
			} else {
				lists.of[c] = append(list, sk)
			}
		}
	case "removed":
		lists.of[c] = slices.DeleteFunc(slices.Clone(lists.of[c]), func(x lobby.Seek) bool { return x.ID == m.Seek })
	default:
		return m
	}
	return lobbyMsg{Type: "seeks", Seeks: slices.Clone(lists.of[c])}
}

func readLobbyRaw(t *testing.T, c *websocket.Conn) lobbyMsg {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, data, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("lobby: read: %v", err)
	}
	var m lobbyMsg
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// waitLobby reads lobby messages until one satisfies ok.
func waitLobby(t *testing.T, c *websocket.Conn, what string, ok func(lobbyMsg) bool) lobbyMsg {
	t.Helper()
	for {
		if m := readLobby(t, c); ok(m) {
			return m
		}
	}
}

func TestSeeks(t *testing.T) {
	clock := newFakeClock()
	ts := startAccounts(t, newDB(t), clock)
	ann, bob, cat := ts.player("ann"), ts.player("bob"), ts.player("cat")
	for _, p := range []*player{ann, bob, cat} {
		p.signup("correct horse")
	}
	guest := ts.player("guest")
	guest.fails("POST", "/api/seeks", map[string]any{"spec": "pogo"}, http.StatusUnauthorized, "not signed in")

	// Bob watches the lobby.
	lobbyWS := bob.dial("/ws/lobby")
	if m := readLobby(t, lobbyWS); m.Type != "seeks" || len(m.Seeks) != 0 {
		t.Fatalf("first lobby message %+v; want an empty list", m)
	}
	annLobby := ann.dial("/ws/lobby")
	readLobby(t, annLobby)

	for _, tc := range []struct {
		body map[string]any
		says string
	}{
		{map[string]any{"spec": "chess"}, "chess"},
		{map[string]any{"spec": ""}, "missing spec"},
		{map[string]any{"spec": "diam(players=4)"}, "lobby pairs two players"},
		{map[string]any{"spec": "pogo", "clock": map[string]any{"initial": -1, "increment": 0}}, "initial time"},
		{map[string]any{"spec": "pogo", "clock": map[string]any{"initial": 0, "increment": 0}}, "at least 1 second"},
		{map[string]any{"spec": "pogo", "clock": map[string]any{"initial": 60, "increment": 1}, "days": 2}, "not both"},
		{map[string]any{"spec": "pogo", "days": 99}, "days per move"},
		{map[string]any{"spec": "pogo(u=false)", "rated": true, "days": 3}, "not rated"},
		{map[string]any{"spec": "pogo", "seat": 2}, "seat"},
		{map[string]any{"spec": "pogo", "seat": "white"}, "seat"},
		{map[string]any{"spec": "pogo", "to": "bob"}, "challenge a player"},
	} {
		ann.fails("POST", "/api/seeks", tc.body, http.StatusBadRequest, tc.says)
	}

	var sk lobby.Seek
	ann.call("POST", "/api/seeks", map[string]any{"spec": "pogo", "clock": map[string]any{"initial": 60, "increment": 1}, "rated": true, "seat": 0}, http.StatusCreated, &sk)
	if sk.Owner != "ann" || sk.Pool != "pogo" || !sk.Rated || sk.Seat != 0 || sk.Clock.Initial != 60 {
		t.Fatalf("seek %+v", sk)
	}
	m := waitLobby(t, lobbyWS, "ann's seek", func(m lobbyMsg) bool { return len(m.Seeks) == 1 })
	if m.Seeks[0].ID != sk.ID {
		t.Fatalf("lobby lists %+v; want ann's seek", m.Seeks)
	}
	var list struct{ Seeks []lobby.Seek }
	guest.call("GET", "/api/seeks?game=pogo", nil, http.StatusOK, &list)
	if len(list.Seeks) != 1 {
		t.Fatalf("GET /api/seeks?game=pogo: %+v", list)
	}
	guest.call("GET", "/api/seeks?game=diam", nil, http.StatusOK, &list)
	if len(list.Seeks) != 0 {
		t.Fatalf("GET /api/seeks?game=diam: %+v; want none", list)
	}

	if c := ann.fails("POST", "/api/seeks/"+sk.ID+"/accept", struct{}{}, http.StatusConflict, "your own seek"); c != lobby.CodeOwnSeek {
		t.Errorf("accepting one's own seek: error code %q; want %q", c, lobby.CodeOwnSeek)
	}
	bob.fails("DELETE", "/api/seeks/"+sk.ID, struct{}{}, http.StatusForbidden, "only its owner")
	var acc lobby.AcceptResponse
	bob.call("POST", "/api/seeks/"+sk.ID+"/accept", struct{}{}, http.StatusCreated, &acc)
	cat.fails("POST", "/api/seeks/"+sk.ID+"/accept", struct{}{}, http.StatusNotFound, "no open seek")
	if m := waitLobby(t, annLobby, "started", func(m lobbyMsg) bool { return m.Type == "started" }); m.Game != acc.Game || m.By != "bob" {
		t.Fatalf("ann was told %+v; want the game %s started by bob", m, acc.Game)
	}
	var st stateOf
	guest.call("GET", "/api/games/"+acc.Game, nil, http.StatusOK, &st)
	if st.Seats[0].Name != "ann" || st.Seats[1].Name != "bob" || !st.Seats[0].Account {
		t.Fatalf("seats %+v; want ann (who asked for seat 0) and bob, both accounts", st.Seats)
	}

	// A cancelled seek cannot be accepted.
	ann.call("POST", "/api/seeks", map[string]any{"spec": "pisola"}, http.StatusCreated, &sk)
	ann.call("DELETE", "/api/seeks/"+sk.ID, struct{}{}, http.StatusOK, nil)
	bob.fails("POST", "/api/seeks/"+sk.ID+"/accept", struct{}{}, http.StatusNotFound, "cancelled")

	// A seek goes when its owner's lobby connection closes.
	ann.call("POST", "/api/seeks", map[string]any{"spec": "diam"}, http.StatusCreated, &sk)
	waitLobby(t, lobbyWS, "diam seek", func(m lobbyMsg) bool { return len(m.Seeks) == 1 && m.Seeks[0].ID == sk.ID })
	annLobby.Close(websocket.StatusNormalClosure, "")
	waitLobby(t, lobbyWS, "no seek", func(m lobbyMsg) bool { return m.Type == "seeks" && len(m.Seeks) == 0 })
	bob.fails("POST", "/api/seeks/"+sk.ID+"/accept", struct{}{}, http.StatusNotFound, "withdrawn")

	// A seek posted without a lobby connection waits a minute for one.
	cat.call("POST", "/api/seeks", map[string]any{"spec": "pogo"}, http.StatusCreated, &sk)
	clock.Advance(59 * time.Second)
	ts.srv.CheckClocks()
	guest.call("GET", "/api/seeks", nil, http.StatusOK, &list)
	if len(list.Seeks) != 1 {
		t.Fatalf("after 59 s: %d seeks; want cat's", len(list.Seeks))
	}
	clock.Advance(time.Second)
	ts.srv.CheckClocks()
	guest.call("GET", "/api/seeks", nil, http.StatusOK, &list)
	if len(list.Seeks) != 0 {
		t.Fatalf("after a minute: %d seeks; want none", len(list.Seeks))
	}
}

func TestChallenges(t *testing.T) {
	ts := startAccounts(t, newDB(t), newFakeClock())
	ann, bob, cat := ts.player("ann"), ts.player("bob"), ts.player("cat")
	for _, p := range []*player{ann, bob, cat} {
		p.signup("correct horse")
	}
	bobLobby := bob.dial("/ws/lobby")
	readLobby(t, bobLobby)
	ann.dial("/ws/lobby")
	ann.fails("POST", "/api/challenges", map[string]any{"spec": "pogo"}, http.StatusBadRequest, `missing "to"`)
	ann.fails("POST", "/api/challenges", map[string]any{"spec": "pogo", "to": "nobody"}, http.StatusNotFound, "no player")
	if c := ann.fails("POST", "/api/challenges", map[string]any{"spec": "pogo", "to": "ANN"}, http.StatusBadRequest, "yourself"); c != lobby.CodeSelfChallenge {
		t.Errorf("challenging oneself: error code %q; want %q", c, lobby.CodeSelfChallenge)
	}
	var ch lobby.Seek
	ann.call("POST", "/api/challenges", map[string]any{"spec": "pisola(size=8)", "to": "BOB", "days": 3, "rated": true}, http.StatusCreated, &ch)
	if ch.To != "bob" || ch.Pool != "pisola8" || ch.Days != 3 {
		t.Fatalf("challenge %+v", ch)
	}
	m := waitLobby(t, bobLobby, "challenge", func(m lobbyMsg) bool { return m.Type == "challenge" })
	if m.Seek != ch.ID || m.By != "ann" {
		t.Fatalf("bob was told %+v", m)
	}
	// Only ann and bob see it.
	var list struct{ Seeks []lobby.Seek }
	cat.call("GET", "/api/challenges", nil, http.StatusOK, &list)
	if len(list.Seeks) != 0 {
		t.Fatalf("cat sees %+v", list.Seeks)
	}
	bob.call("GET", "/api/challenges", nil, http.StatusOK, &list)
	if len(list.Seeks) != 1 {
		t.Fatalf("bob sees %+v", list.Seeks)
	}
	cat.fails("POST", "/api/challenges/"+ch.ID+"/accept", struct{}{}, http.StatusForbidden, "for bob")
	cat.fails("POST", "/api/challenges/"+ch.ID+"/decline", struct{}{}, http.StatusForbidden, "for bob")
	bob.call("POST", "/api/challenges/"+ch.ID+"/decline", struct{}{}, http.StatusOK, nil)
	bob.fails("POST", "/api/challenges/"+ch.ID+"/accept", struct{}{}, http.StatusNotFound, "no open")

	ann.call("POST", "/api/challenges", map[string]any{"spec": "pogo", "to": "bob"}, http.StatusCreated, &ch)
	var acc lobby.AcceptResponse
	bob.call("POST", "/api/challenges/"+ch.ID+"/accept", struct{}{}, http.StatusCreated, &acc)
	if acc.Game == "" {
		t.Fatal("no game id")
	}
}

// TestRatedGame plays a rated game between accounts over websockets that
// carry only the session cookie: the result changes both players' ratings
// exactly as rating.Update says, and a game follows its player to another
// device.
func TestRatedGame(t *testing.T) {
	ts := startAccounts(t, newDB(t), newFakeClock())
	ann, bob := ts.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo", "rated": true, "days": 7, "seat": 0})
	wa, wb := ann.game(id), bob.game(id)
	if seats := wa.hello(); len(seats) != 1 || seats[0] != 0 {
		t.Fatalf("ann holds %v; want seat 0", seats)
	}
	if seats := wb.hello(); len(seats) != 1 || seats[0] != 1 {
		t.Fatalf("bob holds %v; want seat 1", seats)
	}
	// Ann's phone: she signs in there too and holds her seat.
	phone := ts.player("ann")
	phone.call("POST", "/api/login", account.Credentials{Name: "ann", Password: "correct horse"}, http.StatusOK, nil)
	wp := phone.game(id)
	if seats := wp.hello(); len(seats) != 1 || seats[0] != 0 {
		t.Fatalf("ann's phone holds %v; want seat 0", seats)
	}
	// A stranger watches.
	ws := ts.player("x").game(id)
	if seats := ws.hello(); len(seats) != 0 {
		t.Fatalf("a spectator holds %v", seats)
	}
	st := wa.waitPly(0)
	wa.move(st.Legal()[0], 0)
	st = wb.waitPly(1)
	wb.move(st.Legal()[0], 1)
	wp.waitPly(2)
	wp.send(map[string]any{"type": "resign"})
	st = wb.waitState("the end", func(s *stateOf) bool { return s.Status == "finished" })
	if st.Outcome.Result != "0-1" {
		t.Fatalf("result %s; want 0-1", st.Outcome.Result)
	}

	wantA, _ := rating.Update(rating.New(), []rating.Result{{Opponent: rating.New(), Score: 0}}, rating.DefaultTau)
	wantB, _ := rating.Update(rating.New(), []rating.Result{{Opponent: rating.New(), Score: 1}}, rating.DefaultTau)
	for _, tc := range []struct {
		name string
		want rating.Rating
	}{{"ann", wantA}, {"bob", wantB}} {
		var p ratings.Profile
		ann.call("GET", "/api/users/"+tc.name, nil, http.StatusOK, &p)
		if len(p.Ratings) != 1 {
			t.Fatalf("%s has ratings %+v; want one", tc.name, p.Ratings)
		}
		r := p.Ratings[0]
		if r.Pool != "pogo" || r.Games != 1 || r.Rating != tc.want.Rating || r.Deviation != tc.want.Deviation || r.Volatility != tc.want.Volatility || !r.Provisional {
			t.Fatalf("%s: %+v; want pogo %v after 1 game, provisional", tc.name, r, tc.want)
		}
		if len(r.History) != 1 || r.History[0].Game != id || r.History[0].Rating != tc.want.Rating {
			t.Fatalf("%s: history %+v", tc.name, r.History)
		}
		if won := map[string]int{"ann": 0, "bob": 1}[tc.name]; r.Results == nil || *r.Results != (ratings.Results{Won: won, Lost: 1 - won}) {
			t.Fatalf("%s: results %+v; want %d won, %d lost", tc.name, r.Results, won, 1-won)
		}
		if len(p.Games) != 1 || p.Games[0].ID != id || !p.Games[0].Rated {
			t.Fatalf("%s: games %+v", tc.name, p.Games)
		}
	}
	if wantA.Rating >= 1500 || wantB.Rating <= 1500 {
		t.Fatalf("ratings %v %v: the winner should gain", wantA, wantB)
	}
	// With no established rating yet, the leaderboard lists the
	// provisional ones, marked, highest first.
	var lb struct{ Ratings []ratings.PoolRating }
	ann.call("GET", "/api/leaderboard/pogo", nil, http.StatusOK, &lb)
	if len(lb.Ratings) != 2 || !lb.Ratings[0].Provisional || !lb.Ratings[1].Provisional || lb.Ratings[0].Rating <= lb.Ratings[1].Rating {
		t.Fatalf("leaderboard %+v; want both provisional ratings, the winner first", lb.Ratings)
	}
	ann.fails("GET", "/api/leaderboard/chess", nil, http.StatusNotFound, "no rating pool")
	var pools struct{ Pools []ratings.Pool }
	ann.call("GET", "/api/pools", nil, http.StatusOK, &pools)
	if len(pools.Pools) != 4 || pools.Pools[2].Pool != "pisola8" || pools.Pools[2].Spec != "pisola(size=8)" {
		t.Fatalf("pools %+v", pools.Pools)
	}
	ann.fails("GET", "/api/users/nobody", nil, http.StatusNotFound, "no player")
	var mine struct{ Games []view.Summary }
	ann.call("GET", "/api/me/games", nil, http.StatusOK, &mine)
	if len(mine.Games) != 1 || mine.Games[0].ID != id {
		t.Fatalf("my games %+v", mine.Games)
	}
}

func TestUnratedGameKeepsRatings(t *testing.T) {
	ts := startAccounts(t, newDB(t), newFakeClock())
	ann, bob := ts.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo"})
	wa := ann.game(id)
	wa.hello()
	wa.send(map[string]any{"type": "resign"})
	wa.waitState("the end", func(s *stateOf) bool { return s.Status == "finished" })
	var p ratings.Profile
	ann.call("GET", "/api/users/ann", nil, http.StatusOK, &p)
	if len(p.Ratings) != 0 || len(p.Games) != 1 {
		t.Fatalf("after an unrated game: ratings %+v, %d games; want none and 1", p.Ratings, len(p.Games))
	}
}
