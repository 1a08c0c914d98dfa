package board

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"stax/game"
	"stax/games"
)

// TestGroupsAsBefore holds groups to the groups of the code it replaced
// (oldGroups), along random games of every variant.
func TestGroupsAsBefore(t *testing.T) {
	for _, spec := range []string{"pogo", "pogo(u=false)", "pisola", "pisola(size=8)", "pisola(size=8,roofs=true)", "diam", "diam(drop=any)", "diam(players=4)", "diam(players=4,teams=true)"} {
		g, err := games.Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		for seed := range 2 {
			r := rand.New(rand.NewPCG(uint64(seed), 3))
			st := g.Start()
			for ply := 0; ply < 200 && !st.Terminal(); ply++ {
				v := st.(game.Viewer)
				b := v.Board()
				got, _ := json.Marshal(groups(st, v, &b))
				want, _ := json.Marshal(oldGroups(st, v, &b))
				if string(got) != string(want) {
					t.Fatalf("%s at %s: the groups are\n%s\nwant\n%s", spec, st, got, want)
				}
				legal := st.Legal(nil)
				st.Apply(legal[r.IntN(len(legal))])
			}
		}
	}
}

// oldGroups is groups as it was when it built its templates as strings
// in maps, the reference for the groups: it writes the legal moves of st in groups: the moves of one kind,
// piece, count or level whose notation is the same but for their cells'
// names share a group, and the placings on several cells that are every
// choice of so many cells of a set (apart or not) are written as that
// set.
func oldGroups(st game.State, v game.Viewer, b *game.Board) Moves {
	var moves Moves
	var out []MoveGroup        // the placings
	places := map[string]int{} // a placing group's index by piece and text
	type placings struct {
		cells [][]int
		texts []string
	}
	multi := map[[2]int]*placings{}
	type single struct {
		kind                   game.MoveKind
		piece                  byte
		from, to, count, level int
		texts                  []string // the templates that fit, best first
	}
	var singles []single
	used := map[string]int{} // how many moves each template fits
	for _, m := range st.Legal(nil) {
		mv := v.ViewMove(m)
		text := st.FormatMove(m)
		switch {
		case mv.Kind == game.Place && len(mv.To) == 1:
			s := single{kind: game.Place, piece: mv.Piece, to: mv.To[0], texts: oldTemplates(text, "", b.Cells[mv.To[0]].Name)}
			singles = append(singles, s)
			for _, t := range s.texts {
				used[t]++
			}
		case mv.Kind == game.Place && len(mv.To) > 1:
			k := [2]int{int(mv.Piece), len(mv.To)}
			p := multi[k]
			if p == nil {
				p = &placings{}
				multi[k] = p
				// The group keeps its place among the others.
				out = append(out, MoveGroup{Piece: string(mv.Piece), Pick: len(mv.To)})
			}
			cells := slices.Clone(mv.To)
			slices.Sort(cells)
			p.cells = append(p.cells, cells)
			p.texts = append(p.texts, text)
		case mv.Kind == game.Shift && len(mv.To) > 0:
			from, to := mv.From, mv.To[0]
			s := single{kind: game.Shift, from: from, to: to, count: mv.Count, level: len(b.Cells[from].Stack) - mv.Count + 1,
				texts: oldTemplates(text, b.Cells[from].Name, b.Cells[to].Name)}
			singles = append(singles, s)
			for _, t := range s.texts {
				used[t]++
			}
		case mv.Kind == game.Pass:
			moves.Pass = text
		}
	}
	// Each move takes the template that fits the most moves.
	type shift struct {
		from, to, count, level int
		text                   string
	}
	var shifts []shift
	for _, s := range singles {
		t := s.texts[0]
		for _, c := range s.texts[1:] {
			if used[c] > used[t] {
				t = c
			}
		}
		if s.kind == game.Shift {
			shifts = append(shifts, shift{s.from, s.to, s.count, s.level, t})
			continue
		}
		k := string(s.piece) + " " + t
		i, ok := places[k]
		if !ok {
			i = len(out)
			places[k] = i
			out = append(out, MoveGroup{Piece: string(s.piece), Text: t})
		}
		out[i].To += cellsText(s.to)
	}
	// The shifts, in groups by count or by level, whichever makes fewer
	// (by count when they make as many).
	byCount := func(s shift) MoveGroup { return MoveGroup{Text: s.text, Count: s.count} }
	byLevel := func(s shift) MoveGroup { return MoveGroup{Text: s.text, Level: s.level} }
	var best []MoveGroup
	for _, by := range []func(shift) MoveGroup{byCount, byLevel} {
		var gs []MoveGroup
		for _, s := range shifts {
			k := by(s)
			i := slices.IndexFunc(gs, func(g MoveGroup) bool { return g.Text == k.Text && g.Count == k.Count && g.Level == k.Level })
			if i < 0 {
				i = len(gs)
				gs = append(gs, k)
			}
			g := &gs[i]
			j := slices.IndexFunc(g.From, func(l string) bool { return l[0] == Alphabet[s.from] })
			if j < 0 {
				j = len(g.From)
				g.From = append(g.From, cellsText(s.from))
			}
			g.From[j] += cellsText(s.to)
		}
		if best == nil || len(gs) < len(best) {
			best = gs
		}
	}
	moves.Shift = best
	// The placings on several cells: one group each when they are every
	// choice of a set, else one group per move.
	for _, g := range out {
		if g.Pick == 0 {
			moves.Place = append(moves.Place, g)
			continue
		}
		p := multi[[2]int{int(g.Piece[0]), g.Pick}]
		if set, ok := placingSet(b, g, p.cells, p.texts); ok {
			moves.Place = append(moves.Place, set)
			continue
		}
		for i, cells := range p.cells {
			moves.Place = append(moves.Place, MoveGroup{Piece: g.Piece, Pick: g.Pick, To: cellsText(cells...), Text: p.texts[i]})
		}
	}
	return moves
}

// oldTemplates is oldGroups' templates: it returns the templates of a move's notation text: text with
// the last occurrence of to's name replaced by {to} and, before it, the
// first occurrence of from's by {from}, with both, either or neither
// replaced, in that order: each writes every move that differs from this
// one by those cells alone, when the game names moves by their cells.
func oldTemplates(text, from, to string) []string {
	var out []string
	add := func(t string) {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	withFrom := func(head string) string {
		if j := strings.Index(head, from); from != "" && j >= 0 {
			return head[:j] + "{from}" + head[j+len(from):]
		}
		return head
	}
	if i := strings.LastIndex(text, to); to != "" && i >= 0 {
		head, tail := text[:i], "{to}"+text[i+len(to):]
		add(withFrom(head) + tail)
		add(withFrom(text))
		add(head + tail)
	}
	add(withFrom(text))
	add(text)
	return out
}
