package pisola_test

import (
	"errors"
	"strings"
	"testing"

	"stax/game"
	"stax/game/gametest"
	"stax/games/pisola"
)

// load returns the variant of a spec's options, e.g. "size=8,roofs=true".
func load(t testing.TB, opts string) *pisola.Game {
	t.Helper()
	sp, err := game.ParseSpec("pisola(" + opts + ")")
	if err != nil {
		t.Fatal(err)
	}
	g, err := pisola.New(sp.Options)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// parse returns a position of a variant; the test fails on a bad string.
func parse(t testing.TB, opts, pos string) *pisola.State {
	t.Helper()
	s, err := load(t, opts).Parse(pos)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// play applies moves written in notation, checking each is legal.
func play(t testing.TB, s *pisola.State, moves ...string) {
	t.Helper()
	for _, mv := range moves {
		m, err := s.ParseMove(mv)
		if err != nil {
			t.Fatalf("%s: ParseMove(%q): %v", s, mv, err)
		}
		s.Apply(m)
	}
}

// Positions used across the tests, each reachable by the rules.
const (
	// fullBoard is a random-looking full board: the moving phase begins.
	fullBoard = "w,b,b,b,w,w/w,b,b,w,b,b/w,w,w,b,b,w/w,b,w,w,w,b/b,b,w,b,w,w/b,w,b,b,b,w w"
	// midGame has stacks and locked stacks (ply 50 of a random game).
	midGame = "-,bb,bbw,-,-,wbbbwb*/-,-,w,-,-,bb/-,-,-,w,bb,w/ww,bwwwb*,wb,w,-,-/-,bw,wwbbww*,-,-,-/-,-,-,-,-,- w"
)

// conformanceVariants are run through the conformance kit, each with extra
// starting positions in its own variant.
var conformanceVariants = []struct {
	opts      string
	positions []string
}{
	{"", []string{fullBoard}},
	{"roofs=true", []string{fullBoard}},
	{"size=8", nil},
	{"size=8,roofs=true", nil},
	{"maxplies=40", nil},
	{"rep=2", []string{fullBoard}},
}

func TestConformance(t *testing.T) {
	for _, v := range conformanceVariants {
		t.Run("pisola("+v.opts+")", func(t *testing.T) {
			gametest.Run(t, load(t, v.opts), gametest.Config{Positions: v.positions})
		})
	}
}

func TestOptions(t *testing.T) {
	tests := []struct {
		opts                    string
		size, roofs, pieces     int
		roofsOn                 bool
		maxMoves, rep, maxPlies int
	}{
		{"", 6, 6, 18, false, 570, 3, 1000},
		{"size=8", 8, 8, 32, false, 1904, 3, 1000},
		{"roofs=true,rep=0,maxplies=0", 6, 6, 18, true, 570, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.opts, func(t *testing.T) {
			g := load(t, tt.opts)
			if g.Size() != tt.size || g.NumRoofs() != tt.roofs || g.Pieces() != tt.pieces || g.Roofs() != tt.roofsOn ||
				g.MaxMoves() != tt.maxMoves || g.Repetition() != tt.rep || g.MaxPlies() != tt.maxPlies {
				t.Errorf("pisola(%s) = size %d, roofs %d, pieces %d, roofs variant %v, max moves %d, rep %d, maxplies %d; want %+v",
					tt.opts, g.Size(), g.NumRoofs(), g.Pieces(), g.Roofs(), g.MaxMoves(), g.Repetition(), g.MaxPlies(), tt)
			}
		})
	}
	for _, bad := range []string{"size=7", "size=10", "roofs=maybe", "rep=101", "maxplies=-1", "colour=red"} {
		sp, _ := game.ParseSpec("pisola(" + bad + ")")
		if _, err := pisola.New(sp.Options); err == nil {
			t.Errorf("New(%s) succeeded", bad)
		}
	}
}

// TestAdjacency checks the placing rule: the two pieces of a turn are never
// orthogonally adjacent, unless the only empty squares left are two
// adjacent ones.
func TestAdjacency(t *testing.T) {
	// Six empty squares left: d6 e6 f6 and a1 b1 c1.
	six := "w,w,b,-,-,-/w,b,w,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/-,-,-,w,w,b b"
	// Four left, two adjacent pairs: e6 f6 and a1 b1.
	four := "b,w,b,w,-,-/w,b,w,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/-,-,w,b,w,b w"
	// Two adjacent squares left: e6 and f6.
	two := "w,w,b,w,-,-/w,b,w,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b b"
	// Two squares left, apart: f6 and a1.
	apart := "w,w,b,w,b,-/w,b,w,b,w,b/b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/-,w,b,w,w,b b"
	tests := []struct {
		name, pos string
		legal     []string
		illegal   []string
	}{
		{"start", "", []string{"a1+c1", "c1+a1", "a1+b2", "a1+f6"}, []string{"a1+b1", "a1+a2", "c3+c4", "d4+c4"}},
		{"six empty", six, []string{"a1+c1", "a1+d6", "b1+e6"}, []string{"a1+b1", "b1+c1", "d6+e6", "e6+f6"}},
		{"four empty", four, []string{"a1+e6", "b1+f6", "a1+f6"}, []string{"a1+b1", "e6+f6"}},
		{"two adjacent", two, []string{"e6+f6", "f6+e6"}, nil},
		{"two apart", apart, []string{"a1+f6"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := load(t, "")
			s := g.NewStart()
			if tt.pos != "" {
				s = parse(t, "", tt.pos)
			}
			for _, mv := range tt.legal {
				if _, err := s.ParseMove(mv); err != nil {
					t.Errorf("ParseMove(%q) in %s: %v", mv, s, err)
				}
			}
			for _, mv := range tt.illegal {
				_, err := s.ParseMove(mv)
				if !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), "adjacent") {
					t.Errorf("ParseMove(%q) in %s: error %v, want an illegal move for adjacency", mv, s, err)
				}
			}
		})
	}
	// The last placing, of two adjacent squares, begins the moving phase.
	s := parse(t, "", two)
	play(t, s, "f6+e6")
	if !s.Moving() || s.ToMove() != pisola.White || s.Terminal() {
		t.Errorf("after the last placing: %s, moving %v; want the moving phase, White to move", s, s.Moving())
	}
	if got := len(s.Legal(nil)); got == 0 {
		t.Errorf("no moves at the start of the moving phase")
	}
}

