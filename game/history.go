package game

import "fmt"

// History is a game in play: a starting position, the moves played from it
// and the rules that depend on them. It ends the game on the third (or
// rep-th) occurrence of a position and at the ply cap, as docs/rules.md says, and
// records resignations and forfeits.
//
// A History is not safe for concurrent use.
type History struct {
	game    Game
	start   State
	cur     State
	moves   []Move
	states  []State  // states[i] is the position before moves[i]
	hashes  []uint64 // hashes[i] is the hash of the position before moves[i]; the last is the current one's
	seen    map[string]int
	outcome Outcome
}

// NewHistory starts a history from the given position (nil for the game's
// start).
func NewHistory(g Game, start State) *History {
	if start == nil {
		start = g.Start()
	}
	h := &History{game: g, start: start.Clone()}
	h.reset()
	return h
}

func (h *History) reset() {
	h.cur = h.start.Clone()
	h.moves = h.moves[:0]
	h.states = h.states[:0]
	h.hashes = append(h.hashes[:0], h.cur.Hash())
	h.seen = map[string]int{}
	h.seen[h.cur.String()]++
	h.outcome = h.cur.Outcome()
}

// Game returns the variant being played.
func (h *History) Game() Game { return h.game }

// Start returns a copy of the starting position.
func (h *History) Start() State { return h.start.Clone() }

// State returns the current position. The caller must not modify it; clone
// it first.
func (h *History) State() State { return h.cur }

// Moves returns the moves played so far. The caller must not modify it.
func (h *History) Moves() []Move { return h.moves }

// Hashes returns the hashes of the positions of the game so far, oldest
// first: the start's, then the position after each move, the current one's
// last. Players use them to see repetitions (search.PositionOf). The caller
// must not modify the slice, which holds until the next change.
func (h *History) Hashes() []uint64 { return h.hashes }

// Last returns the last move played and the position it was played in
// (which the caller must not change); ok is false before the first move.
func (h *History) Last() (before State, m Move, ok bool) {
	n := len(h.moves)
	if n == 0 {
		return nil, NoMove, false
	}
	return h.states[n-1], h.moves[n-1], true
}

// Ply returns the number of moves played.
func (h *History) Ply() int { return len(h.moves) }

// Notation returns the moves played, each in the notation of the position
// it was played in.
func (h *History) Notation() []string {
	out := make([]string, len(h.moves))
	for i, m := range h.moves {
		out[i] = h.states[i].FormatMove(m)
	}
	return out
}

// Over reports whether the game has ended, by the position, by repetition,
// by the ply cap, or by resignation or forfeit.
func (h *History) Over() bool { return h.outcome.Over() }

// Outcome returns the result: Reason is NotOver while the game goes on.
func (h *History) Outcome() Outcome { return h.outcome }

// Occurrences returns how many times the current position has occurred.
func (h *History) Occurrences() int { return h.seen[h.cur.String()] }

// Play parses a move in notation and plays it.
func (h *History) Play(s string) error {
	if h.Over() {
		return &MoveError{Input: s, Err: ErrGameOver}
	}
	m, err := h.cur.ParseMove(s)
	if err != nil {
		return err
	}
	h.apply(m)
	return nil
}

// PlayMove plays a move, checking that it is legal.
func (h *History) PlayMove(m Move) error {
	if h.Over() {
		return &MoveError{Input: fmt.Sprint(uint32(m)), Err: ErrGameOver}
	}
	for _, l := range h.cur.Legal(nil) {
		if l == m {
			h.apply(m)
			return nil
		}
	}
	return &MoveError{Input: fmt.Sprint(uint32(m)), Err: ErrIllegalMove}
}

func (h *History) apply(m Move) {
	h.states = append(h.states, h.cur.Clone())
	h.moves = append(h.moves, m)
	h.cur.Apply(m)
	h.hashes = append(h.hashes, h.cur.Hash())
	key := h.cur.String()
	h.seen[key]++
	h.outcome = h.judge(h.seen[key])
}

// judge decides the outcome after a move, given how often the new position
// has occurred.
func (h *History) judge(occurrences int) Outcome {
	if o := h.cur.Outcome(); o.Over() {
		return o
	}
	if r := h.game.Repetition(); r > 0 && occurrences >= r {
		return h.cur.Adjudicate(ByRepetition)
	}
	if c := h.game.MaxPlies(); c > 0 && len(h.moves) >= c {
		return h.cur.Adjudicate(ByPlyCap)
	}
	return Outcome{Players: h.game.Players()}
}

// Undo takes back the last move; it also takes back a resignation,
// forfeit, agreed draw or abort that ended the game. It reports whether there was anything to
// take back.
func (h *History) Undo() bool {
	if r := h.outcome.Reason; r == ByResignation || r == ByTime || r == ByForfeit || r == ByAgreement || r == Aborted {
		h.outcome = h.judge(h.seen[h.cur.String()])
		return true
	}
	n := len(h.moves)
	if n == 0 {
		return false
	}
	h.seen[h.cur.String()]--
	h.cur = h.states[n-1]
	h.states = h.states[:n-1]
	h.moves = h.moves[:n-1]
	h.hashes = h.hashes[:n]
	h.outcome = h.judge(h.seen[h.cur.String()])
	return true
}

// Resign ends the game with player p resigning (reason ByResignation) or
// forfeiting (ByTime or ByForfeit); detail says why in words.
func (h *History) Resign(p int, reason Reason, detail string) {
	if h.Over() {
		return
	}
	var same func(a, b int) bool
	if t, ok := h.game.(Teams); ok {
		same = t.SameTeam
	}
	h.outcome = Resigned(h.game, p, reason, detail, same)
}

// End ends the game with the given outcome, e.g. a draw agreed by the
// players.
func (h *History) End(o Outcome) {
	if !h.Over() {
		h.outcome = o
	}
}
