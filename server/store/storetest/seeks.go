package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"stax/server/store"
)

// seeks returns the store's store.Seeks.
func seeks(t *testing.T, s store.Store) store.Seeks { return implements[store.Seeks](t, s) }

func seekIDs(t *testing.T, s store.Seeks) []string {
	t.Helper()
	list, err := s.Seeks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, sk := range list {
		ids = append(ids, sk.ID)
	}
	return ids
}

func wantSeeks(t *testing.T, s store.Seeks, when string, want ...string) {
	t.Helper()
	if got := seekIDs(t, s); fmt.Sprint(got) != fmt.Sprint(append([]string{}, want...)) {
		t.Fatalf("%s: seeks %v; want %v", when, got, want)
	}
}

// testSeeks posts, lists, takes, cancels and expires seeks through two
// stores on one database (two server instances), watching the changes
// arrive.
func testSeeks(t *testing.T, open func() store.Store) {
	s1, s2 := open(), open()
	a, b := seeks(t, s1), seeks(t, s2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := make(chan store.Event, 100)
	if err := s2.Watch(ctx, func(ev store.Event) { events <- ev }); err != nil {
		t.Fatal(err)
	}
	next := func(what string) store.Event {
		t.Helper()
		select {
		case ev := <-events:
			return ev
		case <-time.After(10 * time.Second):
			t.Fatalf("no event for %s", what)
		}
		return store.Event{}
	}
	mk := func(id, owner, to string, created int) *store.Seek {
		return &store.Seek{ID: id, Owner: owner, To: to, Body: []byte(`{"id":"` + id + `"}`), Created: at(created), Expires: at(created + 60)}
	}
	check(t, "create s1", a.CreateSeek(ctx, mk("s1", "ann", "", 2)), nil)
	check(t, "create s0", a.CreateSeek(ctx, mk("s0", "bob", "", 1)), nil)
	check(t, "create c1", a.CreateSeek(ctx, mk("c1", "ann", "cat", 3)), nil)
	check(t, "create s1 again", a.CreateSeek(ctx, mk("s1", "ann", "", 4)), store.ErrConflict)
	for _, id := range []string{"s1", "s0", "c1"} {
		if ev := next("create " + id); ev != (store.Event{Kind: store.EventSeek, Game: id}) {
			t.Fatalf("event %+v; want the seek %s posted", ev, id)
		}
	}
	wantSeeks(t, b, "seen from the other instance", "s0", "s1", "c1")
	got, err := b.GetSeek(ctx, "c1")
	if err != nil || got.Owner != "ann" || got.To != "cat" || string(got.Body) != `{"id":"c1"}` || !got.Created.Equal(at(3)) || !got.Expires.Equal(at(63)) {
		t.Fatalf("GetSeek(c1) = %+v, %v", got, err)
	}
	check(t, "get a missing seek", func() error { _, err := b.GetSeek(ctx, "nope"); return err }(), store.ErrNotFound)

	// Taking: exactly one of many takers, on either instance, succeeds.
	onlyOne(t, "TakeSeek", 8, store.ErrNotFound, func(i int) error { return []store.Seeks{a, b}[i%2].TakeSeek(ctx, "s0") })
	if ev := next("take s0"); ev != (store.Event{Kind: store.EventSeek, Game: "s0"}) {
		t.Fatalf("event %+v; want s0 taken", ev)
	}
	wantSeeks(t, a, "after the take", "s1", "c1")

	// An owner in the lobby keeps their seeks past their expiry; leaving
	// withdraws them unless another instance still holds the owner.
	check(t, "ann present on 1", a.Present(ctx, "i1", []string{"ann", "dan"}, at(100)), nil)
	check(t, "ann present on 2", b.Present(ctx, "i2", []string{"ann"}, at(100)), nil)
	n, err := a.ExpireSeeks(ctx, at(90))
	if err != nil || n != 0 {
		t.Fatalf("ExpireSeeks while ann is in the lobby = %d, %v; want 0", n, err)
	}
	check(t, "ann leaves 1", a.Leave(ctx, "i1", "ann", at(91)), nil)
	wantSeeks(t, a, "ann still in the lobby on 2", "s1", "c1")
	check(t, "ann leaves 2", b.Leave(ctx, "i2", "ann", at(92)), nil)
	if ev := next("ann leaves"); ev.Kind != store.EventSeek {
		t.Fatalf("event %+v; want the seeks withdrawn", ev)
	}
	wantSeeks(t, a, "ann gone")

	// Expiry: an owner who never came, or whose instance stopped renewing.
	check(t, "create e1", a.CreateSeek(ctx, mk("e1", "eve", "", 200)), nil)
	check(t, "create e2", a.CreateSeek(ctx, mk("e2", "dan", "", 200)), nil)
	check(t, "dan present", a.Present(ctx, "i1", []string{"dan"}, at(270)), nil)
	next("create e1")
	next("create e2")
	if n, err := b.ExpireSeeks(ctx, at(259)); err != nil || n != 0 {
		t.Fatalf("ExpireSeeks before expiry = %d, %v", n, err)
	}
	if n, err := b.ExpireSeeks(ctx, at(260)); err != nil || n != 1 {
		t.Fatalf("ExpireSeeks at expiry = %d, %v; want eve's seek", n, err)
	}
	next("expire e1")
	wantSeeks(t, a, "eve's seek expired", "e2")
	if n, err := b.ExpireSeeks(ctx, at(270)); err != nil || n != 1 {
		t.Fatalf("ExpireSeeks when dan's presence lapsed = %d, %v; want dan's seek", n, err)
	}
	next("expire e2")

	// An account's seeks and the challenges to it go with it.
	check(t, "create d1", a.CreateSeek(ctx, mk("d1", "ann", "", 300)), nil)
	check(t, "create d2", a.CreateSeek(ctx, mk("d2", "cat", "ann", 301)), nil)
	check(t, "create d3", a.CreateSeek(ctx, mk("d3", "cat", "", 302)), nil)
	next("create d1")
	next("create d2")
	next("create d3")
	check(t, "delete ann's", b.DeleteSeeks(ctx, "ann"), nil)
	next("delete ann's")
	wantSeeks(t, a, "ann's deleted", "d3")
	check(t, "take a missing seek", b.TakeSeek(ctx, "d1"), store.ErrNotFound)

	// News reaches the watchers of every instance; nothing else sends an
	// event.
	news := store.Event{Kind: store.EventNews, Game: "cat", Move: `{"type":"started","game":"g1","by":"bob smith"}`}
	check(t, "announce", s1.Announce(ctx, news), nil)
	if ev := next("news"); ev != news {
		t.Fatalf("event %+v; want %+v", ev, news)
	}
	if n, err := a.ExpireSeeks(ctx, at(300)); err != nil || n != 0 {
		t.Fatalf("ExpireSeeks with nothing due = %d, %v", n, err)
	}
	select {
	case ev := <-events:
		t.Fatalf("unexpected event %+v", ev)
	case <-time.After(100 * time.Millisecond):
	}
}
