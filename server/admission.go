package server

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
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

// clientKey returns the key under which a client address is limited: the
// address itself for IPv4, its /64 network for IPv6 (one host commonly
// holds a whole /64).
func clientKey(ip string) string {
	a := net.ParseIP(ip)
	if a == nil || a.To4() != nil {
		return ip
	}
	return a.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// rateLimiter is a token bucket per client: a client may spend burst
// tokens at once and gets one back every `every`.
type rateLimiter struct {
	every time.Duration
	burst float64

	mu      sync.Mutex // guards buckets
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newRateLimiter(every time.Duration, burst int) *rateLimiter {
	return &rateLimiter{every: every, burst: float64(burst), buckets: map[string]*bucket{}}
}

// allow spends a token of key if it has one; otherwise it returns how long
// until it will.
func (rl *rateLimiter) allow(key string, now time.Time) (ok bool, retry time.Duration) {
	rl.mu.Lock()
	defer rl.mu.Unlock()
	b := rl.buckets[key]
	if b == nil {
		b = &bucket{tokens: rl.burst, last: now}
		rl.buckets[key] = b
	}
	b.tokens = math.Min(rl.burst, b.tokens+float64(now.Sub(b.last))/float64(rl.every))
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) * float64(rl.every))
}

// sweep forgets the clients whose buckets are full again, so that the
// limiter holds only the clients active within the last burst*every.
func (rl *rateLimiter) sweep(now time.Time) {
	rl.mu.Lock()
	defer rl.mu.Unlock()
	for k, b := range rl.buckets {
		if b.tokens+float64(now.Sub(b.last))/float64(rl.every) >= rl.burst {
			delete(rl.buckets, k)
		}
	}
}

// tooFast answers 429 with Retry-After in whole seconds, rounded up.
func tooFast(w http.ResponseWriter, retry time.Duration, what string) {
	secs := int(math.Ceil(retry.Seconds()))
	w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
	httpError(w, http.StatusTooManyRequests, fmt.Sprintf("too many %s from your address; try again in %d s", what, max(secs, 1)))
}

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
