package server_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"stax/game"
	"stax/games"
	"stax/search"
	"stax/server"
	"stax/server/analysis"
	"stax/server/play"
)

// searchAnalyst analyses by alpha-beta on a zero evaluation: it knows no
// game, like the server, and proves the ends of games within its depth.
type searchAnalyst struct{}

func (searchAnalyst) Analyze(ctx context.Context, pos search.Position, opt search.AnalyzeOptions) (search.Analysis, error) {
	ab := search.NewAlphaBeta(search.Zero, 12, 1)
	lim := search.Limits{Time: opt.Time, Depth: opt.Depth}
	if lim.IsZero() {
		lim.Depth = 2
	}
	scores, err := ab.ScoreMoves(ctx, pos, lim)
	if err != nil {
		return search.Analysis{}, err
	}
	var a search.Analysis
	for _, ms := range scores {
		src := search.FromSearch
		if ms.Score.IsProven() {
			src = search.FromSearchProof
		}
		a.Moves = append(a.Moves, search.MoveVerdict{Move: ms.Move, Score: ms.Score, Source: src, Depth: ms.Depth})
	}
	a.Line = []game.Move{a.Moves[0].Move}
	return a, nil
}

func (an searchAnalyst) Review(ctx context.Context, h *game.History, opt search.ReviewOptions, progress func(done, total int)) (search.Review, error) {
	analyze := func(ctx context.Context, pos search.Position) (search.Analysis, error) {
		return an.Analyze(ctx, pos, search.AnalyzeOptions{Depth: 2})
	}
	return search.ReviewGame(ctx, h, analyze, search.Thresholds{Inaccuracy: 50, Mistake: 100, Blunder: 200}, opt, progress)
}

// TestAnalyzePosition checks POST /api/analyze: every legal move with a
// verdict, best first, and the best line; a position or move the rules
// refuse is answered 400 with the parser's own message; a finished
// position has no moves and says how it ended.
func TestAnalyzePosition(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{Analyst: searchAnalyst{}})
	var a analysis.Analysis
	ts.call("POST", "/api/analyze", analysis.AnalyzeRequest{Spec: "pogo"}, http.StatusOK, &a)
	if len(a.Moves) != 16 || a.Position != "bb,bb,bb/-,-,-/ww,ww,ww w" || a.ToMove != 0 || len(a.Line) == 0 || a.Line[0] != a.Moves[0].Move {
		t.Errorf("analysis of the start: %s, %d moves, to move %d, line %v", a.Position, len(a.Moves), a.ToMove, a.Line)
	}
	for i := 1; i < len(a.Moves); i++ {
		if a.Moves[i].Score.Int() > a.Moves[i-1].Score.Int() {
			t.Errorf("verdicts not best first: %v after %v", a.Moves[i].Score, a.Moves[i-1].Score)
		}
	}
	if a.View == nil || len(a.View.List()) != 16 || a.Title != "Pogo" || len(a.PlayerNames) != 2 {
		t.Errorf("the analysis lacks the board: view %v, title %q, names %v", a.View != nil, a.Title, a.PlayerNames)
	}
	ts.call("POST", "/api/analyze", analysis.AnalyzeRequest{Spec: "pogo", Moves: []string{"1a1-b1", "2c3-c1"}}, http.StatusOK, &a)
	if a.ToMove != 0 || a.Position == "bb,bb,bb/-,-,-/ww,ww,ww w" {
		t.Errorf("analysis after two moves: %s, to move %d", a.Position, a.ToMove)
	}

	g, _ := games.Load("pogo")
	bad := "bb,bb,bb/-,-,-/ww,ww,ww x"
	_, perr := g.ParseState(bad)
	var e struct{ Error string }
	ts.call("POST", "/api/analyze", analysis.AnalyzeRequest{Spec: "pogo", Position: bad}, http.StatusBadRequest, &e)
	if e.Error != perr.Error() {
		t.Errorf("bad position: %q; want the parser's %q", e.Error, perr)
	}
	ts.call("POST", "/api/analyze", analysis.AnalyzeRequest{Spec: "pogo", Moves: []string{"1a1-b1", "1a1-c3"}}, http.StatusBadRequest, &e)
	if !strings.Contains(e.Error, "move 2") {
		t.Errorf("illegal move: %q; want it to name move 2", e.Error)
	}
	ts.call("POST", "/api/analyze", analysis.AnalyzeRequest{Spec: "chess"}, http.StatusBadRequest, nil)
	ts.call("POST", "/api/analyze", analysis.AnalyzeRequest{}, http.StatusBadRequest, nil)

	ts.call("POST", "/api/analyze", analysis.AnalyzeRequest{Spec: "pogo", Position: "-,-,bbbbbbwwwww/-,-,-/w,-,- b"}, http.StatusOK, &a)
	if len(a.Moves) != 0 || a.Over == "" || !a.Final {
		t.Errorf("analysis of a finished position: %+v", a)
	}
}

