package record_test

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"stax/game"
	"stax/game/gametest"
	"stax/game/record"
	"stax/games"
)

var parseTests = []struct {
	name  string
	in    string
	tags  []record.Tag
	moves []string
}{
	{"empty move list", "[Game \"pogo\"]\n\n*\n",
		[]record.Tag{{"Game", "pogo"}}, nil},
	{"tags only", "[Game \"pogo\"]\n[Result \"*\"]\n",
		[]record.Tag{{"Game", "pogo"}, {"Result", "*"}}, nil},
	{"moves only", "1. 1a1-a2 1a3-b3 *",
		nil, []string{"1a1-a2", "1a3-b3"}},
	{"numbers and results", "[Game \"pogo\"]\n[Result \"1-0\"]\n\n1. 1a1-a2 1a3-b3 2. 2a2-c2 1-0\n",
		[]record.Tag{{"Game", "pogo"}, {"Result", "1-0"}}, []string{"1a1-a2", "1a3-b3", "2a2-c2"}},
	{"result token fills the tag", "[Game \"pogo\"]\n\n1. 1a1-a2 0-1",
		[]record.Tag{{"Game", "pogo"}, {"Result", "0-1"}}, []string{"1a1-a2"}},
	{"four-player result", "[Game \"diam(players=4)\"]\n\n1. r@1 g@2 y@3 b@4 2. 1:1+ 0-1-0-0\n",
		[]record.Tag{{"Game", "diam(players=4)"}, {"Result", "0-1-0-0"}}, []string{"r@1", "g@2", "y@3", "b@4", "1:1+"}},
	{"comments", "[Game \"pogo\"]\n\n{opening} 1. 1a1-a2 {a quiet\n\nmove} 1a3-b3 ; rest of line 2. ignored\n2. 2a2-c2 *",
		[]record.Tag{{"Game", "pogo"}}, []string{"1a1-a2", "1a3-b3", "2a2-c2"}},
	{"numbers stuck to moves", "1.1a1-a2 1...1a3-b3 2.2a2-c2",
		nil, []string{"1a1-a2", "1a3-b3", "2a2-c2"}},
	{"escapes and spaces", "  [ Event  \"say \\\"hi\\\" \\\\ bye\" ]  \r\n\r\n*\r\n",
		[]record.Tag{{"Event", `say "hi" \ bye`}}, nil},
	{"byte order mark", "\uFEFF[Game \"pogo\"]\n\n1. 1a1-a2 *",
		[]record.Tag{{"Game", "pogo"}}, []string{"1a1-a2"}},
	{"tags then moves without a blank line", "[Game \"diam\"]\n1. r@1 g@5 *",
		[]record.Tag{{"Game", "diam"}}, []string{"r@1", "g@5"}},
	{"pass and pisola moves", "1. a1+c3 b2+d4 2. pass c3-c5",
		nil, []string{"a1+c3", "b2+d4", "pass", "c3-c5"}},
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := record.Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if !reflect.DeepEqual(r.Tags, tt.tags) {
				t.Errorf("Parse(%q).Tags = %q, want %q", tt.in, r.Tags, tt.tags)
			}
			if !reflect.DeepEqual(r.Moves, tt.moves) {
				t.Errorf("Parse(%q).Moves = %q, want %q", tt.in, r.Moves, tt.moves)
			}
			checkRoundTrip(t, r)
		})
	}
}

var parseErrorTests = []struct {
	name string
	in   string
	line int
	want string // a fragment of the message
}{
	{"empty", "", 1, "no record"},
	{"blank", "\n\n  \n", 4, "no record"},
	{"tag without quotes", "[Game pogo]\n", 1, "value in double quotes"},
	{"tag without name", "[\"pogo\"]\n", 1, "want a name"},
	{"tag unclosed quote", "[Game \"pogo]\n", 1, "closing quote"},
	{"tag unclosed bracket", "[Game \"pogo\"\n", 1, "want ]"},
	{"tag trailing text", "[Game \"pogo\"] 1. 1a1-a2\n", 1, "nothing else"},
	{"bad escape", "[Game \"po\\go\"]\n", 1, "bad escape"},
	{"control character", "[Game \"po\x01go\"]\n", 1, "control character"},
	{"bad result tag", "[Result \"white\"]\n", 1, "Result tag"},
	{"duplicate tag", "[Game \"pogo\"]\n[Game \"diam\"]\n", 2, "given twice"},
	{"move after result", "[Game \"pogo\"]\n\n1. 1a1-a2\n1-0 1a3-a2\n", 4, "after the result"},
	{"result disagrees", "[Result \"1-0\"]\n\n1. 1a1-a2 0-1\n", 3, "disagrees"},
	{"unclosed comment", "[Game \"pogo\"]\n\n1. 1a1-a2 {oops\n1a3-a2\n", 3, "not closed"},
	{"stray brace", "1. 1a1-a2 } 1a3-a2", 1, "} with no {"},
	{"variation", "1. 1a1-a2 (1a1-b1) 1a3-a2", 1, "variations"},
	{"quote in move", "1. 1a1\"-a2", 1, "unexpected character"},
	{"two records", "[Game \"pogo\"]\n\n*\n\n[Game \"diam\"]\n\n*\n", 5, "a second record starts here"},
}

