package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"stax/games"
	"stax/server"
	"stax/server/moderation"
	"stax/server/store"
	"stax/server/store/sqlite"
	"stax/web"
)

// TestBrowserResetLink: an operator makes a password reset link for ann;
// opened in French on a phone-sized screen, a weak password is refused in
// the catalogue's words, a good one is set and ann signs in with it, and
// the link opened again says it is used.
func TestBrowserResetLink(t *testing.T) {
	skipShort(t)
	needChromium(t)
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "stax.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{Store: st, Games: games.All(), Assets: web.FS(),
		PasswordParams: server.PasswordParams{Time: 1, Memory: 64, Threads: 1}})
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
	ctx := context.Background()
	if err := st.CreateUser(ctx, &store.User{ID: "id-ann", Name: "ann", PasswordHash: "forgotten", Created: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	link, err := moderation.Admin{Users: st, Store: st}.ResetLink(ctx, "ann", hs.URL, time.Hour)
	if err != nil {
		t.Fatal(err)
	}

	b := newBrowserAt(t, hs.URL)
	tab := b.person(t, 60*time.Second)
	do(t, tab, "a phone-sized screen in French", chromedp.EmulateViewport(390, 844),
		chromedp.Navigate(hs.URL+"/"), chromedp.Evaluate[chromedp.Void](`localStorage.setItem("stax.lang", "fr")`))
	do(t, tab, "open the link", chromedp.Navigate(link), chromedp.WaitVisible(tid("reset-password")))
	do(t, tab, "a weak password", chromedp.SendKeys(tid("reset-password"), "short"), chromedp.Click(tid("reset-submit")))
	// The browser's own check (required) passes; the server refuses it.
	waitFor(t, tab, "the refusal", `document.querySelector('[data-testid=reset-status]').textContent !== ""`)
	if got := eval[string](t, tab, `document.querySelector('[data-testid=reset-status]').textContent`); strings.Contains(got, "password:") {
		t.Errorf("the refusal shows the server's words %q; want the catalogue's", got)
	}
	do(t, tab, "a good password",
		chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid=reset-password]').value = ""`),
		chromedp.SendKeys(tid("reset-password"), "a brand new secret"),
		chromedp.Click(tid("reset-submit")),
		chromedp.WaitVisible(`[data-testid=reset-status] a[href="/login"]`))
	do(t, tab, "ann signs in with it",
		chromedp.Click(`[data-testid=reset-status] a[href="/login"]`),
		chromedp.SendKeys(tid("acct-name"), "ann", chromedp.NodeVisible),
		chromedp.SendKeys(tid("acct-password"), "a brand new secret"),
		chromedp.Click(tid("acct-submit")))
	waitFor(t, tab, "ann's name in the header", `document.querySelector('[data-testid=nav-me]') && document.querySelector('[data-testid=nav-me]').textContent === "ann"`)
	do(t, tab, "the link again", chromedp.Navigate(link), chromedp.WaitVisible(tid("reset-password")),
		chromedp.SendKeys(tid("reset-password"), "another new secret"), chromedp.Click(tid("reset-submit")))
	waitFor(t, tab, "the used link", `/utilisé/.test(document.querySelector('[data-testid=reset-status]').textContent)`)
	b.checkNoExceptions(t)
}