// TestTallLocked checks that a stack at least as tall as the board's side
// locks at once, and that one of height side-1 with a destination does
// not.
func TestTallLocked(t *testing.T) {
	// c3 and f3 hold three pieces each (White to move); c3-f3 makes a
	// stack of 6 on f3.
	pos := "b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/b,w,wbw,-,-,bwb/w,b,w,b,w,b/w,b,w,b,-,- w"
	s := parse(t, "", pos)
	play(t, s, "c3-f3")
	want := "b,w,b,w,b,w/w,b,w,b,w,b/b,w,b,w,b,w/b,w,-,-,-,bwbwbw*/w,b,w,b,w,b/w,b,w,b,-,- b"
	if s.String() != want {
		t.Errorf("after c3-f3: %s, want %s", s, want)
	}
	// A parsed position must mark such a stack.
	_, err := load(t, "").Parse(strings.Replace(want, "bwbwbw*", "bwbwbw", 1))
	if err == nil || !strings.Contains(err.Error(), "at least the board's side") {
		t.Errorf("unmarked stack of 6: error %v, want one about the board's side", err)
	}
	// On 8x8 a stack of 6 still moves.
	s8 := parse(t, "size=8", "b,w,b,w,b,w,b,w/w,b,w,b,w,b,w,b/b,w,b,w,b,w,b,w/w,b,w,b,w,b,w,b/b,w,b,w,b,w,b,w/w,b,w,b,w,b,w,b/b,w,wbw,-,-,bwb,w,b/w,b,w,b,w,b,-,- w")
	play(t, s8, "c2-f2")
	if s8.LockedSquares() != 0 {
		t.Errorf("8x8 after c2-f2: %s; want no lock for a stack of 6", s8)
	}
}

