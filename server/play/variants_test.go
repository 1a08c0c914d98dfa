package play

import (
	"fmt"
	"testing"

	"stax/games"
)

// TestVariants checks that the rooms of a spec share one variant, that a
// bad spec gets the registry's error, and that the specs remembered are
// bounded.
func TestVariants(t *testing.T) {
	v := variants{games: games.All()}
	a, err := v.load("pogo(u=false)")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := v.load("pogo(u=false)"); b != a {
		t.Error("two rooms of pogo(u=false) got two variants; want one shared")
	}
	if c, _ := v.load("pogo"); c == a || c.Options()["u"] != "true" {
		t.Errorf("pogo got %v; want its own variant, with the U-shaped move", c.Options())
	}
	if _, err := v.load("pogo(u=maybe)"); err == nil {
		t.Error("pogo(u=maybe) loaded; want the option's error")
	}
	for i := range 3 * maxVariants {
		if _, err := v.load(fmt.Sprintf("pogo(maxplies=%d)", i+1)); err != nil {
			t.Fatal(err)
		}
		if len(v.m) > maxVariants {
			t.Fatalf("%d specs remembered; want at most %d", len(v.m), maxVariants)
		}
	}
}
