package diam

import (
	"fmt"
	"math/bits"
	"strings"

	"stax/game"
)

// The ring has 8 cells, numbered 0 to 7 in the API (1 to 8 in notation),
// clockwise; cell i is opposite cell i^4. A cell holds up to 4 pieces, at
// levels 0 (bottom) to 3.
const (
	numCells  = 8
	maxHeight = 4
	perColour = 4
)

// Moves pack their kind in bits 6-7: a placement holds the colour in bits
// 3-4 and the cell in bits 0-2; a step holds the direction in bit 5 (set for
// clockwise), the level in bits 3-4 and the cell in bits 0-2.
const (
	kindPlace game.Move = 1 << 6
	kindStep  game.Move = 2 << 6
	kindMask  game.Move = 3 << 6
	cwBit     game.Move = 1 << 5
)

// PassMove is the move of a player who has no other legal move.
const PassMove game.Move = 3 << 6

// PlaceMove returns the move placing a piece of colour c on cell (0..7).
func PlaceMove(c, cell int) game.Move {
	return kindPlace | game.Move(c&3)<<3 | game.Move(cell&7)
}

// StepMove returns the move of the piece at level (0..3) of cell (0..7), with
// every piece above it, one cell clockwise (to cell+1) or counter-clockwise
// (to cell-1).
func StepMove(cell, level int, clockwise bool) game.Move {
	m := kindStep | game.Move(level&3)<<3 | game.Move(cell&7)
	if clockwise {
		m |= cwBit
	}
	return m
}

// neighbour returns the cell one step from cell, clockwise or not.
func neighbour(cell int, clockwise bool) int {
	if clockwise {
		return (cell + 1) & 7
	}
	return (cell + 7) & 7
}

// board is the position without its variant or history: a bitboard per
// colour (bit 4*cell+level), the height of each cell, the side to move,
// the diam that ended the game if any, and the Zobrist hash.
type board struct {
	col    [4]uint32
	h      [numCells]uint8
	toMove uint8
	// won is 0 while no diam stands; else it packs the highest diam:
	// wonFlag, its colour in bits 0-1, its level in bits 2-3 and the
	// lower of its cells in bits 4-5.
	won  uint8
	hash uint64
}

const wonFlag = 0x80

// diam unpacks won: the colour, level and lower cell of the highest diam.
func (b *board) diam() (c, level, cell int) {
	return int(b.won & 3), int(b.won >> 2 & 3), int(b.won >> 4 & 3)
}

// undo is what unmake needs to take back a move.
type undo struct {
	m     game.Move
	k     uint8 // the number of pieces a step moved
	mover uint8
	won   uint8
	hash  uint64
}

// State is a Diam position. It implements game.State, game.Undoer and
// game.Perfter.
type State struct {
	board
	g    *Game
	hist []undo
}

// init computes the heights, the diam and the hash from the bitboards.
func (b *board) init() {
	b.hash = zSide[b.toMove]
	occ := b.col[0] | b.col[1] | b.col[2] | b.col[3]
	for cell := 0; cell < numCells; cell++ {
		b.h[cell] = uint8(bits.OnesCount32(occ >> (4 * cell) & 0xF))
		for c := 0; c < 4; c++ {
			b.hash ^= zNib[c][cell][b.col[c]>>(4*cell)&0xF]
		}
	}
	b.won = 0
	for cell := 0; cell < numCells/2; cell++ {
		b.checkDiam(cell)
	}
}

// checkDiam records the highest diam on the diameter through cell, if it
// is higher than the one recorded.
func (b *board) checkDiam(cell int) {
	o := cell ^ 4
	for c := 0; c < 4; c++ {
		dm := b.col[c] >> (4 * cell) & (b.col[c] >> (4 * o)) & 0xE
		if dm == 0 {
			continue
		}
		l := uint8(bits.Len32(dm) - 1)
		if b.won == 0 || l > b.won>>2&3 {
			b.won = wonFlag | uint8(c) | l<<2 | uint8(min(cell, o))<<4
		}
	}
}

// colourAt returns the colour of the piece at level l of cell (which must
// exist).
func (b *board) colourAt(cell, l int) int {
	bit := uint32(1) << (4*cell + l)
	for c := 0; c < 3; c++ {
		if b.col[c]&bit != 0 {
			return c
		}
	}
	return 3
}

// reserve returns how many pieces of colour c are off the board.
func (b *board) reserve(c int) int {
	return max(perColour-bits.OnesCount32(b.col[c]), 0)
}

