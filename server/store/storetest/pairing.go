package storetest

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"
	"testing"

	"stax/server/store"
)

// Pairing checks the store.Pairing part: the pools of quick pairing, by
// one store and by several instances asking at once.
func Pairing(t *testing.T, newDB Opener) {
	part{
		{"Pair", testPair},
		{"ConcurrentPair", testConcurrentPair},
	}.run(t, newDB)
}

// pairing returns the store's store.Pairing.
func pairing(t *testing.T, s store.Store) store.Pairing { return implements[store.Pairing](t, s) }

// within returns a Match that pairs players whose ratings differ by at
// most d.
func within(d float64) func(self, other *store.Waiting) bool {
	return func(self, other *store.Waiting) bool { return math.Abs(self.Rating-other.Rating) <= d }
}

// testPair runs a pool through its steps: players wait, are paired by
// rating with the one who waited longest, renew and leave their waits, and
// expire.
func testPair(t *testing.T, open func() store.Store) {
	s1, s2 := open(), open()
	a, b := pairing(t, s1), pairing(t, s2)
	ctx := context.Background()
	w := func(pool, user string, rating float64, sec int) *store.Waiting {
		return &store.Waiting{Pool: pool, User: user, Rating: rating, Body: []byte(`{"name":"` + user + `"}`), Created: at(sec), Expires: at(sec + 30)}
	}
	steps := []struct {
		what    string
		p       store.Pairing
		req     store.PairRequest
		partner string // "" for none
		err     error
		created int // the asker's Created after the call, when partner is ""
	}{
		{"ann waits", a, store.PairRequest{Waiting: w("pogo 3+2", "ann", 1500, 0), Now: at(0), Match: within(100)}, "", nil, 0},
		{"bob, far above, waits", b, store.PairRequest{Waiting: w("pogo 3+2", "bob", 1900, 1), Now: at(1), Match: within(100)}, "", nil, 1},
		{"cat, in another pool, waits", a, store.PairRequest{Waiting: w("pogo 5+3", "cat", 1500, 2), Now: at(2), Match: within(100)}, "", nil, 2},
		{"ann renews and keeps her place", b, store.PairRequest{Waiting: w("pogo 3+2", "ann", 1500, 5), Renew: true, Now: at(5), Match: within(100)}, "", nil, 0},
		{"dan, who has never waited, cannot renew", a, store.PairRequest{Waiting: w("pogo 3+2", "dan", 1500, 5), Renew: true, Now: at(5), Match: within(100)}, "", store.ErrNotFound, 0},
		{"dan is paired with the one who waited longest", a, store.PairRequest{Waiting: w("pogo 3+2", "dan", 1700, 6), Now: at(6), Match: within(1000)}, "ann", nil, 0},
		{"ann, paired, cannot renew", b, store.PairRequest{Waiting: w("pogo 3+2", "ann", 1500, 7), Renew: true, Now: at(7), Match: within(100)}, "", store.ErrNotFound, 0},
		{"eve, close to bob, is paired with him", b, store.PairRequest{Waiting: w("pogo 3+2", "eve", 1850, 8), Now: at(8), Match: within(100)}, "bob", nil, 0},
		{"cat's wait has expired: fay waits", a, store.PairRequest{Waiting: w("pogo 5+3", "fay", 1500, 40), Now: at(40), Match: within(100)}, "", nil, 40},
		{"cat cannot renew an expired wait", a, store.PairRequest{Waiting: w("pogo 5+3", "cat", 1500, 41), Renew: true, Now: at(41), Match: within(100)}, "", store.ErrNotFound, 0},
	}
	for _, s := range steps {
		got, err := s.p.Pair(ctx, s.req)
		check(t, s.what, err, s.err)
		if s.err != nil {
			continue
		}
		name := ""
		if got != nil {
			name = got.User
			if string(got.Body) != `{"name":"`+name+`"}` || got.Pool != s.req.Waiting.Pool {
				t.Fatalf("%s: partner %+v; want %s's entry in %s as stored", s.what, got, name, s.req.Waiting.Pool)
			}
		}
		if name != s.partner {
			t.Fatalf("%s: paired with %q; want %q", s.what, name, s.partner)
		}
		if got == nil && !s.req.Waiting.Created.Equal(at(s.created)) {
			t.Fatalf("%s: waiting since %v; want %v", s.what, s.req.Waiting.Created, at(s.created))
		}
	}
	check(t, "fay leaves", b.Unwait(ctx, "fay", ""), nil)
	check(t, "fay leaves again", b.Unwait(ctx, "fay", ""), store.ErrNotFound)
	check(t, "gus waits", func() error {
		_, err := a.Pair(ctx, store.PairRequest{Waiting: w("pogo 1+0", "gus", 1500, 50), Now: at(50), Match: within(100)})
		return err
	}(), nil)
	if n, err := b.ExpireWaiting(ctx, at(79)); err != nil || n != 1 {
		t.Fatalf("ExpireWaiting before gus's wait ends: %d, %v; want 1 (cat's)", n, err)
	}
	if n, err := b.ExpireWaiting(ctx, at(80)); err != nil || n != 1 {
		t.Fatalf("ExpireWaiting when gus's wait ends: %d, %v; want 1", n, err)
	}
	check(t, "gus, expired, leaves", a.Unwait(ctx, "gus", "pogo 1+0"), store.ErrNotFound)
}

// testConcurrentPair has many players ask at once on two instances, every
// one acceptable to every other: each is paired exactly once, and nobody
// is left waiting.
func testConcurrentPair(t *testing.T, open func() store.Store) {
	stores := []store.Pairing{pairing(t, open()), pairing(t, open())}
	ctx := context.Background()
	const n = 12
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			user := fmt.Sprintf("u%02d", i)
			got, err := stores[i%2].Pair(ctx, store.PairRequest{
				Waiting: &store.Waiting{Pool: "diam 3+2", User: user, Rating: 1500, Body: []byte(`{}`), Created: at(0), Expires: at(60)},
				Now:     at(1), Match: within(1000),
			})
			if err != nil {
				t.Errorf("%s: %v", user, err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if got != nil {
				seen[user]++
				seen[got.User]++
			}
		}()
	}
	wg.Wait()
	var users []string
	for u, k := range seen {
		if k != 1 {
			t.Errorf("%s was paired %d times", u, k)
		}
		users = append(users, u)
	}
	sort.Strings(users)
	if len(users) != n {
		t.Fatalf("paired %v; want all %d players", users, n)
	}
}
