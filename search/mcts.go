package search

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"stax/game"
)

// MCTS is a Monte Carlo tree search player: UCT selection, random
// playouts, and in games of two sides an MCTS-solver that proves wins,
// losses and draws inside the tree and plays proven wins at once. It runs
// one tree per worker (root parallelism), keeps the trees between moves
// when the new position lies a few plies below the old root, and adds the
// workers' root statistics to choose the move.
//
// Each node holds the reward of the player who made the move into it, so
// games of more than two players are searched with one reward per player
// (max-n backups); the solver then only takes immediate wins.
type MCTS struct {
	// Eval, when not nil, scores playouts cut at PlayoutCap plies (a
	// logistic of the score, for each player); without it a cut playout
	// is a draw.
	Eval Evaluator
	// EvalScale is the evaluation difference that counts as a 73% chance
	// (the logistic's unit); 0 means 200.
	EvalScale float64
	// Default is the budget used when Play gets all-zero Limits.
	Default Limits
	// C is the UCT exploration constant; 0 means 0.7.
	C float64
	// Workers is the number of trees searched in parallel; 0 means the
	// number of CPUs (at most 4).
	Workers int
	// PlayoutCap is the number of plies after which a playout stops; 0
	// means 400.
	PlayoutCap int
	// NoReuse turns off keeping the trees between moves.
	NoReuse bool
	// Decisive makes playouts take a move that wins at once when there is
	// one (for states with Undo), which makes them costlier but much less
	// noisy in games won by a single sudden move, such as Diam.
	Decisive bool
	// TreeNodes bounds the nodes of each worker's tree; 0 means
	// maxTreeNodes.
	TreeNodes int
	// DrawReward is what a drawn game (or a playout cut without an
	// evaluation) is worth to each player, a win being 1 and a loss 0;
	// 0 means ½. In a game of four players, ¼ (the point shared four
	// ways) makes a player prefer a fair chance to win to a draw.
	DrawReward float64

	seed    uint64
	workers []*mctsWorker
}

// NewMCTS returns an MCTS player using eval for cut playouts (nil for
// none), seeded with seed.
func NewMCTS(eval Evaluator, seed uint64) *MCTS {
	return &MCTS{Eval: eval, Default: Limits{Time: time.Second}, seed: seed}
}

// proof values of a node, for the player who moved into it.
const (
	unproven int8 = iota
	provenWin
	provenLoss
	provenDraw
)

type mctsNode struct {
	move     game.Move
	mover    int8 // the player who made move
	proof    int8
	dist     int16 // plies to the proven end
	visits   int32
	reward   float64 // total reward of mover
	children []mctsNode
}

type mctsWorker struct {
	m       *MCTS
	rng     *rand.Rand
	root    *mctsNode
	rootPos game.State // the position at root, kept for reuse
	s       game.State
	undoer  game.Undoer
	buf     []game.Move
	path    []*mctsNode
	players int
	exact   bool
	sideOf  [game.MaxPlayers]int8
	c       float64
	cap     int
	scale   float64
	draw    float64 // the reward of a draw
	// allocated counts the nodes of the tree, which stops growing (and
	// only runs playouts from its leaves) beyond maxTreeNodes.
	allocated int
}

// maxTreeNodes bounds the nodes of one worker's tree by default.
const maxTreeNodes = 4 << 20

// treeNodeBytes is the size of a tree node with its share of its parent's
// children slice.
const treeNodeBytes = int(unsafe.Sizeof(mctsNode{}))

// SetThreads sets the number of trees searched in parallel.
func (m *MCTS) SetThreads(n int) { m.Workers = max(1, n) }

// SetHashSize bounds the trees of all the workers together to about mb
// megabytes.
func (m *MCTS) SetHashSize(mb int) {
	m.TreeNodes = max(1024, (mb<<20)/treeNodeBytes/max(1, m.Workers))
}

// drawReward returns what a draw is worth to each player.
func (m *MCTS) drawReward() float64 {
	if m.DrawReward == 0 {
		return 0.5
	}
	return m.DrawReward
}

// treeCap returns the bound on the nodes of one worker's tree.
func (m *MCTS) treeCap() int {
	if m.TreeNodes > 0 {
		return m.TreeNodes
	}
	return maxTreeNodes
}

