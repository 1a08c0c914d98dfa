// Package gametest is the conformance kit for stax games, in the manner of
// testing/fstest.TestFS: every game's tests call Run, and one test in
// package games runs it over every registered game and a set of variants.
//
// Run plays seeded random games and checks, at every step, that each legal
// move round-trips through FormatMove and ParseMove, that the position
// string round-trips through ParseState, that applying a move to a clone
// leaves the original untouched, that Undo (where offered) restores the
// position and its hash, that equal positions hash equal, that a terminal
// position has no legal moves and any other has some, and that outcomes are
// consistent. It also checks that malformed moves and positions are
// rejected with errors rather than panics.
//
// The kit is itself tested as testing/fstest is: tic-tac-toe
// (internal/testgame) passes it, and each of a list of broken copies of
// tic-tac-toe fails the check written for its defect (gametest_test.go).
package gametest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"stax/game"
)

// Config tunes Run. The zero value is usable.
type Config struct {
	// Games is the number of random games to play (default 20; 4 under
	// -short).
	Games int
	// Seed seeds the random games (default 1).
	Seed uint64
	// Positions are extra position strings to check and start games from.
	Positions []string
}

// Run checks that g behaves as every stax game must.
func Run(t *testing.T, g game.Game, cfg Config) {
	t.Helper()
	if cfg.Games == 0 {
		cfg.Games = 20
		if testing.Short() {
			cfg.Games = 4
		}
	}
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	starts := []game.State{g.Start()}
	for _, p := range cfg.Positions {
		s, err := g.ParseState(p)
		if err != nil {
			t.Fatalf("ParseState(%q): %v", p, err)
		}
		starts = append(starts, s)
	}
	t.Run("static", func(t *testing.T) { checkStatic(t, g) })
	t.Run("malformed", func(t *testing.T) { checkMalformed(t, g) })
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5eed))
	for i := 0; i < cfg.Games; i++ {
		start := starts[i%len(starts)]
		seed := rng.Uint64()
		t.Run(fmt.Sprintf("random-%d", i), func(t *testing.T) {
			Playout(t, g, start, seed)
		})
	}
}

func checkStatic(t *testing.T, g game.Game) {
	info := g.Info()
	if info == nil || info.Name == "" {
		t.Fatalf("Info() has no name")
	}
	if n := g.Players(); n < 2 || n > game.MaxPlayers {
		t.Errorf("Players() = %d, want 2..%d", n, game.MaxPlayers)
	}
	for p := 0; p < g.Players(); p++ {
		if g.PlayerName(p) == "" {
			t.Errorf("PlayerName(%d) is empty", p)
		}
	}
	opts := g.Options()
	for _, o := range info.Options {
		if _, ok := opts[o.Key]; !ok {
			t.Errorf("Options() lacks key %q", o.Key)
		}
		if o.Doc == "" {
			t.Errorf("option %q has no Doc", o.Key)
		}
		if o.Label == "" {
			t.Errorf("option %q has no Label", o.Key)
		}
	}
	// The variant's canonical spec loads the same variant.
	sp := game.SpecOf(g)
	g2, err := info.Variant(sp.Options)
	if err != nil {
		t.Fatalf("Load(%v): %v", sp, err)
	}
	if g2.Start().String() != g.Start().String() || !maps(g2.Options(), g.Options()) {
		t.Errorf("spec %v does not reload the same variant", sp)
	}
	if _, err := info.Variant(game.Options{"no-such-option": "1"}); err == nil {
		t.Errorf("Load with an unknown option succeeded")
	}
	for _, o := range info.Options {
		if _, err := info.Variant(game.Options{o.Key: "not-a-value"}); err == nil {
			t.Errorf("Load(%s=not-a-value) succeeded", o.Key)
		}
	}
}

func maps(a, b game.Options) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

