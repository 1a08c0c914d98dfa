package server_test

import (
	"net/http"
	"testing"
	"time"

	"stax/server"
	"stax/server/play"
)

// TestFinishedGameAnswers checks that a game ended by a resignation is
// served at once, to its players and to anyone asking for it, and from
// the store once swept from memory.
func TestFinishedGameAnswers(t *testing.T) {
	for _, cfg := range []server.Config{{}, {SweepEvery: 5 * time.Millisecond, KeepFinished: time.Millisecond, KeepIdle: time.Millisecond}} {
		finishedGameAnswers(t, cfg)
	}
}

func finishedGameAnswers(t *testing.T, cfg server.Config) {
	ts := startServer(t, newDB(t), cfg)
	resp := ts.create(play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "human"}}})
	c := ts.dial("all", resp.ID, resp.Token)
	c.hello()
	c.move(c.last.Legal()[0], 0)
	c.waitPly(1)
	c.send(map[string]any{"type": "resign"})
	c.waitState("the resignation", func(s *stateOf) bool { return s.Status == "finished" })
	var st stateOf
	ts.call("GET", "/api/games/"+resp.ID, nil, http.StatusOK, &st)
	if st.Status != "finished" {
		t.Errorf("after the resignation: %s; want finished", st.Status)
	}
	if cfg.SweepEvery != 0 {
		// Swept once its player left: the finished game has left
		// memory, and is read back from the store.
		c.c.CloseNow()
		waitFor(t, "the finished game to leave memory", func() bool { games, _ := ts.srv.Live(); return games == 0 })
	}
	ts.call("GET", "/api/games/"+resp.ID, nil, http.StatusOK, &st)
	ts.call("GET", "/api/games/"+resp.ID+"/record", nil, http.StatusOK, nil)
}
