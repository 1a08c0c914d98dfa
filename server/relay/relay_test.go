package relay

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"stax/server/store"
	"stax/server/store/sqlite"
)

// feed is a store feed that keeps what is announced.
type feed struct {
	mu   sync.Mutex
	sent []store.Event
}

func (f *feed) Watch(ctx context.Context, fn func(store.Event)) error { return nil }

func (f *feed) Announce(_ context.Context, ev store.Event) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, ev)
	return nil
}

func (f *feed) events() []store.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.sent)
}

// rooms records what the relay asks of live play.
type rooms struct {
	mu       sync.Mutex
	followed []store.Event
	heard    []News
	forgot   []string
	asked    int
	resyncs  int
}

func (r *rooms) Follow(ev store.Event) {
	r.mu.Lock()
	r.followed = append(r.followed, ev)
	r.mu.Unlock()
}
func (r *rooms) Hear(game string, n News) {
	r.mu.Lock()
	r.heard = append(r.heard, n)
	r.mu.Unlock()
}
func (r *rooms) Resync() { r.mu.Lock(); r.resyncs++; r.mu.Unlock() }
func (r *rooms) Forget(gone []string) {
	r.mu.Lock()
	r.forgot = append(r.forgot, gone...)
	r.mu.Unlock()
}
func (r *rooms) AskAll() { r.mu.Lock(); r.asked++; r.mu.Unlock() }

// clock is a settable time.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func newRelay(t *testing.T) (*Relay, *feed, *rooms, *clock) {
	t.Helper()
	f, rs, c := &feed{}, &rooms{}, &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	return New(Config{Instance: "me", Feed: f, Now: c.Now}, rs), f, rs, c
}

func news(t *testing.T, game string, n News) store.Event {
	t.Helper()
	b, err := json.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	return store.Event{Kind: store.EventRoom, Game: game, Move: string(b)}
}

// TestNews checks that another instance's news of a room reaches the
// rooms, that this instance's own news is skipped (it was applied when it
// happened), and that what Tell sends reads back as it was.
func TestNews(t *testing.T) {
	r, f, rs, _ := newRelay(t)
	r.follow(news(t, "g1", News{From: "other", What: Chat}))
	r.follow(news(t, "g1", News{From: "me", What: Chat}))
	r.follow(store.Event{Kind: store.EventRoom, Game: "g1", Move: "{not json"})
	if len(rs.heard) != 1 || rs.heard[0].From != "other" {
		t.Fatalf("rooms heard %+v; want the other instance's news only", rs.heard)
	}
	r.Tell(context.Background(), "g2", News{What: State, Ply: 3, Conns: []int{1, 0}})
	sent := f.events()
	if len(sent) != 1 || sent[0].Kind != store.EventRoom || sent[0].Game != "g2" {
		t.Fatalf("announced %+v; want one room event of g2", sent)
	}
	var got News
	if err := json.Unmarshal([]byte(sent[0].Move), &got); err != nil || got.From != "me" || got.Ply != 3 || !slices.Equal(got.Conns, []int{1, 0}) {
		t.Fatalf("news sent %+v (%v); want from me at ply 3 with conns [1 0]", got, err)
	}
}

