package puzzle_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"stax/games"
	"stax/puzzle"
)

// newPuzzle returns a puzzle with its ID set from its content.
func newPuzzle(spec, pos, solution string, rating int, trap string, themes ...puzzle.Theme) puzzle.Puzzle {
	sol := strings.Fields(solution)
	return puzzle.Puzzle{ID: puzzle.NewID(spec, pos, sol), Spec: spec, Position: pos, Solution: sol,
		Themes: themes, Rating: rating, Trap: trap}
}

var start = "bb,bb,bb/-,-,-/ww,ww,ww w"

func TestRoundTrip(t *testing.T) {
	for _, p := range []puzzle.Puzzle{
		newPuzzle("pogo", start, "1a1-a2", 900, "", puzzle.SaveTheDraw),
		newPuzzle("pogo(u=false)", start, "1a1-a2 1a3-b3 2b1-a1", 1500, "1c1-c2", puzzle.WinIn(2), puzzle.DontFallForIt),
		newPuzzle("diam(drop=any)", "-/-/-/-/-/-/-/- 1", "r@1", 1200, "", puzzle.DiamIn(1)),
	} {
		line := p.String()
		got, err := puzzle.Parse(line)
		if err != nil || !reflect.DeepEqual(got, p) {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", line, got, err, p)
		}
	}
}

func TestParseErrors(t *testing.T) {
	good := newPuzzle("pogo", start, "1a1-a2", 900, "", puzzle.SaveTheDraw).String()
	cols := strings.Split(good, "\t")
	with := func(i int, v string) string {
		c := append([]string(nil), cols...)
		c[i] = v
		return strings.Join(c, "\t")
	}
	tests := []struct {
		name, line, err string
	}{
		{"empty", "", "columns"},
		{"six columns", strings.Join(cols[:6], "\t"), "6 tab-separated columns"},
		{"even solution", with(3, "1a1-a2 1a3-b3"), "odd number of moves"},
		{"double space", with(3, "1a1-a2  1a3-b3 2b1-a1"), "single spaces"},
		{"no solution", with(3, ""), "odd number"},
		{"bad theme", with(4, "Win-In-2"), "theme"},
		{"empty theme", with(4, "win-in-2,"), "theme"},
		{"rating word", with(5, "high"), "rating"},
		{"rating zero", with(5, "0"), "rating"},
		{"rating padded", with(5, "0900"), "rating"},
		{"empty trap", with(6, ""), "trap"},
		{"wrong id", with(0, "p000000000000"), "content gives"},
		{"empty spec", with(1, ""), "empty spec"},
		{"padded position", with(2, " "+start), "spaces"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := puzzle.Parse(tt.line)
			if err == nil || !errors.Is(err, puzzle.ErrSyntax) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Parse(%q) = %+v, %v; want an ErrSyntax mentioning %q", tt.line, p, err, tt.err)
			}
		})
	}
}

func TestReadWrite(t *testing.T) {
	ps := []puzzle.Puzzle{
		newPuzzle("pogo", start, "1a1-a2", 900, "", puzzle.SaveTheDraw),
		newPuzzle("diam", "-/-/-/-/-/-/-/- 1", "r@1", 1200, "", puzzle.DiamIn(1)),
	}
	var b bytes.Buffer
	if err := puzzle.Write(&b, ps); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), puzzle.Header+"\n") {
		t.Errorf("Write wrote %q; want the header first", b.String())
	}
	got, err := puzzle.Read(strings.NewReader(b.String() + "\n# a comment\n"))
	if err != nil || !reflect.DeepEqual(got, ps) {
		t.Errorf("Read(Write(ps)) = %+v, %v; want %+v", got, err, ps)
	}
	dup := ps[0].String() + "\n" + ps[0].String() + "\n"
	if _, err := puzzle.Read(strings.NewReader(dup)); err == nil || !strings.Contains(err.Error(), "already on line 1") {
		t.Errorf("Read of a puzzle twice: %v; want an error naming line 1", err)
	}
	if _, err := puzzle.Read(strings.NewReader("# header\nnonsense\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("Read of a bad line: %v; want an error naming line 2", err)
	}
}

func TestThemeMoves(t *testing.T) {
	tests := []struct {
		theme puzzle.Theme
		n     int
		ok    bool
	}{
		{puzzle.WinIn(3), 3, true},
		{puzzle.DiamIn(1), 1, true},
		{"win-in-0", 0, false},
		{"win-in-02", 0, false},
		{"win-in-x", 0, false},
		{puzzle.SaveTheDraw, 0, false},
	}
	for _, tt := range tests {
		if n, ok := tt.theme.Moves(); n != tt.n || ok != tt.ok {
			t.Errorf("Theme(%q).Moves() = %d, %v; want %d, %v", tt.theme, n, ok, tt.n, tt.ok)
		}
	}
}

func TestCheck(t *testing.T) {
	reg := games.All()
	tests := []struct {
		name string
		p    puzzle.Puzzle
		err  string // "" when Check accepts the puzzle
	}{
		{"legal line", newPuzzle("pogo", start, "1a1-a2 1a3-b3 2b1-b3", 900, "1c1-c2", puzzle.WinIn(2)), ""},
		{"diam", newPuzzle("diam(drop=any)", "-/-/-/-/-/-/-/- 1", "r@1", 900, "", puzzle.DiamIn(1)), ""},
		{"unknown game", newPuzzle("chess", start, "e2-e4", 900, ""), "chess"},
		{"bad position", newPuzzle("pogo", "bb,bb w", "1a1-a2", 900, ""), "bb,bb w"},
		{"over", newPuzzle("pogo", "bbbwww,-,-/-,-,-/-,-,bbbwww w", "1c1-c2", 900, ""), "already over"},
		{"illegal move", newPuzzle("pogo", start, "1a1-c3", 900, ""), "move 1"},
		{"move after the end", newPuzzle("pogo", "bbbbbb,wwwwww,-/-,-,-/-,-,- w", "1b3-a3 1a3-b3 1b3-a3", 900, ""), "over before move 2"},
		{"trap is the solution", newPuzzle("pogo", start, "1a1-a2", 900, "1a1-a2"), "trap"},
		{"illegal trap", newPuzzle("pogo", start, "1a1-a2", 900, "3a1-a2"), "trap"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := puzzle.Check(reg, tt.p)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("Check(%s) = %v; want %q", tt.p, err, tt.err)
			}
		})
	}
}
