package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// axeSource returns axe-core's script (the npm package axe-core), which the
// accessibility test injects into each page: from STAX_AXE, or from
// web/node_modules (npm i --no-save --prefix web axe-core). Without it the
// test skips, unless STAX_REQUIRE_AXE is set (as .ci/run does).
func axeSource(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("STAX_AXE"), filepath.Join("node_modules", "axe-core", "axe.min.js")} {
		if p == "" {
			continue
		}
		if b, err := os.ReadFile(p); err == nil {
			return string(b)
		}
	}
	if os.Getenv("STAX_REQUIRE_AXE") != "" {
		t.Fatal("STAX_REQUIRE_AXE is set but axe-core was not found (npm i --no-save --prefix web axe-core, or STAX_AXE=path/to/axe.min.js)")
	}
	t.Skip("axe-core not found: accessibility test skipped (npm i --no-save --prefix web axe-core to run it)")
	return ""
}

// axeRun runs axe-core on the page for WCAG 2 A and AA and returns its
// serious and critical violations, each with the elements it names.
const axeRun = `axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}).then(r => JSON.stringify(
  r.violations.filter(v => v.impact === "serious" || v.impact === "critical")
    .map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map(n => n.target.join(" ") + (n.failureSummary ? " (" + n.failureSummary.replace(/\s+/g, " ").slice(0, 160) + ")" : ""))}))))`

// TestBrowserAccessibility runs axe-core over every page, signed in and
// out, in both themes, on a phone and on a laptop, and fails on any
// serious or critical violation. A bot account, made on the account page
// (botInBrowser), shows its BOT mark on its account page, its profile and
// its game.
func TestBrowserAccessibility(t *testing.T) {
	skipShort(t)
	needChromium(t)
	axe := axeSource(t)
	base := startAccountServer(t, "")
	b := newBrowserAt(t, base)
	defer b.checkNoExceptions(t)
	guest := b.person(t, 10*time.Minute)
	ann := b.person(t, 10*time.Minute)
	bob := b.person(t, 10*time.Minute)
	robo := b.person(t, 10*time.Minute)
	signUpAPI(t, ann, base, "ann")
	signUpAPI(t, bob, base, "bob")
	// A rated correspondence game between them, in progress, each having
	// moved once.
	code, body := apiCall(t, ann, "POST", "/api/seeks", `JSON.stringify({spec: "pogo", rated: true, seat: 0, days: 3})`)
	if code != 201 {
		t.Fatalf("ann's seek: %d %s", code, body)
	}
	code, body = apiCall(t, bob, "POST", "/api/seeks/"+between(body, `"id":"`, `"`)+"/accept", "'{}'")
	if code != 201 {
		t.Fatalf("bob accepts: %d %s", code, body)
	}
	game := between(body, `"game":"`, `"`)
	for _, ctx := range []context.Context{ann, bob} {
		do(t, ctx, "opening the game", chromedp.Navigate(base+"/game/"+game), chromedp.WaitVisible(tid("board-box")))
		waitMyTurn(t, ctx)
		waitRatings(t, ctx)
		clickMove(t, ctx, "pogo", legal(t, ctx)[0])
	}
	waitPlies(t, ann, 2)
	botGame := botInBrowser(t, robo, ann, base)

	type page struct {
		who  string // "guest" or "ann"
		path string
		wait string // a JavaScript predicate: the page is drawn
	}
	h1 := `document.querySelector("main h1") !== null`
	pages := []page{
		{"guest", "/", `document.querySelector('[data-testid=game-pogo]') !== null`},
		{"guest", "/games", h1},
		{"guest", "/rules/pogo", `document.querySelector('[data-testid=rules-pogo]') !== null`},
		{"guest", "/rules/pisola", h1},
		{"guest", "/rules/diam", h1},
		{"guest", "/analysis", `document.querySelector('[data-testid=analysis-title]') !== null && document.querySelector('[data-testid=board]') !== null`},
		{"guest", "/leaderboard", h1},
		{"guest", "/signup", `document.querySelector('[data-testid=acct-name]') !== null`},
		{"guest", "/login", `document.querySelector('[data-testid=acct-name]') !== null`},
		{"guest", "/nowhere", h1},
		{"ann", "/", `document.querySelector('[data-testid=quick-3\\+2]') !== null`},
		{"ann", "/new", `document.querySelector('[data-testid=game-pogo]') !== null`},
		{"ann", "/@/ann", h1},
		{"ann", "/me/games", h1},
		{"ann", "/account", `document.querySelector('[data-testid=pref-rated-bots]') !== null && document.querySelector('[data-testid=tokens] li') !== null`},
		{"robo", "/account", `document.querySelector('main h1 [data-testid=bot-badge]') !== null && document.querySelector('[data-testid=tokens] [data-testid^=token-revoke-]') !== null`},
		{"ann", "/@/robo", `document.querySelector('[data-testid=profile-name] [data-testid=bot-badge]') !== null && document.querySelector('[data-testid=profile] .games') !== null`},
		{"ann", "/game/" + botGame, `document.querySelector('[data-testid=strip-name-1] [data-testid=bot-badge]') !== null && document.querySelector('[data-testid=seat-info-1] [data-testid=bot-badge]') !== null`},
		{"ann", "/game/" + game, `document.querySelector('[data-testid=clock-1] .time') !== null && document.querySelector('[data-testid=board-box].interactive') !== null`},
		{"bob", "/game/" + game, `document.querySelector('[data-testid=clock-1] .time') !== null && document.querySelector('[data-testid=moves] button.move') !== null`},
		{"guest", "/game/" + game, `document.querySelector('[data-testid=clock-1] .time') !== null`},
	}
	sizes := []struct {
		name          string
		width, height int64
	}{{"phone", 390, 844}, {"laptop", 1280, 800}}
	for _, theme := range []string{"light", "dark"} {
		for _, size := range sizes {
			for _, p := range pages {
				ctx := map[string]context.Context{"guest": guest, "ann": ann, "bob": bob, "robo": robo}[p.who]
				name := fmt.Sprintf("%s-%s-%s%s", theme, size.name, p.who, p.path)
				t.Run(name, func(t *testing.T) {
					do(t, ctx, "opening "+p.path,
						chromedp.EmulateViewport(size.width, size.height),
						chromedp.Navigate(base+"/rules"),
						chromedp.WaitVisible(chromedp.CSS("main h1")),
					)
					eval[chromedp.Void](t, ctx, fmt.Sprintf(`localStorage.setItem("stax.theme", %q)`, theme))
					do(t, ctx, "opening "+p.path, chromedp.Navigate(base+p.path))
					waitFor(t, ctx, p.path+" drawn", p.wait)
					if got := eval[string](t, ctx, `document.documentElement.dataset.theme`); got != theme {
						t.Fatalf("the page's theme is %q; want %q", got, theme)
					}
					if !eval[bool](t, ctx, `typeof axe !== "undefined"`) {
						eval[chromedp.Void](t, ctx, axe)
					}
					var found []struct {
						ID, Impact, Help string
						Nodes            []string
					}
					if err := json.Unmarshal([]byte(awaitEval[string](t, ctx, axeRun)), &found); err != nil {
						t.Fatal(err)
					}
					for _, v := range found {
						t.Errorf("%s (%s): %s: %s", v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "; "))
					}
				})
			}
		}
	}
}
