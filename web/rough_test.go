package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"stax/games"
)

// awaitEval evaluates a JavaScript expression whose value is a promise.
func awaitEval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// playFirstMove plays the first legal move of the page by dispatching clicks
// from inside the page, as a finger would, without scrolling to the
// elements: the cells of the move in its board view, then the confirm
// button when there is one.
const playFirstMove = `(async () => {
  const st = await (await fetch("/api/games/" + location.pathname.split("/").pop())).json();
  const m = st.view.moves[0];
  const tap = (sel) => document.querySelector(sel).dispatchEvent(new MouseEvent("click", { bubbles: true }));
  const cell = (name) => '[data-testid=board] [data-sq="' + name + '"]';
  if (m.kind === "shift") {
    tap(cell(m.from));
    tap(cell(m.to[0]));
  } else if (m.kind === "place") {
    for (const c of m.to) tap(cell(c));
    const confirm = document.querySelector("[data-testid=confirm]");
    if (confirm && !confirm.disabled) confirm.click();
  } else {
    document.querySelector("[data-testid=pass]").click();
  }
  return m.text;
})()`

// roughEdges checks the rough edges a new player met (issue 15), each
// found before it was fixed.
func roughEdges(t *testing.T, b *browser) {
	t.Run("phone-keeps-the-board", func(t *testing.T) {
		// On a phone, after every move the board and the status stay where
		// they were: the move list scrolls itself, not the page.
		ctx := b.tab(t, 60*time.Second)
		do(t, ctx, "emulating a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
		startGame(t, ctx, b.base, "pisola", "you", "you")
		for ply := 1; ply <= 20; ply++ {
			waitMyTurn(t, ctx)
			awaitEval[string](t, ctx, playFirstMove)
			waitPlies(t, ctx, ply)
			waitFor(t, ctx, "the board to be redrawn", fmt.Sprintf(`document.querySelector('[data-testid=board-box]').dataset.ply === '%d'`, ply))
			if y := eval[float64](t, ctx, `window.scrollY`); y != 0 {
				t.Fatalf("after move %d the page is scrolled by %.0f px", ply, y)
			}
		}
		for _, id := range []string{"board", "status"} {
			top := eval[float64](t, ctx, `document.querySelector('[data-testid=`+id+`]').getBoundingClientRect().top`)
			bottom := eval[float64](t, ctx, `document.querySelector('[data-testid=`+id+`]').getBoundingClientRect().bottom`)
			if top < 0 || bottom > 844 {
				t.Errorf("after 20 moves the %s spans %.0f to %.0f px of an 844 px screen", id, top, bottom)
			}
		}
	})

	t.Run("invitation-text", func(t *testing.T) {
		// The invitation offers to join and says nothing else.
		host := b.tab(t, 30*time.Second)
		startGame(t, host, b.base, "pogo", "you", "invite")
		waitFor(t, host, "the invitation link", `document.querySelector('[data-testid=invite-link-1]') !== null`)
		link := eval[string](t, host, `document.querySelector('[data-testid=invite-link-1]').value`)
		guest := b.person(t, 30*time.Second)
		do(t, guest, "opening the invitation", chromedp.Navigate(link), chromedp.WaitVisible(tid("join")))
		if text := eval[string](t, guest, `document.querySelector('[data-testid=join-box]').textContent`); strings.Contains(text, "null") {
			t.Errorf("the invitation reads %q", text)
		}
	})

	t.Run("count-stays-picked", func(t *testing.T) {
		// A count picked by clicking a disc stays picked when its button is
		// clicked again, and the move completes with one more click.
		ctx := b.tab(t, 30*time.Second)
		startVariant(t, ctx, b.base, "pogo", [][2]string{{"position", "-,-,-/-,-,-/bbbbbw,b,wwwww w"}}, "pogo", "you", "you")
		waitMyTurn(t, ctx)
		click(t, ctx, "disc-c1-1")
		waitFor(t, ctx, "the count picked", `document.querySelector('[data-testid=count-1].active') !== null`)
		click(t, ctx, "count-1")
		waitFor(t, ctx, "the count still picked", `document.querySelector('[data-testid=count-1].active') !== null`)
		click(t, ctx, "sq-b1")
		waitPlies(t, ctx, 1)
	})

	t.Run("spectator-controls", func(t *testing.T) {
		// A spectator gets no move box, Play button or Resign.
		host := b.tab(t, 30*time.Second)
		startGame(t, host, b.base, "pogo", "you", "invite")
		path := eval[string](t, host, `location.pathname`)
		watcher := b.person(t, 30*time.Second)
		do(t, watcher, "watching", chromedp.Navigate(b.base+path))
		waitFor(t, watcher, "the game to be watched", `document.querySelector('[data-testid=status]').textContent.includes('watching')`)
		if eval[bool](t, watcher, `(e => e && e.offsetParent !== null && !e.disabled)(document.querySelector('[data-testid=move-input]'))`) {
			t.Error("a spectator has an enabled move box")
		}
		if eval[bool](t, watcher, `(e => e && e.offsetParent !== null)(document.querySelector('[data-testid=move-submit]'))`) {
			t.Error("a spectator has a Play button")
		}
	})

	t.Run("unknown-game", func(t *testing.T) {
		// A game that does not exist shows that, and no controls.
		ctx := b.tab(t, 20*time.Second)
		do(t, ctx, "opening a missing game", chromedp.Navigate(b.base+"/game/zzzzzzzz"))
		waitFor(t, ctx, "the message", `document.querySelector('[data-testid=status]').textContent.includes('no such game')`)
		for _, id := range []string{"move-input", "resign", "flip", "download", "board-box", "slider"} {
			if eval[bool](t, ctx, `(e => e !== null && e.offsetParent !== null)(document.querySelector('[data-testid=`+id+`]'))`) {
				t.Errorf("a missing game shows %s", id)
			}
		}
	})

	t.Run("server-down", func(t *testing.T) {
		// When the server goes away the board stops taking moves, the seat
		// dots go grey and the status says so.
		base, stop := startStoppableServer(t, games.All())
		ctx := b.tab(t, 30*time.Second)
		startGame(t, ctx, base, "pogo", "you", "you")
		waitMyTurn(t, ctx)
		stop()
		waitFor(t, ctx, "the board to stop taking moves", `document.querySelector('[data-testid=board-box].interactive') === null`)
		if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=seats] .dot.on').length`); n != 0 {
			t.Errorf("%d seats still shown connected", n)
		}
		if s := eval[string](t, ctx, `document.querySelector('[data-testid=status]').textContent`); !strings.Contains(strings.ToLower(s), "connection") {
			t.Errorf("the status says %q while the server is down", s)
		}
	})

	t.Run("computer-thinking", func(t *testing.T) {
		// While the computer is to move the status says it is thinking,
		// never only that it is to move.
		ctx := b.tab(t, 30*time.Second)
		startGame(t, ctx, b.base, "pogo", "you", "ai:easy")
		waitMyTurn(t, ctx)
		eval[chromedp.Void](t, ctx, `(() => {
		  window.__statuses = [];
		  const s = document.querySelector('[data-testid=status]');
		  new MutationObserver(() => window.__statuses.push(s.textContent)).observe(s, { childList: true, characterData: true, subtree: true });
		})()`)
		awaitEval[string](t, ctx, playFirstMove)
		waitPlies(t, ctx, 2)
		statuses := eval[[]string](t, ctx, `window.__statuses`)
		thinking := false
		for _, s := range statuses {
			if s == "Black to move." {
				t.Errorf("the status says %q while the computer is to move (all: %q)", s, statuses)
			}
			thinking = thinking || strings.Contains(s, "thinking")
		}
		if !thinking {
			t.Errorf("the status never said the computer was thinking: %q", statuses)
		}
	})

	t.Run("rematch-keeps-position-and-name", func(t *testing.T) {
		// Play again starts from the same position, with the same name.
		const start = "-,-,-/-,-,-/bbbbbw,b,wwwww w"
		ctx := b.tab(t, 30*time.Second)
		do(t, ctx, "naming the player", chromedp.Navigate(b.base+"/"), chromedp.WaitVisible(tid("player-name")))
		eval[chromedp.Void](t, ctx, `localStorage.setItem('stax.name', 'carol')`)
		startVariant(t, ctx, b.base, "pogo", [][2]string{{"position", start}}, "pogo", "you", "you")
		waitMyTurn(t, ctx)
		clickMove(t, ctx, "pogo", "1c1-b1")
		waitFor(t, ctx, "the rematch button", `!document.querySelector('[data-testid=rematch]').hidden`)
		old := eval[string](t, ctx, `location.pathname`)
		click(t, ctx, "rematch")
		waitFor(t, ctx, "the new game", `location.pathname !== '`+old+`' && document.querySelector('[data-testid=board]') !== null`)
		got := awaitEval[string](t, ctx, `(async () => (await (await fetch('/api/games/' + location.pathname.split('/').pop())).json()).start)()`)
		if got != start {
			t.Errorf("the new game starts from %q, want %q", got, start)
		}
		waitFor(t, ctx, "the seats", `document.querySelector('[data-testid=seat-info-0]') !== null`)
		if s := eval[string](t, ctx, `document.querySelector('[data-testid=seats]').textContent`); !strings.Contains(s, "carol") {
			t.Errorf("the new game's seats read %q, want carol's name", s)
		}
	})
}
