// Package testgame is tic-tac-toe written as a stax game: small enough to
// be solved exactly in a test, so that the packages that work on any game
// (search, the conformance kit) can test themselves without a real rules
// engine and without package ai.
//
// Squares are named a1 to c3 (file, rank) and numbered 0 to 8 (a1, b1, c1,
// a2, ..., c3); a move is the name of the empty square it fills. A position
// string lists the ranks from 3 down to 1, separated by slashes, with x, o
// or - for each square from file a to c, then a space and the side to move:
// "x-o/-x-/o-- x". The state implements game.Undoer.
package testgame

import (
	"errors"
	"fmt"
	"strings"

	"stax/game"
)

// Info describes tic-tac-toe and its option.
var Info = &game.Info{
	Name:    "tictactoe",
	Title:   "Tic-tac-toe",
	Summary: "3x3 noughts and crosses: three in a row wins. For tests.",
	Options: []game.Option{
		{Key: "first", Label: "First to move", Kind: game.Choice, Default: "x", Choices: []string{"x", "o"},
			Doc: "Which side moves first."},
	},
	New: func(opts game.Options) (game.Game, error) { return newGame(opts), nil },
}

// Registry lists tic-tac-toe alone, for tests that load games by spec.
var Registry = game.Registry{Info}

// The players.
const (
	X = 0
	O = 1
)

// Game is a tic-tac-toe variant.
type Game struct {
	opts  game.Options
	first int
}

// New returns the variant with the given options (defaults for the missing
// ones), or an error for an unknown option or a bad value.
func New(opts game.Options) (*Game, error) {
	full, err := Info.Resolve(opts)
	if err != nil {
		return nil, err
	}
	return newGame(full), nil
}

func newGame(opts game.Options) *Game {
	g := &Game{opts: opts}
	if opts.String("first") == "o" {
		g.first = O
	}
	return g
}

// Info returns tic-tac-toe's static description.
func (g *Game) Info() *game.Info { return Info }

// Options returns the variant's options.
func (g *Game) Options() game.Options { return g.opts }

// Players returns 2.
func (g *Game) Players() int { return 2 }

// PlayerName returns "X" or "O".
func (g *Game) PlayerName(p int) string { return "XO"[p : p+1] }

// MaxMoves returns 9.
func (g *Game) MaxMoves() int { return 9 }

// Repetition returns 0: no position repeats.
func (g *Game) Repetition() int { return 0 }

// MaxPlies returns 0: every game ends within 9 plies.
func (g *Game) MaxPlies() int { return 0 }

// Start returns the empty board.
func (g *Game) Start() game.State { return g.NewStart() }

// NewStart returns the empty board as a *State.
func (g *Game) NewStart() *State {
	s := &State{g: g, toMove: g.first}
	s.hash = s.computeHash()
	return s
}

// ParseState parses a position string.
func (g *Game) ParseState(str string) (game.State, error) {
	s, err := g.parse(str)
	if err != nil {
		return nil, &game.PositionError{Game: Info.Name, Input: str, Err: err}
	}
	return s, nil
}

func (g *Game) parse(str string) (*State, error) {
	board, side, ok := strings.Cut(str, " ")
	if !ok {
		return nil, errors.New("want the board, a space and the side to move (x or o)")
	}
	ranks := strings.Split(board, "/")
	if len(ranks) != 3 {
		return nil, fmt.Errorf("%d ranks; want 3 separated by /", len(ranks))
	}
	s := &State{g: g}
	count := [2]int{}
	for i, r := range ranks {
		if len(r) != 3 {
			return nil, fmt.Errorf("rank %d is %q; want 3 of x, o and -", 3-i, r)
		}
		for f := 0; f < 3; f++ {
			sq := 3*(2-i) + f
			switch r[f] {
			case 'x':
				s.cells[sq] = 1 + X
				count[X]++
			case 'o':
				s.cells[sq] = 1 + O
				count[O]++
			case '-':
			default:
				return nil, fmt.Errorf("rank %d is %q; want 3 of x, o and -", 3-i, r)
			}
		}
	}
	switch side {
	case "x":
		s.toMove = X
	case "o":
		s.toMove = O
	default:
		return nil, fmt.Errorf("side to move %q; want x or o", side)
	}
	// The side that moved first has as many marks as the other, or one
	// more; the side to move follows from the counts.
	second := 1 - g.first
	switch {
	case count[g.first] == count[second] && s.toMove == g.first:
	case count[g.first] == count[second]+1 && s.toMove == second:
	default:
		return nil, fmt.Errorf("%d x and %d o with %s to move cannot arise when %s moves first",
			count[X], count[O], side, g.PlayerName(g.first))
	}
	if s.line(X) && s.line(O) {
		return nil, errors.New("both sides have three in a row")
	}
	s.hash = s.computeHash()
	return s, nil
}

