package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"stax/ai/aitest"
	"stax/games"
	"stax/games/pogo"
)

// jsonOutputs are the types of the --json output of each command that
// has one.
var jsonOutputs = map[string][]any{
	"games":   {[]gameJSON{}},
	"moves":   {movesJSON{}},
	"perft":   {perftJSON{}},
	"analyze": {analysisJSON{}, reviewJSON{}},
	"match":   {matchJSON{}},
	"solve":   {pogoSolveJSON{}, diamSolveJSON{}},
}

// decodeStrict decodes out, which must be one JSON value of v's type with
// no field the type lacks.
func decodeStrict(t *testing.T, out string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decoding %T: %v\n%s", v, err, out)
	}
	if dec.More() {
		t.Fatalf("more than one JSON value:\n%s", out)
	}
}

// TestJSON runs every command that has --json and decodes its output.
func TestJSON(t *testing.T) {
	t.Run("games", func(t *testing.T) {
		out, _, err := runCmd(t, "", "games", "--json")
		if err != nil {
			t.Fatal(err)
		}
		var v []gameJSON
		decodeStrict(t, out, &v)
		if len(v) != 3 || v[0].Name != "pogo" || v[0].Start == "" || len(v[0].Options) == 0 {
			t.Errorf("stax games --json: %+v", v)
		}
	})
	t.Run("moves", func(t *testing.T) {
		for _, tc := range []struct {
			args    []string
			moves   int
			outcome string
		}{
			{[]string{"moves", "pogo", "--json"}, 16, "*"},
			{[]string{"moves", "pogo", "--pos", "-,-,bbbbbbwwwww/-,-,-/w,-,- b", "--json"}, 0, "1-0 rules; every stack topped by White"},
		} {
			out, _, err := runCmd(t, "", tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			var v movesJSON
			decodeStrict(t, out, &v)
			if len(v.Moves) != tc.moves || v.Outcome != tc.outcome || v.Spec != "pogo" {
				t.Errorf("stax %s: %+v", strings.Join(tc.args, " "), v)
			}
		}
	})
	t.Run("perft", func(t *testing.T) {
		out, _, err := runCmd(t, "", "perft", "pogo", "3", "--divide", "--json")
		if err != nil {
			t.Fatal(err)
		}
		var v perftJSON
		decodeStrict(t, out, &v)
		want := []perftDepth{{1, 16}, {2, 240}, {3, 3787}}
		var total uint64
		for _, d := range v.Divide {
			total += d.Leaves
		}
		if !reflect.DeepEqual(v.Depths, want) || len(v.Divide) != 16 || total != 3787 {
			t.Errorf("stax perft pogo 3 --divide --json: %+v", v)
		}
	})
	t.Run("analyze", func(t *testing.T) {
		out, _, err := runCmd(t, "", "analyze", "pisola", "--depth", "1", "--json")
		if err != nil {
			t.Fatal(err)
		}
		var v analysisJSON
		decodeStrict(t, out, &v)
		if v.Spec != "pisola" || len(v.Moves) == 0 || v.Moves[0].Depth != 1 || v.Exact || v.Outcome != "*" {
			t.Errorf("stax analyze pisola --depth 1 --json: %+v", v)
		}
	})
	t.Run("review", func(t *testing.T) {
		out, _, err := runCmd(t, "", "analyze", "--load", filepath.Join("testdata", "review", "diam.txt"), "--depth", "2", "--json")
		if err != nil {
			t.Fatal(err)
		}
		var v reviewJSON
		decodeStrict(t, out, &v)
		if v.Spec != "diam" || len(v.Moves) == 0 || len(v.Marks) != 2 || v.Outcome == "" || v.Thresholds.Blunder == 0 {
			t.Errorf("stax analyze --load diam.txt --json: %+v", v)
		}
	})
	t.Run("match", func(t *testing.T) {
		out, _, err := runCmd(t, "", "match", "pogo", "--engine", "g=stax:greedy", "--engine", "r=stax:random",
			"--games", "4", "--time", "5ms", "--openings", "1", "--sprt", "0,20", "--json", "--quiet")
		if err != nil {
			t.Fatal(err)
		}
		var v matchJSON
		decodeStrict(t, out, &v)
		if v.Played != 4 || len(v.Engines) != 2 || v.Engines[0].Name != "g" || len(v.Pairs) != 1 || v.SPRT == nil ||
			v.Engines[0].Played != 4 || v.Engines[0].Score+v.Engines[1].Score != 4 {
			t.Errorf("stax match --json: %+v", v)
		}
	})
	t.Run("solve diam", func(t *testing.T) {
		out, _, err := runCmd(t, "", "solve", "diam", "--pos", "gr/-/-/r/g/-/-/- 2", "--table", "4", "--quiet", "--json")
		if err != nil {
			t.Fatal(err)
		}
		var v diamSolveJSON
		decodeStrict(t, out, &v)
		if !v.Loss.Proven || v.Loss.Plies == 0 || len(v.Moves) == 0 || len(v.Survey) != surveyDepth+1 || v.Outcome != "*" {
			t.Errorf("stax solve diam --json: %+v", v)
		}
	})
	// Solving Pogo takes a minute of CPU: its JSON is made here from the
	// table in the cache, as the command makes it after solving.
	t.Run("solve pogo", func(t *testing.T) {
		tables := aitest.Tables(t)
		table, err := tables.Table(true)
		if err != nil {
			t.Fatal(err)
		}
		g, err := games.Load("pogo")
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := writeJSON(&b, pogoSolveOf(g.(*pogo.Game), table, "pogo-u-true.tbl", time.Second, nil)); err != nil {
			t.Fatal(err)
		}
		var v pogoSolveJSON
		decodeStrict(t, b.String(), &v)
		if v.Positions != 116396280 || v.Verdict != "draw" || len(v.Moves) != 16 || v.Wins+v.Losses+v.Draws+v.Unreachable != v.Positions {
			t.Errorf("stax solve pogo --json: %+v", v)
		}
	})
}

// TestJSONDocumented checks that the help of each command with --json
// names every field of its output, and that the commands that have
// --json are the ones with an output type.
func TestJSONDocumented(t *testing.T) {
	for _, c := range commands() {
		fs, err := flagSet(&c)
		if err != nil {
			t.Fatal(err)
		}
		types, ok := jsonOutputs[c.name]
		if has := fs.Lookup("json") != nil; has != ok {
			t.Errorf("stax %s: --json %v, output types %v", c.name, has, types)
			continue
		}
		help := longText(c.name)
		for _, v := range types {
			for _, name := range jsonFields(reflect.TypeOf(v)) {
				if !strings.Contains(help, `"`+name+`"`) {
					t.Errorf("help/%s.txt does not describe the field %q of %T", c.name, name, v)
				}
			}
		}
	}
}

// jsonFields returns the JSON names of the fields of t and of the types
// it holds.
func jsonFields(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t.PkgPath() != "stax/cmd/stax" && t.PkgPath() != "main" {
		return nil
	}
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
		names = append(names, jsonFields(f.Type)...)
	}
	return names
}
