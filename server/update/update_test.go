package update

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestFieldsOf checks the splitting of encoded objects against decoding,
// on values with the characters that could mislead it.
func TestFieldsOf(t *testing.T) {
	for _, v := range []any{
		map[string]any{},
		map[string]any{"a": 1, "b": "x", "c": nil, "d": true},
		map[string]any{"name": `a "quoted" name, with {braces} and [brackets]\`, "n": -1.5e3},
		map[string]any{"view": map[string]any{"board": map[string]any{"stacks": []string{"", "w}", "b,"}}, "moves": map[string]any{}}, "x": []any{[]any{}, map[string]any{"k": "}"}}},
		map[string]any{"id": "id", "playerNames": []string{`"Alice"`, `<b>`}, "seats": []map[string]any{{"name": `Bob\`, "kind": "human"}}},
	} {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		got := fieldsOf(raw)
		if len(got) != len(want) {
			t.Errorf("%s: %d fields; want %d", raw, len(got), len(want))
		}
		tree := Parse(raw)
		for k, w := range want {
			if v, ok := tree.find([]byte(k)); !ok || !bytes.Equal(v, w) {
				t.Errorf("%s: field %s is %s (%v); want %s", raw, k, v, ok, w)
			}
		}
		for i, f := range got {
			if k, prev := f.name(raw), got[max(i-1, 0)].name(raw); i > 0 && bytes.Compare(prev, k) >= 0 {
				t.Errorf("%s: field %s after %s; want them in the order written (a map's, sorted)", raw, k, prev)
			}
		}
	}
}

// TestEncodeApply checks that an update applied to the state it was made
// from gives the new state, and carries only what changed.
func TestEncodeApply(t *testing.T) {
	base := []byte(`{"ply":3,"status":"playing","lastMove":"1a1-a2","position":"p3","view":{"board":{"stacks":["w","","b"]},"turn":1},"clock":{"running":1,"left":[60,50]}}`)
	cur := []byte(`{"ply":4,"status":"playing","lastMove":"1a3-a2","position":"p4","view":{"board":{"stacks":["w","","bw"]},"turn":0},"clock":{"running":0,"left":[60,48]}}`)
	upd := Encode(Parse(base), Parse(cur))
	if upd == nil {
		t.Fatal("no update between two plies")
	}
	if bytes.Contains(upd, []byte(`"status"`)) {
		t.Errorf("update %s carries the status, which did not change", upd)
	}
	var msg struct {
		Type  string
		State json.RawMessage
	}
	if err := json.Unmarshal(upd, &msg); err != nil || msg.Type != "update" {
		t.Fatalf("update message %s (%v); want type update", upd, err)
	}
	got, err := Apply(base, msg.State)
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(cur, &w)
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if !bytes.Equal(gb, wb) {
		t.Errorf("applied %s\nto %s: %s\nwant %s", upd, base, gb, wb)
	}
	if Encode(Parse(cur), Parse(cur)) != nil {
		t.Error("an update between equal states; want none")
	}
}

// TestStacksDiff checks the stacks of the changed cells against those of
// decoding the stacks, for boards of one size and another, and stacks
// that JSON escapes.
func TestStacksDiff(t *testing.T) {
	board := func(n int, set map[int]string) []byte {
		s := make([]string, n)
		for i := range s {
			s[i] = "w"
		}
		for i, v := range set {
			s[i] = v
		}
		b, _ := json.Marshal(s)
		return b
	}
	for _, c := range []struct{ o, v []byte }{
		{board(9, nil), board(9, nil)},
		{board(9, nil), board(9, map[int]string{3: "", 7: "bw"})},
		{board(25, map[int]string{2: "b"}), board(25, map[int]string{2: "", 10: "ww", 11: "b", 20: "wb", 1: "x"})},
		{board(9, nil), board(16, nil)},
		{board(9, nil), []byte("null")},
		{[]byte("null"), []byte("null")},
		{[]byte("null"), board(4, nil)},
		{board(12, nil), board(12, map[int]string{10: "<b>", 2: `"q"`, 4: "é", 5: "\u2028"})},
		{board(12, map[int]string{11: "\xff"}), board(12, map[int]string{11: "\u00e9", 3: "&"})},
	} {
		if got, want := stacksDiff(c.o, c.v), stacksDiffDecoded(c.o, c.v); !bytes.Equal(got, want) {
			t.Errorf("stacks from %s to %s: %s; want %s", c.o, c.v, got, want)
		}
	}
}
