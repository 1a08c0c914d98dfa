package pisola

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"stax/game"
)

// SquareName returns the name of square sq on a board of side n, e.g. "c3".
func SquareName(sq, n int) string {
	return string([]byte{byte('a' + sq%n), byte('1' + sq/n)})
}

// ParseSquare parses a square name such as "c3" on the variant's board.
func (g *Game) ParseSquare(str string) (int, error) {
	n := g.geo.n
	if len(str) == 2 {
		f, r := int(str[0])-'a', int(str[1])-'1'
		if f >= 0 && f < n && r >= 0 && r < n {
			return f + n*r, nil
		}
	}
	return 0, fmt.Errorf("bad square %q; want a file a-%c and a rank 1-%d, e.g. c3", str, 'a'+n-1, n)
}

func (s *State) name(sq int) string { return SquareName(sq, s.g.geo.n) }

// FormatMove writes a move: a placing as its two squares in reading order
// joined by +, e.g. a1+c3; a stack move as its origin and destination
// joined by -, e.g. c3-c5.
func (s *State) FormatMove(m game.Move) string {
	a, b := decode(m)
	if m&stackKind != 0 {
		return s.name(a) + "-" + s.name(b)
	}
	return s.name(a) + "+" + s.name(b)
}

// ParseMove parses a move and checks that it is legal. A placing may name
// its squares in either order. Errors are *game.MoveError; an illegal move's
// wraps game.ErrIllegalMove and says which rule it breaks.
func (s *State) ParseMove(str string) (game.Move, error) {
	fail := func(err error) (game.Move, error) {
		return game.NoMove, &game.MoveError{Input: str, Err: err}
	}
	illegal := func(format string, args ...any) (game.Move, error) {
		return fail(fmt.Errorf("%w: %s", game.ErrIllegalMove, fmt.Sprintf(format, args...)))
	}
	in := strings.TrimSpace(str)
	left, right, placing := strings.Cut(in, "+")
	if !placing {
		var ok bool
		if left, right, ok = strings.Cut(in, "-"); !ok {
			return fail(errors.New("want two squares joined by + to place (e.g. a1+c3) or by - to move a stack (e.g. c3-c5)"))
		}
	}
	a, err := s.g.ParseSquare(left)
	if err != nil {
		return fail(err)
	}
	b, err := s.g.ParseSquare(right)
	if err != nil {
		return fail(err)
	}
	if s.Terminal() {
		return fail(fmt.Errorf("%w: %s", game.ErrGameOver, s.Outcome().Detail))
	}
	geo := s.g.geo
	if placing {
		switch {
		case s.moving:
			return illegal("every piece is placed and stacks are moving; write a move as <from>-<to>, e.g. c3-c5")
		case a == b:
			return illegal("the two pieces go on two different squares")
		case s.occ&(1<<a) != 0:
			return illegal("%s is not empty", s.name(a))
		case s.occ&(1<<b) != 0:
			return illegal("%s is not empty", s.name(b))
		case geo.target[a][1]&(1<<b) != 0 && mustBeApart(geo.full&^s.occ):
			return illegal("%s and %s are orthogonally adjacent, which is allowed only when no two empty squares are apart", s.name(a), s.name(b))
		}
		return PlaceMove(a, b), nil
	}
	h := int(s.height[a])
	switch {
	case !s.moving:
		return illegal("pieces are still being placed; write a placing as <square>+<square>, e.g. a1+c3")
	case h == 0:
		return illegal("%s is empty", s.name(a))
	case s.top[s.toMove]&(1<<a) == 0:
		return illegal("%s is topped by %s and %s is to move", s.name(a), s.g.PlayerName(s.toMove^1), s.g.PlayerName(s.toMove))
	case s.locked&(1<<a) != 0:
		return illegal("%s is locked and never moves again", s.name(a))
	case a == b:
		return illegal("a stack must leave its square")
	case geo.line[a]&(1<<b) == 0:
		return illegal("%s and %s are not on one rank or file; stacks move in a straight line", s.name(a), s.name(b))
	case geo.target[a][h]&(1<<b) == 0:
		return illegal("%s holds a stack of height %d, which moves exactly %d %s, and %s is %d away",
			s.name(a), h, h, plural(h, "square", "squares"), s.name(b), distance(a, b, geo.n))
	case s.locked&(1<<b) != 0:
		return illegal("%s is locked and cannot be landed on", s.name(b))
	}
	return StackMove(a, b), nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// distance returns the number of steps between two squares of one rank or
// file.
func distance(a, b, n int) int {
	return max(abs(a%n-b%n), abs(a/n-b/n))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// mark returns the character that shows a locked stack in the variant.
func (g *Game) mark() byte {
	if g.roofs {
		return '^'
	}
	return '*'
}

// String returns the position string: ranks from the highest down, each
// square's pieces bottom to top as w and b (- when empty) with * after a
// locked stack (^ in the roofs variant), then the side to move.
func (s *State) String() string {
	n := s.g.geo.n
	var b strings.Builder
	b.Grow(4 * n * n)
	for r := n - 1; r >= 0; r-- {
		if r < n-1 {
			b.WriteByte('/')
		}
		for f := 0; f < n; f++ {
			if f > 0 {
				b.WriteByte(',')
			}
			sq := f + n*r
			h := int(s.height[sq])
			if h == 0 {
				b.WriteByte('-')
				continue
			}
			for lv := 0; lv < h; lv++ {
				b.WriteByte("wb"[s.bits[sq]>>lv&1])
			}
			if s.locked&(1<<sq) != 0 {
				b.WriteByte(s.g.mark())
			}
		}
	}
	b.WriteByte(' ')
	b.WriteByte("wb"[s.toMove])
	return b.String()
}

// Parse parses a position string into a *State. It accepts exactly the
// positions the rules can reach as far as a position shows it: each player
// has at most their pieces; while pieces are being placed there are only
// single pieces, no locks, and the side to move follows from the counts;
// once all are placed, the locked stacks are exactly those the locking rule
// locks (a position is never normalised: a missing or extra mark is an
// error that names the square). Errors are *game.PositionError.
func (g *Game) Parse(str string) (*State, error) {
	fail := func(format string, args ...any) (*State, error) {
		return nil, &game.PositionError{Game: Info.Name, Input: str, Err: fmt.Errorf(format, args...)}
	}
	geo := g.geo
	n, half := geo.n, geo.nn/2
	fields := strings.Fields(str)
	if len(fields) != 2 {
		return fail("want the board, a space and the side to move (w or b), e.g. %q", g.NewStart().String())
	}
	s := &State{g: g}
	switch fields[1] {
	case "w":
		s.toMove = White
	case "b":
		s.toMove = Black
	default:
		return fail("side to move %q; want w or b", fields[1])
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != n {
		return fail("%d ranks; want %d on the %dx%d board, separated by /", len(ranks), n, n, n)
	}
	var count [2]int
	var marked uint64
	for i, rank := range ranks {
		r := n - 1 - i
		squares := strings.Split(rank, ",")
		if len(squares) != n {
			return fail("rank %d has %d squares; want %d, separated by commas", r+1, len(squares), n)
		}
		for f, sqs := range squares {
			sq := f + n*r
			name := SquareName(sq, n)
			body := sqs
			if k := len(body) - 1; k >= 0 && (body[k] == '*' || body[k] == '^') {
				switch {
				case body[k] == '^' && !g.roofs:
					return fail("%s is marked ^ (roofed), which only the roofs variant writes; a locked stack is marked *", name)
				case body[k] == '*' && g.roofs:
					return fail("%s is marked * (locked), but the roofs variant marks a locked stack with ^", name)
				}
				body = body[:k]
				marked |= 1 << sq
			}
			if body == "-" {
				if marked&(1<<sq) != 0 {
					return fail("%s is empty and marked locked; only a stack can be locked", name)
				}
				continue
			}
			if body == "" {
				return fail("%s is blank; want - for an empty square, or its pieces bottom to top as w and b", name)
			}
			for lv := 0; lv < len(body); lv++ {
				var c int
				switch body[lv] {
				case 'w':
					c = White
				case 'b':
					c = Black
				default:
					return fail("%s is %q; want - for an empty square, or its pieces bottom to top as w and b, then %c if locked", name, sqs, g.mark())
				}
				if count[c]++; count[c] > half {
					return fail("more than %d %s pieces; each player has %d", half, strings.ToLower(g.PlayerName(c)), half)
				}
				s.bits[sq] |= uint64(c) << lv
			}
			s.height[sq] = uint8(len(body))
			s.occ |= 1 << sq
			s.top[s.bits[sq]>>(len(body)-1)&1] |= 1 << sq
		}
	}
	if count[White]+count[Black] < geo.nn {
		// Placing.
		for sq := 0; sq < geo.nn; sq++ {
			if s.height[sq] > 1 {
				return fail("%s holds %d pieces, but stacks form only once all %d pieces are placed (%d are)",
					SquareName(sq, n), s.height[sq], geo.nn, count[White]+count[Black])
			}
		}
		if marked != 0 {
			return fail("%s is marked locked, but nothing locks before all %d pieces are placed", SquareName(bits.TrailingZeros64(marked), n), geo.nn)
		}
		if count[White]%2 != 0 || count[Black]%2 != 0 {
			return fail("White has placed %d pieces and Black %d; each turn places two pieces of one colour, so both numbers are even", count[White], count[Black])
		}
		var want int
		switch count[White] - count[Black] {
		case 0:
			want = White
		case 2:
			want = Black
		default:
			return fail("White has placed %d pieces and Black %d; each turn places two, White first", count[White], count[Black])
		}
		if s.toMove != want {
			return fail("%s to move, but with %d white and %d black pieces placed it is %s's turn",
				g.PlayerName(s.toMove), count[White], count[Black], g.PlayerName(want))
		}
		s.hash = s.computeHash()
		return s, nil
	}
	s.moving = true
	if s.occ == geo.full && s.toMove != White {
		return fail("a full board of single pieces is the start of the moving phase, with White to move")
	}
	// The locks follow from the stacks: see checkLocks.
	s.lockAll()
	if err := s.checkLocks(marked); err != nil {
		return fail("%v", err)
	}
	s.hash = s.computeHash()
	return s, nil
}

// checkLocks compares the locks a position string marks with s.locked,
// those the locking rule gives.
//
// The rule locks a stack when every square its height away is off the
// board or locked, and a locked stack never changes again; so every locked
// stack was locked by a chain of such steps that began at the edge, and the
// locked set of any reachable position is the least fixed point of the rule
// on its board, which is what lockAll computes from no locks.
func (s *State) checkLocks(marked uint64) error {
	geo := s.g.geo
	if diff := marked ^ s.locked; diff != 0 {
		sq := bits.TrailingZeros64(diff)
		h := int(s.height[sq])
		if marked&(1<<sq) != 0 {
			to := bits.TrailingZeros64(geo.target[sq][h] &^ s.locked)
			return fmt.Errorf("%s is marked locked, but its stack of height %d can still reach %s, which nothing locks", s.name(sq), h, s.name(to))
		}
		if h >= geo.n {
			return fmt.Errorf("%s holds %d pieces, at least the board's side, so it can never move and must be marked %c", s.name(sq), h, s.g.mark())
		}
		return fmt.Errorf("%s holds a stack of height %d that has no destination (every square %d away is off the board or locked), so it must be marked %c",
			s.name(sq), h, h, s.g.mark())
	}
	return nil
}
