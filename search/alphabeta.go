package search

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"stax/game"
)

// AlphaBeta is a negamax alpha-beta player with iterative deepening, a
// transposition table keyed by the game's hash (kept between moves),
// move ordering by the table's move, killer moves and a history table, and
// principal variation search.
//
// With Threads above 1 it searches in parallel by "lazy SMP": helper
// threads run their own iterative deepening on the same position, one ply
// ahead of each other, and share the transposition table (lock-free: each
// entry is two words, the key stored xor the data, so that a torn write is
// read as a miss); the main thread profits from the entries they leave and
// alone decides the move.
//
// The search is written for two sides: the side of the root player (with
// partners in a team game) and everyone else. With two players or two
// teams it is exact; in four-player Diam without teams it is the paranoid
// reduction, in which the other three players are assumed to play together
// against the root player.
//
// Weak levels are made from it with RootTemperature (exact scores for
// every root move, then a softmax pick) and Epsilon (a random move now and
// then).
type AlphaBeta struct {
	// Eval scores positions at the horizon. It is called from every
	// thread at once when Threads is above 1.
	Eval Evaluator
	// Default is the budget used when Play gets all-zero Limits.
	Default Limits
	// RootTemperature, when positive, makes the search score every root
	// move exactly and pick among them by a softmax of temperature
	// RootTemperature (in evaluation units), never a proven loss when
	// something else exists.
	RootTemperature float64
	// Epsilon is the probability of playing a uniformly random move
	// instead of searching.
	Epsilon float64
	// Threads is the number of threads that search (0 or 1: one).
	Threads int
	// Reduce, when positive, searches the moves ordered after the first
	// Reduce of a node (past the table's move and the killers) one ply
	// shallower when at least three plies remain, and again at full depth
	// when such a move proves better than the best so far (late move
	// reductions).
	Reduce int

	rng     *rand.Rand
	tt      []ttEntry
	ttMask  uint64
	main    *abThread
	helpers []*abThread
}

// abThread is the state of one searching thread: the position, the line
// searched, the move ordering tables and the node count.
type abThread struct {
	a       *AlphaBeta
	hist    [2][histSize]int32
	killers [maxPly][2]game.Move

	// Per search.
	sd       sides
	rootKey  uint64
	s        game.State
	undoer   game.Undoer
	stack    []game.State // for states without Undo
	moves    [][]game.Move
	scores   [][]int32
	sortKeys []uint64    // scratch of sortRest
	sortBuf  []game.Move // scratch of sortRest
	path     []uint64
	nodes    int64
	maxNodes int64
	stopAt   time.Time
	ctx      context.Context
	stopped  bool
	repeats  bool
	moverAt  [maxPly + 1]int
	// halt, when set, stops a helper; shared counts the helpers' nodes
	// (flushed every 1024) for the node limit and the reports.
	halt    *atomic.Bool
	shared  *atomic.Int64
	flushed int64
}

const (
	maxPly   = 128
	histSize = 1 << 12
	inf      = WinScore + 1
)

type ttFlag uint8

const (
	ttExact ttFlag = iota + 1
	ttLower
	ttUpper
)

// ttEntry is one slot of the transposition table: check holds the key
// xor data, so that an entry written by two threads at once (the key of
// one with the data of the other) fails the check and reads as empty.
type ttEntry struct {
	check, data atomic.Uint64
}

// ttData is an unpacked table entry.
type ttData struct {
	move  game.Move
	score int32 // within ±2^20
	depth int8
	flag  ttFlag
}

// pack stores d in one word: the move in the low 32 bits, then the score
// (21 bits, two's complement), the depth (7) and the flag (2).
func (d ttData) pack() uint64 {
	return uint64(d.move) | uint64(uint32(d.score)&(1<<21-1))<<32 | uint64(uint8(d.depth)&127)<<53 | uint64(d.flag&3)<<60
}

func unpack(w uint64) ttData {
	score := int32(w>>32&(1<<21-1)) << 11 >> 11 // sign-extend 21 bits
	return ttData{move: game.Move(uint32(w)), score: score, depth: int8(w >> 53 & 127), flag: ttFlag(w >> 60 & 3)}
}

// probe returns the entry for key, if the table holds one.
func (a *AlphaBeta) probe(key uint64) (ttData, bool) {
	e := &a.tt[key&a.ttMask]
	d := e.data.Load()
	if e.check.Load()^d != key || d == 0 {
		return ttData{}, false
	}
	return unpack(d), true
}

