package pisola

import (
	"fmt"

	"stax/game"
)

// Info describes Pisola and its options.
var Info = &game.Info{
	Name:    "pisola",
	Title:   "Pisola",
	Summary: "Place pieces two at a time, then jump stacks exactly their height; blocked stacks lock; top the most squares.",
	Options: []game.Option{
		{Key: "size", Label: "Board size", Kind: game.Int, Default: "6", Min: 6, Max: 8, Choices: []string{"6", "8"},
			Doc: "The side of the board: 6 for 6x6 with 18 pieces each, 8 for 8x8 with 32."},
		{Key: "roofs", Label: "Roofs variant", Kind: game.Bool, Default: "false",
			Doc: "Play the roofs variant: locked stacks get a roof of their top colour and the first to place all their roofs wins."},
		{Key: "end", Label: "End of the game", Kind: game.Choice, Default: "any", Choices: []string{"any", "tomove"},
			Doc: "When the moving phase ends: any, as soon as either player cannot move (checked after every move); tomove, only when the player to move cannot move."},
		game.RepetitionOption("The number of occurrences of a position that ends the game, scored as at the end (0: never)."),
		game.PlyCapOption(1000, "The number of plies after which the game ends, scored as at the end (0: no limit)."),
	},
	New: func(opts game.Options) (game.Game, error) {
		g, err := newGame(opts)
		if err != nil {
			return nil, err
		}
		return g, nil
	},
}

// The players.
const (
	White = 0
	Black = 1
)

// Game is a Pisola variant.
type Game struct {
	opts     game.Options
	geo      *geometry
	roofs    bool
	endAny   bool // end=any: the game ends when either player cannot move
	numRoofs int  // roofs per player in the roofs variant: 6, or 8 on 8x8
	rep      int
	maxPlies int
}

// New returns the Pisola variant with the given options; missing options
// take their defaults. It returns an error for an unknown option or a bad
// value.
func New(opts game.Options) (*Game, error) {
	full, err := Info.Resolve(opts)
	if err != nil {
		return nil, err
	}
	return newGame(full)
}

func newGame(opts game.Options) (*Game, error) {
	g := &Game{opts: opts, roofs: opts.Bool("roofs"), endAny: opts.String("end") == "any", rep: opts.Int("rep"), maxPlies: opts.Int("maxplies")}
	switch opts.Int("size") {
	case 6:
		g.geo = &geo6
	case 8:
		g.geo = &geo8
	default:
		return nil, fmt.Errorf("option size=%q: want one of 6, 8", opts.String("size"))
	}
	g.numRoofs = g.geo.n
	return g, nil
}

// Info returns Pisola's static description.
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

// MaxMoves returns an upper bound on the number of legal moves: the
// placings of the empty board (570 on 6x6, 1904 on 8x8) outnumber the at
// most four destinations of each of a player's stacks.
func (g *Game) MaxMoves() int {
	n := g.geo.n
	return n*n*(n*n-1)/2 - 2*n*(n-1)
}

// Repetition returns the rep option.
func (g *Game) Repetition() int { return g.rep }

// MaxPlies returns the maxplies option.
func (g *Game) MaxPlies() int { return g.maxPlies }

// Size returns the side of the board, 6 or 8.
func (g *Game) Size() int { return g.geo.n }

// Roofs reports whether the variant is the roofs variant.
func (g *Game) Roofs() bool { return g.roofs }

// EndAny reports whether the moving phase ends as soon as either player
// cannot move (end=any), rather than only when the player to move cannot
// (end=tomove).
func (g *Game) EndAny() bool { return g.endAny }

// NumRoofs returns the number of roofs each player has in the roofs
// variant: 6 on 6x6, 8 on 8x8.
func (g *Game) NumRoofs() int { return g.numRoofs }

// Pieces returns the number of pieces each player has: 18 on 6x6, 32 on
// 8x8.
func (g *Game) Pieces() int { return g.geo.nn / 2 }

// Start returns the starting position: the empty board, White to place.
func (g *Game) Start() game.State { return g.NewStart() }

// NewStart returns the starting position as a *State.
func (g *Game) NewStart() *State {
	s := &State{g: g}
	s.hash = s.computeHash()
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