// targets returns the number of cells a piece may be placed on.
func (b *board) targets(g *Game) int {
	occ := b.col[0] | b.col[1] | b.col[2] | b.col[3]
	if g.dropAny {
		full := occ & (occ >> 1)
		full &= full >> 2
		return numCells - bits.OnesCount32(full&0x11111111)
	}
	t := occ | occ>>1
	t |= t >> 2
	return numCells - bits.OnesCount32(t&0x11111111)
}

// count returns the number of legal moves of player p other than a pass,
// ignoring whether the game is over.
func (b *board) count(g *Game, p int) int {
	var own uint32
	nc := 0
	for c := 0; c < 4; c++ {
		if g.moveSet[p]>>c&1 != 0 {
			own |= b.col[c]
		}
		if g.placeSet[p]>>c&1 != 0 && bits.OnesCount32(b.col[c]) < perColour {
			nc++
		}
	}
	n := 0
	if nc != 0 {
		n = nc * b.targets(g)
	}
	for cell := 0; own != 0; cell, own = cell+1, own>>4 {
		o := own & 0xF
		if o == 0 {
			continue
		}
		h := int(b.h[cell])
		// A piece at level l carries h-l pieces, so it may go to a
		// neighbour holding hn pieces when l >= h+hn-4.
		tl := max(h+int(b.h[(cell+7)&7])-maxHeight, 0)
		tr := max(h+int(b.h[(cell+1)&7])-maxHeight, 0)
		n += bits.OnesCount32(o>>tl) + bits.OnesCount32(o>>tr)
	}
	return n
}

// someoneElseMoves reports whether a player other than the one to move has
// a move other than a pass.
func (b *board) someoneElseMoves(g *Game) bool {
	for p := 0; p < g.players; p++ {
		if p != int(b.toMove) && b.count(g, p) > 0 {
			return true
		}
	}
	return false
}

// gen appends the moves of the player to move other than a pass:
// placements by colour and cell, then steps by cell, level and direction
// (counter-clockwise first).
func (b *board) gen(g *Game, dst []game.Move) []game.Move {
	p := b.toMove
	occ := b.col[0] | b.col[1] | b.col[2] | b.col[3]
	for c := 0; c < 4; c++ {
		if g.placeSet[p]>>c&1 == 0 || bits.OnesCount32(b.col[c]) >= perColour {
			continue
		}
		for cell := 0; cell < numCells; cell++ {
			nib := occ >> (4 * cell) & 0xF
			if nib == 0 || (g.dropAny && nib != 0xF) {
				dst = append(dst, PlaceMove(c, cell))
			}
		}
	}
	var own uint32
	for c := 0; c < 4; c++ {
		if g.moveSet[p]>>c&1 != 0 {
			own |= b.col[c]
		}
	}
	for cell := 0; own != 0; cell, own = cell+1, own>>4 {
		o := own & 0xF
		if o == 0 {
			continue
		}
		h := int(b.h[cell])
		tl := max(h+int(b.h[(cell+7)&7])-maxHeight, 0)
		tr := max(h+int(b.h[(cell+1)&7])-maxHeight, 0)
		for ; o != 0; o &= o - 1 {
			l := bits.TrailingZeros32(o)
			m := kindStep | game.Move(l)<<3 | game.Move(cell)
			if l >= tl {
				dst = append(dst, m)
			}
			if l >= tr {
				dst = append(dst, m|cwBit)
			}
		}
	}
	return dst
}

// make plays m, which must be legal, and returns what unmake needs.
func (b *board) make(g *Game, m game.Move) undo {
	u := undo{m: m, mover: b.toMove, won: b.won, hash: b.hash}
	switch m & kindMask {
	case kindPlace:
		c, cell := int(m>>3&3), int(m&7)
		hd := b.h[cell]
		b.col[c] |= 1 << (4*cell + int(hd))
		b.hash ^= zNib[c][cell][1<<hd]
		b.h[cell] = hd + 1
		if hd > 0 {
			b.checkDiam(cell)
		}
	case kindStep:
		s, l := int(m&7), int(m>>3&3)
		d := neighbour(s, m&cwBit != 0)
		hd := int(b.h[d])
		k := int(b.h[s]) - l
		km := uint32(1)<<k - 1
		for c := 0; c < 4; c++ {
			blk := b.col[c] >> (4*s + l) & km
			b.col[c] ^= blk<<(4*s+l) | blk<<(4*d+hd)
			b.hash ^= zNib[c][s][blk<<l] ^ zNib[c][d][blk<<hd]
		}
		b.h[s] = uint8(l)
		b.h[d] = uint8(hd + k)
		u.k = uint8(k)
		b.checkDiam(d)
	}
	next := b.toMove + 1
	if int(next) == g.players {
		next = 0
	}
	b.hash ^= zSide[b.toMove] ^ zSide[next]
	b.toMove = next
	return u
}

