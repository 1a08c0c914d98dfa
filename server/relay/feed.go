package relay

import (
	"context"

	"stax/server/store"
)

// shards is how many goroutines apply the feed's game events. The events
// of one game always go to the same one, in the feed's order; a game whose
// lock is held (a move of its own being committed, say) then holds back
// only the games of its shard, not every game of the instance, which is
// what made moves that cross instances wait seconds under load.
const shards = 32

// shardDepth is how many events may wait for each shard before the feed
// itself waits.
const shardDepth = 256

// Feed starts the shards that apply game events, until ctx is done, and
// returns the function to hand the store's events to (the caller's
// store.Feed.Watch): it applies the other events at once and passes a
// game's events to its shard. It ignores the events of other domains
// (seeks, news). Wait waits for the shards to stop.
func (r *Relay) Feed(ctx context.Context) func(store.Event) {
	chs := make([]chan store.Event, shards)
	for i := range chs {
		ch := make(chan store.Event, shardDepth)
		chs[i] = ch
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			for {
				select {
				case <-ctx.Done():
					return
				case ev := <-ch:
					r.follow(ev)
				}
			}
		}()
	}
	return func(ev store.Event) {
		switch ev.Kind {
		case store.EventMove, store.EventTakeBack, store.EventJoin, store.EventFinish, store.EventRoom:
			select {
			case chs[shardOf(ev.Game)] <- ev:
			case <-ctx.Done():
			}
		default:
			r.follow(ev)
		}
	}
}

// Wait waits for the feed's shards to stop after its context is done.
func (r *Relay) Wait() { r.wg.Wait() }

// shardOf returns the feed shard of a game id (FNV-1a).
func shardOf(id string) int {
	h := uint32(2166136261)
	for i := 0; i < len(id); i++ {
		h ^= uint32(id[i])
		h *= 16777619
	}
	return int(h % shards)
}

// follow handles one event of the store's feed: a change committed by this
// process or by another instance sharing the store reaches the rooms this
// instance holds and their connections.
func (r *Relay) follow(ev store.Event) {
	switch ev.Kind {
	case store.EventJob:
		r.wake()
	case store.EventRoom:
		r.followRoom(ev)
	case store.EventInstance:
		r.followPeer(ev)
	case store.EventResync:
		r.wake()
		r.rooms.Resync()
	case store.EventMove, store.EventTakeBack, store.EventJoin, store.EventFinish:
		r.rooms.Follow(ev)
	}
}

// wake tells the computer players that a move may be waiting.
func (r *Relay) wake() {
	if r.cfg.Wake != nil {
		r.cfg.Wake()
	}
}
