//go:build unix

package solve

import (
	"os"
	"syscall"
)

// canMap reports whether ReadFile maps a table's values from its file.
const canMap = true

// mapValues maps n bytes of f from offset off, read-only, and returns
// them with the function that undoes the mapping.
func mapValues(f *os.File, off int, n uint32) ([]byte, func(), error) {
	data, err := syscall.Mmap(int(f.Fd()), 0, off+int(n), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data[off : off+int(n) : off+int(n)], func() { syscall.Munmap(data) }, nil
}