// ttEntryBytes is the size of a table entry.
const ttEntryBytes = 16

// NewAlphaBeta returns an alpha-beta player using eval, with a
// transposition table of 2^ttBits entries, seeded with seed.
func NewAlphaBeta(eval Evaluator, ttBits int, seed uint64) *AlphaBeta {
	if eval == nil {
		eval = Zero
	}
	a := &AlphaBeta{
		Eval:    eval,
		Default: Limits{Time: time.Second},
		rng:     rand.New(rand.NewPCG(seed, 0xab)),
	}
	a.resize(ttBits)
	return a
}

// resize replaces the table by an empty one of 2^bits entries.
func (a *AlphaBeta) resize(bits int) {
	bits = max(8, min(bits, 32))
	a.tt = make([]ttEntry, 1<<bits)
	a.ttMask = 1<<bits - 1
}

// SetHashSize gives the transposition table the largest power-of-two
// number of entries that fits in mb megabytes (16 bytes an entry), emptying
// it; the table keeps its size when it already has that many.
func (a *AlphaBeta) SetHashSize(mb int) {
	bits := 8
	for bits < 32 && (uint64(ttEntryBytes)<<(bits+1)) <= uint64(max(mb, 1))<<20 {
		bits++
	}
	if len(a.tt) != 1<<bits {
		a.resize(bits)
	}
}

// SetThreads sets the number of threads of each search.
func (a *AlphaBeta) SetThreads(n int) { a.Threads = max(1, n) }

// HashSize returns the table's size in bytes.
func (a *AlphaBeta) HashSize() int64 { return int64(len(a.tt)) * ttEntryBytes }

// ClearTable empties the transposition table and the ordering tables.
func (a *AlphaBeta) ClearTable() {
	for i := range a.tt {
		a.tt[i].check.Store(0)
		a.tt[i].data.Store(0)
	}
	for _, t := range append([]*abThread{a.main}, a.helpers...) {
		if t != nil {
			t.hist = [2][histSize]int32{}
			t.killers = [maxPly][2]game.Move{}
		}
	}
}

// Play searches pos within lim and returns the best move found. A position
// that repeats one of pos.Prior, or one on the line searched, ends the
// game in games with a repetition rule, scored as the rules adjudicate a
// repetition (a draw, or in Pisola a win for the side with more squares).
func (a *AlphaBeta) Play(ctx context.Context, pos Position, lim Limits, report func(Progress)) (Result, error) {
	s := pos.State
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	start := time.Now()
	if lim.IsZero() {
		lim = a.Default
	}
	lim = lim.Budgeted()
	root := s.Legal(nil)
	if len(root) == 0 {
		return Result{}, ErrNoMoves
	}
	if a.Epsilon > 0 && a.rng.Float64() < a.Epsilon {
		m := root[a.rng.IntN(len(root))]
		return Result{Move: m, PV: []game.Move{m}, Depth: 1, Nodes: 1, Elapsed: time.Since(start)}, nil
	}
	var halt atomic.Bool
	var shared atomic.Int64
	t, maxDepth := a.begin(ctx, pos, start, lim, &shared)

	// Helper threads, one ply apart, until the main thread is done.
	var wg sync.WaitGroup
	for i := 1; i < a.Threads && len(root) > 1; i++ {
		if len(a.helpers) < i {
			a.helpers = append(a.helpers, &abThread{a: a})
		}
		h := a.helpers[i-1]
		h.prepare(ctx, pos, start, Limits{Time: lim.Time}, &shared)
		h.halt = &halt
		hroot := slices.Clone(root)
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.helpSearch(hroot, 1+i%2, maxDepth)
		}()
	}
	defer func() {
		halt.Store(true)
		wg.Wait()
	}()

	// Root ordering: the table's move first, then the generator's order;
	// later iterations put the previous best first.
	rootScores := make([]int, len(root))
	if e, ok := a.probe(s.Hash() ^ t.rootKey); ok && e.move != game.NoMove {
		moveToFront(root, rootScores, e.move)
	}
	var res Result
	res.Move = root[0]
	for depth := 1; depth <= maxDepth; depth++ {
		best, score, done := t.searchRoot(root, rootScores, depth, a.RootTemperature > 0)
		if !done {
			// An interrupted iteration still counts when it proved a move
			// at least as good as the previous best, which it searched
			// first.
			if best != game.NoMove {
				res.Move, res.Score = best, ScoreOf(score)
				if res.Depth == 0 {
					res.Depth = depth
				}
			}
			break
		}
		res.Move, res.Score, res.Depth = best, ScoreOf(score), depth
		res.PV = t.pv(best, depth)
		res.Nodes, res.Elapsed = t.nodes+shared.Load(), time.Since(start)
		if report != nil {
			report(Progress{Depth: depth, Score: res.Score, Nodes: res.Nodes, Elapsed: res.Elapsed, PV: append([]game.Move(nil), res.PV...)})
		}
		if IsMate(score) && WinScore-abs(score) <= depth && a.RootTemperature <= 0 {
			break // proven within the horizon: deeper search changes nothing
		}
		if len(root) == 1 && a.RootTemperature <= 0 && depth >= 2 {
			break
		}
		if lim.Time > 0 && time.Since(start) > lim.Time/2 {
			break // the next iteration would not finish
		}
	}
	halt.Store(true)
	wg.Wait()
	if a.RootTemperature > 0 && res.Depth > 0 {
		i := softPick(a.rng, rootScores, a.RootTemperature)
		if root[i] != res.Move {
			res.Move, res.Score = root[i], ScoreOf(rootScores[i])
			res.PV = []game.Move{root[i]}
		}
	}
	if len(res.PV) == 0 || res.PV[0] != res.Move {
		res.PV = []game.Move{res.Move}
	}
	res.Nodes, res.Elapsed = t.nodes+shared.Load(), time.Since(start)
	return res, nil
}

