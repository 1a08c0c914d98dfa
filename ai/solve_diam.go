package ai

import (
	"cmp"
	"context"
	"sync"
	"time"

	"stax/game"
	"stax/games/diam"
	"stax/games/diam/prove"
	"stax/search"
)

// diamSolverTable is the table of each Diam solver of the strongest
// level.
const diamSolverTable = 16 << 20

// diamSolvers keeps up to two idle solvers per placing rule, so that what
// one move proved serves the next moves and the next games (a position's
// value does not depend on its game). A call takes one or makes one, and
// gives it back: memory is bounded by the searches running at once.
var diamSolvers = struct {
	sync.Mutex
	idle map[bool][]*prove.Solver
}{idle: map[bool][]*prove.Solver{}}

// takeDiamSolver returns an idle solver for g's placing rule, or a new
// one ordered by the level's evaluation.
func takeDiamSolver(g *diam.Game) *prove.Solver {
	diamSolvers.Lock()
	defer diamSolvers.Unlock()
	if idle := diamSolvers.idle[g.DropAny()]; len(idle) > 0 {
		s := idle[len(idle)-1]
		diamSolvers.idle[g.DropAny()] = idle[:len(idle)-1]
		return s
	}
	s, err := prove.New(g, prove.Options{TableBytes: diamSolverTable, Workers: 1, Evaluate: diamEvaluator(g).Evaluate})
	if err != nil {
		panic(err) // only two-player variants get here
	}
	return s
}

// giveBackDiamSolver returns s to the idle ones, or drops it.
func giveBackDiamSolver(s *prove.Solver) {
	diamSolvers.Lock()
	defer diamSolvers.Unlock()
	drop := s.Game().DropAny()
	if len(diamSolvers.idle[drop]) < 2 {
		diamSolvers.idle[drop] = append(diamSolvers.idle[drop], s)
	}
}

// diamProver is the strongest level of two-player Diam: it first gives a
// third of its time to the proof-number solver, plays a proven win (the
// shortest proof found), and when every move is proven to lose plays the
// one whose loss is the longest; otherwise it searches as the level does,
// avoiding a move the solver proved losing.
//
// As the perfect level of diam(drop=any), the variant whose start is
// proven, it gives the solver all its time (perfectDiamBudget when given
// none) and keeps one solver for the whole process, so that the proof of
// the start, found on the first move, serves every later move and game.
type diamProver struct {
	*capped
	g       *diam.Game
	perfect bool
}

// perfectDiamBudget is the perfect level's time for the solver on a move
// when it is given no time: enough to prove the start of diam(drop=any)
// on a loaded machine.
const perfectDiamBudget = 2 * time.Minute

// perfectDiam is the perfect level's solver, one per process, with a table
// that holds the start's proof many times over.
var perfectDiam struct {
	sync.Mutex
	s *prove.Solver
}

// lockPerfectSolver locks and returns the perfect level's solver.
func lockPerfectSolver(g *diam.Game) *prove.Solver {
	perfectDiam.Lock()
	if perfectDiam.s == nil {
		s, err := prove.New(g, prove.Options{TableBytes: 64 << 20, Evaluate: diamEvaluator(g).Evaluate})
		if err != nil {
			panic(err) // only diam(drop=any) with two players gets here
		}
		perfectDiam.s = s
	}
	return perfectDiam.s
}

// offersPerfect reports whether g is the variant whose start is proven.
func offersPerfect(g *diam.Game) bool { return g.Players() == 2 && g.DropAny() }