// TestLockChain checks that locks repeat to a fixed point: e1-b1 makes a
// stack of 6 on b1, which locks at once; a1's destinations a2 and b1 are
// then both locked, so a1 locks; then a3 (height 2), whose destinations
// are a1, a5 and c3, locks too. Nothing else reaches a3.
func TestLockChain(t *testing.T) {
	before := "-,-,-,b,w,b/bwbwbw*,-,-,w,b,w/-,-,-,b,w,b/bw,-,wbwbwb*,-,-,-/wbwbwb*,-,-,-,-,-/w,bwb,-,-,wbw,- w"
	after := "-,-,-,b,w,b/bwbwbw*,-,-,w,b,w/-,-,-,b,w,b/bw*,-,wbwbwb*,-,-,-/wbwbwb*,-,-,-,-,-/w*,bwbwbw*,-,-,-,- b"
	s := parse(t, "", before)
	hash := s.Hash()
	play(t, s, "e1-b1")
	if s.String() != after {
		t.Errorf("after e1-b1: %s, want %s", s, after)
	}
	if p := parse(t, "", after); p.Hash() != s.Hash() {
		t.Errorf("hash after the chain %#x, parsed %#x", s.Hash(), p.Hash())
	}
	s.Undo()
	if s.String() != before || s.Hash() != hash {
		t.Errorf("undo gives %s, want %s", s, before)
	}
	// The same in the roofs variant: the three stacks locked get White's
	// roofs (all are topped by White), besides a5's before, and Black keeps
	// the two on a2 and c3.
	r := parse(t, "roofs=true", strings.ReplaceAll(before, "*", "^"))
	play(t, r, "e1-b1")
	if got, want := r.String(), strings.ReplaceAll(after, "*", "^"); got != want {
		t.Errorf("roofs, after e1-b1: %s, want %s", got, want)
	}
	if r.Locked(pisola.White) != 4 || r.Locked(pisola.Black) != 2 {
		t.Errorf("roofs placed %d-%d, want 4-2", r.Locked(pisola.White), r.Locked(pisola.Black))
	}
}

// TestLandOnLocked checks that no stack lands on a locked stack, and that a
// locked stack does not move.
func TestLandOnLocked(t *testing.T) {
	s := parse(t, "", "-,-,-,b,w,b/bwbwbw*,-,-,w,b,w/-,-,-,b,w,b/bw,-,wbwbwb*,-,-,-/wbwbwb*,-,-,-,-,-/w,bwb,-,-,wbw,- w")
	for _, tt := range []struct{ move, want string }{
		{"a1-a2", "a2 is locked and cannot be landed on"},
		{"a3-a5", "a5 is locked and cannot be landed on"},
		{"a3-c3", "c3 is locked and cannot be landed on"},
		{"a5-a6", "a5 is locked and never moves again"},
		{"d6-d5", "d6 is topped by Black and White is to move"},
		{"c1-c2", "c1 is empty"},
		{"a1-c1", "a1 holds a stack of height 1, which moves exactly 1 square, and c1 is 2 away"},
		{"e1-d2", "e1 and d2 are not on one rank or file; stacks move in a straight line"},
		{"e1-e3", "e1 holds a stack of height 3, which moves exactly 3 squares, and e3 is 2 away"},
		{"a1+c1", "every piece is placed"},
		{"a1-b1", ""},
		{"a3-a1", ""},
	} {
		m, err := s.ParseMove(tt.move)
		if tt.want == "" {
			if err != nil {
				t.Errorf("ParseMove(%q): %v", tt.move, err)
			}
			continue
		}
		if !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseMove(%q) = %v, %v; want an illegal move: %s", tt.move, m, err, tt.want)
		}
	}
	for _, m := range s.Legal(nil) {
		to := pisola.MoveTo(m)
		if s.LockedSquares()&(1<<to) != 0 {
			t.Errorf("legal move %s lands on a locked stack", s.FormatMove(m))
		}
	}
	// A locked stack topped by the mover does not move either.
	b := parse(t, "", "-,-,-,b,w,b/bwbwbw*,-,-,w,b,w/-,-,-,b,w,b/bw*,-,wbwbwb*,-,-,-/wbwbwb*,-,-,-,-,-/w*,bwbwbw*,-,-,-,- b")
	if _, err := b.ParseMove("a2-a8"); err == nil {
		t.Errorf("a2-a8 accepted")
	}
	if _, err := b.ParseMove("a2-b2"); err == nil || !strings.Contains(err.Error(), "a2 is locked and never moves again") {
		t.Errorf("a2-b2: %v; want a2 locked", err)
	}
}

