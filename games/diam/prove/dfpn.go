package prove

import (
	"math/bits"
	"slices"
	"time"

	"stax/game"
	"stax/games/diam"
)

// Questions: a node asks whether its side to move wins (an OR node: the
// side to move is the attacker) or whether it loses (an AND node: the side
// to move defends). A move turns one question into the other.
const (
	askWin  = 0
	askLose = 1
)

// id returns the table identity of a position and question.
func id(key uint64, q int) uint64 { return key | uint64(q)<<questionAt }

// phiDelta turns a question's proof and disproof numbers into the
// numbers of the side to move: phi is the cost of proving that the side
// to move reaches its goal (the attacker wins, or the defender escapes),
// delta of proving that it does not.
func phiDelta(q int, pn, dn uint32) (phi, delta uint32) {
	if q == askWin {
		return pn, dn
	}
	return dn, pn
}

// pnDn is the inverse of phiDelta.
func pnDn(q int, phi, delta uint32) (pn, dn uint32) { return phiDelta(q, phi, delta) }

// settled returns the numbers of a question whose answer is known.
func settled(yes bool) (pn, dn uint32) {
	if yes {
		return 0, inf
	}
	return inf, 0
}

// kid is a move of a node being searched and what is known of the
// position it leads to without looking in the table.
type kid struct {
	move  game.Move
	id    uint64 // the child's position and question
	fixed bool   // pn and dn are final: a finished game, an immediate win, a repetition
	pn    uint32 // the child's numbers: final, or the initial estimate
	dn    uint32
	plies uint32 // the length of the proof, when fixed and proven
	order int    // the evaluation's preference, lower first
}

// worker searches with its own copy of the position, its own path and
// its own move buffers; workers share the solver's table.
type worker struct {
	s     *Solver
	st    *diam.State
	path  []uint64 // ids of the positions on the current line
	count []int    // the number of pieces on the ring at each of them
	kids  [][]kid  // the children of the node at each depth
	moves []game.Move
	nodes int64 // nodes searched, not yet added to the solver's count
	total int64 // nodes searched in all
}

// flushEvery is how many nodes a worker searches between checks of the
// stop flag and updates of the shared node count.
const flushEvery = 1024

func (w *worker) tick() bool {
	w.nodes++
	w.total++
	if w.nodes >= flushEvery {
		n := w.s.nodes.Add(w.nodes)
		w.nodes = 0
		if w.s.stopAt > 0 && n >= w.s.stopAt || !w.s.deadline.IsZero() && time.Now().After(w.s.deadline) {
			w.s.stop.Store(true)
		}
	}
	return w.s.stop.Load()
}

// push and pop keep the current line.
func (w *worker) push(id uint64) {
	w.s.depth.Store(int64(len(w.path) + 1))
	w.path = append(w.path, id)
	w.count = append(w.count, pieces(w.st.Colours()))
}

func (w *worker) pop() {
	w.path = w.path[:len(w.path)-1]
	w.count = w.count[:len(w.count)-1]
}

// onPath reports whether id, a position of n pieces, is on the current
// line. Placements cannot be undone, so only the positions since the last
// one are looked at.
func (w *worker) onPath(id uint64, n int) bool {
	for i := len(w.path) - 1; i >= 0 && w.count[i] == n; i-- {
		if w.path[i] == id {
			return true
		}
	}
	return false
}

// pieces returns the number of pieces on the ring.
func pieces(col [4]uint32) int {
	return bits.OnesCount32(col[0] | col[1] | col[2] | col[3])
}

// expand fills the kids of the current position (whose question is q) at
// depth d, one per position reached (symmetric moves lead to one), sorted
// by the evaluation. It returns early, with done set, when
// a move settles the node at once: a diam that wins for the side to move.
func (w *worker) expand(q, d int) (kids []kid, done bool) {
	for len(w.kids) <= d {
		w.kids = append(w.kids, make([]kid, 0, 32))
	}
	st := w.st
	me := st.ToMove()
	w.moves = st.Legal(w.moves[:0])
	kids = w.kids[d][:0]
	cq := 1 - q
	for _, m := range w.moves {
		st.Apply(m)
		col := st.Colours()
		k := kid{move: m, id: id(keyOf(col, st.ToMove()), cq)}
		if slices.ContainsFunc(kids, func(o kid) bool { return o.id == k.id }) {
			// A move symmetric to an earlier one: the same position.
			st.Undo()
			continue
		}
		if c, _, _, over := st.Diam(); over {
			// The child's side to move wins when the diam is in its colour.
			k.fixed = true
			k.pn, k.dn = settled((c&1 == 1-me) == (cq == askWin))
			if c&1 == me {
				st.Undo()
				w.kids[d] = append(kids[:0], k)
				return w.kids[d], true
			}
		} else if w.onPath(k.id, pieces(col)) {
			// A repetition (a placement never repeats): the attacker
			// has not won by going round.
			k.fixed = true
			k.pn, k.dn = inf, 0
		} else if _, ok := st.WinningMove(); ok {
			k.fixed = true
			k.pn, k.dn = settled(cq == askWin)
			k.plies = 1
		} else {
			k.pn, k.dn, k.order = w.s.estimate(st, cq)
		}
		st.Undo()
		kids = append(kids, k)
	}
	slices.SortStableFunc(kids, func(a, b kid) int { return a.order - b.order })
	w.kids[d] = kids
	return kids, false
}

