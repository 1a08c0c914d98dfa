package pogo

import (
	"math/bits"

	"stax/game"
)

// Squares are numbered 0 to 8: a1, b1, c1, a2, ..., c3 (file + 3*rank).
const numSquares = 9

// maxMoves bounds the legal moves of any position: 9 stacks, and at most
// 4 + 4 + 8 destinations for k = 1, 2, 3.
const maxMoves = 6 * 16

// MoveTable is the move rule of one variant as tables: for each block
// size k (1 to 3) and square, the squares the top k pieces of a stack on
// that square can move to. The rules engine and the solver (package solve)
// both move by it. It is read-only.
type MoveTable struct {
	list  [4][numSquares][]uint8
	mask  [4][numSquares]uint16
	count [4][numSquares]uint8 // count[k][sq] = destinations for 1..k pieces
}

// To returns the squares a block of k pieces can reach from sq, in
// ascending order. The slice is shared: do not modify it. The relation is
// symmetric (a block of k pieces reaches b from a exactly when it reaches
// a from b), so it also lists where such a block on sq came from.
func (t *MoveTable) To(k, sq int) []uint8 { return t.list[k][sq] }

// Mask returns the squares of To(k, sq) as a bit mask (bit i for square i).
func (t *MoveTable) Mask(k, sq int) uint16 { return t.mask[k][sq] }

// Count returns the number of moves of blocks of 1 to k pieces from sq:
// the moves of a stack of height k (or more, k being at most 3) on sq.
func (t *MoveTable) Count(k, sq int) int { return int(t.count[k][sq]) }

var movesU, movesNoU = makeMoveTable(true), makeMoveTable(false)

// MoveTableOf returns the move table of the variant with the U-shaped
// move (u) or without.
func MoveTableOf(u bool) *MoveTable {
	if u {
		return &movesU
	}
	return &movesNoU
}

