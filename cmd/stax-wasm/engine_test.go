package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestHandle checks the engine's answers natively, as the browser gets
// them in JSON: each request's answer, or its error saying what was
// expected.
func TestHandle(t *testing.T) {
	tests := []struct {
		name    string
		req     string
		want    []string // substrings of the answer
		wantErr string
	}{
		{"games", `{"op":"games"}`, []string{`"name":"pogo"`, `"name":"pisola"`, `"name":"diam"`, `"hard"`}, ""},
		{"no perfect", `{"op":"games"}`, nil, ""},
		{"variant", `{"op":"variant","spec":"diam(players=4)"}`, []string{`"players":4`, `"view":`, `"levels":["beginner"`}, ""},
		{"state", `{"op":"state","spec":"pogo","moves":["1a1-b1"]}`, []string{`"ply":1`, `"toMove":1`, `"last":["a1","b1"]`, `"outcome":null`}, ""},
		{"play", `{"op":"play","spec":"pisola","level":"easy","seed":3}`, []string{`"move":"`}, ""},
		{"analyze", `{"op":"analyze","spec":"pogo","depth":2}`, []string{`"moves":[{"move":`, `"local":true`, `"source":"estimate"`}, ""},
		{"bench", `{"op":"bench","ms":30}`, []string{`"nps":`}, ""},
		{"bad op", `{"op":"fly","spec":"pogo"}`, nil, `unknown op "fly": want games, variant, state, play, analyze or bench`},
		{"bad spec", `{"op":"state","spec":"chess"}`, nil, `state: spec "chess"`},
		{"illegal move", `{"op":"state","spec":"pogo","moves":["1a1-a3"]}`, nil, "move 1"},
		{"bad level", `{"op":"play","spec":"pogo","level":"perfect"}`, nil, "valid levels are beginner, easy, medium, hard, strongest"},
		{"not json", `play`, nil, "a request is a JSON object with an op"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := string(HandleJSON([]byte(tc.req)))
			var e struct {
				Error string `json:"error"`
			}
			json.Unmarshal([]byte(out), &e)
			if tc.wantErr != "" {
				if !strings.Contains(e.Error, tc.wantErr) {
					t.Errorf("%s: error %q, want it to say %q", tc.req, e.Error, tc.wantErr)
				}
				return
			}
			if e.Error != "" {
				t.Fatalf("%s: error %q", tc.req, e.Error)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("%s: answer %.300s lacks %s", tc.req, out, w)
				}
			}
			if strings.Contains(out, `"perfect"`) {
				t.Errorf("%s: the browser engine offers perfect, whose table stays on the server: %.300s", tc.req, out)
			}
		})
	}
}

// TestPlayWholeGame plays a game between two engine levels through the
// requests the offline page makes, until the engine says it is over.
func TestPlayWholeGame(t *testing.T) {
	for _, spec := range []string{"pogo", "diam"} {
		var moves []string
		for ply := 0; ; ply++ {
			st, err := Handle(Request{Op: "state", Spec: spec, Moves: moves})
			if err != nil {
				t.Fatal(err)
			}
			s := st.(State)
			if s.Outcome != nil {
				t.Logf("%s: %s after %d moves", spec, s.Outcome.Description, ply)
				break
			}
			if ply > 500 {
				t.Fatalf("%s: no end after %d moves", spec, ply)
			}
			p, err := Handle(Request{Op: "play", Spec: spec, Moves: moves, Level: "medium", Seed: uint64(ply + 1)})
			if err != nil {
				t.Fatal(err)
			}
			legal := s.View.Legal()
			if mv := p.(Played).Move; !slices.Contains(legal, mv) {
				t.Fatalf("%s: ply %d: %s is not among the legal moves %v", spec, ply, mv, legal)
			}
			moves = append(moves, p.(Played).Move)
		}
	}
}
