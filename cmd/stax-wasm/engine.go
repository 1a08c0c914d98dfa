// Command stax-wasm is stax's engine for the browser: the rules, the
// search and the computer levels of package ai, compiled with
// GOOS=js GOARCH=wasm and run in a Web Worker (web/static/offline/), so
// that a visitor plays the computer and analyses positions without the
// server, offline too.
//
// The browser calls one function, staxEngine(request), with a request in
// JSON and gets the answer in JSON (see Request and the answers of
// Engine.Handle); the page never waits on it, since it runs in the
// worker. Built for another system, the command reads one request a line
// on standard input and writes one answer a line, so that the same code
// is measured natively (docs/performance.md):
//
//	echo '{"op":"bench","ms":3000}' | go run ./cmd/stax-wasm
//
// The levels are those of the zero ai.Config: every level but Pogo's
// "perfect", whose solved table stays on the server.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"time"

	"stax/ai"
	"stax/game"
	"stax/games"
	"stax/search"
	"stax/server/view/board"
)

// Request is one call of the engine. Op names what is asked:
//
//	games    the games, their default variants and levels
//	variant  a variant of Spec: its players, start and levels
//	state    the game from Start (or the variant's start) after Moves
//	play     the computer's move at Level in that game
//	analyze  every legal move's verdict in that game's position
//	bench    the search's speed for MS milliseconds
type Request struct {
	Op    string   `json:"op"`
	Spec  string   `json:"spec,omitempty"`
	Start string   `json:"start,omitempty"`
	Moves []string `json:"moves,omitempty"`
	Level string   `json:"level,omitempty"`
	Seed  uint64   `json:"seed,omitempty"`
	// MS is the time of an analysis or a benchmark, in milliseconds.
	MS int `json:"ms,omitempty"`
	// Depth bounds an analysis's search instead of MS.
	Depth int `json:"depth,omitempty"`
}

// GameInfo is one game of the games answer.
type GameInfo struct {
	Name    string   `json:"name"`
	Title   string   `json:"title"`
	Spec    string   `json:"spec"`
	Players int      `json:"players"`
	Levels  []string `json:"levels"`
}

// Variant is the variant answer, the shape of the server's
// GET /api/variant.
type Variant struct {
	Spec        string      `json:"spec"`
	Title       string      `json:"title"`
	Players     int         `json:"players"`
	PlayerNames []string    `json:"playerNames"`
	Start       string      `json:"start"`
	View        *board.View `json:"view,omitempty"`
	Levels      []string    `json:"levels"`
}

// State is the state answer: the game after its moves.
type State struct {
	Spec     string         `json:"spec"`
	Start    string         `json:"start"`
	Position string         `json:"position"`
	Ply      int            `json:"ply"`
	ToMove   int            `json:"toMove"`
	Moves    []string       `json:"moves"`
	View     *board.View    `json:"view"`
	Outcome  *board.Outcome `json:"outcome"`
}

// Played is the play answer: the computer's move and what its search saw.
type Played struct {
	Move      string `json:"move"`
	Score     string `json:"score"`
	Depth     int    `json:"depth"`
	Nodes     int64  `json:"nodes"`
	ElapsedMS int64  `json:"elapsedMs"`
}

// Verdict is one move's verdict, as the server's analysis board gives it.
type Verdict = board.Verdict

// Analysis is the analyze answer, the shape of the server's
// POST /api/analyze, with Local set.
type Analysis = board.Analysis

// Bench is the bench answer: the search's speed on a fixed set of
// positions, in nodes a second, on the one thread the browser gives.
type Bench struct {
	Nodes     int64   `json:"nodes"`
	ElapsedMS int64   `json:"elapsedMs"`
	NPS       float64 `json:"nps"`
	GOOS      string  `json:"goos"`
	GOARCH    string  `json:"goarch"`
}

// maxAnalysis bounds the time of one analysis.
const maxAnalysis = 30 * time.Second

// Handle answers one request; the error says what was expected.
func Handle(req Request) (any, error) {
	switch req.Op {
	case "games":
		return gamesOf(), nil
	case "bench":
		return bench(time.Duration(req.MS) * time.Millisecond), nil
	}
	g, err := games.Load(req.Spec)
	if err != nil {
		return nil, fmt.Errorf("%s: spec %q: %w", req.Op, req.Spec, err)
	}
	if req.Op == "variant" {
		return variantOf(g), nil
	}
	h, err := replay(g, req.Start, req.Moves)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", req.Op, err)
	}
	switch req.Op {
	case "state":
		return stateOf(h), nil
	case "play":
		return play(h, req.Level, req.Seed)
	case "analyze":
		return analyze(h, time.Duration(req.MS)*time.Millisecond, req.Depth)
	}
	return nil, fmt.Errorf("unknown op %q: want games, variant, state, play, analyze or bench", req.Op)
}

// HandleJSON answers a request in JSON with an answer in JSON: the
// answer's value, or {"error": "..."}.
func HandleJSON(in []byte) []byte {
	var req Request
	var out any
	if err := json.Unmarshal(in, &req); err != nil {
		out = map[string]string{"error": "a request is a JSON object with an op: " + err.Error()}
	} else if v, err := Handle(req); err != nil {
		out = map[string]string{"error": err.Error()}
	} else {
		out = v
	}
	b, err := json.Marshal(out)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": "encoding the answer: " + err.Error()})
	}
	return b
}

