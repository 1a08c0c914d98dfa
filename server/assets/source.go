package assets

import (
	"fmt"
	"io/fs"
	"strings"
	"sync"
)

// Source gives the current Set of a file system. Files with no
// modification time (embedded in the binary) cannot change: their Set is
// made once. Files that have one (a directory served for live editing,
// stax serve --assets) may: Set makes a new Set when any changed.
type Source struct {
	fsys fs.FS
	live bool

	mu    sync.Mutex
	set   *Set
	stamp string
}

// Open makes the Set of fsys.
func Open(fsys fs.FS) (*Source, error) {
	stamp, live, err := stampOf(fsys)
	if err != nil {
		return nil, err
	}
	set, err := New(fsys)
	if err != nil {
		return nil, err
	}
	return &Source{fsys: fsys, live: live, set: set, stamp: stamp}, nil
}

// Set returns the files as they are now.
func (src *Source) Set() *Set {
	if !src.live {
		return src.set // never replaced
	}
	src.mu.Lock()
	defer src.mu.Unlock()
	stamp, _, err := stampOf(src.fsys)
	if err != nil || stamp == src.stamp {
		return src.set
	}
	if set, err := New(src.fsys); err == nil {
		src.set, src.stamp = set, stamp
	}
	return src.set
}

// stampOf sums up the names, sizes and modification times of the files,
// and reports whether any has a modification time.
func stampOf(fsys fs.FS) (string, bool, error) {
	var b strings.Builder
	live := false
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return nil // gone since the listing
		}
		if !fi.ModTime().IsZero() {
			live = true
		}
		fmt.Fprintf(&b, "%s %d %d\n", p, fi.Size(), fi.ModTime().UnixNano())
		return nil
	})
	return b.String(), live, err
}
