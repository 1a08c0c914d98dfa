package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"
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

// diffAccount returns the first difference between two stored accounts in
// words, or "" when they are the same. Times are compared as instants.
func diffAccount(a, b *Account) string {
	switch {
	case a.User.ID != b.User.ID || a.User.Name != b.User.Name || a.User.PasswordHash != b.User.PasswordHash || !a.User.Created.Equal(b.User.Created):
		return fmt.Sprintf("account %q %q created %v; want %q %q created %v (or another password)", a.User.ID, a.User.Name, a.User.Created, b.User.ID, b.User.Name, b.User.Created)
	case a.User.Bot != b.User.Bot || a.User.NoRatedBots != b.User.NoRatedBots || !a.User.Seen.Equal(b.User.Seen):
		return fmt.Sprintf("account %q bot %v, refusing rated games against bots %v, seen %v; want %v, %v, %v", a.User.Name,
			a.User.Bot, a.User.NoRatedBots, a.User.Seen, b.User.Bot, b.User.NoRatedBots, b.User.Seen)
	case len(a.Ratings) != len(b.Ratings):
		return fmt.Sprintf("%d ratings; want %d", len(a.Ratings), len(b.Ratings))
	case len(a.History) != len(b.History):
		return fmt.Sprintf("%d points of rating history; want %d", len(a.History), len(b.History))
	}
	if d := diffTimed(a.Ratings, b.Ratings, func(r *Rating) *time.Time { return &r.Updated }); d != "" {
		return "rating " + d
	}
	if d := diffTimed(a.History, b.History, func(p *RatingPoint) *time.Time { return &p.At }); d != "" {
		return "rating history point " + d
	}
	if len(a.Tokens) != len(b.Tokens) {
		return fmt.Sprintf("%d API tokens; want %d", len(a.Tokens), len(b.Tokens))
	}
	for i := range a.Tokens {
		h, w := &a.Tokens[i], &b.Tokens[i]
		if h.ID != w.ID || h.UserID != w.UserID || h.Hash != w.Hash || h.Description != w.Description ||
			strings.Join(h.Scopes, " ") != strings.Join(w.Scopes, " ") || !h.Created.Equal(w.Created) || !h.Used.Equal(w.Used) {
			return fmt.Sprintf("API token %+v; want %+v", *h, *w)
		}
	}
	return ""
}

