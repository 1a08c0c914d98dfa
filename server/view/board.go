// Package view is how the site shows games: the board views that the
// browser draws (the same game.Board the terminal draws from), outcomes
// and the summaries of stored games, shared by every domain that shows a
// game.
package view

import (
	"net/http"

	"stax/game"
	"stax/server/httpx"
	"stax/server/view/board"
)

// The board view of a position is package board's: the aliases keep this
// package's names, which every domain uses.
type (
	View      = board.View
	BoardView = board.BoardView
	CellView  = board.CellView
	PieceView = board.PieceView
	Reserve   = board.Reserve
	Count     = board.Count
	MoveView  = board.MoveView
	MoveGroup = board.MoveGroup
)

// Of builds the view of st, or nil for a game without a board view.
// last lists the cells of the move that led to st.
func Of(st game.State, over bool, last []string) *View { return board.Of(st, over, last) }

// LastCells returns the names of the cells move m of st touches.
func LastCells(st game.State, m game.Move) []string { return board.LastCells(st, m) }

// Handler answers GET /api/view?spec=S&position=P[&move=M]: the view of
// position P of variant S (its start when P is empty), or of the position
// that move M leads to from P, with M's cells as the last move. It serves
// replays and the diagrams of the rules.
func Handler(games game.Registry) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { serveView(w, r, games) }
}

func serveView(w http.ResponseWriter, r *http.Request, games game.Registry) {
	q := r.URL.Query()
	g, err := games.Load(q.Get("spec"))
	if err != nil {
		httpx.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	st := g.Start()
	if p := q.Get("position"); p != "" {
		if st, err = g.ParseState(p); err != nil {
			httpx.Error(w, http.StatusBadRequest, err.Error())
			return
		}
	}
	var last []string
	if text := q.Get("move"); text != "" {
		m, err := st.ParseMove(text)
		if err != nil {
			httpx.Error(w, http.StatusBadRequest, err.Error())
			return
		}
		last = LastCells(st, m)
		st.Apply(m)
	}
	v := Of(st, st.Terminal(), last)
	if v == nil {
		httpx.Error(w, http.StatusNotFound, g.Info().Title+" has no board view")
		return
	}
	httpx.WriteJSON(w, http.StatusOK, v)
}
