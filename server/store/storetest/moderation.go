package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"stax/server/store"
)

// Moderation checks the store.Moderation part: blocks, reports,
// restrictions and one-time password reset tokens, through two stores on
// one database (two server instances).
func Moderation(t *testing.T, newDB Opener) {
	part{
		{"Blocks", testBlocks},
		{"Reports", testReports},
		{"Restrictions", testRestrictions},
		{"PasswordResets", testPasswordResets},
		{"ChatRemovals", testChatRemovals},
	}.run(t, newDB)
}

// moderation returns the store's store.Moderation and store.Accounts, with
// the accounts ann, bob and cy created.
func moderation(t *testing.T, s store.Store) (store.Moderation, store.Accounts) {
	t.Helper()
	a := accounts(t, s)
	for _, u := range []string{"ann", "bob", "cy"} {
		check(t, "create user "+u, a.CreateUser(context.Background(), &store.User{ID: "id-" + u, Name: u, PasswordHash: "h", Created: base}), nil)
	}
	return implements[store.Moderation](t, s), a
}

func testBlocks(t *testing.T, open func() store.Store) {
	s1, s2 := open(), open()
	m1, a := moderation(t, s1)
	m2 := implements[store.Moderation](t, s2)
	ctx := context.Background()
	want := func(when string, blocks ...store.Block) {
		t.Helper()
		got, err := m2.Blocks(ctx)
		check(t, when, err, nil)
		if fmt.Sprint(got) != fmt.Sprint(append([]store.Block{}, blocks...)) {
			t.Fatalf("%s: blocks %v; want %v", when, got, blocks)
		}
	}
	want("at first")
	check(t, "ann blocks cy", m1.Block(ctx, "id-ann", "id-cy"), nil)
	check(t, "ann blocks bob", m1.Block(ctx, "id-ann", "id-bob"), nil)
	check(t, "ann blocks bob again", m2.Block(ctx, "id-ann", "id-bob"), nil)
	check(t, "bob blocks ann", m1.Block(ctx, "id-bob", "id-ann"), nil)
	check(t, "ann blocks nobody", m1.Block(ctx, "id-ann", "id-nobody"), store.ErrNotFound)
	check(t, "nobody blocks ann", m1.Block(ctx, "id-nobody", "id-ann"), store.ErrNotFound)
	want("after blocks", store.Block{UserID: "id-ann", Blocked: "id-bob", BlockedName: "bob"}, store.Block{UserID: "id-ann", Blocked: "id-cy", BlockedName: "cy"}, store.Block{UserID: "id-bob", Blocked: "id-ann", BlockedName: "ann"})
	check(t, "ann unblocks cy", m2.Unblock(ctx, "id-ann", "id-cy"), nil)
	check(t, "ann unblocks cy again", m2.Unblock(ctx, "id-ann", "id-cy"), nil)
	want("after an unblock", store.Block{UserID: "id-ann", Blocked: "id-bob", BlockedName: "bob"}, store.Block{UserID: "id-bob", Blocked: "id-ann", BlockedName: "ann"})
	check(t, "delete bob", a.DeleteUser(ctx, "id-bob", "anonymous"), nil)
	want("after bob's deletion")
}

func testReports(t *testing.T, open func() store.Store) {
	s1, s2 := open(), open()
	m1, _ := moderation(t, s1)
	m2 := implements[store.Moderation](t, s2)
	ctx := context.Background()
	r1 := &store.Report{ID: "r1", Reporter: "id-ann", Target: "id-bob", Game: "g1", Chat: "bob: rude words", Reason: "insults", Created: at(1)}
	r2 := &store.Report{ID: "r2", Reporter: "id-cy", Game: "g2", Reason: "engine use", Created: at(2)}
	check(t, "report 1", m1.AddReport(ctx, r1), nil)
	check(t, "report 2", m2.AddReport(ctx, r2), nil)
	check(t, "report 1 again", m2.AddReport(ctx, r1), store.ErrConflict)
	list := func(all bool) string {
		t.Helper()
		got, err := m2.Reports(ctx, all, 10)
		check(t, "reports", err, nil)
		var out []string
		for _, r := range got {
			out = append(out, fmt.Sprintf("%s %s %s %s %q %s %v %v %q", r.ID, r.Reporter, r.Target, r.Game, r.Chat, r.Reason,
				r.Created.Equal(at(map[string]int{"r1": 1, "r2": 2}[r.ID])), !r.Closed.IsZero(), r.Note))
		}
		return fmt.Sprint(out)
	}
	if got, want := list(false), `[r1 id-ann id-bob g1 "bob: rude words" insults true false "" r2 id-cy  g2 "" engine use true false ""]`; got != want {
		t.Fatalf("open reports:\n got %s\nwant %s", got, want)
	}
	check(t, "close r1", m1.CloseReport(ctx, "r1", "warned bob", at(5)), nil)
	check(t, "close r1 again", m2.CloseReport(ctx, "r1", "again", at(6)), store.ErrConflict)
	check(t, "close an unknown report", m2.CloseReport(ctx, "r9", "", at(6)), store.ErrNotFound)
	if got, want := list(false), `[r2 id-cy  g2 "" engine use true false ""]`; got != want {
		t.Fatalf("open reports after closing r1:\n got %s\nwant %s", got, want)
	}
	if got, want := list(true), `[r1 id-ann id-bob g1 "bob: rude words" insults true true "warned bob" r2 id-cy  g2 "" engine use true false ""]`; got != want {
		t.Fatalf("all reports:\n got %s\nwant %s", got, want)
	}
	if got, err := m2.Reports(ctx, true, 1); err != nil || len(got) != 1 {
		t.Fatalf("reports with a limit of 1: %d, %v", len(got), err)
	}
}

