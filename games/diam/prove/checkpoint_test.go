package prove

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"testing"

	"stax/games/diam"
)

// TestCheckpointRoundTrip stops a proof, saves the table, loads it into
// a solver with a table of another size, and checks that what was known
// is still known and that the proof resumes to the same answer.
func TestCheckpointRoundTrip(t *testing.T) {
	g := load(t, "diam")
	s, _ := New(g, Options{TableBytes: 4 << 20, Workers: 1, NodeLimit: 3000})
	var st *diam.State
	for _, p := range playouts(g, 21, 50, 8, 16) {
		if a := prove(t, s, p, Win); !a.Settled() {
			st = p
			break
		}
	}
	if st == nil {
		t.Fatal("no position takes more than 3000 nodes")
	}
	var buf bytes.Buffer
	if err := s.WriteCheckpoint(&buf); err != nil {
		t.Fatal(err)
	}
	r, _ := New(g, Options{TableBytes: 8 << 20, Workers: 1, NodeLimit: 3000})
	if err := r.ReadCheckpoint(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatal(err)
	}
	ps, pr := s.Progress(), r.Progress()
	if ps.Nodes != pr.Nodes || ps.Proven != pr.Proven || ps.Disproven != pr.Disproven || ps.Entries != pr.Entries {
		t.Errorf("progress after loading %+v, before saving %+v", pr, ps)
	}
	if pr.Elapsed != ps.Elapsed {
		t.Errorf("elapsed %v after loading, %v before", pr.Elapsed, ps.Elapsed)
	}
	n := 0
	s.tt.each(func(e entry) error {
		pn, dn, _, ok := r.tt.lookup(e.key & idMask)
		if !ok || pn != e.pn || dn != e.dn {
			t.Errorf("entry %x: loaded %d %d %v, saved %d %d", e.key&idMask, pn, dn, ok, e.pn, e.dn)
		}
		n++
		return nil
	})
	if n == 0 {
		t.Fatal("nothing saved")
	}
	// Resuming both to the end gives the same answer.
	s.opts.NodeLimit, r.opts.NodeLimit = 0, 0
	a, b := prove(t, s, st, Win), prove(t, r, st, Win)
	if a.Proven != b.Proven || a.Disproven != b.Disproven || !a.Settled() {
		t.Errorf("after resuming: %+v, without stopping: %+v", b, a)
	}
}

// checkpointFile returns a small valid checkpoint of g's variant.
func checkpointFile(t testing.TB, spec string) []byte {
	g := load(t, spec)
	s, _ := New(g, Options{TableBytes: 1 << 16, Workers: 1, NodeLimit: 200})
	if _, err := s.Prove(t.Context(), playouts(g, 2, 1, 10, 10)[0], Win); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := s.WriteCheckpoint(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// resum recomputes the checksum of a changed file.
func resum(b []byte) []byte {
	b = bytes.Clone(b)
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], castagnoli))
	return b
}

func TestCheckpointErrors(t *testing.T) {
	good := checkpointFile(t, "diam")
	set := func(at int, v uint64, size int) []byte {
		b := bytes.Clone(good)
		if size == 4 {
			binary.LittleEndian.PutUint32(b[at:], uint32(v))
		} else {
			binary.LittleEndian.PutUint64(b[at:], v)
		}
		return resum(b)
	}
	tests := []struct {
		name string
		file []byte
		want string
	}{
		{"empty", nil, "the file ends too soon"},
		{"magic", append([]byte("STAXPOGO"), good[8:]...), "not a Diam solver checkpoint"},
		{"version", set(8, 2, 4), "version 2"},
		{"rule", set(12, 7, 4), "placing rule 7"},
		{"variant", checkpointFile(t, "diam(drop=any)"), "checkpoint of diam(drop=any), not of diam(drop=empty)"},
		{"count", set(48, 1<<62, 8), "out of range"},
		{"short", good[:len(good)-20], "ends too soon"},
		{"no checksum", good[:len(good)-4], "ends too soon"},
		{"checksum", append(bytes.Clone(good[:len(good)-4]), 1, 2, 3, 4), "the file is damaged"},
		{"trailing", append(bytes.Clone(good), 0), "data after the checksum"},
		{"empty entry", set(checkpointHeader, 0, 8), "an empty entry"},
		{"no position", set(checkpointHeader, usedBit|390624, 8), "is no position"},
		{"inconsistent", set(checkpointHeader+8, inf|5<<32, 8), "inconsistent"},
		{"disproof", set(checkpointHeader+8, 5, 8), "a disproof with proof number 5"},
	}
	g := load(t, "diam")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := New(g, Options{TableBytes: 1 << 16})
			err := s.ReadCheckpoint(bytes.NewReader(tc.file))
			if !errors.Is(err, ErrBadCheckpoint) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want ErrBadCheckpoint saying %q", err, tc.want)
			}
			if p := s.Progress(); p.Entries != 0 || p.Nodes != 0 {
				t.Errorf("a failed read leaves %+v", p)
			}
		})
	}
}

// FuzzReadCheckpoint checks that no file makes the reader fail other than
// with ErrBadCheckpoint, and that what it accepts it writes back the same.
func FuzzReadCheckpoint(f *testing.F) {
	good := checkpointFile(f, "diam")
	f.Add(good)
	f.Add(good[:checkpointHeader])
	f.Add(resum(append(bytes.Clone(good[:checkpointHeader+16]), good[len(good)-4:]...)))
	g := load(f, "diam")
	f.Fuzz(func(t *testing.T, data []byte) {
		s, _ := New(g, Options{TableBytes: 1 << 16, Workers: 1})
		err := s.ReadCheckpoint(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, ErrBadCheckpoint) {
				t.Fatalf("error %v is not ErrBadCheckpoint", err)
			}
			return
		}
		var out bytes.Buffer
		if err := s.WriteCheckpoint(&out); err != nil {
			t.Fatal(err)
		}
		r, _ := New(g, Options{TableBytes: 1 << 16, Workers: 1})
		if err := r.ReadCheckpoint(&out); err != nil {
			t.Fatalf("a checkpoint written from an accepted one is refused: %v", err)
		}
	})
}
