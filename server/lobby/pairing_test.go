package lobby_test

import (
	"net/http"
	"testing"
	"time"

	"stax/server/httpx"
	"stax/server/lobby"
)

// TestQuickPairing pairs two players in every preset: the first waits, the
// second is paired with her at once in a rated game with the preset's
// clock, after which the first no longer waits; requests the lobby cannot
// pair are refused.
func TestQuickPairing(t *testing.T) {
	ts, starter, _ := newLobby(t)
	var info lobby.PairingInfo
	call(t, ts, "", "GET", "/api/pairing", nil, http.StatusOK, &info)
	if len(info.Presets) < 8 {
		t.Fatalf("presets %+v; want the eight of the lobby", info.Presets)
	}
	for _, p := range info.Presets {
		t.Run(p.Name, func(t *testing.T) {
			req := lobby.PairRequest{Spec: "pogo", Preset: p.Name}
			var wait lobby.PairResponse
			call(t, ts, "ann", "POST", "/api/pairing", req, http.StatusAccepted, &wait)
			if !wait.Waiting || wait.Pool != "pogo "+p.Name || wait.Since.IsZero() || wait.Reach < 100 {
				t.Fatalf("ann's answer %+v; want her wait in pogo %s", wait, p.Name)
			}
			renew := req
			renew.Renew = true
			call(t, ts, "ann", "POST", "/api/pairing", renew, http.StatusAccepted, &wait)
			n := len(starter.started)
			var got lobby.PairResponse
			call(t, ts, "bob", "POST", "/api/pairing", req, http.StatusCreated, &got)
			if !httpx.ValidID(got.Game) || len(starter.started) != n+1 {
				t.Fatalf("bob's answer %+v; want a game started", got)
			}
			g := starter.started[n]
			if !g.rated || g.spec != "pogo" || len(g.players) != 2 || g.clock == nil {
				t.Fatalf("started %+v; want a rated pogo game between ann and bob with a clock", g)
			}
			if p.Clock != nil && (g.clock.Initial != time.Duration(p.Clock.Initial)*time.Second || g.clock.Increment != time.Duration(p.Clock.Increment)*time.Second) ||
				p.Days != 0 && g.clock.Days != p.Days {
				t.Fatalf("started with clock %+v; want preset %+v", g.clock, p)
			}
			call(t, ts, "ann", "POST", "/api/pairing", renew, http.StatusNotFound, nil)
		})
	}
	refused := []struct {
		name, user string
		req        lobby.PairRequest
		want       int
	}{
		{"guest", "", lobby.PairRequest{Spec: "pogo", Preset: "3+2"}, http.StatusUnauthorized},
		{"unknown preset", "ann", lobby.PairRequest{Spec: "pogo", Preset: "2+1"}, http.StatusBadRequest},
		{"unrated variant", "ann", lobby.PairRequest{Spec: "diam(players=4)", Preset: "3+2"}, http.StatusBadRequest},
		{"unknown game", "ann", lobby.PairRequest{Spec: "chess", Preset: "3+2"}, http.StatusBadRequest},
		{"renewing no wait", "bob", lobby.PairRequest{Spec: "pogo", Preset: "3+2", Renew: true}, http.StatusNotFound},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			call(t, ts, c.user, "POST", "/api/pairing", c.req, c.want, nil)
		})
	}
	// Leaving stops a wait.
	call(t, ts, "ann", "POST", "/api/pairing", lobby.PairRequest{Spec: "pisola", Preset: "5+3"}, http.StatusAccepted, nil)
	call(t, ts, "ann", "DELETE", "/api/pairing", nil, http.StatusOK, nil)
	call(t, ts, "ann", "POST", "/api/pairing", lobby.PairRequest{Spec: "pisola", Preset: "5+3", Renew: true}, http.StatusNotFound, nil)
}
