package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"stax/server/store"
)

// testWatch checks that a store opened on the same database sees every
// change, in commit order.
func testWatch(t *testing.T, open func() store.Store) {
	writer, reader := open(), open()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := make(chan store.Event, 100)
	if err := reader.Watch(ctx, func(ev store.Event) { events <- ev }); err != nil {
		t.Fatal(err)
	}
	check(t, "create", writer.Create(ctx, NewGame("g")), nil)
	check(t, "create h", writer.Create(ctx, NewGame("h")), nil)
	check(t, "move 0", writer.AppendMove(ctx, "g", 0, "1a1-a2", at(1), nil), nil)
	check(t, "conflicting move", writer.AppendMove(ctx, "g", 0, "1b1-b2", at(1), nil), store.ErrConflict)
	check(t, "join", writer.Join(ctx, "g", 1, "t", "bob", "", at(2)), nil)
	check(t, "job", writer.AddJob(ctx, "g", 1, "", 0), nil)
	check(t, "move 1", writer.AppendMove(ctx, "g", 1, "2c3-b3", at(3), nil), nil)
	check(t, "take back", writer.TakeBack(ctx, "g", 1), nil)
	check(t, "move 1 again", writer.AppendMove(ctx, "g", 1, "2c3-c1", at(3), &store.End{Outcome: "0-1 rules", Resigned: -1}), nil)
	check(t, "finish h", writer.Finish(ctx, "h", 0, store.End{Outcome: "1-0 resignation", Resigned: 1}, at(4)), nil)
	want := []store.Event{
		{Kind: store.EventMove, Game: "g", Ply: 0, Move: "1a1-a2"},
		{Kind: store.EventJoin, Game: "g", Ply: 1},
		{Kind: store.EventJob, Game: "g", Ply: 1},
		{Kind: store.EventMove, Game: "g", Ply: 1, Move: "2c3-b3"},
		{Kind: store.EventTakeBack, Game: "g", Ply: 1},
		{Kind: store.EventMove, Game: "g", Ply: 1, Move: "2c3-c1"},
		{Kind: store.EventFinish, Game: "h"},
	}
	for i, w := range want {
		select {
		case ev := <-events:
			if ev != w {
				t.Fatalf("event %d = %+v; want %+v", i, ev, w)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("event %d (%+v) did not arrive", i, w)
		}
	}
	// Announce carries news that no table keeps, of up to MaxAnnounce
	// bytes, spaces and any UTF-8 included, to every watcher.
	room := strings.Repeat("é ", store.MaxAnnounce/3)
	room += strings.Repeat("x", store.MaxAnnounce-len(room))
	for _, ev := range []store.Event{
		{Kind: store.EventRoom, Game: "g", Move: `{"chat":"good game"}`},
		{Kind: store.EventRoom, Game: "g", Move: room},
		{Kind: store.EventInstance, Game: "i1", Move: "gone"},
	} {
		check(t, "announce", writer.Announce(ctx, ev), nil)
		select {
		case got := <-events:
			if got != ev {
				t.Fatalf("announced %.80q, got %.80q", ev.Move, got.Move)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the announcement of %.80q did not arrive", ev.Move)
		}
	}
	if err := writer.Announce(ctx, store.Event{Kind: store.EventRoom, Game: "g", Move: room + "x"}); err == nil {
		t.Fatalf("Announce of %d bytes succeeded; want an error past %d", len(room)+1, store.MaxAnnounce)
	}
	select {
	case ev := <-events:
		t.Fatalf("unexpected event %+v", ev)
	case <-time.After(100 * time.Millisecond):
	}
	// A watch ends with its context.
	cancel()
	time.Sleep(50 * time.Millisecond)
	check(t, "create after the watch", writer.Create(context.Background(), NewGame("k")), nil)
	check(t, "move after the watch", writer.AppendMove(context.Background(), "k", 0, "m", at(5), nil), nil)
	select {
	case ev := <-events:
		t.Fatalf("event %+v after the watch ended", ev)
	case <-time.After(200 * time.Millisecond):
	}
}