// TestAnalysisOfGames checks the rule of docs/server.md: a game of the
// server is analysed and reviewed only once it is over; then the review
// marks every move and the analysis starts from any of its plies.
func TestAnalysisOfGames(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{Analyst: searchAnalyst{}})
	id, tokens := ts.twoPlayerGame("pogo")
	w := ts.dial("white", id, tokens[0])
	w.hello()
	w.move("1a1-b1", 0)
	w.waitPly(1)
	var e struct{ Error string }
	ts.call("GET", "/api/games/"+id+"/review", nil, http.StatusForbidden, &e)
	ts.call("POST", "/api/analyze", analysis.AnalyzeRequest{Game: id}, http.StatusForbidden, &e)
	if !strings.Contains(e.Error, "not over") {
		t.Errorf("analysis of an ongoing game: %q", e.Error)
	}
	b := ts.dial("black", id, tokens[1])
	b.hello()
	b.move("2c3-c1", 1)
	b.waitPly(2)
	w.send(map[string]any{"type": "resign"})
	w.waitState("resigned", func(s *stateOf) bool { return s.Status == "finished" })

	var r analysis.Review
	ts.call("GET", "/api/games/"+id+"/review", nil, http.StatusOK, &r)
	if r.ID != id || r.Spec != "pogo" || len(r.Moves) != 2 || r.Moves[0].Move != "1a1-b1" || r.Moves[1].Player != 1 || len(r.Counts) != 2 {
		t.Errorf("review: %+v", r)
	}
	one := 1
	var a analysis.Analysis
	ts.call("POST", "/api/analyze", analysis.AnalyzeRequest{Game: id, Ply: &one}, http.StatusOK, &a)
	if a.ToMove != 1 || len(a.Moves) == 0 {
		t.Errorf("analysis at ply 1: to move %d, %d moves", a.ToMove, len(a.Moves))
	}
	nine := 9
	ts.call("POST", "/api/analyze", analysis.AnalyzeRequest{Game: id, Ply: &nine}, http.StatusBadRequest, nil)
	ts.call("GET", "/api/games/nosuchgame/review", nil, http.StatusNotFound, nil)
}

// wsAnalysis dials /ws/analyze.
func wsAnalysis(t *testing.T, ts *testServer) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, strings.Replace(ts.url, "http", "ws", 1)+"/ws/analyze", nil)
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(1 << 22)
	t.Cleanup(func() { c.CloseNow() })
	return c
}

type streamed struct {
	analysis.Analysis
	Code    string `json:"code"`
	Message string `json:"message"`
}

