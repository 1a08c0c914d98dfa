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

// The names of the fields that Encode sets itself.
var (
	plyKey      = []byte("ply")
	lastMoveKey = []byte("lastMove")
	positionKey = []byte("position")
)

// field is one field of an update: its name (without the quotes) and its
// encoded value.
type field struct {
	key, val []byte
}

// span is where one field lies in an encoded JSON object raw: its name
// (without the quotes) is raw[key:colon-1] and its value
// raw[colon+1:end].
type span struct{ key, colon, end int32 }

func (s span) name(raw []byte) []byte  { return raw[s.key : s.colon-1] }
func (s span) value(raw []byte) []byte { return raw[s.colon+1 : s.end] }

// Tree is an encoded JSON object whose fields, and those of its objects,
// are parsed when first asked for and kept while an update is built.
type Tree struct {
	raw    []byte
	key    []byte // the field of its parent that holds it
	fields []span
	parsed bool
	at     int     // where find looks first: after the last field it found
	sub    []*Tree // the objects of its fields asked for so far
}

// Parse returns the tree of an encoded JSON object; its fields are parsed
// when first asked for.
func Parse(raw []byte) *Tree { return &Tree{raw: raw} }

// Raw returns the encoded object.
func (t *Tree) Raw() []byte { return t.raw }

// get returns the object's fields, in their order (none when it is not an
// object).
func (t *Tree) get() []span {
	if t == nil {
		return nil
	}
	if !t.parsed {
		t.fields, t.parsed = fieldsOf(t.raw), true
	}
	return t.fields
}

// find returns the value of field k and whether the object has it. It
// looks from the field after the one it found last, round to it: two
// states' fields come in the same order (encoding/json writes a struct's
// fields in a fixed order), so a walk through one object's fields finds
// each of the other's at once.
func (t *Tree) find(k []byte) ([]byte, bool) {
	fs := t.get()
	for n := range len(fs) {
		i := t.at + n
		if i >= len(fs) {
			i -= len(fs)
		}
		if bytes.Equal(fs[i].name(t.raw), k) {
			t.at = i + 1
			return fs[i].value(t.raw), true
		}
	}
	return nil, false
}

// fieldsOf splits a JSON object as encoding/json writes it (compact, its
// keys without escapes) into its fields, in order: a few microseconds
// where decoding takes tens.
func fieldsOf(raw []byte) []span {
	if len(raw) < 2 || raw[0] != '{' {
		return nil
	}
	out := make([]span, 0, 16)
	for i := 1; i < len(raw) && raw[i] == '"'; {
		j := skipString(raw, i)
		if j >= len(raw) || raw[j] != ':' {
			break
		}
		k := skipValue(raw, j+1)
		out = append(out, span{int32(i + 1), int32(j), int32(k)})
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
func (t *Tree) child(k []byte) *Tree {
	for _, c := range t.sub {
		if bytes.Equal(c.key, k) {
			return c
		}
	}
	v, _ := t.find(k)
	c := &Tree{raw: v, key: k}
	t.sub = append(t.sub, c)
	return c
}

// Encode returns the update message from the State base (nil: none
// sent yet) to cur, or nil when nothing changed.
func Encode(base, cur *Tree) []byte {
	d := diff(base, cur, nil)
	if len(d) == 0 {
		return nil
	}
	ply, _ := cur.find(plyKey)
	d = set(d, plyKey, ply)
	if old, _ := base.find(plyKey); !bytes.Equal(old, ply) {
		move, _ := cur.find(lastMoveKey)
		position, _ := cur.find(positionKey)
		d = set(set(d, lastMoveKey, move), positionKey, position)
	}
	const head = `{"type":"update","state":`
	out := make([]byte, 0, len(head)+objectSize(d)+1)
	out = append(out, head...)
	out = appendObject(out, d)
	return append(out, '}')
}

// set returns fields with field k's value v, in place of the one it had.
func set(fields []field, k, v []byte) []field {
	for i := range fields {
		if bytes.Equal(fields[i].key, k) {
			fields[i].val = v
			return fields
		}
	}
	return append(fields, field{k, v})
}

// objectSize returns the length of the JSON object of the fields.
func objectSize(fields []field) int {
	n := 2
	for _, f := range fields {
		n += len(f.key) + len(f.val) + 4
	}
	return n
}

// appendObject appends the fields as a JSON object, in the order of their
// names, which it sorts them in; their values are valid JSON.
func appendObject(b []byte, fields []field) []byte {
	slices.SortFunc(fields, func(x, y field) int { return bytes.Compare(x.key, y.key) })
	b = append(b, '{')
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, f.key...) // the State's field names need no escaping
		b = append(b, `":`...)
		b = append(b, f.val...)
	}
	return append(b, '}')
}

