// Package relay keeps the instances sharing a store in step: it applies
// the store's feed to the rooms live play holds on this instance, and
// tells the other instances what no table keeps — a room's chat, offers
// and connections, and this instance's life.
//
// Chat, offers and the players' connections are a live game's news that
// no table keeps, yet several instances sharing the store may each hold
// some of a game's connections. Each instance applies what its own
// connections do to the room it holds, at once, and tells the other
// instances through the store's feed (Store.Announce, an EventRoom
// carrying a [News]); an instance holding the room applies the news of the
// others as if it were its own, and skips its own news, which it has
// applied already. An instance that loads a room asks the others for what
// they know of it: the offers standing, their connections and the chat so
// far.
//
// The players' connections are counted per instance: a seat shows
// connected while a connection holds it on this instance or on another
// that told so. Each instance says it is alive every Renew
// (EventInstance); the connections of an instance not heard from for TTL
// are forgotten, so a seat held only on an instance that died shows
// offline within TTL, and at once when the instance stops cleanly.
//
// Each instance also records a sign of life in the store every BeatEvery
// (store.Uptime): the first instance to start after none was serving
// records the site's downtime, which the games' clocks charge to nobody.
//
// The relay knows rooms only through [Rooms], which live play implements.
package relay

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"stax/server/chat"
	"stax/server/store"
)

const (
	// Renew is how often an instance tells the others it is alive.
	Renew = 10 * time.Second
	// TTL is how long the connections an instance told of count without
	// a word from it.
	TTL = 30 * time.Second
	// lapsedKeep is how long an instance remembers another it stopped
	// hearing from, in case it speaks again.
	lapsedKeep = 10 * time.Minute
	// HistoryBudget bounds, in bytes, the chat lines sent in answer to an
	// ask, so that the news fits store.MaxAnnounce.
	HistoryBudget = store.MaxAnnounce - 1000
)

// The news of a room (News.What).
const (
	Chat    = "chat"    // a chat line (Line)
	State   = "state"   // the offers standing and the sender's connections
	Ask     = "ask"     // the sender loaded the room: tell it what you know
	Rematch = "rematch" // the rematch (Rematch) has started
)

// The news of an instance (the Move of an EventInstance).
const (
	alive = "alive"
	gone  = "gone"
)

// News is what an instance tells the others of a room: the Move of an
// EventRoom.
type News struct {
	// From is the instance that sends it.
	From string `json:"from"`
	What string `json:"what"`
	// Line is a chat line.
	Line *chat.Line `json:"line,omitempty"`
	// Ply is the sender's ply of the game, which the draw and takeback
	// offers are for.
	Ply int `json:"ply"`
	// Offers are the offers standing that the sender knows of.
	Offers map[string][]int `json:"offers,omitempty"`
	// Conns counts the sender's connections holding each seat.
	Conns []int `json:"conns,omitempty"`
	// Lines are the last chat lines of both rooms, oldest first, in
	// answer to an ask.
	Lines []chat.Line `json:"lines,omitempty"`
	// Rematch is the id of the rematch that started.
	Rematch string `json:"rematch,omitempty"`
}

// Rooms is what the relay needs of live play: the rooms this instance
// holds. Each method returns at once for a game not held here.
type Rooms interface {
	// Follow applies a committed change of a game (a move, a takeback, a
	// seat joined, an ending: the event's kind) to its room.
	Follow(ev store.Event)
	// Hear applies another instance's news of a game's room.
	Hear(game string, n News)
	// Resync rereads every room held, and asks the other instances about
	// each: the feed may have lost events.
	Resync()
	// Forget forgets the connections that the instances gone told of.
	Forget(gone []string)
	// AskAll asks the other instances about every room held.
	AskAll()
}

// Config configures a Relay.
type Config struct {
	// Instance names this instance among those sharing the store.
	Instance string
	// Feed carries the news to the other instances, and Uptime keeps
	// their signs of life and the site's downtime.
	Feed   store.Feed
	Uptime store.Uptime
	// Now tells the time (default time.Now).
	Now func() time.Time
	// Wake is called when a computer move may be waiting (a job event,
	// or a resync); nil: nothing to wake.
	Wake func()
	// Log receives the logs; nil discards them.
	Log *slog.Logger
}

