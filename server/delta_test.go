package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"stax/server"
	"stax/server/catalog"
	"stax/server/httpx"
	"stax/server/play"
)

// TestPlyCeiling checks that the server refuses games without a ply cap
// or with one above its ceiling, and offers the ceiling in /api/games.
func TestPlyCeiling(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{MaxPlies: 500})
	for _, tt := range []struct {
		spec string
		code int
	}{
		{"pogo", http.StatusCreated},
		{"pogo(maxplies=500)", http.StatusCreated},
		{"pogo(rep=0,maxplies=0)", http.StatusBadRequest},
		{"pogo(maxplies=501)", http.StatusBadRequest},
		{"pisola", http.StatusBadRequest}, // its default cap is 1000
		{"pisola(maxplies=300)", http.StatusCreated},
	} {
		code, _, body := post(t, clientFrom("127.0.0.1"), ts.url+"/api/games", play.CreateRequest{Spec: tt.spec, Seats: hotseat.Seats})
		if code != tt.code || code == http.StatusBadRequest && !strings.Contains(body, "at most 500 plies") {
			t.Errorf("create %s: %d %s; want %d", tt.spec, code, body, tt.code)
		}
	}
	var games struct{ Games []catalog.GameInfo }
	ts.call("GET", "/api/games", nil, http.StatusOK, &games)
	for _, g := range games.Games {
		for _, o := range g.Options {
			if o.Key == "maxplies" && (*o.Min != 1 || *o.Max != 500) {
				t.Errorf("%s maxplies offered from %d to %d; want 1 to 500", g.Name, *o.Min, *o.Max)
			}
		}
	}
}

// TestUpdates checks the delta protocol: a connection gets the full state
// once, then updates whose size does not grow with the game, from which
// it rebuilds the same state the server holds; a reconnection gets the full
// state again.
func TestUpdates(t *testing.T) {
	// The player moves as fast as the server answers; a queue long enough
	// for the whole game keeps a spectator that a loaded machine delays
	// from being closed as too slow, which is not what this test is about.
	ts := startServer(t, newDB(t), server.Config{SendQueue: 1024})
	cr := ts.create(play.CreateRequest{Spec: "pogo(rep=0)", Seats: hotseat.Seats})
	p := ts.dial("player", cr.ID, cr.Token)
	p.hello()
	// A spectator reading the raw messages.
	watcher, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(ts.url, "http")+"/ws/games/"+cr.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.CloseNow()
	watcher.SetReadLimit(1 << 22)
	sizes := map[int]int{} // ply: the size of the update that brought it
	var fullStates int
	var readErr error
	done := make(chan struct{})
	subscribed := make(chan struct{}) // the spectator has its full state
	go func() {
		defer close(done)
		for {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			_, data, err := watcher.Read(ctx)
			cancel()
			if err != nil {
				readErr = err
				return
			}
			s := string(data)
			switch {
			case strings.HasPrefix(s, `{"type":"state"`):
				if fullStates++; fullStates == 1 {
					close(subscribed)
				}
			case strings.HasPrefix(s, `{"type":"update"`):
				i := strings.Index(s, `"ply":`)
				var ply int
				for _, c := range s[i+6:] {
					if c < '0' || c > '9' {
						break
					}
					ply = ply*10 + int(c-'0')
				}
				sizes[ply] = len(data)
				var m struct{ State map[string]json.RawMessage }
				json.Unmarshal(data, &m)
				if _, ok := m.State["moves"]; ok {
					t.Errorf("update at ply %d carries the moves", ply)
				}
				if _, ok := m.State["positions"]; ok {
					t.Errorf("update at ply %d carries the positions", ply)
				}
			}
			if strings.Contains(s, `"status":"finished"`) {
				return
			}
		}
	}()
	// Moves played before the spectator is subscribed would reach it
	// only in its full state.
	select {
	case <-subscribed:
	case <-done:
		t.Fatalf("the spectator got no state: %v", readErr)
	}
	// Shuffle the same pieces back and forth: the position stays small
	// while the history grows.
	moves := []string{"1a1-a2", "1c3-c2", "1a2-a1", "1c2-c3"}
	for ply := 0; ply < 300; ply++ {
		p.move(moves[ply%4], ply)
		p.waitPly(ply + 1)
	}
	if p.full != 1 || p.updates < 300 {
		t.Errorf("the player got %d full states and %d updates; want 1 and at least 300", p.full, p.updates)
	}
	var got stateOf
	ts.call("GET", "/api/games/"+cr.ID, nil, http.StatusOK, &got)
	if strings.Join(got.Moves, " ") != strings.Join(p.last.Moves, " ") || strings.Join(got.Positions, " ") != strings.Join(p.last.Positions, " ") {
		t.Errorf("the state rebuilt from updates differs from the server's")
	}
	p.send(map[string]any{"type": "resign"})
	<-done
	if readErr != nil {
		t.Errorf("the spectator's connection ended before the game: %v", readErr)
	}
	if fullStates != 1 {
		t.Errorf("the spectator got %d full states; want 1", fullStates)
	}
	if sizes[4] == 0 || sizes[300] == 0 || sizes[300] > sizes[4]+20 {
		t.Errorf("update sizes: %d bytes at ply 4, %d at ply 300; want about the same", sizes[4], sizes[300])
	}
	again := ts.dial("again", cr.ID, "")
	again.hello()
	if len(again.last.Moves) != 300 {
		t.Errorf("a reconnection got %d moves; want the full state of 300", len(again.last.Moves))
	}
}

