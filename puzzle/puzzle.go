// Package puzzle is the format of stax's puzzles: a position, the line that
// solves it, its themes and a starting rating, one puzzle a line of text.
// It knows no concrete game: a puzzle names its game by spec, and Check
// replays it through the game.Game a registry loads. The puzzles themselves
// are made and proven elsewhere (package ai/puzzlegen and its tests; the
// command stax puzzles generate); the sets the site serves are embedded
// here (Builtin), so that every instance serves the same puzzles under the
// same IDs.
package puzzle

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"stax/game"
)

// Header is the first line Write writes: the format's name and version and
// its columns.
const Header = "# stax puzzles v1: id, spec, position, solution, themes, rating, trap (tab-separated)"

// Puzzle is one puzzle: from Position, the side to move (the solver)
// plays the first move of Solution, the opponent (the defender) the
// second, and so on; the solver makes the last move.
type Puzzle struct {
	// ID names the puzzle for good: NewID of its spec, position and
	// solution, so that the same puzzle keeps its ID when a set is
	// generated again.
	ID string
	// Spec is the game's spec, e.g. "pogo" or "diam(drop=any)".
	Spec string
	// Position is the position string of the game's rules.
	Position string
	// Solution is the line, each move in the game's notation, the
	// solver's moves at even indices. It has an odd length.
	Solution []string
	// Themes say what the puzzle is about, e.g. win-in-2 or
	// dont-fall-for-it; the first is its main theme.
	Themes []Theme
	// Rating is the puzzle's starting rating, on the scale of the
	// players' ratings; the site updates it after every attempt.
	Rating int
	// Trap, when not empty, is a natural-looking first move that loses:
	// the move a puzzle of the theme dont-fall-for-it warns against.
	Trap string
}

// Theme is a puzzle's theme: a word of lower-case letters, digits and
// hyphens, such as win-in-3 or save-the-draw.
type Theme string

// The themes of the generated puzzles; WinIn and DiamIn make the others.
const (
	// SaveTheDraw: the side to move would lose but for one move, which
	// keeps the draw. The solution is that one move.
	SaveTheDraw Theme = "save-the-draw"
	// DontFallForIt: the natural move (the one a one-ply look at the
	// evaluation prefers) loses; Puzzle.Trap names it.
	DontFallForIt Theme = "dont-fall-for-it"
	// BestMove: one move is better than every other by a wide margin of
	// a deep search, with no proof that it wins (Pisola's puzzles).
	BestMove Theme = "best-move"
)

// WinIn returns the theme of a forced win in n moves of the solver, e.g.
// win-in-2 (three plies: the solver, the defender, the solver).
func WinIn(n int) Theme { return Theme(fmt.Sprintf("win-in-%d", n)) }

// DiamIn returns the theme of a forced diam in n moves of the solver.
func DiamIn(n int) Theme { return Theme(fmt.Sprintf("diam-in-%d", n)) }

// Moves returns the number of the solver's moves in the forced win a theme
// made by WinIn or DiamIn names, and false for other themes.
func (t Theme) Moves() (int, bool) {
	s := string(t)
	for _, prefix := range []string{"win-in-", "diam-in-"} {
		if rest, ok := strings.CutPrefix(s, prefix); ok {
			n, err := strconv.Atoi(rest)
			if err == nil && n > 0 && strconv.Itoa(n) == rest {
				return n, true
			}
		}
	}
	return 0, false
}

