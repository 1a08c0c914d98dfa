package diam

import (
	"errors"
	"fmt"

	"stax/game"
)

// Info describes Diam and its options.
var Info = &game.Info{
	Name:    "diam",
	Title:   "Diam",
	Summary: "Ring of 8 cells: place and move stacked pieces; two of one colour at one level on opposite cells, above level 1, win.",
	Options: []game.Option{
		{Key: "players", Label: "Players", Kind: game.Int, Default: "2", Min: 2, Max: 4, Choices: []string{"2", "4"},
			Doc: "The number of players: 2 (two colours each) or 4 (one colour each)."},
		{Key: "teams", Label: "Teams", Kind: game.Bool, Default: "false",
			Doc: "With 4 players, play red and yellow against green and blue, partners moving each other's pieces."},
		{Key: "drop", Label: "Place on", Kind: game.Choice, Default: "empty", Choices: []string{"empty", "any"},
			Doc: "Where a piece may be placed: only on an empty cell, or on any cell holding fewer than 4 pieces."},
		game.RepetitionOption("The number of occurrences of a position that ends the game as a draw (0: never)."),
		game.PlyCapOption(200, "The number of plies after which the game ends as a draw (0: no limit)."),
	},
	New: func(opts game.Options) (game.Game, error) {
		g, err := newGame(opts)
		if err != nil {
			return nil, err
		}
		return g, nil
	},
}

// The colours, numbered in the seat order of the four-player game.
const (
	Red    = 0
	Green  = 1
	Yellow = 2
	Blue   = 3
)

// colourLetters and colourNames are indexed by colour.
const colourLetters = "rgyb"

var colourNames = [4]string{"red", "green", "yellow", "blue"}

// ColourName returns the name of colour c, e.g. "yellow".
func ColourName(c int) string { return colourNames[c&3] }

// ErrTeamsNeedFour is wrapped by the error for teams=true with two
// players.
var ErrTeamsNeedFour = errors.New("teams=true needs players=4: the team game is played by four")

// Game is a Diam variant. It implements game.Game and game.Teams.
type Game struct {
	opts     game.Options
	players  int
	teams    bool
	dropAny  bool
	rep      int
	maxPlies int
	// moveSet[p] and placeSet[p] are the colours (bit c) player p may
	// move and place.
	moveSet  [4]uint8
	placeSet [4]uint8
	maxMoves int
}

// New returns the Diam variant with the given options; missing options take
// their defaults. It returns an error for an unknown option, a bad value,
// or teams=true with two players.
func New(opts game.Options) (*Game, error) {
	full, err := Info.Resolve(opts)
	if err != nil {
		return nil, err
	}
	return newGame(full)
}

func newGame(opts game.Options) (*Game, error) {
	g := &Game{
		opts:     opts,
		players:  opts.Int("players"),
		teams:    opts.Bool("teams"),
		dropAny:  opts.String("drop") == "any",
		rep:      opts.Int("rep"),
		maxPlies: opts.Int("maxplies"),
	}
	switch {
	case g.players != 2 && g.players != 4:
		return nil, fmt.Errorf("option players=%d: want 2 or 4", g.players)
	case g.teams && g.players != 4:
		return nil, fmt.Errorf("option teams=true with players=%d: %w", g.players, ErrTeamsNeedFour)
	}
	for p := 0; p < g.players; p++ {
		switch {
		case g.players == 2:
			g.moveSet[p] = 1<<p | 1<<(p+2)
			g.placeSet[p] = g.moveSet[p]
		case g.teams:
			g.moveSet[p] = 1<<p | 1<<(p^2)
			g.placeSet[p] = 1 << p
		default:
			g.moveSet[p] = 1 << p
			g.placeSet[p] = 1 << p
		}
	}
	// Placements: 8 cells per colour placed; steps: two directions for
	// each of the 4 pieces of each colour moved.
	g.maxMoves = 8*popcount8(g.placeSet[0]) + 2*4*popcount8(g.moveSet[0])
	return g, nil
}

// Info returns Diam's static description.
func (g *Game) Info() *game.Info { return Info }

// Options returns the variant's options.
func (g *Game) Options() game.Options { return g.opts }

// Players returns 2 or 4.
func (g *Game) Players() int { return g.players }

// Teams reports whether the variant is the four-player team game.
func (g *Game) Teams() bool { return g.teams }

// DropAny reports whether pieces may be placed on occupied cells
// (drop=any).
func (g *Game) DropAny() bool { return g.dropAny }

// PlayerName returns "Player 1 (red, yellow)" or "Player 2 (green, blue)"
// with two players, and the player's colour ("Red", "Green", "Yellow",
// "Blue") with four.
func (g *Game) PlayerName(p int) string {
	if g.players == 2 {
		if p == 0 {
			return "Player 1 (red, yellow)"
		}
		return "Player 2 (green, blue)"
	}
	return [4]string{"Red", "Green", "Yellow", "Blue"}[p&3]
}

// SameTeam reports whether players a and b play on one team: partners in
// the team game, and otherwise only a player with themself.
func (g *Game) SameTeam(a, b int) bool {
	return a == b || (g.teams && a&1 == b&1)
}

// Owner returns the player who owns colour c: with two players 0 for red
// and yellow and 1 for green and blue; with four, the player of that seat.
func (g *Game) Owner(c int) int {
	if g.players == 2 {
		return c & 1
	}
	return c & 3
}

// CanMove reports whether player p may move pieces of colour c.
func (g *Game) CanMove(p, c int) bool { return g.moveSet[p]>>c&1 != 0 }

// CanPlace reports whether player p may place pieces of colour c.
func (g *Game) CanPlace(p, c int) bool { return g.placeSet[p]>>c&1 != 0 }

// MaxMoves returns an upper bound on the number of legal moves: 32 with
// two players, 16 with four, 24 in the team game.
func (g *Game) MaxMoves() int { return g.maxMoves }

// Repetition returns the rep option.
func (g *Game) Repetition() int { return g.rep }

// MaxPlies returns the maxplies option.
func (g *Game) MaxPlies() int { return g.maxPlies }

// Start returns the starting position.
func (g *Game) Start() game.State { return g.NewStart() }

// NewStart returns the starting position, an empty ring with player 1 (red)
// to move, as a *State.
func (g *Game) NewStart() *State {
	s := &State{g: g}
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

func popcount8(x uint8) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}
