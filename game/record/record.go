// Package record reads and writes game records: PGN-style tag pairs that
// name the game, its players and its result, followed by the move list in
// the game's notation. docs/records.md describes the text format.
//
// Parse and ParseAll check only the syntax of a record; Replay loads the
// game its Game tag names and plays every move, so errors in the moves are
// found there. FromHistory turns a game in play into a record. Seat writes
// and parses the values of the Seat tags (who played each seat).
package record

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"stax/game"
)

// Tag is one tag pair of a record, e.g. Game "pogo(u=false)".
type Tag struct{ Name, Value string }

// The well-known tag names.
const (
	TagGame          = "Game"          // the game spec, e.g. pogo(u=false)
	TagPosition      = "Position"      // the starting position string; absent means the start
	TagDate          = "Date"          // YYYY.MM.DD
	TagResult        = "Result"        // 1-0, 0-1, 1/2-1/2, 1-0-1-0, or * for a game in progress
	TagTermination   = "Termination"   // rules, repetition, ply cap, resignation, time, forfeit[: detail]
	TagFinalPosition = "FinalPosition" // the position after the last move, for checking a replay
)

// SeatTag returns the name of the tag that says who played seat p
// (0-based): Seat1 for p = 0.
func SeatTag(p int) string { return "Seat" + strconv.Itoa(p+1) }

// DateTag returns the Date tag for t, in the form YYYY.MM.DD.
func DateTag(t time.Time) Tag { return Tag{TagDate, t.Format("2006.01.02")} }

// Record is a game record: PGN-style tag pairs and the move list.
type Record struct {
	// Tags holds the tag pairs in order. Well-known names: Game (the spec,
	// e.g. pogo(u=false)), Position (absent = start), Date (YYYY.MM.DD),
	// Seat1..Seat4 (who played each seat, e.g. "human:alice" or
	// "stax:hard"), Result ("1-0", "0-1", "1/2-1/2", 4-player "1-0-1-0",
	// or "*"), Termination (e.g. "rules", "repetition", "ply cap",
	// "resignation", "time", "forfeit: illegal move 1a1-c3").
	Tags []Tag
	// Moves holds the moves in the game's notation.
	Moves []string

	// players is the number of players when known from a game (FromHistory);
	// otherwise String reads it from the Game tag.
	players int
}

