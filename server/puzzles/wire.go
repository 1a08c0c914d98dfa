package puzzles

import (
	"time"

	"stax/search"
	"stax/server/view"
)

// Puzzle answers GET /api/puzzles/next, /api/puzzles/daily,
// /api/puzzles/streak and /api/puzzles/{id}: a puzzle without its
// solution, with what a page needs to draw it.
type Puzzle struct {
	ID string `json:"id"`
	// Spec is the game's spec and Game its name, e.g. "diam(drop=any)"
	// and "diam".
	Spec     string `json:"spec"`
	Game     string `json:"game"`
	Title    string `json:"title"`
	Position string `json:"position"`
	// ToMove is the side to move, the solver; PlayerNames names the
	// game's players seat by seat.
	ToMove      int      `json:"toMove"`
	PlayerNames []string `json:"playerNames"`
	// Themes are the puzzle's themes, the main one first (docs/puzzles.md).
	Themes []string `json:"themes"`
	// Moves is the number of the solver's moves in the solution.
	Moves int `json:"moves"`
	// Fastest is true when the puzzle claims only that its solution wins
	// fastest (a forced diam): another move may win too, more slowly.
	Fastest bool `json:"fastest,omitempty"`
	// Rating is the puzzle's rating now and Plays the rated attempts made
	// at it.
	Rating float64    `json:"rating"`
	Plays  int        `json:"plays"`
	View   *view.View `json:"view,omitempty"`
	// Daily is the day (YYYY-MM-DD, UTC) of the daily puzzle; Step the
	// puzzle's place in a streak, from 0.
	Daily string `json:"daily,omitempty"`
	Step  *int   `json:"step,omitempty"`
	// Player is the signed-in player's puzzle rating (absent for a
	// guest), and Attempted says whether they have attempted this puzzle
	// before: only a first attempt is rated.
	Player    *PlayerRating `json:"player,omitempty"`
	Attempted bool          `json:"attempted,omitempty"`
}

// PlayerRating is a player's puzzle rating.
type PlayerRating struct {
	Rating     float64 `json:"rating"`
	Deviation  float64 `json:"deviation"`
	Volatility float64 `json:"volatility"`
	// Attempts counts the rated attempts.
	Attempts int `json:"attempts"`
	// Provisional is true while the deviation is high (a new player).
	Provisional bool `json:"provisional"`
}

// MoveRequest is the body of POST /api/puzzles/{id}/move: the line
// played from the puzzle's position, the player's moves and the replies
// the server gave, ending with the player's new move.
type MoveRequest struct {
	Moves []string `json:"moves"`
	// Mode is empty for an attempt, "streak" for a puzzle of a streak
	// and "replay" for the solution played through once shown: a
	// streak's and a replay's moves are neither rated nor recorded.
	Mode string `json:"mode,omitempty"`
}

// The results of a move (MoveResult.Result).
const (
	// Right is a right move with more to find: Reply is the opponent's
	// answer.
	Right = "right"
	// Solved is the last move of the solution.
	Solved = "solved"
	// Wrong is any other move: the attempt has failed.
	Wrong = "wrong"
)

// MoveResult answers POST /api/puzzles/{id}/move.
type MoveResult struct {
	// Result is "right", "solved" or "wrong".
	Result string `json:"result"`
	// Move is the player's move as the game writes it; Position and View
	// are the position after it.
	Move     string     `json:"move"`
	Position string     `json:"position"`
	View     *view.View `json:"view,omitempty"`
	// Reply is the opponent's answer to a right move, with the position
	// after it.
	Reply         string     `json:"reply,omitempty"`
	ReplyPosition string     `json:"replyPosition,omitempty"`
	ReplyView     *view.View `json:"replyView,omitempty"`
	// Solution is the whole solution, once the puzzle is solved or
	// failed.
	Solution []string `json:"solution,omitempty"`
	// Refutation says why a wrong move is wrong, when the server's
	// analyst could tell.
	Refutation *Refutation `json:"refutation,omitempty"`
	// Rating is the change of the ratings when the attempt was rated.
	Rating *RatingChange `json:"rating,omitempty"`
}

// Refutation is the opponent's best answer to a wrong move.
type Refutation struct {
	// Line is the best line after the wrong move, the opponent's move
	// first.
	Line []string `json:"line"`
	// Score is the position's value for the opponent: "win 5" (the
	// opponent wins in 5 plies), "draw", "loss 7" (the wrong move still
	// wins, more slowly) or an evaluation.
	Score search.Score `json:"score"`
	// Exact is true when the score is proven (Pogo's solved table, a
	// solver, a search to the end).
	Exact bool `json:"exact"`
	// StillWins is true when the wrong move wins too, though not as fast
	// as the solution (Diam's puzzles ask for the fastest diam).
	StillWins bool `json:"stillWins,omitempty"`
}

// Glicko is a Glicko-2 rating in a RatingChange.
type Glicko struct {
	Rating     float64 `json:"rating"`
	Deviation  float64 `json:"deviation"`
	Volatility float64 `json:"volatility"`
}

// RatingChange is what a rated attempt changed: the player's and the
// puzzle's ratings before and after it, by rating.Update with the score
// of the attempt (1 solved, 0 failed) and τ = rating.DefaultTau.
type RatingChange struct {
	Solved       bool   `json:"solved"`
	PlayerBefore Glicko `json:"playerBefore"`
	PlayerAfter  Glicko `json:"playerAfter"`
	PuzzleBefore Glicko `json:"puzzleBefore"`
	PuzzleAfter  Glicko `json:"puzzleAfter"`
}

// HintRequest is the body of POST /api/puzzles/{id}/hint: the line played
// so far (the player's moves and the replies), the player to move.
type HintRequest struct {
	Moves []string `json:"moves"`
	// Mode is as in MoveRequest.
	Mode string `json:"mode,omitempty"`
}

// Hint answers POST /api/puzzles/{id}/hint: the cells the next move of
// the solution starts from (or, for a placing, the cells it fills). A
// hint fails a rated attempt: Rating says how.
type Hint struct {
	Cells  []string      `json:"cells"`
	Rating *RatingChange `json:"rating,omitempty"`
}

// Attempt is one attempt in GET /api/puzzles/me.
type Attempt struct {
	Puzzle string    `json:"puzzle"`
	Spec   string    `json:"spec"`
	Themes []string  `json:"themes"`
	At     time.Time `json:"at"`
	Solved bool      `json:"solved"`
	Rated  bool      `json:"rated"`
	// PlayerBefore and PlayerAfter are the player's puzzle rating before
	// and after a rated attempt.
	PlayerBefore float64 `json:"playerBefore,omitempty"`
	PlayerAfter  float64 `json:"playerAfter,omitempty"`
}

// History answers GET /api/puzzles/me: the signed-in player's puzzle
// rating and latest attempts, latest first.
type History struct {
	Rating   PlayerRating `json:"rating"`
	Attempts []Attempt    `json:"attempts"`
}

// Themes answers GET /api/puzzles/themes: the games that have puzzles.
type Themes struct {
	Games []GameThemes `json:"games"`
}

// GameThemes is a game's puzzles in Themes: its name and title, how many
// puzzles it has, and its themes with how many puzzles each.
type GameThemes struct {
	Game    string       `json:"game"`
	Title   string       `json:"title"`
	Puzzles int          `json:"puzzles"`
	Themes  []ThemeCount `json:"themes"`
}

// ThemeCount is a theme and its number of puzzles.
type ThemeCount struct {
	Theme   string `json:"theme"`
	Puzzles int    `json:"puzzles"`
}