// nested reports whether field k of the object at path is itself sent by
// its changed fields.
func nested[S string | []byte](path, k S) bool {
	return len(path) == 0 && (string(k) == "view" || string(k) == "clock") || string(path) == "view" && string(k) == "board"
}

// diff returns the fields of now that differ from old's, and null for
// those old has and now has not; path is the name of the objects' field
// (nil for the State).
func diff(oldT, nowT *Tree, path []byte) []field {
	now := nowT.get()
	var out []field
	for _, s := range now {
		f := field{s.name(nowT.raw), s.value(nowT.raw)}
		o, had := oldT.find(f.key)
		switch {
		case had && bytes.Equal(o, f.val):
			continue
		case out == nil:
			out = make([]field, 0, min(len(now), 8))
		}
		switch {
		case had && nested(path, f.key) && o[0] == '{' && f.val[0] == '{':
			d := diff(oldT.child(f.key), nowT.child(f.key), f.key)
			out = append(out, field{f.key, appendObject(make([]byte, 0, objectSize(d)), d)})
		case had && string(path) == "board" && string(f.key) == "stacks":
			out = append(out, field{f.key, stacksDiff(o, f.val)})
		default:
			out = append(out, f)
		}
	}
	for _, s := range oldT.get() {
		k := s.name(oldT.raw)
		if _, ok := nowT.find(k); !ok {
			out = append(out, field{k, null})
		}
	}
	return out
}

// stacksDiff returns the stacks of the cells that changed from o to v, by
// index, or v when the board changed size.
func stacksDiff(o, v []byte) []byte {
	type change struct {
		cell  int
		stack []byte // encoded
	}
	var buf [16]change
	changed := buf[:0]
	i, j, size := arrayStart(o), arrayStart(v), 2
	for cell := 0; ; cell++ {
		a, ai, aok := plainString(o, i)
		b, bj, bok := plainString(v, j)
		if aok != bok || !aok && (ai < 0 || bj < 0) {
			// Boards of different sizes, or stacks with characters
			// that decoding would read otherwise.
			return stacksDiffDecoded(o, v)
		}
		if !aok {
			break
		}
		if !bytes.Equal(a, b) {
			changed = append(changed, change{cell, b})
			size += len(b) + 24
		}
		i, j = ai, bj
	}
	// In the order of encoding/json's for a map's keys: as strings.
	slices.SortFunc(changed, func(x, y change) int {
		var xs, ys [20]byte
		return bytes.Compare(strconv.AppendInt(xs[:0], int64(x.cell), 10), strconv.AppendInt(ys[:0], int64(y.cell), 10))
	})
	out := make([]byte, 0, size)
	out = append(out, '{')
	for k, c := range changed {
		if k > 0 {
			out = append(out, ',')
		}
		out = append(out, '"')
		out = strconv.AppendInt(out, int64(c.cell), 10)
		out = append(out, `":`...)
		out = append(out, c.stack...)
	}
	return append(out, '}')
}

// arrayStart returns the index of the first element of the JSON array
// raw, or len(raw) when raw is null, or -1 when it is neither.
func arrayStart(raw []byte) int {
	switch {
	case string(raw) == "null":
		return len(raw)
	case len(raw) >= 2 && raw[0] == '[':
		return 1
	}
	return -1
}

// plainString returns the string element of a compact JSON array at
// raw[i] (quotes included) and the index of the next element, with ok
// set, when it holds printable ASCII alone that JSON writes as it is, so
// that it is written again the same. At the end of the array it returns
// the index of the end; when the element is anything else, -1.
func plainString(raw []byte, i int) (s []byte, next int, ok bool) {
	if i < 0 {
		return nil, -1, false
	}
	if i >= len(raw) || raw[i] == ']' {
		return nil, i, false
	}
	if raw[i] != '"' {
		return nil, -1, false
	}
	for k := i + 1; k < len(raw); k++ {
		switch c := raw[k]; {
		case c == '"':
			next = k + 1
			if next < len(raw) && raw[next] == ',' {
				next++
			}
			return raw[i : k+1], next, true
		case c < 0x20 || c >= 0x7f || c == '\\' || c == '<' || c == '>' || c == '&':
			return nil, -1, false
		}
	}
	return nil, -1, false
}

// stacksDiffDecoded is stacksDiff by decoding the stacks.
func stacksDiffDecoded(o, v []byte) []byte {
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
