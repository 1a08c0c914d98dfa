package solve

import (
	"bytes"
	"context"
	"testing"
)

// FuzzReadTable checks that ReadTable rejects damaged files with an error
// and never panics, and that what it accepts writes back identically.
func FuzzReadTable(f *testing.F) {
	small, err := solveN(context.Background(), 1, Options{U: true, Workers: 1})
	if err != nil {
		f.Fatal(err)
	}
	var good bytes.Buffer
	if _, err := small.WriteTo(&good); err != nil {
		f.Fatal(err)
	}
	f.Add(good.Bytes())               // a whole table of the 1-piece game
	f.Add(good.Bytes()[:headerSize])  // a header alone
	f.Add([]byte("STAXPOGO"))         // the magic alone
	f.Add([]byte{})                   // nothing
	f.Add(append(good.Bytes(), 1, 2)) // trailing bytes
	f.Fuzz(func(t *testing.T, b []byte) {
		tb, err := ReadTable(bytes.NewReader(b))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if _, err := tb.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), b) {
			t.Errorf("ReadTable accepted %d bytes that write back as %d different ones", len(b), out.Len())
		}
	})
}
