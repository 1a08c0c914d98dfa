package board

import "stax/search"

// Verdict is a move with its value for the player making it, as the
// analysis board's analyses and reviews send it, from the server or from
// the browser's engine.
type Verdict struct {
	Move string `json:"move"`
	// Score is the text form of search.Score: "win N", "loss N", "draw"
	// or an evaluation.
	Score search.Score `json:"score"`
	// Source is "table", "solver", "end", "proven by search" or
	// "estimate".
	Source search.Source `json:"source"`
	Exact  bool          `json:"exact"`
	Depth  int           `json:"depth,omitempty"`
}

// Analysis is the analysis of a position: every legal move with its
// verdict, best first. The server's POST /api/analyze and /ws/analyze send
// it, and so does the browser's engine (Local).
type Analysis struct {
	Type     string `json:"type,omitempty"`
	Spec     string `json:"spec"`
	Position string `json:"position"`
	ToMove   int    `json:"toMove"`
	// Exact is true when every verdict is exact (Pogo from its table).
	Exact bool `json:"exact"`
	// Depth is the depth of the search (0 for the table).
	Depth int       `json:"depth"`
	Moves []Verdict `json:"moves"`
	// Line is the best line, in notation from the position.
	Line []string `json:"line"`
	// Final is true when no deeper analysis follows.
	Final     bool  `json:"final"`
	ElapsedMS int64 `json:"elapsedMs"`
	// Over describes the outcome when the position is finished (and Moves
	// is empty).
	Over string `json:"over,omitempty"`
	// POST /api/analyze adds what a page needs to draw the position: the
	// board view with its legal moves, the players' names and the game's
	// title.
	View        *View    `json:"view,omitempty"`
	PlayerNames []string `json:"playerNames,omitempty"`
	Title       string   `json:"title,omitempty"`
	// Local says that the browser's engine made the analysis, not the
	// server.
	Local bool `json:"local,omitempty"`
}
