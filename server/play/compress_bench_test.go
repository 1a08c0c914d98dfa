package play

import (
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// gameMessages plays a game of spec with random legal moves for at most
// plies plies and returns the messages a connection gets: the full state
// at the start, every update, and the full state at the end (what a
// connection that opens then gets).
func gameMessages(t testing.TB, spec string, plies int) (start []byte, updates [][]byte, end []byte) {
	s, l, c := newFuzzGame(t, spec)
	l.broadcast()
	start = drain(c)[0]
	r := rand.New(rand.NewPCG(1, 7))
	for !l.h.Over() && l.h.Ply() < plies {
		legal := l.h.State().Legal(nil)
		l.mu.Lock()
		err := s.play(context.Background(), l, c.seats, l.h.State().FormatMove(legal[r.IntN(len(legal))]), nil)
		l.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		updates = append(updates, drain(c)...)
	}
	return start, updates, l.stateMsg()
}

// BenchmarkCompression measures what permessage-deflate (coder/websocket
// compresses with compress/flate at BestSpeed) would do to the game
// messages: the bytes of each kind of message before and after, and the
// time to compress and to decompress one, without context takeover (a
// writer reset for each message, as the library's pool does) and with it
// (one writer kept for the connection: the updates compress against the
// ones before).
//
//	go test ./server/play -run XXX -bench Compression
func BenchmarkCompression(b *testing.B) {
	for _, spec := range []string{"pogo(maxplies=300)", "pisola(size=8,maxplies=300)", "diam(players=4)"} {
		start, updates, end := gameMessages(b, spec, 300)
		for _, m := range []struct {
			name string
			msgs [][]byte
		}{{"start", [][]byte{start}}, {"update", updates}, {"end", [][]byte{end}}} {
			var raw int
			for _, msg := range m.msgs {
				raw += len(msg)
			}
			b.Run(fmt.Sprintf("%s/%s/reset", spec, m.name), func(b *testing.B) {
				var buf bytes.Buffer
				w, _ := flate.NewWriter(&buf, flate.BestSpeed)
				var out int
				for b.Loop() {
					out = 0
					for _, msg := range m.msgs {
						buf.Reset()
						w.Reset(&buf)
						w.Write(msg)
						w.Flush()
						out += buf.Len() - 4 // less the tail the protocol leaves out
					}
				}
				b.ReportMetric(float64(raw)/float64(len(m.msgs)), "B/msg")
				b.ReportMetric(float64(out)/float64(len(m.msgs)), "deflated-B/msg")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(m.msgs)), "ns/msg")
			})
			if m.name != "update" {
				continue
			}
			b.Run(fmt.Sprintf("%s/%s/takeover", spec, m.name), func(b *testing.B) {
				var buf bytes.Buffer
				var out int
				for b.Loop() {
					out = 0
					buf.Reset()
					w, _ := flate.NewWriter(&buf, flate.BestSpeed)
					for _, msg := range m.msgs {
						n := buf.Len()
						w.Write(msg)
						w.Flush()
						out += buf.Len() - n - 4
					}
				}
				b.ReportMetric(float64(raw)/float64(len(m.msgs)), "B/msg")
				b.ReportMetric(float64(out)/float64(len(m.msgs)), "deflated-B/msg")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(m.msgs)), "ns/msg")
			})
			b.Run(fmt.Sprintf("%s/%s/inflate", spec, m.name), func(b *testing.B) {
				var buf bytes.Buffer
				fw, _ := flate.NewWriter(&buf, flate.BestSpeed)
				fw.Write(m.msgs[len(m.msgs)/2])
				fw.Flush()
				z := buf.Bytes()
				r := flate.NewReader(bytes.NewReader(z))
				var sink bytes.Buffer
				for b.Loop() {
					r.(flate.Resetter).Reset(bytes.NewReader(z), nil)
					sink.Reset()
					sink.ReadFrom(r)
				}
			})
		}
	}
	_ = time.Now
}