// diffTimed returns the first difference between two lists of records of
// the same length in words, or "" when they are the same, the time each
// holds (when) compared as an instant.
func diffTimed[T comparable](have, want []T, when func(*T) *time.Time) string {
	for i := range have {
		h, w := have[i], want[i]
		same := when(&h).Equal(*when(&w))
		*when(&h) = *when(&w)
		if !same || h != w {
			return fmt.Sprintf("%+v; want %+v", have[i], want[i])
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
	// Accounts counts the accounts copied, Ratings and RatingPoints their
	// ratings and points of rating history; AccountsSkipped those the
	// destination held already, identical; AccountsChecked those read back
	// and found identical.
	Accounts, Ratings, RatingPoints, AccountsSkipped, AccountsChecked int
	// Tokens counts the personal API tokens of the accounts copied.
	Tokens int
	// RatedGames counts the games marked rated in both stores after the
	// copy.
	RatedGames int
	// Blocks, Restrictions and Reports count the moderation's records
	// copied (blocks and restrictions are written again on a second copy;
	// reports already there are skipped).
	Blocks, Restrictions, Reports int
	// PuzzleRatings counts the puzzles' ratings copied, PuzzlePlayers and
	// PuzzleAttempts the accounts' puzzle records and their attempts, and
	// PuzzlePlayersChecked those read back and found identical.
	PuzzleRatings, PuzzlePlayers, PuzzleAttempts, PuzzlePlayersChecked int
}

// copyPage is how many records Copy reads at once.
const copyPage = 200

// Copy copies every account (with its ratings and rating history, its bot
// mark and its API tokens, but not its sessions, and with its puzzle
// rating and attempts), the puzzles'
// ratings, every game, the marks of the games rated and the moderation's
// blocks, restrictions and reports from from into to, then reads
// everything back from both and checks that the
// destination holds each record identical, and as many as the source. A
// record the destination already holds is skipped when identical (so an
// interrupted copy can be run again) and is an error otherwise. progress,
// when not nil, is called after each page. Records written to from while
// Copy runs may be missed: stop the servers first. Accounts are copied
// only when both stores keep them (implement Accounts); a source with
// accounts and a destination without is an error.
func Copy(ctx context.Context, from, to Store, progress func(Copied)) (Copied, error) {
	var n Copied
	report := func() {
		if progress != nil {
			progress(n)
		}
	}
	fa, okFrom := from.(Accounts)
	ta, okTo := to.(Accounts)
	if okFrom && !okTo {
		return n, fmt.Errorf("copy: the destination %T keeps no accounts", to)
	}
	accounts := okFrom && okTo
	if accounts {
		err := walk(ctx, fa.ListAccounts, accountID, func(a *Account) error {
			err := ta.RestoreAccount(ctx, a)
			if errors.Is(err, ErrConflict) {
				have, gerr := accountOf(ctx, ta, a.User.ID)
				if errors.Is(gerr, ErrNotFound) {
					return fmt.Errorf("account %s %q: the destination holds another account with this name", a.User.ID, a.User.Name)
				}
				if gerr != nil {
					return fmt.Errorf("account %s: %w", a.User.ID, gerr)
				}
				if d := diffAccount(have, a); d != "" {
					return fmt.Errorf("account %s: the destination holds a different account with this id: %s", a.User.ID, d)
				}
				n.AccountsSkipped++
				return nil
			}
			if err != nil {
				return err
			}
			n.Accounts++
			n.Ratings += len(a.Ratings)
			n.RatingPoints += len(a.History)
			n.Tokens += len(a.Tokens)
			return nil
		}, report)
		if err != nil {
			return n, fmt.Errorf("copy accounts: %w", err)
		}
	}
	fp, puzzlesFrom := from.(Puzzles)
	tp, puzzlesTo := to.(Puzzles)
	if puzzlesFrom && !puzzlesTo && accounts {
		return n, fmt.Errorf("copy: the destination %T keeps no puzzles", to)
	}
	puzzles := accounts && puzzlesFrom && puzzlesTo
	if puzzles {
		if err := copyPuzzles(ctx, fp, tp, &n, report); err != nil {
			return n, fmt.Errorf("copy puzzles: %w", err)
		}
	}
	err := walk(ctx, from.List, gameID, func(g *Game) error {
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
	}, report)
	if err != nil {
		return n, fmt.Errorf("copy: %w", err)
	}
	if accounts {
		// A game is marked rated after it is copied, so that a copy cut
		// short never leaves a mark without its game.
		err := walk(ctx, fa.RatedGames, ratedID, func(r RatedGame) error {
			err := ta.Rate(ctx, r.GameID, r.At, nil)
			if err != nil && !errors.Is(err, ErrConflict) {
				return err
			}
			return nil
		}, nil)
		if err != nil {
			return n, fmt.Errorf("copy the marks of rated games: %w", err)
		}
	}

	// The check: walk both stores in id order side by side.
	n.Checked, err = compare(ctx, "game", from.List, to.List, gameID, Diff)
	if err != nil {
		return n, fmt.Errorf("check: %w", err)
	}
	if n.Checked != n.Games+n.Skipped {
		return n, fmt.Errorf("check: the source holds %d games but %d were copied or already there", n.Checked, n.Games+n.Skipped)
	}
	if accounts {
		n.AccountsChecked, err = compare(ctx, "account", fa.ListAccounts, ta.ListAccounts, accountID, diffAccount)
		if err != nil {
			return n, fmt.Errorf("check: %w", err)
		}
		if n.AccountsChecked != n.Accounts+n.AccountsSkipped {
			return n, fmt.Errorf("check: the source holds %d accounts but %d were copied or already there", n.AccountsChecked, n.Accounts+n.AccountsSkipped)
		}
		n.RatedGames, err = compare(ctx, "rated game", fa.RatedGames, ta.RatedGames, ratedID, func(a, b RatedGame) string {
			if !a.At.Equal(b.At) {
				return fmt.Sprintf("rated at %v; want %v", a.At, b.At)
			}
			return ""
		})
		if err != nil {
			return n, fmt.Errorf("check: %w", err)
		}
		fm, okFrom := from.(Moderation)
		tm, okTo := to.(Moderation)
		if okFrom && okTo {
			if err := copyModeration(ctx, fm, tm, &n); err != nil {
				return n, fmt.Errorf("copy the moderation: %w", err)
			}
		}
	}
	if puzzles {
		if n.PuzzlePlayersChecked, err = checkPuzzles(ctx, fp, tp); err != nil {
			return n, fmt.Errorf("check puzzles: %w", err)
		}
	}
	return n, nil
}

func gameID(g *Game) string       { return g.ID }
func accountID(a *Account) string { return a.User.ID }
func ratedID(r RatedGame) string  { return r.GameID }

// accountOf reads account id of s as ListAccounts would.
func accountOf(ctx context.Context, s Accounts, id string) (*Account, error) {
	u, err := s.UserByID(ctx, id)
	if err != nil {
		return nil, err
	}
	a := &Account{User: *u, History: []RatingPoint{}}
	if a.Ratings, err = s.Ratings(ctx, id); err != nil {
		return nil, err
	}
	if ts, ok := s.(Tokens); ok {
		tokens, err := ts.TokensOf(ctx, id)
		if err != nil {
			return nil, err
		}
		for _, t := range tokens {
			a.Tokens = append(a.Tokens, *t)
		}
	}
	for _, r := range a.Ratings {
		h, err := s.RatingHistory(ctx, id, r.Pool)
		if err != nil {
			return nil, err
		}
		a.History = append(a.History, h...)
	}
	return a, nil
}

// lister reads up to limit records whose ids sort after the given one, in
// id order: List, ListAccounts, RatedGames.
type lister[T any] func(ctx context.Context, after string, limit int) ([]T, error)

// walk calls fn for every record list reads, in id order, and page after
// each page.
func walk[T any](ctx context.Context, list lister[T], id func(T) string, fn func(T) error, page func()) error {
	after := ""
	for {
		rs, err := list(ctx, after, copyPage)
		if err != nil {
			return err
		}
		for _, r := range rs {
			if err := fn(r); err != nil {
				return err
			}
		}
		if page != nil {
			page()
		}
		if len(rs) < copyPage {
			return nil
		}
		after = id(rs[len(rs)-1])
	}
}

// compare walks the records of two stores side by side, in id order, and
// returns how many it found identical in both, or the first difference.
func compare[T any](ctx context.Context, what string, from, to lister[T], id func(T) string, diff func(have, want T) string) (int, error) {
	var pending []T
	after, n := "", 0
	err := walk(ctx, from, id, func(r T) error {
		if len(pending) == 0 {
			page, err := to(ctx, after, copyPage)
			if err != nil {
				return err
			}
			pending = page
		}
		if len(pending) == 0 {
			return fmt.Errorf("%s %s is missing from the destination", what, id(r))
		}
		h := pending[0]
		pending, after = pending[1:], id(h)
		if id(h) != id(r) {
			return fmt.Errorf("the destination holds %s %s, which the source does not (next in the source: %s)", what, min(id(h), id(r)), id(r))
		}
		if d := diff(h, r); d != "" {
			return fmt.Errorf("%s %s differs in the destination: %s", what, id(r), d)
		}
		n++
		return nil
	}, nil)
	if err == nil && len(pending) == 0 {
		pending, err = to(ctx, after, 1)
	}
	if err == nil && len(pending) > 0 {
		err = fmt.Errorf("the destination holds %s %s, which the source does not", what, id(pending[0]))
	}
	return n, err
}
