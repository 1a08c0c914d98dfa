package game_test

import (
	"strings"
	"testing"

	"stax/game"
)

// scored returns o with the given scores.
func scored(o game.Outcome, scores ...int) game.Outcome {
	o.HasScores = true
	copy(o.Scores[:], scores)
	return o
}

// outcomeTexts pairs outcomes with their text form.
var outcomeTexts = []struct {
	o    game.Outcome
	text string
}{
	{game.Outcome{Players: 2}, "*"},
	{game.Decided(2, game.ByRules, "every stack topped by White", 0), "1-0 rules; every stack topped by White"},
	{game.Decided(2, game.ByRules, "", 1), "0-1 rules"},
	{scored(game.Decided(2, game.ByRules, "more squares", 1), 14, 22), "0-1 rules scores 14,22; more squares"},
	{scored(game.Drawn(2, game.ByPlyCap, "equal squares"), 18, 18), "1/2-1/2 ply-cap scores 18,18; equal squares"},
	{scored(game.Decided(2, game.ByRules, "", 0), 0, -3), "1-0 rules scores 0,-3"},
	{game.Drawn(2, game.ByRepetition, ""), "1/2-1/2 repetition"},
	{game.Decided(4, game.ByRules, "diam at level 3", 2), "0-0-1-0 rules; diam at level 3"},
	{game.Decided(4, game.ByResignation, "Red resigned", 1, 3), "0-1-0-1 resignation; Red resigned"},
	{game.Drawn(4, game.ByPlyCap, ""), "1/2-1/2-1/2-1/2 ply-cap"},
	{game.Decided(2, game.ByResignation, "White resigned", 1), "0-1 resignation; White resigned"},
	{game.Decided(2, game.ByForfeit, "the computer found no move: out of ideas; sorry", 0), "1-0 forfeit; the computer found no move: out of ideas; sorry"},
	{game.Decided(2, game.ByTime, "no bestmove within 1.1s", 1), "0-1 time; no bestmove within 1.1s"},
	{game.Decided(2, game.ByForfeit, " two lines\nand a leading space", 1), "0-1 forfeit;  two lines\nand a leading space"},
}

func TestOutcomeText(t *testing.T) {
	for _, tc := range outcomeTexts {
		if got := tc.o.String(); got != tc.text {
			t.Errorf("%#v.String() = %q; want %q", tc.o, got, tc.text)
		}
		back, err := game.ParseOutcome(tc.text)
		want := tc.o
		if !want.Over() {
			want = game.Outcome{}
		}
		if err != nil || back != want {
			t.Errorf("ParseOutcome(%q) = %#v, %v; want %#v", tc.text, back, err, want)
		}
	}
}

func TestParseOutcomeErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "want the results"},
		{"1-0", "want the results"},
		{"1-0  rules", "want the results"},
		{"1-0 rules;", "detail"},
		{"1-0 rules;x", "detail"},
		{"2-0 rules", "result \"2\" of player 1"},
		{"1-0-0-0-0 rules", "5 results"},
		{"1-0 won", "reason \"won\""},
		{"1-0 reason-1", "reason \"reason-1\""},
		{"1-0 rules points 1,2", "want scores"},
		{"1-0 rules scores 1", "1 scores for 2 players"},
		{"1-0 rules scores 1,+2", "score \"+2\""},
		{"1-0 rules scores 1,02", "score \"02\""},
	} {
		_, err := game.ParseOutcome(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseOutcome(%q) error %v; want one saying %q", tc.in, err, tc.want)
		}
	}
}

// FuzzParseOutcome checks that ParseOutcome never panics and that the text
// form is canonical: what parses is written back the same, and reads back
// as the same outcome.
func FuzzParseOutcome(f *testing.F) {
	for _, tc := range outcomeTexts {
		f.Add(tc.text)
	}
	f.Add("1-* reason-9 scores -1,2; x")
	f.Fuzz(func(t *testing.T, s string) {
		o, err := game.ParseOutcome(s)
		if err != nil {
			return
		}
		if o.String() != s {
			t.Fatalf("ParseOutcome(%q).String() = %q", s, o.String())
		}
		if back, err := game.ParseOutcome(o.String()); err != nil || back != o {
			t.Fatalf("ParseOutcome(%q) = %#v, %v; want %#v", o.String(), back, err, o)
		}
	})
}
