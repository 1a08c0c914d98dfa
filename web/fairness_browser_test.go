package web_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserAbortedRatedGame: a rated 1+0 game whose acceptor, first to
// move, never moves is aborted when the first-move window ends: both
// players see why, and the game did not count (no rating, "aborted", not
// "rated", in their lists). Before the end, the acceptor's page counts the
// window down.
func TestBrowserAbortedRatedGame(t *testing.T) {
	skipShort(t)
	needChromium(t)
	srv, clock, hs := startAccountSite(t)
	b := newBrowserAt(t, hs.URL)
	ann := b.person(t, 60*time.Second)
	bob := b.person(t, 60*time.Second)
	do(t, bob, "a phone-sized screen", chromedp.EmulateViewport(390, 844))
	signUp(t, b, ann, "ann")
	signUp(t, b, bob, "bob")

	// Ann seeks a rated 1+0 game in the second seat: bob, accepting,
	// moves first.
	waitFor(t, ann, "the rated variants", `document.querySelector('[data-testid=seek-spec] option[value=pogo]') !== null`)
	do(t, ann, "ann seeks a game",
		chromedp.SetValue(tid("seek-spec"), "pogo"),
		chromedp.SetValue(tid("seek-kind"), "clock"),
		chromedp.SetValue(tid("seek-minutes"), "1"),
		chromedp.SetValue(tid("seek-increment"), "0"),
		chromedp.SetValue(tid("seek-seat"), "1"),
		chromedp.Click(tid("seek-submit")),
		chromedp.WaitVisible(tid("seek-ann")),
	)
	do(t, bob, "bob accepts", chromedp.Click(tid("accept-ann"), chromedp.NodeVisible), chromedp.WaitVisible(tid("board-box")))
	do(t, ann, "ann is taken to the game", chromedp.WaitVisible(tid("board-box")))
	waitFor(t, bob, "bob's first-move window", `/first move within [0-9]+ s/.test(document.querySelector('[data-testid=clock-0] .first').textContent)`)

	// Bob never moves: 30 s later the game is aborted.
	clock.Advance(31 * time.Second)
	srv.CheckClocks()
	waitFor(t, ann, "the abort at ann's", `!document.querySelector('[data-testid=result]').hidden && document.querySelector('[data-testid=result]').textContent.includes("bob made no first move")`)
	waitFor(t, bob, "the abort at bob's", `!document.querySelector('[data-testid=result]').hidden && /^Aborted/.test(document.querySelector('[data-testid=result]').textContent)`)

	// It did not count: no rating, shown aborted and not rated.
	do(t, ann, "ann opens her games", chromedp.Navigate(b.base+"/@/ann"), chromedp.WaitVisible(chromedp.CSS("main h1")))
	waitFor(t, ann, "the game, aborted", `/Aborted \(bob made no first move/.test(document.querySelector('main').textContent)`)
	if eval[bool](t, ann, `document.querySelector('[data-testid=rating-value-pogo]') !== null`) {
		t.Fatal("ann has a Pogo rating after an aborted game")
	}
	b.checkNoExceptions(t)
}

// signUp signs who up in the browser ctx, and waits for the lobby.
func signUp(t *testing.T, b *browser, ctx context.Context, who string) {
	t.Helper()
	do(t, ctx, who+" signs up",
		chromedp.Navigate(b.base+"/"),
		chromedp.Click(tid("nav-signup"), chromedp.NodeVisible),
		chromedp.SendKeys(tid("acct-name"), who, chromedp.NodeVisible),
		chromedp.SendKeys(tid("acct-password"), "correct horse "+who),
		chromedp.Click(tid("acct-submit")),
		chromedp.WaitVisible(tid("seek-form")),
	)
	waitFor(t, ctx, who+"'s name in the header", `document.querySelector('[data-testid=nav-me]') && document.querySelector('[data-testid=nav-me]').textContent === "`+who+`"`)
}
