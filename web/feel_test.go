package web_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// watchMoving records in window.moving every piece of the board that is
// given the class "moving" with a transform: the animation of a move.
const watchMoving = `(() => {
  window.moving = [];
  new MutationObserver((ms) => {
    for (const m of ms) {
      const e = m.target;
      if (e.classList && e.classList.contains("moving") && e.style.transform) window.moving.push(e.getAttribute("data-testid") + " " + e.style.transform);
    }
  }).observe(document.querySelector("[data-testid=board-box]"), { subtree: true, childList: true, attributes: true, attributeFilter: ["class", "style"] });
})()`

// playTyped plays a move by typing it into the move box.
func playTyped(t *testing.T, ctx context.Context, move string) {
	t.Helper()
	do(t, ctx, "playing "+move,
		chromedp.SetValue(tid("move-input"), move),
		chromedp.Click(tid("move-submit"), chromedp.NodeVisible),
	)
}

// TestBrowserFeel checks the feel of play: every game's moves animate on
// the board (a shifted stack slides, a placed piece drops in) and the board
// settles, except when the visitor asks for reduced motion; the move
// controls do not move once the board takes moves.
func TestBrowserFeel(t *testing.T) {
	skipShort(t)
	b := newBrowser(t)
	defer b.checkNoExceptions(t)

	for _, tc := range []struct {
		game  string
		moves int // moves played; the last one is watched
	}{{"pogo", 1}, {"pisola", 1}, {"diam", 1}, {"diam", 9}} {
		t.Run("animation-"+tc.game, func(t *testing.T) {
			ctx := b.person(t, 40*time.Second)
			startGame(t, ctx, b.base, tc.game, "you", "you")
			for i := 1; i <= tc.moves; i++ {
				waitMyTurn(t, ctx)
				if i == tc.moves {
					eval[chromedp.Void](t, ctx, watchMoving)
				}
				playTyped(t, ctx, legal(t, ctx)[0])
				waitPlies(t, ctx, i)
			}
			waitFor(t, ctx, "a moving piece", `window.moving.length > 0 && window.moving.every((m) => /translate\(/.test(m))`)
			waitFor(t, ctx, "the board settled", `document.querySelector("[data-testid=board-box] .moving") === null && [...document.querySelectorAll("[data-testid=board-box] [data-depth]")].every((e) => e.style.transform === "")`)
		})
	}

	// The move controls stay where they are once the board takes moves:
	// the news that comes after the game's state (the spectators' count)
	// does not push the Play button from under a player's finger, as it
	// once did by 33 pixels, half a second after a reload.
	t.Run("controls-stay", func(t *testing.T) {
		ctx := b.person(t, 40*time.Second)
		startGame(t, ctx, b.base, "pogo", "you", "you")
		waitMyTurn(t, ctx)
		playTyped(t, ctx, legal(t, ctx)[0])
		waitPlies(t, ctx, 1)
		const where = `(r => [r.x, r.y])(document.querySelector("[data-testid=move-submit]").getBoundingClientRect())`
		do(t, ctx, "reloading", chromedp.Reload(), chromedp.WaitVisible(tid("board-box")))
		waitMyTurn(t, ctx)
		first := eval[[]float64](t, ctx, where)
		waitFor(t, ctx, "the spectators' count", `/\d/.test(document.querySelector("[data-testid=watchers]").textContent)`)
		if now := eval[[]float64](t, ctx, where); !slices.Equal(now, first) {
			t.Errorf("the Play button moved from %v to %v after the board took moves", first, now)
		}
	})

	t.Run("reduced-motion", func(t *testing.T) {
		ctx := b.person(t, 40*time.Second)
		do(t, ctx, "asking for reduced motion", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}})
			return err
		}))
		startGame(t, ctx, b.base, "pogo", "you", "you")
		waitMyTurn(t, ctx)
		eval[chromedp.Void](t, ctx, watchMoving)
		playTyped(t, ctx, legal(t, ctx)[0])
		waitPlies(t, ctx, 1)
		waitMyTurn(t, ctx)
		if m := eval[[]string](t, ctx, `window.moving`); len(m) != 0 {
			t.Errorf("pieces moved under reduced motion: %s", strings.Join(m, "; "))
		}
	})
}

// soundsPlayed returns how many sounds the page played.
const soundsPlayed = `import("/sound.js").then((m) => m.played.move + m.played.turn + m.played.low)`

// TestBrowserSounds checks that the sounds are off by default, that the
// switch in the header turns them on and is remembered, and that a move is
// then heard.
func TestBrowserSounds(t *testing.T) {
	skipShort(t)
	b := newBrowser(t)
	defer b.checkNoExceptions(t)
	ctx := b.person(t, 40*time.Second)

	startGame(t, ctx, b.base, "pogo", "you", "you")
	waitMyTurn(t, ctx)
	if on := eval[string](t, ctx, `document.querySelector("[data-testid=sound-switch]").getAttribute("aria-pressed")`); on != "false" {
		t.Errorf("the sounds are on by default (aria-pressed %q)", on)
	}
	playTyped(t, ctx, legal(t, ctx)[0])
	waitPlies(t, ctx, 1)
	waitMyTurn(t, ctx)
	if n := awaitEval[int](t, ctx, soundsPlayed); n != 0 {
		t.Errorf("%d sounds played while they are off", n)
	}

	click(t, ctx, "sound-switch")
	waitFor(t, ctx, "the switch on", `document.querySelector("[data-testid=sound-switch]").getAttribute("aria-pressed") === "true"`)
	do(t, ctx, "reloading", chromedp.Reload(), chromedp.WaitVisible(tid("board-box")))
	waitFor(t, ctx, "the switch still on", `document.querySelector("[data-testid=sound-switch]").getAttribute("aria-pressed") === "true"`)
	waitMyTurn(t, ctx)
	playTyped(t, ctx, legal(t, ctx)[0])
	waitPlies(t, ctx, 2)
	if n := awaitEval[int](t, ctx, soundsPlayed); n == 0 {
		t.Error("no sound played for a move with the sounds on")
	}

	click(t, ctx, "sound-switch")
	do(t, ctx, "reloading", chromedp.Reload(), chromedp.WaitVisible(tid("board-box")))
	waitFor(t, ctx, "the switch still off", `document.querySelector("[data-testid=sound-switch]").getAttribute("aria-pressed") === "false"`)
}
