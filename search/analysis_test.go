package search_test

import (
	"testing"

	"stax/search"
)

// TestJudge checks the marks of a move against the best one: exact
// verdicts by class (a win thrown to a draw is a mistake, to a loss a
// blunder; a slower win nothing), estimates by the drop.
func TestJudge(t *testing.T) {
	th := search.Thresholds{Inaccuracy: 50, Mistake: 100, Blunder: 300}
	for _, tc := range []struct {
		best, played search.Score
		want         search.Mark
	}{
		{search.WinIn(3), search.WinIn(9), search.Good},
		{search.WinIn(3), search.ProvenDraw, search.Mistake},
		{search.WinIn(3), search.LossIn(2), search.Blunder},
		{search.ProvenDraw, search.LossIn(12), search.Mistake},
		{search.ProvenDraw, search.ProvenDraw, search.Good},
		{search.LossIn(4), search.LossIn(2), search.Good},
		{search.Estimate(30), search.LossIn(2), search.Blunder},
		{search.WinIn(5), search.Estimate(200), search.Mistake},
		{search.Estimate(30), search.Estimate(-10), search.Good},
		{search.Estimate(30), search.Estimate(-20), search.Inaccuracy},
		{search.Estimate(30), search.Estimate(-70), search.Mistake},
		{search.Estimate(30), search.Estimate(-270), search.Blunder},
		{search.Estimate(-30), search.WinIn(3), search.Good},
	} {
		if got := search.Judge(tc.best, tc.played, th); got != tc.want {
			t.Errorf("Judge(%v, %v) = %q; want %q", tc.best, tc.played, got, tc.want)
		}
	}
}

// TestMarkAndSourceText checks that marks and sources read back their
// text forms, and refuse others.
func TestMarkAndSourceText(t *testing.T) {
	for m := search.Good; m <= search.Blunder; m++ {
		b, _ := m.MarshalText()
		var got search.Mark
		if err := got.UnmarshalText(b); err != nil || got != m {
			t.Errorf("mark %q read back as %q, %v", b, got, err)
		}
	}
	for s := search.FromSearch; s <= search.FromEnd; s++ {
		b, _ := s.MarshalText()
		var got search.Source
		if err := got.UnmarshalText(b); err != nil || got != s {
			t.Errorf("source %q read back as %q, %v", b, got, err)
		}
	}
	var m search.Mark
	var s search.Source
	if m.UnmarshalText([]byte("awful")) == nil || s.UnmarshalText([]byte("oracle")) == nil {
		t.Error("unknown marks and sources are accepted")
	}
}
