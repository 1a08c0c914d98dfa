package play

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
		State{ID: "id", PlayerNames: []string{`"Alice"`, `<b>`}, Seats: []Seat{{Name: `Bob\`}}},
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
		for k, w := range want {
			if !bytes.Equal(got[k], w) {
				t.Errorf("%s: field %s is %s; want %s", raw, k, got[k], w)
			}
		}
	}
}
