// Package docs holds the tests of the documentation's examples that no
// other package can check: the JSON examples of the server's API.
package docs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"stax/games"
	"stax/server/account"
	"stax/server/analysis"
	"stax/server/archive"
	"stax/server/bots"
	"stax/server/catalog"
	"stax/server/chat"
	"stax/server/clock"
	"stax/server/explorer"
	"stax/server/lessons"
	"stax/server/lobby"
	"stax/server/moderation"
	"stax/server/offline"
	"stax/server/play"
	"stax/server/puzzles"
	"stax/server/ratings"
	"stax/server/view"
)

// wireTypes are the types a JSON example of the docs may name, by the name
// it uses: the package's name and the type's.
var wireTypes = map[string]any{}

func init() {
	for _, v := range []any{
		play.State{}, play.Seat{}, play.CreateRequest{}, play.CreateResponse{}, play.JoinRequest{},
		play.JoinResponse{}, archive.ImportRequest{}, archive.ImportResponse{}, play.Message{}, play.ChatLog{}, play.OfferMsg{}, play.RematchMsg{},
		view.Summary{},
		catalog.GameInfo{}, catalog.Variant{},
		account.Credentials{}, account.PasswordChange{}, account.PasswordConfirm{}, account.Me{},
		account.Preferences{}, account.TokenRequest{}, account.NewToken{}, account.TokenView{},
		ratings.Profile{}, ratings.PoolRating{},
		lobby.SeekRequest{}, lobby.Seek{}, lobby.AcceptResponse{}, lobby.PairingInfo{}, lobby.PairRequest{}, lobby.PairResponse{},
		analysis.AnalyzeRequest{}, analysis.Review{},
		analysis.SetupRequest{}, analysis.Setup{},
		clock.State{}, chat.Line{}, offline.Status{},
		moderation.Blocks{}, moderation.BlockRequest{}, moderation.ReportRequest{}, moderation.ReportResponse{},
		moderation.ResetRequest{},
		explorer.Answer{},
		puzzles.Puzzle{}, puzzles.MoveRequest{}, puzzles.MoveResult{}, puzzles.HintRequest{}, puzzles.Hint{}, puzzles.History{}, puzzles.Themes{}, puzzles.PlayerRating{},
		lessons.Index{}, lessons.LessonView{}, lessons.MoveRequest{}, lessons.MoveResult{},
		bots.GameFull{}, bots.GameState{}, bots.ChatLine{}, bots.OpponentGone{}, bots.OK{}, bots.ChatRequest{},
		bots.Event{}, bots.BotList{},
	} {
		t := reflect.TypeOf(v)
		wireTypes[filepath.Base(t.PkgPath())+"."+t.Name()] = v
	}
	// The board views, outcomes and analyses are aliases of package
	// board's types, which the docs name by the package that serves them.
	wireTypes["view.View"] = view.View{}
	wireTypes["view.Outcome"] = view.Outcome{}
	wireTypes["analysis.Analysis"] = analysis.Analysis{}
	wireTypes["analysis.Verdict"] = analysis.Verdict{}
}

// example is a fenced JSON block of a document: the type named in its
// info string ("```json play.State") and its text.
type example struct {
	file string
	line int
	typ  string
	text string
}

// examples returns the JSON examples of the Markdown file name.
func examples(t *testing.T, name string) []example {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []example
	var cur *example
	var body strings.Builder
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```json"):
			cur = &example{file: name, line: n, typ: strings.TrimSpace(strings.TrimPrefix(line, "```json"))}
			body.Reset()
		case cur != nil && strings.HasPrefix(line, "```"):
			cur.text = body.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line + "\n")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		t.Errorf("%s:%d: the JSON example is not closed", name, cur.line)
	}
	return out
}

// decodeStrict decodes text into v as the server's ReadJSON does: one
// value, no field v does not have, nothing after it.
func decodeStrict(text []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("something follows the value")
	}
	return nil
}

