package match

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"stax/game"
)

// Table is the running summary of a match: each engine's score against
// each other engine and against the field, and its faults.
type Table struct {
	Names []string
	Games int
	pairs [][]Score // pairs[e][f]: e's scores against f
	total []Score   // e's per-game average against the engines it met
	// faults[e] counts e's faults by kind, e.g. "time" or "illegal move".
	faults  []map[string]int
	example []map[string]string // a termination of each kind, for the report
	// pairs01 holds the first engine's mean score against the second over
	// each opening both games of which are done (with two engines, every
	// opening is played twice, the seats swapped); half holds the score
	// of the first game of each opening still waiting for its second.
	pairs01 Score
	half    map[int]float64
}

func newTable(names []string) *Table {
	t := &Table{Names: names, total: make([]Score, len(names)), half: map[int]float64{}}
	t.pairs = make([][]Score, len(names))
	t.faults = make([]map[string]int, len(names))
	t.example = make([]map[string]string, len(names))
	for i := range names {
		t.pairs[i] = make([]Score, len(names))
		t.faults[i] = map[string]int{}
		t.example[i] = map[string]string{}
	}
	return t
}

// rank orders results for the pairwise comparison of seats.
func rank(r game.Result) int {
	switch r {
	case game.Win:
		return 2
	case game.Loss:
		return 0
	}
	return 1
}

// add scores one finished game.
func (t *Table) add(res *GameResult, g game.Game) {
	t.Games++
	o := res.Outcome
	var in []int // engines in the game, in index order
	for _, e := range res.Seats {
		if !slices.Contains(in, e) {
			in = append(in, e)
		}
	}
	slices.Sort(in)
	field := make(map[int]float64, len(in))
	for a, e := range in {
		for _, f := range in[a+1:] {
			var sum float64
			n := 0
			for s, es := range res.Seats {
				for u, fu := range res.Seats {
					if es != e || fu != f {
						continue
					}
					n++
					switch rs, ru := rank(o.Results[s]), rank(o.Results[u]); {
					case rs > ru:
						sum++
					case rs == ru:
						sum += 0.5
					}
				}
			}
			x := sum / float64(n)
			if len(t.Names) == 2 {
				t.addHalf(res.Opening, x)
			}
			t.pairs[e][f].add(x)
			t.pairs[f][e].add(1 - x)
			field[e] += x
			field[f] += 1 - x
		}
	}
	if len(in) > 1 {
		for _, e := range in {
			t.total[e].add(field[e] / float64(len(in)-1))
		}
	}
	if e := res.FaultEngine; e >= 0 {
		kind := faultKind(res.Fault)
		t.faults[e][kind]++
		t.total[e].Faults++
		t.example[e][kind] = res.Fault
		for _, f := range in {
			if f != e {
				t.total[f].OpponentFault++
			}
		}
	}
}

// addHalf records the first engine's score x in a game of the given
// opening, and the pair's mean once both its games are done.
func (t *Table) addHalf(opening int, x float64) {
	if first, ok := t.half[opening]; ok {
		delete(t.half, opening)
		t.pairs01.add((first + x) / 2)
		return
	}
	t.half[opening] = x
}

// GamePairs returns the first engine's mean scores against the second
// over the openings whose two games (one with each seating) are done; it
// is empty unless there are exactly two engines.
func (t *Table) GamePairs() Score { return t.pairs01 }

// faultKind names the kind of a GameResult.Fault ("name: time: ...").
func faultKind(fault string) string {
	_, rest, _ := strings.Cut(fault, ": ")
	switch {
	case strings.HasPrefix(rest, "time"):
		return "time"
	case strings.HasPrefix(rest, "forfeit: illegal move"):
		return "illegal move"
	}
	rest = strings.TrimPrefix(rest, "forfeit: ")
	kind, _, _ := strings.Cut(rest, ":")
	return kind
}

// Pair returns engine e's scores against engine f.
func (t *Table) Pair(e, f int) Score { return t.pairs[e][f] }

// Total returns engine e's scores against the engines it met.
func (t *Table) Total(e int) Score { return t.total[e] }

