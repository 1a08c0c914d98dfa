package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// tokenRow finds the item of the account page's token list whose text
// holds words.
func tokenRow(words string) string {
	return fmt.Sprintf(`[...document.querySelectorAll('[data-testid=tokens] li')].find(l => l.textContent.includes(%q))`, words)
}

// botInBrowser follows a bot account's making in the browser: robo signs
// up and, on the account page, makes a read token (its secret shown once,
// with a copy button) and a bot token, revokes the first after confirming,
// makes the account a bot with the second and seeks a game with it, which
// its browser's lobby lists without a form to play with (nor a Challenge
// on ann's profile), and ann accepts; ann refuses, then accepts again,
// rated games against bots. It returns the game's id.
func botInBrowser(t *testing.T, robo, ann context.Context, base string) string {
	t.Helper()
	signUpAPI(t, robo, base, "robo")
	do(t, robo, "robo opens the account page", chromedp.Navigate(base+"/account"), chromedp.WaitVisible(tid("token-form")))
	waitFor(t, robo, "the empty list of tokens", `document.querySelector('[data-testid=tokens] li.muted') !== null`)
	secretIs := `/^stax_[a-z2-7]{32}$/.test((document.querySelector('[data-testid=token-secret]') || {}).value || "")`

	do(t, robo, "robo makes a read token",
		chromedp.SendKeys(tid("token-description"), "spare"),
		chromedp.Click(tid("token-scope-play")),
		chromedp.Click(tid("token-create")),
	)
	waitFor(t, robo, "the first secret", secretIs)
	waitFor(t, robo, "the read token listed", tokenRow("spare")+` !== undefined && !`+tokenRow("spare")+`.textContent.includes("Play")`)
	first := eval[string](t, robo, `document.querySelector('[data-testid=token-secret]').value`)
	click(t, robo, "token-copy")
	waitFor(t, robo, "the copy's answer", `document.querySelector('[data-testid=token-secret-box] [role=status]').textContent !== ""`)

	do(t, robo, "robo makes a bot token",
		chromedp.SendKeys(tid("token-description"), "engine"),
		chromedp.Click(tid("token-scope-bot")),
		chromedp.Click(tid("token-create")),
	)
	waitFor(t, robo, "the second secret", secretIs+fmt.Sprintf(` && document.querySelector('[data-testid=token-secret]').value !== %q`, first))
	secret := eval[string](t, robo, `document.querySelector('[data-testid=token-secret]').value`)
	waitFor(t, robo, "both tokens listed", tokenRow("engine")+` !== undefined && `+tokenRow("spare")+` !== undefined`)
	shot(t, robo, "account-token-secret")

	// The read token is revoked, once confirmed.
	spare := eval[string](t, robo, tokenRow("spare")+`.dataset.testid.slice("token-".length)`)
	click(t, robo, "token-revoke-"+spare)
	if eval[bool](t, robo, tokenRow("spare")+` === undefined`) {
		t.Fatal("a token was revoked before its revocation was confirmed")
	}
	click(t, robo, "token-revoke-yes-"+spare)
	waitFor(t, robo, "the read token gone", tokenRow("spare")+` === undefined && `+tokenRow("engine")+` !== undefined`)
	if code := awaitEval[int](t, robo, fmt.Sprintf(`fetch("/api/me", {headers: {Authorization: "Bearer " + %q}}).then(r => r.status)`, first)); code != 401 {
		t.Fatalf("the revoked token reads the account: %d; want 401", code)
	}

	// With the bot token, the account becomes a bot and seeks a game.
	if code := awaitEval[int](t, robo, fmt.Sprintf(`fetch("/api/bot/account/upgrade", {method: "POST", headers: {Authorization: "Bearer " + %q}}).then(r => r.status)`, secret)); code != 200 {
		t.Fatalf("the upgrade to a bot: %d", code)
	}
	seek := awaitEval[[]any](t, robo, fmt.Sprintf(`fetch("/api/seeks", {method: "POST", headers: {Authorization: "Bearer " + %q, "Content-Type": "application/json"},
		body: JSON.stringify({spec: "pogo", seat: 1, days: 3})}).then(async r => [r.status, await r.text()])`, secret))
	if seek[0].(float64) != 201 {
		t.Fatalf("the bot's seek: %v", seek)
	}
	// The bot's browser watches the lobby: its seek is listed, but it has
	// no form or button to play with, which the server would refuse.
	do(t, robo, "robo's lobby", chromedp.Navigate(base+"/"))
	waitFor(t, robo, "the bot's note and its seek", `document.querySelector('[data-testid=lobby-bot-note]') !== null && document.querySelector('[data-testid=seek-robo]') !== null`)
	if eval[bool](t, robo, `document.querySelector('[data-testid=seek-form], [data-testid=quick], [data-testid=seek-robo] button') !== null`) {
		t.Fatal("the bot's browser is offered to seek, pair or cancel in the lobby")
	}
	do(t, robo, "ann's profile in robo's browser", chromedp.Navigate(base+"/@/ann"))
	waitFor(t, robo, "ann's profile, its buttons drawn", `document.querySelector('[data-testid=block]') !== null`)
	if eval[bool](t, robo, `document.querySelector('[data-testid=challenge]') !== null`) {
		t.Fatal("the bot's browser is offered to challenge ann from her profile")
	}
	code, body := apiCall(t, ann, "POST", "/api/seeks/"+between(seek[1].(string), `"id":"`, `"`)+"/accept", "'{}'")
	if code != 201 {
		t.Fatalf("ann accepts the bot's seek: %d %s", code, body)
	}
	do(t, robo, "robo's account page again", chromedp.Navigate(base+"/account"), chromedp.WaitVisible(tid("bot-note")))
	waitFor(t, robo, "the bot's badge and its token, used", `document.querySelector('main h1 [data-testid=bot-badge]') !== null && `+tokenRow("engine")+` !== undefined && `+tokenRow("engine")+`.textContent.includes("last used")`)
	shot(t, robo, "account-bot")

	// Ann refuses rated games against bots, then accepts them again.
	do(t, ann, "ann opens her account page", chromedp.Navigate(base+"/account"), chromedp.WaitVisible(tid("pref-rated-bots")))
	for _, accept := range []bool{false, true} {
		click(t, ann, "pref-rated-bots")
		waitFor(t, ann, "the choice saved", `document.querySelector('[data-testid=pref-rated-bots]').closest('section').querySelector('[role=status]').textContent === "Saved."`)
		got := awaitEval[bool](t, ann, `fetch("/api/me").then(r => r.json()).then(m => m.ratedBots)`)
		if got != accept {
			t.Fatalf("ann's choice as the server keeps it: ratedBots %v; want %v", got, accept)
		}
		eval[chromedp.Void](t, ann, `document.querySelector('[data-testid=pref-rated-bots]').closest('section').querySelector('[role=status]').textContent = ""`)
	}
	return between(body, `"game":"`, `"`)
}

// TestBrowserTokensPhone: on a phone, the account page's list of tokens
// wraps a long description without a space (a link, say) rather than
// widening the page.
func TestBrowserTokensPhone(t *testing.T) {
	skipShort(t)
	b := newBrowser(t)
	defer b.checkNoExceptions(t)
	ctx := b.person(t, 60*time.Second)
	signUpAPI(t, ctx, b.base, "ann")
	long := "https://example.org/" + strings.Repeat("x", 80)
	if code, body := apiCall(t, ctx, "POST", "/api/tokens", fmt.Sprintf(`JSON.stringify({description: %q, scopes: ["read"]})`, long)); code != 201 {
		t.Fatalf("the token: %d %s", code, body)
	}
	do(t, ctx, "the account page on a phone", chromedp.EmulateViewport(390, 844), chromedp.Navigate(b.base+"/account"), chromedp.WaitVisible(tid("token-form")))
	waitFor(t, ctx, "the token listed", tokenRow("https://example.org/")+` !== undefined`)
	shot(t, ctx, "account-tokens-phone")
	if overflow := eval[int](t, ctx, `document.documentElement.scrollWidth - window.innerWidth`); overflow > 0 {
		t.Fatalf("the account page is %d px wider than the phone's screen", overflow)
	}
}