// begin prepares the main thread for a search of pos within lim and
// returns it with the deepest iteration the limits allow.
func (a *AlphaBeta) begin(ctx context.Context, pos Position, start time.Time, lim Limits, shared *atomic.Int64) (*abThread, int) {
	if a.main == nil {
		a.main = &abThread{a: a}
	}
	a.main.prepare(ctx, pos, start, lim, shared)
	maxDepth := maxPly - 1
	if lim.Depth > 0 {
		maxDepth = min(lim.Depth, maxDepth)
	}
	return a.main, maxDepth
}

// helpSearch is a helper thread's search: iterative deepening from depth
// first, its results left in the shared table, until halted.
func (t *abThread) helpSearch(root []game.Move, first, maxDepth int) {
	scores := make([]int, len(root))
	// A helper orders the root differently from the main thread, so that
	// the two explore different moves first.
	for i := len(root) - 1; i > 0; i-- {
		j := int(mix(uint64(i)+uint64(first)<<32) % uint64(i+1))
		root[i], root[j] = root[j], root[i]
	}
	for depth := first; depth <= maxDepth; depth++ {
		if _, _, done := t.searchRoot(root, scores, depth, false); !done {
			break
		}
	}
	t.flush()
}

// flush adds the nodes counted since the last flush to the shared count.
func (t *abThread) flush() {
	if t.shared != nil && t.halt != nil {
		t.shared.Add(t.nodes - t.flushed)
		t.flushed = t.nodes
	}
}

func moveToFront(moves []game.Move, scores []int, m game.Move) {
	for i, x := range moves {
		if x == m {
			copy(moves[1:i+1], moves[:i])
			copy(scores[1:i+1], scores[:i])
			moves[0] = m
			return
		}
	}
}

// prepare sets up the per-search state.
func (a *abThread) prepare(ctx context.Context, pos Position, start time.Time, lim Limits, shared *atomic.Int64) {
	s := pos.State
	a.shared, a.halt, a.flushed = shared, nil, 0
	a.ctx = ctx
	a.sd = newSides(s)
	a.rootKey = 0
	if !a.sd.exact() {
		a.rootKey = mix(uint64(a.sd.root) + 1)
	}
	a.s = s.Clone()
	a.undoer, _ = a.s.(game.Undoer)
	a.stack = a.stack[:0]
	if a.moves == nil {
		n := s.Game().MaxMoves()
		a.moves = make([][]game.Move, maxPly+1)
		a.scores = make([][]int32, maxPly+1)
		for i := range a.moves {
			a.moves[i] = make([]game.Move, 0, n)
			a.scores[i] = make([]int32, 0, n)
		}
	}
	a.path = append(a.path[:0], pos.Prior...)
	a.nodes = 0
	a.maxNodes = lim.Nodes
	a.stopAt = deadline(ctx, start, lim)
	a.stopped = false
	a.repeats = s.Game().Repetition() > 0
	for i := range a.hist {
		for j := range a.hist[i] {
			a.hist[i][j] /= 8
		}
	}
	a.killers = [maxPly][2]game.Move{}
}