// check decodes an example into the type it names; a websocket Message's
// state is decoded into a State too.
func check(ex example) error {
	proto, ok := wireTypes[ex.typ]
	if !ok {
		return fmt.Errorf("the example names no known wire type (%q); write ```json followed by one of the types of wireTypes", ex.typ)
	}
	v := reflect.New(reflect.TypeOf(proto))
	if err := decodeStrict([]byte(ex.text), v.Interface()); err != nil {
		return fmt.Errorf("does not decode into %s: %v", ex.typ, err)
	}
	if m, ok := v.Interface().(*play.Message); ok && len(m.State) > 0 {
		if err := decodeStrict(m.State, new(play.State)); err != nil {
			return fmt.Errorf("its state does not decode into play.State: %v", err)
		}
	}
	return nil
}

// TestAPIExamples decodes every JSON example of the server's docs into the
// wire type it names, refusing unknown fields, so that an example that
// drifts from the server fails here.
func TestAPIExamples(t *testing.T) {
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	seen := map[string]bool{}
	for _, name := range files {
		for _, ex := range examples(t, name) {
			n++
			seen[ex.typ] = true
			if err := check(ex); err != nil {
				t.Errorf("%s:%d: %v\n%s", ex.file, ex.line, err, ex.text)
			}
		}
	}
	if n < 20 {
		t.Errorf("found %d JSON examples in docs/*.md, want at least 20", n)
	}
	for name := range wireTypes {
		if !seen[name] {
			t.Errorf("no JSON example shows %s", name)
		}
	}
}

// TestAPIExamplesCatch checks that the test notices the faults it is for:
// an unknown field, a value of the wrong type, an unknown type name and
// text after the value.
func TestAPIExamplesCatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		ex   example
		ok   bool
	}{
		{"good", example{typ: "view.Outcome", text: `{"result": "1-0", "reason": "rules", "detail": "", "winners": [0], "description": "White wins"}`}, true},
		{"unknown field", example{typ: "view.Outcome", text: `{"result": "1-0", "winner": 0}`}, false},
		{"wrong type", example{typ: "view.Outcome", text: `{"winners": "0"}`}, false},
		{"unknown type", example{typ: "view.Nothing", text: `{}`}, false},
		{"no type", example{typ: "", text: `{}`}, false},
		{"text after", example{typ: "view.Outcome", text: `{"result": "1-0"} {}`}, false},
		{"message with a bad state", example{typ: "play.Message", text: `{"type": "state", "state": {"plys": 3}}`}, false},
		{"message with a state", example{typ: "play.Message", text: `{"type": "state", "state": {"ply": 3}}`}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := check(tc.ex)
			if (err == nil) != tc.ok {
				t.Errorf("check(%s %s) = %v; want ok %v", tc.ex.typ, tc.ex.text, err, tc.ok)
			}
		})
	}
}

// TestViewExamples checks the board views of api.md against the server:
// each is the view the server builds of the position it describes, and
// its groups spell out that position's legal moves.
func TestViewExamples(t *testing.T) {
	var views []example
	for _, ex := range examples(t, "api.md") {
		if ex.typ == "view.View" {
			views = append(views, ex)
		}
	}
	for i, tc := range []struct {
		spec, position, move string
		moves                int
	}{
		{"pogo", "", "1a1-a2", 16},
		{"pisola", "", "", 570},
		{"diam", "r/g/-/-/r/g/-/- 2", "", 12},
	} {
		if i >= len(views) {
			t.Fatalf("api.md has %d view.View examples; want %d", len(views), i+1)
		}
		g, err := games.Load(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		st := g.Start()
		if tc.position != "" {
			if st, err = g.ParseState(tc.position); err != nil {
				t.Fatal(err)
			}
		}
		var last []string
		if tc.move != "" {
			m, err := st.ParseMove(tc.move)
			if err != nil {
				t.Fatal(err)
			}
			last = view.LastCells(st, m)
			st.Apply(m)
		}
		want, _ := json.Marshal(view.Of(st, false, last))
		var got view.View
		if err := json.Unmarshal([]byte(views[i].text), &got); err != nil {
			t.Fatal(err)
		}
		if g, _ := json.Marshal(&got); !bytes.Equal(g, want) {
			t.Errorf("api.md:%d: the view of %s %q %q is\n%s\nwant\n%s", views[i].line, tc.spec, tc.position, tc.move, g, want)
		}
		if n := len(got.List()); n != tc.moves || n != len(st.Legal(nil)) {
			t.Errorf("api.md:%d: %d moves; want %d", views[i].line, n, tc.moves)
		}
	}
}
