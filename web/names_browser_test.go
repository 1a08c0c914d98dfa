package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// wordsWhole lists the words of an element's text that are not shown
// whole: cut by its edge, or broken over two lines.
const wordsWhole = `(e => {
  const bad = [];
  const box = e.getBoundingClientRect();
  const text = e.firstChild;
  if (!text || text.nodeType !== Node.TEXT_NODE) return ["no text"];
  const re = /\S+/g;
  let m;
  while ((m = re.exec(text.data))) {
    const r = document.createRange();
    r.setStart(text, m.index);
    r.setEnd(text, m.index + m[0].length);
    const rects = [...r.getClientRects()].filter(x => x.width > 0);
    const lines = new Set(rects.map(x => Math.round(x.top)));
    if (lines.size !== 1) bad.push(m[0] + ": over " + lines.size + " lines");
    for (const x of rects) if (x.right > box.right + 0.5 || x.left < box.left - 0.5 || x.bottom > box.bottom + 0.5) bad.push(m[0] + ": cut by the edge");
  }
  return bad;
})`

// TestBrowserLongNames: a player's long name is shown whole beside the
// board on a small phone, wrapped between words rather than cut, in a
// two-player game and in a four-player one, with everything else still on
// the screen.
func TestBrowserLongNames(t *testing.T) {
	skipShort(t)
	b := newBrowser(t)
	defer b.checkNoExceptions(t)
	const name = "Marie-Christine de la Fontaine Dubois"
	cases := []struct {
		game, spec string
		options    [][2]string
		seats      []string
	}{
		{"pisola", "pisola", nil, []string{"you", "ai:random"}},
		{"diam", "diam(players=4)", [][2]string{{"players", "4"}}, []string{"you", "ai:random", "ai:random", "ai:random"}},
	}
	for _, c := range cases {
		t.Run(c.spec, func(t *testing.T) {
			if !offers(c.game) {
				t.Skip("no " + c.game)
			}
			ctx := b.tab(t, 60*time.Second)
			do(t, ctx, "a small phone", chromedp.EmulateViewport(360, 640), chromedp.Navigate(b.base+"/"), chromedp.WaitVisible(tid("player-name")))
			eval[chromedp.Void](t, ctx, fmt.Sprintf(`localStorage.setItem('stax.name', %q)`, name))
			startVariant(t, ctx, b.base, c.game, c.options, c.spec, c.seats...)
			waitMyTurn(t, ctx)
			shot(t, ctx, "long-name-"+c.game)
			if got := eval[string](t, ctx, `document.querySelector('[data-testid=strip-name-0]').textContent`); got != name {
				t.Fatalf("the strip reads %q; want %q", got, name)
			}
			for i := range c.seats {
				if bad := eval[[]string](t, ctx, wordsWhole+fmt.Sprintf(`(document.querySelector('[data-testid=strip-name-%d]'))`, i)); len(bad) > 0 {
					t.Errorf("seat %d's name is not shown whole: %s", i, strings.Join(bad, "; "))
				}
			}
			must := []string{"board-box", "status", "controls"}
			for i := range c.seats {
				must = append(must, fmt.Sprintf("strip-name-%d", i))
			}
			if bad := offScreen(t, ctx, must); len(bad) > 0 {
				t.Fatalf("off the screen: %s", strings.Join(bad, "; "))
			}
		})
	}
}