var badMoves = []string{"", " ", "pass pass", "zz", "9z9-z9", "1a1-", "@", "+", "-", "a1+", "0:0+", "\x00", "💥", "1a1-a2-a3", "r@", "a1-a1"}

var badPositions = []string{"", " ", "w", "x", "-/-/-", "bb,bb,bb/-,-,-/ww,ww,ww", "bb,bb,bb/-,-,-/ww,ww,ww x", "-/-/-/-/-/-/-/- 9", "💥 w", "-,-,-/-,-,-/-,-,-/-,-,- w"}

func checkMalformed(t *testing.T, g game.Game) {
	s := g.Start()
	for _, in := range badMoves {
		m, err := s.ParseMove(in)
		if err == nil {
			// A few of these could be legal in some game; then they must
			// round-trip.
			if !slices.Contains(s.Legal(nil), m) {
				t.Errorf("ParseMove(%q) = %v, nil for a move that is not legal", in, m)
			}
			continue
		}
		var me *game.MoveError
		if !errors.As(err, &me) {
			t.Errorf("ParseMove(%q) error %T, want *game.MoveError", in, err)
		}
	}
	for _, in := range badPositions {
		st, err := g.ParseState(in)
		if err == nil {
			if st.String() == "" {
				t.Errorf("ParseState(%q) accepted into an empty position", in)
			}
			continue
		}
		var pe *game.PositionError
		if !errors.As(err, &pe) {
			t.Errorf("ParseState(%q) error %T, want *game.PositionError", in, err)
		}
	}
}

// Playout plays one random game from start with the given seed, through a
// game.History, checking every position on the way with CheckState.
func Playout(t *testing.T, g game.Game, start game.State, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	h := game.NewHistory(g, start)
	hashes := map[string]uint64{}
	limit := g.MaxPlies()
	if limit == 0 || limit > 2000 {
		limit = 2000
	}
	for !h.Over() && h.Ply() < limit {
		s := h.State()
		moves := CheckState(t, s, rng)
		if t.Failed() {
			t.Fatalf("after moves %v", h.Notation())
		}
		if prev, ok := hashes[s.String()]; ok && prev != s.Hash() {
			t.Fatalf("position %q hashed %#x and %#x", s.String(), prev, s.Hash())
		}
		hashes[s.String()] = s.Hash()
		if len(moves) == 0 {
			t.Fatalf("position %q: no legal moves but not terminal", s)
		}
		m := moves[rng.IntN(len(moves))]
		if err := h.Play(s.FormatMove(m)); err != nil {
			t.Fatalf("History.Play(%q) in %q: %v", s.FormatMove(m), s, err)
		}
		checkHashes(t, h)
	}
	CheckState(t, h.State(), rng)
	o := h.Outcome()
	if h.Over() {
		checkOutcome(t, g, o)
		if back, err := game.ParseOutcome(o.String()); err != nil || back != o {
			t.Errorf("ParseOutcome(%q) = %#v, %v; want %#v, the outcome written", o.String(), back, err, o)
		}
		if o.Reason == game.ByPlyCap && h.Ply() != g.MaxPlies() {
			t.Errorf("ended by the ply cap at ply %d, cap %d", h.Ply(), g.MaxPlies())
		}
		if o.Reason == game.ByRepetition && h.Occurrences() < g.Repetition() {
			t.Errorf("ended by repetition after %d occurrences, rep=%d", h.Occurrences(), g.Repetition())
		}
	}
	// Undo through the whole game restores the start.
	n := h.Ply()
	for i := 0; i < n; i++ {
		if !h.Undo() {
			t.Fatalf("History.Undo failed at ply %d", n-i)
		}
		checkHashes(t, h)
	}
	if h.State().String() != start.String() || h.Over() != start.Terminal() {
		t.Errorf("undoing the whole game gives %q, want %q", h.State(), start)
	}
}

