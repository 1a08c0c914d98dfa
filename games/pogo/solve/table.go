package solve

import (
	"context"
	"fmt"
	"math/bits"
	"sync"

	"stax/game"
	"stax/games/pogo"
)

// Pieces is the number of pieces each side has in Pogo.
const Pieces = 6

// Verdict is the value of a position or a move for the player concerned:
// a win or a loss in a number of plies under perfect play (the winner
// hurrying, the loser holding out), or a draw.
type Verdict struct {
	// Result is game.Win, game.Loss or game.Draw.
	Result game.Result
	// Plies is the distance to the end of the game under perfect play; 0
	// for a draw.
	Plies int
}

// String writes the verdict as "win in 5", "loss in 4" or "draw".
func (v Verdict) String() string {
	if v.Result == game.Draw {
		return "draw"
	}
	return fmt.Sprintf("%s in %d", v.Result, v.Plies)
}

// Better reports whether v is better than w for the player it belongs to:
// a win beats a draw beats a loss, a quicker win beats a slower one and a
// slower loss a quicker one.
func (v Verdict) Better(w Verdict) bool {
	rank := func(v Verdict) int {
		switch v.Result {
		case game.Win:
			return 1000 - v.Plies
		case game.Loss:
			return -1000 + v.Plies
		}
		return 0
	}
	return rank(v) > rank(w)
}

// Next returns the verdict of a move for the player who makes it, given
// the verdict of the position it leads to for the opponent.
func (v Verdict) Next() Verdict {
	switch v.Result {
	case game.Win:
		return Verdict{Result: game.Loss, Plies: v.Plies + 1}
	case game.Loss:
		return Verdict{Result: game.Win, Plies: v.Plies + 1}
	}
	return v
}

// verdictOf decodes a stored value.
func verdictOf(v uint8) Verdict {
	switch {
	case v == undecided:
		return Verdict{Result: game.Draw}
	case v == unreachable:
		return Verdict{Result: game.Win}
	case (v-1)%2 == 0:
		return Verdict{Result: game.Loss, Plies: int(v - 1)}
	}
	return Verdict{Result: game.Win, Plies: int(v - 1)}
}

// Table holds the value of every Pogo position of one variant: whether
// the side to move wins, loses or draws, and in how many plies.
type Table struct {
	u   bool
	x   *indexer
	ms  *pogo.MoveTable
	val []uint8
}

// indexers caches the index tables, which depend only on the number of
// pieces.
var indexers struct {
	sync.Mutex // guards x
	x          [Pieces + 1]*indexer
}

func indexerFor(n int) *indexer {
	indexers.Lock()
	defer indexers.Unlock()
	if indexers.x[n] == nil {
		indexers.x[n] = newIndexer(n)
	}
	return indexers.x[n]
}

// Options are the choices of a solve.
type Options struct {
	// U selects the variant with the U-shaped move (pogo's u option).
	U bool
	// Workers is the number of goroutines solving; 0 means one per CPU.
	Workers int
	// Progress, when not nil, is told of the solve's progress.
	Progress func(Progress)
}

// Solve computes the table of the variant opt.U. It stops soon after ctx
// is cancelled, returning ctx's error.
func Solve(ctx context.Context, opt Options) (*Table, error) {
	return solveN(ctx, Pieces, opt)
}

// solveN solves the game with n pieces a side, a smaller game with the
// same rules that the tests solve in full.
func solveN(ctx context.Context, n int, opt Options) (*Table, error) {
	x := indexerFor(n)
	ms := pogo.MoveTableOf(opt.U)
	val, err := retro(ctx, x, ms, opt.Workers, opt.Progress)
	if err != nil {
		return nil, err
	}
	return &Table{u: opt.U, x: x, ms: ms, val: val}, nil
}

// U reports whether the table is of the variant with the U-shaped move.
func (t *Table) U() bool { return t.u }

// Pieces returns the number of pieces a side of the game the table
// solves: Pieces for Pogo, fewer for the smaller games of the tests.
func (t *Table) Pieces() int { return t.x.n }

// Positions returns the number of positions the table stores: one per
// class of positions equal under the symmetries of the square.
func (t *Table) Positions() int { return len(t.val) }

// fromState converts a Pogo position into the solver's form with White to
// move.
func fromState(s *pogo.State) pos {
	var p pos
	swap := s.ToMove() == pogo.Black
	for sq := 0; sq < numSquares; sq++ {
		h := s.Height(sq)
		p.h[sq] = uint8(h)
		for l := 0; l < h; l++ {
			c := s.Piece(sq, l)
			if swap {
				c ^= 1
			}
			p.b[sq] |= uint16(c) << l
		}
	}
	return p
}

// Verdict returns the value of s for the side to move. A position whose
// side to move tops every stack is a finished game they have won: a win in
// 0; one where they top nothing is a loss in 0.
func (t *Table) Verdict(s *pogo.State) Verdict {
	p := fromState(s)
	idx, _ := t.x.index(&p, false)
	return verdictOf(t.val[idx])
}

// MoveVerdict is a legal move with its value for the player who makes it.
type MoveVerdict struct {
	Move    game.Move
	Verdict Verdict
	// Refutations counts the opponent's replies, in the position the move
	// leads to, that lose for them: the ways an imperfect opponent can go
	// wrong.
	Refutations int
}

// Moves returns every legal move of s with its verdict, in the order of
// s.Legal.
func (t *Table) Moves(s *pogo.State) []MoveVerdict {
	var out []MoveVerdict
	c := s.Copy()
	for _, m := range s.Legal(nil) {
		c.Apply(m)
		v := t.Verdict(c).Next()
		out = append(out, MoveVerdict{Move: m, Verdict: v, Refutations: t.losingMoves(c)})
		c.Undo()
	}
	return out
}