func TestParseErrors(t *testing.T) {
	for _, tt := range parseErrorTests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := record.Parse(tt.in)
			var se *record.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse(%q) = %v, want a *SyntaxError", tt.in, err)
			}
			if se.Line != tt.line || !strings.Contains(se.Msg, tt.want) {
				t.Errorf("Parse(%q) = %v, want line %d and %q", tt.in, err, tt.line, tt.want)
			}
		})
	}
}

func TestParseAll(t *testing.T) {
	in := `[Game "pogo"]
[Result "*"]

[Game "pogo(u=false)"]

1. 1a1-a2 *


{a record without tags}
1. 1a1-a2
[Game "diam"]

1. r@1 g@5 2. y@2 b@6 *
`
	rs, err := record.ParseAll(in)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		game  string
		moves int
	}{{"pogo", 0}, {"pogo(u=false)", 1}, {"", 1}, {"diam", 4}}
	if len(rs) != len(want) {
		t.Fatalf("ParseAll: %d records, want %d", len(rs), len(want))
	}
	for i, w := range want {
		if g := rs[i].Get("Game"); g != w.game || len(rs[i].Moves) != w.moves {
			t.Errorf("record %d: Game %q with %d moves, want %q with %d", i, g, len(rs[i].Moves), w.game, w.moves)
		}
	}
	if rs, err := record.ParseAll(" \n\n"); err != nil || len(rs) != 0 {
		t.Errorf("ParseAll(blank) = %d records, %v; want none", len(rs), err)
	}
	if _, err := record.ParseAll("[Game \"pogo\"]\n\n*\n\n[Game pogo]\n"); err == nil || !strings.Contains(err.Error(), "line 5") {
		t.Errorf("ParseAll with a bad second record = %v, want an error on line 5", err)
	}
}

func TestString(t *testing.T) {
	r := &record.Record{
		Tags:  []record.Tag{{"Game", "diam(players=4)"}, {"Event", `a "quoted" \ name`}},
		Moves: []string{"r@1", "g@2", "y@3", "b@4", "1:1+", "g@6"},
	}
	want := `[Game "diam(players=4)"]
[Event "a \"quoted\" \\ name"]

1. r@1 g@2 y@3 b@4 2. 1:1+ g@6 *
`
	if got := r.String(); got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
	// Long move lists wrap before column 80 and keep numbers with moves.
	long := &record.Record{Tags: []record.Tag{{"Game", "pogo"}, {"Result", "1/2-1/2"}}}
	for i := 0; i < 100; i++ {
		long.Moves = append(long.Moves, "1a1-a2")
	}
	for _, line := range strings.Split(long.String(), "\n") {
		if len(line) >= 80 {
			t.Errorf("line of %d characters: %q", len(line), line)
		}
		if strings.HasSuffix(line, ".") {
			t.Errorf("line ends with a move number: %q", line)
		}
	}
	checkRoundTrip(t, long)
	if !strings.HasSuffix(long.String(), " 1/2-1/2\n") {
		t.Errorf("String() does not end with the result: %q", long.String())
	}
}