// unmake takes back the move make returned u for.
func (b *board) unmake(u undo) {
	m := u.m
	switch m & kindMask {
	case kindPlace:
		c, cell := int(m>>3&3), int(m&7)
		hd := b.h[cell] - 1
		b.col[c] &^= 1 << (4*cell + int(hd))
		b.h[cell] = hd
	case kindStep:
		s, l := int(m&7), int(m>>3&3)
		d := neighbour(s, m&cwBit != 0)
		k := int(u.k)
		hd := int(b.h[d]) - k
		km := uint32(1)<<k - 1
		for c := 0; c < 4; c++ {
			blk := b.col[c] >> (4*d + hd) & km
			b.col[c] ^= blk<<(4*d+hd) | blk<<(4*s+l)
		}
		b.h[s] = uint8(l + k)
		b.h[d] = uint8(hd)
	}
	b.won = u.won
	b.toMove = u.mover
	b.hash = u.hash
}

// perft counts the leaves below b, which has no diam, at depth >= 1.
func (b *board) perft(g *Game, depth int) uint64 {
	if depth == 1 {
		if n := b.count(g, int(b.toMove)); n > 0 {
			return uint64(n)
		}
		if b.someoneElseMoves(g) {
			return 1 // a pass
		}
		return 0
	}
	var buf [32]game.Move
	moves := b.gen(g, buf[:0])
	if len(moves) == 0 {
		if !b.someoneElseMoves(g) {
			return 0
		}
		moves = append(moves, PassMove)
	}
	var n uint64
	for _, m := range moves {
		u := b.make(g, m)
		if b.won == 0 {
			n += b.perft(g, depth-1)
		}
		b.unmake(u)
	}
	return n
}

// Game returns the variant.
func (s *State) Game() game.Game { return s.g }

// ToMove returns the player to move (0-based).
func (s *State) ToMove() int { return int(s.toMove) }

// Height returns the number of pieces on cell (0..7).
func (s *State) Height(cell int) int { return int(s.h[cell&7]) }

// Piece returns the colour of the piece at level l (0 = bottom) of cell, or
// -1 if there is none.
func (s *State) Piece(cell, l int) int {
	if l < 0 || l >= s.Height(cell) {
		return -1
	}
	return s.colourAt(cell&7, l)
}

// Reserve returns how many pieces of colour c are not on the board.
func (s *State) Reserve(c int) int { return s.reserve(c & 3) }

// Diam reports the diam that ended the game: its colour, its level (0..3;
// 1 or more) and the lower-numbered of its two cells (0..3). ok is false
// when no diam stands.
func (s *State) Diam() (colour, level, cell int, ok bool) {
	if s.won == 0 {
		return -1, 0, 0, false
	}
	colour, level, cell = s.diam()
	return colour, level, cell, true
}

// Legal appends the legal moves to dst: none when the game is over, PassMove
// alone when the player to move has no other move.
func (s *State) Legal(dst []game.Move) []game.Move {
	if s.won != 0 {
		return dst
	}
	n := len(dst)
	dst = s.gen(s.g, dst)
	if len(dst) == n && s.someoneElseMoves(s.g) {
		dst = append(dst, PassMove)
	}
	return dst
}

// Apply plays a legal move.
func (s *State) Apply(m game.Move) {
	s.hist = append(s.hist, s.make(s.g, m))
}

// Undo takes back the last move applied; a pass too.
func (s *State) Undo() {
	n := len(s.hist) - 1
	s.unmake(s.hist[n])
	s.hist = s.hist[:n]
}

// Clone returns an independent copy.
func (s *State) Clone() game.State { return s.Copy() }

// Copy returns an independent copy as a *State, without undo history.
func (s *State) Copy() *State {
	c := *s
	c.hist = nil
	return &c
}

// Terminal reports whether the game is over: a diam stands, or no player
// has a move other than a pass.
func (s *State) Terminal() bool {
	return s.won != 0 || s.blocked()
}

// blocked reports whether no player has a move other than a pass, which
// docs/rules.md makes a draw. It never holds with at most 4 pieces of each
// colour (see the package doc), but the rules keep it.
func (s *State) blocked() bool {
	return s.count(s.g, int(s.toMove)) == 0 && !s.someoneElseMoves(s.g)
}