// checkHashes checks that History.Hashes has one hash per position of the
// game, the current one's last.
func checkHashes(t *testing.T, h *game.History) {
	t.Helper()
	hs := h.Hashes()
	if len(hs) != h.Ply()+1 || hs[len(hs)-1] != h.State().Hash() {
		t.Fatalf("History.Hashes at ply %d = %#x; want %d hashes, the last %#x (the current position's)",
			h.Ply(), hs, h.Ply()+1, h.State().Hash())
	}
}

// CheckState checks one position and returns its legal moves.
func CheckState(t *testing.T, s game.State, rng *rand.Rand) []game.Move {
	t.Helper()
	g := s.Game()
	pos := s.String()
	hash := s.Hash()
	if p := s.ToMove(); p < 0 || p >= g.Players() {
		t.Errorf("%q: ToMove() = %d, want 0..%d", pos, p, g.Players()-1)
	}
	moves := s.Legal(nil)
	if len(moves) > g.MaxMoves() {
		t.Errorf("%q: %d legal moves, more than MaxMoves() = %d", pos, len(moves), g.MaxMoves())
	}
	// Legal appends to the slice it is given.
	pre := []game.Move{game.NoMove}
	if got := s.Legal(pre); len(got) != len(moves)+1 || got[0] != game.NoMove || !slices.Equal(got[1:], moves) {
		t.Errorf("%q: Legal does not append to its argument", pos)
	}
	seen := map[game.Move]bool{}
	for _, m := range moves {
		if m == game.NoMove {
			t.Errorf("%q: NoMove listed as legal", pos)
		}
		if seen[m] {
			t.Errorf("%q: move %s listed twice", pos, s.FormatMove(m))
		}
		seen[m] = true
		str := s.FormatMove(m)
		back, err := s.ParseMove(str)
		if err != nil || back != m {
			t.Errorf("%q: ParseMove(FormatMove(%d) = %q) = %d, %v", pos, m, str, back, err)
		}
	}
	if s.Terminal() {
		if len(moves) != 0 {
			t.Errorf("%q: terminal with %d legal moves", pos, len(moves))
		}
		checkOutcome(t, g, s.Outcome())
		if s.Outcome().Reason != game.ByRules {
			t.Errorf("%q: terminal outcome has reason %v, want rules", pos, s.Outcome().Reason)
		}
	} else {
		if len(moves) == 0 {
			t.Errorf("%q: not terminal and no legal moves", pos)
		}
		if s.Outcome().Over() {
			t.Errorf("%q: not terminal but Outcome() is over", pos)
		}
		for _, r := range []game.Reason{game.ByRepetition, game.ByPlyCap} {
			o := s.Adjudicate(r)
			checkOutcome(t, g, o)
			if o.Reason != r {
				t.Errorf("%q: Adjudicate(%v).Reason = %v", pos, r, o.Reason)
			}
		}
	}
	// The position string round-trips, with its hash and moves.
	p2, err := g.ParseState(pos)
	if err != nil {
		t.Fatalf("ParseState(String() = %q): %v", pos, err)
	}
	if p2.String() != pos || p2.Hash() != hash || p2.ToMove() != s.ToMove() || p2.Terminal() != s.Terminal() {
		t.Errorf("ParseState(%q) gives %q, hash %#x, want hash %#x", pos, p2.String(), p2.Hash(), hash)
	}
	if m2 := p2.Legal(nil); !sameSet(m2, moves) {
		t.Errorf("%q: reparsed position has moves %d, want %d", pos, len(m2), len(moves))
	}
	// A clone is independent; undo restores.
	for i, m := range moves {
		if i > 6 && rng.IntN(4) != 0 {
			continue
		}
		c := s.Clone()
		c.Apply(m)
		if s.String() != pos || s.Hash() != hash {
			t.Fatalf("%q: applying %s to a clone changed the original to %q", pos, s.FormatMove(m), s)
		}
		if c.String() == pos && c.Hash() == hash && len(moves) > 1 {
			// A pass may leave the board as it is, but not the side to move
			// in a two-player game.
			if g.Players() == 2 {
				t.Errorf("%q: move %s changed nothing", pos, s.FormatMove(m))
			}
		}
		if u, ok := c.(game.Undoer); ok {
			after, afterHash := c.String(), c.Hash()
			u.Undo()
			if c.String() != pos || c.Hash() != hash {
				t.Errorf("%q: Apply(%s) then Undo gives %q hash %#x, want hash %#x", pos, s.FormatMove(m), c, c.Hash(), hash)
			}
			c.Apply(m)
			if c.String() != after || c.Hash() != afterHash {
				t.Errorf("%q: Apply(%s) after Undo gives %q, want %q", pos, s.FormatMove(m), c, after)
			}
		}
		// The hash of the position reached matches a fresh parse of it.
		if p3, err := g.ParseState(c.String()); err != nil {
			t.Errorf("%q after %s: ParseState(%q): %v", pos, s.FormatMove(m), c.String(), err)
		} else if p3.Hash() != c.Hash() {
			t.Errorf("%q after %s: incremental hash %#x, parsed %#x", pos, s.FormatMove(m), c.Hash(), p3.Hash())
		}
	}
	checkMutations(t, g, pos, rng)
	CheckBoard(t, s, moves)
	return moves
}

