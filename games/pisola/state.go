package pisola

import (
	"math/bits"

	"stax/game"
)

// Moves pack a kind and two squares: a placing holds its two squares in
// reading order, a stack move its origin and destination.
const (
	placeKind game.Move = 1 << 16
	stackKind game.Move = 2 << 16
)

// PlaceMove returns the placing of two pieces on squares a and b (in either
// order).
func PlaceMove(a, b int) game.Move {
	if a > b {
		a, b = b, a
	}
	return placeKind | game.Move(a) | game.Move(b)<<8
}

// StackMove returns the move of the stack on from to to.
func StackMove(from, to int) game.Move {
	return stackKind | game.Move(from) | game.Move(to)<<8
}

func decode(m game.Move) (a, b int) { return int(m & 0xff), int(m >> 8 & 0xff) }

// State is a Pisola position. It implements game.State, game.Undoer and
// game.Perfter.
//
// Each stack is a height and a bit per piece, bottom first (set for Black).
// Sets of squares — occupied, topped by each colour, locked — are uint64
// masks, so generating, counting, making and unmaking moves are a few bit
// operations and allocate nothing.
type State struct {
	g      *Game
	bits   [maxHeight]uint64 // bit i set: the piece at level i is Black
	height [maxHeight]uint8
	occ    uint64    // occupied squares
	top    [2]uint64 // squares topped by White, by Black
	locked uint64    // locked (or roofed) stacks
	toMove int
	moving bool // the moving phase has begun
	hash   uint64
	undo   []undoRecord
}

// undoRecord holds what a move changed. Everything but the two stacks of a
// stack move is restored from the saved masks.
type undoRecord struct {
	m           game.Move
	fromBits    uint64
	toBits      uint64
	fromH, toH  uint8
	moving      bool
	occ, locked uint64
	top         [2]uint64
	hash        uint64
}

// Game returns the variant.
func (s *State) Game() game.Game { return s.g }

// ToMove returns the player to move: White (0) or Black (1).
func (s *State) ToMove() int { return s.toMove }

// Moving reports whether the moving phase has begun.
func (s *State) Moving() bool { return s.moving }

// Hash returns the Zobrist hash of the position: its pieces, locks, phase
// and side to move.
func (s *State) Hash() uint64 { return s.hash }

// Clone returns an independent copy with no moves to undo.
func (s *State) Clone() game.State {
	c := *s
	c.undo = nil
	return &c
}

// Apply plays a legal move.
func (s *State) Apply(m game.Move) {
	s.undo = append(s.undo, undoRecord{})
	s.make(m, &s.undo[len(s.undo)-1])
}

// Undo takes back the last move applied. It panics if there is none.
func (s *State) Undo() {
	n := len(s.undo)
	if n == 0 {
		panic("pisola: Undo without a move to take back")
	}
	s.unmake(&s.undo[n-1])
	s.undo = s.undo[:n-1]
}

// make plays m, saving in u what unmake needs.
func (s *State) make(m game.Move, u *undoRecord) {
	u.m, u.moving, u.occ, u.locked, u.top, u.hash = m, s.moving, s.occ, s.locked, s.top, s.hash
	a, b := decode(m)
	if m&stackKind != 0 {
		u.fromBits, u.fromH, u.toBits, u.toH = s.bits[a], s.height[a], s.bits[b], s.height[b]
		s.moveStack(a, b)
	} else {
		s.place(a, b)
	}
}

// unmake takes back the move saved in u.
func (s *State) unmake(u *undoRecord) {
	a, b := decode(u.m)
	if u.m&stackKind != 0 {
		s.bits[a], s.height[a], s.bits[b], s.height[b] = u.fromBits, u.fromH, u.toBits, u.toH
	} else {
		s.bits[a], s.height[a], s.bits[b], s.height[b] = 0, 0, 0, 0
	}
	s.moving, s.occ, s.locked, s.top, s.hash = u.moving, u.occ, u.locked, u.top, u.hash
	s.toMove ^= 1
}

// place puts a piece of the player to move on the empty squares a and b.
// When the board becomes full the moving phase begins, White to move, and
// every blocked stack locks.
func (s *State) place(a, b int) {
	p := s.toMove
	h := s.hash ^ zobrist.black ^ zobrist.piece[a][0][p] ^ zobrist.piece[b][0][p]
	s.bits[a], s.bits[b] = uint64(p), uint64(p)
	s.height[a], s.height[b] = 1, 1
	m := uint64(1)<<a | uint64(1)<<b
	s.occ |= m
	s.top[p] |= m
	s.toMove ^= 1
	s.hash = h
	if s.occ == s.g.geo.full {
		s.moving = true
		s.hash ^= zobrist.moving
		s.lockAll()
	}
}

// moveStack moves the whole stack on from onto to and locks what that
// blocks.
func (s *State) moveStack(from, to int) {
	hs, hd := int(s.height[from]), int(s.height[to])
	bs := s.bits[from]
	h := s.hash ^ zobrist.black
	for i := 0; i < hs; i++ {
		c := bs >> i & 1
		h ^= zobrist.piece[from][i][c] ^ zobrist.piece[to][hd+i][c]
	}
	s.bits[to] |= bs << hd
	s.height[to] = uint8(hd + hs)
	s.bits[from], s.height[from] = 0, 0
	fb, tb := uint64(1)<<from, uint64(1)<<to
	p := s.toMove
	s.occ = s.occ&^fb | tb
	s.top[p] = s.top[p]&^fb | tb
	s.top[p^1] &^= tb
	s.toMove ^= 1
	s.hash = h
	s.lockFrom(to)
}

