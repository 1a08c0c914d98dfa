package ai

import (
	"bytes"
	"context"
	"go/parser"
	"go/token"
	"strings"
	"testing"
	"time"

	"stax/engine/match"
	"stax/game/record"
)

// The tuners take minutes to hours at full size (stax tune runs them);
// these tests run each on a few games, to check that it plays, fits and
// writes Go source of the variable or file it replaces.

// checkTuned checks that tuned is Go source declaring what it says it
// replaces.
func checkTuned(t *testing.T, tuned *Tuned, want string) {
	t.Helper()
	src := string(tuned.Source)
	if tuned.File != "" {
		if _, err := parser.ParseFile(token.NewFileSet(), tuned.File, tuned.Source, 0); err != nil {
			t.Fatalf("%s does not parse: %v\n%s", tuned.File, err, src)
		}
	} else if _, err := parser.ParseFile(token.NewFileSet(), "", "package ai\n"+src, 0); err != nil {
		t.Fatalf("the declaration of %s does not parse: %v\n%s", tuned.Var, err, src)
	}
	if !strings.Contains(src, want) {
		t.Errorf("tuned source lacks %q:\n%s", want, src)
	}
}

func TestTunePisola(t *testing.T) {
	g := load(t, "pisola")
	rep, err := match.Run(context.Background(), match.Config{
		Game:      g,
		Engines:   []match.Engine{{Name: "a", Level: "greedy"}, {Name: "b", Level: "greedy"}},
		Games:     3,
		Openings:  2,
		Seed:      1,
		NewPlayer: NewSeeded,
	})
	if err != nil {
		t.Fatal(err)
	}
	var records []*record.Record
	for _, res := range rep.Games {
		records = append(records, res.Record)
	}
	var log bytes.Buffer
	tuned, err := TunePisola(context.Background(), g, PisolaTuning{Records: records, Iters: 20, Log: func(s string) { log.WriteString(s + "\n") }})
	if err != nil {
		t.Fatal(err)
	}
	checkTuned(t, tuned, "var pisolaWeights = [2][numPisolaTerms]int{")
	if !strings.Contains(log.String(), "positions to fit") {
		t.Errorf("log %q: want the number of positions", log.String())
	}
	if _, err := TunePisola(context.Background(), load(t, "diam"), PisolaTuning{Records: records}); err == nil {
		t.Error("TunePisola of Diam: no error")
	}
}

func TestTuneDiam(t *testing.T) {
	g := load(t, "diam")
	cfg := DiamTuning{Games: 4, Nodes: 100, Seed: 1, Iters: 20, Data: t.TempDir() + "/positions.txt"}
	tuned, err := TuneDiam(context.Background(), g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkTuned(t, tuned, "var diamWeights2 = diamWeights{")
	// The second run reads the positions the first wrote, and fits them
	// to the same weights.
	again, err := TuneDiam(context.Background(), g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Source, tuned.Source) {
		t.Errorf("tuned from the data file:\n%s\nwant, as from the games:\n%s", again.Source, tuned.Source)
	}
	if _, err := TuneDiam(context.Background(), load(t, "diam(players=4)"), cfg); err == nil {
		t.Error("TuneDiam of four-player Diam: no error")
	}
}

func TestTunePogo(t *testing.T) {
	_, tb := cachedPogoTable(t)
	g := load(t, "pogo")
	tuned, err := TunePogo(context.Background(), g, PogoTuning{Table: tb, Games: 10, Epochs: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkTuned(t, tuned, "var pogoWeights = [2]pogoModel{")
	if tuned.File != "eval_pogo_weights.go" {
		t.Errorf("File = %q, want eval_pogo_weights.go", tuned.File)
	}
}

func TestTunePogoNet(t *testing.T) {
	if testing.Short() {
		t.Skip("labels the 1.1 million positions before contact; not with -short")
	}
	_, tb := cachedPogoTable(t)
	g := load(t, "pogo")
	start := time.Now()
	tuned, err := TunePogoNet(context.Background(), g, PogoTuning{Table: tb, Games: 10, Epochs: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tuned in %v", time.Since(start))
	checkTuned(t, tuned, "var pogoNet = pogoNetModel{")
}

// TestTuneStops checks that a tuning stops when its context is done.
func TestTuneStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := TuneDiam(ctx, load(t, "diam"), DiamTuning{Games: 100}); err == nil {
		t.Error("TuneDiam with a cancelled context: no error")
	}
}
