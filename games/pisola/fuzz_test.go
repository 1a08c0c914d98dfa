package pisola_test

import (
	"errors"
	"strings"
	"testing"

	"stax/game"
	"stax/game/gametest"
	"stax/games/pisola"
)

// fuzzVariants are the variants the fuzz targets parse with.
var fuzzVariants = []string{"", "roofs=true", "size=8"}

func FuzzParseState(f *testing.F) {
	for _, seed := range []string{
		"-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,- w", // the start
		fullBoard,                             // the moving phase begins
		midGame,                               // stacks and locks
		strings.ReplaceAll(midGame, "*", "^"), // roofs
		"b,w,b,w,-,-/w,b,w,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/-,-,w,b,w,b w",                                                         // placing
		"-,-,-,-,-,-/-,-,bbbbb*,-,-,-/wwwbwwb*,-,-,-,-,-/-,wwbbbw*,wbbw*,-,-,-/-,-,-,-,bww,-/-,bbwwbbw*,wwwb*,-,-,- b",                      // over
		"b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/b,w,-,-,-,bwbwbw/w,b,w,b,w,b/w,b,w,b,-,- b",                                                    // a missing lock
		"-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/w,w,w,-,-,- w",                                                         // bad counts
		"-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,- w", // 8x8
		"", " ", "w", "-,- w", "-* w", "x/y z", "w,b/b,w b", // malformed
	} {
		f.Add(seed)
	}
	games := make([]*pisola.Game, len(fuzzVariants))
	for i, v := range fuzzVariants {
		games[i] = load(f, v)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, g := range games {
			s, err := g.Parse(in)
			if err != nil {
				var pe *game.PositionError
				if !errors.As(err, &pe) {
					t.Fatalf("Parse(%q) error %T, want *game.PositionError", in, err)
				}
				continue
			}
			str := s.String()
			again, err := g.Parse(str)
			if err != nil || again.String() != str || again.Hash() != s.Hash() {
				t.Fatalf("Parse(%q) = %q, which does not round-trip: %v", in, str, err)
			}
			if s.ComputeHash() != s.Hash() {
				t.Fatalf("Parse(%q): hash %#x, computed %#x", in, s.Hash(), s.ComputeHash())
			}
			moves := s.Legal(nil)
			if uint64(len(moves)) != s.CountMoves() || (len(moves) == 0) != s.Terminal() {
				t.Fatalf("%q: %d moves, count %d, terminal %v", str, len(moves), s.CountMoves(), s.Terminal())
			}
			for _, m := range moves {
				s.Apply(m)
				if p, err := g.Parse(s.String()); err != nil || p.Hash() != s.Hash() {
					t.Fatalf("%q after %s: %q: %v", str, again.FormatMove(m), s, err)
				}
				s.Undo()
			}
			if s.String() != str {
				t.Fatalf("apply and undo changed %q to %q", str, s)
			}
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, seed := range []string{
		"a1+c3", "c3+a1", "a1+a2", "a1+a1", "f6+e6", // placings
		"c3-c5", "b2-b4", "a1-a2", "e6-e3", "c3-c3", // stack moves
		"", "+", "-", "a1", "a1+", "-c5", "a0+c3", "g1-g2", "A1+C3", " a1+c3 ", "a1+c3+e5", "a1-b1-c1", "i9-a1", "💥", // malformed
	} {
		f.Add(seed)
	}
	var states []*pisola.State
	for _, pos := range []struct{ opts, pos string }{
		{"", ""},
		{"", fullBoard},
		{"", midGame},
		{"", "w,w,b,w,-,-/w,b,w,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b b"},
		{"roofs=true", "-,-,bww,-,-,-/-,-,-,wbbbw^,bwbwbbw^,-/bbwbww^,-,-,-,-,b/-,-,b,bwbww^,-,-/-,-,bwwww^,-,-,-/-,-,-,-,wbb,- w"},
		{"size=8", ""},
	} {
		if pos.pos == "" {
			states = append(states, load(f, pos.opts).NewStart())
		} else {
			states = append(states, parse(f, pos.opts, pos.pos))
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, s := range states {
			gametest.CheckParseMove(t, s, in)
		}
	})
}

// TestParseErrors checks that bad positions are refused with a message
// that says what was wrong.
func TestParseErrors(t *testing.T) {
	const empty = "-,-,-,-,-,-"
	tests := []struct {
		opts, in, want string
	}{
		{"", "", "want the board, a space and the side to move"},
		{"", "-,-,-/-,-,-/-,-,- w", "3 ranks; want 6 on the 6x6 board"},
		{"", strings.Repeat(empty+"/", 5) + "-,-,-,-,- w", "rank 1 has 5 squares; want 6"},
		{"", strings.Repeat(empty+"/", 5) + empty + " x", `side to move "x"; want w or b`},
		{"", strings.Repeat(empty+"/", 5) + "-,-,-,-,-,r w", `f1 is "r"; want - for an empty square`},
		{"", strings.Repeat(empty+"/", 5) + "-,-,-,-,-, w", "f1 is blank"},
		{"", strings.Repeat(empty+"/", 5) + "-*,-,-,-,-,- w", "a1 is empty and marked locked"},
		{"", strings.Repeat(empty+"/", 5) + "w^,-,-,-,-,- w", "a1 is marked ^ (roofed), which only the roofs variant writes"},
		{"roofs=true", strings.Repeat(empty+"/", 5) + "w*,-,-,-,-,- w", "a1 is marked * (locked), but the roofs variant marks a locked stack with ^"},
		{"", strings.Repeat("w,w,w,w,w,w/", 3) + strings.Repeat("b,b,b,b,b,b/", 2) + "b,b,b,b,b,w w", "more than 18 white pieces; each player has 18"},
		{"", strings.Repeat(empty+"/", 5) + "w,w,b,-,-,- w", "White has placed 2 pieces and Black 1"},
		{"", strings.Repeat(empty+"/", 4) + "b,b,-,-,-,-/w,w,w,w,w,w w", "White has placed 6 pieces and Black 2; each turn places two, White first"},
		{"", strings.Repeat(empty+"/", 5) + "w,w,b,b,-,- b", "Black to move, but with 2 white and 2 black pieces placed it is White's turn"},
		{"", strings.Repeat(empty+"/", 5) + "w,w,-,-,-,- w", "White to move, but with 2 white and 0 black pieces placed it is Black's turn"},
		{"", strings.Repeat(empty+"/", 5) + "ww,bb,-,-,-,- w", "a1 holds 2 pieces, but stacks form only once all 36 pieces are placed (4 are)"},
		{"", strings.Repeat(empty+"/", 5) + "w*,w,b,b,-,- w", "a1 is marked locked, but nothing locks before all 36 pieces are placed"},
		{"", strings.Replace(fullBoard, " w", " b", 1), "a full board of single pieces is the start of the moving phase, with White to move"},
		{"", "b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/b,w,-,-,-,bwbwbw/w,b,w,b,w,b/w,b,w,b,-,- b",
			"f3 holds 6 pieces, at least the board's side, so it can never move and must be marked *"},
		{"", "-,-,-,b,w,b/bwbwbw*,-,-,w,b,w/-,-,-,b,w,b/bw,-,wbwbwb*,-,-,-/wbwbwb*,-,-,-,-,-/w,bwbwbw*,-,-,-,- b",
			"a1 holds a stack of height 1 that has no destination (every square 1 away is off the board or locked), so it must be marked *"},
		{"", "-,-,-,b,w,b/bwbwbw*,-,-,w,b,w/-,-,-,b,w,b/bw,-,wbwbwb*,-,-,-/wbwbwb*,-,-,-,-,-/w*,bwb*,-,-,wbw,- w",
			"a1 is marked locked, but its stack of height 1 can still reach b1, which nothing locks"},
		{"size=8", fullBoard, "6 ranks; want 8 on the 8x8 board"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			_, err := load(t, tt.opts).Parse(tt.in)
			var pe *game.PositionError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse(%q) error = %v; want a *game.PositionError saying %q", tt.in, err, tt.want)
			}
		})
	}
}

