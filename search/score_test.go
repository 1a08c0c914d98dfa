package search_test

import (
	"strings"
	"testing"

	"stax/search"
)

var scoreTexts = []struct {
	score search.Score
	text  string
	int   int
}{
	{search.WinIn(5), "win 5", search.WinScore - 5},
	{search.LossIn(2), "loss 2", -(search.WinScore - 2)},
	{search.WinIn(0), "win 0", search.WinScore},
	{search.ProvenDraw, "draw", 0},
	{search.Estimate(0), "0", 0},
	{search.Estimate(-37), "-37", -37},
	{search.Estimate(412), "412", 412},
}

func TestScoreText(t *testing.T) {
	for _, tc := range scoreTexts {
		if got := tc.score.String(); got != tc.text {
			t.Errorf("%#v.String() = %q; want %q", tc.score, got, tc.text)
		}
		if got, err := search.ParseScore(tc.text); err != nil || got != tc.score {
			t.Errorf("ParseScore(%q) = %#v, %v; want %#v", tc.text, got, err, tc.score)
		}
		if got := tc.score.Int(); got != tc.int {
			t.Errorf("%v.Int() = %d; want %d", tc.score, got, tc.int)
		}
		if tc.score != search.ProvenDraw {
			if got := search.ScoreOf(tc.int); got != tc.score {
				t.Errorf("ScoreOf(%d) = %v; want %v", tc.int, got, tc.score)
			}
		}
	}
	for _, in := range []string{"", "win", "win -1", "win 05", "mate 3", "+3", "draw 2", "1.5"} {
		if _, err := search.ParseScore(in); err == nil || !strings.Contains(err.Error(), "want win N, loss N, draw or an integer") {
			t.Errorf("ParseScore(%q) error %v; want one saying what is expected", in, err)
		}
	}
}

func TestScoreBefore(t *testing.T) {
	for _, tc := range []struct{ s, want search.Score }{
		{search.WinIn(3), search.LossIn(4)},
		{search.LossIn(2), search.WinIn(3)},
		{search.ProvenDraw, search.ProvenDraw},
		{search.Estimate(25), search.Estimate(-25)},
	} {
		if got := tc.s.Before(); got != tc.want {
			t.Errorf("%v.Before() = %v; want %v", tc.s, got, tc.want)
		}
	}
}

// FuzzParseScore checks that ParseScore never panics and that the text
// form is canonical.
func FuzzParseScore(f *testing.F) {
	for _, tc := range scoreTexts {
		f.Add(tc.text)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sc, err := search.ParseScore(s)
		if err != nil {
			return
		}
		if sc.String() != s {
			t.Fatalf("ParseScore(%q).String() = %q", s, sc.String())
		}
	})
}
