package web_test

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// wordRE matches a word of three letters or more.
var wordRE = regexp.MustCompile(`\p{L}{3,}`)

// walkAllowed are words a French or Spanish page may show that the English
// catalogue also holds: names of the site, its games and its players.
var walkAllowed = map[string]bool{"stax": true, "pogo": true, "pisola": true, "diam": true, "ann": true, "bob": true,
	// A move of the notation, and values of options that the options'
	// descriptions quote as a spec writes them, the same in every
	// language.
	"pass": true, "any": true, "tomove": true,
	// Spanish words that English has too.
	"legal": true}

// specOption matches an option written as in a spec (first=black), which is
// notation, not words.
var specOption = regexp.MustCompile(`\w+=\w+`)

// englishOnly returns the words of the English catalogue that the
// catalogue of lang never uses, lower-cased: a page in lang that shows one
// shows English.
func englishOnly(t *testing.T, lang string) map[string]bool {
	t.Helper()
	words := func(cat map[string]string) map[string]bool {
		out := map[string]bool{}
		for _, v := range cat {
			for _, w := range wordRE.FindAllString(placeholderRE.ReplaceAllString(v, " "), -1) {
				out[strings.ToLower(w)] = true
			}
		}
		return out
	}
	theirs := words(catalog(t, lang))
	out := map[string]bool{}
	for w := range words(catalog(t, "en")) {
		if !theirs[w] && !walkAllowed[w] {
			out[w] = true
		}
	}
	return out
}

// walkText is what a page shows: its visible text, but for code (an
// option's key, a position: notation), the options of its visible
// selects, and what it says to a screen reader (labels, titles,
// placeholders).
const walkText = `(() => {
  const out = [];
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = w.nextNode(); n; n = w.nextNode()) {
    const e = n.parentElement;
    if (!e || e.closest("code, script, style, select") || !e.checkVisibility()) continue;
    out.push(n.textContent);
  }
  for (const s of document.querySelectorAll("select")) if (s.checkVisibility()) out.push(...[...s.options].map((o) => o.text));
  for (const e of document.querySelectorAll("[placeholder], [aria-label], [title]")) out.push(e.getAttribute("placeholder") || "", e.getAttribute("aria-label") || "", e.getAttribute("title") || "");
  return out.join("\n");
})()`

// TestBrowserLanguageWalk walks every page in French and in Spanish, signed
// in and out, with a game in progress and one finished, and fails on any
// English word of the catalogue that a page shows.
func TestBrowserLanguageWalk(t *testing.T) {
	skipShort(t)
	needChromium(t)
	base := startAccountServer(t, "")
	b := newBrowserAt(t, base)
	defer b.checkNoExceptions(t)
	guest := b.person(t, 5*time.Minute)
	ann := b.person(t, 5*time.Minute)
	bob := b.person(t, 5*time.Minute)
	signUpAPI(t, ann, base, "ann")
	signUpAPI(t, bob, base, "bob")
	// A rated correspondence game in progress, and a game against the
	// computer that is over.
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
	over := startGame(t, guest, base, "diam", "you", "ai:random")
	waitMyTurn(t, guest)
	click(t, guest, "resign")
	click(t, guest, "resign-confirm")
	waitFor(t, guest, "the result", `document.querySelector('[data-testid=result]:not([hidden])') !== null`)

	h1 := `document.querySelector("main h1") !== null`
	lessonPlay := `document.querySelector('[data-testid=lesson][data-state=play]') !== null`
	pages := []struct{ who, path, wait string }{
		{"guest", "/", `document.querySelector('[data-testid=game-pogo]') !== null`},
		{"guest", "/games", `document.querySelector('main h1') !== null && document.querySelector('[data-testid^=recent-]') !== null`},
		{"guest", "/rules/pogo", h1},
		{"guest", "/rules/pisola", h1},
		{"guest", "/rules/diam", h1},
		{"guest", "/analysis", `document.querySelector('[data-testid=board]') !== null`},
		{"guest", "/leaderboard", h1},
		{"guest", "/signup", h1},
		{"guest", "/login", h1},
		{"guest", "/nowhere", h1},
		{"guest", "/learn", `document.querySelector('[data-testid=lesson-diam-teams]') !== null`},
		{"guest", "/learn/pogo", lessonPlay},
		{"guest", "/learn/pisola-roofs", lessonPlay},
		{"guest", "/learn/diam-teams", lessonPlay},
		{"guest", "/game/" + over, `document.querySelector('[data-testid=result]:not([hidden])') !== null`},
		{"ann", "/", `document.querySelector('[data-testid=quick-3\\+2]') !== null`},
		{"ann", "/new", `document.querySelector('[data-testid=game-pogo]') !== null`},
		{"ann", "/@/ann", h1},
		{"ann", "/me/games", h1},
		{"ann", "/account", h1},
		{"ann", "/game/" + game, `document.querySelector('[data-testid=clock-1] .time') !== null && document.querySelector('[data-testid=board-box].interactive') !== null`},
		{"bob", "/game/" + game, `document.querySelector('[data-testid=clock-1] .time') !== null`},
	}
	for _, lang := range []string{"fr", "es"} {
		english := englishOnly(t, lang)
		for _, p := range pages {
			ctx := map[string]context.Context{"guest": guest, "ann": ann, "bob": bob}[p.who]
			t.Run(fmt.Sprintf("%s-%s%s", lang, p.who, p.path), func(t *testing.T) {
				do(t, ctx, "opening the site", chromedp.Navigate(base+"/rules"), chromedp.WaitVisible(chromedp.CSS("main h1")))
				eval[chromedp.Void](t, ctx, fmt.Sprintf(`localStorage.setItem("stax.lang", %q)`, lang))
				do(t, ctx, "opening "+p.path, chromedp.Navigate(base+p.path))
				waitFor(t, ctx, p.path+" drawn", p.wait)
				// What the page shows, and what it says to a screen reader;
				// code (an option's key, a position) is notation, not words.
				text := eval[string](t, ctx, walkText)
				found := map[string]string{}
				for _, line := range strings.Split(text, "\n") {
					for _, w := range wordRE.FindAllString(specOption.ReplaceAllString(line, " "), -1) {
						if english[strings.ToLower(w)] {
							if _, ok := found[w]; !ok {
								found[w] = strings.TrimSpace(line)
							}
						}
					}
				}
				var words []string
				for w := range found {
					words = append(words, w)
				}
				sort.Strings(words)
				for _, w := range words {
					t.Errorf("English %q in %q", w, found[w])
				}
			})
		}
	}
}
