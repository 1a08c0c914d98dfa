package ratings

import (
	"testing"

	"stax/games"
)

func TestPools(t *testing.T) {
	for spec, want := range map[string]string{
		"pogo": "pogo", "pogo(u=false)": "", "pisola": "pisola6", "pisola(size=8)": "pisola8",
		"pisola(roofs=true)": "", "diam": "diam", "diam(players=4)": "", "diam(players=4,teams=true)": "",
	} {
		g, err := games.Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := PoolOf(g); got != want {
			t.Errorf("PoolOf(%s) = %q; want %q", spec, got, want)
		}
	}
}
