package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"time"
)

// diffPuzzlePlayer returns the first difference between two accounts'
// puzzle records in words, or "" when they are the same. Times are
// compared as instants.
func diffPuzzlePlayer(a, b *PuzzlePlayer) string {
	if a.UserID != b.UserID || len(a.Attempts) != len(b.Attempts) {
		return fmt.Sprintf("account %s with %d attempts; want %s with %d", a.UserID, len(a.Attempts), b.UserID, len(b.Attempts))
	}
	if d := diffTimed([]PuzzleRating{a.Rating}, []PuzzleRating{b.Rating}, func(r *PuzzleRating) *time.Time { return &r.Updated }); d != "" {
		return "puzzle rating " + d
	}
	if d := diffTimed(a.Attempts, b.Attempts, func(x *PuzzleAttempt) *time.Time { return &x.At }); d != "" {
		return "attempt " + d
	}
	return ""
}

// copyPuzzles copies the puzzles' ratings and every account's puzzle
// rating and attempts from from into to, skipping what to holds already,
// identical. The accounts must have been copied first.
func copyPuzzles(ctx context.Context, from, to Puzzles, n *Copied, report func()) error {
	rs, err := from.PuzzleRatings(ctx)
	if err != nil {
		return err
	}
	have, err := to.PuzzleRatings(ctx)
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(rs))
	for id := range rs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		err := to.RestorePuzzleRating(ctx, id, rs[id])
		if errors.Is(err, ErrConflict) {
			if d := diffTimed([]PuzzleRating{have[id]}, []PuzzleRating{rs[id]}, func(r *PuzzleRating) *time.Time { return &r.Updated }); d != "" {
				return fmt.Errorf("puzzle %s: the destination holds another rating: %s", id, d)
			}
			continue
		}
		if err != nil {
			return err
		}
		n.PuzzleRatings++
	}
	return walk(ctx, from.ListPuzzlePlayers, puzzlePlayerID, func(p *PuzzlePlayer) error {
		err := to.RestorePuzzlePlayer(ctx, p)
		if errors.Is(err, ErrConflict) {
			there, gerr := puzzlePlayerOf(ctx, to, p.UserID)
			if gerr != nil {
				return gerr
			}
			if len(there.Attempts) == 0 {
				return fmt.Errorf("the puzzles of %s: %w (is the account missing from the destination?)", p.UserID, err)
			}
			if d := diffPuzzlePlayer(there, p); d != "" {
				return fmt.Errorf("the puzzles of %s: the destination holds others: %s", p.UserID, d)
			}
			return nil
		}
		if err != nil {
			return err
		}
		n.PuzzlePlayers++
		n.PuzzleAttempts += len(p.Attempts)
		return nil
	}, report)
}

// checkPuzzles reads the puzzle records back from both stores and checks
// that the destination holds each identical, and as many as the source.
func checkPuzzles(ctx context.Context, from, to Puzzles) (players int, err error) {
	a, err := from.PuzzleRatings(ctx)
	if err != nil {
		return 0, err
	}
	b, err := to.PuzzleRatings(ctx)
	if err != nil {
		return 0, err
	}
	if !reflect.DeepEqual(keys(a), keys(b)) {
		return 0, fmt.Errorf("the destination holds the ratings of %d puzzles; the source %d", len(b), len(a))
	}
	for id, r := range a {
		if d := diffTimed([]PuzzleRating{b[id]}, []PuzzleRating{r}, func(r *PuzzleRating) *time.Time { return &r.Updated }); d != "" {
			return 0, fmt.Errorf("puzzle %s differs in the destination: %s", id, d)
		}
	}
	return compare(ctx, "puzzle player", from.ListPuzzlePlayers, to.ListPuzzlePlayers, puzzlePlayerID, diffPuzzlePlayer)
}

func puzzlePlayerID(p *PuzzlePlayer) string { return p.UserID }

// puzzlePlayerOf reads the puzzle records of account id of s as
// ListPuzzlePlayers would.
func puzzlePlayerOf(ctx context.Context, s Puzzles, id string) (*PuzzlePlayer, error) {
	p := &PuzzlePlayer{UserID: id}
	var err error
	if p.Rating, err = s.PuzzlePlayer(ctx, id); err != nil && !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	if p.Attempts, err = s.PuzzleAttempts(ctx, id, math.MaxInt32); err != nil {
		return nil, err
	}
	sort.Slice(p.Attempts, func(i, j int) bool {
		a, b := p.Attempts[i], p.Attempts[j]
		return a.At.Before(b.At) || a.At.Equal(b.At) && a.PuzzleID < b.PuzzleID
	})
	return p, nil
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
