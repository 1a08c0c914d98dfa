package search_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"stax/game"
	"stax/games"
	"stax/search"
)

// answer is a player that answers with a fixed result and error, after
// calling do (when set) on the state it is given.
type answer struct {
	res search.Result
	err error
	do  func(s game.State)
}

func (a answer) Play(ctx context.Context, pos search.Position, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	if a.do != nil {
		a.do(pos.State)
	}
	return a.res, a.err
}

type panicker struct{}

func (panicker) Play(context.Context, search.Position, search.Limits, func(search.Progress)) (search.Result, error) {
	panic("table missing")
}

func TestAsk(t *testing.T) {
	g, err := games.Load("pogo")
	if err != nil {
		t.Fatal(err)
	}
	h := game.NewHistory(g, nil)
	legal := h.State().Legal(nil)
	failure := errors.New("out of ideas")
	tests := []struct {
		name   string
		player search.Player
		is     error  // what the error wraps; nil: no error
		text   string // what the error says
	}{
		{"legal", answer{res: search.Result{Move: legal[3]}}, nil, ""},
		{"failed", answer{err: failure}, failure, "out of ideas"},
		{"cancelled", answer{err: context.Canceled}, context.Canceled, "context canceled"},
		{"panicked", panicker{}, nil, "internal error: table missing"},
		{"silent", answer{}, search.ErrNoAnswer, "the player gave no move"},
		{"illegal", answer{res: search.Result{Move: 1<<31 + 7}}, game.ErrIllegalMove, "illegal move (code 0x80000007)"},
		{"changes the state", answer{res: search.Result{Move: legal[0]}, do: func(s game.State) { s.Apply(legal[0]) }}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := h.State().String()
			res, err := search.Ask(context.Background(), tc.player, search.PositionOf(h), search.Limits{}, nil)
			if h.State().String() != before {
				t.Errorf("the caller's state changed to %q", h.State())
			}
			if tc.text == "" {
				if err != nil || !slices.Contains(legal, res.Move) {
					t.Errorf("Ask = %v, %v; want a legal move", res.Move, err)
				}
				return
			}
			var pe *search.PlayError
			if !errors.As(err, &pe) {
				t.Fatalf("Ask error = %v (%T); want a *search.PlayError", err, err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("Ask error %v does not wrap %v", err, tc.is)
			}
			if !strings.Contains(err.Error(), tc.text) {
				t.Errorf("Ask error %q; want it to say %q", err, tc.text)
			}
		})
	}
	over, err := g.ParseState("bbbbww,wbww,-/-,w,b/-,-,- w") // won by 1b2-c2
	if err != nil {
		t.Fatal(err)
	}
	m, err := over.ParseMove("1b2-c2")
	if err != nil {
		t.Fatal(err)
	}
	over.Apply(m)
	if _, err := search.Ask(context.Background(), search.NewRandom(1), search.Position{State: over}, search.Limits{}, nil); !errors.Is(err, search.ErrNoMoves) {
		t.Errorf("Ask in a finished position: %v; want ErrNoMoves", err)
	}
}

// TestPositionOf checks that a player asked through PositionOf sees the
// hashes of the game's earlier positions, oldest first.
func TestPositionOf(t *testing.T) {
	g, err := games.Load("pogo")
	if err != nil {
		t.Fatal(err)
	}
	h := game.NewHistory(g, nil)
	var want []uint64
	for _, m := range []string{"1a1-a2", "1a3-b3", "1a2-a1"} {
		want = append(want, h.State().Hash())
		if err := h.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	pos := search.PositionOf(h)
	if !slices.Equal(pos.Prior, want) || pos.State != h.State() {
		t.Errorf("PositionOf after 3 moves: prior %x; want %x", pos.Prior, want)
	}
	kept := pos.Clone()
	h.Undo()
	if got := search.PositionOf(h).Prior; !slices.Equal(got, want[:2]) {
		t.Errorf("PositionOf after an undo: prior %x; want %x", got, want[:2])
	}
	if !slices.Equal(kept.Prior, want) || kept.State.String() == h.State().String() {
		t.Errorf("a cloned position changed with the game: prior %x, state %q", kept.Prior, kept.State)
	}
}