// TestCompression checks that the websocket compresses what pays
// (docs/performance.md, "Messages"): a client that offers
// permessage-deflate gets it, and the full state of a long game, sent
// compressed, arrives whole.
func TestCompression(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{})
	cr := ts.create(play.CreateRequest{Spec: "pisola(size=8,maxplies=300)", Seats: hotseat.Seats})
	p := ts.dial("player", cr.ID, cr.Token)
	p.hello()
	st := p.waitPly(0)
	for ply := 0; ply < 80 && st.Status == "playing"; ply++ {
		p.move(st.Legal()[ply%len(st.Legal())], ply)
		st = p.waitPly(ply + 1)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.url, "http")+"/ws/games/"+cr.ID, &websocket.DialOptions{CompressionMode: websocket.CompressionNoContextTakeover})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 22)
	if ext := res.Header.Get("Sec-WebSocket-Extensions"); !strings.Contains(ext, "permessage-deflate") {
		t.Fatalf("extensions %q; want permessage-deflate", ext)
	}
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), `{"type":"state"`) {
			continue
		}
		var m struct{ State stateOf }
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if len(data) < httpx.CompressAbove || len(m.State.Moves) != st.Ply || m.State.Position != st.Position {
			t.Errorf("the full state: %d bytes, %d moves, position %q; want over %d bytes, %d moves, %q", len(data), len(m.State.Moves), m.State.Position, httpx.CompressAbove, st.Ply, st.Position)
		}
		return
	}
}

// TestJoinSendsNoStaleUpdate checks that a connection joining a game
// sends the players who hold its state nothing again: the update of the
// last move went to them once.
func TestJoinSendsNoStaleUpdate(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{})
	cr := ts.create(play.CreateRequest{Spec: "pogo", Seats: hotseat.Seats})
	p := ts.dial("player", cr.ID, cr.Token)
	p.hello()
	p.move("1a1-a2", 0)
	p.waitPly(1)
	for i := range 3 {
		w := ts.dial(fmt.Sprintf("spectator %d", i), cr.ID, "")
		w.hello()
	}
	p.move("1c3-c2", 1)
	p.waitPly(2)
	if p.updates != 2 {
		t.Errorf("the player got %d updates for two moves while three spectators came; want 2", p.updates)
	}
}