func TestSetGetDelete(t *testing.T) {
	var r record.Record
	r.Set("Game", "pogo")
	r.Set("Date", "2026.01.02")
	r.Set("Game", "diam")
	if got := r.Get("Game"); got != "diam" || len(r.Tags) != 2 || r.Tags[0].Name != "Game" {
		t.Errorf("after Set: %q", r.Tags)
	}
	if r.Get("Seat1") != "" || r.Has("Seat1") {
		t.Errorf("Get of a missing tag is not empty")
	}
	r.Delete("Game")
	if r.Has("Game") || len(r.Tags) != 1 {
		t.Errorf("after Delete: %q", r.Tags)
	}
	if record.SeatTag(3) != "Seat4" {
		t.Errorf("SeatTag(3) = %q", record.SeatTag(3))
	}
}

// checkRoundTrip checks that a record survives String and Parse.
func checkRoundTrip(t *testing.T, r *record.Record) {
	t.Helper()
	text := r.String()
	back, err := record.Parse(text)
	if err != nil {
		t.Fatalf("Parse(String()) of\n%s: %v", text, err)
	}
	if !reflect.DeepEqual(back.Tags, r.Tags) && len(back.Tags)+len(r.Tags) > 0 {
		t.Errorf("round trip tags = %q, want %q", back.Tags, r.Tags)
	}
	if len(back.Moves) != len(r.Moves) || len(r.Moves) > 0 && !reflect.DeepEqual(back.Moves, r.Moves) {
		t.Errorf("round trip moves = %q, want %q", back.Moves, r.Moves)
	}
	if again := back.String(); again != text {
		t.Errorf("String() is not stable:\n%s\nthen\n%s", text, again)
	}
}

func TestParseResult(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want []game.Result
		ok   bool
	}{
		{"1-0", 2, []game.Result{game.Win, game.Loss}, true},
		{"0-1", 2, []game.Result{game.Loss, game.Win}, true},
		{"1/2-1/2", 2, []game.Result{game.Draw, game.Draw}, true},
		{"1-0-1-0", 4, []game.Result{game.Win, game.Loss, game.Win, game.Loss}, true},
		{"*", 2, []game.Result{game.Ongoing, game.Ongoing}, true},
		{"1-0", 4, nil, false},
		{"2-0", 2, nil, false},
		{"", 2, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := record.ParseResult(tt.in, tt.n)
			if (err == nil) != tt.ok {
				t.Fatalf("ParseResult(%q, %d) error = %v, want ok %v", tt.in, tt.n, err, tt.ok)
			}
			if tt.ok && !reflect.DeepEqual(got[:tt.n], tt.want) {
				t.Errorf("ParseResult(%q, %d) = %v, want %v", tt.in, tt.n, got[:tt.n], tt.want)
			}
		})
	}
}

func TestTermination(t *testing.T) {
	tests := []struct {
		o      game.Outcome
		want   string
		reason game.Reason
		detail string
	}{
		{game.Outcome{}, "", game.NotOver, ""},
		{game.Decided(2, game.ByRules, "every stack topped by White", 0), "rules", game.ByRules, ""},
		{game.Drawn(2, game.ByRepetition, ""), "repetition", game.ByRepetition, ""},
		{game.Drawn(2, game.ByPlyCap, ""), "ply cap", game.ByPlyCap, ""},
		{game.Decided(2, game.ByResignation, "", 1), "resignation", game.ByResignation, ""},
		{game.Decided(2, game.ByForfeit, "illegal move 1a1-c3", 1), "forfeit: illegal move 1a1-c3", game.ByForfeit, "illegal move 1a1-c3"},
		{game.Decided(2, game.ByTime, "White's time ran out", 1), "time: White's time ran out", game.ByTime, "White's time ran out"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got := record.Termination(tt.o)
			if got != tt.want {
				t.Errorf("Termination(%v) = %q, want %q", tt.o, got, tt.want)
			}
			if r, d := record.ParseTermination(got); r != tt.reason || d != tt.detail {
				t.Errorf("ParseTermination(%q) = %v, %q; want %v, %q", got, r, d, tt.reason, tt.detail)
			}
		})
	}
}

// play plays the given moves from the start of spec.
func play(t *testing.T, spec string, moves ...string) *game.History {
	t.Helper()
	g, err := games.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	return gametest.History(t, g, moves...)
}

