package solve

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// The table file is a 24-byte header, one byte per position in index
// order, and a CRC-32C of everything before it:
//
//	magic     8 bytes  "STAXPOGO"
//	version   uint32   1
//	u         uint8    1 with the U-shaped move, 0 without
//	pieces    uint8    pieces a side (6)
//	reserved  uint16   0
//	count     uint32   positions that follow
//	reserved  uint32   0
//	values    count bytes: 0 draw, 255 unreachable, v lost (v-1 even) or
//	          won (v-1 odd) in v-1 plies
//	checksum  uint32   CRC-32C (Castagnoli) of header and values
//
// Integers are little-endian.
const (
	fileMagic   = "STAXPOGO"
	fileVersion = 1
	headerSize  = 24
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt is wrapped by the errors of ReadTable for a file that is not a
// whole, intact table.
var ErrCorrupt = errors.New("corrupt table file")

// WriteTo writes the table in its file format.
func (t *Table) WriteTo(w io.Writer) (int64, error) {
	var h [headerSize]byte
	copy(h[:], fileMagic)
	binary.LittleEndian.PutUint32(h[8:], fileVersion)
	if t.u {
		h[12] = 1
	}
	h[13] = uint8(t.x.n)
	binary.LittleEndian.PutUint32(h[16:], uint32(len(t.val)))
	crc := crc32.Update(0, castagnoli, h[:])
	crc = crc32.Update(crc, castagnoli, t.val)
	var tail [4]byte
	binary.LittleEndian.PutUint32(tail[:], crc)
	var n int64
	for _, b := range [][]byte{h[:], t.val, tail[:]} {
		m, err := w.Write(b)
		n += int64(m)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// ReadTable reads a table written by WriteTo, checking its checksum.
func ReadTable(r io.Reader) (*Table, error) {
	corrupt := func(format string, args ...any) (*Table, error) {
		return nil, fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
	var h [headerSize]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return corrupt("header: %v", err)
	}
	if string(h[:8]) != fileMagic {
		return corrupt("not a Pogo table (magic %q)", h[:8])
	}
	if v := binary.LittleEndian.Uint32(h[8:]); v != fileVersion {
		return corrupt("version %d; want %d", v, fileVersion)
	}
	n := int(h[13])
	if n < 1 || n > Pieces || h[12] > 1 || h[14]|h[15]|h[20]|h[21]|h[22]|h[23] != 0 {
		return corrupt("bad header")
	}
	x := indexerFor(n)
	count := binary.LittleEndian.Uint32(h[16:])
	if count != x.total {
		return corrupt("%d positions; want %d", count, x.total)
	}
	val := make([]uint8, count)
	if _, err := io.ReadFull(r, val); err != nil {
		return corrupt("values: %v", err)
	}
	var tail [4]byte
	if _, err := io.ReadFull(r, tail[:]); err != nil {
		return corrupt("checksum: %v", err)
	}
	crc := crc32.Update(0, castagnoli, h[:])
	crc = crc32.Update(crc, castagnoli, val)
	if got := binary.LittleEndian.Uint32(tail[:]); got != crc {
		return corrupt("checksum %08x; the contents give %08x", got, crc)
	}
	if m, _ := r.Read(tail[:1]); m != 0 {
		return corrupt("data after the checksum")
	}
	u := h[12] == 1
	return &Table{u: u, x: x, ms: newMoveSet(u), val: val}, nil
}

// Save writes the table to path, through a temporary file renamed into
// place so that a reader never sees half a table.
func (t *Table) Save(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = f.Chmod(0o644)
	if err == nil {
		_, err = t.WriteTo(w)
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("solve: writing %s: %w", path, err)
	}
	return nil
}

// Load reads a table file.
func Load(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := ReadTable(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// CacheDir returns the directory of cached tables: $STAX_CACHE_DIR if
// set, else the stax directory in the user's cache directory.
func CacheDir() (string, error) {
	if d := os.Getenv("STAX_CACHE_DIR"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("solve: no cache directory (set STAX_CACHE_DIR): %w", err)
	}
	return filepath.Join(d, "stax"), nil
}

// CachePath returns where the table of a variant is cached.
func CachePath(u bool) (string, error) {
	d, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, fmt.Sprintf("pogo-u-%v.tbl", u)), nil
}

// Notify receives a line of news when Open has to build a table (which
// takes a while) and when it has written it. It writes to standard error
// unless replaced; set it to nil for silence.
var Notify = func(msg string) { fmt.Fprintln(os.Stderr, msg) }

// opened holds the tables Open has loaded or built, by variant.
var opened struct {
	sync.Mutex // guards t
	t          [2]*Table
}

// Open returns the table of a variant: from memory if this process has it,
// else from the cache file, else built (and then cached), with news of the
// build sent to Notify. A corrupt cache file is rebuilt. Concurrent callers
// share one table.
func Open(u bool) (*Table, error) {
	return open(u, true)
}

// OpenCached is Open without building: when neither this process nor the
// cache has the table, it returns an error wrapping os.ErrNotExist.
func OpenCached(u bool) (*Table, error) {
	return open(u, false)
}

func open(u, build bool) (*Table, error) {
	opened.Lock()
	defer opened.Unlock()
	i := 0
	if u {
		i = 1
	}
	if t := opened.t[i]; t != nil {
		return t, nil
	}
	t, err := openCached(u, build)
	if err != nil {
		return nil, err
	}
	opened.t[i] = t
	return t, nil
}

func notify(format string, args ...any) {
	if n := Notify; n != nil {
		n(fmt.Sprintf(format, args...))
	}
}

func openCached(u, build bool) (*Table, error) {
	path, err := CachePath(u)
	if err != nil {
		return nil, err
	}
	t, err := Load(path)
	switch {
	case err == nil && t.u == u && t.x.n == Pieces:
		return t, nil
	case !build && err == nil:
		return nil, fmt.Errorf("%s holds another variant's table: %w", path, os.ErrNotExist)
	case !build && errors.Is(err, ErrCorrupt):
		return nil, fmt.Errorf("%w (%w)", err, os.ErrNotExist)
	case !build || (err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, os.ErrNotExist)):
		return nil, err
	case err == nil:
		notify("stax: %s holds another variant's table; rebuilding it", path)
	case errors.Is(err, ErrCorrupt):
		notify("stax: %v; rebuilding it", err)
	}
	notify("stax: solving pogo(u=%v) to play perfectly: this takes about a minute, once; the table is cached at %s", u, path)
	t, err = Solve(u, 0, nil)
	if err != nil {
		return nil, err
	}
	if err := t.Save(path); err != nil {
		notify("stax: could not cache the table: %v", err)
	} else {
		notify("stax: table cached at %s", path)
	}
	return t, nil
}

// Cache records t as the table of its variant for Open, as a freshly
// built table is.
func Cache(t *Table) {
	opened.Lock()
	defer opened.Unlock()
	i := 0
	if t.u {
		i = 1
	}
	opened.t[i] = t
}
