package gametest_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"stax/game"
	"stax/game/gametest"
	"stax/internal/testgame"
)

// The kit is tested as testing/fstest is: a correct game passes, and each
// deliberately broken copy of it makes the check written for that defect
// fail. The kit reports through *testing.T, so each broken game runs in a
// child process (this test binary again, running TestBrokenGameChild) and
// the parent reads its verdict.

// defects lists the broken games by name, each with the text the kit's
// failure must contain.
var defects = []struct{ name, want string }{
	{"no name", "Info() has no name"},
	{"one player", "Players() = 1"},
	{"unnamed player", "PlayerName(1) is empty"},
	{"undocumented option", `option "first" has no Doc`},
	{"max moves too small", "more than MaxMoves()"},
	{"to move out of range", "ToMove() = 2"},
	{"legal ignores dst", "Legal does not append to its argument"},
	{"legal lists a move twice", "listed twice"},
	{"legal lists no move", "NoMove listed as legal"},
	{"moves after the end", "terminal with"},
	{"no moves before the end", "no legal moves"},
	{"format does not parse back", "ParseMove(FormatMove("},
	{"plain move error", "want *game.MoveError"},
	{"plain position error", "want *game.PositionError"},
	{"string drops the side to move", "ParseState(String() ="},
	{"clone shares the board", "to a clone changed the original"},
	{"undo does nothing", "then Undo gives"},
	{"incremental hash drifts", "incremental hash"},
	{"everyone wins", "winners of 2 players"},
	{"terminal outcome by repetition", "terminal outcome has reason repetition"},
	{"adjudication ignores the reason", "Adjudicate(repetition).Reason = rules"},
}

// brokenEnv names the defect a child process plays.
const brokenEnv = "STAX_GAMETEST_BROKEN"

func TestCorrectGamePasses(t *testing.T) {
	gametest.Run(t, broken(""), gametest.Config{Games: 4})
}

func TestBrokenGames(t *testing.T) {
	if os.Getenv(brokenEnv) != "" {
		t.Skip("in a child process")
	}
	for _, d := range defects {
		t.Run(strings.ReplaceAll(d.name, " ", "_"), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenGameChild$", "-test.v")
			cmd.Env = append(os.Environ(), brokenEnv+"="+d.name)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("the kit passed a game with the defect %q (%v):\n%s", d.name, err, out)
			}
			if !strings.Contains(string(out), d.want) {
				t.Errorf("the kit failed the game with the defect %q without saying %q:\n%s", d.name, d.want, out)
			}
		})
	}
}

// TestBrokenGameChild runs the kit over the broken game named by
// $STAX_GAMETEST_BROKEN, in the child processes of TestBrokenGames.
func TestBrokenGameChild(t *testing.T) {
	name := os.Getenv(brokenEnv)
	if name == "" {
		t.Skip("run by TestBrokenGames")
	}
	gametest.Run(t, broken(name), gametest.Config{Games: 4})
}

// broken returns tic-tac-toe with the named defect ("" for none).
func broken(defect string) game.Game {
	info := *testgame.Info
	info.Options = append([]game.Option(nil), info.Options...)
	switch defect {
	case "no name":
		info.Name = ""
	case "undocumented option":
		info.Options[0].Doc = ""
	}
	bi := &info
	bi.New = func(opts game.Options) (game.Game, error) {
		g, err := testgame.New(opts)
		if err != nil {
			return nil, err
		}
		return &brokenGame{Game: g, defect: defect, info: bi}, nil
	}
	g, err := bi.Variant(nil)
	if err != nil {
		panic(err)
	}
	return g
}

type brokenGame struct {
	*testgame.Game
	defect string
	info   *game.Info
}

func (g *brokenGame) Info() *game.Info { return g.info }

func (g *brokenGame) Players() int {
	if g.defect == "one player" {
		return 1
	}
	return 2
}

func (g *brokenGame) PlayerName(p int) string {
	if g.defect == "unnamed player" && p == 1 {
		return ""
	}
	return g.Game.PlayerName(p)
}

