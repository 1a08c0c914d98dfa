package record_test

import (
	"reflect"
	"testing"

	"stax/game/record"
)

// FuzzParse checks that Parse never panics and that whatever it accepts
// survives String and Parse unchanged.
func FuzzParse(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(tt.in)
	}
	for _, tt := range parseErrorTests {
		f.Add(tt.in)
	}
	f.Add("[Game \"pogo\"]\n[Result \"1-0\"]\n[Termination \"resignation\"]\n\n1. 1a1-a2 1a3-b3 2. 3b1-b2 1-0\n")
	f.Add("[Game \"diam(players=4)\"]\n\n1. r@1 g@5 y@2 b@6 2. 1:1+ {check} 1-0-0-0")
	f.Add("[Game \"pisola\"]\n[Position \"-,-/-,- w\"]\n\n1. a1+c3 b2+d4 ; comment\n2. pass *")
	f.Add("[A \"\\\\\\\"\"]\n1.x 2...y 1/2-1/2")
	f.Fuzz(func(t *testing.T, in string) {
		r, err := record.Parse(in)
		if err != nil {
			return
		}
		text := r.String()
		back, err := record.Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q) ok, but Parse(String()) of\n%s: %v", in, text, err)
		}
		if !reflect.DeepEqual(back.Tags, r.Tags) && len(back.Tags)+len(r.Tags) > 0 {
			t.Errorf("tags %q became %q", r.Tags, back.Tags)
		}
		if !reflect.DeepEqual(back.Moves, r.Moves) && len(back.Moves)+len(r.Moves) > 0 {
			t.Errorf("moves %q became %q", r.Moves, back.Moves)
		}
		if again := back.String(); again != text {
			t.Errorf("String() not stable:\n%s\nthen\n%s", text, again)
		}
	})
}

// FuzzParseSeat checks that ParseSeat never panics and that whatever it
// accepts is written back the same.
func FuzzParseSeat(f *testing.F) {
	for _, s := range []string{"human", "human:alice", "stax:hard", "engine:./bot --fast", "hard", "stax:", "human: x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		seat, err := record.ParseSeat(s)
		if err != nil {
			return
		}
		if seat.String() != s {
			t.Fatalf("ParseSeat(%q).String() = %q", s, seat.String())
		}
	})
}