func sameSet(a, b []game.Move) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// checkMutations feeds ParseState small corruptions of a good position
// string: each must either fail with a *PositionError or parse into a
// position whose string round-trips.
func checkMutations(t *testing.T, g game.Game, pos string, rng *rand.Rand) {
	const alphabet = "wbryg-,/*^ 12345678x"
	for i := 0; i < 4; i++ {
		b := []byte(pos)
		switch k := rng.IntN(3); {
		case k == 0 && len(b) > 0:
			j := rng.IntN(len(b))
			b = append(b[:j], b[j+1:]...)
		case k == 1:
			j := rng.IntN(len(b) + 1)
			b = append(b[:j], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[j:]...)...)
		case len(b) > 0:
			b[rng.IntN(len(b))] = alphabet[rng.IntN(len(alphabet))]
		}
		st, err := g.ParseState(string(b))
		if err != nil {
			var pe *game.PositionError
			if !errors.As(err, &pe) {
				t.Errorf("ParseState(%q) error %T, want *game.PositionError", b, err)
			}
			continue
		}
		again, err := g.ParseState(st.String())
		if err != nil || again.String() != st.String() {
			t.Errorf("ParseState(%q) = %q, which does not round-trip: %v", b, st.String(), err)
		}
	}
}

func checkOutcome(t *testing.T, g game.Game, o game.Outcome) {
	t.Helper()
	if !o.Over() {
		t.Errorf("outcome of a finished game is not over")
		return
	}
	if o.Players != g.Players() {
		t.Errorf("outcome has %d players, want %d", o.Players, g.Players())
	}
	wins, draws := 0, 0
	for p := 0; p < o.Players; p++ {
		switch o.Results[p] {
		case game.Win:
			wins++
		case game.Draw:
			draws++
		case game.Loss:
		default:
			t.Errorf("outcome: player %d result %v", p, o.Results[p])
		}
	}
	if draws != 0 && draws != o.Players {
		t.Errorf("outcome mixes draws with wins or losses: %v", o.Results)
	}
	if draws == 0 && (wins == 0 || wins == o.Players) {
		t.Errorf("outcome without draws has %d winners of %d players", wins, o.Players)
	}
	if o.Describe(g) == "" || o.ResultString() == "*" {
		t.Errorf("outcome has no description")
	}
}

// History plays moves, in g's notation, from g's start and returns the
// game's history; a move that is not legal fails the test.
func History(t testing.TB, g game.Game, moves ...string) *game.History {
	t.Helper()
	h := game.NewHistory(g, nil)
	for i, m := range moves {
		if err := h.Play(m); err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
	}
	return h
}