// valid reports whether t is a word of lower-case letters, digits and
// hyphens, neither starting nor ending with a hyphen.
func (t Theme) valid() bool {
	if t == "" || t[0] == '-' || t[len(t)-1] == '-' {
		return false
	}
	for _, r := range t {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// NewID returns the ID of the puzzle of spec, position and solution: "p"
// and the first 12 hexadecimal digits of a SHA-256 of the three, so that
// an ID depends only on the puzzle.
func NewID(spec, position string, solution []string) string {
	h := sha256.Sum256([]byte(spec + "\t" + position + "\t" + strings.Join(solution, " ")))
	return "p" + hex.EncodeToString(h[:6])
}

// ErrSyntax is wrapped by the errors of Parse for a line that is not a
// puzzle.
var ErrSyntax = errors.New("not a puzzle line")

// String writes p as one line of tab-separated columns: ID, spec,
// position, the solution's moves separated by spaces, the themes separated
// by commas, the rating, and the trap ("-" when none).
func (p Puzzle) String() string {
	themes := make([]string, len(p.Themes))
	for i, t := range p.Themes {
		themes[i] = string(t)
	}
	trap := p.Trap
	if trap == "" {
		trap = "-"
	}
	return strings.Join([]string{p.ID, p.Spec, p.Position, strings.Join(p.Solution, " "),
		strings.Join(themes, ","), strconv.Itoa(p.Rating), trap}, "\t")
}

// Parse reads a puzzle written by Puzzle.String. It checks the line's
// form (seven columns, a solution of an odd number of moves, themes that
// are words, a rating from 1 to 4000, the ID the content gives), not the
// game: Check does that.
func Parse(line string) (Puzzle, error) {
	fail := func(format string, args ...any) (Puzzle, error) {
		return Puzzle{}, fmt.Errorf("puzzle %q: %s: %w", line, fmt.Sprintf(format, args...), ErrSyntax)
	}
	cols := strings.Split(line, "\t")
	if len(cols) != 7 {
		return fail("%d tab-separated columns; want 7: id, spec, position, solution, themes, rating, trap", len(cols))
	}
	p := Puzzle{ID: cols[0], Spec: cols[1], Position: cols[2], Solution: strings.Fields(cols[3]), Trap: cols[6]}
	if p.Spec == "" || p.Position == "" || strings.TrimSpace(p.Position) != p.Position {
		return fail("an empty spec or position, or one with spaces around it")
	}
	if len(p.Solution)%2 != 1 || strings.Join(p.Solution, " ") != cols[3] {
		return fail("solution %q: want an odd number of moves separated by single spaces", cols[3])
	}
	for _, t := range strings.Split(cols[4], ",") {
		if !Theme(t).valid() {
			return fail("theme %q: want lower-case letters, digits and hyphens, e.g. win-in-2", t)
		}
		p.Themes = append(p.Themes, Theme(t))
	}
	r, err := strconv.Atoi(cols[5])
	if err != nil || r < 1 || r > 4000 || strconv.Itoa(r) != cols[5] {
		return fail("rating %q: want a whole number from 1 to 4000", cols[5])
	}
	p.Rating = r
	switch {
	case p.Trap == "-":
		p.Trap = ""
	case p.Trap == "" || strings.ContainsAny(p.Trap, " ,"):
		return fail("trap %q: want a move, or - for none", p.Trap)
	}
	if want := NewID(p.Spec, p.Position, p.Solution); p.ID != want {
		return fail("id %q: the puzzle's content gives %s", p.ID, want)
	}
	return p, nil
}

// Read reads a set of puzzles: one a line, skipping blank lines and lines
// starting with #. It fails on the first malformed line, naming it, and on
// an ID seen twice.
func Read(r io.Reader) ([]Puzzle, error) {
	var out []Puzzle
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := Parse(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if first, dup := seen[p.ID]; dup {
			return nil, fmt.Errorf("line %d: puzzle %s is already on line %d", n, p.ID, first)
		}
		seen[p.ID] = n
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading puzzles: %w", err)
	}
	return out, nil
}

// Write writes Header, each note as a comment line ("# " and the note),
// and then the puzzles, one a line.
func Write(w io.Writer, ps []Puzzle, notes ...string) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, Header)
	for _, n := range notes {
		fmt.Fprintln(bw, "# "+strings.ReplaceAll(n, "\n", " "))
	}
	for _, p := range ps {
		fmt.Fprintln(bw, p.String())
	}
	return bw.Flush()
}

// Check replays p through the game reg loads for its spec: the position
// must parse and not be over, every move of the solution must be legal
// where it is played, the position must not be over before the last one,
// and the trap, if any, must be a legal first move other than the
// solution's. Whether the solution is right is for the game's own proof
// (the solved tables and solvers), not for Check.
func Check(reg game.Registry, p Puzzle) error {
	g, err := reg.Load(p.Spec)
	if err != nil {
		return fmt.Errorf("puzzle %s: %w", p.ID, err)
	}
	st, err := g.ParseState(p.Position)
	if err != nil {
		return fmt.Errorf("puzzle %s: %w", p.ID, err)
	}
	if st.Terminal() {
		return fmt.Errorf("puzzle %s: the position %s is already over", p.ID, p.Position)
	}
	if p.Trap != "" {
		m, err := st.ParseMove(p.Trap)
		if err != nil {
			return fmt.Errorf("puzzle %s: trap: %w", p.ID, err)
		}
		if st.FormatMove(m) == p.Solution[0] {
			return fmt.Errorf("puzzle %s: the trap %s is the solution's first move", p.ID, p.Trap)
		}
	}
	for i, text := range p.Solution {
		if st.Terminal() {
			return fmt.Errorf("puzzle %s: the game is over before move %d (%s)", p.ID, i+1, text)
		}
		m, err := st.ParseMove(text)
		if err != nil {
			return fmt.Errorf("puzzle %s: move %d: %w", p.ID, i+1, err)
		}
		if got := st.FormatMove(m); got != text {
			return fmt.Errorf("puzzle %s: move %d is written %q; the game writes it %q", p.ID, i+1, text, got)
		}
		st.Apply(m)
	}
	return nil
}
