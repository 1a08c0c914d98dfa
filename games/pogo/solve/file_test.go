package solve

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestFileRoundTrip writes a small game's table and reads it back, and
// checks that damage of every kind is reported as corruption.
func TestFileRoundTrip(t *testing.T) {
	tb, err := solveN(3, false, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.tbl")
	if err := tb.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
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
		})
	}
}

// TestOpenCached checks that OpenCached never builds: a missing, foreign
// or corrupt cache file is reported as not existing.
func TestOpenCached(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("STAX_CACHE_DIR", dir)
	if _, err := OpenCached(false); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("OpenCached with an empty cache = %v; want ErrNotExist", err)
	}
	path, err := CachePath(false)
	if err != nil || filepath.Dir(path) != dir {
		t.Fatalf("CachePath = %q, %v; want a file in %s", path, err, dir)
	}
	small, err := solveN(2, false, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := small.Save(path); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenCached(false); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OpenCached with a small game's table = %v; want ErrNotExist", err)
	}
	if err := os.WriteFile(path, []byte("STAXPOGO junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenCached(false); !errors.Is(err, os.ErrNotExist) || !errors.Is(err, ErrCorrupt) {
		t.Errorf("OpenCached with a corrupt file = %v; want ErrCorrupt and ErrNotExist", err)
	}
}
