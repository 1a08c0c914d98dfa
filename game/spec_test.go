package game_test

import (
	"strings"
	"testing"

	"stax/game"
)

var parseSpecTests = []struct {
	in  string
	out string // the spec written back, or "" for an error
	err string // part of the error message
}{
	{"pogo", "pogo", ""},
	{" Pogo ", "pogo", ""},
	{"pogo()", "pogo", ""},
	{"pogo(u=false)", "pogo(u=false)", ""},
	{"pisola( size = 8 , roofs=true )", "pisola(roofs=true,size=8)", ""},
	{"", "", "missing game name"},
	{"(u=1)", "", "missing game name"},
	{"po go", "", "bad game name"},
	{"pogo(u=false", "", "missing closing parenthesis"},
	{"pogo(u)", "", "want key=value"},
	{"pogo(u=)", "", "want key=value"},
	{"pogo(u=1,u=2)", "", "given twice"},
	{"pogo(u=(1))", "", "unexpected parenthesis"},
	{"pogo(u=a b)", "", "keys and values are letters"},
}

func TestParseSpec(t *testing.T) {
	for _, tt := range parseSpecTests {
		sp, err := game.ParseSpec(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseSpec(%q) = %v, %v; want error mentioning %q", tt.in, sp, err, tt.err)
			}
			continue
		}
		if err != nil || sp.String() != tt.out {
			t.Errorf("ParseSpec(%q) = %v, %v; want %s", tt.in, sp, err, tt.out)
		}
	}
}

var testInfo = &game.Info{
	Name: "test",
	Options: []game.Option{
		{Key: "flag", Kind: game.Bool, Default: "false", Doc: "A flag."},
		{Key: "size", Kind: game.Int, Default: "6", Min: 6, Max: 8, Choices: []string{"6", "8"}, Doc: "A size."},
		{Key: "n", Kind: game.Int, Default: "3", Min: 0, Max: 10, Doc: "A number."},
		{Key: "mode", Kind: game.Choice, Default: "empty", Choices: []string{"empty", "any"}, Doc: "A mode."},
	},
}

func TestResolve(t *testing.T) {
	tests := []struct {
		in   game.Options
		want string // "key=value ..." of the resolved options, or an error fragment
	}{
		{nil, "flag=false mode=empty n=3 size=6"},
		{game.Options{"flag": "yes", "size": "8", "mode": "ANY"}, "flag=true mode=any n=3 size=8"},
		{game.Options{"size": "7"}, "want one of 6, 8"},
		{game.Options{"n": "11"}, "want an integer from 0 to 10"},
		{game.Options{"flag": "maybe"}, "want true or false"},
		{game.Options{"mode": "full"}, "want one of empty, any"},
		{game.Options{"colour": "red"}, `unknown option "colour" for test; want one of flag, size, n, mode`},
	}
	for _, tt := range tests {
		got, err := testInfo.Resolve(tt.in)
		var s string
		if err != nil {
			s = err.Error()
		} else {
			s = strings.TrimPrefix(game.Spec{Name: "", Options: got}.String(), "(")
			s = strings.NewReplacer(",", " ", ")", "").Replace(s)
		}
		if !strings.Contains(s, tt.want) {
			t.Errorf("Resolve(%v) = %q, want %q", tt.in, s, tt.want)
		}
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, tt := range parseSpecTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		sp, err := game.ParseSpec(in)
		if err != nil {
			return
		}
		again, err := game.ParseSpec(sp.String())
		if err != nil || again.String() != sp.String() {
			t.Fatalf("ParseSpec(%q) = %s, which does not round-trip: %v", in, sp, err)
		}
	})
}
