package rating_test

import (
	"math"
	"testing"

	"stax/rating"
)

// TestGlickmanExample reproduces the worked example of Glickman's paper: a
// 1500/200/0.06 player beats a 1400/30 player and loses to 1550/100 and
// 1700/300 players, with τ = 0.5.
func TestGlickmanExample(t *testing.T) {
	player := rating.Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}
	results := []rating.Result{
		{Opponent: rating.Rating{Rating: 1400, Deviation: 30, Volatility: 0.06}, Score: 1},
		{Opponent: rating.Rating{Rating: 1550, Deviation: 100, Volatility: 0.06}, Score: 0},
		{Opponent: rating.Rating{Rating: 1700, Deviation: 300, Volatility: 0.06}, Score: 0},
	}
	got, err := rating.Update(player, results, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	// The paper rounds its intermediate values (μ' = -0.2069 is printed
	// with four decimals), so its figures are met to within their last
	// printed digit: exact arithmetic gives 1464.0506, 151.5165, 0.0599960.
	if !near(got.Rating, 1464.06, 0.01) || !near(got.Deviation, 151.52, 0.005) || !near(got.Volatility, 0.05999, 0.00001) {
		t.Errorf("got %v; the paper gives 1464.06/151.52/0.05999", got)
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestUpdate checks properties a player relies on: a win raises the
// rating, a loss lowers it, a draw between equals changes nothing but the
// deviation, games narrow the deviation and idleness widens it.
func TestUpdate(t *testing.T) {
	equal := rating.New()
	tests := []struct {
		name  string
		score float64
		check func(before, after rating.Rating) bool
	}{
		{"win", 1, func(b, a rating.Rating) bool { return a.Rating > b.Rating && a.Deviation < b.Deviation }},
		{"loss", 0, func(b, a rating.Rating) bool { return a.Rating < b.Rating && a.Deviation < b.Deviation }},
		{"draw", 0.5, func(b, a rating.Rating) bool { return near(a.Rating, b.Rating, 1e-9) && a.Deviation < b.Deviation }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			after, err := rating.Update(equal, []rating.Result{{Opponent: equal, Score: tt.score}}, rating.DefaultTau)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(equal, after) {
				t.Errorf("%v after a %s against an equal: %v", equal, tt.name, after)
			}
		})
	}
	idle, err := rating.Update(rating.Rating{Rating: 1800, Deviation: 60, Volatility: 0.06}, nil, rating.DefaultTau)
	if err != nil {
		t.Fatal(err)
	}
	if idle.Rating != 1800 || !(idle.Deviation > 60) || idle.Volatility != 0.06 {
		t.Errorf("an idle period gave %v; want 1800 with a wider deviation", idle)
	}
}

// TestUpdateErrors checks that numbers out of range are refused.
func TestUpdateErrors(t *testing.T) {
	good := rating.New()
	tests := []struct {
		name    string
		r       rating.Rating
		results []rating.Result
		tau     float64
	}{
		{"zero deviation", rating.Rating{Rating: 1500, Volatility: 0.06}, nil, 0.5},
		{"NaN rating", rating.Rating{Rating: math.NaN(), Deviation: 350, Volatility: 0.06}, nil, 0.5},
		{"score above 1", good, []rating.Result{{Opponent: good, Score: 2}}, 0.5},
		{"bad opponent", good, []rating.Result{{Opponent: rating.Rating{}, Score: 1}}, 0.5},
		{"zero tau", good, nil, 0},
	}
	for _, tt := range tests {
		if _, err := rating.Update(tt.r, tt.results, tt.tau); err == nil {
			t.Errorf("%s: accepted", tt.name)
		}
	}
}

// FuzzUpdate checks that any numbers give an error or a valid rating.
func FuzzUpdate(f *testing.F) {
	f.Add(1500.0, 200.0, 0.06, 1400.0, 30.0, 1.0, 0.5)
	f.Add(3000.0, 10.0, 0.2, 100.0, 350.0, 0.0, 1.2)
	f.Fuzz(func(t *testing.T, r, rd, vol, or, ord, score, tau float64) {
		p := rating.Rating{Rating: r, Deviation: rd, Volatility: vol}
		o := rating.Rating{Rating: or, Deviation: ord, Volatility: 0.06}
		got, err := rating.Update(p, []rating.Result{{Opponent: o, Score: score}}, tau)
		if err == nil && (math.Abs(r) < 1e6 && rd < 1e4 && vol < 10 && math.Abs(or) < 1e6 && ord < 1e4 && tau < 10) && !got.Valid() {
			t.Errorf("Update(%v vs %v, %v, τ %v) = %v, not valid", p, o, score, tau, got)
		}
	})
}

// TestAge checks the deviation's growth over periods without games: one
// period is Update with no results, t periods grow as √(φ² + tσ²), and a
// deviation never passes a new player's.
func TestAge(t *testing.T) {
	r := rating.Rating{Rating: 1800, Deviation: 60, Volatility: 0.06}
	one, err := rating.Update(r, nil, rating.DefaultTau)
	if err != nil {
		t.Fatal(err)
	}
	if got := rating.Age(r, 1); math.Abs(got.Deviation-one.Deviation) > 1e-9 || got.Rating != r.Rating || got.Volatility != r.Volatility {
		t.Fatalf("rating.Age(r, 1) = %v; want %v, an empty rating period", got, one)
	}
	for _, tc := range []struct {
		periods float64
		want    float64
	}{
		{0, 60},
		{-3, 60},
		{365, math.Sqrt(math.Pow(60/rating.Scale, 2)+365*0.06*0.06) * rating.Scale},
		{1e6, rating.DefaultDeviation},
	} {
		if got := rating.Age(r, tc.periods).Deviation; math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("Age(%v periods).Deviation = %v; want %v", tc.periods, got, tc.want)
		}
	}
}