// Outcome returns the result of a finished position: the owner (or team)
// of the colour of the highest diam wins; a ring where no one can move is a
// draw.
func (s *State) Outcome() game.Outcome {
	g := s.g
	if s.won == 0 {
		if s.blocked() {
			return game.Drawn(g.players, game.ByRules, "no player can move")
		}
		return game.Outcome{Players: g.players}
	}
	c, level, cell := s.diam()
	if g.teams {
		a := c & 1
		return game.Decided(g.players, game.ByRules, diamDetails[1][c][level][cell], a, a+2)
	}
	return game.Decided(g.players, game.ByRules, diamDetails[0][c][level][cell], g.Owner(c))
}

// diamDetails[teams][colour][level][cell] describes a winning diam in
// words, e.g. "diam at level 3 in red on cells 2 and 6", naming the winning
// team in the team game. The table is built once, so that a game's outcome
// costs no allocation in playouts.
var diamDetails = func() (t [2][4][maxHeight][4]string) {
	for c := range t[0] {
		for level := range t[0][c] {
			for cell := range t[0][c][level] {
				d := fmt.Sprintf("diam at level %d in %s on cells %d and %d",
					level+1, colourNames[c], cell+1, cell+5)
				a := c & 1
				t[0][c][level][cell] = d
				t[1][c][level][cell] = d + fmt.Sprintf(": %s and %s win", colourNames[a], colourNames[a+2])
			}
		}
	}
	return t
}()

// Adjudicate returns a draw: repetition and the ply cap draw in Diam.
func (s *State) Adjudicate(reason game.Reason) game.Outcome {
	return game.Drawn(s.g.players, reason, "")
}

// Hash returns the Zobrist hash of the position: pieces by cell, level and
// colour, and the side to move (reserves follow from the board).
func (s *State) Hash() uint64 { return s.hash }

// Perft counts the leaves of the move tree of the given depth, by make and
// unmake with bulk counting at the last ply. A pass counts as a move.
func (s *State) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if s.won != 0 {
		return 0
	}
	b := s.board
	return b.perft(s.g, depth)
}

// zNib[c][cell][mask] is the XOR of the Zobrist keys of pieces of colour c
// on cell at the levels of mask; zSide[p] marks player p to move (zero for
// player 0).
var zNib, zSide = makeZobrist()

func makeZobrist() (z [4][numCells][16]uint64, side [4]uint64) {
	next := game.NewKeySource(0xd1a3).Next
	for c := range z {
		for cell := range z[c] {
			var key [maxHeight]uint64
			for l := range key {
				key[l] = next()
			}
			for mask := range z[c][cell] {
				for l := range key {
					if mask>>l&1 != 0 {
						z[c][cell][mask] ^= key[l]
					}
				}
			}
		}
	}
	for p := 1; p < 4; p++ {
		side[p] = next()
	}
	return z, side
}

// cellString writes the pieces of cell bottom to top, or "-".
func (b *board) cellString(sb *strings.Builder, cell int) {
	h := int(b.h[cell])
	if h == 0 {
		sb.WriteByte('-')
	}
	for l := 0; l < h; l++ {
		sb.WriteByte(colourLetters[b.colourAt(cell, l)])
	}
}

// Colours returns the position's pieces as one 32-bit board per colour
// (red, green, yellow, blue): bit 4*cell+level is set when that colour's
// piece stands at that level of that cell. Solvers build their keys from
// it.
func (s *State) Colours() [4]uint32 { return s.col }

// WinningMove returns a move with which the player to move makes a diam
// that wins for them at once (the highest diam it leaves is in one of
// their colours, or their team's), and false when there is none. It
// looks only at moves onto a cell whose opposite cell is higher than it
// and at least 2 high, since no other move can make a diam.
func (s *State) WinningMove() (game.Move, bool) {
	if s.won != 0 {
		return 0, false
	}
	b := &s.board
	g := s.g
	p := int(b.toMove)
	var buf [32]game.Move
	for _, m := range b.gen(g, buf[:0]) {
		d := int(m & 7)
		if m&kindMask == kindStep {
			d = neighbour(d, m&cwBit != 0)
		}
		ho := b.h[d^4]
		if ho < 2 || ho <= b.h[d] {
			continue
		}
		u := b.make(g, m)
		win := false
		if b.won != 0 {
			c, _, _ := b.diam()
			win = g.SameTeam(g.Owner(c), p)
		}
		b.unmake(u)
		if win {
			return m, true
		}
	}
	return 0, false
}
