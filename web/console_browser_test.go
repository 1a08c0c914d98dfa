package web_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// consoleErrors follows a tab's console and returns what it logged as
// errors so far, each time it is called: errors of the page's scripts and
// the browser's own, such as a request answered 401.
func consoleErrors(ctx context.Context) func() []string {
	var mu sync.Mutex
	var got []string
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				mu.Lock()
				got = append(got, m.String()+" "+m.URL)
				mu.Unlock()
			}
		}
	}()
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := got
		got = nil
		return out
	}
}

// TestBrowserGuestConsole: a guest's pages log no errors in the console
// (no request of theirs is refused, as a request for the signed-in player
// would be).
func TestBrowserGuestConsole(t *testing.T) {
	skipShort(t)
	needChromium(t)
	base := startAccountServer(t, "")
	b := newBrowserAt(t, base)
	defer b.checkNoExceptions(t)
	ann := b.person(t, 60*time.Second)
	signUpAPI(t, ann, base, "ann")
	guest := b.person(t, 3*time.Minute)
	errs := consoleErrors(guest)
	game := startGame(t, guest, base, "pogo", "you", "ai:random")
	h1 := `document.querySelector("main h1") !== null`
	pages := []struct{ path, wait string }{
		{"/", `document.querySelector('[data-testid=game-pogo]') !== null`},
		{"/games", h1},
		{"/rules/pogo", `document.querySelector('[data-testid=rules-pogo]') !== null`},
		{"/analysis", `document.querySelector('[data-testid=analysis-title]') !== null && document.querySelector('[data-testid=board]') !== null`},
		{"/puzzles", h1},
		{"/leaderboard", h1},
		{"/@/ann", `document.querySelector('[data-testid=profile] .loading') === null`},
		{"/signup", `document.querySelector('[data-testid=acct-name]') !== null`},
		{"/login", `document.querySelector('[data-testid=acct-name]') !== null`},
		{"/game/" + game, `document.querySelector('[data-testid=board-box].interactive') !== null`},
	}
	for _, p := range pages {
		t.Run(strings.TrimPrefix(p.path, "/"), func(t *testing.T) {
			do(t, guest, "opening "+p.path, chromedp.Navigate(base+p.path))
			waitFor(t, guest, p.path+" drawn", p.wait)
			// What the page asks for after drawing has time to fail.
			time.Sleep(time.Second)
			for _, e := range errs() {
				t.Errorf("%s logged: %s", p.path, e)
			}
		})
	}
}
