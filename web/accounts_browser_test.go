package web_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"stax/games"
	"stax/server"
	"stax/server/store/sqlite"
	"stax/web"
)

// fakeClock is the server's clock in the accounts test: it starts at the
// real time and moves only when told.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// TestBrowserAccounts: two people sign up in two browsers, one seeks a
// rated Pogo game with a 1+1 clock, the other accepts it from the lobby
// (on a phone-sized screen), they play by clicking and chat, one's clock
// turns red under 10 s and then runs out, a rematch offer reaches the
// other, and both profiles show the new ratings.
func TestBrowserAccounts(t *testing.T) {
	skipShort(t)
	needChromium(t)
	srv, clock, hs := startAccountSite(t)
	b := newBrowserAt(t, hs.URL)
	ann := b.person(t, 90*time.Second)
	bob := b.person(t, 90*time.Second)
	do(t, bob, "a phone-sized screen", chromedp.EmulateViewport(390, 844))

	signUp(t, b, ann, "ann")
	signUp(t, b, bob, "bob")

	// Ann seeks a rated Pogo game, 1+1, playing first.
	waitFor(t, ann, "the rated variants", `document.querySelector('[data-testid=seek-spec] option[value=pogo]') !== null`)
	do(t, ann, "ann seeks a game",
		chromedp.SetValue(tid("seek-spec"), "pogo"),
		chromedp.SetValue(tid("seek-kind"), "clock"),
		chromedp.SetValue(tid("seek-minutes"), "1"),
		chromedp.SetValue(tid("seek-increment"), "1"),
		chromedp.SetValue(tid("seek-seat"), "0"),
		chromedp.Click(tid("seek-submit")),
		chromedp.WaitVisible(tid("seek-ann")),
	)
	// Bob sees it in the lobby, live, and accepts; both go to the game.
	do(t, bob, "bob accepts", chromedp.Click(tid("accept-ann"), chromedp.NodeVisible), chromedp.WaitVisible(tid("board-box")))
	do(t, ann, "ann is taken to the game", chromedp.WaitVisible(tid("board-box")))
	gamePath := eval[string](t, ann, `location.pathname`)
	waitFor(t, ann, "the clocks", `document.querySelector('[data-testid=clock-0]') !== null && /^[01]:[0-5][0-9]$/.test(document.querySelector('[data-testid=clock-0] .time').textContent) && document.querySelector('[data-testid=clock-0]').classList.contains("running")`)

	// They play by clicking.
	waitMyTurn(t, ann)
	clickMove(t, ann, "pogo", legal(t, ann)[0])
	waitPlies(t, bob, 1)
	waitMyTurn(t, bob)
	clickMove(t, bob, "pogo", legal(t, bob)[0])
	waitPlies(t, ann, 2)

	// They chat; the text is shown as text.
	do(t, ann, "ann chats", chromedp.SendKeys(tid("chat-input"), "good luck <b>bob</b>"), chromedp.Click(tid("chat-send")))
	waitFor(t, bob, "ann's message at bob's", `[...document.querySelectorAll('[data-testid=chat-line]')].some(l => l.textContent === "ann: good luck <b>bob</b>")`)
	waitFor(t, ann, "ann's message at ann's", `[...document.querySelectorAll('[data-testid=chat-line]')].some(l => l.textContent === "ann: good luck <b>bob</b>")`)
	if eval[int](t, bob, `document.querySelectorAll('[data-testid=chat-lines] b b').length`) != 0 {
		t.Fatal("the chat message was rendered as HTML")
	}

	// Under 10 s the running clock turns red. Ann's clock runs (61 s after
	// her increment) and is not low yet; 52 s later by the server's clock,
	// her page (reloaded: it reads the server's time on connecting) shows
	// under 10 s left, in tenths, in red, and Bob's clock, stopped, stays
	// as it was.
	lowClock := `document.querySelector('[data-testid=clock-0]').classList.contains("low")`
	if eval[bool](t, ann, lowClock) {
		t.Fatal("ann's clock shows the low-time warning with a minute left")
	}
	clock.Advance(52 * time.Second)
	do(t, ann, "ann's page reloaded", chromedp.Reload(), chromedp.WaitVisible(tid("board-box")))
	waitFor(t, ann, "the low-time warning", lowClock+` && /^[0-9]\.[0-9]$/.test(document.querySelector('[data-testid=clock-0] .time').textContent)`)
	if c := eval[string](t, ann, `getComputedStyle(document.querySelector('[data-testid=clock-0]')).color`); c != "rgb(160, 35, 20)" {
		t.Fatalf("the low clock's colour is %s; want the warning's red", c)
	}
	if eval[bool](t, ann, `document.querySelector('[data-testid=clock-1]').classList.contains("low")`) {
		t.Fatal("bob's stopped clock shows the low-time warning")
	}

	// Ann lets her clock run out.
	clock.Advance(10 * time.Second)
	srv.CheckClocks()
	waitFor(t, ann, "the flag at ann's", `document.querySelector('[data-testid=result]:not([hidden])') !== null && document.querySelector('[data-testid=result]').textContent.includes("ran out of time")`)
	waitFor(t, bob, "the flag at bob's", `document.querySelector('[data-testid=result]:not([hidden])') !== null && document.querySelector('[data-testid=result]').textContent.includes("ran out of time")`)

	// A rematch offer reaches the other player.
	do(t, bob, "bob offers a rematch", chromedp.Click(tid("offer-rematch"), chromedp.NodeVisible))
	do(t, ann, "ann sees the offer", chromedp.WaitVisible(tid("offer-news-rematch")))

	// Both profiles show the new ratings.
	for _, p := range []struct {
		who  string
		wins bool
	}{{"ann", false}, {"bob", true}} {
		ctx := ann
		if p.who == "bob" {
			ctx = bob
		}
		// On a phone, the header's links are behind the menu during a game.
		if eval[bool](t, ctx, `getComputedStyle(document.querySelector('[data-testid=menu-toggle]')).display !== 'none'`) {
			click(t, ctx, "menu-toggle")
		}
		do(t, ctx, p.who+" opens the profile", chromedp.Click(tid("nav-me"), chromedp.NodeVisible), chromedp.WaitVisible(tid("rating-value-pogo")), chromedp.WaitVisible(tid("rating-plot")))
		v, err := strconv.ParseFloat(eval[string](t, ctx, `document.querySelector('[data-testid=rating-value-pogo]').dataset.rating`), 64)
		if err != nil || (p.wins != (v > 1500)) || v == 1500 {
			t.Fatalf("%s's pogo rating %v (%v); want it %s 1500", p.who, v, err, map[bool]string{true: "above", false: "below"}[p.wins])
		}
		want := map[bool]string{true: "1 won · 0 lost · 0 drawn", false: "0 won · 1 lost · 0 drawn"}[p.wins]
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=results-pogo]').textContent`); got != want {
			t.Fatalf("%s's pogo results read %q; want %q", p.who, got, want)
		}
		shot(t, ctx, fmt.Sprintf("profile-%s", p.who))
	}
	// Bob's pages fit a phone's screen.
	for _, page := range []string{"/", "/@/bob", "/leaderboard", "/me/games", "/account"} {
		do(t, bob, "opening "+page, chromedp.Navigate(b.base+page), chromedp.WaitVisible(chromedp.CSS("main h1")))
		if overflow := eval[int](t, bob, `document.documentElement.scrollWidth - window.innerWidth`); overflow > 0 {
			t.Errorf("%s is %d px wider than a phone's screen", page, overflow)
		}
		shot(t, bob, "phone-account"+strings.ReplaceAll(page, "/", "-"))
	}
	translatedAccounts(t, b, ann, gamePath)
	b.checkNoExceptions(t)
}