// TestParseMoveSyntax checks the errors for moves that are not well formed,
// and that a placing is accepted in either order but written in reading
// order.
func TestParseMoveSyntax(t *testing.T) {
	s := load(t, "").NewStart()
	for _, tt := range []struct{ in, want string }{
		{"", "want two squares joined by +"},
		{"a1", "want two squares joined by +"},
		{"a1+g1", `bad square "g1"; want a file a-f and a rank 1-6`},
		{"a0+c3", `bad square "a0"`},
		{"a1+c3+e5", `bad square "c3+e5"`},
		{"a1+a1", "the two pieces go on two different squares"},
		{"c3-c5", "pieces are still being placed; write a placing as <square>+<square>"},
	} {
		_, err := s.ParseMove(tt.in)
		var me *game.MoveError
		if !errors.As(err, &me) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseMove(%q) error = %v; want a *game.MoveError saying %q", tt.in, err, tt.want)
		}
	}
	a, errA := s.ParseMove("c3+a1")
	b, errB := s.ParseMove("a1+c3")
	if errA != nil || errB != nil || a != b || s.FormatMove(a) != "a1+c3" {
		t.Errorf("c3+a1 and a1+c3: %v %v, %v %v, written %q", a, errA, b, errB, s.FormatMove(a))
	}
	s8 := load(t, "size=8").NewStart()
	if m, err := s8.ParseMove("h8+a1"); err != nil || s8.FormatMove(m) != "a1+h8" {
		t.Errorf("8x8 h8+a1: %v, %v", m, err)
	}
}
