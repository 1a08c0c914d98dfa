package play

import (
	"fmt"
	"stax/server/update"
	"testing"
)

// BenchmarkMoveMessage measures what one move costs the server to send at
// ply 1,000 of a game: encoding the update every connection gets (what
// changed since the message before), against the full state that a
// connection gets once, when it opens. It reports the bytes of each.
//
//	go test -run XXX -bench MoveMessage -benchmem ./server/play/
func BenchmarkMoveMessage(b *testing.B) {
	for _, spec := range []string{"pogo(rep=0,maxplies=2000)"} {
		_, l, c := newFuzzGame(b, spec)
		// Pieces shuffled back and forth: the game never ends.
		shuffle := []string{"1a1-a2", "1c3-c2", "1a2-a1", "1c2-c3"}
		for l.h.Ply() < 1000 {
			if l.h.Ply() == 999 {
				// The connection has the state before the last move.
				l.changed()
				l.broadcast()
				drain(c)
			}
			if _, err := l.applyText(shuffle[l.h.Ply()%4]); err != nil {
				b.Fatal(err)
			}
		}
		for _, kind := range []string{"update", "state"} {
			b.Run(fmt.Sprintf("%s/ply%d/%s", spec, l.h.Ply(), kind), func(b *testing.B) {
				var n int
				for b.Loop() {
					l.changed()
					l.base = update.Parse(l.base.Raw()) // as kept between moves
					if kind == "update" {
						n = len(l.updateMsg())
					} else {
						n = len(l.stateMsg())
					}
				}
				b.ReportMetric(float64(n), "bytes/msg")
			})
		}
	}
}