// TestEnd checks the end when the player to move is blocked: the squares
// each tops are counted, locked stacks included, whoever is blocked.
func TestEnd(t *testing.T) {
	tests := []struct {
		name, pos, result, detail string
		scores                    [2]int
	}{
		{"blocked loses", "-,-,-,-,-,-/-,-,bbbbb*,-,-,-/wwwbwwb*,-,-,-,-,-/-,wwbbbw*,wbbw*,-,-,-/-,-,-,-,bww,-/-,bbwwbbw*,wwwb*,-,-,- b",
			"1-0", "Black cannot move", [2]int{4, 3}},
		{"blocked wins", "-,-,-,bwbwbb*,wwwwbwbb*,-/-,-,-,wbwwb*,-,-/bbbw,-,wbbb*,-,-,-/wwwbw,-,-,-,-,-/-,-,-,-,-,-/-,-,bbww,-,-,- b",
			"0-1", "Black cannot move", [2]int{3, 4}},
		// White tops only locked stacks; Black could still move c1-c4, but
		// the game is over and the scores are equal.
		{"equal scores draw", "-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/bwbwwbww*,bwbbw*,-,-,-,-/-,-,-,-,wwbwb*,bbwbwbbb*/-,-,wbb,-,bwbwwww*,- w",
			"1/2-1/2", "White cannot move", [2]int{3, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := parse(t, "", tt.pos)
			o := s.Outcome()
			if !s.Terminal() || len(s.Legal(nil)) != 0 || o.Reason != game.ByRules || o.ResultString() != tt.result ||
				o.Detail != tt.detail || !o.HasScores || o.Scores[pisola.White] != tt.scores[0] || o.Scores[pisola.Black] != tt.scores[1] {
				t.Errorf("%s: terminal %v, outcome %+v; want %s (%s, %d-%d)", tt.pos, s.Terminal(), o, tt.result, tt.detail, tt.scores[0], tt.scores[1])
			}
			if _, err := s.ParseMove("c1-c4"); !errors.Is(err, game.ErrGameOver) {
				t.Errorf("ParseMove after the end: %v, want ErrGameOver", err)
			}
		})
	}
	// The blocked-loses position arises from e2-e1 (a move that leaves
	// Black with no move).
	s := parse(t, "", "-,-,-,-,-,-/-,-,bbbbb*,-,-,-/wwwbwwb*,-,-,-,ww,-/-,wwbbbw*,wbbw*,-,-,-/-,-,-,-,b,-/-,bbwwbbw*,wwwb*,-,-,- w")
	if s.Terminal() {
		t.Fatalf("%s is terminal", s)
	}
	play(t, s, "e4-e2")
	if o := s.Outcome(); o.ResultString() != "1-0" {
		t.Errorf("after e4-e2: %s, outcome %v", s, o.Describe(s.Game()))
	}
}

