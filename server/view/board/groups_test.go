package board

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"stax/game"
	"stax/game/gametest"
	"stax/games"
)

var update = flag.Bool("update", false, "rewrite testdata/groups.sha256 from the groups as they are")

// TestGroupsGolden holds the move groups along random games of every
// variant to those recorded in testdata/groups.sha256 (a SHA-256 of each
// variant's groups, in JSON, ply after ply): a change of the groups a
// client receives fails it. After a change that is meant, check the
// groups it sends and run the test with -update.
func TestGroupsGolden(t *testing.T) {
	var lines []string
	for _, spec := range []string{"pogo", "pogo(u=false)", "pisola", "pisola(size=8)", "pisola(size=8,roofs=true)", "diam", "diam(drop=any)", "diam(players=4)", "diam(players=4,teams=true)"} {
		g, err := games.Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		for seed := range 2 {
			r := rand.New(rand.NewPCG(uint64(seed), 3))
			st := g.Start()
			for ply := 0; ply < 200 && !st.Terminal(); ply++ {
				v := st.(game.Viewer)
				b := v.Board()
				out, err := json.Marshal(groups(st, v, &b))
				if err != nil {
					t.Fatal(err)
				}
				h.Write(out)
				h.Write([]byte{'\n'})
				legal := st.Legal(nil)
				st.Apply(legal[r.IntN(len(legal))])
			}
		}
		lines = append(lines, fmt.Sprintf("%s %x", spec, h.Sum(nil)))
	}
	gametest.Golden(t, filepath.Join("testdata", "groups.sha256"), strings.Join(lines, "\n")+"\n", *update)
}
