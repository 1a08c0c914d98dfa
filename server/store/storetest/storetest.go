// Package storetest is the conformance kit every store.Store implementation
// passes: its tests call [Run] with a way to make an empty database.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"stax/game"
	"stax/server/store"
)

// Opener makes a new, empty database for one test and returns a function
// that opens a store on it. The function may be called several times, also
// at once, and each store it returns is closed by the kit; a store opened
// after another was closed sees what the first one wrote.
type Opener func(t *testing.T) func() (store.Store, error)

// Run checks a store implementation against the behaviour the server relies
// on.
func Run(t *testing.T, newDB Opener) {
	tests := []struct {
		name string
		f    func(t *testing.T, open func() store.Store)
	}{
		{"CreateGet", testCreateGet},
		{"AppendMove", testAppendMove},
		{"ConcurrentAppend", testConcurrentAppend},
		{"JoinFinish", testJoinFinish},
		{"Unfinished", testUnfinished},
		{"Idle", testIdle},
		{"Recent", testRecent},
		{"Reopen", testReopen},
		{"ConcurrentOpen", testConcurrentOpen},
		{"ManyWriters", testManyWriters},
		{"List", testList},
		{"TakeBack", testTakeBack},
		{"Terms", testTerms},
		{"Users", testUsers},
		{"Sessions", testSessions},
		{"DeleteUser", testDeleteUser},
		{"Ratings", testRatings},
		{"ConcurrentRate", testConcurrentRate},
		{"Unrated", testUnrated},
		{"Watch", testWatch},
		{"Seeks", testSeeks},
		{"Jobs", testJobs},
		{"JobLease", testJobLease},
		{"ConcurrentClaims", testConcurrentClaims},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.f(t, opener(t, newDB))
		})
	}
	t.Run("Copy", func(t *testing.T) { testCopy(t, opener(t, newDB), opener(t, newDB)) })
}