// Play runs the search within lim and returns the most visited move (a
// proven win at once, never a proven loss when something else exists).
func (m *MCTS) Play(ctx context.Context, pos Position, lim Limits, report func(Progress)) (Result, error) {
	s := pos.State
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	start := time.Now()
	if lim.IsZero() {
		lim = m.Default
	}
	lim = lim.Budgeted()
	legal := s.Legal(nil)
	if len(legal) == 0 {
		return Result{}, ErrNoMoves
	}
	nw := m.Workers
	if nw <= 0 {
		nw = min(runtime.NumCPU(), 4)
	}
	if lim.Nodes > 0 && lim.Nodes < 2000 {
		nw = 1 // tiny budgets: one tree, no goroutines
	}
	for len(m.workers) < nw {
		i := uint64(len(m.workers))
		m.workers = append(m.workers, &mctsWorker{m: m, rng: rand.New(rand.NewPCG(m.seed, 0x3c75+i))})
	}
	ws := m.workers[:nw]
	for _, w := range ws {
		w.setRoot(s)
	}
	stopAt := deadline(ctx, start, lim)
	var stop atomic.Bool
	var total atomic.Int64
	budget := lim.Nodes
	maxIters := int64(math.MaxInt64)
	if lim.Depth > 0 && lim.Time == 0 && lim.Nodes == 0 {
		// A depth bound means little to MCTS: read it as 1000 playouts a
		// ply.
		budget = int64(lim.Depth) * 1000
	}
	if budget > 0 {
		maxIters = budget
	}
	run := func(w *mctsWorker, reporting bool) {
		var lastReport time.Time
		for i := 0; ; i++ {
			if w.root.proof != unproven {
				stop.Store(true)
			}
			if i&31 == 0 {
				if stop.Load() || ctx.Err() != nil || (!stopAt.IsZero() && time.Now().After(stopAt)) {
					stop.Store(true)
					return
				}
				if reporting && report != nil && time.Since(lastReport) > 200*time.Millisecond {
					lastReport = time.Now()
					report(m.progress(ws, start, total.Load()))
				}
			}
			if total.Add(1) > maxIters {
				stop.Store(true)
				return
			}
			w.iterate()
		}
	}
	var wg sync.WaitGroup
	for _, w := range ws[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(w, false)
		}()
	}
	run(ws[0], true)
	stop.Store(true)
	wg.Wait()
	p := m.progress(ws, start, min(total.Load(), maxIters))
	if report != nil {
		report(p)
	}
	if p.PV == nil {
		p.PV = []game.Move{legal[0]}
	}
	return Result{Move: p.PV[0], Score: p.Score, PV: p.PV, Depth: p.Depth, Nodes: p.Nodes, Elapsed: time.Since(start)}, nil
}

// progress combines the workers' roots: the best move, its score and a
// principal variation through the first worker's tree.
func (m *MCTS) progress(ws []*mctsWorker, start time.Time, nodes int64) Progress {
	type stat struct {
		visits int64
		reward float64
		proof  int8
		dist   int16
	}
	stats := map[game.Move]*stat{}
	var order []game.Move
	for _, w := range ws {
		r := w.root
		for i := range r.children {
			c := &r.children[i]
			st := stats[c.move]
			if st == nil {
				st = &stat{}
				stats[c.move] = st
				order = append(order, c.move)
			}
			st.visits += int64(c.visits)
			st.reward += c.reward
			if c.proof != unproven {
				st.proof, st.dist = c.proof, c.dist
			}
		}
	}
	if len(order) == 0 {
		return Progress{Nodes: nodes, Elapsed: time.Since(start)}
	}
	rank := func(st *stat) float64 {
		switch st.proof {
		case provenWin:
			return 1e18 - 1e9*float64(st.dist)
		case provenLoss:
			return -1e18 + 1e9*float64(st.dist)
		case provenDraw:
			return float64(st.visits) / 1e6 // below any visited unproven move with wins
		}
		return float64(st.visits)
	}
	best := order[0]
	for _, mv := range order[1:] {
		if rank(stats[mv]) > rank(stats[best]) {
			best = mv
		}
	}
	st := stats[best]
	var score Score
	switch st.proof {
	case provenWin:
		score = WinIn(int(st.dist) + 1)
	case provenLoss:
		score = LossIn(int(st.dist) + 1)
	case provenDraw:
		score = ProvenDraw
	default:
		if st.visits > 0 {
			q := st.reward / float64(st.visits)
			score = Estimate(int(math.Round((2*q - 1) * 1000)))
		}
	}
	pv := []game.Move{best}
	depth := 1
	if r := ws[0].root; r != nil {
		var n *mctsNode
		for i := range r.children {
			if r.children[i].move == best {
				n = &r.children[i]
			}
		}
		for n != nil && len(pv) < 32 {
			var next *mctsNode
			for i := range n.children {
				c := &n.children[i]
				if c.visits > 0 && (next == nil || c.visits > next.visits) {
					next = c
				}
			}
			if next == nil || next.visits < 4 {
				break
			}
			pv = append(pv, next.move)
			n = next
		}
		depth = len(pv)
	}
	return Progress{Depth: depth, Score: score, Nodes: nodes, Elapsed: time.Since(start), PV: pv}
}

