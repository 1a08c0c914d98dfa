package record_test

import (
	"fmt"
	"os"
	"testing"

	"stax/game/record"
	"stax/games"
)

func benchText(b *testing.B) string {
	data, err := os.ReadFile("testdata/pogo.txt")
	if err != nil {
		b.Fatal(err)
	}
	return string(data)
}

func BenchmarkParseAll(b *testing.B) {
	text := benchText(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := record.ParseAll(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkString(b *testing.B) {
	rs, err := record.ParseAll(benchText(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range rs {
			_ = r.String()
		}
	}
}

func BenchmarkReplay(b *testing.B) {
	rs, err := record.ParseAll(benchText(b))
	if err != nil {
		b.Fatal(err)
	}
	reg := games.All()
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range rs {
			if _, err := r.Replay(reg); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseManyTags parses records of many distinct tags: the time per
// tag stays flat as their number grows (it grew with it, quadratically,
// when each tag was checked against every earlier one).
func BenchmarkParseManyTags(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		text := manyTags(n, "")
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := record.Parse(text); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/tag")
		})
	}
}
