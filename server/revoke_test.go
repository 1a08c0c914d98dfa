package server_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/coder/websocket"

	"stax/server/account"
)

// closedSoon reports whether the server closes c within d (the messages
// it sends before are read and dropped).
func closedSoon(c *websocket.Conn, d time.Duration) bool {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	for {
		if _, _, err := c.Read(ctx); err != nil {
			return ctx.Err() == nil
		}
	}
}

// TestSignOutClosesWebsockets: the websockets a session opened close when
// it ends, on every instance (one that opens while it ends is served as a
// guest's): signing out on one instance closes the game
// and lobby websockets of that browser on the other; a password change
// closes the other browsers' and keeps the changing one's; deleting the
// account closes the rest.
func TestSignOutClosesWebsockets(t *testing.T) {
	clock := newFakeClock()
	db := newDB(t)
	ts1 := startAccounts(t, db, clock)
	ts2 := startAccounts(t, db, clock)
	ann, bob := ts1.annAndBob()
	id := playersGame(t, ann, bob, map[string]any{"spec": "pogo"})

	// Ann's browser follows her game and the lobby on the second
	// instance, then signs out on the first.
	onTwo := ann.on(ts2)
	game, lobby := onTwo.dial("/ws/games/"+id), onTwo.dial("/ws/lobby")
	if seats := (&wsClient{t: t, name: "ann", c: game}).hello(); len(seats) != 1 {
		t.Fatalf("ann's seats %v; want hers, by her session", seats)
	}
	readLobbyRaw(t, lobby) // the list: the connection is set up
	ann.call("POST", "/api/logout", struct{}{}, http.StatusOK, nil)
	if !closedSoon(game, 10*time.Second) || !closedSoon(lobby, 10*time.Second) {
		t.Fatal("the websockets of a signed-out session stayed open on the other instance")
	}

	// Two browsers; ann changes her password on the phone: the laptop's
	// websocket closes, the phone's stays.
	laptop, phone := ts1.player("ann"), ts2.player("ann")
	laptop.call("POST", "/api/login", account.Credentials{Name: "ann", Password: "correct horse"}, http.StatusOK, nil)
	phone.call("POST", "/api/login", account.Credentials{Name: "ann", Password: "correct horse"}, http.StatusOK, nil)
	lg, pg := laptop.dial("/ws/games/"+id), phone.dial("/ws/games/"+id)
	(&wsClient{t: t, name: "laptop", c: lg}).hello()
	(&wsClient{t: t, name: "phone", c: pg}).hello()
	phone.call("POST", "/api/password", account.PasswordChange{Old: "correct horse", New: "staple battery horse"}, http.StatusOK, nil)
	if !closedSoon(lg, 10*time.Second) {
		t.Fatal("the laptop's websocket stayed open after a password change on the phone")
	}
	if closedSoon(pg, time.Second) {
		t.Fatal("the phone's own websocket closed with its password change")
	}
	// The phone deletes the account: its websocket closes too.
	pg2 := phone.dial("/ws/games/" + id)
	(&wsClient{t: t, name: "phone", c: pg2}).hello()
	phone.call("DELETE", "/api/me", account.PasswordConfirm{Password: "staple battery horse"}, http.StatusOK, nil)
	if !closedSoon(pg2, 10*time.Second) {
		t.Fatal("a deleted account's websocket stayed open")
	}
}