// Play implements search.Player.
func (p *diamProver) Play(ctx context.Context, pos search.Position, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	st, ok := pos.State.(*diam.State)
	if !ok || st.Terminal() {
		return p.capped.Play(ctx, pos, lim, report)
	}
	start := time.Now()
	given := lim.Budgeted().Time
	if !p.open || lim.IsZero() {
		lim = tighter(lim, p.lim)
	}
	lim = lim.Budgeted()
	share := 300 * time.Millisecond
	if lim.Time > 0 {
		share = lim.Time / 3
	}
	var s *prove.Solver
	if p.perfect {
		share = cmp.Or(given, perfectDiamBudget)
		s = lockPerfectSolver(p.g)
		defer perfectDiam.Unlock()
	} else {
		s = takeDiamSolver(p.g)
		defer giveBackDiamSolver(s)
	}
	// Given nodes and no time, the solver gets a third of the nodes (all
	// of them at the perfect level), half for each question.
	if lim.Time == 0 && lim.Nodes > 0 {
		n := lim.Nodes / 3
		if p.perfect {
			n = lim.Nodes
		}
		s.SetNodeLimit(max(n/2, 1))
		defer s.SetNodeLimit(0)
		share = 24 * time.Hour
	}
	// Half the share for the win; the loss gets what the win left.
	wctx, cancel := context.WithTimeout(ctx, share/2)
	win, err := s.Prove(wctx, st, prove.Win)
	cancel()
	loss := prove.Answer{}
	if err == nil && !win.Proven {
		lctx, cancel := context.WithTimeout(ctx, share-time.Since(start))
		loss, err = s.Prove(lctx, st, prove.Loss)
		cancel()
	}
	if err != nil {
		return search.Result{}, err
	}
	moves := s.Moves(st)
	var pick *prove.MoveAnswer
	var score search.Score
	switch {
	case win.Proven:
		for i := range moves {
			if m := &moves[i]; m.Wins.Proven && (pick == nil || m.Wins.Plies < pick.Wins.Plies) {
				pick = m
			}
		}
		if pick != nil {
			score = search.WinIn(pick.Wins.Plies)
		}
	case loss.Proven:
		for i := range moves {
			if m := &moves[i]; m.Loses.Proven && (pick == nil || m.Loses.Plies > pick.Loses.Plies) {
				pick = m
			}
		}
		if pick != nil {
			score = search.LossIn(pick.Loses.Plies)
		}
	}
	if pick != nil {
		res := search.Result{Move: pick.Move, Score: score, PV: []game.Move{pick.Move}, Depth: score.Plies,
			Nodes: s.Progress().Nodes, Elapsed: time.Since(start)}
		if report != nil {
			report(search.Progress{Depth: res.Depth, Score: res.Score, Nodes: res.Nodes, Elapsed: res.Elapsed, PV: res.PV})
		}
		return res, nil
	}
	if lim.Time > 0 {
		lim.Time = max(lim.Time-time.Since(start), time.Millisecond)
	}
	res, err := p.capped.Player.Play(ctx, pos, lim, report)
	if err != nil {
		return res, err
	}
	// A move the solver proved losing is replaced by one it did not,
	// the evaluation's best.
	for _, m := range moves {
		if m.Move != res.Move || !m.Loses.Proven {
			continue
		}
		best, bestV := game.Move(0), 0
		found := false
		for _, o := range moves {
			if o.Loses.Proven {
				continue
			}
			c := st.Copy()
			c.Apply(o.Move)
			v := -diamEvaluator(p.g).Evaluate(c, c.ToMove())
			if !found || v > bestV {
				best, bestV, found = o.Move, v, true
			}
		}
		if found {
			res.Move, res.PV, res.Score = best, []game.Move{best}, search.Estimate(bestV)
		}
	}
	return res, nil
}

// ProveDiamMoves runs the Diam solver on the position after every legal
// move of st, for about d in all, and returns the moves it settled with
// their exact scores for the player making them: a win or a loss within
// the plies of the proof found (not necessarily the quickest).
func ProveDiamMoves(ctx context.Context, st *diam.State, d time.Duration) (map[game.Move]search.Score, error) {
	g := st.Game().(*diam.Game)
	out := map[game.Move]search.Score{}
	if g.Players() != 2 || st.Terminal() {
		return out, nil
	}
	s := takeDiamSolver(g)
	defer giveBackDiamSolver(s)
	moves := st.Legal(nil)
	per := d / time.Duration(2*len(moves))
	c := st.Copy()
	for _, m := range moves {
		c.Apply(m)
		if c.Terminal() {
			c.Undo()
			continue
		}
		for _, goal := range []prove.Goal{prove.Loss, prove.Win} {
			mctx, cancel := context.WithTimeout(ctx, per)
			a, err := s.Prove(mctx, c, goal)
			cancel()
			if err != nil {
				return out, err
			}
			if a.Proven {
				if goal == prove.Loss {
					out[m] = search.WinIn(a.Plies + 1)
				} else {
					out[m] = search.LossIn(a.Plies + 1)
				}
				break
			}
		}
		c.Undo()
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
	}
	return out, nil
}
