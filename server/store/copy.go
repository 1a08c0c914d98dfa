package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
)

// Diff returns the first difference between two stored games in words, or
// "" when they are the same record. Times are compared as instants, and
// move times only when both games have them.
func Diff(a, b *Game) string {
	switch {
	case a.ID != b.ID || a.Spec != b.Spec || a.Start != b.Start:
		return fmt.Sprintf("id, spec, start %q %q %q; want %q %q %q", a.ID, a.Spec, a.Start, b.ID, b.Spec, b.Start)
	case a.Status != b.Status || a.Ply != b.Ply:
		return fmt.Sprintf("status %q ply %d; want %q ply %d", a.Status, a.Ply, b.Status, b.Ply)
	case a.Rated != b.Rated:
		return fmt.Sprintf("rated %v; want %v", a.Rated, b.Rated)
	case (a.Clock == nil) != (b.Clock == nil) || a.Clock != nil && *a.Clock != *b.Clock:
		return fmt.Sprintf("clock %+v; want %+v", a.Clock, b.Clock)
	case a.End != b.End:
		return fmt.Sprintf("end %+v; want %+v", a.End, b.End)
	case !a.Created.Equal(b.Created) || !a.Updated.Equal(b.Updated):
		return fmt.Sprintf("created %v updated %v; want %v, %v", a.Created, a.Updated, b.Created, b.Updated)
	case a.Rated != b.Rated || !reflect.DeepEqual(a.Clock, b.Clock):
		return fmt.Sprintf("rated %v clock %+v; want %v %+v", a.Rated, a.Clock, b.Rated, b.Clock)
	case !reflect.DeepEqual(a.Seats, b.Seats):
		return fmt.Sprintf("seats %+v; want %+v", a.Seats, b.Seats)
	case len(a.Moves) != len(b.Moves) || (len(a.Moves) > 0 && !reflect.DeepEqual(a.Moves, b.Moves)):
		return fmt.Sprintf("moves %q; want %q", a.Moves, b.Moves)
	}
	if a.MoveTimes != nil && b.MoveTimes != nil {
		if len(a.MoveTimes) != len(b.MoveTimes) {
			return fmt.Sprintf("%d move times; want %d", len(a.MoveTimes), len(b.MoveTimes))
		}
		for i := range a.MoveTimes {
			if !a.MoveTimes[i].Equal(b.MoveTimes[i]) {
				return fmt.Sprintf("move %d played at %v; want %v", i, a.MoveTimes[i], b.MoveTimes[i])
			}
		}
	}
	return ""
}

// Copied counts what Copy did.
type Copied struct {
	// Games and Moves count the games copied and their moves.
	Games, Moves int
	// Skipped counts the games the destination already held, identical.
	Skipped int
	// Checked counts the games read back from the destination and found
	// identical to the source.
	Checked int
}

// copyPage is how many games Copy reads at once.
const copyPage = 200

// Copy copies every game of from into to, then reads every game back from
// both and checks that the destination holds each one identical, and as
// many games as the source. A game the destination already holds is
// skipped when identical (so an interrupted copy can be run again) and is
// an error otherwise. progress, when not nil, is called after each page.
// Games written to from while Copy runs may be missed: stop the servers
// first.
func Copy(ctx context.Context, from, to Store, progress func(Copied)) (Copied, error) {
	var n Copied
	err := walk(ctx, from, func(g *Game) error {
		err := to.Create(ctx, g)
		if errors.Is(err, ErrConflict) {
			have, gerr := to.Get(ctx, g.ID)
			if gerr != nil {
				return fmt.Errorf("game %s: %w", g.ID, gerr)
			}
			if d := Diff(have, g); d != "" {
				return fmt.Errorf("game %s: the destination holds a different game with this id: %s", g.ID, d)
			}
			n.Skipped++
			return nil
		}
		if err != nil {
			return err
		}
		n.Games++
		n.Moves += len(g.Moves)
		return nil
	}, func() {
		if progress != nil {
			progress(n)
		}
	})
	if err != nil {
		return n, fmt.Errorf("copy: %w", err)
	}
	// The check: walk both stores in id order side by side.
	var pending []*Game
	after := ""
	err = walk(ctx, from, func(g *Game) error {
		if len(pending) == 0 {
			page, err := to.List(ctx, after, copyPage)
			if err != nil {
				return err
			}
			pending = page
		}
		if len(pending) == 0 {
			return fmt.Errorf("game %s is missing from the destination", g.ID)
		}
		h := pending[0]
		pending, after = pending[1:], h.ID
		if h.ID != g.ID {
			return fmt.Errorf("the destination holds game %s, which the source does not (next in the source: %s)", min(h.ID, g.ID), g.ID)
		}
		if d := Diff(h, g); d != "" {
			return fmt.Errorf("game %s differs in the destination: %s", g.ID, d)
		}
		n.Checked++
		return nil
	}, nil)
	if err == nil && len(pending) == 0 {
		pending, err = to.List(ctx, after, 1)
	}
	if err == nil && len(pending) > 0 {
		err = fmt.Errorf("the destination holds game %s, which the source does not", pending[0].ID)
	}
	if err != nil {
		return n, fmt.Errorf("check: %w", err)
	}
	if n.Checked != n.Games+n.Skipped {
		return n, fmt.Errorf("check: the source holds %d games but %d were copied or already there", n.Checked, n.Games+n.Skipped)
	}
	return n, nil
}

// walk calls fn for every game of s in id order, and page after each page.
func walk(ctx context.Context, s Store, fn func(*Game) error, page func()) error {
	after := ""
	for {
		gs, err := s.List(ctx, after, copyPage)
		if err != nil {
			return err
		}
		for _, g := range gs {
			if err := fn(g); err != nil {
				return err
			}
		}
		if page != nil {
			page()
		}
		if len(gs) < copyPage {
			return nil
		}
		after = gs[len(gs)-1].ID
	}
}
