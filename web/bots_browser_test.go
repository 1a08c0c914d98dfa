package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"stax/games"
	"stax/server"
	"stax/server/account"
	"stax/server/bots"
	"stax/server/lobby"
	"stax/server/store/sqlite"
	"stax/web"
)

// axeClean runs axe-core (its script given) on the tab's page and fails
// the test on any serious or critical violation.
func axeClean(t *testing.T, ctx context.Context, axe, page string) {
	t.Helper()
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
		t.Errorf("%s: %s (%s): %s: %s", page, v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "; "))
	}
}

// TestBrowserBots: with the bot account robot online (its event stream
// open), ann finds it from the header's link on the bots page, marked BOT
// and online, with a Challenge button that opens the lobby's form with its
// name; the lobby shows it among the bots online, whose Challenge fills
// the form in; the challenge sent shows BOT beside the bot's name in the
// lobby and reaches the bot's stream. Both pages pass axe-core, in both
// themes. The bot accepts and offers a draw, which ann accepts; the game
// over, ann is offered to challenge it again instead of a rematch it
// could not answer, and the recent games mark the bot.
func TestBrowserBots(t *testing.T) {
	skipShort(t)
	needChromium(t)
	axe := axeSource(t)
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "stax.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{Store: st, Games: games.All(), Assets: web.FS(),
		PasswordParams: server.PasswordParams{Time: 1, Memory: 64, Threads: 1}})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		srv.Close()
		hs.Close()
		st.Close()
	})

	// The bot: an account that its owner made a bot with a token of scope
	// bot, which opens its event stream.
	jar, _ := cookiejar.New(nil)
	owner := &http.Client{Jar: jar}
	send := func(c *http.Client, token, method, path, body string, want int) []byte {
		t.Helper()
		req, _ := http.NewRequest(method, hs.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out bytes.Buffer
		out.ReadFrom(res.Body)
		if res.StatusCode != want {
			t.Fatalf("%s %s: %d %s; want %d", method, path, res.StatusCode, out.Bytes(), want)
		}
		return out.Bytes()
	}
	send(owner, "", "POST", "/api/signup", `{"name": "robot", "password": "beep boop beep"}`, http.StatusCreated)
	var tok account.NewToken
	if err := json.Unmarshal(send(owner, "", "POST", "/api/tokens", `{"description": "the bot", "scopes": ["bot"]}`, http.StatusCreated), &tok); err != nil {
		t.Fatal(err)
	}
	send(http.DefaultClient, tok.Secret, "POST", "/api/bot/account/upgrade", "", http.StatusOK)
	req, _ := http.NewRequest("GET", hs.URL+"/api/stream/event", nil)
	req.Header.Set("Authorization", "Bearer "+tok.Secret)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the bot's event stream: %v %v", res, err)
	}
	defer res.Body.Close()
	events := make(chan bots.Event, 10)
	go func() {
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			var ev bots.Event
			if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 && json.Unmarshal(line, &ev) == nil {
				events <- ev
			}
		}
	}()

	b := newBrowserAt(t, hs.URL)
	defer b.checkNoExceptions(t)
	ann := b.person(t, 90*time.Second)
	signUpAPI(t, ann, hs.URL, "ann")
	do(t, ann, "the lobby", chromedp.Navigate(hs.URL+"/"), chromedp.WaitVisible(tid("bots-online")))
	click(t, ann, "nav-bots")
	waitFor(t, ann, "the bot online on the bots page",
		`document.querySelector('[data-testid=bot-robot] [data-testid=bot-badge]').textContent === "BOT" && document.querySelector('[data-testid=bot-status-robot]').textContent === "online"`)
	if got := eval[string](t, ann, `location.pathname`); got != "/bots" {
		t.Fatalf("the header's link led to %s; want /bots", got)
	}
	for _, theme := range []string{"light", "dark"} {
		eval[chromedp.Void](t, ann, `localStorage.setItem("stax.theme", "`+theme+`")`)
		do(t, ann, "the bots page", chromedp.Reload(), chromedp.WaitVisible(tid("challenge-robot")))
		axeClean(t, ann, axe, theme+" /bots")
	}

	click(t, ann, "challenge-robot")
	waitFor(t, ann, "the lobby's form with the bot's name", `location.pathname === "/" && document.querySelector('[data-testid=seek-to]').value === "robot"`)
	waitFor(t, ann, "the bot among the bots online", `document.querySelector('[data-testid=bot-online-robot] [data-testid=bot-badge]') !== null`)
	for _, theme := range []string{"light", "dark"} {
		eval[chromedp.Void](t, ann, `localStorage.setItem("stax.theme", "`+theme+`")`)
		do(t, ann, "the lobby", chromedp.Reload(), chromedp.WaitVisible(tid("challenge-bot-robot")))
		axeClean(t, ann, axe, theme+" /")
	}
	// The lobby's own Challenge fills the form in.
	eval[chromedp.Void](t, ann, `document.querySelector('[data-testid=seek-to]').value = ""`)
	click(t, ann, "challenge-bot-robot")
	waitFor(t, ann, "the form filled in", `document.querySelector('[data-testid=seek-to]').value === "robot" && document.activeElement === document.querySelector('[data-testid=seek-to]')`)
	click(t, ann, "seek-submit")
	waitFor(t, ann, "the challenge in the lobby, BOT beside the bot's name", `document.querySelector('[data-testid=seek-ann]') !== null && document.querySelector('[data-testid=seek-ann]').textContent.includes("robot") && document.querySelector('[data-testid=seek-ann] [data-testid=bot-badge]') !== null`)
	var challenge string
	select {
	case ev := <-events:
		if ev.Type != bots.EventChallenge || ev.Challenge == nil || ev.Challenge.Owner != "ann" || !ev.Challenge.ToBot {
			t.Fatalf("the bot's stream brought %+v; want ann's challenge", ev)
		}
		challenge = ev.Challenge.ID
	case <-time.After(10 * time.Second):
		t.Fatal("the bot's stream brought no challenge")
	}

	// The bot accepts and offers a draw at once, which ann accepts: the
	// game over, the banner says it is drawn (once), and ann is offered
	// to challenge the bot again (a bot answers no rematch offers),
	// which leads to the lobby's form with its name.
	var acc struct{ Game string }
	if err := json.Unmarshal(send(http.DefaultClient, tok.Secret, "POST", "/api/challenges/"+challenge+"/accept", "", http.StatusCreated), &acc); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ann, "ann at the game", `location.pathname === "/game/`+acc.Game+`"`)
	send(http.DefaultClient, tok.Secret, "POST", "/api/bot/game/"+acc.Game+"/draw/yes", "", http.StatusOK)
	waitFor(t, ann, "the bot's draw offer", `document.querySelector('[data-testid=offer-news-draw]') !== null`)
	click(t, ann, "offer-draw")
	waitFor(t, ann, "the offer to challenge the bot again", `document.querySelector('[data-testid=challenge-again]') !== null`)
	if got := eval[string](t, ann, `document.querySelector('[data-testid=result]').textContent`); got != "Draw (drawn by agreement)" {
		t.Fatalf("the banner of the drawn game reads %q; want %q", got, "Draw (drawn by agreement)")
	}
	if eval[bool](t, ann, `document.querySelector('[data-testid=offer-rematch]') !== null`) {
		t.Fatal("ann is offered a rematch with a bot, which cannot answer it")
	}
	click(t, ann, "challenge-again")
	waitFor(t, ann, "the lobby's form with the bot's name again", `location.pathname === "/" && document.querySelector('[data-testid=seek-to]').value === "robot"`)

	// The recent games mark the bot too.
	do(t, ann, "the recent games", chromedp.Navigate(hs.URL+"/games"))
	waitFor(t, ann, "the game among the recent ones, BOT beside the bot's name", `document.querySelector('[data-testid=recent-`+acc.Game+`] [data-testid=bot-badge]') !== null`)

	// A correspondence game with the bot that waits for ann's move: the
	// lobby lists it among her games to play, BOT beside the bot's name.
	var toAnn lobby.Seek
	if err := json.Unmarshal(send(http.DefaultClient, tok.Secret, "POST", "/api/challenges", `{"spec": "pogo", "to": "ann", "days": 3, "seat": 1}`, http.StatusCreated), &toAnn); err != nil {
		t.Fatal(err)
	}
	eval[chromedp.Void](t, ann, `fetch("/api/challenges/`+toAnn.ID+`/accept", {method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"}).then((r) => { window.accepted = r.status; })`)
	waitFor(t, ann, "ann's acceptance", `window.accepted === 201`)
	do(t, ann, "the lobby", chromedp.Navigate(hs.URL+"/"))
	waitFor(t, ann, "the game waiting for her move, BOT beside the bot's name", `document.querySelector('[data-testid=my-turn] [data-testid=bot-badge]') !== null`)
}
