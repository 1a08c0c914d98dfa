package server_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/coder/websocket"

	"stax/server/account"
)

// closedSoon reports whether the server closes c within a few seconds
// (the messages it sends before are read and dropped).
func closedSoon(c *websocket.Conn) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	for {
		if _, _, err := c.Read(ctx); err != nil {
			return ctx.Err() == nil
		}
	}
}

// TestSignOutClosesWebsockets: the websockets a session opened close when
// it ends, on every instance: signing out on one instance closes the game
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
	ann.call("POST", "/api/logout", struct{}{}, http.StatusOK, nil)
	if !closedSoon(game) || !closedSoon(lobby) {
		t.Fatal("the websockets of a signed-out session stayed open on the other instance")
	}

	// Two browsers; ann changes her password on the phone: the laptop's
	// websocket closes, the phone's stays.
	laptop, phone := ts1.player("ann"), ts2.player("ann")
	laptop.call("POST", "/api/login", account.Credentials{Name: "ann", Password: "correct horse"}, http.StatusOK, nil)
	phone.call("POST", "/api/login", account.Credentials{Name: "ann", Password: "correct horse"}, http.StatusOK, nil)
	lg, pg := laptop.dial("/ws/games/"+id), phone.dial("/ws/games/"+id)
	phone.call("POST", "/api/password", account.PasswordChange{Old: "correct horse", New: "staple battery horse"}, http.StatusOK, nil)
	if !closedSoon(lg) {
		t.Fatal("the laptop's websocket stayed open after a password change on the phone")
	}
	if closedSoon(pg) {
		t.Fatal("the phone's own websocket closed with its password change")
	}
	// The phone deletes the account: its websocket closes too.
	pg2 := phone.dial("/ws/games/" + id)
	phone.call("DELETE", "/api/me", account.PasswordConfirm{Password: "staple battery horse"}, http.StatusOK, nil)
	if !closedSoon(pg2) {
		t.Fatal("a deleted account's websocket stayed open")
	}
}