// Faults returns engine e's faults counted by kind ("crash", "time",
// "illegal move", "protocol", "engine error").
func (t *Table) Faults(e int) map[string]int { return t.faults[e] }

// order returns the engine indices by decreasing rating.
func (t *Table) order() []int {
	idx := make([]int, len(t.Names))
	for i := range idx {
		idx[i] = i
	}
	r := Ratings(t.pairs)
	slices.SortStableFunc(idx, func(a, b int) int {
		ma, mb := r[a], r[b]
		switch {
		case ma > mb:
			return -1
		case ma < mb:
			return 1
		}
		return 0
	})
	return idx
}

// fmtScore writes a score total without a needless decimal part.
func fmtScore(x float64) string {
	x = math.Round(x*100) / 100 // thirds and quarters add up inexactly
	if x == math.Trunc(x) {
		return fmt.Sprintf("%.0f", x)
	}
	if x*2 == math.Trunc(x*2) {
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

// eloText writes an Elo estimate with its 95% interval.
func eloText(s Score) string {
	if s.N == 0 {
		return "-"
	}
	e, lo, hi := s.Elo()
	return fmt.Sprintf("%s [%s, %s]", FormatElo(e), FormatElo(lo), FormatElo(hi))
}

// Write prints the standings, the cross table, the pairs with their Elo
// differences and the faults.
func (t *Table) Write(w io.Writer) {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tengine\trating\tgames\tscore\t%\tElo vs field [95%]\tfaults")
	ratings := Ratings(t.pairs)
	for i, e := range t.order() {
		s := t.total[e]
		pct := "-"
		if s.N > 0 {
			pct = fmt.Sprintf("%.1f", 100*s.Mean())
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\t%s\t%d\n", i+1, t.Names[e], FormatElo(ratings[e]), s.N, fmtScore(s.Sum), pct, eloText(s), s.Faults)
	}
	tw.Flush()
	if len(t.Names) > 2 {
		fmt.Fprintln(w, "\nCross table (the row engine's score against the column engine / games):")
		tw = tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
		ord := t.order()
		head := []string{""}
		for _, f := range ord {
			head = append(head, t.Names[f])
		}
		fmt.Fprintln(tw, strings.Join(head, "\t"))
		for _, e := range ord {
			row := []string{t.Names[e]}
			for _, f := range ord {
				if e == f {
					row = append(row, "-")
					continue
				}
				p := t.pairs[e][f]
				row = append(row, fmt.Sprintf("%s/%d", fmtScore(p.Sum), p.N))
			}
			fmt.Fprintln(tw, strings.Join(row, "\t"))
		}
		tw.Flush()
	}
	if len(t.Names) > 1 {
		fmt.Fprintln(w)
	}
	ord := t.order()
	for a, e := range ord {
		for _, f := range ord[a+1:] {
			p := t.pairs[e][f]
			if p.N == 0 {
				continue
			}
			fmt.Fprintf(w, "%s vs %s: %s, score %s/%d (%.1f%%), Elo %s\n", t.Names[e], t.Names[f], wdl(p), fmtScore(p.Sum), p.N, 100*p.Mean(), eloText(p))
		}
	}
	first := true
	for _, e := range ord {
		if len(t.faults[e]) == 0 {
			continue
		}
		if first {
			fmt.Fprintln(w, "\nFaults (each lost the game):")
			first = false
		}
		kinds := make([]string, 0, len(t.faults[e]))
		for k := range t.faults[e] {
			kinds = append(kinds, k)
		}
		slices.Sort(kinds)
		for _, k := range kinds {
			fmt.Fprintf(w, "  %s: %d × %s, e.g. %s\n", t.Names[e], t.faults[e][k], k, strings.TrimPrefix(t.example[e][k], t.Names[e]+": "))
		}
	}
}

// wdl writes a pair's wins, draws and losses (+W =D -L), with the games of
// another fractional score (multi-player) counted apart (~N).
func wdl(p Score) string {
	s := fmt.Sprintf("+%d =%d -%d", p.Wins, p.Draws, p.Losses)
	if p.Partial > 0 {
		s += fmt.Sprintf(" ~%d", p.Partial)
	}
	return s
}