func TestFromHistory(t *testing.T) {
	h := play(t, "pogo(u=false)", "1a1-a2", "1a3-b3")
	r := record.FromHistory(h, record.Tag{"Date", "2026.11.22"}, record.Tag{"Seat1", "human:alice"},
		record.Tag{"Result", "1-0"}, record.Tag{"Game", "diam"}, record.Tag{"Termination", "abandoned"})
	want := `[Game "pogo(u=false)"]
[Date "2026.11.22"]
[Seat1 "human:alice"]
[Result "*"]
[Termination "abandoned"]

1. 1a1-a2 1a3-b3 *
`
	if got := r.String(); got != want {
		t.Errorf("FromHistory: got\n%s\nwant\n%s", got, want)
	}

	h.Resign(1, game.ByResignation, "")
	r = record.FromHistory(h)
	if r.Get("Result") != "1-0" || r.Get("Termination") != "resignation" {
		t.Errorf("after resignation: %q", r.Tags)
	}
	back, err := r.Replay(games.All())
	if err != nil {
		t.Fatal(err)
	}
	if o := back.Outcome(); o.Reason != game.ByResignation || o.ResultString() != "1-0" {
		t.Errorf("replayed outcome %+v, want Black's resignation", o)
	}

	// A game from a position records it.
	g, _ := games.Load("pogo")
	s, err := g.ParseState("bb,bb,bb/-,-,-/ww,ww,ww b")
	if err != nil {
		t.Fatal(err)
	}
	h = game.NewHistory(g, s)
	if err := h.Play("1a3-a2"); err != nil {
		t.Fatal(err)
	}
	r = record.FromHistory(h)
	if r.Get("Position") != "bb,bb,bb/-,-,-/ww,ww,ww b" {
		t.Errorf("Position tag = %q", r.Get("Position"))
	}
	back, err = r.Replay(games.All())
	if err != nil || back.State().String() != h.State().String() {
		t.Errorf("Replay from a position: %v, %v", back, err)
	}
}

func TestFromHistoryFourPlayers(t *testing.T) {
	h := play(t, "diam(players=4,teams=true)", "r@1", "g@2", "y@3", "b@4", "1:1+")
	h.Resign(1, game.ByForfeit, "illegal move 9:1+")
	r := record.FromHistory(h)
	text := r.String()
	want := `[Game "diam(players=4,teams=true)"]
[Result "1-0-1-0"]
[Termination "forfeit: illegal move 9:1+"]

1. r@1 g@2 y@3 b@4 2. 1:1+ 1-0-1-0
`
	if text != want {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
	p, err := record.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	back, err := p.Replay(games.All())
	if err != nil {
		t.Fatal(err)
	}
	if o := back.Outcome(); o.Reason != game.ByForfeit || o.Detail != "illegal move 9:1+" || o.ResultString() != "1-0-1-0" {
		t.Errorf("replayed outcome %+v", o)
	}
}

var replayErrorTests = []struct {
	name string
	in   string
	ply  int
	want string
}{
	{"no game", "1. 1a1-a2 *", 0, "no Game tag"},
	{"unknown game", "[Game \"chess\"]\n\n*", 0, "unknown game"},
	{"bad option", "[Game \"pogo(u=maybe)\"]\n\n*", 0, "true or false"},
	{"bad position", "[Game \"pogo\"]\n[Position \"x\"]\n\n*", 0, "position"},
	{"illegal move", "[Game \"pogo\"]\n\n1. 1a1-a2 1a1-a2 *", 2, "Black to move"},
	{"malformed move", "[Game \"pogo\"]\n\n1. 1a1-a2 zz *", 2, "zz"},
	{"move after the end", "[Game \"pogo\"]\n[Position \"-,-,-/-,-,-/w,wwwwwbbbbbb,- w\"]\n\n1. 1a1-b1 1b1-b2 *", 2, "over"},
	{"result disagrees with the moves", "[Game \"pogo\"]\n[Position \"-,-,-/-,-,-/w,wwwwwbbbbbb,- w\"]\n\n1. 1a1-b1 0-1", 0, "not 0-1"},
	{"result without an end", "[Game \"pogo\"]\n\n1. 1a1-a2 1-0", 0, "do not end the game"},
	{"resignation with a draw", "[Game \"pogo\"]\n[Termination \"resignation\"]\n\n1. 1a1-a2 1/2-1/2", 0, "no winner"},
	{"bad result", "[Game \"pogo\"]\n[Result \"1-0-0\"]\n[Termination \"time\"]\n\n1. 1a1-a2", 0, "want 2 fields"},
	{"final position", "[Game \"pogo\"]\n[FinalPosition \"bb,bb,bb/-,-,-/ww,ww,ww w\"]\n\n1. 1a1-a2 *", 0, "FinalPosition"},
}

func TestReplayErrors(t *testing.T) {
	for _, tt := range replayErrorTests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := record.Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			_, err = r.Replay(games.All())
			var re *record.ReplayError
			if !errors.As(err, &re) {
				t.Fatalf("Replay = %v, want a *ReplayError", err)
			}
			if re.Ply != tt.ply || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Replay = %v (ply %d), want ply %d and %q", err, re.Ply, tt.ply, tt.want)
			}
		})
	}
}

