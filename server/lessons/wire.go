package lessons

import "stax/server/view"

// Index answers GET /api/lessons: the lessons, game by game in the order
// of the site's games, each game's basics first.
type Index struct {
	Lessons []Summary `json:"lessons"`
}

// Summary is a lesson in Index: its ID (the catalogues' words are under
// lessons.<id>.), its game's name and title, the variant it teaches and
// its number of steps.
type Summary struct {
	ID    string `json:"id"`
	Game  string `json:"game"`
	Title string `json:"title"`
	Spec  string `json:"spec"`
	Steps int    `json:"steps"`
}

// LessonView answers GET /api/lessons/{id}: the lesson's steps with what a
// page needs to draw them. Next is the game's next lesson, empty after its
// last; Play is the spec of the first game the page offers against the
// beginner level once the lesson is done.
type LessonView struct {
	Summary
	Next  string     `json:"next,omitempty"`
	Play  string     `json:"play"`
	Items []StepView `json:"items"`
}

// StepView is one step of a LessonView: its ID, variant, position and
// board view, the side to move and the players' names, and Hint, the
// cells a move meeting the goal starts from (or, for a placing, fills).
type StepView struct {
	ID          string     `json:"id"`
	Spec        string     `json:"spec"`
	Position    string     `json:"position"`
	ToMove      int        `json:"toMove"`
	PlayerNames []string   `json:"playerNames"`
	View        *view.View `json:"view,omitempty"`
	Hint        []string   `json:"hint"`
}

// MoveRequest is the body of POST /api/lessons/{id}/move: the step (from
// 0) and the learner's move from its position.
type MoveRequest struct {
	Step int    `json:"step"`
	Move string `json:"move"`
}

// The results of a move (MoveResult.Result).
const (
	// Done: the move meets the step's goal.
	Done = "done"
	// Missed: the move is legal but misses the goal; Misses says how.
	Missed = "missed"
)

// MoveResult answers POST /api/lessons/{id}/move: "done" or "missed", the
// move as the game writes it, the position after it with its board view
// (and its outcome when the move ended the game), and the conditions of
// the goal it missed. A move the rules do not allow is answered 400 with
// the code illegal_move.
type MoveResult struct {
	Result   string        `json:"result"`
	Move     string        `json:"move"`
	Position string        `json:"position"`
	View     *view.View    `json:"view,omitempty"`
	Outcome  *view.Outcome `json:"outcome,omitempty"`
	Misses   []Miss        `json:"misses"`
}
