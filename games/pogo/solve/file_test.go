package solve

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestFileRoundTrip writes a small game's table and reads it back, and
// checks that damage of every kind is reported as corruption.
func TestFileRoundTrip(t *testing.T) {
	tb, err := solveN(context.Background(), 3, Options{U: false, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.tbl")
	if err := tb.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.u != tb.u || got.x != tb.x || !bytes.Equal(got.val, tb.val) {
		t.Fatalf("read back a different table")
	}
	var buf bytes.Buffer
	if _, err := tb.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	damaged := map[string][]byte{
		"empty":     nil,
		"truncated": good[:len(good)-1],
		"magic":     append([]byte("STAXPOGX"), good[8:]...),
		"extra":     append(append([]byte(nil), good...), 0),
		"flipped": func() []byte {
			b := append([]byte(nil), good...)
			b[headerSize+100] ^= 4
			return b
		}(),
		"pieces": func() []byte {
			b := append([]byte(nil), good...)
			b[13] = 9
			return b
		}(),
	}
	for name, b := range damaged {
		t.Run(name, func(t *testing.T) {
			if _, err := ReadTable(bytes.NewReader(b)); !errors.Is(err, ErrCorrupt) {
				t.Errorf("ReadTable = %v; want ErrCorrupt", err)
			}
			path := filepath.Join(t.TempDir(), "damaged.tbl")
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := ReadFile(path); !errors.Is(err, ErrCorrupt) {
				t.Errorf("ReadFile = %v; want ErrCorrupt", err)
			}
		})
	}
}

// TestFileReplaced checks that a table read from a file keeps its values
// when the file is replaced by another table's, as Save does.
func TestFileReplaced(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.tbl")
	var tables [2]*Table
	for i, u := range []bool{false, true} {
		tb, err := solveN(context.Background(), 3, Options{U: u, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		tables[i] = tb
	}
	if err := tables[0].Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := tables[1].Save(path); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	if !bytes.Equal(got.val, tables[0].val) {
		t.Fatalf("the table read changed when its file was replaced")
	}
	again, err := ReadFile(path)
	if err != nil || again.u != true || !bytes.Equal(again.val, tables[1].val) {
		t.Fatalf("the new file reads as a different table (%v)", err)
	}
}