// TestDocExamples parses every example record in docs/records.md and
// replays those of registered games.
func TestDocExamples(t *testing.T) {
	data, err := os.ReadFile("../../docs/records.md")
	if err != nil {
		t.Skip(err)
	}
	blocks := strings.Split(string(data), "```")
	n := 0
	for i := 1; i < len(blocks); i += 2 {
		b := blocks[i]
		if !strings.HasPrefix(b, "\n[") {
			continue
		}
		n++
		r, err := record.Parse(b)
		if err != nil {
			t.Errorf("example %d: %v\n%s", n, err, b)
			continue
		}
		if r.String() != strings.TrimPrefix(b, "\n") {
			t.Errorf("example %d is not in canonical form:\n%s\nwant\n%s", n, b, r.String())
		}
		if _, err := r.Game(games.All()); err != nil {
			t.Logf("example %d not replayed: %v", n, err)
			continue
		}
		if _, err := r.Replay(games.All()); err != nil {
			t.Errorf("example %d: %v", n, err)
		}
	}
	if n < 5 {
		t.Errorf("found %d examples in docs/records.md, want at least 5", n)
	}
}

// manyTags returns a record of n distinct tags (and dup, when not empty,
// once more at the end) and one move.
func manyTags(n int, dup string) string {
	var b strings.Builder
	b.WriteString("[Game \"pogo\"]\n")
	for i := range n {
		fmt.Fprintf(&b, "[T%d \"%d\"]\n", i, i)
	}
	if dup != "" {
		fmt.Fprintf(&b, "[%s \"again\"]\n", dup)
	}
	b.WriteString("\n1. 1a1-a2 *\n")
	return b.String()
}

// TestManyTags checks that a record of 200,000 tags is read whole and that
// a repeated tag at its end is still found.
func TestManyTags(t *testing.T) {
	const n = 200000
	r, err := record.Parse(manyTags(n, ""))
	if err != nil || len(r.Tags) != n+1 || r.Get("T199999") != "199999" {
		t.Fatalf("Parse of %d tags: %v; want every tag", n, err)
	}
	_, err = record.Parse(manyTags(n, "T7"))
	var se *record.SyntaxError
	if !errors.As(err, &se) || se.Line != n+2 || !strings.Contains(se.Msg, "T7 given twice") {
		t.Fatalf("Parse of %d tags with T7 again: %v; want tag T7 given twice at line %d", n, err, n+2)
	}
}

func TestSeat(t *testing.T) {
	for _, tc := range []struct {
		seat record.Seat
		text string
	}{
		{record.Seat{Kind: record.Human}, "human"},
		{record.Seat{Kind: record.Human, Name: "alice"}, "human:alice"},
		{record.Seat{Kind: record.Human, Name: "Ana María"}, "human:Ana María"},
		{record.Seat{Kind: record.Level, Name: "hard"}, "stax:hard"},
		{record.Seat{Kind: record.Engine, Name: "mybot"}, "engine:mybot"},
		{record.Seat{Kind: record.Engine, Name: "./bot --fast"}, "engine:./bot --fast"},
	} {
		if got := tc.seat.String(); got != tc.text {
			t.Errorf("%#v.String() = %q; want %q", tc.seat, got, tc.text)
		}
		if got, err := record.ParseSeat(tc.text); err != nil || got != tc.seat {
			t.Errorf("ParseSeat(%q) = %#v, %v; want %#v", tc.text, got, err, tc.seat)
		}
	}
	for _, in := range []string{"", "hard", "stax:", "robot:x", "human:", "human: bob", "Human:bob"} {
		if _, err := record.ParseSeat(in); err == nil || !strings.Contains(err.Error(), "want human, human:NAME, stax:LEVEL or engine:NAME") {
			t.Errorf("ParseSeat(%q) error %v; want one saying what is expected", in, err)
		}
	}
}
