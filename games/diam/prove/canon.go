package prove

import "math/bits"

// A position is canonicalised under the 64 transformations that keep every
// value of Diam's two-player game: the ring's 16 symmetries (8 rotations,
// each with or without a reflection: both keep neighbours neighbours and
// opposite cells opposite), swapping red with yellow, and swapping green
// with blue (a player's two colours play identical roles: the same
// reserve size, the same moves, diams of one colour only). Before that,
// a position with player 2 to move is turned into one with player 1 to
// move by exchanging red with green and yellow with blue, which turns
// every game from it into the same game with the players' names
// exchanged: values are kept for the side to move. Every key therefore
// describes a position with player 1 (red, yellow) to move.

// rotate turns a board (bit 4*cell+level) by r cells clockwise: cell i
// goes to cell i+r.
func rotate(w uint32, r int) uint32 { return bits.RotateLeft32(w, 4*r) }

// reflect mirrors a board: cell i goes to cell -i (mod 8), so cells 0 and
// 4 stay and the others swap in pairs.
func reflect(w uint32) uint32 {
	w = bits.ReverseBytes32(w)            // cell i to 7-i, nibbles swapped within
	w = w>>4&0x0F0F0F0F | w&0x0F0F0F0F<<4 // nibbles back in order
	return bits.RotateLeft32(w, 4)        // 7-i to 8-i
}

// toPlayer1 returns the colours of a position with player 2 to move as
// those of the equivalent position with player 1 to move: red and green
// exchanged, yellow and blue exchanged.
func toPlayer1(col [4]uint32) [4]uint32 { return [4]uint32{col[1], col[0], col[3], col[2]} }

// canonical returns the least image of col (player 1 to move) under the
// 64 transformations, ordered by (red, yellow, green, blue) as unsigned
// numbers once each player's two colours are sorted.
func canonical(col [4]uint32) [4]uint32 {
	var best [4]uint32
	first := true
	for refl := 0; refl < 2; refl++ {
		w := col
		if refl == 1 {
			for c := range w {
				w[c] = reflect(w[c])
			}
		}
		for r := 0; r < 8; r++ {
			a, b, c, d := rotate(w[0], r), rotate(w[2], r), rotate(w[1], r), rotate(w[3], r)
			if a > b {
				a, b = b, a
			}
			if c > d {
				c, d = d, c
			}
			if first || less4(a, b, c, d, best) {
				best = [4]uint32{a, c, b, d}
				first = false
			}
		}
	}
	return best
}

// less4 compares (a, b, c, d) with (best red, yellow, green, blue).
func less4(a, b, c, d uint32, best [4]uint32) bool {
	x := uint64(a)<<32 | uint64(b)
	y := uint64(best[0])<<32 | uint64(best[2])
	if x != y {
		return x < y
	}
	return uint64(c)<<32|uint64(d) < uint64(best[1])<<32|uint64(best[3])
}

// Keys pack a canonical position into 51 bits exactly: the heights of the
// 8 cells as a number in base 5 (19 bits), then the colours of the pieces
// cell by cell, bottom to top, 2 bits each (16 pieces, 32 bits).
const (
	heightBits = 19
	keyBits    = heightBits + 32
	keyMask    = 1<<keyBits - 1
)

// encode packs a position's colours into a key.
func encode(col [4]uint32) uint64 {
	occ := col[0] | col[1] | col[2] | col[3]
	var hs, cs uint64
	shift := 0
	for cell := 7; cell >= 0; cell-- {
		hs = hs*5 + uint64(bits.OnesCount32(occ>>(4*cell)&0xF))
	}
	for cell := 0; cell < 8; cell++ {
		for l := 0; l < 4; l++ {
			bit := uint32(1) << (4*cell + l)
			if occ&bit == 0 {
				break
			}
			var c uint64
			switch {
			case col[0]&bit != 0:
				c = 0
			case col[1]&bit != 0:
				c = 1
			case col[2]&bit != 0:
				c = 2
			default:
				c = 3
			}
			cs |= c << shift
			shift += 2
		}
	}
	return hs | cs<<heightBits
}

// decode unpacks a key into colours; ok is false for a key that no
// position has (a height above 4, more than 16 pieces, or bits left over).
func decode(k uint64) (col [4]uint32, ok bool) {
	if k>>keyBits != 0 {
		return col, false
	}
	hs, cs := k&(1<<heightBits-1), k>>heightBits
	var h [8]int
	n := 0
	for cell := 0; cell < 8; cell++ {
		h[cell] = int(hs % 5)
		hs /= 5
		n += h[cell]
	}
	if hs != 0 || n > 16 || (n < 16 && cs>>(2*n) != 0) {
		return col, false
	}
	for cell := 0; cell < 8; cell++ {
		for l := 0; l < h[cell]; l++ {
			col[cs&3] |= 1 << (4*cell + l)
			cs >>= 2
		}
	}
	for c := range col {
		if bits.OnesCount32(col[c]) > 4 {
			return col, false
		}
	}
	return col, true
}

// keyOf returns the key of the position with colours col and player
// toMove (0 or 1) to move.
func keyOf(col [4]uint32, toMove int) uint64 {
	if toMove == 1 {
		col = toPlayer1(col)
	}
	return encode(canonical(col))
}