// opener makes a new database and returns a function that opens a store on
// it, closed when the test ends.
func opener(t *testing.T, newDB Opener) func() store.Store {
	openDB := newDB(t)
	return func() store.Store {
		t.Helper()
		s, err := openDB()
		if err != nil {
			t.Fatalf("open store: %v", err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
}

// base is the time the kit's games are created at; stores keep times to
// the millisecond at least.
var base = time.UnixMilli(1_700_000_000_000).UTC()

func at(sec int) time.Time { return base.Add(time.Duration(sec) * time.Second) }

// NewGame returns a two-seat Pogo game with id: seat 0 joined by its
// creator, seat 1 open with an invite.
func NewGame(id string) *store.Game {
	return &store.Game{
		ID: id, Spec: "pogo", Status: store.Playing, Created: base, Updated: base,
		Seats: []store.Seat{
			{Kind: "human", Name: "alice", TokenHash: "t0-" + id, Joined: true},
			{Kind: "human", InviteHash: "i1-" + id},
		},
		End: store.End{Outcome: "*", Resigned: -1},
	}
}

func mustGet(t *testing.T, s store.Store, id string) *store.Game {
	t.Helper()
	g, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatalf("Get(%s): %v", id, err)
	}
	return g
}

func check(t *testing.T, what string, err, want error) {
	t.Helper()
	if want == nil && err != nil || want != nil && !errors.Is(err, want) {
		t.Fatalf("%s: %v; want %v", what, err, want)
	}
}

func testCreateGet(t *testing.T, open func() store.Store) {
	s := open()
	ctx := context.Background()
	g := NewGame("g1")
	check(t, "create", s.Create(ctx, g), nil)
	check(t, "create the same id", s.Create(ctx, NewGame("g1")), store.ErrConflict)
	got := mustGet(t, s, "g1")
	if d := store.Diff(got, g); d != "" {
		t.Fatalf("Get after Create: %s", d)
	}
	// A game created with moves, a start position and a four-seat table.
	g4 := &store.Game{
		ID: "g4", Spec: "diam(players=4,teams=true)", Start: "some position", Status: store.Playing,
		Created: at(1), Updated: at(2), Moves: []string{"r@3", "b@5"}, Ply: 2,
		Seats: []store.Seat{
			{Kind: "human", Name: "ann", TokenHash: "t", Joined: true},
			{Kind: "ai", Level: "easy", Joined: true},
			{Kind: "human", Name: "ann", TokenHash: "t", Joined: true},
			{Kind: "ai", Level: "hard", Joined: true},
		},
		End: store.End{Outcome: "*", Resigned: -1},
	}
	check(t, "create with moves", s.Create(ctx, g4), nil)
	if d := store.Diff(mustGet(t, s, "g4"), g4); d != "" {
		t.Fatalf("Get of a game created with moves: %s", d)
	}
	if got := mustGet(t, s, "g4").MoveTimes; len(got) != 2 || !got[0].Equal(at(1)) || !got[1].Equal(at(1)) {
		t.Fatalf("move times %v of moves created without times; want the creation time", got)
	}
	// Moves created with their times keep them.
	g6 := NewGame("g6")
	g6.Moves, g6.MoveTimes, g6.Ply = []string{"1a1-a2", "1a3-b3"}, []time.Time{at(7), at(9)}, 2
	check(t, "create with move times", s.Create(ctx, g6), nil)
	if d := store.Diff(mustGet(t, s, "g6"), g6); d != "" {
		t.Fatalf("Get of a game created with move times: %s", d)
	}
	check(t, "append after created moves", s.AppendMove(ctx, "g4", 2, "pass", at(3), nil), nil)
	if got := mustGet(t, s, "g4"); got.Ply != 3 || got.Moves[2] != "pass" {
		t.Fatalf("after append: ply %d moves %q", got.Ply, got.Moves)
	}
	// A game created without a result reads back as unfinished: "*".
	g5 := NewGame("g5")
	g5.End.Outcome = ""
	check(t, "create without a result", s.Create(ctx, g5), nil)
	if got := mustGet(t, s, "g5"); got.End.Outcome != "*" {
		t.Fatalf("outcome %q of a new game; want \"*\"", got.End.Outcome)
	}
	_, err := s.Get(ctx, "nope")
	check(t, "Get of an unknown id", err, store.ErrNotFound)
	// Text is kept exactly, whatever it holds.
	odd := NewGame("odd")
	odd.Seats[0].Name = "Zoë 'quote' \"dq\" \\ ; DROP TABLE games; 名前"
	check(t, "create odd name", s.Create(ctx, odd), nil)
	if got := mustGet(t, s, "odd"); got.Seats[0].Name != odd.Seats[0].Name {
		t.Fatalf("name %q; want %q", got.Seats[0].Name, odd.Seats[0].Name)
	}
	check(t, "ping", s.Ping(ctx), nil)
}

func testAppendMove(t *testing.T, open func() store.Store) {
	s := open()
	ctx := context.Background()
	check(t, "create", s.Create(ctx, NewGame("g")), nil)
	check(t, "move 0", s.AppendMove(ctx, "g", 0, "1a1-a2", at(1), nil), nil)
	check(t, "move 0 again", s.AppendMove(ctx, "g", 0, "1b1-b2", at(2), nil), store.ErrConflict)
	check(t, "move of an unknown game", s.AppendMove(ctx, "nope", 0, "1b1-b2", at(2), nil), store.ErrConflict)
	check(t, "move 1", s.AppendMove(ctx, "g", 1, "1a3-b3", at(3), nil), nil)
	g := mustGet(t, s, "g")
	if g.Ply != 2 || !reflect.DeepEqual(g.Moves, []string{"1a1-a2", "1a3-b3"}) || g.Status != store.Playing {
		t.Fatalf("after two moves: ply %d moves %q status %s", g.Ply, g.Moves, g.Status)
	}
	// A move does not change the update time; a finishing move does.
	if !g.Updated.Equal(base) {
		t.Fatalf("updated %v after moves; want %v", g.Updated, base)
	}
	end := store.End{Outcome: "1-0 rules scores 20,16; every stack topped by White", Resigned: -1}
	check(t, "finishing move", s.AppendMove(ctx, "g", 2, "2a2-a3", at(4), &end), nil)
	g = mustGet(t, s, "g")
	if g.Status != store.Finished || g.End != end || g.Ply != 3 || !g.Updated.Equal(at(4)) {
		t.Fatalf("after the finishing move: %+v", g)
	}
	// A finishing move that conflicts leaves the game as it was.
	check(t, "conflicting finishing move", s.AppendMove(ctx, "g", 1, "x", at(5), &store.End{Outcome: "0-1 rules", Resigned: -1}), store.ErrConflict)
	if g2 := mustGet(t, s, "g"); store.Diff(g2, g) != "" {
		t.Fatalf("a failed finishing move changed the game: %s", store.Diff(g2, g))
	}
}

// testConcurrentAppend races many writers for each ply of one game, through
// one store and through two: exactly one wins each ply and the others get
// ErrConflict.
func testConcurrentAppend(t *testing.T, open func() store.Store) {
	one := open()
	t.Run("one store", func(t *testing.T) { raceAppends(t, "race1", []store.Store{one}) })
	t.Run("two stores", func(t *testing.T) { raceAppends(t, "race2", []store.Store{one, open()}) })
}

func raceAppends(t *testing.T, id string, stores []store.Store) {
	ctx := context.Background()
	check(t, "create", stores[0].Create(ctx, NewGame(id)), nil)
	const plies, racers = 10, 8
	for ply := 0; ply < plies; ply++ {
		var wins, conflicts atomic.Int32
		var wg sync.WaitGroup
		errs := make(chan error, racers)
		start := make(chan struct{})
		for r := 0; r < racers; r++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				err := stores[r%len(stores)].AppendMove(ctx, id, ply, fmt.Sprintf("m%d-%d", ply, r), at(ply), nil)
				switch {
				case err == nil:
					wins.Add(1)
				case errors.Is(err, store.ErrConflict):
					conflicts.Add(1)
				default:
					errs <- err
				}
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("ply %d: %v", ply, err)
		}
		if wins.Load() != 1 || conflicts.Load() != racers-1 {
			t.Fatalf("ply %d: %d writers won and %d got a conflict; want 1 and %d", ply, wins.Load(), conflicts.Load(), racers-1)
		}
	}
	g := mustGet(t, stores[len(stores)-1], id)
	if g.Ply != plies || len(g.Moves) != plies {
		t.Fatalf("ply %d, %d moves; want %d", g.Ply, len(g.Moves), plies)
	}
	for i, m := range g.Moves {
		var p, r int
		if _, err := fmt.Sscanf(m, "m%d-%d", &p, &r); err != nil || p != i {
			t.Fatalf("move %d is %q", i, m)
		}
	}
}

func testJoinFinish(t *testing.T, open func() store.Store) {
	s := open()
	ctx := context.Background()
	check(t, "create g1", s.Create(ctx, NewGame("g1")), nil)
	check(t, "create g2", s.Create(ctx, NewGame("g2")), nil)
	check(t, "join", s.Join(ctx, "g1", 1, "t1", "bob", "", at(1)), nil)
	check(t, "join again", s.Join(ctx, "g1", 1, "t2", "eve", "", at(2)), store.ErrConflict)
	check(t, "join a joined seat", s.Join(ctx, "g1", 0, "t2", "eve", "", at(2)), store.ErrConflict)
	check(t, "join an unknown seat", s.Join(ctx, "g1", 5, "t2", "eve", "", at(2)), store.ErrConflict)
	check(t, "join an unknown game", s.Join(ctx, "nope", 1, "t2", "eve", "", at(2)), store.ErrConflict)
	g := mustGet(t, s, "g1")
	want := store.Seat{Kind: "human", Name: "bob", TokenHash: "t1", InviteHash: "i1-g1", Joined: true}
	if g.Seats[1] != want || !g.Updated.Equal(at(1)) {
		t.Fatalf("after join: seat %+v updated %v; want %+v, %v", g.Seats[1], g.Updated, want, at(1))
	}
	end := store.End{Outcome: "1-0 resignation; Black resigned", Resigned: 1}
	check(t, "finish", s.Finish(ctx, "g2", end, at(3)), nil)
	check(t, "finish again", s.Finish(ctx, "g2", store.End{Outcome: "0-1 resignation", Resigned: 0}, at(4)), store.ErrConflict)
	check(t, "finish an unknown game", s.Finish(ctx, "nope", end, at(4)), store.ErrConflict)
	g = mustGet(t, s, "g2")
	if g.Status != store.Finished || g.End != end || !g.Updated.Equal(at(3)) {
		t.Fatalf("after finish: %+v", g)
	}
	check(t, "move after finish", s.AppendMove(ctx, "g2", 0, "1a1-a2", at(5), nil), nil)
}

// testUnfinished checks what the server resumes on start: every game still
// being played, with its seats and moves, oldest first.
func testUnfinished(t *testing.T, open func() store.Store) {
	s := open()
	ctx := context.Background()
	for i := range 5 {
		g := NewGame(fmt.Sprint("u", i))
		g.Created = at(10 - i)
		check(t, "create", s.Create(ctx, g), nil)
		for p := range i {
			check(t, "move", s.AppendMove(ctx, g.ID, p, fmt.Sprint("m", p), at(20), nil), nil)
		}
	}
	check(t, "finish u2", s.Finish(ctx, "u2", store.End{Outcome: "1/2-1/2-1/2-1/2 repetition", Resigned: -1}, at(30)), nil)
	un, err := s.Unfinished(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, g := range un {
		ids = append(ids, g.ID)
		want := mustGet(t, s, g.ID)
		if d := store.Diff(g, want); d != "" {
			t.Fatalf("Unfinished %s differs from Get: %s", g.ID, d)
		}
	}
	if !reflect.DeepEqual(ids, []string{"u4", "u3", "u1", "u0"}) {
		t.Fatalf("Unfinished = %v; want [u4 u3 u1 u0] (oldest first, u2 finished)", ids)
	}
}

// testIdle checks the list of games to expire: unfinished, with no
// creation, join or move since a time, least recently changed first.
func testIdle(t *testing.T, open func() store.Store) {
	s := open()
	ctx := context.Background()
	// i0 created at 0 and never moved in; i1 created at 1, moved at 50;
	// i2 created at 2, joined at 40; i3 created at 3, finished at 4; i4
	// created at 5.
	for i, c := range []int{0, 1, 2, 3, 5} {
		g := NewGame(fmt.Sprint("i", i))
		g.Created, g.Updated = at(c), at(c)
		g.Seats[1].Joined = false
		check(t, "create", s.Create(ctx, g), nil)
	}
	check(t, "move i1", s.AppendMove(ctx, "i1", 0, "m0", at(50), nil), nil)
	check(t, "join i2", s.Join(ctx, "i2", 1, "th", "bob", "", at(40)), nil)
	check(t, "finish i3", s.Finish(ctx, "i3", store.End{Outcome: "1-0 resignation", Resigned: 1}, at(4)), nil)
	for _, tt := range []struct {
		before, limit int
		want          string
	}{
		{0, 10, ""},
		{1, 10, "i0"},
		{4, 10, "i0"}, // i1 was moved in at 50, i2 joined at 40
		{45, 10, "i0 i4 i2"},
		{45, 1, "i0"},
		{100, 10, "i0 i1 i4 i2"},
	} {
		ids, err := s.Idle(ctx, at(tt.before), tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(ids, " "); got != tt.want {
			t.Errorf("Idle(before %d, limit %d) = %q; want %q", tt.before, tt.limit, got, tt.want)
		}
	}
}

// testRecent checks the lists of recent games: most recently updated first,
// filtered by status, bounded, with seats and ply but no moves.
func testRecent(t *testing.T, open func() store.Store) {
	s := open()
	ctx := context.Background()
	for i := range 6 {
		g := NewGame(fmt.Sprint("r", i))
		g.Created, g.Updated = at(i), at(i)
		check(t, "create", s.Create(ctx, g), nil)
	}
	check(t, "move", s.AppendMove(ctx, "r0", 0, "m", at(50), nil), nil)
	check(t, "join r1", s.Join(ctx, "r1", 1, "t", "bob", "", at(40)), nil)
	check(t, "finish r2", s.Finish(ctx, "r2", store.End{Outcome: "1-0 resignation", Resigned: 1}, at(30)), nil)
	check(t, "finish r3", s.AppendMove(ctx, "r3", 0, "m", at(35), &store.End{Outcome: "0-1 rules", Resigned: -1}), nil)
	ids := func(gs []*store.Game) []string {
		var out []string
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return out
	}
	for _, tc := range []struct {
		limit  int
		status string
		want   []string
	}{
		{10, "", []string{"r1", "r3", "r2", "r5", "r4", "r0"}},
		{3, "", []string{"r1", "r3", "r2"}},
		{10, store.Finished, []string{"r3", "r2"}},
		{10, store.Playing, []string{"r1", "r5", "r4", "r0"}},
		{1, store.Playing, []string{"r1"}},
	} {
		gs, err := s.Recent(ctx, tc.limit, tc.status)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ids(gs), tc.want) {
			t.Fatalf("Recent(%d, %q) = %v; want %v", tc.limit, tc.status, ids(gs), tc.want)
		}
		for _, g := range gs {
			want := mustGet(t, s, g.ID)
			if g.Moves != nil {
				t.Fatalf("Recent returned the moves of %s", g.ID)
			}
			want.Moves = nil
			if d := store.Diff(g, want); d != "" {
				t.Fatalf("Recent %s differs from Get: %s", g.ID, d)
			}
		}
	}
}

// testReopen checks that everything written survives closing the store.
func testReopen(t *testing.T, open func() store.Store) {
	s := open()
	ctx := context.Background()
	check(t, "create", s.Create(ctx, NewGame("g")), nil)
	check(t, "move", s.AppendMove(ctx, "g", 0, "1a1-a2", at(1), nil), nil)
	check(t, "join", s.Join(ctx, "g", 1, "t1", "bob", "", at(2)), nil)
	want := mustGet(t, s, "g")
	check(t, "close", s.Close(), nil)
	s2 := open()
	if d := store.Diff(mustGet(t, s2, "g"), want); d != "" {
		t.Fatalf("after reopening: %s", d)
	}
	check(t, "move after reopening", s2.AppendMove(ctx, "g", 1, "1a3-b3", at(3), nil), nil)
}

// testConcurrentOpen opens several stores on a new database at once: the
// migrations run once, under a lock, and every store works.
func testConcurrentOpen(t *testing.T, open func() store.Store) {
	const n = 4
	stores := make([]store.Store, n)
	var wg sync.WaitGroup
	for i := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stores[i] = open()
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	ctx := context.Background()
	for i, s := range stores {
		check(t, "create", s.Create(ctx, NewGame(fmt.Sprint("c", i))), nil)
	}
	for _, s := range stores {
		if gs, err := s.Recent(ctx, 10, ""); err != nil || len(gs) != n {
			t.Fatalf("Recent: %d games, %v; want %d", len(gs), err, n)
		}
	}
}

// testManyWriters writes many games at once: every write is committed and
// answered, and a failing write fails alone.
func testManyWriters(t *testing.T, open func() store.Store) {
	s := open()
	ctx := context.Background()
	games, plies := 40, 15
	if testing.Short() {
		games, plies = 10, 10
	}
	var wg sync.WaitGroup
	errs := make(chan error, games)
	for i := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprint("w", i)
			if err := s.Create(ctx, NewGame(id)); err != nil {
				errs <- err
				return
			}
			for p := range plies {
				if err := s.AppendMove(ctx, id, p, "m", at(p), nil); err != nil {
					errs <- err
					return
				}
			}
			if err := s.AppendMove(ctx, id, 0, "m", at(0), nil); !errors.Is(err, store.ErrConflict) {
				errs <- fmt.Errorf("conflicting move: %v; want ErrConflict", err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	un, err := s.Unfinished(ctx)
	if err != nil || len(un) != games {
		t.Fatalf("Unfinished: %d games, %v; want %d", len(un), err, games)
	}
	for _, g := range un {
		if len(g.Moves) != plies || g.Ply != plies {
			t.Fatalf("game %s has %d moves (ply %d); want %d", g.ID, len(g.Moves), g.Ply, plies)
		}
	}
}

// testList walks every game a page at a time, in id order.
func testList(t *testing.T, open func() store.Store) {
	s := open()
	ctx := context.Background()
	var want []string
	for i := range 25 {
		// Ids whose byte order differs from a natural language order.
		id := fmt.Sprintf("%c%02d", "aB_z"[i%4], i)
		want = append(want, id)
		g := NewGame(id)
		check(t, "create", s.Create(ctx, g), nil)
		check(t, "move", s.AppendMove(ctx, id, 0, "m", at(i), nil), nil)
	}
	check(t, "finish", s.Finish(ctx, want[3], store.End{Outcome: "1-0 resignation", Resigned: 1}, at(40)), nil)
	sort.Strings(want)
	var got []string
	after := ""
	for {
		gs, err := s.List(ctx, after, 7)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			got = append(got, g.ID)
			if d := store.Diff(g, mustGet(t, s, g.ID)); d != "" || len(g.MoveTimes) != 1 {
				t.Fatalf("List %s differs from Get: %s (move times %v)", g.ID, d, g.MoveTimes)
			}
		}
		if len(gs) < 7 {
			break
		}
		after = gs[len(gs)-1].ID
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("List walked %v; want %v", got, want)
	}
}

// testCopy copies one store into another: every game and account (with
// its ratings and rating history) arrives identical, so do the marks of
// the games rated, copying again skips them all, and a clashing game or
// account stops the copy.
func testCopy(t *testing.T, openFrom, openTo func() store.Store) {
	from, to := openFrom(), openTo()
	ctx := context.Background()
	fa, ta := accounts(t, from), accounts(t, to)
	const users = 205 // more than one page
	for i := range users {
		u := fmt.Sprintf("u%03d", i)
		check(t, "create user", fa.CreateUser(ctx, &store.User{ID: u, Name: "N" + u, PasswordHash: "h" + u, Created: at(i)}), nil)
		check(t, "session", fa.CreateSession(ctx, &store.Session{TokenHash: "s" + u, UserID: u, Created: at(i), Expires: at(i + 1000)}), nil)
	}
	rate := func(g string, when int, pool string, games int, users ...string) {
		var rs []store.Rating
		for k, u := range users {
			rs = append(rs, store.Rating{UserID: u, Pool: pool, Rating: 1500.25 + float64(k*when), Deviation: 200.5, Volatility: 0.06, Games: games})
		}
		check(t, "rate "+g, fa.Rate(ctx, g, at(when), rs), nil)
	}
	rate("c004", 5, "pogo", 1, "u001", "u002")
	rate("c014", 6, "pogo", 2, "u001", "u002")
	rate("c024", 7, "diam", 1, "u001", "u200")
	check(t, "mark c034 rated", fa.Rate(ctx, "c034", at(8), nil), nil)
	var moves int
	for i := range 230 { // more than one page
		g := NewGame(fmt.Sprintf("c%03d", i))
		g.Created, g.Updated = at(i), at(i)
		check(t, "create", from.Create(ctx, g), nil)
		for p := range i % 5 {
			var end *store.End
			if i%10 == 4 && p == 3 {
				end = &store.End{Outcome: "0-1 rules; Black wins", Resigned: -1}
			}
			check(t, "move", from.AppendMove(ctx, g.ID, p, fmt.Sprint("m", p), at(i+p), end), nil)
			moves++
		}
		if i%7 == 0 {
			check(t, "join", from.Join(ctx, g.ID, 1, "t", "bob", "u-bob", at(i+1)), nil)
		}
	}
	n, err := store.Copy(ctx, from, to, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n.Games != 230 || n.Moves != moves || n.Checked != 230 || n.Skipped != 0 {
		t.Fatalf("copied %+v; want 230 games, %d moves, 230 checked", n, moves)
	}
	if n.Accounts != users || n.AccountsChecked != users || n.Ratings != 4 || n.RatingPoints != 6 || n.RatedGames != 4 {
		t.Fatalf("copied %+v; want %d accounts with 4 ratings and 6 points of history, 4 rated games", n, users)
	}
	for _, u := range []string{"u001", "u200"} {
		want, err := fa.Ratings(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := ta.Ratings(ctx, u); err != nil || !sameRatings(got, want) {
			t.Fatalf("ratings of %s in the copy: %+v, %v; want %+v", u, got, err, want)
		}
	}
	if h, err := ta.RatingHistory(ctx, "u001", "pogo"); err != nil || len(h) != 2 || h[1].GameID != "c014" || !h[1].At.Equal(at(6)) || h[1].Rating != 1500.25 {
		t.Fatalf("rating history of u001 in the copy: %+v, %v", h, err)
	}
	if u, err := ta.UserByName(ctx, "nu007"); err != nil || u.ID != "u007" || u.PasswordHash != "hu007" || !u.Created.Equal(at(7)) {
		t.Fatalf("account u007 in the copy: %+v, %v", u, err)
	}
	// Sessions stay behind: everyone signs in again on the new database.
	check(t, "session in the copy", func() error { _, err := ta.Session(ctx, "su007"); return err }(), store.ErrNotFound)
	// The marks of the games rated came along: none is rated twice.
	check(t, "rate c034 in the copy", ta.Rate(ctx, "c034", at(9), nil), store.ErrConflict)
	n, err = store.Copy(ctx, from, to, nil)
	if err != nil || n.Games != 0 || n.Skipped != 230 || n.Checked != 230 || n.Accounts != 0 || n.AccountsSkipped != users || n.RatedGames != 4 {
		t.Fatalf("copying again: %+v, %v; want 230 games and %d accounts skipped", n, err, users)
	}
	check(t, "create a clashing account", ta.CreateUser(ctx, &store.User{ID: "v1", Name: "Nu3", PasswordHash: "h", Created: base}), nil)
	check(t, "create it in the source", fa.CreateUser(ctx, &store.User{ID: "u3", Name: "Nu3", PasswordHash: "h", Created: base}), nil)
	if _, err := store.Copy(ctx, from, to, nil); err == nil || !strings.Contains(err.Error(), "another account with this name") {
		t.Fatalf("copy onto a destination holding another account of the same name: %v", err)
	}
	check(t, "delete it", ta.DeleteUser(ctx, "v1", "gone"), nil)
	check(t, "change a password in the source", fa.SetPassword(ctx, "u005", "other"), nil)
	if _, err := store.Copy(ctx, from, to, nil); err == nil || !strings.Contains(err.Error(), "u005") {
		t.Fatalf("copy onto a destination holding a different account: %v; want an error naming it", err)
	}
	check(t, "change it back", fa.SetPassword(ctx, "u005", "hu005"), nil)
	if n, err := store.Copy(ctx, from, to, nil); err != nil || n.Accounts != 1 {
		t.Fatalf("copy of one new account: %+v, %v", n, err)
	}
	check(t, "create in the destination", to.Create(ctx, NewGame("zzz")), nil)
	if _, err := store.Copy(ctx, from, to, nil); err == nil || !strings.Contains(err.Error(), "zzz") {
		t.Fatalf("copy onto a destination holding another game: %v; want an error naming it", err)
	}
	check(t, "move in the source", from.AppendMove(ctx, "c001", 1, "m1", at(99), nil), nil)
	if _, err := store.Copy(ctx, from, to, nil); err == nil || !strings.Contains(err.Error(), "c001") {
		t.Fatalf("copy onto a destination holding a different game: %v; want an error naming it", err)
	}
}

// sameRatings reports whether two lists of ratings are the same, times
// compared as instants.
func sameRatings(a, b []store.Rating) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x := a[i]
		if !x.Updated.Equal(b[i].Updated) {
			return false
		}
		x.Updated = b[i].Updated
		if x != b[i] {
			return false
		}
	}
	return true
}

// LegacyEndings are the endings of finished games as the stores kept them
// before the outcome column (in the result, reason and detail columns),
// each with the outcome text the migration makes of it. Each store's tests
// write them into a database at the version before that migration, migrate
// it and check them with CheckLegacyEndings.
var LegacyEndings = []struct{ Result, Reason, Detail, Outcome string }{
	{"1-0", "rules", "every stack topped by White", "1-0 rules; every stack topped by White"},
	{"0-1", "rules", "", "0-1 rules"},
	{"1/2-1/2", "ply cap", "", "1/2-1/2 ply-cap"},
	{"1/2-1/2", "repetition", "", "1/2-1/2 repetition"},
	{"0-1-0-1", "resignation", "Red resigned", "0-1-0-1 resignation; Red resigned"},
	{"1-0", "forfeit", "the computer found no move: out of ideas", "1-0 forfeit; the computer found no move: out of ideas"},
	{"0-1", "time", "no move within 30s", "0-1 time; no move within 30s"},
}

// LegacyID returns the id of the game of LegacyEndings[i].
func LegacyID(i int) string { return fmt.Sprintf("legacy%d", i) }

// CheckLegacyEndings checks that a migrated store reads every ending of
// LegacyEndings as its outcome text, which game.ParseOutcome reads, and
// the unfinished game "legacy-playing" as "*".
func CheckLegacyEndings(t *testing.T, s store.Store) {
	t.Helper()
	for i, le := range LegacyEndings {
		g := mustGet(t, s, LegacyID(i))
		if g.End.Outcome != le.Outcome {
			t.Errorf("%s (%s, %s, %q): outcome %q; want %q", LegacyID(i), le.Result, le.Reason, le.Detail, g.End.Outcome, le.Outcome)
		}
		if _, err := game.ParseOutcome(g.End.Outcome); err != nil {
			t.Errorf("%s: %v", LegacyID(i), err)
		}
	}
	if g := mustGet(t, s, "legacy-playing"); g.End.Outcome != "*" {
		t.Errorf("an unfinished game's outcome after the migration: %q; want \"*\"", g.End.Outcome)
	}
}

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
	check(t, "job", writer.AddJob(ctx, "g", 1, 0), nil)
	check(t, "move 1", writer.AppendMove(ctx, "g", 1, "2c3-b3", at(3), nil), nil)
	check(t, "take back", writer.TakeBack(ctx, "g", 1), nil)
	check(t, "move 1 again", writer.AppendMove(ctx, "g", 1, "2c3-c1", at(3), &store.End{Outcome: "0-1 rules", Resigned: -1}), nil)
	check(t, "finish h", writer.Finish(ctx, "h", store.End{Outcome: "1-0 resignation", Resigned: 1}, at(4)), nil)
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
	check(t, "move after the watch", writer.AppendMove(context.Background(), "h", 0, "m", at(5), nil), nil)
	select {
	case ev := <-events:
		t.Fatalf("event %+v after the watch ended", ev)
	case <-time.After(200 * time.Millisecond):
	}
}

func claim(t *testing.T, s store.Store, owner string, lease time.Duration) (*store.Job, time.Duration) {
	t.Helper()
	j, wait, err := s.ClaimJob(context.Background(), owner, lease)
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
	check(t, "job", s.AddJob(ctx, "g", 0, 0), nil)
	check(t, "the same job", s.AddJob(ctx, "g", 0, 0), nil)
	check(t, "job of an unknown game", s.AddJob(ctx, "nope", 0, 0), store.ErrConflict)
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
	check(t, "the same job once done", s.AddJob(ctx, "g", 0, 0), nil)
	if j2, _ := claim(t, s, "w2", time.Minute); j2 == nil || j2.ID != j.ID || j2.Attempts != 1 {
		t.Fatalf("claim after queuing a done job again = %+v; want job %d, first attempt", j2, j.ID)
	}
	check(t, "done", s.DoneJob(ctx, j.ID, "w2"), nil)
	// A delayed job waits for its time.
	check(t, "delayed job", s.AddJob(ctx, "g", 1, 400*time.Millisecond), nil)
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
	check(t, "job", s.AddJob(ctx, "g", 0, 0), nil)
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
	check(t, "job", s.AddJob(ctx, "g", 1, 0), nil)
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
			check(t, "job", stores[g%2].AddJob(ctx, id, p, 0), nil)
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
				j, _, err := s.ClaimJob(ctx, owner, time.Minute)
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