func gamesOf() []GameInfo {
	var out []GameInfo
	for _, info := range games.All() {
		g, err := games.Load(info.Name)
		if err != nil {
			continue
		}
		out = append(out, GameInfo{Name: info.Name, Title: info.Title, Spec: game.SpecOf(g).String(), Players: g.Players(), Levels: ai.Levels(g)})
	}
	return out
}

func variantOf(g game.Game) Variant {
	return Variant{
		Spec:        game.SpecOf(g).String(),
		Title:       g.Info().Title,
		Players:     g.Players(),
		PlayerNames: board.PlayerNames(g),
		Start:       g.Start().String(),
		View:        board.Of(g.Start(), false, nil),
		Levels:      ai.Levels(g),
	}
}

// replay plays moves from start (the variant's start when empty).
func replay(g game.Game, start string, moves []string) (*game.History, error) {
	var st game.State
	if start != "" {
		var err error
		if st, err = g.ParseState(start); err != nil {
			return nil, fmt.Errorf("start %q: %w", start, err)
		}
	}
	h := game.NewHistory(g, st)
	for i, m := range moves {
		if h.Over() {
			return nil, fmt.Errorf("move %d %q: the game was over after %d moves", i+1, m, i)
		}
		if err := h.Play(m); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	return h, nil
}

func stateOf(h *game.History) State {
	g := h.Game()
	st := h.State()
	var last []string
	if before, m, ok := h.Last(); ok {
		last = board.LastCells(before, m)
	}
	return State{
		Spec:     game.SpecOf(g).String(),
		Start:    h.Start().String(),
		Position: st.String(),
		Ply:      h.Ply(),
		ToMove:   st.ToMove(),
		Moves:    append([]string{}, h.Notation()...),
		View:     board.Of(st, h.Over(), last),
		Outcome:  board.OutcomeOf(g, h.Outcome()),
	}
}

// play asks the computer at level for its move in h.
func play(h *game.History, level string, seed uint64) (Played, error) {
	if h.Over() {
		return Played{}, errors.New("play: the game is over: no move to make")
	}
	var p search.Player
	var err error
	if seed != 0 {
		p, err = ai.NewSeeded(h.Game(), level, seed)
	} else {
		p, err = ai.New(h.Game(), level)
	}
	if err != nil {
		return Played{}, fmt.Errorf("play: %w", err)
	}
	st := h.State()
	res, err := search.Ask(context.Background(), p, search.PositionOf(h), search.Limits{}, nil)
	if err != nil {
		return Played{}, fmt.Errorf("play: level %s: %w", level, err)
	}
	return Played{Move: st.FormatMove(res.Move), Score: res.Score.String(), Depth: res.Depth, Nodes: res.Nodes, ElapsedMS: res.Elapsed.Milliseconds()}, nil
}

// analyze gives every legal move of h's position its verdict, from a
// search of d (one second when zero, at most maxAnalysis) or to depth.
func analyze(h *game.History, d time.Duration, depth int) (Analysis, error) {
	g := h.Game()
	st := h.State()
	out := Analysis{Spec: game.SpecOf(g).String(), Position: st.String(), ToMove: st.ToMove(), Moves: []Verdict{}, Line: []string{},
		PlayerNames: board.PlayerNames(g), Title: g.Info().Title, Local: true}
	var last []string
	if before, m, ok := h.Last(); ok {
		last = board.LastCells(before, m)
	}
	out.View = board.Of(st, h.Over(), last)
	if h.Over() {
		out.Exact, out.Final, out.Over = true, true, h.Outcome().Describe(g)
		return out, nil
	}
	if d <= 0 && depth <= 0 {
		d = time.Second
	}
	d = min(d, maxAnalysis)
	start := time.Now()
	a, err := ai.Config{}.Analyze(context.Background(), search.PositionOf(h), search.AnalyzeOptions{Time: d, Depth: depth, Prove: true})
	if err != nil {
		return out, fmt.Errorf("analyze: %w", err)
	}
	out.Exact, out.Final, out.ElapsedMS = a.Exact, a.Exact, time.Since(start).Milliseconds()
	for _, v := range a.Moves {
		out.Moves = append(out.Moves, Verdict{Move: st.FormatMove(v.Move), Score: v.Score, Source: v.Source, Exact: v.Source.Exact(), Depth: v.Depth})
		out.Depth = max(out.Depth, v.Depth)
	}
	c := st.Clone()
	for _, m := range a.Line {
		if c.Terminal() {
			break
		}
		out.Line = append(out.Line, c.FormatMove(m))
		c.Apply(m)
	}
	return out, nil
}

// benchSpecs are the positions of the benchmark: the start of each
// game's default variant.
var benchSpecs = []string{"pogo", "pisola", "diam"}

// bench searches the benchSpecs' starts with alpha-beta in turn, on one
// thread, for about d in all (a second when zero), and counts the nodes.
func bench(d time.Duration) Bench {
	if d <= 0 {
		d = time.Second
	}
	out := Bench{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}
	per := d / time.Duration(len(benchSpecs))
	start := time.Now()
	for _, spec := range benchSpecs {
		g, err := games.Load(spec)
		if err != nil {
			continue
		}
		ab := search.NewAlphaBeta(ai.Evaluator(g), 18, 1)
		res, err := ab.Play(context.Background(), search.Position{State: g.Start()}, search.Limits{Time: per}, nil)
		if err == nil {
			out.Nodes += res.Nodes
		}
	}
	el := time.Since(start)
	out.ElapsedMS = el.Milliseconds()
	out.NPS = float64(out.Nodes) / el.Seconds()
	return out
}
