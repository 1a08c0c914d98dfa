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
	"runtime"

	"stax/games/pogo"
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
	return readTable(r, true)
}

// readTable reads a table written by WriteTo, checking its checksum. Its
// values are kept only when keep is set: otherwise they are read in small
// pieces for the checksum, and the table returned has none.
func readTable(r io.Reader, keep bool) (*Table, error) {
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
	crc := crc32.Update(0, castagnoli, h[:])
	var val []uint8
	if keep {
		val = make([]uint8, count)
		if _, err := io.ReadFull(r, val); err != nil {
			return corrupt("values: %v", err)
		}
		crc = crc32.Update(crc, castagnoli, val)
	} else {
		buf := make([]byte, 64<<10)
		for left := int(count); left > 0; {
			m, err := io.ReadFull(r, buf[:min(left, len(buf))])
			if err != nil {
				return corrupt("values: %v", err)
			}
			crc = crc32.Update(crc, castagnoli, buf[:m])
			left -= m
		}
	}
	var tail [4]byte
	if _, err := io.ReadFull(r, tail[:]); err != nil {
		return corrupt("checksum: %v", err)
	}
	if got := binary.LittleEndian.Uint32(tail[:]); got != crc {
		return corrupt("checksum %08x; the contents give %08x", got, crc)
	}
	if m, _ := r.Read(tail[:1]); m != 0 {
		return corrupt("data after the checksum")
	}
	u := h[12] == 1
	return &Table{u: u, x: x, ms: pogo.MoveTableOf(u), val: val}, nil
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

// ReadFile reads a table file. Where the system can, the table's values
// are mapped from the file rather than copied into the process's memory:
// they are read from the disk (or the system's cache) as lookups need
// them, cost the garbage collector nothing, are shared by every process
// that reads the same file, and the system can reclaim them. The file
// must then not be changed in place while the table is in use (Save
// replaces a file by renaming, which leaves a mapped table whole).
func ReadFile(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := readTable(bufio.NewReaderSize(f, 64<<10), !canMap)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if t.val != nil {
		return t, nil
	}
	val, unmap, err := mapValues(f, headerSize, t.x.total)
	if err != nil {
		return nil, fmt.Errorf("%s: mapping the table: %w", path, err)
	}
	// The mapping lasts as long as the table: a table is never shared
	// without the Table that holds its values.
	t.val = val
	runtime.AddCleanup(t, func(unmap func()) { unmap() }, unmap)
	return t, nil
}