// losingMoves counts the moves of s that lose for the side to move.
func (t *Table) losingMoves(s *pogo.State) int {
	p := fromState(s)
	n := 0
	t.successors(&p, func(idx uint32) {
		if verdictOf(t.val[idx]).Result == game.Win {
			n++
		}
	})
	return n
}

// successors calls f with the index of the position after each legal move
// of p (White to move), seen from the opponent's side.
func (t *Table) successors(p *pos, f func(idx uint32)) {
	white, black := tops(p)
	if white == 0 || black == 0 {
		return
	}
	for m := white; m != 0; m &= m - 1 {
		from := bits.TrailingZeros16(m)
		hf, bf := p.h[from], p.b[from]
		for k := uint8(1); k <= min(hf, 3); k++ {
			base := hf - k
			block := bf >> base
			p.h[from] = base
			p.b[from] = bf & (1<<base - 1)
			for _, to := range t.ms.To(int(k), from) {
				ht, bt := p.h[to], p.b[to]
				p.h[to] = ht + k
				p.b[to] = bt | block<<ht
				idx, _ := t.x.index(p, true)
				f(idx)
				p.h[to], p.b[to] = ht, bt
			}
		}
		p.h[from], p.b[from] = hf, bf
	}
}

// Stats summarises a table over every arrangement of the pieces with White
// to move, symmetric images counted separately.
type Stats struct {
	Positions   int64 // all arrangements: C(20,8) * C(12,6) for Pogo
	Wins        int64 // won by the side to move
	Losses      int64 // lost by the side to move (including those already over)
	Draws       int64
	Unreachable int64 // the side to move already tops every stack
	// LongestWin is the greatest distance of a win, and LongestWinAt one
	// position (White to move) that needs it.
	LongestWin   int
	LongestWinAt string
}

// Stats counts the table's wins, losses, draws and unreachable positions.
func (t *Table) Stats() Stats {
	x := t.x
	st := Stats{Positions: int64(x.size)}
	var longest uint32
	for i := range x.canon {
		cl := &x.canon[i]
		var p pos
		p.h = x.layoutHeights(cl.layout)
		for j := uint32(0); j < cl.count; j++ {
			idx := cl.base + j
			c := uint16(j)
			if cl.list != nil {
				c = cl.list[j]
				x.split(&p, x.colourWord[c])
			}
			n := int64(x.orbit(&p, cl, c))
			v := t.val[idx]
			switch verdictOf(v).Result {
			case game.Draw:
				st.Draws += n
			case game.Loss:
				st.Losses += n
			default:
				if v == unreachable {
					st.Unreachable += n
					continue
				}
				st.Wins += n
				if d := int(v - 1); d > st.LongestWin {
					st.LongestWin, longest = d, idx
				}
			}
		}
	}
	if st.LongestWin > 0 {
		st.LongestWinAt = t.positionString(longest)
	}
	return st
}

// positionString writes the position of index idx, White to move.
func (t *Table) positionString(idx uint32) string {
	p := t.x.decode(idx)
	return posString(&p)
}

// posString writes p as a position string with White to move.
func posString(p *pos) string {
	var b []byte
	for r := 2; r >= 0; r-- {
		for f := 0; f < 3; f++ {
			sq := 3*r + f
			if f > 0 {
				b = append(b, ',')
			}
			if p.h[sq] == 0 {
				b = append(b, '-')
			}
			for l := uint8(0); l < p.h[sq]; l++ {
				b = append(b, "wb"[p.b[sq]>>l&1])
			}
		}
		if r > 0 {
			b = append(b, '/')
		}
	}
	return string(b) + " w"
}

// Best returns the move a perfect player makes in s, with the verdicts of
// every move: the quickest win, else a draw, else the slowest loss; among
// moves of equal verdict, the one that leaves the opponent the most
// replies that lose, so that an imperfect opponent has the most ways to go
// wrong. It returns false when s has no legal move.
func (t *Table) Best(s *pogo.State) (MoveVerdict, []MoveVerdict, bool) {
	moves := t.Moves(s)
	if len(moves) == 0 {
		return MoveVerdict{}, nil, false
	}
	best := moves[0]
	for _, m := range moves[1:] {
		if m.Verdict.Better(best.Verdict) || (m.Verdict == best.Verdict && m.Refutations > best.Refutations) {
			best = m
		}
	}
	return best, moves, true
}

// Reach counts the classes of positions (colours normalised so that White
// is to move, symmetric images together) that can arise in play from a
// position, by their verdict for the side to move.
type Reach struct {
	Classes, Wins, Losses, Draws int64
}

// Reachable explores every position that can arise from s and counts them
// by verdict. It visits each class once, so it takes about as long as a
// solve.
func (t *Table) Reachable(s *pogo.State) Reach {
	p := fromState(s)
	first, _ := t.x.index(&p, false)
	seen := make([]uint64, (len(t.val)+63)/64)
	seen[first/64] |= 1 << (first % 64)
	queue := []uint32{first}
	var r Reach
	for len(queue) > 0 {
		idx := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		r.Classes++
		switch verdictOf(t.val[idx]).Result {
		case game.Win:
			r.Wins++
		case game.Loss:
			r.Losses++
		default:
			r.Draws++
		}
		q := t.x.decode(idx)
		t.successors(&q, func(i uint32) {
			if seen[i/64]>>(i%64)&1 == 0 {
				seen[i/64] |= 1 << (i % 64)
				queue = append(queue, i)
			}
		})
	}
	return r
}
