package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"stax/server/account"
	"stax/server/moderation"
	"stax/server/store"
)

// TestModeration plays the moderation through the composed site: a block
// keeps a player's chat from reaching the one who blocks, a report quotes
// the line as the server kept it, a muted account cannot chat, a disabled
// one cannot sign in and its sessions end, and a reset link sets a new
// password once.
func TestModeration(t *testing.T) {
	clock := newFakeClock()
	ts := startAccounts(t, newDB(t), clock)
	ann, bob, id, wa, wb := twoAccounts(t, ts, map[string]any{"spec": "pogo"})
	cat := ts.player("cat")
	cat.signup("correct horse")
	wc := cat.game(id)
	wc.hello()
	admin := moderation.Admin{Users: ts.store.(store.Users), Store: ts.store.(store.Moderation), Now: clock.Now}
	ctx := context.Background()

	// Ann blocks bob: his line reaches him, not her.
	var blocks moderation.Blocks
	ann.call("POST", "/api/blocks", moderation.BlockRequest{Name: "bob"}, http.StatusOK, &blocks)
	if strings.Join(blocks.Blocks, ",") != "bob" {
		t.Fatalf("ann's blocks: %v", blocks.Blocks)
	}
	wb.send(map[string]any{"type": "chat", "text": "you play badly"})
	wb.next("chat")
	wa.send(map[string]any{"type": "chat", "text": "after"})
	if m := wa.next("chat"); m.From != "ann" || m.Text != "after" {
		t.Fatalf("ann, who blocks bob, got %+v; want her own line first", m)
	}
	if m := wb.next("chat"); m.From != "ann" {
		t.Fatalf("bob got %+v; want ann's line", m)
	}
	// A newcomer of ann's sees the chat so far without bob's line.
	if m := ann.game(id).next("chatlog"); len(m.Lines) != 1 || m.Lines[0].From != "ann" {
		t.Errorf("ann's chat log on a second connection: %+v; want her line alone", m.Lines)
	}

	// Ann reports bob's line, named by its sender and time as a chat log
	// tells them: the report quotes what the server kept.
	logLines := bob.game(id).next("chatlog").Lines
	if len(logLines) != 2 {
		t.Fatalf("bob's chat log: %+v; want his line and ann's", logLines)
	}
	line := logLines[0]
	ann.call("POST", "/api/reports", moderation.ReportRequest{Game: id, Chat: &moderation.ChatQuote{From: "bob", At: line.At}, Reason: "insult"},
		http.StatusCreated, nil)
	reports, err := admin.Reports(ctx, false, 10)
	if err != nil || len(reports) != 1 || reports[0].Chat != "bob: you play badly" || reports[0].TargetName != "bob" || reports[0].ReporterName != "ann" {
		t.Fatalf("reports: %+v, %v; want ann's report of bob's line", reports, err)
	}

	// The operators remove the line: within a refresh, the room's
	// connections get the chat without it.
	if quoted, err := admin.RemoveChat(ctx, reports[0].ID); err != nil || quoted != "bob: you play badly" {
		t.Fatalf("removing the reported line: %q, %v", quoted, err)
	}
	clock.Advance(moderation.RefreshEvery)
	ts.srv.CheckClocks()
	if m := wb.next("chatlog"); len(m.Lines) != 1 || m.Lines[0].From != "ann" {
		t.Fatalf("bob's chat log after the removal: %+v; want ann's line alone", m.Lines)
	}

	// The operators mute cat: within a refresh, cat cannot chat.
	if err := admin.Mute(ctx, "cat", true); err != nil {
		t.Fatal(err)
	}
	clock.Advance(moderation.RefreshEvery)
	ts.srv.CheckClocks()
	wc.send(map[string]any{"type": "chat", "text": "hello"})
	if m := wc.next("error"); m.Code != "muted" {
		t.Fatalf("a muted account chatting: %+v; want the error muted", m)
	}

	// The operators disable bob, from another process (no feed): his
	// session ends, his game's websocket closes within a refresh, and he
	// cannot sign in.
	adminElsewhere := admin
	adminElsewhere.Feed = nil
	if err := adminElsewhere.Disable(ctx, "bob", true); err != nil {
		t.Fatal(err)
	}
	clock.Advance(moderation.RefreshEvery)
	ts.srv.CheckClocks()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, _, err := wb.c.Read(ctx)
		cancel()
		if err != nil {
			if strings.Contains(err.Error(), "deadline") {
				t.Fatal("bob's websocket stayed open after his account was disabled")
			}
			break
		}
	}
	bob.fails("GET", "/api/me", nil, http.StatusUnauthorized, "")
	bob.fails("POST", "/api/login", account.Credentials{Name: "bob", Password: "battery staple"}, http.StatusUnauthorized, "wrong name or password")
	if err := admin.Disable(ctx, "bob", false); err != nil {
		t.Fatal(err)
	}
	clock.Advance(moderation.RefreshEvery)
	ts.srv.CheckClocks()
	bob.call("POST", "/api/login", account.Credentials{Name: "bob", Password: "battery staple"}, http.StatusOK, nil)

	// A reset link sets cat's password once and ends cat's sessions.
	link, err := admin.ResetLink(ctx, "cat", "http://localhost", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	_, token, _ := strings.Cut(link, "#")
	guest := ts.player("someone")
	guest.call("POST", "/api/password/reset", moderation.ResetRequest{Token: token, Password: "a brand new secret"}, http.StatusNoContent, nil)
	guest.fails("POST", "/api/password/reset", moderation.ResetRequest{Token: token, Password: "another new secret"}, http.StatusNotFound, "used or expired")
	cat.fails("GET", "/api/me", nil, http.StatusUnauthorized, "")
	cat.fails("POST", "/api/login", account.Credentials{Name: "cat", Password: "correct horse"}, http.StatusUnauthorized, "wrong name or password")
	cat.call("POST", "/api/login", account.Credentials{Name: "cat", Password: "a brand new secret"}, http.StatusOK, nil)
}