func testRestrictions(t *testing.T, open func() store.Store) {
	s1, s2 := open(), open()
	m1, a := moderation(t, s1)
	m2 := implements[store.Moderation](t, s2)
	ctx := context.Background()
	want := func(when string, rs ...store.Restriction) {
		t.Helper()
		got, err := m2.Restrictions(ctx)
		check(t, when, err, nil)
		if fmt.Sprint(got) != fmt.Sprint(append([]store.Restriction{}, rs...)) {
			t.Fatalf("%s: restrictions %v; want %v", when, got, rs)
		}
	}
	want("at first")
	check(t, "mute bob", m1.Restrict(ctx, store.Restriction{UserID: "id-bob", Muted: true}), nil)
	check(t, "disable cy", m1.Restrict(ctx, store.Restriction{UserID: "id-cy", Disabled: true}), nil)
	check(t, "restrict nobody", m1.Restrict(ctx, store.Restriction{UserID: "id-nobody", Muted: true}), store.ErrNotFound)
	check(t, "lift nobody's", m1.Restrict(ctx, store.Restriction{UserID: "id-nobody"}), store.ErrNotFound)
	want("after restricting", store.Restriction{UserID: "id-bob", Muted: true, Disabled: false}, store.Restriction{UserID: "id-cy", Muted: false, Disabled: true})
	check(t, "mute and disable bob", m2.Restrict(ctx, store.Restriction{UserID: "id-bob", Muted: true, Disabled: true}), nil)
	check(t, "lift cy's", m2.Restrict(ctx, store.Restriction{UserID: "id-cy"}), nil)
	check(t, "lift ann's, who has none", m2.Restrict(ctx, store.Restriction{UserID: "id-ann"}), nil)
	want("after changes", store.Restriction{UserID: "id-bob", Muted: true, Disabled: true})
	check(t, "delete bob", a.DeleteUser(ctx, "id-bob", "anonymous"), nil)
	want("after bob's deletion")
}

func testPasswordResets(t *testing.T, open func() store.Store) {
	s1, s2 := open(), open()
	m1, a := moderation(t, s1)
	m2 := implements[store.Moderation](t, s2)
	ctx := context.Background()
	check(t, "reset for ann", m1.CreateReset(ctx, "h1", "id-ann", at(60)), nil)
	check(t, "reset for bob", m1.CreateReset(ctx, "h2", "id-bob", at(60)), nil)
	check(t, "reset for cy", m1.CreateReset(ctx, "h3", "id-cy", at(60)), nil)
	check(t, "reset for nobody", m1.CreateReset(ctx, "h4", "id-nobody", at(60)), store.ErrNotFound)

	// Of uses at once on two instances, one succeeds.
	var wg sync.WaitGroup
	results := make(chan string, 8)
	for i := range 8 {
		m := []store.Moderation{m1, m2}[i%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			id, err := m.UseReset(ctx, "h1", at(10))
			if err == nil {
				results <- id
			} else if !errors.Is(err, store.ErrNotFound) {
				results <- "error " + err.Error()
			}
		}()
	}
	wg.Wait()
	close(results)
	var got []string
	for id := range results {
		got = append(got, id)
	}
	if fmt.Sprint(got) != "[id-ann]" {
		t.Fatalf("8 uses of one token at once: %v; want one for id-ann", got)
	}
	_, err := m2.UseReset(ctx, "h2", at(60))
	check(t, "an expired token", err, store.ErrNotFound)
	_, err = m2.UseReset(ctx, "h9", at(1))
	check(t, "an unknown token", err, store.ErrNotFound)
	check(t, "delete cy", a.DeleteUser(ctx, "id-cy", "anonymous"), nil)
	_, err = m2.UseReset(ctx, "h3", at(1))
	check(t, "a deleted account's token", err, store.ErrNotFound)
}

func testChatRemovals(t *testing.T, open func() store.Store) {
	s1, s2 := open(), open()
	m1, _ := moderation(t, s1)
	m2 := implements[store.Moderation](t, s2)
	ctx := context.Background()
	rs := []store.ChatRemoval{
		{Game: "g1", From: "bob", Text: "rude", Removed: at(10)},
		{Game: "g2", From: "cy", Text: "spam: buy now", Removed: at(20)},
		{Game: "g1", From: "bob", Text: "ruder", Removed: at(30)},
	}
	for _, r := range rs {
		check(t, "remove "+r.Text, m1.RemoveChat(ctx, r), nil)
	}
	for _, c := range []struct {
		since int
		want  []store.ChatRemoval
	}{{0, rs}, {20, rs[1:]}, {31, nil}} {
		got, err := m2.ChatRemovals(ctx, at(c.since))
		check(t, "chat removals", err, nil)
		if fmt.Sprint(got) != fmt.Sprint(append([]store.ChatRemoval{}, c.want...)) {
			t.Fatalf("chat removals since %d: %v; want %v", c.since, got, c.want)
		}
	}
}
