package prove

import (
	"math/bits"
	"sync"
	"sync/atomic"
)

// inf is the proof or disproof number of a settled question: a proven
// position has disproof number inf, a disproven one proof number inf.
// Unsettled numbers saturate at inf-1.
const inf = 1<<31 - 1

// An entry is 16 bytes: the key word and the proof and disproof numbers
// of its question. The key word holds, from the top: a bit set in every
// stored entry, 11 bits of the work spent below the position (its
// subtree's size, on a logarithmic scale, for replacement), the question
// (bit 51: 0 "does the side to move win?", 1 "does it lose?") and the
// 51-bit canonical position.
//
// A proven entry (pn 0) keeps in dn the number of plies of the proof it
// stands for (the winner's longest line in it), so that a player following
// proofs keeps getting closer to the end; a disproven one has pn inf and
// dn 0.
type entry struct {
	key    uint64
	pn, dn uint32
}

const (
	usedBit    = 1 << 63
	workShift  = 52
	workMask   = 1<<11 - 1
	questionAt = 51
	idMask     = 1<<52 - 1 // position and question
)

// workClass maps a node count to 11 bits: 32 steps per doubling.
func workClass(n uint64) uint64 {
	if n < 32 {
		return n
	}
	l := bits.Len64(n) // >= 6
	c := uint64(l-5)<<5 | n>>(l-6)&31
	return min(c, workMask)
}

// workOf is an approximate inverse of workClass.
func workOf(c uint64) uint64 {
	if c < 32 {
		return c
	}
	l := int(c>>5) + 5
	return (32 | c&31) << (l - 6)
}

// bucketSize entries share a bucket of one cache line.
const bucketSize = 4

// table is the transposition table: buckets of 4 entries, indexed by a
// hash of the key; a new entry replaces the one with the least work in a
// full bucket. When shared, a bucket is read and written under one of a
// set of striped locks.
type table struct {
	e      []entry
	mask   uint64 // buckets - 1
	shared bool
	locks  [1024]sync.Mutex
	used   atomic.Int64 // entries holding a position
}

// newTable returns a table of at most maxBytes (at least one bucket; the
// number of buckets is a power of two).
func newTable(maxBytes int64) *table {
	nb := uint64(1)
	for int64(nb*2*bucketSize*16) <= maxBytes {
		nb *= 2
	}
	return &table{e: make([]entry, nb*bucketSize), mask: nb - 1}
}

// bytes returns the table's size in memory.
func (t *table) bytes() int64 { return int64(len(t.e)) * 16 }

// bucket mixes every bit of id into the bucket number (positions that
// differ only in their last pieces must not share a bucket).
func (t *table) bucket(id uint64) uint64 {
	id ^= id >> 31
	id *= 0x7FB5D329728EA185
	id ^= id >> 27
	id *= 0x81DADEF4BC2DD44D
	id ^= id >> 33
	return id & t.mask
}

// open returns the bucket of id, locked when the table is shared (the
// caller unlocks the lock returned, if any).
func (t *table) open(id uint64) ([]entry, *sync.Mutex) {
	b := t.bucket(id)
	var l *sync.Mutex
	if t.shared {
		l = &t.locks[b&1023]
		l.Lock()
	}
	return t.e[b*bucketSize : b*bucketSize+bucketSize], l
}

// lookup returns the numbers stored for id (a position and question),
// with the work spent on it.
func (t *table) lookup(id uint64) (pn, dn uint32, work uint64, ok bool) {
	es, l := t.open(id)
	if l != nil {
		defer l.Unlock()
	}
	for i := range es {
		if k := es[i].key; k&usedBit != 0 && k&idMask == id {
			return es[i].pn, es[i].dn, workOf(k >> workShift & workMask), true
		}
	}
	return 0, 0, 0, false
}

// store records the numbers of id, replacing its old entry or else the
// entry of least work in its bucket.
func (t *table) store(id uint64, pn, dn uint32, work uint64) {
	es, l := t.open(id)
	if l != nil {
		defer l.Unlock()
	}
	victim := -1
	var least uint64 = 1 << 63
	for i := range es {
		k := es[i].key
		if k&usedBit == 0 {
			if victim < 0 || least != 0 {
				victim, least = i, 0
			}
			continue
		}
		if k&idMask == id {
			victim = i
			break
		}
		if w := k >> workShift & workMask; least != 0 && w < least {
			victim, least = i, w
		}
	}
	if es[victim].key&usedBit == 0 {
		t.used.Add(1)
	}
	es[victim] = entry{key: usedBit | workClass(work)<<workShift | id, pn: pn, dn: dn}
}

// each calls f for every stored entry, in table order; the table must not
// change meanwhile.
func (t *table) each(f func(entry) error) error {
	for _, e := range t.e {
		if e.key&usedBit != 0 {
			if err := f(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// clear empties the table.
func (t *table) clear() {
	clear(t.e)
	t.used.Store(0)
}