func readStreamed(t *testing.T, c *websocket.Conn) streamed {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var m streamed
	if err := wsjson.Read(ctx, c, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestAnalysisStream checks /ws/analyze: analyses one per depth, deeper
// each time, until the time cap, then done; stop ends one early, and a
// bad request is an error message that keeps the connection.
func TestAnalysisStream(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{Analyst: searchAnalyst{}, AnalysisTime: 1500 * time.Millisecond})
	c := wsAnalysis(t, ts)
	ctx := context.Background()
	wsjson.Write(ctx, c, analysis.AnalyzeRequest{Type: "start", Spec: "pogo"})
	depth := 0
	for {
		m := readStreamed(t, c)
		if m.Type == "done" {
			break
		}
		if m.Type != "analysis" || m.Depth <= depth || len(m.Moves) == 0 || len(m.Line) == 0 {
			t.Fatalf("message %q of depth %d with %d moves after depth %d; want a deeper analysis", m.Type, m.Depth, len(m.Moves), depth)
		}
		depth = m.Depth
	}
	if depth < 2 {
		t.Errorf("the stream reached depth %d; want 2 at least", depth)
	}
	wsjson.Write(ctx, c, analysis.AnalyzeRequest{Type: "start", Spec: "pisola", Position: "nonsense"})
	if m := readStreamed(t, c); m.Type != "error" || m.Code != play.CodeBadMessage {
		t.Errorf("bad position: %q %q; want an error", m.Type, m.Message)
	}
	wsjson.Write(ctx, c, analysis.AnalyzeRequest{Type: "start", Spec: "pisola(size=8)"})
	readStreamed(t, c)
	wsjson.Write(ctx, c, analysis.AnalyzeRequest{Type: "stop"})
	for m := readStreamed(t, c); m.Type != "done"; m = readStreamed(t, c) {
	}
}

// blockingAnalyst searches until its context ends, counting the analyses
// running at once.
type blockingAnalyst struct {
	searchAnalyst
	now, most atomic.Int32
}

func (b *blockingAnalyst) Analyze(ctx context.Context, pos search.Position, opt search.AnalyzeOptions) (search.Analysis, error) {
	n := b.now.Add(1)
	defer b.now.Add(-1)
	for m := b.most.Load(); n > m && !b.most.CompareAndSwap(m, n); m = b.most.Load() {
	}
	<-ctx.Done()
	return search.Analysis{}, ctx.Err()
}

// TestAnalysisBounded checks that analyses run on a bounded number of
// workers, however many connections ask, and that one address is limited
// in the analyses it starts.
func TestAnalysisBounded(t *testing.T) {
	an := &blockingAnalyst{}
	ts := startServer(t, newDB(t), server.Config{Analyst: an, AnalysisWorkers: 1, AnalysisTime: 300 * time.Millisecond, AnalyzeBurst: 4, AnalyzeEvery: time.Hour})
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		c := wsAnalysis(t, ts)
		wsjson.Write(context.Background(), c, analysis.AnalyzeRequest{Type: "start", Spec: "pogo"})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				var m streamed
				if err := wsjson.Read(context.Background(), c, &m); err != nil || m.Type == "done" {
					return
				}
			}
		}()
	}
	wg.Wait()
	if most := an.most.Load(); most != 1 {
		t.Errorf("%d analyses ran at once; want 1 (AnalysisWorkers)", most)
	}
	ts.call("POST", "/api/analyze", analysis.AnalyzeRequest{Spec: "pogo", Position: "-,-,bbbbbbwwwww/-,-,-/w,-,- b"}, http.StatusOK, nil)
	ts.call("POST", "/api/analyze", analysis.AnalyzeRequest{Spec: "pogo"}, http.StatusTooManyRequests, nil)
}

// TestNoAnalyst checks that a server without an analyst says so.
func TestNoAnalyst(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{})
	ts.call("POST", "/api/analyze", analysis.AnalyzeRequest{Spec: "pogo"}, http.StatusNotFound, nil)
}

// TestSetup checks POST /api/setup: stacks set up by hand make the
// position string the parser reads, and a board the rules refuse is 400
// with the parser's message.
func TestSetup(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{Analyst: searchAnalyst{}})
	var out analysis.Setup
	stacks := []string{"ww", "bw", "b", "bw", "w", "", "b", "", "wbb"}
	ts.call("POST", "/api/setup", analysis.SetupRequest{Spec: "pogo", Stacks: stacks, ToMove: 0}, http.StatusOK, &out)
	if out.Position != "b,-,wbb/bw,w,-/ww,bw,b w" || out.View == nil || len(out.View.List()) == 0 {
		t.Errorf("setup: %q, view %v", out.Position, out.View != nil)
	}
	g, _ := games.Load("pogo")
	stacks[0] = "wx"
	_, perr := g.ParseState("b,-,wbb/bw,w,-/wx,bw,b w")
	var e struct{ Error string }
	ts.call("POST", "/api/setup", analysis.SetupRequest{Spec: "pogo", Stacks: stacks}, http.StatusBadRequest, &e)
	if e.Error != perr.Error() {
		t.Errorf("setup of a bad stack: %q; want the parser's %q", e.Error, perr)
	}
	ts.call("POST", "/api/setup", analysis.SetupRequest{Spec: "diam", Stacks: []string{"r", "", "", "", "", "", "", ""}, ToMove: 1}, http.StatusOK, &out)
	if out.Position != "r/-/-/-/-/-/-/- 2" {
		t.Errorf("diam setup: %q", out.Position)
	}
}