// values returns the numbers of kid k: final, from the table, or the
// initial estimate; plies is the length of its proof when it is proven.
func (w *worker) values(k *kid) (pn, dn, plies uint32) {
	if k.fixed {
		return k.pn, k.dn, k.plies
	}
	if pn, dn, _, ok := w.s.tt.lookup(k.id); ok {
		if pn == 0 {
			return 0, inf, dn
		}
		return pn, dn, 0
	}
	return k.pn, k.dn, 0
}

// collect computes the node's phi and delta from its kids (question q),
// the kid of least delta, its phi, the second least delta, and the plies
// of the node's proof if it is proven.
func (w *worker) collect(kids []kid, q int) (phi, delta uint32, best int, bestPhi, delta2 uint32, plies uint32) {
	phi, delta2 = inf, inf
	var sum uint64
	best = -1
	var minP, maxP uint32 = inf, 0
	for i := range kids {
		pn, dn, p := w.values(&kids[i])
		cphi, cdelta := phiDelta(1-q, pn, dn)
		if pn == 0 {
			minP, maxP = min(minP, p), max(maxP, p)
		}
		sum += uint64(cphi)
		if cdelta < phi {
			delta2 = phi
			phi, best, bestPhi = cdelta, i, cphi
		} else if cdelta < delta2 {
			delta2 = cdelta
		}
	}
	switch {
	case sum >= inf && sumHasInf(kids, w, q):
		delta = inf
	case sum >= inf:
		delta = inf - 1
	default:
		delta = uint32(sum)
	}
	if phi == 0 || delta == 0 {
		// Settled: the question is proven when its pn is 0.
		pn, _ := pnDn(q, phi, delta)
		if pn == 0 {
			if q == askWin {
				plies = minP + 1
			} else {
				plies = maxP + 1
			}
		}
	}
	return
}

// sumHasInf reports whether some kid's phi is inf (the sum is then inf,
// not merely large).
func sumHasInf(kids []kid, w *worker, q int) bool {
	for i := range kids {
		pn, dn, _ := w.values(&kids[i])
		if cphi, _ := phiDelta(1-q, pn, dn); cphi == inf {
			return true
		}
	}
	return false
}

// childThreshold is the 1+ε rule of df-pn: a child is searched until its
// delta exceeds the second best delta by a quarter.
func childThreshold(delta2, thphi uint32) uint32 {
	t := uint64(delta2) + uint64(delta2)/4
	t = max(t, uint64(delta2)+1)
	return uint32(min(t, uint64(thphi), inf-1))
}

// mid searches the current position, whose id is self and question q,
// until its phi reaches thphi or its delta reaches thdelta, or the search
// stops, and stores its numbers in the table.
func (w *worker) mid(self uint64, q int, thphi, thdelta uint32, d int) {
	if w.tick() {
		return
	}
	start := w.total
	_, _, work, _ := w.s.tt.lookup(self)
	w.push(self)
	defer w.pop()
	kids, done := w.expand(q, d)
	if done {
		w.s.record(self, q, 0, inf, 1, work+1)
		return
	}
	for {
		phi, delta, best, bestPhi, delta2, plies := w.collect(kids, q)
		if phi >= thphi || delta >= thdelta || phi == 0 || delta == 0 || w.s.stop.Load() {
			w.s.record(self, q, phi, delta, plies, work+uint64(w.total-start))
			return
		}
		k := kids[best]
		cthphi := uint32(min(uint64(thdelta)-uint64(delta)+uint64(bestPhi), inf-1))
		cthdelta := childThreshold(delta2, thphi)
		w.st.Apply(k.move)
		w.mid(k.id, 1-q, cthphi, cthdelta, d+1)
		w.st.Undo()
		// The kid buffer of depth d+1 was reused below; ours is intact.
	}
}
