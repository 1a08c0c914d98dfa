package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
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
  const { getGame } = await import("/api.js");
  const st = await getGame(location.pathname.split("/").pop());
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

// openInvitation starts a Pogo game with an invitation for the second
// seat and opens it as another person; it returns the link and the
// guest's tab, showing the offer to join.
func openInvitation(t *testing.T, b *browser) (string, context.Context) {
	t.Helper()
	host := b.tab(t, 30*time.Second)
	startGame(t, host, b.base, "pogo", "you", "invite")
	waitFor(t, host, "the invitation link", `document.querySelector('[data-testid=invite-link-1]') !== null`)
	link := eval[string](t, host, `document.querySelector('[data-testid=invite-link-1]').value`)
	guest := b.person(t, 30*time.Second)
	do(t, guest, "opening the invitation", chromedp.Navigate(link), chromedp.WaitVisible(tid("join")))
	return link, guest
}

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
		_, guest := openInvitation(t, b)
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

	t.Run("seat-taken", func(t *testing.T) {
		// An invitation whose seat is taken offers no join.
		link, guest := openInvitation(t, b)
		click(t, guest, "join")
		waitFor(t, guest, "the invitation to be used", `document.querySelector('[data-testid=join-box]').hidden`)
		late := b.person(t, 30*time.Second)
		do(t, late, "opening the used invitation", chromedp.Navigate(link))
		waitFor(t, late, "the game", `document.querySelector('[data-testid=seat-info-1]') !== null`)
		waitFor(t, late, "the seat shown taken", `document.querySelector('[data-testid=join-box]').textContent.includes('taken')`)
		if eval[bool](t, late, `(e => e !== null && e.offsetParent !== null)(document.querySelector('[data-testid=join]'))`) {
			t.Error("joining is offered for a seat already taken")
		}
	})

	t.Run("titles-and-counts", func(t *testing.T) {
		// Titles name the options in words, counts agree with their nouns
		// and the move list numbers rounds as records do.
		ctx := b.tab(t, 30*time.Second)
		startVariant(t, ctx, b.base, "pisola", [][2]string{{"size", "8"}, {"roofs", "true"}}, "pisola(roofs=true,size=8)", "you", "you")
		waitFor(t, ctx, "the title", `document.querySelector('[data-testid=game-title]').textContent.includes('Pisola')`)
		if title := eval[string](t, ctx, `document.querySelector('[data-testid=game-title]').textContent`); strings.ContainsAny(title, "=()") || !strings.Contains(title, "8") {
			t.Errorf("the title reads %q", title)
		}
		startVariant(t, ctx, b.base, "pogo", [][2]string{{"position", "-,-,-/-,-,-/bbbbbw,b,wwwww w"}}, "pogo", "you", "ai:random")
		waitMyTurn(t, ctx)
		clickMove(t, ctx, "pogo", "1c1-b1")
		waitFor(t, ctx, "the end", `document.querySelector('[data-testid=result]:not([hidden])') !== null`)
		if s := eval[string](t, ctx, `document.querySelector('[data-testid=status]').textContent`); strings.Contains(s, "1 moves") {
			t.Errorf("the status reads %q", s)
		}
		startGame(t, ctx, b.base, "pogo", "you", "you")
		for ply := 1; ply <= 3; ply++ {
			waitMyTurn(t, ctx)
			awaitEval[string](t, ctx, playFirstMove)
			waitPlies(t, ctx, ply)
		}
		labels := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-testid=moves] li')].map((li) => li.dataset.label || '')`)
		if strings.Join(labels, "|") != "1.||2." {
			t.Errorf("the move list is numbered %q, want rounds 1. and 2.", labels)
		}
	})

	t.Run("badges-and-lines", func(t *testing.T) {
		// Height badges and target dots leave the top disc free and are
		// readable on an 8x8 board on a phone; the line of a diam stays
		// out of the towers and their letters.
		ctx := b.tab(t, 30*time.Second)
		do(t, ctx, "emulating a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)), chromedp.Navigate(b.base+"/rules/diam"), chromedp.WaitVisible(tid("rules-diam")))
		waitFor(t, ctx, "the diam", `document.querySelector('[data-testid=highlight-line]') !== null`)
		fails := awaitEval[[]string](t, ctx, `(async () => {
		  const { render } = await import("/render.js");
		  const fails = [];
		  const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
		  const inside = (x, y, r) => x > r.left && x < r.right && y > r.top && y < r.bottom;
		  // The diam's line ends outside both towers.
		  const line = document.querySelector("[data-testid=highlight-line]");
		  const svg = line.ownerSVGElement;
		  const pt = (x, y) => { const p = svg.createSVGPoint(); p.x = x; p.y = y; return p.matrixTransform(svg.getScreenCTM()); };
		  const ends = [pt(line.x1.baseVal.value, line.y1.baseVal.value), pt(line.x2.baseVal.value, line.y2.baseVal.value)];
		  for (const bg of svg.querySelectorAll(".cell-bg")) {
		    const r = bg.getBoundingClientRect();
		    for (const e of ends) if (inside(e.x, e.y, r)) fails.push("the diam's line ends inside a tower");
		  }
		  // An 8x8 board with tall stacks, drawn at a phone's width.
		  const pieces = [{ letter: "w", name: "white", player: 0 }, { letter: "b", name: "black", player: 1 }];
		  const cells = [];
		  for (let i = 0; i < 64; i++) cells.push({ name: "abcdefgh"[i % 8] + (1 + Math.floor(i / 8)), stack: i % 3 ? "wbwbwbw" : "" });
		  const big = render({ board: { topology: "grid", size: 8, height: 0, toMove: 0, pieces, reserves: [], counts: [], cells }, moves: [], last: [] }, { targets: ["b1"], selected: ["b1"] });
		  const box = document.createElement("div");
		  box.className = "board-box";
		  box.append(big);
		  document.querySelector("main").prepend(box);
		  const sq = big.querySelector("[data-testid=sq-b1]");
		  const top = sq.querySelector("[data-testid=disc-b1-1]").getBoundingClientRect();
		  for (const sel of [".height-badge", ".target-dot"]) {
		    const r = sq.querySelector(sel).getBoundingClientRect();
		    if (overlap(r, top)) fails.push(sel + " covers the top disc");
		    if (r.height < 12) fails.push(sel + " is " + r.height.toFixed(1) + " px high on an 8x8 board on a phone");
		  }
		  box.remove();
		  return fails;
		})()`)
		for _, f := range fails {
			t.Error(f)
		}
	})

	t.Run("position-string-tucked-away", func(t *testing.T) {
		// The position string is offered behind a control, with a copy
		// button, not printed under the board.
		ctx := b.tab(t, 30*time.Second)
		startGame(t, ctx, b.base, "pogo", "you", "you")
		waitMyTurn(t, ctx)
		if eval[bool](t, ctx, `document.querySelector('[data-testid=position]').checkVisibility()`) {
			t.Error("the position string is shown under the board")
		}
		if !eval[bool](t, ctx, `document.querySelector('[data-testid=copy-position]') !== null`) {
			t.Error("no button copies the position")
		}
	})

	t.Run("two-clicks-to-place", func(t *testing.T) {
		// Placing two pieces takes two clicks, the first previewed.
		ctx := b.tab(t, 30*time.Second)
		startGame(t, ctx, b.base, "pisola", "you", "you")
		waitMyTurn(t, ctx)
		click(t, ctx, "sq-a1")
		waitFor(t, ctx, "a1 previewed", `document.querySelector('[data-testid=ghost-a1]') !== null`)
		click(t, ctx, "sq-c1")
		waitPlies(t, ctx, 1)
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=move-1]').textContent`); !strings.HasSuffix(got, "a1+c1") {
			t.Errorf("the move played is %q, want a1+c1", got)
		}
	})

	t.Run("reserve-hint", func(t *testing.T) {
		// A newcomer to Diam is told to pick a piece from the reserve.
		ctx := b.tab(t, 30*time.Second)
		startGame(t, ctx, b.base, "diam", "you", "you")
		waitMyTurn(t, ctx)
		if h := eval[string](t, ctx, `document.querySelector('[data-testid=hint]').textContent`); !strings.Contains(h, "reserve") {
			t.Errorf("the hint reads %q, want it to point at the reserve", h)
		}
	})
}

// darkMode checks the dark theme: followed from the system and switched,
// the choice remembered.
func darkMode(t *testing.T, b *browser) {
	ctx := b.person(t, 30*time.Second)
	background := `getComputedStyle(document.documentElement).backgroundColor`
	do(t, ctx, "asking for the dark scheme",
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
			return err
		}),
		chromedp.Navigate(b.base+"/rules/pogo"),
		chromedp.WaitVisible(tid("rules-pogo")),
	)
	if bg := eval[string](t, ctx, background); bg != "rgb(22, 24, 28)" {
		t.Errorf("with the system dark, the page's background is %s", bg)
	}
	startGame(t, ctx, b.base, "diam", "you", "you")
	waitMyTurn(t, ctx)
	shot(t, ctx, "dark")
	click(t, ctx, "theme-switch")
	waitFor(t, ctx, "the light theme", `document.documentElement.dataset.theme === 'light'`)
	do(t, ctx, "opening another page", chromedp.Navigate(b.base+"/rules/pogo"), chromedp.WaitVisible(tid("rules-pogo")))
	if bg := eval[string](t, ctx, background); bg != "rgb(246, 243, 236)" {
		t.Errorf("after choosing light, on another page, the page's background is %s", bg)
	}
}
