package game_test

import (
	"testing"

	"stax/game"
	"stax/internal/testgame"
)

// TestHistoryLast checks that History.Last gives the last move with the
// position it was played in, and nothing before the first move or after
// taking every move back.
func TestHistoryLast(t *testing.T) {
	g, err := testgame.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	h := game.NewHistory(g, nil)
	if _, _, ok := h.Last(); ok {
		t.Fatal("Last reports a move before the first")
	}
	for _, mv := range []string{"a1", "b2"} {
		pos := h.State().String()
		if err := h.Play(mv); err != nil {
			t.Fatal(err)
		}
		before, m, ok := h.Last()
		if !ok || before.String() != pos || before.FormatMove(m) != mv {
			t.Errorf("after %s: Last = %v, %v, %v; want %q and %s", mv, before, m, ok, pos, mv)
		}
	}
	h.Undo()
	if before, m, _ := h.Last(); before.FormatMove(m) != "a1" {
		t.Errorf("after an undo Last gives %s, want a1", before.FormatMove(m))
	}
	h.Undo()
	if _, _, ok := h.Last(); ok {
		t.Error("Last reports a move after every move was taken back")
	}
}
