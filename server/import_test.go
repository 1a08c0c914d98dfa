package server_test

import (
	"net/http"
	"testing"

	"stax/games"
	"stax/server/archive"
	"stax/server/view"
)

// TestImportOfflineGame: a game played offline against the computer and
// finished, kept in the player's account once online, is served by live
// play as it was played (the archive's own tests check what is refused).
func TestImportOfflineGame(t *testing.T) {
	ts := startAccounts(t, newDB(t), newFakeClock())
	ann, _ := ts.annAndBob()
	spec := "pogo(maxplies=10)"
	g, err := games.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	st := g.Start()
	var moves []string
	for !st.Terminal() && len(moves) < 10 {
		m := st.Legal(nil)[0]
		moves = append(moves, st.FormatMove(m))
		st.Apply(m)
	}
	req := archive.ImportRequest{Spec: spec, Moves: moves, Seat: 0, Level: "random"}
	var got archive.ImportResponse
	ann.call("POST", "/api/games/import", req, http.StatusCreated, &got)
	var mine struct{ Games []view.Summary }
	ann.call("GET", "/api/me/games", nil, http.StatusOK, &mine)
	if len(mine.Games) != 1 || mine.Games[0].ID != got.ID || mine.Games[0].Status != "finished" || mine.Games[0].Rated || mine.Games[0].Seats[1].Level != "random" {
		t.Fatalf("ann's games %+v; want the imported game, finished, unrated, against random", mine.Games)
	}
	var state stateOf
	ann.call("GET", "/api/games/"+got.ID, nil, http.StatusOK, &state)
	if state.Ply != len(moves) || state.Outcome == nil {
		t.Fatalf("imported game: ply %d outcome %+v; want %d moves and its end", state.Ply, state.Outcome, len(moves))
	}
}