// State is a tic-tac-toe position.
type State struct {
	g      *Game
	cells  [9]int8 // 0 empty, 1+X, 1+O
	toMove int
	hash   uint64
	played [9]int8 // the squares filled by Apply, for Undo
	nplay  int8    // how many of played are in use
}

// lines lists the rows, columns and diagonals.
var lines = [8][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}

// line reports whether p has three in a row.
func (s *State) line(p int) bool {
	c := int8(1 + p)
	for _, l := range lines {
		if s.cells[l[0]] == c && s.cells[l[1]] == c && s.cells[l[2]] == c {
			return true
		}
	}
	return false
}

func (s *State) full() bool {
	for _, c := range s.cells {
		if c == 0 {
			return false
		}
	}
	return true
}

// keys holds the hash keys of each mark on each square and of O to move.
var keys, oToMove = makeKeys()

func makeKeys() (k [9][2]uint64, o uint64) {
	x := uint64(0x7e57_6a3e)
	next := func() uint64 { // splitmix64
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for sq := range k {
		k[sq] = [2]uint64{next(), next()}
	}
	return k, next()
}

func (s *State) computeHash() uint64 {
	var h uint64
	for sq, c := range s.cells {
		if c != 0 {
			h ^= keys[sq][c-1]
		}
	}
	if s.toMove == O {
		h ^= oToMove
	}
	return h
}

// Game returns the variant.
func (s *State) Game() game.Game { return s.g }

// ToMove returns the side to move.
func (s *State) ToMove() int { return s.toMove }

// Legal appends the empty squares, as moves, to dst.
func (s *State) Legal(dst []game.Move) []game.Move {
	if s.Terminal() {
		return dst
	}
	for sq, c := range s.cells {
		if c == 0 {
			dst = append(dst, game.Move(sq+1))
		}
	}
	return dst
}

// Apply fills the square of a legal move.
func (s *State) Apply(m game.Move) {
	sq := int(m) - 1
	s.cells[sq] = int8(1 + s.toMove)
	s.hash ^= keys[sq][s.toMove] ^ oToMove
	s.toMove = 1 - s.toMove
	s.played[s.nplay] = int8(sq)
	s.nplay++
}

// Undo takes back the last move applied.
func (s *State) Undo() {
	s.nplay--
	sq := int(s.played[s.nplay])
	s.toMove = 1 - s.toMove
	s.hash ^= keys[sq][s.toMove] ^ oToMove
	s.cells[sq] = 0
}

// Clone returns an independent copy.
func (s *State) Clone() game.State {
	c := *s
	return &c
}

// Terminal reports whether a side has three in a row or the board is full.
func (s *State) Terminal() bool { return s.line(X) || s.line(O) || s.full() }

// Outcome returns the result of a finished game.
func (s *State) Outcome() game.Outcome {
	o := game.Outcome{Players: 2}
	switch {
	case s.line(X) || s.line(O):
		w := X
		if s.line(O) {
			w = O
		}
		o.Results[w], o.Results[1-w] = game.Win, game.Loss
		o.Reason, o.Detail = game.ByRules, "three in a row"
	case s.full():
		o.Results[X], o.Results[O] = game.Draw, game.Draw
		o.Reason, o.Detail = game.ByRules, "board full"
	}
	return o
}

// Adjudicate returns a draw for the reason given.
func (s *State) Adjudicate(reason game.Reason) game.Outcome {
	return game.Outcome{Players: 2, Results: [game.MaxPlayers]game.Result{game.Draw, game.Draw}, Reason: reason}
}

// String returns the position string.
func (s *State) String() string {
	var b strings.Builder
	for r := 2; r >= 0; r-- {
		for f := 0; f < 3; f++ {
			b.WriteByte("-xo"[s.cells[3*r+f]])
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteByte(' ')
	b.WriteByte("xo"[s.toMove])
	return b.String()
}

// SquareName returns the name of square sq, e.g. "b2" for 4.
func SquareName(sq int) string { return string([]byte{byte('a' + sq%3), byte('1' + sq/3)}) }

// ParseMove parses a square name and checks that the move is legal.
func (s *State) ParseMove(str string) (game.Move, error) {
	bad := func(format string, args ...any) (game.Move, error) {
		return game.NoMove, &game.MoveError{Input: str, Err: fmt.Errorf(format, args...)}
	}
	if len(str) != 2 || str[0] < 'a' || str[0] > 'c' || str[1] < '1' || str[1] > '3' {
		return bad("want a square from a1 to c3")
	}
	sq := int(str[0]-'a') + 3*int(str[1]-'1')
	switch {
	case s.Terminal():
		return bad("the game is over")
	case s.cells[sq] != 0:
		return bad("%s is taken", str)
	}
	return game.Move(sq + 1), nil
}

// FormatMove returns the name of the square a move fills.
func (s *State) FormatMove(m game.Move) string { return SquareName(int(m) - 1) }

// Hash returns the position's hash.
func (s *State) Hash() uint64 { return s.hash }