// Relay is one instance's link to the others sharing the store.
type Relay struct {
	cfg   Config
	rooms Rooms
	wg    sync.WaitGroup // the feed's shards

	mu    sync.Mutex           // guards the fields below
	heard map[string]time.Time // by instance id: when last heard from
	// lapsed holds the instances whose connections were forgotten for
	// their silence, and since when, for lapsedKeep.
	lapsed map[string]time.Time
	told   time.Time // when this instance last said it was alive
}

// New returns the relay of the instance cfg.Instance for rooms.
func New(cfg Config, rooms Rooms) *Relay {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Relay{cfg: cfg, rooms: rooms, heard: map[string]time.Time{}, lapsed: map[string]time.Time{}}
}

// Tell sends news of a game's room to the other instances. The caller
// holds the room's lock, so that a room's news leave in the order they
// happen; ctx bounds the announcement.
func (r *Relay) Tell(ctx context.Context, game string, n News) {
	n.From = r.cfg.Instance
	b, err := json.Marshal(n)
	if err != nil {
		panic(err) // News holds nothing json cannot encode
	}
	if err := r.cfg.Feed.Announce(ctx, store.Event{Kind: store.EventRoom, Game: game, Move: string(b)}); err != nil && ctx.Err() == nil {
		r.cfg.Log.Error("tell the other instances", "game", game, "news", n.What, "err", err)
	}
}

// hear records that instance id spoke; when it had lapsed (it was silent
// for TTL, a pause rather than its end), this instance asks again about
// every room it holds.
func (r *Relay) hear(id string) {
	r.mu.Lock()
	r.heard[id] = r.cfg.Now()
	_, lapsed := r.lapsed[id]
	delete(r.lapsed, id)
	r.mu.Unlock()
	if lapsed {
		r.rooms.AskAll()
	}
}

// Sweep tells the other instances that this one is alive every Renew, and
// forgets the connections of those not heard from for TTL. Live play
// calls it with its clock's ticks.
func (r *Relay) Sweep(ctx context.Context, now time.Time) {
	r.mu.Lock()
	renew := now.Sub(r.told) >= Renew
	if renew {
		r.told = now
	}
	var silent []string
	for id, at := range r.heard {
		if now.Sub(at) >= TTL {
			silent = append(silent, id)
			delete(r.heard, id)
			r.lapsed[id] = now
		}
	}
	for id, at := range r.lapsed {
		if now.Sub(at) >= lapsedKeep {
			delete(r.lapsed, id)
		}
	}
	r.mu.Unlock()
	if renew {
		r.announce(ctx, alive)
	}
	if len(silent) > 0 {
		r.rooms.Forget(silent)
	}
}

// Gone tells the other instances that this one is stopping: they forget
// its connections at once.
func (r *Relay) Gone(ctx context.Context) { r.announce(ctx, gone) }

// announce tells the other instances that this one is alive or gone.
func (r *Relay) announce(ctx context.Context, what string) {
	if err := r.cfg.Feed.Announce(ctx, store.Event{Kind: store.EventInstance, Game: r.cfg.Instance, Move: what}); err != nil && ctx.Err() == nil {
		r.cfg.Log.Error("tell the other instances", "news", what, "err", err)
	}
}

// followPeer applies the news of another instance.
func (r *Relay) followPeer(ev store.Event) {
	if ev.Game == r.cfg.Instance {
		return
	}
	if ev.Move == gone {
		r.mu.Lock()
		delete(r.heard, ev.Game)
		delete(r.lapsed, ev.Game)
		r.mu.Unlock()
		r.rooms.Forget([]string{ev.Game})
		return
	}
	r.hear(ev.Game)
}

// followRoom applies another instance's news of a room.
func (r *Relay) followRoom(ev store.Event) {
	var n News
	if err := json.Unmarshal([]byte(ev.Move), &n); err != nil {
		r.cfg.Log.Error("news of a room", "game", ev.Game, "err", err)
		return
	}
	if n.From == r.cfg.Instance {
		return // applied when it happened
	}
	r.hear(n.From)
	r.rooms.Hear(ev.Game, n)
}
