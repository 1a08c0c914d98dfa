package prove

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"time"
)

// A checkpoint file holds a solver's table and counts, so that a long
// proof can stop and resume:
//
//	magic     8 bytes  "STAXDPN1"
//	version   uint32   1
//	drop      uint32   0 for drop=empty, 1 for drop=any
//	nodes     uint64   positions searched so far
//	proven    uint64   proofs stored so far
//	disproven uint64   disproofs stored so far
//	elapsed   uint64   nanoseconds spent so far
//	count     uint64   entries that follow
//	entries   count × 16 bytes: key word uint64, pn uint32, dn uint32
//	checksum  uint32   CRC-32C (Castagnoli) of everything before it
//
// Integers are little-endian. The entries are those of the table, which
// may be loaded into a table of another size.
const (
	checkpointMagic   = "STAXDPN1"
	checkpointVersion = 1
	checkpointHeader  = 56
)

// ErrBadCheckpoint is wrapped by the errors of ReadCheckpoint for a file
// that is not a whole, intact checkpoint of the solver's variant.
var ErrBadCheckpoint = errors.New("bad checkpoint file")

// WriteCheckpoint writes the solver's table and counts. It must not run
// during Prove.
func (s *Solver) WriteCheckpoint(w io.Writer) error {
	crc := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<20)
	var h [checkpointHeader]byte
	copy(h[:], checkpointMagic)
	binary.LittleEndian.PutUint32(h[8:], checkpointVersion)
	if s.g.DropAny() {
		binary.LittleEndian.PutUint32(h[12:], 1)
	}
	p := s.Progress()
	binary.LittleEndian.PutUint64(h[16:], uint64(p.Nodes))
	binary.LittleEndian.PutUint64(h[24:], uint64(p.Proven))
	binary.LittleEndian.PutUint64(h[32:], uint64(p.Disproven))
	binary.LittleEndian.PutUint64(h[40:], uint64(p.Elapsed))
	var n uint64
	s.tt.each(func(entry) error { n++; return nil })
	binary.LittleEndian.PutUint64(h[48:], n)
	bw.Write(h[:])
	var buf [16]byte
	err := s.tt.each(func(e entry) error {
		binary.LittleEndian.PutUint64(buf[:], e.key)
		binary.LittleEndian.PutUint32(buf[8:], e.pn)
		binary.LittleEndian.PutUint32(buf[12:], e.dn)
		_, err := bw.Write(buf[:])
		return err
	})
	if err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	var tail [4]byte
	binary.LittleEndian.PutUint32(tail[:], crc.Sum32())
	_, err = w.Write(tail[:])
	return err
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ReadCheckpoint replaces the solver's table and counts with those of a
// checkpoint written by WriteCheckpoint for the same variant. On error
// the table is left empty and the counts at zero. It must not run during
// Prove.
func (s *Solver) ReadCheckpoint(r io.Reader) error {
	s.tt.clear()
	s.nodes.Store(0)
	s.proven.Store(0)
	s.disproven.Store(0)
	s.elapsed = 0
	if err := s.readCheckpoint(r); err != nil {
		s.tt.clear()
		s.nodes.Store(0)
		s.proven.Store(0)
		s.disproven.Store(0)
		s.elapsed = 0
		return err
	}
	return nil
}

func (s *Solver) readCheckpoint(r io.Reader) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadCheckpoint, fmt.Sprintf(format, args...))
	}
	crc := crc32.New(castagnoli)
	br := bufio.NewReaderSize(r, 1<<20)
	tr := io.TeeReader(br, crc)
	var h [checkpointHeader]byte
	n, err := io.ReadFull(tr, h[:])
	if m := min(n, len(checkpointMagic)); string(h[:m]) != checkpointMagic[:m] {
		return bad("not a Diam solver checkpoint (it starts %q, want %q)", h[:m], checkpointMagic)
	}
	if err != nil {
		return bad("header: %v", eofIsShort(err))
	}
	if string(h[:8]) != checkpointMagic {
		return bad("not a Diam solver checkpoint (it starts %q, want %q)", h[:8], checkpointMagic)
	}
	if v := binary.LittleEndian.Uint32(h[8:]); v != checkpointVersion {
		return bad("version %d; this program reads version %d", v, checkpointVersion)
	}
	drop := binary.LittleEndian.Uint32(h[12:])
	if drop > 1 {
		return bad("placing rule %d; want 0 (drop=empty) or 1 (drop=any)", drop)
	}
	if (drop == 1) != s.g.DropAny() {
		name := map[bool]string{false: "diam(drop=empty)", true: "diam(drop=any)"}
		return bad("it is a checkpoint of %s, not of %s", name[drop == 1], name[s.g.DropAny()])
	}
	nodes := binary.LittleEndian.Uint64(h[16:])
	proven := binary.LittleEndian.Uint64(h[24:])
	disproven := binary.LittleEndian.Uint64(h[32:])
	elapsed := binary.LittleEndian.Uint64(h[40:])
	count := binary.LittleEndian.Uint64(h[48:])
	for _, v := range []uint64{nodes, proven, disproven, elapsed, count} {
		if v >= 1<<62 {
			return bad("count %d out of range", v)
		}
	}
	var buf [16]byte
	for i := uint64(0); i < count; i++ {
		if _, err := io.ReadFull(tr, buf[:]); err != nil {
			return bad("entry %d of %d: %v", i+1, count, eofIsShort(err))
		}
		e := entry{
			key: binary.LittleEndian.Uint64(buf[:]),
			pn:  binary.LittleEndian.Uint32(buf[8:]),
			dn:  binary.LittleEndian.Uint32(buf[12:]),
		}
		if err := e.check(); err != nil {
			return bad("entry %d of %d: %v", i+1, count, err)
		}
		s.tt.store(e.key&idMask, e.pn, e.dn, workOf(e.key>>workShift&workMask))
	}
	want := crc.Sum32()
	var tail [4]byte
	if _, err := io.ReadFull(br, tail[:]); err != nil {
		return bad("checksum: %v", eofIsShort(err))
	}
	if got := binary.LittleEndian.Uint32(tail[:]); got != want {
		return bad("checksum %08x, want %08x: the file is damaged", got, want)
	}
	if n, _ := br.Read(tail[:1]); n != 0 {
		return bad("data after the checksum")
	}
	s.nodes.Store(int64(nodes))
	s.proven.Store(int64(proven))
	s.disproven.Store(int64(disproven))
	s.elapsed = time.Duration(elapsed)
	return nil
}

// check reports what is wrong with an entry read from a file.
func (e entry) check() error {
	if e.key&usedBit == 0 {
		return errors.New("an empty entry")
	}
	if _, ok := decode(e.key & keyMask); !ok {
		return fmt.Errorf("key %#x is no position", e.key&keyMask)
	}
	switch {
	case e.pn == 0 && e.dn > maxPlies:
		return fmt.Errorf("a proof of %d plies; at most %d are stored", e.dn, maxPlies)
	case e.dn == 0 && e.pn != inf:
		return fmt.Errorf("a disproof with proof number %d; want %d", e.pn, inf)
	case e.pn > inf || e.dn > inf || (e.pn == inf && e.dn != 0) || (e.dn == inf && e.pn != 0):
		return fmt.Errorf("proof and disproof numbers %d and %d are inconsistent", e.pn, e.dn)
	}
	return nil
}

// maxPlies bounds the length of a stored proof.
const maxPlies = 1 << 20

func eofIsShort(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("the file ends too soon")
	}
	return err
}
