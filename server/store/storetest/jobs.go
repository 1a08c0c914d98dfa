package storetest

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"stax/server/store"
)

func claim(t *testing.T, s store.Store, owner string, lease time.Duration) (*store.Job, time.Duration) {
	t.Helper()
	j, wait, err := s.ClaimJob(context.Background(), owner, lease, 2)
	if err != nil {
		t.Fatalf("ClaimJob(%s): %v", owner, err)
	}
	return j, wait
}

// testJobs checks queuing, claiming and finishing computer moves.
func testJobs(t *testing.T, open func() store.Store) {
	s := open()
	ctx := context.Background()
	if j, wait := claim(t, s, "w1", time.Minute); j != nil || wait != 0 {
		t.Fatalf("claim with no jobs = %+v, %v; want none", j, wait)
	}
	check(t, "create", s.Create(ctx, NewGame("g")), nil)
	check(t, "job", s.AddJob(ctx, "g", 0, "", 0), nil)
	check(t, "the same job", s.AddJob(ctx, "g", 0, "", 0), nil)
	check(t, "job of an unknown game", s.AddJob(ctx, "nope", 0, "", 0), store.ErrConflict)
	j, _ := claim(t, s, "w1", time.Minute)
	if j == nil || j.Game != "g" || j.Ply != 0 || j.Attempts != 1 || j.Owner != "w1" || j.Due.IsZero() || time.Since(j.Due) > time.Minute {
		t.Fatalf("claimed %+v; want game g ply 0, first attempt, owner w1, due just now", j)
	}
	if j2, wait := claim(t, s, "w2", time.Minute); j2 != nil || wait <= 30*time.Second {
		t.Fatalf("second claim = %+v, wait %v; want none until the lease (1m) expires", j2, wait)
	}
	check(t, "done by another", s.DoneJob(ctx, j.ID, "w2"), store.ErrConflict)
	check(t, "done", s.DoneJob(ctx, j.ID, "w1"), nil)
	check(t, "done again", s.DoneJob(ctx, j.ID, "w1"), store.ErrConflict)
	if j2, wait := claim(t, s, "w2", time.Minute); j2 != nil || wait != 0 {
		t.Fatalf("claim after done = %+v, %v; want none", j2, wait)
	}
	// A move taken back is queued again.
	check(t, "the same job once done", s.AddJob(ctx, "g", 0, "", 0), nil)
	if j2, _ := claim(t, s, "w2", time.Minute); j2 == nil || j2.ID != j.ID || j2.Attempts != 1 {
		t.Fatalf("claim after queuing a done job again = %+v; want job %d, first attempt", j2, j.ID)
	}
	check(t, "done", s.DoneJob(ctx, j.ID, "w2"), nil)
	// A delayed job waits for its time.
	check(t, "delayed job", s.AddJob(ctx, "g", 1, "", 400*time.Millisecond), nil)
	j, wait := claim(t, s, "w1", time.Minute)
	if j != nil || wait <= 0 || wait > 400*time.Millisecond {
		t.Fatalf("claim of a delayed job = %+v, wait %v; want none, wait at most 400ms", j, wait)
	}
	time.Sleep(wait + 50*time.Millisecond)
	if j, _ = claim(t, s, "w1", time.Minute); j == nil || j.Ply != 1 {
		t.Fatalf("claim after the delay = %+v; want ply 1", j)
	}
	check(t, "done", s.DoneJob(ctx, j.ID, "w1"), nil)
	jobs, err := s.Jobs(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	for i := range jobs {
		if jobs[i].Due.IsZero() {
			t.Fatalf("job %+v has no due time", jobs[i])
		}
		jobs[i].Due = time.Time{}
	}
	want := []store.Job{{ID: jobs[0].ID, Game: "g", Ply: 0, Owner: "w2", Attempts: 1, Done: true}, {ID: jobs[1].ID, Game: "g", Ply: 1, Owner: "w1", Attempts: 1, Done: true}}
	if !reflect.DeepEqual(jobs, want) {
		t.Fatalf("Jobs = %+v; want %+v", jobs, want)
	}
}

// testJobLease checks that the job of a worker that died is claimed again
// once its lease expires, and that the dead worker cannot finish it then.
func testJobLease(t *testing.T, open func() store.Store) {
	s := open()
	ctx := context.Background()
	check(t, "create", s.Create(ctx, NewGame("g")), nil)
	check(t, "job", s.AddJob(ctx, "g", 0, "", 0), nil)
	j, _ := claim(t, s, "dead", 300*time.Millisecond)
	if j == nil {
		t.Fatal("no job claimed")
	}
	j2, wait := claim(t, s, "alive", time.Minute)
	if j2 != nil || wait <= 0 || wait > 300*time.Millisecond {
		t.Fatalf("claim during the lease = %+v, wait %v; want none, wait at most 300ms", j2, wait)
	}
	time.Sleep(wait + 50*time.Millisecond)
	j2, _ = claim(t, s, "alive", time.Minute)
	if j2 == nil || j2.ID != j.ID || j2.Attempts != 2 || j2.Owner != "alive" {
		t.Fatalf("claim after the lease = %+v; want job %d, second attempt", j2, j.ID)
	}
	check(t, "done by the dead worker", s.DoneJob(ctx, j.ID, "dead"), store.ErrConflict)
	check(t, "released by the dead worker", s.ReleaseJob(ctx, j.ID, "dead"), store.ErrConflict)
	check(t, "done", s.DoneJob(ctx, j.ID, "alive"), nil)

	// A worker that stops gives its job back, to be claimed at once.
	check(t, "job", s.AddJob(ctx, "g", 1, "", 0), nil)
	j, _ = claim(t, s, "stopping", time.Minute)
	if j == nil {
		t.Fatal("no job claimed")
	}
	check(t, "release", s.ReleaseJob(ctx, j.ID, "stopping"), nil)
	if j2, _ := claim(t, s, "next", time.Minute); j2 == nil || j2.ID != j.ID || j2.Attempts != 2 {
		t.Fatalf("claim after the release = %+v; want job %d, second attempt", j2, j.ID)
	}
}

// testConcurrentClaims has several workers on two stores claim at once:
// every job is claimed once.
func testConcurrentClaims(t *testing.T, open func() store.Store) {
	stores := []store.Store{open(), open()}
	ctx := context.Background()
	const games, plies, workers = 5, 6, 6
	for g := range games {
		id := fmt.Sprint("g", g)
		check(t, "create", stores[0].Create(ctx, NewGame(id)), nil)
		for p := range plies {
			check(t, "job", stores[g%2].AddJob(ctx, id, p, "", 0), nil)
		}
	}
	var mu sync.Mutex
	claimed := map[int64]string{}
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, owner := stores[w%2], fmt.Sprint("w", w)
			for {
				j, _, err := s.ClaimJob(ctx, owner, time.Minute, 2)
				if err != nil {
					errs <- err
					return
				}
				if j == nil {
					return
				}
				mu.Lock()
				prev, dup := claimed[j.ID]
				claimed[j.ID] = owner
				mu.Unlock()
				if dup {
					errs <- fmt.Errorf("job %d claimed by %s and %s", j.ID, prev, owner)
					return
				}
				if err := s.DoneJob(ctx, j.ID, owner); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if len(claimed) != games*plies {
		t.Fatalf("%d jobs claimed; want %d", len(claimed), games*plies)
	}
	for g := range games {
		jobs, err := stores[1].Jobs(ctx, fmt.Sprint("g", g))
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range jobs {
			if !j.Done || j.Attempts != 1 {
				t.Fatalf("job %+v; want done at the first attempt", j)
			}
		}
	}
}

// testJobClients checks that the computer moves are shared between
// clients: the client with the fewest jobs in flight goes first, one at
// its limit waits, and clients "" are not counted.
func testJobClients(t *testing.T, open func() store.Store) {
	s := open()
	ctx := context.Background()
	for _, id := range []string{"a1", "a2", "a3", "b1", "n1", "n2"} {
		check(t, "create "+id, s.Create(ctx, NewGame(id)), nil)
	}
	// Client a queues three moves, then b one, then two of no known
	// client.
	for _, j := range []struct{ id, client string }{{"a1", "a"}, {"a2", "a"}, {"a3", "a"}, {"b1", "b"}, {"n1", ""}, {"n2", ""}} {
		check(t, "job "+j.id, s.AddJob(ctx, j.id, 0, j.client, 0), nil)
		time.Sleep(2 * time.Millisecond) // in this order
	}
	claim := func() string {
		t.Helper()
		j, _, err := s.ClaimJob(ctx, "w", time.Minute, 1)
		if err != nil {
			t.Fatal(err)
		}
		if j == nil {
			return ""
		}
		if j.Client != map[byte]string{'a': "a", 'b': "b", 'n': ""}[j.Game[0]] {
			t.Fatalf("job %s of client %q", j.Game, j.Client)
		}
		return j.Game
	}
	var got []string
	for range 5 {
		got = append(got, claim())
	}
	// a1 (oldest), then b1 (b has none in flight, a has one), then the
	// unknown client's, which no limit holds; a2 waits for a1.
	if want := []string{"a1", "b1", "n1", "n2", ""}; !reflect.DeepEqual(got, want) {
		t.Fatalf("claimed %v; want %v", got, want)
	}
	jobs, err := s.Jobs(ctx, "a1")
	if err != nil || len(jobs) != 1 {
		t.Fatalf("jobs of a1: %v, %v", jobs, err)
	}
	check(t, "done a1", s.DoneJob(ctx, jobs[0].ID, "w"), nil)
	if g := claim(); g != "a2" {
		t.Fatalf("after a1 is done, claimed %q; want a2", g)
	}
}
