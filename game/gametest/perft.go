package gametest

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"stax/game"
)

// PerftCase is one line of a perft table: a variant, a position and the
// expected leaf counts by depth.
type PerftCase struct {
	Line     int
	Spec     string   // the variant, e.g. pogo(u=false)
	Position string   // a position string, or "start"
	Counts   []uint64 // Counts[d-1] is the count at depth d
}

// ReadPerft reads a perft table. Each line is
//
//	spec ; position ; D1 n1 ; D2 n2 ; ...
//
// with "start" for the starting position; blank lines and lines starting
// with # are ignored. It is Blunder's EPD perft format with the game spec in
// front.
func ReadPerft(path string) ([]PerftCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []PerftCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, ";")
		if len(fields) < 3 {
			return nil, fmt.Errorf("%s:%d: want spec ; position ; D1 n ; ...", path, n)
		}
		c := PerftCase{Line: n, Spec: strings.TrimSpace(fields[0]), Position: strings.TrimSpace(fields[1])}
		for i, fld := range fields[2:] {
			var d int
			var cnt uint64
			if _, err := fmt.Sscanf(strings.TrimSpace(fld), "D%d %d", &d, &cnt); err != nil || d != i+1 {
				return nil, fmt.Errorf("%s:%d: bad field %q; want D%d <count>", path, n, strings.TrimSpace(fld), i+1)
			}
			c.Counts = append(c.Counts, cnt)
		}
		cases = append(cases, c)
	}
	return cases, sc.Err()
}

// FormatPerft writes one perft table line.
func FormatPerft(c PerftCase) string {
	var b strings.Builder
	b.WriteString(c.Spec + " ; " + c.Position)
	for i, n := range c.Counts {
		b.WriteString(" ; D" + strconv.Itoa(i+1) + " " + strconv.FormatUint(n, 10))
	}
	return b.String()
}

// State loads the case's variant through info and returns its position.
func (c PerftCase) State(info *game.Info) (game.State, error) {
	sp, err := game.ParseSpec(c.Spec)
	if err != nil {
		return nil, err
	}
	if sp.Name != info.Name {
		return nil, fmt.Errorf("spec %q is not a %s variant", c.Spec, info.Name)
	}
	g, err := info.Variant(sp.Options)
	if err != nil {
		return nil, err
	}
	if c.Position == "start" {
		return g.Start(), nil
	}
	return g.ParseState(c.Position)
}

// ShortLimit is the largest count a perft check runs under -short.
const ShortLimit = 2_000_000

// CheckPerft checks every case of a perft table with count, which is
// usually game.Perft or a game's own generator. Under -short, depths whose
// expected count exceeds ShortLimit are skipped.
func CheckPerft(t *testing.T, info *game.Info, path string, count func(s game.State, depth int) uint64) {
	t.Helper()
	cases, err := ReadPerft(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no perft cases", path)
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("line%d", c.Line), func(t *testing.T) {
			s, err := c.State(info)
			if err != nil {
				t.Fatalf("%s:%d: %v", path, c.Line, err)
			}
			for i, want := range c.Counts {
				d := i + 1
				if testing.Short() && want > ShortLimit {
					break
				}
				if got := count(s, d); got != want {
					t.Errorf("%s:%d %s %s depth %d: got %d, want %d", path, c.Line, c.Spec, c.Position, d, got, want)
				}
			}
		})
	}
}

// RecountPerft rewrites a perft table in place with fresh counts from
// count, at the depths each line already has, keeping its comments and
// blank lines: the -update of tables whose lines are chosen by hand.
func RecountPerft(path string, info *game.Info, count func(s game.State, depth int) uint64) error {
	cases, err := ReadPerft(path)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := strings.Split(string(data), "\n")
	for _, c := range cases {
		s, err := c.State(info)
		if err != nil {
			return fmt.Errorf("%s:%d: %v", path, c.Line, err)
		}
		for i := range c.Counts {
			c.Counts[i] = count(s, i+1)
		}
		lines[c.Line-1] = FormatPerft(c)
	}
	return os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
}
