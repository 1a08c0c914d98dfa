package play

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"stax/server/clock"
	"stax/server/store"
	"stax/server/update"
)

// TestEncodeAsMaps holds update.Encode to the bytes of the encoder it
// replaced (mapsEncode, which split objects into maps), on the states of
// random games of every variant of the catalogue, with a clock.
func TestEncodeAsMaps(t *testing.T) {
	plies := 120
	if testing.Short() {
		plies = 40
	}
	for _, spec := range catalogueSpecs(t) {
		s, l, c := newFuzzGame(t, spec)
		l.clk = clock.New(store.Clock{Initial: 5 * time.Minute, Increment: 3 * time.Second}, l.g.Players(), time.Now())
		l.changed()
		prev := slices.Clone(l.current())
		if got, want := update.Encode(nil, update.Parse(prev)), mapsEncode(nil, prev); !bytes.Equal(got, want) {
			t.Fatalf("%s: the first update is\n%s\nwant\n%s", spec, got, want)
		}
		r := rand.New(rand.NewPCG(uint64(len(spec)), 11))
		for !l.h.Over() && l.h.Ply() < plies {
			legal := l.h.State().Legal(nil)
			text := l.h.State().FormatMove(legal[r.IntN(len(legal))])
			l.mu.Lock()
			err := s.play(context.Background(), l, c.seats, text, nil)
			cur := slices.Clone(l.current())
			l.mu.Unlock()
			if err != nil {
				t.Fatalf("%s: %s: %v", spec, text, err)
			}
			drain(c)
			for _, base := range [][]byte{prev, cur} {
				if got, want := update.Encode(update.Parse(base), update.Parse(cur)), mapsEncode(base, cur); !bytes.Equal(got, want) {
					t.Fatalf("%s at ply %d: the update is\n%s\nwant\n%s", spec, l.h.Ply(), got, want)
				}
			}
			prev = cur
		}
	}
}

// mapsEncode is update.Encode as it was when it split the objects into
// maps: the reference for the bytes of an update.
func mapsEncode(base, cur []byte) []byte {
	var old map[string]json.RawMessage
	if base != nil {
		old = mapsFields(base)
	}
	now := mapsFields(cur)
	d := mapsDiff(old, now, "")
	if len(d) == 0 {
		return nil
	}
	d["ply"] = now["ply"]
	if !bytes.Equal(old["ply"], now["ply"]) {
		d["lastMove"], d["position"] = now["lastMove"], now["position"]
	}
	var out bytes.Buffer
	out.WriteString(`{"type":"update","state":`)
	mapsWrite(&out, d)
	out.WriteByte('}')
	return out.Bytes()
}

func mapsFields(raw []byte) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	if len(raw) < 2 || raw[0] != '{' {
		return out
	}
	for i := 1; i < len(raw) && raw[i] == '"'; {
		j := mapsSkipString(raw, i)
		key := string(raw[i+1 : j-1])
		if j >= len(raw) || raw[j] != ':' {
			break
		}
		k := mapsSkipValue(raw, j+1)
		out[key] = raw[j+1 : k]
		i = k
		if i < len(raw) && raw[i] == ',' {
			i++
		}
	}
	return out
}

func mapsSkipString(raw []byte, i int) int {
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

func mapsSkipValue(raw []byte, i int) int {
	depth := 0
	for i < len(raw) {
		switch raw[i] {
		case '"':
			i = mapsSkipString(raw, i)
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

func mapsWrite(b *bytes.Buffer, fields map[string]json.RawMessage) {
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
		b.WriteString(k)
		b.WriteString(`":`)
		b.Write(fields[k])
	}
	b.WriteByte('}')
}

func mapsDiff(old, now map[string]json.RawMessage, path string) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for k, v := range now {
		o, had := old[k]
		switch {
		case had && bytes.Equal(o, v):
		case had && (path == "" && (k == "view" || k == "clock") || path == "view" && k == "board") && o[0] == '{' && v[0] == '{':
			var sub bytes.Buffer
			mapsWrite(&sub, mapsDiff(mapsFields(o), mapsFields(v), k))
			out[k] = sub.Bytes()
		case had && path == "board" && k == "stacks":
			var a, b []string
			json.Unmarshal(o, &a)
			json.Unmarshal(v, &b)
			if len(a) != len(b) {
				out[k] = v
				break
			}
			changed := map[string]string{}
			for i := range b {
				if a[i] != b[i] {
					changed[strconv.Itoa(i)] = b[i]
				}
			}
			out[k], _ = json.Marshal(changed)
		default:
			out[k] = v
		}
	}
	for k := range old {
		if _, ok := now[k]; !ok {
			out[k] = mapsNull
		}
	}
	return out
}

var mapsNull = json.RawMessage("null")