// translatedAccounts checks the pages of players in French (chosen on the
// device) and Spanish (asked for by the browser): the sign-in page and its
// server error, the lobby, a profile, the leaderboard, and a game's chat and
// offers. Ann has a rematch offer from Bob pending in the game at gamePath.
func translatedAccounts(t *testing.T, b *browser, ann context.Context, gamePath string) {
	text := func(ctx context.Context, sel string) string {
		return eval[string](t, ctx, `(document.querySelector('`+sel+`') || {}).textContent || ""`)
	}
	want := func(ctx context.Context, what, sel, words string) {
		t.Helper()
		waitFor(t, ctx, what+" reading "+words, `((document.querySelector('`+sel+`') || {}).textContent || "").includes("`+words+`")`)
	}

	// Ann switches to French: the offer and the chat of her game.
	eval[chromedp.Void](t, ann, `localStorage.setItem("stax.lang", "fr")`)
	do(t, ann, "ann opens her game in French", chromedp.Navigate(b.base+gamePath), chromedp.WaitVisible(tid("offer-news-rematch")))
	want(ann, "the offer", "[data-testid=offer-news-rematch]", "Votre adversaire propose une revanche.")
	want(ann, "the rematch button", "[data-testid=offer-rematch]", "Accepter la revanche")
	want(ann, "the chat's heading", "[data-testid=chat] h2", "Discussion avec les joueurs")
	want(ann, "the chat's button", "[data-testid=chat-send]", "Envoyer")
	do(t, ann, "ann opens the lobby", chromedp.Navigate(b.base+"/"), chromedp.WaitVisible(tid("seek-form")))
	want(ann, "the lobby's heading", "main h1", "Salon")
	want(ann, "the seek button", "[data-testid=seek-submit]", "Chercher")
	want(ann, "the time controls", "[data-testid=seek-kind]", "Pendule")
	want(ann, "the waiting games", "[data-testid=my-turn]", "Aucune partie n’attend votre coup.")
	do(t, ann, "ann opens bob's profile", chromedp.Navigate(b.base+"/@/bob"), chromedp.WaitVisible(tid("rating-plot")))
	want(ann, "the profile", "[data-testid=profile]", "Parties récentes")
	want(ann, "the profile", "[data-testid=profile]", "Joue depuis le")
	want(ann, "the rating's details", "[data-testid=rating-pogo]", "écart")
	do(t, ann, "ann opens the leaderboard", chromedp.Navigate(b.base+"/leaderboard"), chromedp.WaitVisible(chromedp.CSS("main h1")))
	want(ann, "the leaderboard's heading", "main h1", "Classement")
	if s := text(ann, "main"); strings.Contains(s, "Leaderboard") || strings.Contains(s, "Glicko-2 ratings") {
		t.Errorf("the French leaderboard still speaks English: %.300q", s)
	}

	// Dan's browser asks for Spanish; he fails to sign in, then watches.
	dan := b.person(t, 60*time.Second)
	do(t, dan, "dan's browser asks for Spanish",
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
				return err
			}
			_, err := cdp.Call(ctx, tg, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": "es-ES,es;q=0.9"}})
			return err
		}),
		chromedp.Navigate(b.base+"/login"),
		chromedp.WaitVisible(tid("acct-submit")),
	)
	want(dan, "the sign-in button", "[data-testid=acct-submit]", "Iniciar sesión")
	do(t, dan, "dan signs in with a wrong password",
		chromedp.SendKeys(tid("acct-name"), "ann"),
		chromedp.SendKeys(tid("acct-password"), "not her password"),
		chromedp.Click(tid("acct-submit")),
	)
	want(dan, "the server's error", "[data-testid=acct-error]", "Nombre o contraseña incorrectos.")
	do(t, dan, "dan watches the game", chromedp.Navigate(b.base+gamePath), chromedp.WaitVisible(tid("chat")))
	want(dan, "the spectators' chat", "[data-testid=chat] h2", "Chat de los espectadores")
	want(dan, "the chat's button", "[data-testid=chat-send]", "Enviar")
	if p := eval[string](t, dan, `document.querySelector('[data-testid=chat-input]').placeholder`); p != "Di algo" {
		t.Errorf("the chat's placeholder reads %q", p)
	}
	do(t, dan, "dan opens ann's profile", chromedp.Navigate(b.base+"/@/ann"), chromedp.WaitVisible(tid("rating-plot")))
	want(dan, "the profile", "[data-testid=profile]", "Partidas recientes")
	do(t, dan, "dan opens the leaderboard", chromedp.Navigate(b.base+"/leaderboard"), chromedp.WaitVisible(chromedp.CSS("main h1")))
	want(dan, "the leaderboard's heading", "main h1", "Clasificación")
}

// startAccountSite serves the site with accounts on a new SQLite database
// and a fake clock, for the browser tests of signed-in players.
func startAccountSite(t *testing.T) (*server.Server, *fakeClock, *httptest.Server) {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "stax.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	clock := &fakeClock{t: time.Now().UTC()}
	srv, err := server.New(server.Config{
		Store: st, Games: games.All(), Assets: web.FS(), Now: clock.Now,
		PasswordParams: server.PasswordParams{Time: 1, Memory: 64, Threads: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		srv.Close()
		hs.Close()
		st.Close()
	})
	return srv, clock, hs
}