// setRoot makes s the worker's root, reusing the subtree of the previous
// root that leads to s when there is one.
func (w *mctsWorker) setRoot(s game.State) {
	m := w.m
	g := s.Game()
	w.players = g.Players()
	sd := newSides(s)
	sd.root = 0
	w.exact = sd.exact()
	for p := 0; p < w.players; p++ {
		w.sideOf[p] = 1
		if sd.friend(p) {
			w.sideOf[p] = 0
		}
	}
	w.c = m.C
	if w.c == 0 {
		w.c = 0.7
	}
	w.cap = m.PlayoutCap
	if w.cap == 0 {
		w.cap = 400
	}
	w.draw = m.drawReward()
	w.scale = m.EvalScale
	if w.scale == 0 {
		w.scale = 200
	}
	var reused *mctsNode
	if !m.NoReuse && w.root != nil && w.rootPos != nil && w.rootPos.Game() == g {
		reused = w.find(s)
	}
	if reused == nil {
		reused = &mctsNode{mover: int8((s.ToMove() + w.players - 1) % w.players)}
		w.allocated = 0
	} else if reused != w.root {
		w.allocated = countNodes(reused)
	}
	w.root = reused
	w.rootPos = s.Clone()
	w.s = s.Clone()
	w.undoer, _ = w.s.(game.Undoer)
}

// find looks for s among the descendants of the old root, up to one round
// of moves by every player, and returns that node.
func (w *mctsWorker) find(s game.State) *mctsNode {
	want := s.Hash()
	if w.rootPos.Hash() == want && w.rootPos.String() == s.String() {
		return w.root
	}
	var walk func(n *mctsNode, pos game.State, depth int) *mctsNode
	walk = func(n *mctsNode, pos game.State, depth int) *mctsNode {
		for i := range n.children {
			c := &n.children[i]
			if c.visits == 0 {
				continue
			}
			next := pos.Clone()
			next.Apply(c.move)
			if next.Hash() == want && next.String() == s.String() {
				return c
			}
			if depth > 1 {
				if f := walk(c, next, depth-1); f != nil {
					return f
				}
			}
		}
		return nil
	}
	return walk(w.root, w.rootPos, min(w.players, 4))
}

// countNodes returns the number of nodes below n.
func countNodes(n *mctsNode) int {
	c := len(n.children)
	for i := range n.children {
		if n.children[i].children != nil {
			c += countNodes(&n.children[i])
		}
	}
	return c
}

// iterate runs one selection, expansion, playout and backup. A node is
// expanded on its second visit; its first runs a playout.
func (w *mctsWorker) iterate() {
	s := w.s
	if w.undoer == nil {
		s = s.Clone()
	}
	n := w.root
	w.path = append(w.path[:0], n)
	applied := 0
	var rewards [game.MaxPlayers]float64
	for {
		if n.proof != unproven {
			rewards = w.proofRewards(n)
			break
		}
		if n.children == nil {
			if s.Terminal() {
				rewards = w.terminal(n, s.Outcome())
				break
			}
			if (n.visits == 0 && n != w.root) || (w.allocated > w.m.treeCap() && n != w.root) {
				rewards = w.playout(s, &applied)
				break
			}
			w.expand(n, s)
		}
		n = w.selectChild(n)
		s.Apply(n.move)
		applied++
		w.path = append(w.path, n)
	}
	if w.undoer != nil {
		for ; applied > 0; applied-- {
			w.undoer.Undo()
		}
	}
	for i := len(w.path) - 1; i >= 0; i-- {
		x := w.path[i]
		x.visits++
		x.reward += rewards[x.mover]
		if w.exact && x.proof == unproven && x.children != nil {
			w.tryProve(x)
		}
	}
}

// expand creates n's children.
func (w *mctsWorker) expand(n *mctsNode, s game.State) {
	w.buf = s.Legal(w.buf[:0])
	mover := int8(s.ToMove())
	n.children = make([]mctsNode, len(w.buf))
	w.allocated += len(w.buf)
	for i, mv := range w.buf {
		n.children[i] = mctsNode{move: mv, mover: mover}
	}
	// Shuffle so that ties among unvisited children break at random.
	for i := len(n.children) - 1; i > 0; i-- {
		j := w.rng.IntN(i + 1)
		n.children[i], n.children[j] = n.children[j], n.children[i]
	}
}

// terminal returns the rewards of a finished position at n; in a game of
// two sides it also marks n proven.
func (w *mctsWorker) terminal(n *mctsNode, o game.Outcome) [game.MaxPlayers]float64 {
	if w.exact {
		n.dist = 0
		switch o.Results[n.mover] {
		case game.Win:
			n.proof = provenWin
		case game.Loss:
			n.proof = provenLoss
		default:
			n.proof = provenDraw
		}
		return w.proofRewards(n)
	}
	return outcomeRewards(o, w.players, w.draw)
}

