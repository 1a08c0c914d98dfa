// Package update sizes the messages of a live game by what changed: an
// update holds the fields of a state (JSON) that differ from the one the
// client holds (docs/api.md, "update"). Live play encodes them; a client
// applies them with Apply.
package update

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// An update
// holds the fields of the State that differ from the one the connection
// holds, always its ply (and, when the ply grew, the move and position
// that came), with null for a field that went away. Within view,
// view.board and clock only the fields that changed come, and view.board.stacks
// comes as an object of the changed cells' stacks by index.

var null = json.RawMessage("null")

// Tree is an encoded JSON object whose fields, and those of its objects,
// are parsed when first asked for and kept while an update is built.
type Tree struct {
	raw    []byte
	fields map[string]json.RawMessage
	sub    map[string]*Tree
}

// get returns the object's fields (none when it is not an object).
// Parse returns the tree of an encoded JSON object; its fields are parsed
// when first asked for.
func Parse(raw []byte) *Tree { return &Tree{raw: raw} }

// Raw returns the encoded object.
func (t *Tree) Raw() []byte { return t.raw }

func (t *Tree) get() map[string]json.RawMessage {
	if t == nil {
		return nil
	}
	if t.fields == nil {
		t.fields = fieldsOf(t.raw)
	}
	return t.fields
}

// fieldsOf splits a JSON object as encoding/json writes it (compact, its
// keys without escapes) into its fields, whose values share raw's bytes:
// a few microseconds where decoding takes tens.
func fieldsOf(raw []byte) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	if len(raw) < 2 || raw[0] != '{' {
		return out
	}
	for i := 1; i < len(raw) && raw[i] == '"'; {
		j := skipString(raw, i)
		key := string(raw[i+1 : j-1])
		if j >= len(raw) || raw[j] != ':' {
			break
		}
		k := skipValue(raw, j+1)
		out[key] = raw[j+1 : k]
		i = k
		if i < len(raw) && raw[i] == ',' {
			i++
		}
	}
	return out
}

