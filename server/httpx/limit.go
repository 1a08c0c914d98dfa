package httpx

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// ClientKey returns the key under which a client address is limited: the
// address itself for IPv4, its /64 network for IPv6 (one host commonly
// holds a whole /64).
func ClientKey(ip string) string {
	a := net.ParseIP(ip)
	if a == nil || a.To4() != nil {
		return ip
	}
	return a.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// RateLimiter is a token bucket per client: a client may spend burst
// tokens at once and gets one back every `every`.
type RateLimiter struct {
	every time.Duration
	burst float64

	mu      sync.Mutex // guards buckets
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func NewRateLimiter(every time.Duration, burst int) *RateLimiter {
	return &RateLimiter{every: every, burst: float64(burst), buckets: map[string]*bucket{}}
}

// Allow spends a token of key if it has one; otherwise it returns how long
// until it will.
func (rl *RateLimiter) Allow(key string, now time.Time) (ok bool, retry time.Duration) {
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

// Sweep forgets the clients whose buckets are full again, so that the
// limiter holds only the clients active within the last burst*every.
func (rl *RateLimiter) Sweep(now time.Time) {
	rl.mu.Lock()
	defer rl.mu.Unlock()
	for k, b := range rl.buckets {
		if b.tokens+float64(now.Sub(b.last))/float64(rl.every) >= rl.burst {
			delete(rl.buckets, k)
		}
	}
}

// TooFast answers 429 with Retry-After in whole seconds, rounded up.
func TooFast(w http.ResponseWriter, retry time.Duration, what string) {
	tooMany(w, retry, what+" from your address")
}

// TooFastAccount is TooFast for a limit on an account rather than an
// address.
func TooFastAccount(w http.ResponseWriter, retry time.Duration, what string) {
	tooMany(w, retry, what+" from your account")
}

// TooFastToken is TooFast for a limit on a personal API token, with the
// code CodeRateLimited, which programs read.
func TooFastToken(w http.ResponseWriter, retry time.Duration, what string) {
	secs := retryAfter(w, retry)
	ErrorCode(w, http.StatusTooManyRequests, CodeRateLimited, fmt.Sprintf("too many %s with this API token; try again in %d s", what, secs))
}

func tooMany(w http.ResponseWriter, retry time.Duration, what string) {
	secs := retryAfter(w, retry)
	Error(w, http.StatusTooManyRequests, fmt.Sprintf("too many %s; try again in %d s", what, secs))
}

// retryAfter sets the Retry-After header to retry in whole seconds, rounded
// up (at least one), and returns them.
func retryAfter(w http.ResponseWriter, retry time.Duration) int {
	secs := max(int(math.Ceil(retry.Seconds())), 1)
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	return secs
}

// Admit spends a token of the request's client address (behind proxies)
// at now; without one it answers 429 with Retry-After, saying what came too
// fast, and returns false.
func (rl *RateLimiter) Admit(w http.ResponseWriter, r *http.Request, proxies Proxies, now time.Time, what string) bool {
	ok, retry := rl.Allow(ClientKey(proxies.ClientIP(r)), now)
	if !ok {
		TooFast(w, retry, what)
	}
	return ok
}
