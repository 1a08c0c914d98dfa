package gametest

import (
	"errors"
	"slices"
	"testing"

	"stax/game"
)

// CheckParseMove checks one input to s.ParseMove, as every game's move
// fuzz target does: it must either fail with a *game.MoveError, or return a
// legal move whose notation parses back to it.
func CheckParseMove(t testing.TB, s game.State, in string) {
	t.Helper()
	m, err := s.ParseMove(in)
	if err != nil {
		var me *game.MoveError
		if !errors.As(err, &me) {
			t.Fatalf("%s: ParseMove(%q) error %T, want *game.MoveError", s, in, err)
		}
		return
	}
	if !slices.Contains(s.Legal(nil), m) {
		t.Fatalf("%s: ParseMove(%q) = %d, which is not legal", s, in, m)
	}
	if back, err := s.ParseMove(s.FormatMove(m)); err != nil || back != m {
		t.Fatalf("%s: FormatMove(%d) = %q parses as %d, %v", s, m, s.FormatMove(m), back, err)
	}
}

// CheckParseState checks one input to g.ParseState, as every game's
// position fuzz target does: it must either fail with a
// *game.PositionError, or give a position whose string parses back to the
// same position, hash and status. It returns the position, or nil.
func CheckParseState(t testing.TB, g game.Game, in string) game.State {
	t.Helper()
	s, err := g.ParseState(in)
	if err != nil {
		var pe *game.PositionError
		if !errors.As(err, &pe) {
			t.Fatalf("ParseState(%q) error %T, want *game.PositionError", in, err)
		}
		return nil
	}
	again, err := g.ParseState(s.String())
	if err != nil {
		t.Fatalf("ParseState(%q).String() = %q does not parse: %v", in, s.String(), err)
	}
	if again.String() != s.String() || again.Hash() != s.Hash() || again.Terminal() != s.Terminal() {
		t.Fatalf("ParseState(%q) = %q does not round-trip: %q", in, s.String(), again.String())
	}
	return s
}
