package match

import (
	"fmt"
	"math"
)

// Score accumulates one engine's per-game scores against another (or
// against the field): each game contributes one score in [0, 1].
type Score struct {
	N             int     // games
	Sum, SumSq    float64 // of the per-game scores
	Wins, Losses  int     // games scored 1 and 0
	Draws         int     // games scored 1/2
	Partial       int     // games scored strictly between 0 and 1 but not 1/2 (multi-player)
	Faults        int     // games this engine lost by a fault
	OpponentFault int     // games won because the opponent faulted
}

// add records one game's score.
func (s *Score) add(x float64) {
	s.N++
	s.Sum += x
	s.SumSq += x * x
	switch x {
	case 1:
		s.Wins++
	case 0:
		s.Losses++
	case 0.5:
		s.Draws++
	default:
		s.Partial++
	}
}

// Mean returns the average score per game, or 0.5 with no games.
func (s Score) Mean() float64 {
	if s.N == 0 {
		return 0.5
	}
	return s.Sum / float64(s.N)
}

// Variance returns the variance of the per-game score (as a population).
func (s Score) Variance() float64 {
	if s.N == 0 {
		return 0
	}
	m := s.Mean()
	return math.Max(0, s.SumSq/float64(s.N)-m*m)
}

// Elo returns the logistic Elo difference that the mean score implies and
// the bounds of its 95% confidence interval (normal approximation of the
// mean, with the per-game variance observed). A perfect or null score has
// no finite estimate: its Elo is ±Inf and the bounds are those of a score
// half a game short of it.
func (s Score) Elo() (elo, lo, hi float64) {
	if s.N == 0 {
		return 0, math.Inf(-1), math.Inf(1)
	}
	m := s.Mean()
	se := math.Sqrt(s.Variance() / float64(s.N))
	half := 0.5 / float64(s.N)
	lo = EloOf(math.Max(m-1.96*se, half))
	hi = EloOf(math.Min(m+1.96*se, 1-half))
	if m >= 1 {
		return math.Inf(1), EloOf(1 - half), math.Inf(1)
	}
	if m <= 0 {
		return math.Inf(-1), math.Inf(-1), EloOf(half)
	}
	return EloOf(m), math.Min(lo, EloOf(m)), math.Max(hi, EloOf(m))
}

// EloOf returns the logistic Elo difference for an expected score p:
// -400 log10(1/p - 1).
func EloOf(p float64) float64 {
	if p <= 0 {
		return math.Inf(-1)
	}
	if p >= 1 {
		return math.Inf(1)
	}
	return -400 * math.Log10(1/p-1)
}

// ExpectedScore returns the expected score of an Elo difference.
func ExpectedScore(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// FormatElo writes an Elo difference with its sign, ±inf for an infinite
// one.
func FormatElo(e float64) string {
	switch {
	case math.IsInf(e, 1):
		return "+inf"
	case math.IsInf(e, -1):
		return "-inf"
	}
	if math.Abs(e) < 0.5 {
		return "0"
	}
	return fmt.Sprintf("%+.0f", e)
}

// SPRT is a sequential probability ratio test of H0: the first engine is
// Elo0 stronger than the second, against H1: it is Elo1 stronger.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64 // error rates; 0 means 0.05
}

// Bounds returns the log-likelihood ratio bounds: below lower H0 is
// accepted, above upper H1.
func (t SPRT) Bounds() (lower, upper float64) {
	a, b := t.Alpha, t.Beta
	if a == 0 {
		a = 0.05
	}
	if b == 0 {
		b = 0.05
	}
	return math.Log(b / (1 - a)), math.Log((1 - b) / a)
}

// LLR returns the log-likelihood ratio of H1 against H0 for the scores s,
// in the normal approximation (as in fishtest's and cutechess's GSPRT):
// n (s1 - s0) (2m - s0 - s1) / (2 var), where m and var are the mean and
// variance of the per-game scores and s0, s1 the expected scores of Elo0
// and Elo1. When every game scored the same (no variance), one drawn game
// is added to the scores so that a one-sided match can still decide.
func (t SPRT) LLR(s Score) float64 {
	if s.N < 2 {
		return 0
	}
	if s.Variance() == 0 {
		s.add(0.5)
	}
	v := s.Variance()
	if v == 0 {
		return 0
	}
	s0, s1 := ExpectedScore(t.Elo0), ExpectedScore(t.Elo1)
	return float64(s.N) * (s1 - s0) * (2*s.Mean() - s0 - s1) / (2 * v)
}

// Decision is the state of an SPRT.
type Decision int8

// The decisions of an SPRT.
const (
	Continue Decision = iota
	AcceptH0
	AcceptH1
)

func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "no decision yet"
}

// Decide compares the LLR of s with the bounds.
func (t SPRT) Decide(s Score) Decision {
	llr := t.LLR(s)
	lo, hi := t.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}

// Ratings returns logistic Elo ratings that best explain the pairwise
// scores (maximum likelihood, as Bradley and Terry, BayesElo and Ordo do),
// shifted so that their mean is 0. pairs[e][f] holds e's scores against
// f. Each pair that met is given one extra drawn game as a prior, so that
// a perfect score yields a finite rating; an engine that met no one keeps
// its starting rating (the mean, before the shift).
func Ratings(pairs [][]Score) []float64 {
	n := len(pairs)
	r := make([]float64, n)
	const k = math.Ln10 / 400
	for iter := 0; iter < 2000; iter++ {
		moved := 0.0
		for e := 0; e < n; e++ {
			var grad, hess float64
			for f := 0; f < n; f++ {
				p := pairs[e][f]
				if e == f || p.N == 0 {
					continue
				}
				games := float64(p.N) + 1
				score := p.Sum + 0.5
				x := 1 / (1 + math.Exp(-k*(r[e]-r[f])))
				grad += score - games*x
				hess += games * x * (1 - x)
			}
			if hess == 0 {
				continue
			}
			step := grad / hess / k
			step = math.Max(-400, math.Min(400, step))
			r[e] += step
			moved = math.Max(moved, math.Abs(step))
		}
		if moved < 1e-6 {
			break
		}
	}
	mean := 0.0
	for _, x := range r {
		mean += x
	}
	mean /= float64(max(n, 1))
	for e := range r {
		r[e] -= mean
	}
	return r
}
