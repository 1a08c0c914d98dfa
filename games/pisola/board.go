package pisola

import "stax/game"

// Squares are numbered file + n*rank from 0 (a1), so that their numbers
// follow the reading order of docs/rules.md: a1 < b1 < ... < a2. A set of
// squares is a uint64 with bit sq set for square sq; an 8x8 board uses all 64 bits.

// maxHeight bounds the height of a stack: the whole 8x8 board in one stack.
const maxHeight = 64

// targetHeights bounds the heights the target table covers. An unlocked
// stack is lower than the board's side, and a stack that has just landed is
// at most 2*(n-1) = 14 high; anything at least n high has no destination.
const targetHeights = 16

// geometry holds the precomputed tables of one board size.
type geometry struct {
	n, nn int
	full  uint64 // every square of the board
	// notLastFile holds the squares whose right-hand neighbour is on the
	// board.
	notLastFile uint64
	// target[sq][h] holds the squares exactly h steps from sq in a straight
	// orthogonal line: the destinations of a stack of height h on sq, before
	// locked squares are taken out. It is empty for h = 0 and h >= n.
	// The relation is symmetric: x is in target[y][h] iff y is in
	// target[x][h].
	target [maxHeight][targetHeights]uint64
	// line[sq] holds the other squares of sq's rank and file: the squares
	// from which a stack can land on sq.
	line [maxHeight]uint64
}

var geo6, geo8 = newGeometry(6), newGeometry(8)

func newGeometry(n int) geometry {
	g := geometry{n: n, nn: n * n}
	for sq := 0; sq < g.nn; sq++ {
		g.full |= 1 << sq
		f, r := sq%n, sq/n
		if f < n-1 {
			g.notLastFile |= 1 << sq
		}
		for h := 1; h < n; h++ {
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				tf, tr := f+d[0]*h, r+d[1]*h
				if tf >= 0 && tf < n && tr >= 0 && tr < n {
					g.target[sq][h] |= 1 << (tf + n*tr)
				}
			}
			g.line[sq] |= g.target[sq][h]
		}
	}
	return g
}

// zobrist holds the random keys of the position hash: one per square, level
// and colour of a piece, one per locked square, one for Black to move and
// one for the moving phase. Both board sizes share it.
var zobrist = newZobrist()

type zobristKeys struct {
	piece  [maxHeight][maxHeight][2]uint64 // [sq][level][colour]
	locked [maxHeight]uint64
	black  uint64
	moving uint64
}

func newZobrist() *zobristKeys {
	next := game.NewKeySource(0x9e3779b97f4a7c15 ^ 0x5049534f4c41).Next // "PISOLA"
	z := &zobristKeys{}
	for sq := range z.piece {
		for lv := range z.piece[sq] {
			z.piece[sq][lv][0] = next()
			z.piece[sq][lv][1] = next()
		}
		z.locked[sq] = next()
	}
	z.black = next()
	z.moving = next()
	return z
}
