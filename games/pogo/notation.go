package pogo

import (
	"errors"
	"fmt"
	"strings"

	"stax/game"
)

// SquareName returns the name of square sq, e.g. "a1".
func SquareName(sq int) string {
	return string([]byte{byte('a' + sq%3), byte('1' + sq/3)})
}

// ParseSquare parses a square name a1..c3.
func ParseSquare(s string) (int, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'c' || s[1] < '1' || s[1] > '3' {
		return 0, false
	}
	return int(s[0]-'a') + 3*int(s[1]-'1'), true
}

// String returns the position string, e.g. "bb,bb,bb/-,-,-/ww,ww,ww w".
func (s *State) String() string {
	var b strings.Builder
	for r := 2; r >= 0; r-- {
		for f := 0; f < 3; f++ {
			sq := 3*r + f
			if f > 0 {
				b.WriteByte(',')
			}
			if s.height[sq] == 0 {
				b.WriteByte('-')
			}
			for l := 0; l < int(s.height[sq]); l++ {
				b.WriteByte("wb"[s.bits[sq]>>l&1])
			}
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	b.WriteByte(' ')
	b.WriteByte("wb"[s.toMove])
	return b.String()
}

// Parse parses a position string of this variant.
func (g *Game) Parse(str string) (*State, error) {
	fail := func(format string, args ...any) (*State, error) {
		return nil, &game.PositionError{Game: "pogo", Input: str, Err: fmt.Errorf(format, args...)}
	}
	board, side, ok := strings.Cut(strings.TrimSpace(str), " ")
	if !ok {
		return fail("missing side to move; want the board, a space, then w or b")
	}
	s := &State{g: g}
	switch strings.TrimSpace(side) {
	case "w":
		s.toMove = White
	case "b":
		s.toMove = Black
	default:
		return fail("side to move %q; want w or b", side)
	}
	ranks := strings.Split(board, "/")
	if len(ranks) != 3 {
		return fail("%d ranks; want 3 separated by /", len(ranks))
	}
	var count [2]int
	for i, rank := range ranks {
		r := 2 - i
		squares := strings.Split(rank, ",")
		if len(squares) != 3 {
			return fail("rank %d has %d squares; want 3 separated by ,", r+1, len(squares))
		}
		for f, cell := range squares {
			sq := 3*r + f
			if cell == "-" {
				continue
			}
			if cell == "" {
				return fail("square %s is blank; want its pieces (w, b) bottom to top, or - when empty", SquareName(sq))
			}
			if len(cell) > 12 {
				return fail("square %s holds %d pieces; there are only 12", SquareName(sq), len(cell))
			}
			for l, c := range []byte(cell) {
				switch c {
				case 'w':
					count[White]++
				case 'b':
					count[Black]++
					s.bits[sq] |= 1 << l
				default:
					return fail("square %s: unexpected %q; want w or b for each piece, or - when empty", SquareName(sq), c)
				}
			}
			s.height[sq] = uint8(len(cell))
		}
	}
	if count[White] != 6 || count[Black] != 6 {
		return fail("%d white and %d black pieces; want 6 of each", count[White], count[Black])
	}
	s.init()
	return s, nil
}

// FormatMove writes a move as <k><from>-<to>, e.g. 2b1-c2.
func (s *State) FormatMove(m game.Move) string {
	k, from, to := decode(m)
	return fmt.Sprintf("%d%s-%s", k, SquareName(from), SquareName(to))
}

// ParseMove parses a move in <k><from>-<to> notation and checks that it is
// legal, saying why when it is not.
func (s *State) ParseMove(str string) (game.Move, error) {
	fail := func(err error) (game.Move, error) {
		return game.NoMove, &game.MoveError{Input: str, Err: err}
	}
	in := strings.TrimSpace(str)
	src, dst, ok := strings.Cut(in, "-")
	if !ok || len(src) != 3 || src[0] < '1' || src[0] > '3' {
		return fail(errors.New("want <count><from>-<to> with a count of 1 to 3 and squares a1 to c3, e.g. 1a1-a2 or 2b1-c2"))
	}
	k := int(src[0] - '0')
	from, ok1 := ParseSquare(src[1:])
	to, ok2 := ParseSquare(dst)
	if !ok1 || !ok2 {
		return fail(errors.New("squares run from a1 to c3; want <count><from>-<to>, e.g. 1a1-a2"))
	}
	illegal := func(format string, args ...any) (game.Move, error) {
		return fail(fmt.Errorf("%w: %s", game.ErrIllegalMove, fmt.Sprintf(format, args...)))
	}
	if s.Terminal() {
		return fail(game.ErrGameOver)
	}
	me := s.g.PlayerName(s.toMove)
	h := int(s.height[from])
	switch {
	case h == 0:
		return illegal("%s is empty", SquareName(from))
	case s.top[s.toMove]>>from&1 == 0:
		return illegal("the top piece of %s is not %s's", SquareName(from), me)
	case k > h:
		return illegal("%s holds %d piece(s); %s can take at most %d", SquareName(from), h, me, h)
	case s.g.moves.mask[k][from]>>to&1 == 0:
		return illegal("%d piece(s) from %s reach only %s", k, SquareName(from), squareList(s.g.moves.mask[k][from]))
	}
	return StackMove(k, from, to), nil
}

func squareList(mask uint16) string {
	var names []string
	for sq := 0; sq < numSquares; sq++ {
		if mask>>sq&1 != 0 {
			names = append(names, SquareName(sq))
		}
	}
	return strings.Join(names, ", ")
}
