package puzzle_test

import (
	"reflect"
	"testing"

	"stax/puzzle"
)

// FuzzParse checks that Parse never panics and that what it accepts
// round-trips through String.
func FuzzParse(f *testing.F) {
	for _, p := range []puzzle.Puzzle{
		newPuzzle("pogo", start, "1a1-a2", 900, "", puzzle.SaveTheDraw),
		newPuzzle("pogo(u=false)", start, "1a1-a2 1a3-b3 2b1-b3", 1500, "1c1-c2", puzzle.WinIn(2), puzzle.DontFallForIt),
		newPuzzle("diam(drop=any)", "-/-/-/-/-/-/-/- 1", "r@1", 1200, "", puzzle.DiamIn(1)),
	} {
		f.Add(p.String())
	}
	f.Add("")                                  // no columns
	f.Add("p0\tpogo\tx\ty\tz\t1\t-")           // a wrong id
	f.Add("a\tb\tc\td e\tf\t4001\t-")          // an even solution, a rating too high
	f.Add("\t\t\t\t\t\t\t")                    // eight empty columns
	f.Add("p1\tpogo\tx w\tm\twin-in-1\t07\t-") // a padded rating
	f.Fuzz(func(t *testing.T, line string) {
		p, err := puzzle.Parse(line)
		if err != nil {
			return
		}
		q, err := puzzle.Parse(p.String())
		if err != nil || !reflect.DeepEqual(p, q) {
			t.Errorf("Parse(%q) = %+v, but Parse(String()) = %+v, %v", line, p, q, err)
		}
	})
}