// TestEndReadings checks the two readings of the end of the moving phase on
// a position where they differ: after a6-d6 White cannot move and leads 2-1
// on roofs. With end=any (the default) the game ends there; with
// end=tomove Black moves once more and c1-f1 levels the roofs at 2-2.
func TestEndReadings(t *testing.T) {
	const pos = "bbw,-,-,bbw,-,bbbbbbwwwwww^/-,-,-,-,-,-/-,-,-,-,-,-/-,-,-,-,-,-/wwwwwwbbbbbb^,-,-,-,-,-/-,-,wwb,-,-,wwb w"
	tests := []struct {
		opts   string
		moves  []string
		result string
		scores [2]int
	}{
		{"roofs=true", []string{"a6-d6"}, "1-0", [2]int{2, 1}},
		{"roofs=true,end=any", []string{"a6-d6"}, "1-0", [2]int{2, 1}},
		{"roofs=true,end=tomove", []string{"a6-d6", "c1-f1"}, "1/2-1/2", [2]int{2, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.opts, func(t *testing.T) {
			s := parse(t, tt.opts, pos)
			for i, m := range tt.moves {
				if s.Terminal() {
					t.Fatalf("over before %s: %v", m, s.Outcome().Describe(s.Game()))
				}
				play(t, s, m)
				if last := i == len(tt.moves)-1; s.Terminal() != last {
					t.Fatalf("after %s: terminal %v, want %v", m, s.Terminal(), last)
				}
			}
			o := s.Outcome()
			if o.ResultString() != tt.result || o.Detail != "White cannot move" || o.Scores != [4]int{tt.scores[0], tt.scores[1]} {
				t.Errorf("outcome %s (%s, %v); want %s (White cannot move, %v)", o.ResultString(), o.Detail, o.Scores, tt.result, tt.scores)
			}
			if len(s.Legal(nil)) != 0 {
				t.Errorf("legal moves after the end: %d", len(s.Legal(nil)))
			}
		})
	}
	// In the classic game: d6-d2 leaves White, the mover, with no move
	// (end=any ends the game, naming White; end=tomove lets Black go on),
	// and e4-a4 leaves neither player a move.
	others := []struct {
		opts, pos, move, detail string
		over                    bool
	}{
		{"", "-,wwbbb,-,wbww,-,-/-,-,-,-,-,-/-,-,bbbbw*,-,-,wbbwww*/-,-,-,-,-,-/-,-,wbwb,b,bwwww*,-/-,-,-,wbbwbb*,-,- w",
			"d6-d2", "White cannot move", true},
		{"end=tomove", "-,wwbbb,-,wbww,-,-/-,-,-,-,-,-/-,-,bbbbw*,-,-,wbbwww*/-,-,-,-,-,-/-,-,wbwb,b,bwwww*,-/-,-,-,wbbwbb*,-,- w",
			"d6-d2", "", false},
		{"", "-,-,-,-,-,-/wwbbb*,-,-,-,-,bbbwwww*/bbwbw,-,-,-,bwwb,-/-,wbwbb*,-,-,bbwwb*,-/-,-,-,-,wbwww*,-/-,-,-,-,-,- b",
			"e4-a4", "neither player can move", true},
		{"end=tomove", "-,-,-,-,-,-/wwbbb*,-,-,-,-,bbbwwww*/bbwbw,-,-,-,bwwb,-/-,wbwbb*,-,-,bbwwb*,-/-,-,-,-,wbwww*,-/-,-,-,-,-,- b",
			"e4-a4", "White cannot move", true},
	}
	for _, tt := range others {
		s := parse(t, tt.opts, tt.pos)
		play(t, s, tt.move)
		if o := s.Outcome(); s.Terminal() != tt.over || o.Detail != tt.detail {
			t.Errorf("%s %s: terminal %v (%s); want %v (%s)", tt.opts, tt.move, s.Terminal(), o.Detail, tt.over, tt.detail)
		}
	}
}

// TestRoofs checks the roofs variant's wins: the first to place all their
// roofs wins, even when the opponent's move places them, and the mover
// wins when both complete on one move.
func TestRoofs(t *testing.T) {
	tests := []struct {
		name, pos, move, result, detail string
		before, after                   [2]int // roofs placed
	}{
		// c6-c3 makes a stack of 4 on c3, which locks: White's sixth roof.
		{"mover completes", "-,-,bww,-,-,-/-,-,-,wbbbw^,bwbwbbw^,-/bbwbww^,-,-,-,-,b/-,-,b,bwbww^,-,-/-,-,bwwww^,-,-,-/-,-,-,-,wbb,- w",
			"c6-c3", "1-0", "White placed all their roofs", [2]int{5, 0}, [2]int{6, 0}},
		// e6-e3 makes a stack of 5 on e3, which locks at once, and then
		// a3, e5 and a5, all topped by Black: Black's sixth roof comes on
		// White's move.
		{"opponent completes", "-,w,-,w,www,bb/bb,-,wbwwb^,-,wb,-/-,b,b,bwbbb^,-,-/bwwb,-,b,-,ww,w/-,-,w,-,-,-/-,-,bwwb^,-,-,- w",
			"e6-e3", "0-1", "Black placed all their roofs", [2]int{0, 3}, [2]int{1, 6}},
		// a6-a3 makes a stack of 4 on a3, whose only destination e3 is
		// locked; then a1, b1, a2 (Black) and c3, a5 (White) lock, and
		// both players complete their roofs: the mover, White, wins.
		{"both complete", "www,-,-,-,-,-/bw,-,bbwwb^,-,ww^,-/-,-,-,-,-,-/b,-,bw,-,bwwbb^,-/b,bbwwb^,b,-,-,-/bb,b,wbww^,-,ww^,- w",
			"a6-a3", "1-0", "both placed all their roofs, White moving last", [2]int{3, 3}, [2]int{6, 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := parse(t, "roofs=true", tt.pos)
			if got := [2]int{s.Locked(pisola.White), s.Locked(pisola.Black)}; got != tt.before || s.Terminal() {
				t.Fatalf("%s: roofs %v, terminal %v; want %v, not terminal", tt.pos, got, s.Terminal(), tt.before)
			}
			play(t, s, tt.move)
			o := s.Outcome()
			if got := [2]int{s.Locked(pisola.White), s.Locked(pisola.Black)}; got != tt.after {
				t.Errorf("after %s: %s, roofs %v; want %v", tt.move, s, got, tt.after)
			}
			if !s.Terminal() || len(s.Legal(nil)) != 0 || o.ResultString() != tt.result || o.Detail != tt.detail ||
				!o.HasScores || o.Scores[pisola.White] != min(tt.after[0], 6) || o.Scores[pisola.Black] != min(tt.after[1], 6) {
				t.Errorf("after %s: %s, outcome %q %+v; want %s (%s)", tt.move, s, o.Describe(s.Game()), o, tt.result, tt.detail)
			}
			// The finished position parses back as the same finished game.
			p := parse(t, "roofs=true", s.String())
			if p.Outcome() != o {
				t.Errorf("reparsed outcome %+v, want %+v", p.Outcome(), o)
			}
		})
	}
	// Without roofs the same move only locks, and the game goes on.
	s := parse(t, "", strings.ReplaceAll("-,w,-,w,www,bb/bb,-,wbwwb^,-,wb,-/-,b,b,bwbbb^,-,-/bwwb,-,b,-,ww,w/-,-,w,-,-,-/-,-,bwwb^,-,-,- w", "^", "*"))
	play(t, s, "e6-e3")
	if s.Terminal() {
		t.Errorf("without roofs, %s is terminal", s)
	}
}

// TestAdjudicate checks that repetition and the ply cap score the position
// as the end does: squares, or roofs in the roofs variant.
func TestAdjudicate(t *testing.T) {
	tests := []struct {
		opts, pos, result string
		scores            [2]int
	}{
		{"", fullBoard, "1/2-1/2", [2]int{18, 18}},
		{"", midGame, "1-0", [2]int{8, 6}},
		{"", "", "1/2-1/2", [2]int{0, 0}},
		{"roofs=true", strings.ReplaceAll(midGame, "*", "^"), "0-1", [2]int{1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.opts+" "+tt.pos, func(t *testing.T) {
			s := load(t, tt.opts).NewStart()
			if tt.pos != "" {
				s = parse(t, tt.opts, tt.pos)
			}
			for _, r := range []game.Reason{game.ByRepetition, game.ByPlyCap} {
				o := s.Adjudicate(r)
				if o.Reason != r || o.ResultString() != tt.result || !o.HasScores || o.Scores[pisola.White] != tt.scores[0] || o.Scores[pisola.Black] != tt.scores[1] {
					t.Errorf("Adjudicate(%v) = %+v; want %s, %v", r, o, tt.result, tt.scores)
				}
			}
		})
	}
	// Through a History: the ply cap ends the game after 19 plies, one
	// move into the moving phase.
	g := load(t, "maxplies=19")
	h := game.NewHistory(g, nil)
	for !h.Over() {
		if err := h.PlayMove(h.State().Legal(nil)[0]); err != nil {
			t.Fatal(err)
		}
	}
	if o := h.Outcome(); h.Ply() != 19 || o.Reason != game.ByPlyCap || !o.HasScores || o.Scores[pisola.White]+o.Scores[pisola.Black] != 35 {
		t.Errorf("after %d plies: %+v", h.Ply(), o)
	}
}
