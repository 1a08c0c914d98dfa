package puzzle

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
)

// sets holds the puzzle sets the site serves, each made by the stax
// puzzles generate command named in its header and proven by the tests
// (docs/puzzles.md).
//
//go:embed sets/*.txt
var sets embed.FS

// Builtin returns the puzzles of the embedded sets, set by set in the
// order of their file names, each set in its own order. An ID is never in
// two sets.
func Builtin() ([]Puzzle, error) {
	names, err := fs.Glob(sets, "sets/*.txt")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []Puzzle
	seen := map[string]string{}
	for _, name := range names {
		f, err := sets.Open(name)
		if err != nil {
			return nil, err
		}
		ps, err := Read(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for _, p := range ps {
			if other, dup := seen[p.ID]; dup {
				return nil, fmt.Errorf("%s: puzzle %s is also in %s", name, p.ID, other)
			}
			seen[p.ID] = name
		}
		out = append(out, ps...)
	}
	return out, nil
}
