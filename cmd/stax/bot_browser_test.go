package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"stax/rating"
	"stax/server/bots/botstest"
	"stax/server/ratings"
)

// The browser test drives Debian's Chromium (headless), as the tests of
// package web do: without Chromium it skips, unless STAX_REQUIRE_BROWSER
// is set (as .ci/run does), in which case it fails.

// chromium returns the Chromium executable, or skips the test (or fails
// it, with STAX_REQUIRE_BROWSER set) when there is none.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("STAX_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("STAX_REQUIRE_BROWSER") != "" {
		t.Fatal("STAX_REQUIRE_BROWSER is set but Chromium was not found (apt-get install -y chromium)")
	}
	t.Skip("Chromium not found: browser tests skipped (apt-get install -y chromium to run them)")
	return ""
}

// newTab starts a headless Chromium with a tab bounded by timeout.
func newTab(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium(t)), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1200, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	// Start the browser with a first, unbounded run, then bound the rest.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		cancel()
		cancelAlloc()
		t.Fatalf("starting Chromium: %v", err)
	}
	tctx, tcancel := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() {
		tcancel()
		cancel()
		cancelAlloc()
	})
	return tctx
}

// browse runs actions in the tab, failing the test with what was done.
func browse(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// evalJS evaluates a JavaScript expression in the tab, awaiting it when it
// is a promise.
func evalJS[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// pageHolds polls a JavaScript predicate until it holds (an element not
// drawn yet counts as false).
func pageHolds(t *testing.T, ctx context.Context, what, predicate string) {
	t.Helper()
	safe := "(() => { try { return (" + predicate + "); } catch { return false; } })()"
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](safe, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// byTestID is the CSS selector of a data-testid.
func byTestID(id string) chromedp.CSS { return chromedp.CSS(`[data-testid="` + id + `"]`) }

// clickOn clicks the element with the data-testid, finding it again when
// the page drew it anew between finding and clicking.
func clickOn(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	var err error
	for range 3 {
		if err = chromedp.Do(ctx, chromedp.Click(byTestID(id), chromedp.NodeVisible)); err == nil {
			return
		}
	}
	t.Fatalf("clicking %s: %v", id, err)
}

// clickPogoMove plays a Pogo move by clicking the board as a person does:
// the square, the number of pieces, the target.
func clickPogoMove(t *testing.T, ctx context.Context, move string) {
	t.Helper()
	m := regexp.MustCompile(`^([1-3])([a-c][1-3])-([a-c][1-3])$`).FindStringSubmatch(move)
	if m == nil {
		t.Fatalf("bad pogo move %q", move)
	}
	counts := `document.querySelector('[data-testid=count-` + m[1] + `]') !== null`
	for try := 0; ; try++ {
		clickOn(t, ctx, "sq-"+m[2])
		if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](counts, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(3*time.Second))); err == nil || try == 2 {
			break
		}
	}
	clickOn(t, ctx, "count-"+m[1])
	pageHolds(t, ctx, "the target of "+move, `document.querySelector('[data-testid="sq-`+m[3]+`"].target') !== null`)
	clickOn(t, ctx, "sq-"+m[3])
}

// TestBotBrowser: stax bot, with stax engine --level easy, plays a rated
// game against a person who signs up, challenges it and plays every move
// by clicking in Chromium, to the game's end; the person's rating
// changes.
func TestBotBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game in a browser")
	}
	chromium(t)
	base := botSite(t)
	robot := botstest.MakeBot(t, base, "robot")
	startBotCommand(t, base, robot, "easy", "--variants", "pogo")
	ctx := newTab(t, 5*time.Minute)

	browse(t, ctx, "ann signs up",
		chromedp.Navigate(base+"/"),
		chromedp.Click(byTestID("nav-signup"), chromedp.NodeVisible),
		chromedp.SendKeys(byTestID("acct-name"), "ann", chromedp.NodeVisible),
		chromedp.SendKeys(byTestID("acct-password"), "correct horse ann"),
		chromedp.Click(byTestID("acct-submit")),
		chromedp.WaitVisible(byTestID("seek-form")),
	)
	// Ann challenges the bot to a rated 5+5 game from her signed-in page.
	status := evalJS[float64](t, ctx, `fetch("/api/challenges", {method: "POST", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({spec: "pogo", to: "robot", rated: true, clock: {initial: 300, increment: 5}})}).then(r => r.status)`)
	if status != 201 {
		t.Fatalf("ann's challenge: status %v; want 201", status)
	}
	// The bot accepts: the game appears among ann's games.
	var game string
	for deadline := time.Now().Add(time.Minute); game == ""; {
		var mine struct {
			Games []struct{ ID, Status string }
		}
		raw := evalJS[string](t, ctx, `fetch("/api/me/games").then(r => r.text())`)
		json.Unmarshal([]byte(raw), &mine)
		for _, g := range mine.Games {
			if g.Status == "playing" {
				game = g.ID
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bot did not accept ann's challenge in a minute: %s", raw)
		}
		time.Sleep(100 * time.Millisecond)
	}
	browse(t, ctx, "ann opens the game", chromedp.Navigate(base+"/game/"+game), chromedp.WaitVisible(byTestID("board")))

	finished := `document.querySelector('[data-testid=result]:not([hidden])') !== null`
	moves := `document.querySelectorAll('[data-testid=moves] button.move').length`
	rng := rand.New(rand.NewPCG(1, 2))
	for ply := 0; ; ply++ {
		pageHolds(t, ctx, "ann's turn or the end", finished+` || document.querySelector('[data-testid=board-box].interactive') !== null && JSON.parse(document.querySelector('[data-testid=legal]').dataset.moves || '[]').length > 0`)
		if evalJS[bool](t, ctx, finished) {
			break
		}
		before := evalJS[float64](t, ctx, moves)
		legal := evalJS[[]string](t, ctx, `JSON.parse(document.querySelector('[data-testid=legal]').dataset.moves)`)
		clickPogoMove(t, ctx, legal[rng.IntN(len(legal))])
		pageHolds(t, ctx, "ann's move in the list", fmt.Sprintf("%s > %v || %s", moves, before, finished))
		if ply > 400 {
			t.Fatal("the game has not ended after 400 of ann's moves")
		}
	}
	result := evalJS[string](t, ctx, `document.querySelector('[data-testid=result]').textContent`)

	// The game was rated: ann's rating in Pogo moved from where a new
	// player's starts (a draw between two new players keeps 1500, but
	// not the deviation).
	var p ratings.Profile
	raw := evalJS[string](t, ctx, `fetch("/api/users/ann").then(r => r.text())`)
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatalf("ann's profile %s: %v", raw, err)
	}
	start := rating.New()
	if len(p.Ratings) != 1 || p.Ratings[0].Games != 1 || p.Ratings[0].Rating == start.Rating && p.Ratings[0].Deviation == start.Deviation {
		t.Fatalf("ann's ratings after the game %+v; want one rated game of pogo that moved her rating from %v", p.Ratings, start)
	}
	t.Logf("ann against robot: %s; ann's rating %.0f", strings.TrimSpace(result), p.Ratings[0].Rating)
}
