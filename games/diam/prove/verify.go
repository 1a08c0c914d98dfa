package prove

import (
	"context"
	"fmt"

	"stax/games/diam"
)

// Verification re-checks a proof with the rules alone: every move of the
// losing side is played and followed, the positions within a few plies of
// the end are settled by plain minimax, and the table is used only to
// choose the winning side's move, which is accepted only if what follows
// checks. Positions are remembered exactly as they stand, with no
// symmetry, so a mistake in the canonical keys cannot hide.

// VerifyStats counts what a verification checked.
type VerifyStats struct {
	Positions int // distinct positions checked (no symmetry folded)
	Minimax   int // of those, settled by minimax near the end
}

// Verify checks that the side to move of st wins (goal Win) or loses
// (goal Loss), leaving to minimax every position whose proof in the
// table is at most below plies long. It returns an error naming the first
// position that does not check, or ctx's error.
func (s *Solver) Verify(ctx context.Context, st *diam.State, goal Goal, below int) (VerifyStats, error) {
	v := &verifier{s: s, ctx: ctx, below: below, done: map[exact]bool{}, open: map[exact]bool{}}
	c := st.Copy()
	ok := false
	if goal == Win {
		ok = v.wins(c)
	} else {
		ok = v.loses(c)
	}
	if err := ctx.Err(); err != nil {
		return v.stats, err
	}
	if !ok {
		return v.stats, fmt.Errorf("the proof that %s's side to move %ss does not check: %s", st, goal, v.why)
	}
	return v.stats, nil
}

// exact is a position as it stands, and the side to move's result
// checked for it.
type exact struct {
	col    [4]uint32
	toMove int
	goal   Goal
}

type verifier struct {
	s     *Solver
	ctx   context.Context
	below int
	done  map[exact]bool // positions checked
	open  map[exact]bool // positions on the current line
	stats VerifyStats
	why   string
}

func (v *verifier) fail(st *diam.State, format string, args ...any) bool {
	if v.why == "" {
		v.why = fmt.Sprintf("%s: ", st) + fmt.Sprintf(format, args...)
	}
	return false
}

// wins checks that the side to move of st wins.
func (v *verifier) wins(st *diam.State) bool {
	k, over, ok := v.begin(st, Win)
	if over {
		return ok
	}
	v.open[k] = true
	defer delete(v.open, k)
	me := st.ToMove()
	for _, m := range st.Legal(nil) {
		st.Apply(m)
		ok := false
		if c, _, _, over := st.Diam(); over {
			ok = c&1 == me
		} else if v.s.Lookup(st, Loss).Proven {
			ok = v.loses(st)
		}
		st.Undo()
		if ok {
			return v.checked(k)
		}
	}
	return v.fail(st, "no move of the side to move leads to a position that checks as lost")
}

// loses checks that the side to move of st loses.
func (v *verifier) loses(st *diam.State) bool {
	k, over, ok := v.begin(st, Loss)
	if over {
		return ok
	}
	v.open[k] = true
	defer delete(v.open, k)
	me := st.ToMove()
	for _, m := range st.Legal(nil) {
		st.Apply(m)
		ok := false
		if c, _, _, over := st.Diam(); over {
			ok = c&1 != me || v.fail(st, "%s makes a diam for the side that should lose", st.FormatMove(m))
		} else {
			ok = v.wins(st)
		}
		st.Undo()
		if !ok {
			return v.fail(st, "after %s the opponent's win does not check", st.FormatMove(m))
		}
	}
	return v.checked(k)
}

// begin does what wins and loses share: over is set when the position
// needs no more work, with ok its verdict: checked already, on the current
// line (a cycle fails), or with a proof short enough to leave to minimax.
func (v *verifier) begin(st *diam.State, goal Goal) (k exact, over, ok bool) {
	k = exact{st.Colours(), st.ToMove(), goal}
	if v.done[k] {
		return k, true, true
	}
	if v.open[k] || v.ctx.Err() != nil {
		return k, true, false
	}
	if a := v.s.Lookup(st, goal); a.Proven && a.Plies <= v.below {
		want := 1
		if goal == Loss {
			want = -1
		}
		if Minimax(st, a.Plies) != want {
			return k, true, v.fail(st, "the table proves a %s within %d plies; minimax disagrees", goal, a.Plies)
		}
		v.stats.Minimax++
		return k, true, v.checked(k)
	}
	return k, false, false
}

func (v *verifier) checked(k exact) bool {
	v.done[k] = true
	v.stats.Positions++
	return true
}

// Minimax is a plain search with the rules alone, independent of the
// solver: 1 if the side to move of st wins within depth plies against
// every defence, -1 if it loses within depth plies whatever it does, 0 if
// neither. st is left as it was.
func Minimax(st *diam.State, depth int) int {
	if depth == 0 {
		return 0
	}
	me := st.ToMove()
	best := -1
	for _, m := range st.Legal(nil) {
		st.Apply(m)
		v := 0
		if c, _, _, over := st.Diam(); over {
			v = -1
			if c&1 == me {
				v = 1
			}
		} else {
			v = -Minimax(st, depth-1)
		}
		st.Undo()
		best = max(best, v)
		if best == 1 {
			break
		}
	}
	return best
}