// blocked reports whether the unlocked stack on sq has no destination.
func (s *State) blocked(sq int) bool {
	h := int(s.height[sq])
	return h >= s.g.geo.n || s.g.geo.target[sq][h]&^s.locked == 0
}

func (s *State) lock(sq int) {
	s.locked |= uint64(1) << sq
	s.hash ^= zobrist.locked[sq]
}

// lockFrom applies the locking rule after a stack has landed on sq: only
// sq's stack has changed, so only it can lock first, and a newly locked
// square can only block the stacks that reach it. The work list holds the
// squares locked whose effect is still to be seen.
func (s *State) lockFrom(sq int) {
	if !s.blocked(sq) {
		return
	}
	geo := s.g.geo
	var work [maxHeight]uint8
	s.lock(sq)
	work[0] = uint8(sq)
	n := 1
	for n > 0 {
		n--
		y := uint64(1) << work[n]
		for cand := geo.line[work[n]] & s.occ &^ s.locked; cand != 0; cand &= cand - 1 {
			x := bits.TrailingZeros64(cand)
			h := int(s.height[x])
			if h < geo.n && geo.target[x][h]&y != 0 && geo.target[x][h]&^s.locked == 0 {
				s.lock(x)
				work[n] = uint8(x)
				n++
			}
		}
	}
}

// lockAll applies the locking rule to the whole board, repeated until
// nothing changes.
func (s *State) lockAll() {
	for changed := true; changed; {
		changed = false
		for cand := s.occ &^ s.locked; cand != 0; cand &= cand - 1 {
			if x := bits.TrailingZeros64(cand); s.blocked(x) {
				s.lock(x)
				changed = true
			}
		}
	}
}

// computeHash returns the hash of the position from scratch.
func (s *State) computeHash() uint64 {
	var h uint64
	for sq := 0; sq < s.g.geo.nn; sq++ {
		for lv := 0; lv < int(s.height[sq]); lv++ {
			h ^= zobrist.piece[sq][lv][s.bits[sq]>>lv&1]
		}
		if s.locked&(1<<sq) != 0 {
			h ^= zobrist.locked[sq]
		}
	}
	if s.toMove == Black {
		h ^= zobrist.black
	}
	if s.moving {
		h ^= zobrist.moving
	}
	return h
}

// Locked returns the number of locked stacks topped by player p: the roofs
// p has placed in the roofs variant (which may exceed the roofs p has only
// in a finished game; see Score).
func (s *State) Locked(p int) int { return bits.OnesCount64(s.locked & s.top[p]) }

// Score returns player p's score: the squares p tops, or in the roofs
// variant the roofs p has placed (at most the roofs p has).
func (s *State) Score(p int) int {
	if s.g.roofs {
		return min(s.Locked(p), s.g.numRoofs)
	}
	return bits.OnesCount64(s.top[p])
}

// roofsDone reports whether a player has placed all their roofs, which ends
// the game in the roofs variant.
func (s *State) roofsDone() bool {
	r := s.g.numRoofs
	return s.g.roofs && (s.Locked(White) >= r || s.Locked(Black) >= r)
}

// Terminal reports whether the game is over: a player has placed all their
// roofs, or a player cannot move (with end=tomove, the player to move).
func (s *State) Terminal() bool {
	return s.moving && (s.stopped() || !s.canMove(s.toMove))
}

var (
	blockedDetail = [2]string{"White cannot move", "Black cannot move"}
	neitherDetail = "neither player can move"
	roofsDetail   = [2]string{"White placed all their roofs", "Black placed all their roofs"}
	bothDetail    = [2]string{"both placed all their roofs, White moving last", "both placed all their roofs, Black moving last"}
)

// Outcome returns the result of a finished game, with the scores: the
// squares each player tops, or the roofs each has placed.
func (s *State) Outcome() game.Outcome {
	if !s.moving {
		return game.Outcome{Players: 2}
	}
	if s.roofsDone() {
		r := s.g.numRoofs
		w, b := s.Locked(White) >= r, s.Locked(Black) >= r
		var o game.Outcome
		switch mover := s.toMove ^ 1; {
		case w && b:
			o = game.Decided(2, game.ByRules, bothDetail[mover], mover)
		case w:
			o = game.Decided(2, game.ByRules, roofsDetail[White], White)
		default:
			o = game.Decided(2, game.ByRules, roofsDetail[Black], Black)
		}
		s.setScores(&o)
		return o
	}
	var blocked [2]bool
	blocked[s.toMove] = !s.canMove(s.toMove)
	if s.g.endAny {
		blocked[s.toMove^1] = !s.canMove(s.toMove ^ 1)
	}
	switch {
	case blocked[White] && blocked[Black]:
		return s.scored(game.ByRules, neitherDetail)
	case blocked[White]:
		return s.scored(game.ByRules, blockedDetail[White])
	case blocked[Black]:
		return s.scored(game.ByRules, blockedDetail[Black])
	}
	return game.Outcome{Players: 2}
}

// Adjudicate scores the position as the end of the game does: the higher
// score wins and equal scores draw.
func (s *State) Adjudicate(reason game.Reason) game.Outcome {
	return s.scored(reason, "")
}

func (s *State) scored(reason game.Reason, detail string) game.Outcome {
	var o game.Outcome
	switch w, b := s.Score(White), s.Score(Black); {
	case w > b:
		o = game.Decided(2, reason, detail, White)
	case b > w:
		o = game.Decided(2, reason, detail, Black)
	default:
		o = game.Drawn(2, reason, detail)
	}
	s.setScores(&o)
	return o
}

func (s *State) setScores(o *game.Outcome) {
	o.Scores[White], o.Scores[Black] = s.Score(White), s.Score(Black)
	o.HasScores = true
}
