package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// scoreSteps is the resolution of a Score's histogram: every per-game
// score of a match (a multiple of 1/8 between two engines in 4-player Diam,
// averaged over 2 or 3 opponents against the field) and every game pair's
// mean is a multiple of 1/48.
const scoreSteps = 48

// Score accumulates one engine's per-game scores against another (or
// against the field): each game contributes one score in [0, 1]. It also
// serves for game pairs, each contributing the mean of its two games.
type Score struct {
	N             int     // games
	Sum, SumSq    float64 // of the per-game scores
	Wins, Losses  int     // games scored 1 and 0
	Draws         int     // games scored 1/2
	Partial       int     // games scored strictly between 0 and 1 but not 1/2 (multi-player)
	Faults        int     // games this engine lost by a fault
	OpponentFault int     // games won because the opponent faulted
	// counts[k] is the number of games scored k/scoreSteps.
	counts [scoreSteps + 1]int32
}

// add records one game's score.
func (s *Score) add(x float64) {
	s.N++
	s.Sum += x
	s.SumSq += x * x
	s.counts[int(math.Round(math.Max(0, math.Min(1, x))*scoreSteps))]++
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
// the bounds of its 95% confidence interval. The interval is the set of
// expected scores p that the games do not reject at the 5% level,
// |m - p| ≤ 1.96 σ(p)/√n, where σ(p) is the spread of the distribution of
// scores that best explains the games among those of mean p (its maximum
// likelihood estimate, as the SPRT uses). With wins and losses only, this
// is the Wilson interval; unlike the plain normal approximation, it never
// has zero width, not even after all draws or a perfect score. A perfect
// or null score has no finite estimate: its Elo is ±Inf.
func (s Score) Elo() (elo, lo, hi float64) {
	if s.N == 0 {
		return 0, math.Inf(-1), math.Inf(1)
	}
	const z = 1.96
	d := s.dist()
	m := s.Mean()
	n := float64(s.N)
	// reject(p) > 0 when p lies outside the interval.
	reject := func(p float64) float64 {
		return (m-p)*(m-p)*n - z*z*d.withMean(p).variance()
	}
	bound := func(out, in float64) float64 {
		return bisect(out, in, 60, func(p float64) bool { return reject(p) > 0 })
	}
	lo, hi = EloOf(bound(0, m)), EloOf(bound(1, m))
	if m <= 0 {
		lo = math.Inf(-1)
	}
	if m >= 1 {
		hi = math.Inf(1)
	}
	return EloOf(m), lo, hi
}

// dist is a discrete distribution of scores: values in [0, 1] with their
// probabilities.
type dist struct {
	val, prob []float64
	n         float64 // the weight of the sample it comes from, in games
}

// regularization is the weight, in games, given to each possible score
// never observed (as fishtest does), so that every distribution fitted to
// the games can put some probability on it.
const regularization = 1e-3

// dist returns the empirical distribution of the scores, with the
// regularization weight on the results a game or a pair of games can have
// (loss, draw, win, and the pair means 1/4 and 3/4) that were never seen.
// Its weight n is the number of games plus those additions.
func (s Score) dist() dist {
	var d dist
	total := 0.0
	for k, c := range s.counts {
		w := float64(c)
		if c == 0 {
			if k%(scoreSteps/4) != 0 {
				continue
			}
			w = regularization
		}
		d.val = append(d.val, float64(k)/scoreSteps)
		d.prob = append(d.prob, w)
		total += w
	}
	for i := range d.prob {
		d.prob[i] /= total
	}
	d.n = total
	return d
}

// mean returns the expected score.
func (d dist) mean() float64 {
	m := 0.0
	for i, p := range d.prob {
		m += p * d.val[i]
	}
	return m
}

// variance returns the variance of the score.
func (d dist) variance() float64 {
	m, v := d.mean(), 0.0
	for i, p := range d.prob {
		v += p * (d.val[i] - m) * (d.val[i] - m)
	}
	return v
}

// withMean returns the distribution of mean s, on the same values, that
// maximizes the likelihood of a sample distributed as d: p_i = d_i / (1 +
// x (a_i - s)), with x the root of Σ d_i (a_i - s) / (1 + x (a_i - s)) = 0
// (M. Van den Bergh, "A note on the maximum likelihood estimate of a
// multinomial distribution with a given expectation value"). s must lie
// strictly between the smallest and largest values.
func (d dist) withMean(s float64) dist {
	lowest, highest := d.val[0]-s, d.val[len(d.val)-1]-s
	if lowest >= 0 || highest <= 0 {
		return d
	}
	// The sum decreases in x on (-1/highest, -1/lowest), where every
	// denominator is positive.
	f := func(x float64) float64 {
		sum := 0.0
		for i, p := range d.prob {
			a := d.val[i] - s
			sum += p * a / (1 + x*a)
		}
		return sum
	}
	x := bisect(-1/highest, -1/lowest, 100, func(x float64) bool { return f(x) > 0 })
	out := dist{val: d.val, prob: make([]float64, len(d.prob)), n: d.n}
	for i, p := range d.prob {
		out.prob[i] = p / (1 + x*(d.val[i]-s))
	}
	return out
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
// Elo0 stronger than the second, against H1: it is Elo1 stronger. It is
// the generalized SPRT of fishtest, applied to game pairs: each opening is
// played twice with the seats swapped, and the pair's mean score (0, 1/4,
// 1/2, 3/4 or 1 in a two-player game: the pentanomial distribution) is one
// observation, so that the advantage of a seat or an opening does not
// count as strength.
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

// LLR returns the generalized log-likelihood ratio of H1 against H0 for
// the pair scores s: Σ n_i ln(p1_i / p0_i) over the observed pair scores,
// where p0 and p1 are the maximum likelihood distributions of the pair
// score whose means are the expected scores of Elo0 and Elo1 (fishtest's
// LLR_logistic). Unlike the normal approximation, it needs no variance
// estimate, so a few lucky pairs cannot decide the test.
func (t SPRT) LLR(s Score) float64 {
	if s.N == 0 {
		return 0
	}
	d := s.dist()
	s0, s1 := ExpectedScore(t.Elo0), ExpectedScore(t.Elo1)
	p0, p1 := d.withMean(s0), d.withMean(s1)
	llr := 0.0
	for i, p := range d.prob {
		llr += d.n * p * math.Log(p1.prob[i]/p0.prob[i])
	}
	return llr
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

// bisect returns the point between a and b where the predicate changes,
// true on a's side and false on b's, after the given number of halvings.
func bisect(a, b float64, halvings int, onA func(float64) bool) float64 {
	for range halvings {
		mid := (a + b) / 2
		if onA(mid) {
			a = mid
		} else {
			b = mid
		}
	}
	return (a + b) / 2
}

// pentanomial writes how many game pairs scored 0, 1/4, 1/2, 3/4 and 1 (in
// fishtest's order: LL, LD+DL, LW+DD+WL, DW+WD, WW), and how many scored
// something else (only in multi-player games).
func pentanomial(s Score) string {
	var b strings.Builder
	b.WriteString("[")
	other := s.N
	for i := 0; i <= 4; i++ {
		c := int(s.counts[i*scoreSteps/4])
		other -= c
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(strconv.Itoa(c))
	}
	b.WriteString("]")
	if other > 0 {
		fmt.Fprintf(&b, " and %d other", other)
	}
	return b.String()
}
