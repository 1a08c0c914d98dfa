package play

import (
	"sync"
	"time"
)

// The defaults of the creation and join limits and of expiry (see Config).
const (
	DefaultCreateEvery  = 3 * time.Second
	DefaultCreateBurst  = 20
	DefaultJoinEvery    = time.Second
	DefaultJoinBurst    = 30
	DefaultMaxOpenGames = 50
	DefaultExpiry       = 14 * 24 * time.Hour
	DefaultKeepIdle     = 10 * time.Minute
	DefaultMaxPlies     = 2000
)

// openGames counts the unfinished games each client created.
type openGames struct {
	mu      sync.Mutex        // guards the maps
	byKey   map[string]int    // client key: its unfinished games
	creator map[string]string // game id: its creator's client key
}

// add counts game id as created by key unless key already has max open
// games; it reports whether it did.
func (o *openGames) add(key, id string, max int) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.byKey[key] >= max {
		return false
	}
	if o.byKey == nil {
		o.byKey, o.creator = map[string]int{}, map[string]string{}
	}
	o.byKey[key]++
	o.creator[id] = key
	return true
}

// done forgets game id: it finished, expired or was never stored.
func (o *openGames) done(id string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	key, ok := o.creator[id]
	if !ok {
		return
	}
	delete(o.creator, id)
	if o.byKey[key]--; o.byKey[key] <= 0 {
		delete(o.byKey, key)
	}
}