func mix(x uint64) uint64 {
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// searchRoot searches every root move to depth and reorders root by score.
// It returns the best move and its score, and whether the iteration
// finished; an unfinished iteration still returns a move when one was
// proven better than the previous best (or NoMove).
func (a *abThread) searchRoot(root []game.Move, rootScores []int, depth int, exactAll bool) (game.Move, int, bool) {
	alpha, beta := -inf, inf
	best := game.NoMove
	bestScore := -inf
	a.path = append(a.path, a.s.Hash())
	defer func() { a.path = a.path[:len(a.path)-1] }()
	for i, m := range root {
		c := a.apply(m, 0)
		var v int
		friend := a.sd.friend(c.ToMove())
		lo := alpha
		if exactAll {
			lo = -inf
		}
		if i == 0 || exactAll {
			v = a.child(c, friend, depth-1, 1, lo, beta)
		} else {
			v = a.child(c, friend, depth-1, 1, alpha, alpha+1)
			if v > alpha && !a.stopped {
				v = a.child(c, friend, depth-1, 1, alpha, beta)
			}
		}
		a.unapply()
		if a.stopped {
			return best, bestScore, false
		}
		rootScores[i] = v
		if !exactAll && i > 0 && v <= alpha {
			rootScores[i] = alpha - 1 // an upper bound only
		}
		if v > bestScore {
			best, bestScore = m, v
			if v > alpha {
				alpha = v
			}
		}
	}
	// Stable sort of root moves by score, best first.
	for i := 1; i < len(root); i++ {
		for j := i; j > 0 && rootScores[j] > rootScores[j-1]; j-- {
			root[j], root[j-1] = root[j-1], root[j]
			rootScores[j], rootScores[j-1] = rootScores[j-1], rootScores[j]
		}
	}
	a.store(a.s.Hash()^a.rootKey, best, bestScore, depth, ttExact, 0)
	return best, bestScore, true
}

// child returns the value of position c for the side to move at its
// parent, given whether c's mover plays on the root's side.
func (a *abThread) child(c game.State, childFriend bool, depth, ply, alpha, beta int) int {
	parentFriend := a.sd.friend(a.parentMover(ply))
	if childFriend == parentFriend {
		return a.node(c, childFriend, depth, ply, alpha, beta)
	}
	return -a.node(c, childFriend, depth, ply, -beta, -alpha)
}

// parentMover returns the player who moved at the ply before ply on the
// current line.
func (a *abThread) parentMover(ply int) int { return a.moverAt[ply-1] }

// apply plays m at ply and returns the resulting state.
func (a *abThread) apply(m game.Move, ply int) game.State {
	cur := a.current()
	a.moverAt[ply] = cur.ToMove()
	if a.undoer != nil {
		cur.Apply(m)
		return cur
	}
	c := cur.Clone()
	c.Apply(m)
	a.stack = append(a.stack, c)
	return c
}

func (a *abThread) unapply() {
	if a.undoer != nil {
		a.undoer.Undo()
		return
	}
	a.stack = a.stack[:len(a.stack)-1]
}

func (a *abThread) current() game.State {
	if n := len(a.stack); n > 0 {
		return a.stack[n-1]
	}
	return a.s
}

// checkStop sets a.stopped when a limit is reached: for the main thread
// the node limit (counting every thread's nodes), the time or the context;
// for a helper also the main thread's end.
func (a *abThread) checkStop() {
	if a.halt != nil && a.nodes&63 == 0 && a.halt.Load() {
		a.stopped = true
		return
	}
	if a.maxNodes > 0 && a.nodes+a.shared.Load() >= a.maxNodes {
		a.stopped = true
		return
	}
	if a.nodes&1023 != 0 {
		return
	}
	a.flush()
	if !a.stopAt.IsZero() && time.Now().After(a.stopAt) {
		a.stopped = true
	}
	if a.ctx.Err() != nil {
		a.stopped = true
	}
}

// node returns the value of s for its mover's side (friend tells whether
// that is the root's side), searched to depth.
func (a *abThread) node(s game.State, friend bool, depth, ply, alpha, beta int) int {
	a.nodes++
	a.checkStop()
	if a.stopped {
		return 0
	}
	h := s.Hash()
	if s.Terminal() {
		v := a.sd.outcomeValue(s.Outcome()) * (WinScore - ply)
		if !friend {
			v = -v
		}
		return v
	}
	if a.repeats {
		for i := len(a.path) - 1; i >= 0; i-- {
			if a.path[i] == h {
				return a.repetition(s, friend)
			}
		}
	}
	if ply >= maxPly-1 || depth <= 0 {
		v := a.a.Eval.Evaluate(s, a.sd.root)
		v = max(-maxHeuristic, min(maxHeuristic, v))
		if !friend {
			v = -v
		}
		return v
	}
	key := h ^ a.rootKey
	ttMove := game.NoMove
	if e, ok := a.a.probe(key); ok {
		ttMove = e.move
		if int(e.depth) >= depth {
			v := fromTT(int(e.score), ply)
			switch {
			case e.flag == ttExact,
				e.flag == ttLower && v >= beta,
				e.flag == ttUpper && v <= alpha:
				return v
			}
		}
	}

	moves := s.Legal(a.moves[ply][:0])
	a.moves[ply] = moves
	a.order(ply, moves, ttMove, friend)
	a.path = append(a.path, h)
	a.moverAt[ply] = s.ToMove()
	origAlpha := alpha
	best, bestMove := -inf, game.NoMove
	sideIdx := 0
	if !friend {
		sideIdx = 1
	}
	for i := range moves {
		switch {
		case i < pickFirst || len(moves) <= sortAbove:
			a.pickNext(ply, i)
		case i == pickFirst:
			a.sortRest(ply, i)
		}
		m := moves[i]
		c := a.apply(m, ply)
		cf := a.sd.friend(c.ToMove())
		var v int
		if i == 0 {
			v = a.child(c, cf, depth-1, ply+1, alpha, beta)
		} else {
			v = alpha + 1
			if r := a.a.Reduce; r > 0 && i >= r && depth >= 3 {
				v = a.child(c, cf, depth-2, ply+1, alpha, alpha+1)
			}
			if v > alpha && !a.stopped {
				v = a.child(c, cf, depth-1, ply+1, alpha, alpha+1)
			}
			if v > alpha && v < beta && !a.stopped {
				v = a.child(c, cf, depth-1, ply+1, alpha, beta)
			}
		}
		a.unapply()
		if a.stopped {
			a.path = a.path[:len(a.path)-1]
			return 0
		}
		if v > best {
			best, bestMove = v, m
			if v > alpha {
				alpha = v
			}
			if alpha >= beta {
				if k := &a.killers[ply]; k[0] != m {
					k[1], k[0] = k[0], m
				}
				a.hist[sideIdx][histIndex(m)] += int32(depth * depth)
				break
			}
		}
	}
	a.path = a.path[:len(a.path)-1]
	flag := ttExact
	switch {
	case best <= origAlpha:
		flag = ttUpper
	case best >= beta:
		flag = ttLower
	}
	a.store(key, bestMove, best, depth, flag, ply)
	return best
}

// repetition returns the value of s, a position that repeats one on the
// line, for its mover's side: the game ends by repetition, as the rules
// adjudicate it (a draw in most games; in Pisola the side that tops more
// squares wins). A decided repetition scores as the largest heuristic
// value rather than as a proven result, since the line is only the
// search's guess of the play that leads to it (and the rules want more
// than one return).
func (a *abThread) repetition(s game.State, friend bool) int {
	v := a.sd.outcomeValue(s.Adjudicate(game.ByRepetition)) * maxHeuristic
	if !friend {
		v = -v
	}
	return v
}

func histIndex(m game.Move) int {
	return int(uint32(m) * 0x9E3779B1 >> (32 - 12))
}

// order scores the moves for ordering: the table move, then killers, then
// by the history table.
func (a *abThread) order(ply int, moves []game.Move, ttMove game.Move, friend bool) {
	sc := a.scores[ply][:0]
	side := 0
	if !friend {
		side = 1
	}
	k := a.killers[ply]
	for _, m := range moves {
		var v int32
		switch m {
		case ttMove:
			v = 1 << 30
		case k[0]:
			v = 1 << 29
		case k[1]:
			v = 1<<29 - 1
		default:
			v = a.hist[side][histIndex(m)]
		}
		sc = append(sc, v)
	}
	a.scores[ply] = sc
}

// Move ordering: the first pickFirst moves are picked one at a time (the
// table's move and the killers often end the search of a node before the
// others are needed); in a position of more than sortAbove moves the rest
// are then sorted at once, which saves picking among hundreds of moves
// (Pisola's placing phase) one by one: picking took half the time of a
// Pisola search.
const (
	pickFirst = 4
	sortAbove = 64
)

// pickNext moves the best-scored of moves[i:] to position i.
func (a *abThread) pickNext(ply, i int) {
	moves, sc := a.moves[ply], a.scores[ply]
	b := i
	for j := i + 1; j < len(moves); j++ {
		if sc[j] > sc[b] {
			b = j
		}
	}
	moves[i], moves[b] = moves[b], moves[i]
	sc[i], sc[b] = sc[b], sc[i]
}

// sortRest sorts moves[from:] of ply by score, best first, ties in their
// current order, allocating nothing once the scratch buffers have grown.
func (a *abThread) sortRest(ply, from int) {
	moves, sc := a.moves[ply], a.scores[ply]
	keys := a.sortKeys[:0]
	for j := from; j < len(moves); j++ {
		// Ascending keys: the highest score first, then the lowest index.
		keys = append(keys, uint64(uint32(^sc[j])^1<<31)<<32|uint64(uint32(j)))
	}
	slices.Sort(keys)
	buf := append(a.sortBuf[:0], moves[from:]...)
	for k, key := range keys {
		j := int(uint32(key))
		moves[from+k] = buf[j-from]
		sc[from+k] = ^int32(uint32(key>>32) ^ 1<<31)
	}
	a.sortKeys, a.sortBuf = keys, buf
}

// store writes an entry, preferring deeper results for the same slot.
func (a *abThread) store(key uint64, m game.Move, score, depth int, flag ttFlag, ply int) {
	if old, ok := a.a.probe(key); ok && int(old.depth) > depth && flag != ttExact {
		return
	}
	d := ttData{move: m, score: int32(toTT(score, ply)), depth: int8(min(depth, 127)), flag: flag}.pack()
	e := &a.a.tt[key&a.a.ttMask]
	e.data.Store(d)
	e.check.Store(key ^ d)
}

// toTT converts a mate score from distance-from-root to
// distance-from-node; fromTT converts back.
func toTT(v, ply int) int {
	switch {
	case v > WinScore/2:
		return v + ply
	case v < -WinScore/2:
		return v - ply
	}
	return v
}

func fromTT(v, ply int) int {
	switch {
	case v > WinScore/2:
		return v - ply
	case v < -WinScore/2:
		return v + ply
	}
	return v
}

// pv follows the table from the root after playing first.
func (a *abThread) pv(first game.Move, depth int) []game.Move {
	pv := []game.Move{first}
	c := a.s.Clone()
	c.Apply(first)
	seen := map[uint64]bool{a.s.Hash(): true}
	var buf []game.Move
	for len(pv) < depth && !c.Terminal() {
		h := c.Hash()
		if seen[h] {
			break
		}
		seen[h] = true
		e, ok := a.a.probe(h ^ a.rootKey)
		if !ok || e.move == game.NoMove {
			break
		}
		buf = c.Legal(buf[:0])
		legal := false
		for _, m := range buf {
			if m == e.move {
				legal = true
				break
			}
		}
		if !legal {
			break
		}
		pv = append(pv, e.move)
		c.Apply(e.move)
	}
	return pv
}

// MoveScore is the score of one root move for the player to move at the
// root, from the deepest iteration that scored every move.
type MoveScore struct {
	Move  game.Move
	Score Score
	Depth int
}

// ScoreMoves searches pos within lim and scores every legal move exactly
// for the player to move (in four-player Diam without teams, by the
// paranoid reduction: the mover against the three others), best first.
// It is the analysis of a position: unlike Play, it never settles for a
// bound on a move that is not the best.
func (a *AlphaBeta) ScoreMoves(ctx context.Context, pos Position, lim Limits) ([]MoveScore, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	start := time.Now()
	if lim.IsZero() {
		lim = a.Default
	}
	lim = lim.Budgeted()
	root := pos.State.Legal(nil)
	if len(root) == 0 {
		return nil, ErrNoMoves
	}
	var shared atomic.Int64
	t, maxDepth := a.begin(ctx, pos, start, lim, &shared)
	scores := make([]int, len(root))
	var out []MoveScore
	for depth := 1; depth <= maxDepth; depth++ {
		if _, _, done := t.searchRoot(root, scores, depth, true); !done {
			break
		}
		out = out[:0]
		proven := true
		for i, m := range root {
			out = append(out, MoveScore{Move: m, Score: ScoreOf(scores[i]), Depth: depth})
			proven = proven && IsMate(scores[i])
		}
		if proven || lim.Time > 0 && time.Since(start) > lim.Time/2 {
			break
		}
	}
	if out == nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, errors.New("search: no iteration finished within the limits")
	}
	return out, nil
}