// decisive returns a move of w.buf that wins at once for the player to
// move, or m if none does.
func (w *mctsWorker) decisive(s game.State, m game.Move) game.Move {
	p := s.ToMove()
	for _, x := range w.buf {
		s.Apply(x)
		won := s.Terminal() && s.Outcome().Results[p] == game.Win
		w.undoer.Undo()
		if won {
			return x
		}
	}
	return m
}

// outcomeRewards returns 1 for a win, draw for a draw and 0 for a loss, for
// each player.
func outcomeRewards(o game.Outcome, players int, draw float64) [game.MaxPlayers]float64 {
	var r [game.MaxPlayers]float64
	for p := 0; p < players; p++ {
		switch o.Results[p] {
		case game.Win:
			r[p] = 1
		case game.Draw:
			r[p] = draw
		}
	}
	return r
}

// proofRewards returns the rewards of a proven node for every player.
func (w *mctsWorker) proofRewards(n *mctsNode) [game.MaxPlayers]float64 {
	var r [game.MaxPlayers]float64
	var v float64
	switch n.proof {
	case provenWin:
		v = 1
	case provenDraw:
		v = 0.5
	}
	for p := 0; p < w.players; p++ {
		if w.sideOf[p] == w.sideOf[n.mover] {
			r[p] = v
		} else {
			r[p] = 1 - v
		}
	}
	return r
}

// selectChild picks a child by UCT, going straight to a proven win and
// avoiding proven losses.
func (w *mctsWorker) selectChild(n *mctsNode) *mctsNode {
	var best *mctsNode
	bestV := math.Inf(-1)
	lnN := math.Log(float64(n.visits + 1))
	for i := range n.children {
		c := &n.children[i]
		var v float64
		switch {
		case c.proof == provenWin:
			return c
		case c.proof == provenLoss:
			v = -1e9
		case c.visits == 0:
			v = 1e9
		default:
			q := c.reward / float64(c.visits)
			v = q + w.c*math.Sqrt(lnN/float64(c.visits))
		}
		if v > bestV {
			best, bestV = c, v
		}
	}
	return best
}

// tryProve proves n (its mover's result) from its children when a child
// is a win for the player to move at n, or when every child is proven.
// Only in games of two sides.
func (w *mctsWorker) tryProve(n *mctsNode) {
	if len(n.children) == 0 {
		return
	}
	toMove := n.children[0].mover
	same := w.sideOf[toMove] == w.sideOf[n.mover]
	// The best result for the player to move at n, over proven children.
	bestWin, allProven := false, true
	hasDraw := false
	var winDist, drawDist, lossDist int16 = math.MaxInt16, 0, 0
	for i := range n.children {
		c := &n.children[i]
		switch c.proof {
		case provenWin:
			bestWin = true
			winDist = min(winDist, c.dist)
		case provenDraw:
			hasDraw = true
			drawDist = max(drawDist, c.dist)
		case provenLoss:
			lossDist = max(lossDist, c.dist)
		default:
			allProven = false
		}
	}
	var res int8
	var dist int16
	switch {
	case bestWin:
		res, dist = provenWin, winDist
	case !allProven:
		return
	case hasDraw:
		res, dist = provenDraw, drawDist
	default:
		res, dist = provenLoss, lossDist
	}
	if !same {
		switch res {
		case provenWin:
			res = provenLoss
		case provenLoss:
			res = provenWin
		}
	}
	n.proof, n.dist = res, dist+1
}

// playout plays random moves from s to the end or the cap and returns each
// player's reward.
func (w *mctsWorker) playout(s game.State, applied *int) [game.MaxPlayers]float64 {
	var r [game.MaxPlayers]float64
	// A position without legal moves is over (the games make Legal empty
	// exactly when Terminal holds), so one call serves both.
	for ply := 0; ; ply++ {
		w.buf = s.Legal(w.buf[:0])
		if len(w.buf) == 0 {
			return outcomeRewards(s.Outcome(), w.players, w.draw)
		}
		if ply >= w.cap {
			break
		}
		m := w.buf[w.rng.IntN(len(w.buf))]
		if w.m.Decisive && w.undoer != nil {
			m = w.decisive(s, m)
		}
		s.Apply(m)
		*applied++
	}
	for p := 0; p < w.players; p++ {
		r[p] = w.draw
		if w.m.Eval != nil {
			r[p] = 1 / (1 + math.Exp(-float64(w.m.Eval.Evaluate(s, p))/w.scale))
		}
	}
	return r
}
