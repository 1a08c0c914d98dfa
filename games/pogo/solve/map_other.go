//go:build !unix

package solve

import (
	"errors"
	"os"
)

// canMap reports whether ReadFile maps a table's values from its file.
const canMap = false

func mapValues(f *os.File, off int, n uint32) ([]byte, func(), error) {
	return nil, nil, errors.ErrUnsupported
}