func (g *brokenGame) MaxMoves() int {
	if g.defect == "max moves too small" {
		return 3
	}
	return g.Game.MaxMoves()
}

func (g *brokenGame) Start() game.State { return &brokenState{State: g.NewStart(), g: g} }

func (g *brokenGame) ParseState(str string) (game.State, error) {
	s, err := g.Game.ParseState(str)
	if err != nil {
		if g.defect == "plain position error" {
			return nil, errors.New("bad position")
		}
		return nil, err
	}
	if g.defect == "string drops the side to move" && strings.Count(str, " ") == 0 {
		return nil, &game.PositionError{Input: str, Err: errors.New("no side to move")}
	}
	return &brokenState{State: s.(*testgame.State), g: g}, nil
}

type brokenState struct {
	*testgame.State
	g       *brokenGame
	applied uint64 // moves applied, for the drifting hash
}

func (s *brokenState) Game() game.Game { return s.g }

func (s *brokenState) ToMove() int {
	if s.g.defect == "to move out of range" {
		return 2
	}
	return s.State.ToMove()
}

func (s *brokenState) Legal(dst []game.Move) []game.Move {
	switch d := s.g.defect; {
	case d == "legal ignores dst":
		return s.State.Legal(nil)
	case d == "legal lists a move twice" && !s.Terminal():
		dst = s.State.Legal(dst)
		return append(dst, dst[len(dst)-1])
	case d == "legal lists no move" && !s.Terminal():
		return append(s.State.Legal(dst), game.NoMove)
	case d == "moves after the end" && s.Terminal():
		// The empty squares of a won game, read from the position string
		// (ranks 3 to 1, four characters each with the slash).
		str := s.State.String()
		for sq := 0; sq < 9; sq++ {
			if str[4*(2-sq/3)+sq%3] == '-' {
				dst = append(dst, game.Move(sq+1))
			}
		}
		return dst
	case d == "no moves before the end" && strings.Count(s.State.String(), "-") == 5:
		return dst
	}
	return s.State.Legal(dst)
}

func (s *brokenState) Apply(m game.Move) {
	s.State.Apply(m)
	s.applied++
}

func (s *brokenState) Undo() {
	if s.g.defect == "undo does nothing" {
		return
	}
	s.State.Undo()
	s.applied--
}

func (s *brokenState) Clone() game.State {
	if s.g.defect == "clone shares the board" {
		return s
	}
	return &brokenState{State: s.State.Clone().(*testgame.State), g: s.g, applied: s.applied}
}

func (s *brokenState) Outcome() game.Outcome {
	o := s.State.Outcome()
	switch {
	case s.g.defect == "everyone wins" && o.Over() && !o.IsDraw():
		o.Results[0], o.Results[1] = game.Win, game.Win
	case s.g.defect == "terminal outcome by repetition" && o.Over():
		o.Reason = game.ByRepetition
	}
	return o
}

func (s *brokenState) Adjudicate(r game.Reason) game.Outcome {
	o := s.State.Adjudicate(r)
	if s.g.defect == "adjudication ignores the reason" {
		o.Reason = game.ByRules
	}
	return o
}

func (s *brokenState) String() string {
	str := s.State.String()
	if s.g.defect == "string drops the side to move" {
		str, _, _ = strings.Cut(str, " ")
	}
	return str
}

func (s *brokenState) ParseMove(str string) (game.Move, error) {
	m, err := s.State.ParseMove(strings.ToLower(str))
	if err != nil && s.g.defect == "plain move error" {
		return m, errors.New("bad move")
	}
	return m, err
}

func (s *brokenState) FormatMove(m game.Move) string {
	str := s.State.FormatMove(m)
	if s.g.defect == "format does not parse back" {
		return str + "!"
	}
	return str
}

func (s *brokenState) Hash() uint64 {
	if s.g.defect == "incremental hash drifts" {
		return s.State.Hash() + s.applied
	}
	return s.State.Hash()
}
