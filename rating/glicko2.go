// Package rating implements the Glicko-2 rating system of Mark E.
// Glickman ("Example of the Glicko-2 system", Boston University, 2013):
// a rating, a rating deviation (how uncertain the rating is) and a
// volatility (how erratic the player's results are) per player, updated
// from the results of a rating period.
//
// The package is game-agnostic: the server decides what a rating pool is,
// which games are rated and how long a rating period lasts.
package rating

import (
	"fmt"
	"math"
)

// Scale is the factor between the Glicko scale (ratings around 1500) and
// the Glicko-2 scale (ratings around 0): 400/ln(10).
const Scale = 173.7178

// The starting values Glickman recommends for an unrated player.
const (
	DefaultRating     = 1500.0
	DefaultDeviation  = 350.0
	DefaultVolatility = 0.06
)

// DefaultTau is the system constant τ used unless a caller chooses
// another: it bounds how fast the volatility may change. Glickman suggests
// a value between 0.3 and 1.2; smaller values suit games where upsets are
// rare. stax uses 0.5, the value of Glickman's worked example and of most
// online game sites.
const DefaultTau = 0.5

// convergence is the tolerance ε of the volatility iteration (step 5).
const convergence = 1e-6

// Rating is a player's rating on the Glicko scale.
type Rating struct {
	Rating     float64 // e.g. 1500
	Deviation  float64 // the rating deviation RD, e.g. 350 for a new player
	Volatility float64 // σ, e.g. 0.06
}

// New returns the rating of a new player: 1500, 350, 0.06.
func New() Rating {
	return Rating{Rating: DefaultRating, Deviation: DefaultDeviation, Volatility: DefaultVolatility}
}

// String formats the rating as "1500/350/0.060000".
func (r Rating) String() string {
	return fmt.Sprintf("%.2f/%.2f/%.6f", r.Rating, r.Deviation, r.Volatility)
}

// Valid reports whether the rating's numbers are finite and in range: a
// positive deviation and volatility.
func (r Rating) Valid() bool {
	return !math.IsNaN(r.Rating) && !math.IsInf(r.Rating, 0) &&
		r.Deviation > 0 && !math.IsInf(r.Deviation, 0) &&
		r.Volatility > 0 && !math.IsInf(r.Volatility, 0)
}

// Result is one game of a rating period: the opponent's rating at the start
// of the period and the player's score, 1 for a win, 0.5 for a draw, 0 for
// a loss.
type Result struct {
	Opponent Rating
	Score    float64
}

// g is Glickman's g(φ), which discounts a result by the opponent's
// deviation.
func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// expected is E(μ, μj, φj), the expected score against an opponent.
func expected(mu, muJ, phiJ float64) float64 {
	return 1 / (1 + math.Exp(-g(phiJ)*(mu-muJ)))
}

// Update returns the player's rating after a rating period with the given
// results, following the eight steps of Glickman's paper with system
// constant tau. A period without games only widens the deviation. It
// returns an error for a rating or result out of range, or for tau ≤ 0.
func Update(r Rating, results []Result, tau float64) (Rating, error) {
	if !r.Valid() {
		return r, fmt.Errorf("rating %v: want a finite rating and a positive deviation and volatility", r)
	}
	if !(tau > 0) || math.IsInf(tau, 0) {
		return r, fmt.Errorf("tau %v: want a positive number", tau)
	}
	// Step 2: convert to the Glicko-2 scale.
	mu := (r.Rating - DefaultRating) / Scale
	phi := r.Deviation / Scale
	sigma := r.Volatility
	if len(results) == 0 {
		// A period without games: only the deviation grows (step 6).
		return Rating{r.Rating, math.Sqrt(phi*phi+sigma*sigma) * Scale, sigma}, nil
	}
	// Steps 3 and 4: the estimated variance v and the improvement Δ.
	var invV, sum float64
	for _, res := range results {
		if !res.Opponent.Valid() {
			return r, fmt.Errorf("opponent's rating %v: want a finite rating and a positive deviation and volatility", res.Opponent)
		}
		if !(res.Score >= 0 && res.Score <= 1) {
			return r, fmt.Errorf("score %v: want a number from 0 (loss) to 1 (win)", res.Score)
		}
		muJ := (res.Opponent.Rating - DefaultRating) / Scale
		phiJ := res.Opponent.Deviation / Scale
		gj, e := g(phiJ), expected(mu, muJ, phiJ)
		invV += gj * gj * e * (1 - e)
		sum += gj * (res.Score - e)
	}
	v := 1 / invV
	delta := v * sum
	// Step 5: the new volatility, by the Illinois algorithm.
	sigma = newVolatility(phi, sigma, v, delta, tau)
	// Steps 6 and 7: the new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu += phi * phi * sum
	// Step 8: back to the Glicko scale.
	return Rating{Rating: Scale*mu + DefaultRating, Deviation: Scale * phi, Volatility: sigma}, nil
}

// Age returns the rating after periods rating periods without games
// (possibly a fraction of one): the deviation grows as Glickman's step 6
// prescribes for a period without games, φ' = √(φ² + t·σ²), up to a new
// player's DefaultDeviation, and the rating and volatility stay. A
// period count of 0 or less leaves the rating as it is.
func Age(r Rating, periods float64) Rating {
	if !(periods > 0) || !r.Valid() {
		return r
	}
	phi := r.Deviation / Scale
	d := math.Sqrt(phi*phi+periods*r.Volatility*r.Volatility) * Scale
	r.Deviation = max(min(d, DefaultDeviation), r.Deviation)
	return r
}

// newVolatility is step 5 of the paper: the root of f by the Illinois
// variant of regula falsi.
func newVolatility(phi, sigma, v, delta, tau float64) float64 {
	a := math.Log(sigma * sigma)
	phi2, delta2 := phi*phi, delta*delta
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi2 + v + ex
		return ex*(delta2-phi2-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta2 > phi2+v {
		B = math.Log(delta2 - phi2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > convergence && i < 1000; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