// TestPeers checks the life of the other instances: one silent for TTL
// has its connections forgotten, one that says it is gone at once, and
// one that speaks again after lapsing makes this instance ask about every
// room; this instance says it is alive every Renew.
func TestPeers(t *testing.T) {
	r, f, rs, c := newRelay(t)
	ctx := context.Background()
	r.follow(store.Event{Kind: store.EventInstance, Game: "a", Move: alive})
	r.follow(store.Event{Kind: store.EventInstance, Game: "b", Move: alive})
	r.Sweep(ctx, c.now)
	if len(rs.forgot) != 0 || len(f.events()) != 1 {
		t.Fatalf("at once: forgot %v, announced %v; want nothing forgotten and one sign of life", rs.forgot, f.events())
	}
	c.now = c.now.Add(TTL / 2)
	r.follow(store.Event{Kind: store.EventInstance, Game: "b", Move: alive})
	c.now = c.now.Add(TTL / 2)
	r.Sweep(ctx, c.now)
	if !slices.Equal(rs.forgot, []string{"a"}) {
		t.Fatalf("after TTL: forgot %v; want a, silent since the start", rs.forgot)
	}
	if n := len(f.events()); n != 2 {
		t.Fatalf("%d signs of life after %v; want 2", n, TTL)
	}
	r.follow(store.Event{Kind: store.EventInstance, Game: "a", Move: alive})
	if rs.asked != 1 {
		t.Fatalf("a spoke again after lapsing: asked %d times; want once about every room", rs.asked)
	}
	r.follow(store.Event{Kind: store.EventInstance, Game: "b", Move: gone})
	if !slices.Equal(rs.forgot, []string{"a", "b"}) {
		t.Fatalf("b gone: forgot %v; want a then b", rs.forgot)
	}
	r.follow(store.Event{Kind: store.EventInstance, Game: "me", Move: gone})
	if len(rs.forgot) != 2 {
		t.Fatalf("this instance's own news forgot %v", rs.forgot)
	}
}

// TestFeed checks that the feed brings each game's events to the rooms in
// order, and the resyncs and jobs at once.
func TestFeed(t *testing.T) {
	woken := 0
	f, rs := &feed{}, &rooms{}
	r := New(Config{Instance: "me", Feed: f, Wake: func() { woken++ }}, rs)
	ctx, cancel := context.WithCancel(context.Background())
	take := r.Feed(ctx)
	for ply := range 100 {
		take(store.Event{Kind: store.EventMove, Game: "g", Ply: ply})
	}
	take(store.Event{Kind: store.EventJob})
	take(store.Event{Kind: store.EventResync})
	if woken != 2 || rs.resyncs != 1 {
		t.Fatalf("woken %d times, %d resyncs; want 2 and 1", woken, rs.resyncs)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		rs.mu.Lock()
		n := len(rs.followed)
		rs.mu.Unlock()
		if n == 100 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	r.Wait()
	for i, ev := range rs.followed {
		if ev.Ply != i {
			t.Fatalf("event %d is of ply %d; want the feed's order", i, ev.Ply)
		}
	}
	if len(rs.followed) != 100 {
		t.Fatalf("%d moves followed; want 100", len(rs.followed))
	}
}

// TestArrive checks the downtime recorded at a start: from the last sign
// of life of any instance when none is serving (its last beat after a
// crash, its stop after a clean one), none when another instance is
// alive.
func TestArrive(t *testing.T) {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "uptime.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	c := &clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	start := func(id string) ([]store.Outage, *Relay) {
		r := New(Config{Instance: id, Feed: &feed{}, Uptime: st, Now: c.Now}, &rooms{})
		outages, err := r.Arrive(ctx, c.now.Add(-24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		return outages, r
	}
	if outages, _ := start("first"); len(outages) != 0 {
		t.Fatalf("the first start ever: outages %v; want none", outages)
	}
	// A second instance starts while the first beats: no downtime.
	c.now = c.now.Add(BeatEvery)
	if outages, _ := start("second"); len(outages) != 0 {
		t.Fatalf("a start beside a live instance: outages %v; want none", outages)
	}
	last := c.now
	// Both die; the next start, 7 s later, records the gap.
	c.now = c.now.Add(7 * time.Second)
	outages, r := start("third")
	if len(outages) != 1 || !outages[0].Start.Equal(last) || !outages[0].End.Equal(c.now) {
		t.Fatalf("a start after 7 s without an instance: outages %v; want one from %v to %v", outages, last, c.now)
	}
	// The last instance stops cleanly: the time to the next start is
	// charged to nobody, from the stop on (not from its last beat).
	stop := c.now.Add(BeatEvery / 2)
	c.now = stop
	r.Beat(true)
	c.now = c.now.Add(3 * time.Second)
	outages, _ = start("fourth")
	if len(outages) != 2 || !outages[1].Start.Equal(stop) || !outages[1].End.Equal(c.now) {
		t.Fatalf("a start after a clean stop: outages %v; want a second from %v to %v", outages, stop, c.now)
	}
}
