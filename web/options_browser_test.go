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

// TestBrowserSeekForm: the seek form shows the fields of the time control
// chosen, and only those: minutes and seconds for a clock, days for
// correspondence, nothing (and no rating) without a clock.
func TestBrowserSeekForm(t *testing.T) {
	skipShort(t)
	needChromium(t)
	base := startAccountServer(t, "")
	b := newBrowserAt(t, base)
	defer b.checkNoExceptions(t)
	ann := b.person(t, 60*time.Second)
	signUpAPI(t, ann, base, "ann")
	do(t, ann, "the lobby", chromedp.Navigate(base+"/"), chromedp.WaitVisible(tid("seek-form")))
	shown := `["seek-minutes", "seek-min-label", "seek-increment", "seek-s-label", "seek-days"].filter(id => { const e = document.querySelector('[data-testid="' + id + '"]'); return e && !e.hidden && e.getBoundingClientRect().width > 0; }).join()`
	for _, c := range []struct{ kind, want string }{
		{"days", "seek-days"},
		{"none", ""},
		{"clock", "seek-minutes,seek-min-label,seek-increment,seek-s-label"},
	} {
		do(t, ann, "choosing "+c.kind, chromedp.SetValue(tid("seek-kind"), c.kind))
		eval[chromedp.Void](t, ann, `document.querySelector('[data-testid=seek-kind]').dispatchEvent(new Event('change'))`)
		if got := eval[string](t, ann, shown); got != c.want {
			t.Errorf("with %s the form shows %q; want %q", c.kind, got, c.want)
		}
		if rated := eval[bool](t, ann, `!document.querySelector('[data-testid=seek-rated]').disabled`); rated != (c.kind != "none") {
			t.Errorf("with %s the rating may be chosen: %v", c.kind, rated)
		}
	}
}
