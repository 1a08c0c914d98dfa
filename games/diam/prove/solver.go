package prove

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"stax/game"
	"stax/games/diam"
)

// Options configure a Solver. The zero value is usable: a 64 MiB table,
// one worker per CPU, no evaluation.
type Options struct {
	// TableBytes bounds the transposition table (16 bytes an entry).
	TableBytes int64
	// Workers is the number of goroutines searching at once (default:
	// GOMAXPROCS). They share the table and split the moves of the
	// position being solved between them.
	Workers int
	// Evaluate, when set, orders the moves and gives unexplored positions
	// their first proof and disproof numbers: it scores a position that
	// is not over for player, higher being better for them (as
	// search.Evaluator does).
	Evaluate func(s game.State, player int) int
	// NodeLimit, when positive, stops each call of Prove after it has
	// searched about that many positions.
	NodeLimit int64
	// Progress, when set, is called about every ProgressEvery (default 1s)
	// during Prove, and once when it returns.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// DefaultTableBytes is the table size when Options.TableBytes is 0.
const DefaultTableBytes = 64 << 20

// Progress is a snapshot of a solver's work.
type Progress struct {
	Nodes     int64 // positions searched (expanded), in all runs
	Proven    int64 // questions proven by the search (stores of a proof)
	Disproven int64 // questions disproven
	Entries   int64 // positions held in the table
	// RootPN and RootDN are the proof and disproof numbers of the
	// question being asked of the position given to Prove.
	RootPN, RootDN uint32
	// Depth is the length of the line a worker was searching last.
	Depth   int
	Elapsed time.Duration // time spent proving, in all runs
}

// A Solver proves or disproves, for two-player Diam positions, that the
// side to move wins or loses, by df-pn search over a bounded table that
// it keeps between calls. Its methods must not be called concurrently.
type Solver struct {
	g    *diam.Game
	opts Options
	tt   *table

	nodes     atomic.Int64
	proven    atomic.Int64
	disproven atomic.Int64
	stop      atomic.Bool
	depth     atomic.Int64 // the length of a worker's current line
	stopAt    int64        // the node count at which Prove stops (0: none)
	// deadline is ctx's deadline in Prove (zero: none), which the workers
	// check themselves: on one thread without preemption (GOOS=js, the
	// engine in the browser) the watcher of ctx never runs while they
	// search.
	deadline time.Time
	root     atomic.Uint64 // the root's pn<<32 | dn, for progress
	elapsed  time.Duration // of earlier runs
	runStart time.Time
}

// New returns a solver for the two-player variant g.
func New(g *diam.Game, opts Options) (*Solver, error) {
	if g.Players() != 2 {
		return nil, fmt.Errorf("the solver plays two-player Diam; this variant has %d players", g.Players())
	}
	if opts.TableBytes == 0 {
		opts.TableBytes = DefaultTableBytes
	}
	if opts.TableBytes < 1<<10 {
		return nil, fmt.Errorf("table size %d bytes: want at least 1 KiB", opts.TableBytes)
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.ProgressEvery <= 0 {
		opts.ProgressEvery = time.Second
	}
	s := &Solver{g: g, opts: opts, tt: newTable(opts.TableBytes)}
	s.tt.shared = opts.Workers > 1
	return s, nil
}

// SetNodeLimit changes Options.NodeLimit for the calls of Prove that
// follow.
func (s *Solver) SetNodeLimit(n int64) { s.opts.NodeLimit = n }

// Game returns the variant solved.
func (s *Solver) Game() *diam.Game { return s.g }

// TableBytes returns the size of the table in memory.
func (s *Solver) TableBytes() int64 { return s.tt.bytes() }

// Progress returns the solver's counts so far.
func (s *Solver) Progress() Progress {
	r := s.root.Load()
	el := s.elapsed
	if !s.runStart.IsZero() {
		el += time.Since(s.runStart)
	}
	return Progress{
		Nodes: s.nodes.Load(), Proven: s.proven.Load(), Disproven: s.disproven.Load(),
		Entries: s.tt.used.Load(), RootPN: uint32(r >> 32), RootDN: uint32(r), Elapsed: el,
		Depth: int(s.depth.Load()),
	}
}

// estimate returns the first numbers of a position not searched yet,
// whose question is q, and its place in its parent's move order.
func (s *Solver) estimate(st *diam.State, q int) (pn, dn uint32, order int) {
	if s.opts.Evaluate == nil {
		return 1, 1, 0
	}
	e := s.opts.Evaluate(st, st.ToMove())
	// One step per 100 points of evaluation, 1 to 7.
	x := min(max(e/100, -3), 3)
	pn, dn = uint32(4-x), uint32(4+x)
	if q == askLose {
		pn, dn = dn, pn
	}
	return pn, dn, e
}

// record stores a node's numbers, given for its side to move.
func (s *Solver) record(self uint64, q int, phi, delta, plies uint32, work uint64) {
	pn, dn := pnDn(q, phi, delta)
	switch {
	case pn == 0:
		dn = plies
		s.proven.Add(1)
	case dn == 0:
		s.disproven.Add(1)
	}
	s.tt.store(self, pn, dn, max(work, 1))
}

// Goal is a question asked of a position: does the side to move win, or
// does it lose (the opponent wins)?
type Goal int

// The goals.
const (
	Win  Goal = askWin
	Loss Goal = askLose
)

func (g Goal) String() string {
	if g == Loss {
		return "loss"
	}
	return "win"
}

// Answer is what is known of a question.
type Answer struct {
	// Proven: the side to move wins (Goal Win) or loses (Goal Loss)
	// against every defence, in at most Plies plies by the proof found.
	// Proofs never rely on repetition: they are certain.
	Proven bool
	Plies  int
	// Disproven: the search found the goal out of reach. A line that
	// repeats a position counts as failing for the attacker, and the
	// table merges positions reached by different lines, so a disproof
	// is sound only as far as repetitions are (the graph-history
	// interaction): it is strong evidence, not a certificate.
	Disproven bool
	// PN and DN are the proof and disproof numbers when neither holds.
	PN, DN uint32
}

func answerOf(pn, dn uint32) Answer {
	switch {
	case pn == 0:
		return Answer{Proven: true, Plies: int(dn)}
	case dn == 0:
		return Answer{Disproven: true}
	}
	return Answer{PN: pn, DN: dn}
}

// Settled reports whether the question is answered either way.
func (a Answer) Settled() bool { return a.Proven || a.Disproven }

// ErrOver is returned for a position whose game is over.
var ErrOver = errors.New("the game is over: there is nothing to prove")

// Lookup returns what the table knows of the goal of st, without
// searching.
func (s *Solver) Lookup(st *diam.State, goal Goal) Answer {
	if c, _, _, over := st.Diam(); over {
		if (c&1 == st.ToMove()) == (goal == Win) {
			return Answer{Proven: true}
		}
		return Answer{Disproven: true}
	}
	if _, ok := st.WinningMove(); ok {
		if goal == Win {
			return Answer{Proven: true, Plies: 1}
		}
		return Answer{Disproven: true}
	}
	pn, dn, _, ok := s.tt.lookup(id(keyOf(st.Colours(), st.ToMove()), int(goal)))
	if !ok {
		return Answer{PN: 1, DN: 1}
	}
	return answerOf(pn, dn)
}

// Prove searches until the goal of st is proven or disproven, or ctx is
// done, and returns what is known; the table keeps the work for later
// calls. st is not changed. A finished game is an error (ErrOver).
func (s *Solver) Prove(ctx context.Context, st *diam.State, goal Goal) (Answer, error) {
	if g := st.Game().(*diam.Game); g.Players() != 2 || g.DropAny() != s.g.DropAny() {
		return Answer{}, fmt.Errorf("a position of %s given to the solver of %s", game.SpecOf(g), game.SpecOf(s.g))
	}
	if st.Terminal() {
		return Answer{}, ErrOver
	}
	if a := s.Lookup(st, goal); a.Settled() {
		return a, nil
	}
	s.stop.Store(false)
	s.stopAt = 0
	if s.opts.NodeLimit > 0 {
		s.stopAt = s.nodes.Load() + s.opts.NodeLimit
	}
	s.deadline, _ = ctx.Deadline()
	s.runStart = time.Now()
	defer func() {
		s.elapsed += time.Since(s.runStart)
		s.runStart = time.Time{}
	}()
	done := make(chan struct{})
	var watch sync.WaitGroup
	watch.Add(1)
	go func() {
		defer watch.Done()
		t := time.NewTicker(s.opts.ProgressEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				s.stop.Store(true)
				return
			case <-done:
				return
			case <-t.C:
				if s.opts.Progress != nil {
					s.opts.Progress(s.Progress())
				}
			}
		}
	}()
	s.run(st, int(goal))
	close(done)
	watch.Wait()
	a := s.Lookup(st, goal)
	s.setRoot(a)
	if s.opts.Progress != nil {
		s.opts.Progress(s.Progress())
	}
	return a, nil
}

func (s *Solver) setRoot(a Answer) {
	pn, dn := a.PN, a.DN
	switch {
	case a.Proven:
		pn, dn = 0, inf
	case a.Disproven:
		pn, dn = inf, 0
	}
	s.root.Store(uint64(pn)<<32 | uint64(dn))
}

// run searches the root with the workers: they share the root's moves,
// each taking the most promising one that no other is searching, with
// df-pn's thresholds computed at the root.
func (s *Solver) run(root *diam.State, q int) {
	self := id(keyOf(root.Colours(), root.ToMove()), q)
	lead := s.newWorker(root)
	lead.push(self)
	kids, done := lead.expand(q, 0)
	if done {
		s.record(self, q, 0, inf, 1, 1)
		return
	}
	var mu sync.Mutex
	busy := make([]bool, len(kids))
	var wg sync.WaitGroup
	for i := 0; i < s.opts.Workers; i++ {
		w := lead
		if i > 0 {
			w = s.newWorker(root)
			w.push(self)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { s.nodes.Add(w.nodes); w.nodes = 0 }()
			for {
				mu.Lock()
				phi, delta, _, _, _, plies := w.collect(kids, q)
				pn, dn := pnDn(q, phi, delta)
				s.root.Store(uint64(pn)<<32 | uint64(dn))
				if phi == 0 || delta == 0 || s.stop.Load() {
					s.record(self, q, phi, delta, plies, uint64(s.nodes.Load()))
					mu.Unlock()
					return
				}
				best, bestPhi, delta2 := s.pick(w, kids, busy, q)
				if best < 0 {
					mu.Unlock()
					time.Sleep(5 * time.Millisecond)
					continue
				}
				busy[best] = true
				mu.Unlock()
				k := kids[best]
				thdelta := uint32(inf - 1)
				cthphi := uint32(min(uint64(thdelta)-uint64(delta)+uint64(bestPhi), inf-1))
				if delta >= thdelta {
					cthphi = inf - 1
				}
				w.st.Apply(k.move)
				w.mid(k.id, 1-q, cthphi, childThreshold(delta2, inf-1), 1)
				w.st.Undo()
				mu.Lock()
				busy[best] = false
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

// pick returns the unsettled root move of least delta that no worker is
// searching, its phi, and the least delta of the other moves.
func (s *Solver) pick(w *worker, kids []kid, busy []bool, q int) (best int, bestPhi, delta2 uint32) {
	best = -1
	var bestDelta uint32 = inf
	delta2 = inf
	for i := range kids {
		pn, dn, _ := w.values(&kids[i])
		cphi, cdelta := phiDelta(1-q, pn, dn)
		if pn == 0 || dn == 0 || busy[i] {
			if !busy[i] {
				continue
			}
			delta2 = min(delta2, cdelta)
			continue
		}
		if best < 0 || cdelta < bestDelta {
			if best >= 0 {
				delta2 = min(delta2, bestDelta)
			}
			best, bestPhi, bestDelta = i, cphi, cdelta
		} else {
			delta2 = min(delta2, cdelta)
		}
	}
	return best, bestPhi, delta2
}

func (s *Solver) newWorker(root *diam.State) *worker {
	return &worker{s: s, st: root.Copy()}
}

// MoveAnswer is what the table knows of one move, for the player making
// it: Wins answers "does the move win?" (the opponent then loses) and
// Loses "does it lose?".
type MoveAnswer struct {
	Move        game.Move
	Wins, Loses Answer
}

// Moves returns what the table knows of every legal move of st, without
// searching, in the order of Legal.
func (s *Solver) Moves(st *diam.State) []MoveAnswer {
	c := st.Copy()
	var out []MoveAnswer
	for _, m := range st.Legal(nil) {
		c.Apply(m)
		out = append(out, MoveAnswer{Move: m, Wins: plusOne(s.Lookup(c, Loss)), Loses: plusOne(s.Lookup(c, Win))})
		c.Undo()
	}
	return out
}

// plusOne counts the move itself in a proof's plies.
func plusOne(a Answer) Answer {
	if a.Proven {
		a.Plies++
	}
	return a
}

// Known is what the table knows of a position reached by Line: whether
// its side to move wins, and whether it loses.
type Known struct {
	Line      []game.Move
	Win, Loss Answer
}

// Survey walks the positions up to depth plies after st, keeping one of
// each class of positions the solver treats as one (symmetric images and
// colour swaps), in order of depth, and returns what the table knows of
// each. Finished games are left out.
func (s *Solver) Survey(st *diam.State, depth int) []Known {
	seen := map[uint64]bool{}
	type node struct {
		st   *diam.State
		line []game.Move
	}
	level := []node{{st.Copy(), nil}}
	var out []Known
	for d := 0; d <= depth && len(level) > 0; d++ {
		var next []node
		for _, n := range level {
			k := keyOf(n.st.Colours(), n.st.ToMove())
			if seen[k] || n.st.Terminal() {
				continue
			}
			seen[k] = true
			out = append(out, Known{Line: n.line, Win: s.Lookup(n.st, Win), Loss: s.Lookup(n.st, Loss)})
			if d == depth {
				continue
			}
			for _, m := range n.st.Legal(nil) {
				c := n.st.Copy()
				c.Apply(m)
				next = append(next, node{c, append(n.line[:len(n.line):len(n.line)], m)})
			}
		}
		level = next
	}
	return out
}