func manhattan(a, b int) int {
	return abs(a%3-b%3) + abs(a/3-b/3)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// makeMoveTable builds the destinations by the Manhattan-distance rule of
// docs/rules.md: k pieces go to squares at distance k, and three pieces
// also to distance 1 (the U move) when u is set.
func makeMoveTable(u bool) MoveTable {
	var t MoveTable
	for k := 1; k <= 3; k++ {
		for from := 0; from < numSquares; from++ {
			for to := 0; to < numSquares; to++ {
				d := manhattan(from, to)
				if d == k || (k == 3 && u && d == 1) {
					t.list[k][from] = append(t.list[k][from], uint8(to))
					t.mask[k][from] |= 1 << to
				}
			}
			t.count[k][from] = t.count[k-1][from] + uint8(len(t.list[k][from]))
		}
	}
	return t
}

// StackMove returns the move of the top k pieces of the stack on from to to.
func StackMove(k, from, to int) game.Move {
	return game.Move(k<<8 | from<<4 | to)
}

func decode(m game.Move) (k, from, to int) {
	return int(m >> 8), int(m>>4) & 15, int(m) & 15
}

// State is a Pogo position. It implements game.State, game.Undoer and
// game.Perfter.
type State struct {
	g      *Game
	height [numSquares]uint8
	bits   [numSquares]uint16 // bit i set: the piece at level i is Black
	top    [2]uint16          // squares topped by White, by Black
	toMove int
	hash   uint64
	undo   []game.Move
}

// init computes the top masks and hash from the stacks.
func (s *State) init() {
	s.top = [2]uint16{}
	s.hash = 0
	for sq := 0; sq < numSquares; sq++ {
		h := int(s.height[sq])
		for l := 0; l < h; l++ {
			s.hash ^= zobrist[sq][l][s.bits[sq]>>l&1]
		}
		if h > 0 {
			s.top[s.bits[sq]>>(h-1)&1] |= 1 << sq
		}
	}
	if s.toMove == Black {
		s.hash ^= zobristBlack
	}
}

// Game returns the variant.
func (s *State) Game() game.Game { return s.g }

// ToMove returns the player to move: White (0) or Black (1).
func (s *State) ToMove() int { return s.toMove }

// Height returns the number of pieces on square sq (0..8).
func (s *State) Height(sq int) int { return int(s.height[sq]) }

// Piece returns the colour (White or Black) of the piece at level l
// (0 = bottom) of square sq.
func (s *State) Piece(sq, l int) int { return int(s.bits[sq] >> l & 1) }

// Stack returns the pieces on square sq as a mask, bit l set when the
// piece at level l (0 = bottom) is Black, and their number.
func (s *State) Stack(sq int) (black uint16, height int) {
	return s.bits[sq], int(s.height[sq])
}

// Tops returns the mask of squares topped by player p (bit sq).
func (s *State) Tops(p int) uint16 { return s.top[p] }

// Destinations returns the mask of squares a block of k pieces can reach
// from sq in this variant.
func (g *Game) Destinations(k, sq int) uint16 { return g.moves.mask[k][sq] }

// Legal appends the legal moves to dst.
func (s *State) Legal(dst []game.Move) []game.Move {
	if s.Terminal() {
		return dst
	}
	d := s.g.moves
	for m := s.top[s.toMove]; m != 0; m &= m - 1 {
		from := bits.TrailingZeros16(m)
		kmax := min(int(s.height[from]), 3)
		for k := 1; k <= kmax; k++ {
			for _, to := range d.list[k][from] {
				dst = append(dst, StackMove(k, from, int(to)))
			}
		}
	}
	return dst
}

// Apply plays a legal move.
func (s *State) Apply(m game.Move) {
	s.make(m)
	s.undo = append(s.undo, m)
}

// Undo takes back the last move applied.
func (s *State) Undo() {
	n := len(s.undo) - 1
	s.unmake(s.undo[n])
	s.undo = s.undo[:n]
}

// make moves the top k pieces of from onto to and passes the turn.
func (s *State) make(m game.Move) {
	k, from, to := decode(m)
	s.shift(k, from, to)
	s.toMove ^= 1
	s.hash ^= zobristBlack
}

// unmake takes back make(m).
func (s *State) unmake(m game.Move) {
	k, from, to := decode(m)
	s.shift(k, to, from)
	s.toMove ^= 1
	s.hash ^= zobristBlack
}

// shift moves the top k pieces of from onto to, updating masks and hash.
func (s *State) shift(k, from, to int) {
	hf, ht := int(s.height[from]), int(s.height[to])
	base := hf - k
	block := s.bits[from] >> base & (1<<k - 1)
	for i := 0; i < k; i++ {
		c := block >> i & 1
		s.hash ^= zobrist[from][base+i][c] ^ zobrist[to][ht+i][c]
	}
	s.bits[from] &= 1<<base - 1
	s.height[from] = uint8(base)
	s.bits[to] |= block << ht
	s.height[to] = uint8(ht + k)
	fbit, tbit := uint16(1)<<from, uint16(1)<<to
	s.top[0] &^= fbit | tbit
	s.top[1] &^= fbit | tbit
	if base > 0 {
		s.top[s.bits[from]>>(base-1)&1] |= fbit
	}
	s.top[block>>(k-1)&1] |= tbit
}

// Clone returns an independent copy.
func (s *State) Clone() game.State { return s.Copy() }

// Copy returns an independent copy as a *State, without undo history.
func (s *State) Copy() *State {
	c := *s
	c.undo = nil
	return &c
}

// Terminal reports whether one colour tops every stack.
func (s *State) Terminal() bool { return s.top[0] == 0 || s.top[1] == 0 }

// Winner returns the colour that tops every stack, or -1 if the game is
// not over.
func (s *State) Winner() int {
	switch {
	case s.top[Black] == 0:
		return White
	case s.top[White] == 0:
		return Black
	}
	return -1
}

// Outcome returns the result of a finished position.
func (s *State) Outcome() game.Outcome {
	switch w := s.Winner(); w {
	case White:
		return game.Decided(2, game.ByRules, "every stack topped by White", White)
	case Black:
		return game.Decided(2, game.ByRules, "every stack topped by Black", Black)
	}
	return game.Outcome{Players: 2}
}

// Adjudicate returns a draw: repetition and the ply cap draw in Pogo.
func (s *State) Adjudicate(reason game.Reason) game.Outcome {
	return game.Drawn(2, reason, "")
}

// Hash returns the Zobrist hash of the position.
func (s *State) Hash() uint64 { return s.hash }

// Perft counts the leaves of the move tree of the given depth, by make and
// unmake with bulk counting at the last ply.
func (s *State) Perft(depth int) uint64 {
	c := *s
	c.undo = nil
	return c.perft(depth)
}

func (s *State) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if s.Terminal() {
		return 0
	}
	d := s.g.moves
	var n uint64
	if depth == 1 {
		for m := s.top[s.toMove]; m != 0; m &= m - 1 {
			from := bits.TrailingZeros16(m)
			n += uint64(d.count[min(int(s.height[from]), 3)][from])
		}
		return n
	}
	for m := s.top[s.toMove]; m != 0; m &= m - 1 {
		from := bits.TrailingZeros16(m)
		kmax := min(int(s.height[from]), 3)
		for k := 1; k <= kmax; k++ {
			for _, to := range d.list[k][from] {
				mv := StackMove(k, from, int(to))
				s.make(mv)
				n += s.perft(depth - 1)
				s.unmake(mv)
			}
		}
	}
	return n
}

// zobrist holds a random key per square, level and colour; the highest
// level is 11, as there are 12 pieces. zobristBlack marks Black to move.
var zobrist, zobristBlack = makeZobrist()

func makeZobrist() (z [numSquares][12][2]uint64, black uint64) {
	next := game.NewKeySource(0x9e3779b97f4a7c15).Next
	for sq := range z {
		for l := range z[sq] {
			z[sq][l][0], z[sq][l][1] = next(), next()
		}
	}
	return z, next()
}