// Get returns the value of the named tag, or "" if the record has none.
func (r *Record) Get(name string) string {
	for _, t := range r.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// Has reports whether the record has the named tag.
func (r *Record) Has(name string) bool {
	for _, t := range r.Tags {
		if t.Name == name {
			return true
		}
	}
	return false
}

// Set sets the named tag, replacing its value in place if the record has
// it and appending it otherwise.
func (r *Record) Set(name, value string) {
	for i := range r.Tags {
		if r.Tags[i].Name == name {
			r.Tags[i].Value = value
			return
		}
	}
	r.Tags = append(r.Tags, Tag{name, value})
}

// Delete removes the named tag if the record has it.
func (r *Record) Delete(name string) {
	for i := range r.Tags {
		if r.Tags[i].Name == name {
			r.Tags = append(r.Tags[:i], r.Tags[i+1:]...)
			return
		}
	}
}

// Players returns the number of players the move numbers count rounds of:
// the number of players of the game the record came from, else the
// players option of the Game tag, else 2.
func (r *Record) Players() int {
	if r.players > 0 {
		return r.players
	}
	if sp, err := game.ParseSpec(r.Get(TagGame)); err == nil {
		if n, err := strconv.Atoi(sp.Options["players"]); err == nil && n >= 1 && n <= game.MaxPlayers {
			return n
		}
	}
	return 2
}

// lineWidth is the column that String wraps the move list before.
const lineWidth = 79

// String writes the record in the text format of docs/records.md: one tag
// pair per line, a blank line, the numbered move list wrapped before column
// 80, and the result token. The text ends with a newline; records written
// one after another must be separated by a blank line.
func (r *Record) String() string {
	var b strings.Builder
	for _, t := range r.Tags {
		b.WriteString("[" + t.Name + " " + quote(t.Value) + "]\n")
	}
	if len(r.Tags) > 0 {
		b.WriteByte('\n')
	}
	n := r.Players()
	col := 0
	word := func(w string) {
		switch {
		case col == 0:
		case col+1+len(w) > lineWidth:
			b.WriteByte('\n')
			col = 0
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	for i, m := range r.Moves {
		if i%n == 0 {
			// Keep a move number on the line of the move it numbers.
			num := strconv.Itoa(i/n+1) + "."
			if col > 0 && col+1+len(num)+1+len(m) > lineWidth {
				b.WriteByte('\n')
				col = 0
			}
			word(num)
		}
		word(m)
	}
	res := r.Get(TagResult)
	if !isResult(res) {
		res = "*"
	}
	word(res)
	b.WriteByte('\n')
	return b.String()
}

// quote writes a tag value between double quotes, escaping " and \ with a
// backslash as PGN does. Control characters other than tab, which a tag
// value cannot hold, are written as spaces.
func quote(v string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < ' ' && c != '\t' || c == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// FromHistory returns the record of a game in play or finished: its Game
// tag, its Position tag when it did not start from the start, the given
// tags in order, then its Result and, when the game is over, its
// Termination, and its moves. A Game, Position or Result among the given
// tags is ignored; a given Termination is kept only while the game is not
// over.
func FromHistory(h *game.History, tags ...Tag) *Record {
	g := h.Game()
	r := &Record{players: g.Players()}
	r.Set(TagGame, game.SpecOf(g).String())
	if start := h.Start().String(); start != g.Start().String() {
		r.Set(TagPosition, start)
	}
	var term string
	for _, t := range tags {
		switch t.Name {
		case TagGame, TagPosition, TagResult:
		case TagTermination:
			term = t.Value
		default:
			r.Set(t.Name, t.Value)
		}
	}
	o := h.Outcome()
	r.Set(TagResult, o.ResultString())
	if o.Over() {
		term = Termination(o)
	}
	if term != "" {
		r.Set(TagTermination, term)
	}
	r.Moves = h.Notation()
	return r
}

// Termination returns the Termination tag value for a finished game's
// outcome: the reason ("rules", "repetition", "ply cap", "resignation",
// "time", "forfeit", "agreement" or "aborted"), followed for the last five
// by ": " and the outcome's detail when it has one. It returns "" for a game in progress.
func Termination(o game.Outcome) string {
	switch o.Reason {
	case game.NotOver:
		return ""
	case game.ByResignation, game.ByTime, game.ByForfeit, game.ByAgreement, game.Aborted:
		if o.Detail != "" {
			return o.Reason.String() + ": " + o.Detail
		}
	}
	return o.Reason.String()
}

// ParseTermination splits a Termination tag value into its reason and its
// detail. The reason is NotOver when the value names none of game.Reason's
// reasons.
func ParseTermination(v string) (game.Reason, string) {
	name, detail, _ := strings.Cut(v, ":")
	name = strings.ToLower(strings.TrimSpace(name))
	for r := game.ByRules; r <= game.Aborted; r++ {
		if r.String() == name {
			return r, strings.TrimSpace(detail)
		}
	}
	return game.NotOver, ""
}

// ParseResult parses a result token for a game of n players into each
// player's result: "1-0", "0-1" and "1/2-1/2" for two, "1-0-1-0" and the
// like for more, and "*" for a game in progress (every result Ongoing).
func ParseResult(s string, n int) ([game.MaxPlayers]game.Result, error) {
	var res [game.MaxPlayers]game.Result
	if s == "*" {
		return res, nil
	}
	if n < 1 || n > game.MaxPlayers {
		return res, fmt.Errorf("result %q: bad number of players %d", s, n)
	}
	parts := strings.Split(s, "-")
	if len(parts) != n {
		return res, fmt.Errorf("result %q: want %d fields separated by -, each 1, 0 or 1/2, or * for a game in progress", s, n)
	}
	for i, p := range parts {
		switch p {
		case "1":
			res[i] = game.Win
		case "0":
			res[i] = game.Loss
		case "1/2":
			res[i] = game.Draw
		default:
			return res, fmt.Errorf("result %q: field %q: want 1, 0 or 1/2", s, p)
		}
	}
	return res, nil
}

// isResult reports whether a token has the form of a result: "*" or
// fields of 1, 0 or 1/2 separated by "-".
func isResult(s string) bool {
	if s == "*" {
		return true
	}
	parts := strings.Split(s, "-")
	if len(parts) < 2 || len(parts) > game.MaxPlayers {
		return false
	}
	for _, p := range parts {
		if p != "1" && p != "0" && p != "1/2" {
			return false
		}
	}
	return true
}