// skipString returns the index after the string that starts at raw[i].
func skipString(raw []byte, i int) int {
	for i++; i < len(raw); i++ {
		switch raw[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(raw)
}

// skipValue returns the index after the value that starts at raw[i].
func skipValue(raw []byte, i int) int {
	depth := 0
	for i < len(raw) {
		switch raw[i] {
		case '"':
			i = skipString(raw, i)
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	return i
}

// child returns field k, as a Tree.
func (t *Tree) child(k string) *Tree {
	if t.sub == nil {
		t.sub = map[string]*Tree{}
	}
	c := t.sub[k]
	if c == nil {
		c = &Tree{raw: t.get()[k]}
		t.sub[k] = c
	}
	return c
}

// Encode returns the update message from the State base (nil: none
// sent yet) to cur, or nil when nothing changed.
func Encode(base, cur *Tree) []byte {
	old, now := base.get(), cur.get()
	d := diff(base, cur, "")
	if len(d) == 0 {
		return nil
	}
	d["ply"] = now["ply"]
	if !bytes.Equal(old["ply"], now["ply"]) {
		d["lastMove"], d["position"] = now["lastMove"], now["position"]
	}
	var out bytes.Buffer
	out.WriteString(`{"type":"update","state":`)
	writeObject(&out, d)
	out.WriteByte('}')
	return out.Bytes()
}

// writeObject writes the fields as a JSON object, in the order of their
// names; their values are valid JSON.
func writeObject(b *bytes.Buffer, fields map[string]json.RawMessage) {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		b.WriteString(k) // the State's field names need no escaping
		b.WriteString(`":`)
		b.Write(fields[k])
	}
	b.WriteByte('}')
}

// nested reports whether field k of the object at path is itself sent by
// its changed fields.
func nested(path, k string) bool {
	return path == "" && (k == "view" || k == "clock") || path == "view" && k == "board"
}

// diff returns the fields of now that differ from old's, and null for
// those old has and now has not.
func diff(oldT, nowT *Tree, path string) map[string]json.RawMessage {
	old, now := oldT.get(), nowT.get()
	out := map[string]json.RawMessage{}
	for k, v := range now {
		o, had := old[k]
		switch {
		case had && bytes.Equal(o, v):
		case had && nested(path, k) && o[0] == '{' && v[0] == '{':
			var sub bytes.Buffer
			writeObject(&sub, diff(oldT.child(k), nowT.child(k), k))
			out[k] = sub.Bytes()
		case had && path == "board" && k == "stacks":
			out[k] = stacksDiff(o, v)
		default:
			out[k] = v
		}
	}
	for k := range old {
		if _, ok := now[k]; !ok {
			out[k] = null
		}
	}
	return out
}

// stacksDiff returns the stacks of the cells that changed from o to v, by
// index, or v when the board changed size.
func stacksDiff(o, v json.RawMessage) json.RawMessage {
	var a, b []string
	json.Unmarshal(o, &a)
	json.Unmarshal(v, &b)
	if len(a) != len(b) {
		return v
	}
	changed := map[string]string{}
	for i := range b {
		if a[i] != b[i] {
			changed[strconv.Itoa(i)] = b[i]
		}
	}
	out, _ := json.Marshal(changed)
	return out
}

// ErrOutOfStep is Apply's error for an update whose ply is neither the
// state's nor the next: the client has missed a message and should
// reconnect, which brings the full state.
var ErrOutOfStep = errors.New("an update out of step with the state: reconnect")

// Apply returns the encoded State after an update (the "state" of an
// update message) to state, as a client keeps it (docs/api.md): the
// changed fields replace the state's, view and view.board field by field,
// view.board.stacks cell by cell, and when the ply grew by one the move
// and position that came are appended to moves and positions (when the
// state holds them).
func Apply(state, update json.RawMessage) (json.RawMessage, error) {
	var s, u map[string]json.RawMessage
	if err := json.Unmarshal(state, &s); err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	if err := json.Unmarshal(update, &u); err != nil {
		return nil, fmt.Errorf("update: %w", err)
	}
	var sp, up int
	json.Unmarshal(s["ply"], &sp)
	if err := json.Unmarshal(u["ply"], &up); err != nil {
		return nil, fmt.Errorf("update without a ply: %w", err)
	}
	switch up {
	case sp:
	case sp + 1:
		for k, from := range map[string]string{"moves": "lastMove", "positions": "position"} {
			if list, ok := s[k]; ok {
				s[k] = appendJSON(list, u[from])
			}
		}
	default:
		return nil, ErrOutOfStep
	}
	if err := merge(s, u, ""); err != nil {
		return nil, err
	}
	return json.Marshal(s)
}

func merge(s, u map[string]json.RawMessage, path string) error {
	for k, v := range u {
		o, had := s[k]
		switch {
		case had && nested(path, k) && len(o) > 0 && o[0] == '{' && v[0] == '{':
			var a, b map[string]json.RawMessage
			json.Unmarshal(o, &a)
			json.Unmarshal(v, &b)
			if err := merge(a, b, k); err != nil {
				return err
			}
			s[k], _ = json.Marshal(a)
		case had && path == "board" && k == "stacks" && v[0] == '{':
			var stacks []string
			var changed map[int]string
			json.Unmarshal(o, &stacks)
			if err := json.Unmarshal(v, &changed); err != nil {
				return fmt.Errorf("board.stacks: %w", err)
			}
			for i, st := range changed {
				if i < 0 || i >= len(stacks) {
					return fmt.Errorf("board.stacks: no cell %d", i)
				}
				stacks[i] = st
			}
			s[k], _ = json.Marshal(stacks)
		case bytes.Equal(v, null):
			delete(s, k)
		default:
			s[k] = v
		}
	}
	return nil
}

// appendJSON appends the JSON value v to the JSON array list.
func appendJSON(list, v json.RawMessage) json.RawMessage {
	list = bytes.TrimSpace(list)
	if len(list) < 2 {
		return append(append(json.RawMessage{'['}, v...), ']')
	}
	out := append(json.RawMessage{}, list[:len(list)-1]...)
	if len(bytes.TrimSpace(out)) > 1 {
		out = append(out, ',')
	}
	out = append(out, v...)
	return append(out, ']')
}
