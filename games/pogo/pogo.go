package pogo

import (
	"stax/game"
)

// Info describes Pogo and its options.
var Info = &game.Info{
	Name:    "pogo",
	Title:   "Pogo",
	Summary: "3x3 stacking game: move 1 to 3 pieces exactly that many steps; top every stack to win.",
	Options: []game.Option{
		{Key: "u", Label: "U move", Kind: game.Bool, Default: "true",
			Doc: "Allow three pieces to move in a U shape to an adjacent square."},
		{Key: "first", Label: "First to move", Kind: game.Choice, Default: "white", Choices: []string{"white", "black"},
			Doc: "Which colour moves first from the starting position."},
		game.RepetitionOption("The number of occurrences of a position that ends the game as a draw (0: never)."),
		game.PlyCapOption(400, "The number of plies after which the game ends as a draw (0: no limit)."),
	},
	New: func(opts game.Options) (game.Game, error) { return newGame(opts), nil },
}

// The players.
const (
	White = 0
	Black = 1
)

// Game is a Pogo variant.
type Game struct {
	opts     game.Options
	u        bool
	first    int
	rep      int
	maxPlies int
	moves    *MoveTable
}

// New returns the Pogo variant with the given options; missing options take
// their defaults. It returns an error for an unknown option or a bad value.
func New(opts game.Options) (*Game, error) {
	full, err := Info.Resolve(opts)
	if err != nil {
		return nil, err
	}
	return newGame(full), nil
}

func newGame(opts game.Options) *Game {
	g := &Game{opts: opts, u: opts.Bool("u"), rep: opts.Int("rep"), maxPlies: opts.Int("maxplies")}
	if opts.String("first") == "black" {
		g.first = Black
	}
	g.moves = MoveTableOf(g.u)
	return g
}

// Info returns Pogo's static description.
func (g *Game) Info() *game.Info { return Info }

// Options returns the variant's options.
func (g *Game) Options() game.Options { return g.opts }

// Players returns 2.
func (g *Game) Players() int { return 2 }

// PlayerName returns "White" or "Black".
func (g *Game) PlayerName(p int) string {
	if p == Black {
		return "Black"
	}
	return "White"
}

// MaxMoves returns an upper bound on the number of legal moves.
func (g *Game) MaxMoves() int { return maxMoves }

// Repetition returns the rep option.
func (g *Game) Repetition() int { return g.rep }

// MaxPlies returns the maxplies option.
func (g *Game) MaxPlies() int { return g.maxPlies }

// U reports whether the U-shaped three-piece move is allowed.
func (g *Game) U() bool { return g.u }

// Start returns the starting position.
func (g *Game) Start() game.State { return g.NewStart() }

// NewStart returns the starting position as a *State.
func (g *Game) NewStart() *State {
	s := &State{g: g, toMove: g.first}
	for sq := 0; sq < 3; sq++ {
		s.height[sq] = 2
		s.height[sq+6] = 2
		s.bits[sq+6] = 3
	}
	s.init()
	return s
}

// ParseState parses a position string.
func (g *Game) ParseState(str string) (game.State, error) {
	s, err := g.Parse(str)
	if err != nil {
		return nil, err
	}
	return s, nil
}
