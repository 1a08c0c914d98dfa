package web_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserBoardOptions: the coordinates can be hidden and shown again,
// and the choice stays on the device; on a touch screen a player may ask
// that each move picked on the board wait for a confirmation, which can be
// cancelled.
func TestBrowserBoardOptions(t *testing.T) {
	skipShort(t)
	b := newBrowser(t)
	defer b.checkNoExceptions(t)
	ctx := b.tab(t, 90*time.Second)
	do(t, ctx, "a phone with a touch screen", chromedp.EmulateViewport(390, 844, chromedp.EmulateTouch))
	startGame(t, ctx, b.base, "pisola", "you", "ai:random")
	waitMyTurn(t, ctx)
	coords := `[...document.querySelectorAll('[data-testid=board] .coord')].filter(e => e.getBoundingClientRect().width > 0).length`
	if n := eval[int](t, ctx, coords); n == 0 {
		t.Fatal("no coordinates on the board")
	}
	click(t, ctx, "opt-coords")
	waitFor(t, ctx, "the coordinates hidden", coords+` === 0`)
	do(t, ctx, "reloading", chromedp.Reload(), chromedp.WaitVisible(tid("board-box")))
	waitMyTurn(t, ctx)
	if n := eval[int](t, ctx, coords); n != 0 || eval[bool](t, ctx, `document.querySelector('[data-testid=opt-coords]').checked`) {
		t.Fatalf("after a reload %d coordinates are shown; want them hidden still", n)
	}
	click(t, ctx, "opt-coords")
	waitFor(t, ctx, "the coordinates back", coords+` > 0`)

	// The confirmation, offered on a touch screen.
	if !eval[bool](t, ctx, `matchMedia("(pointer: coarse)").matches`) {
		t.Skip("the browser does not emulate a touch screen")
	}
	click(t, ctx, "opt-confirm")
	mv := legal(t, ctx)[0]
	clickMove(t, ctx, "pisola", mv)
	waitFor(t, ctx, "the confirmation", `document.querySelector('[data-testid=confirm-move]') !== null && document.querySelector('[data-testid=hint]').textContent.includes("`+mv+`")`)
	shot(t, ctx, "confirm-move")
	time.Sleep(300 * time.Millisecond)
	if n := plies(t, ctx); n != 0 {
		t.Fatalf("%d moves played before the confirmation", n)
	}
	click(t, ctx, "cancel-move")
	waitFor(t, ctx, "the confirmation gone", `document.querySelector('[data-testid=confirm-move]') === null`)
	if n := plies(t, ctx); n != 0 {
		t.Fatalf("%d moves played after the cancellation", n)
	}
	clickMove(t, ctx, "pisola", mv)
	click(t, ctx, "confirm-move")
	waitPlies(t, ctx, 1)
	if got := eval[string](t, ctx, `document.querySelector('[data-testid="move-1"]').textContent`); got == "" || got[len(got)-len(mv):] != mv {
		t.Fatalf("the first move is %q; want %s", got, mv)
	}
}
