package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"stax/ai"
	"stax/ai/aitest"
	"stax/games"
	"stax/search"
	"stax/server"
	"stax/server/play"
	"stax/server/store/sqlite"
	"stax/web"
)

// startAnalysisServer runs the server with the analyst of stax serve,
// reading Pogo's solved table.
func startAnalysisServer(t *testing.T, cfg ai.Config) string {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "stax.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{Store: st, Games: games.All(), Assets: web.FS(), Analyst: cfg,
		NewPlayer: cfg.New, Levels: cfg.Levels, LevelReady: cfg.Ready, AnalysisTime: 5 * time.Second})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.CloseClientConnections()
		srv.Close()
		ts.Close()
		st.Close()
	})
	return ts.URL
}

// playedGame creates a hotseat game on the server and plays moves through
// its websocket; it returns the game's id.
func playedGame(t *testing.T, base, spec string, moves ...string) string {
	t.Helper()
	body, _ := json.Marshal(play.CreateRequest{Spec: spec, Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "human"}}})
	res, err := http.Post(base+"/api/games", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var cr play.CreateResponse
	if err := json.NewDecoder(res.Body).Decode(&cr); err != nil || cr.ID == "" {
		t.Fatalf("creating a game: %v, %+v", err, cr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, strings.Replace(base, "http", "ws", 1)+"/ws/games/"+cr.ID+"?token="+url.QueryEscape(cr.Token), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 22)
	for ply, m := range moves {
		if err := wsjson.Write(ctx, c, map[string]any{"type": "move", "move": m, "ply": ply}); err != nil {
			t.Fatal(err)
		}
		for {
			var msg struct {
				Type    string
				Message string
				State   struct{ Ply int }
			}
			if err := wsjson.Read(ctx, c, &msg); err != nil {
				t.Fatalf("move %s: %v", m, err)
			}
			if msg.Type == "error" {
				t.Fatalf("move %s: %s", m, msg.Message)
			}
			if (msg.Type == "state" || msg.Type == "update") && msg.State.Ply == ply+1 {
				break
			}
		}
	}
	return cr.ID
}

// TestAnalysisBoard drives the analysis board and the review in Chromium:
// a Pogo position's verdicts are exactly those of stax analyze (the
// table's), with the best move drawn; moves tried on the board are taken
// back; a finished Pogo game's review marks its known blunder; the
// position setup shows the parser's own message; and a phone's screen
// shows the board and the verdicts without sideways scrolling.
func TestAnalysisBoard(t *testing.T) {
	needChromium(t)
	cfg := ai.Config{Tables: aitest.Tables(t)}
	base := startAnalysisServer(t, cfg)
	b := newBrowserAt(t, base)
	const pos = "b,-,wbb/bw,w,-/ww,bw,b w"
	pogo, _ := games.Load("pogo")

	t.Run("pogo verdicts", func(t *testing.T) {
		ctx := b.tab(t, 60*time.Second)
		st, err := pogo.ParseState(pos)
		if err != nil {
			t.Fatal(err)
		}
		want, err := cfg.Analyze(context.Background(), search.Position{State: st}, search.AnalyzeOptions{})
		if err != nil || !want.Exact {
			t.Fatalf("the table's analysis: %v, exact %v", err, want.Exact)
		}
		do(t, ctx, "opening the analysis of a position", chromedp.Navigate(base+"/analysis?spec=pogo&position="+url.QueryEscape(pos)))
		waitFor(t, ctx, "the verdicts", fmt.Sprintf(`document.querySelectorAll('[data-testid=verdict]').length === %d`, len(want.Moves)))
		got := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-testid=verdict]')].map(e => e.dataset.move + " " + e.dataset.score)`)
		for i, v := range want.Moves {
			if w := st.FormatMove(v.Move) + " " + v.Score.String(); got[i] != w {
				t.Errorf("verdict %d on the page: %q; stax analyze says %q", i+1, got[i], w)
			}
		}
		if !eval[bool](t, ctx, `/exact/.test(document.querySelector('[data-testid=depth]').textContent)`) {
			t.Error("the verdicts are not said to be exact")
		}
		best := st.FormatMove(want.Moves[0].Move)
		waitFor(t, ctx, "the best move drawn", fmt.Sprintf(`(() => { const a = document.querySelector('[data-testid=best-arrow]'); return a && a.dataset.move === %q && a.querySelector('line, circle') !== null; })()`, best))
		if line := eval[string](t, ctx, `document.querySelector('[data-testid=line-moves]').textContent`); !strings.HasPrefix(line, best) {
			t.Errorf("best line %q does not start with the best move %s", line, best)
		}
		shot(t, ctx, "analysis-desktop")

		// Try the best move from the list, then take it back.
		do(t, ctx, "playing the best move", chromedp.Click(chromedp.CSS(`[data-testid=verdict-move]`)))
		waitFor(t, ctx, "the move played", `document.querySelectorAll('[data-testid=line-move]').length === 1 && !location.search.includes('ply=')`)
		waitFor(t, ctx, "the new position's verdicts", fmt.Sprintf(`document.querySelector('[data-testid=board]').dataset.pos !== %q`, pos))
		click(t, ctx, "an-back")
		waitFor(t, ctx, "the position taken back", fmt.Sprintf(`document.querySelector('[data-testid=board]').dataset.pos === %q && document.querySelectorAll('[data-testid=verdict]').length === %d`, pos, len(want.Moves)))
		if !eval[bool](t, ctx, `location.search.includes('ply=0')`) {
			t.Error("the address does not keep the position shown")
		}
	})

	t.Run("review marks the blunder", func(t *testing.T) {
		id := playedGame(t, base, "pogo", "2c1-c3", "2a3-c3", "2b1-b3", "2c3-a3", "2a1-a3")
		ctx := b.tab(t, 60*time.Second)
		do(t, ctx, "opening the finished game", chromedp.Navigate(base+"/game/"+id))
		waitFor(t, ctx, "the analyse link", `!document.querySelector('[data-testid=analyse]').hidden`)
		click(t, ctx, "analyse")
		waitFor(t, ctx, "the review", `document.querySelectorAll('[data-testid=review-move]').length === 5`)
		marks := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-testid=review-move]')].map(e => e.dataset.move + ":" + e.dataset.mark)`)
		if want := []string{"2c1-c3:mistake", "2a3-c3:", "2b1-b3:", "2c3-a3:blunder", "2a1-a3:"}; strings.Join(marks, " ") != strings.Join(want, " ") {
			t.Errorf("review marks %v; want %v", marks, want)
		}
		if !eval[bool](t, ctx, `/1c3-b3/.test(document.querySelector('[data-testid=review-move][data-mark=blunder]').textContent)`) {
			t.Error("the blunder does not name the winning move 1c3-b3")
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=graph-point][data-mark=blunder]').length`); n != 1 {
			t.Errorf("%d blunders on the graph; want 1", n)
		}
		shot(t, ctx, "review-desktop")
		// A click on the blunder's point shows the position after it.
		do(t, ctx, "clicking the blunder on the graph", chromedp.Click(chromedp.CSS(`[data-testid=graph-point][data-mark=blunder]`)))
		waitFor(t, ctx, "the position after the blunder", `location.search.includes('ply=4') && document.querySelectorAll('[data-testid=verdict]').length > 0`)
	})

	t.Run("position setup", func(t *testing.T) {
		ctx := b.tab(t, 60*time.Second)
		bad := "b,-,wbb/bw,w,-/ww,bw,b x"
		if _, err := pogo.ParseState(bad); err == nil {
			t.Fatalf("%q is a position of Pogo", bad)
		}
		// The rules' refusal is said in the catalogue's words (the parser's
		// own are English only).
		refused := catalog(t, "en")["analysis.badPosition"]
		do(t, ctx, "opening the analysis board", chromedp.Navigate(base+"/analysis"))
		waitFor(t, ctx, "the verdicts", `document.querySelectorAll('[data-testid=verdict]').length === 16`)
		do(t, ctx, "typing a wrong position",
			chromedp.Click(chromedp.CSS(`[data-testid=setup] summary`)),
			chromedp.SendKeys(chromedp.CSS(`[data-testid=setup-position]`), bad))
		waitFor(t, ctx, "the refusal", fmt.Sprintf(`document.querySelector('[data-testid=setup-error]').textContent === %q`, refused))
		if !eval[bool](t, ctx, `document.querySelector('[data-testid=setup-use]').disabled`) {
			t.Error("a wrong position can be analysed")
		}
		eval[bool](t, ctx, `(document.querySelector('[data-testid=setup-position]').value = '') === ''`)
		do(t, ctx, "correcting it", chromedp.SendKeys(chromedp.CSS(`[data-testid=setup-position]`), pos))
		waitFor(t, ctx, "the preview", `document.querySelector('[data-testid=setup-error]').textContent === '' && document.querySelector('[data-testid=setup-preview] svg') !== null`)
		// Change a stack by hand on the board, then the side to move.
		do(t, ctx, "editing b1's stack", chromedp.Click(chromedp.CSS(`[data-testid=setup-preview] [data-sq=b1]`)))
		waitFor(t, ctx, "the stack editor", `!document.querySelector('[data-testid=setup-stack]').closest('[hidden]') && document.querySelector('[data-testid=setup-stack]').value === 'bw'`)
		eval[bool](t, ctx, `(document.querySelector('[data-testid=setup-stack]').value = '') === ''`)
		do(t, ctx, "typing a stack the rules refuse", chromedp.SendKeys(chromedp.CSS(`[data-testid=setup-stack]`), "wx"))
		click(t, ctx, "setup-stack-set")
		if _, err := pogo.ParseState("b,-,wbb/bw,w,-/ww,wx,b w"); err == nil {
			t.Fatal("a stack wx is a stack of Pogo")
		}
		waitFor(t, ctx, "the refusal of the stack", fmt.Sprintf(`document.querySelector('[data-testid=setup-error]').textContent === %q`, refused))
		eval[bool](t, ctx, `(document.querySelector('[data-testid=setup-stack]').value = '') === ''`)
		do(t, ctx, "typing a good stack", chromedp.SendKeys(chromedp.CSS(`[data-testid=setup-stack]`), "wb"))
		click(t, ctx, "setup-stack-set")
		const edited = "b,-,wbb/bw,w,-/ww,wb,b w"
		waitFor(t, ctx, "the composed position", fmt.Sprintf(`document.querySelector('[data-testid=setup-position]').value === %q && document.querySelector('[data-testid=setup-error]').textContent === ''`, edited))
		do(t, ctx, "giving Black the move", chromedp.SetValue(tid("setup-side"), "1"))
		eval[bool](t, ctx, `document.querySelector('[data-testid=setup-side]').dispatchEvent(new Event('change')) || true`)
		const blackToMove = "b,-,wbb/bw,w,-/ww,wb,b b"
		waitFor(t, ctx, "Black to move", fmt.Sprintf(`document.querySelector('[data-testid=setup-position]').value === %q`, blackToMove))
		click(t, ctx, "setup-use")
		waitFor(t, ctx, "the position analysed and shared", fmt.Sprintf(`document.querySelector('.board-col [data-testid=board]').dataset.pos === %q && new URLSearchParams(location.search).get('position') === %q`, blackToMove, blackToMove))
	})

	t.Run("phone", func(t *testing.T) {
		id := playedGame(t, base, "pogo", "2c1-c3", "2a3-c3", "2b1-b3", "2c3-a3", "2a1-a3")
		ctx := b.tab(t, 60*time.Second)
		do(t, ctx, "emulating a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)),
			chromedp.Navigate(base+"/analysis?spec=pogo&position="+url.QueryEscape(pos)))
		waitFor(t, ctx, "the verdicts", `document.querySelectorAll('[data-testid=verdict]').length > 0`)
		fits := `(() => { const r = document.querySelector('[data-testid=board]').getBoundingClientRect();
			return r.width > 200 && r.left >= 0 && r.right <= 390 && r.top >= 0 && r.top < 844 && document.documentElement.scrollWidth <= 390; })()`
		if !eval[bool](t, ctx, fits) {
			t.Error("on a phone the board does not fit the screen, or the page scrolls sideways")
		}
		shot(t, ctx, "analysis-phone")
		do(t, ctx, "opening a review", chromedp.Navigate(base+"/analysis?game="+id))
		waitFor(t, ctx, "the review", `document.querySelectorAll('[data-testid=review-move]').length === 5`)
		if !eval[bool](t, ctx, `document.documentElement.scrollWidth <= 390 && document.querySelector('[data-testid=eval-graph]').getBoundingClientRect().width <= 390`) {
			t.Error("on a phone the review scrolls sideways")
		}
		shot(t, ctx, "review-phone")
	})
	b.checkNoExceptions(t)
}