// TestBrowserBlockReport: ann, signed in, blocks bob from his profile,
// finds him blocked after a reload, reports him with a reason that
// reaches the operators, and unblocks him.
func TestBrowserBlockReport(t *testing.T) {
	skipShort(t)
	needChromium(t)
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "stax.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{Store: st, Games: games.All(), Assets: web.FS(),
		PasswordParams: server.PasswordParams{Time: 1, Memory: 64, Threads: 1}})
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
	ctx := context.Background()
	if err := st.CreateUser(ctx, &store.User{ID: "id-bob", Name: "bob", PasswordHash: "x", Created: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	b := newBrowserAt(t, hs.URL)
	ann := b.person(t, 60*time.Second)
	do(t, ann, "ann signs up",
		chromedp.Navigate(hs.URL+"/signup"),
		chromedp.SendKeys(tid("acct-name"), "ann", chromedp.NodeVisible),
		chromedp.SendKeys(tid("acct-password"), "correct horse ann"),
		chromedp.Click(tid("acct-submit")))
	waitFor(t, ann, "ann's name in the header", `document.querySelector('[data-testid=nav-me]') && document.querySelector('[data-testid=nav-me]').textContent === "ann"`)
	do(t, ann, "bob's profile", chromedp.Navigate(hs.URL+"/@/bob"), chromedp.WaitVisible(tid("block")))
	if got := eval[string](t, ann, `document.querySelector('[data-testid=block]').textContent`); got != "Block" {
		t.Fatalf("the block button says %q; want Block", got)
	}
	click(t, ann, "block")
	waitFor(t, ann, "bob blocked", `document.querySelector('[data-testid=block]').textContent === "Unblock"`)
	do(t, ann, "the profile again", chromedp.Reload(), chromedp.WaitVisible(tid("block")))
	waitFor(t, ann, "bob still blocked", `document.querySelector('[data-testid=block]').textContent === "Unblock"`)
	click(t, ann, "report")
	do(t, ann, "a report", chromedp.SendKeys(tid("report-reason"), "insults after every game", chromedp.NodeVisible), chromedp.Click(tid("report-send")))
	waitFor(t, ann, "the thanks", `/Thank you/.test(document.querySelector('[data-testid=moderation-status]').textContent)`)
	reports, err := moderation.Admin{Users: st, Store: st}.Reports(ctx, false, 10)
	if err != nil || len(reports) != 1 || reports[0].TargetName != "bob" || reports[0].ReporterName != "ann" || reports[0].Reason != "insults after every game" {
		t.Fatalf("reports: %+v, %v; want ann's report of bob", reports, err)
	}
	// Unblocking (a DELETE without a body) sticks too.
	click(t, ann, "block")
	waitFor(t, ann, "bob unblocked", `document.querySelector('[data-testid=block]').textContent === "Block"`)
	do(t, ann, "the profile once more", chromedp.Reload(), chromedp.WaitVisible(tid("block")))
	waitFor(t, ann, "bob still unblocked", `document.querySelector('[data-testid=block]').textContent === "Block"`)
	b.checkNoExceptions(t)
}

// TestBrowserReportChatLine: ann, signed in and watching a game, says
// something in the spectators' chat and reports the line with its flag;
// the report quotes the line as the server kept it.
func TestBrowserReportChatLine(t *testing.T) {
	skipShort(t)
	needChromium(t)
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "stax.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{Store: st, Games: games.All(), Assets: web.FS(),
		PasswordParams: server.PasswordParams{Time: 1, Memory: 64, Threads: 1}})
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
	res, err := http.Post(hs.URL+"/api/games", "application/json", strings.NewReader(`{"spec":"pogo","seats":[{"kind":"human"},{"kind":"human"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID string }
	json.NewDecoder(res.Body).Decode(&created)
	res.Body.Close()

	b := newBrowserAt(t, hs.URL)
	ann := b.person(t, 60*time.Second)
	do(t, ann, "ann signs up",
		chromedp.Navigate(hs.URL+"/signup"),
		chromedp.SendKeys(tid("acct-name"), "ann", chromedp.NodeVisible),
		chromedp.SendKeys(tid("acct-password"), "correct horse ann"),
		chromedp.Click(tid("acct-submit")))
	waitFor(t, ann, "ann's name in the header", `document.querySelector('[data-testid=nav-me]') && document.querySelector('[data-testid=nav-me]').textContent === "ann"`)
	do(t, ann, "ann watches and chats",
		chromedp.Navigate(hs.URL+"/game/"+created.ID),
		chromedp.SendKeys(tid("chat-input"), "a line to report", chromedp.NodeVisible),
		chromedp.Click(tid("chat-send")))
	waitFor(t, ann, "the line", `[...document.querySelectorAll('[data-testid=chat-line]')].some(l => l.textContent === "ann: a line to report")`)
	do(t, ann, "ann reports it",
		chromedp.Click(tid("chat-report"), chromedp.NodeVisible),
		chromedp.SendKeys(tid("chat-report-reason"), "spam", chromedp.NodeVisible),
		chromedp.Click(tid("chat-report-send")))
	waitFor(t, ann, "the thanks", `/Thank you/.test(document.querySelector('[data-testid=chat] [role=alert]').textContent)`)
	reports, err := moderation.Admin{Users: st, Store: st}.Reports(context.Background(), false, 10)
	if err != nil || len(reports) != 1 || reports[0].Chat != "ann: a line to report" || reports[0].Game != created.ID || reports[0].Reason != "spam" {
		t.Fatalf("reports: %+v, %v; want ann's report of her line", reports, err)
	}
	b.checkNoExceptions(t)
}
