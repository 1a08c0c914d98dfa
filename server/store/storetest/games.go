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

	"stax/server/store"
)

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
	check(t, "finish", s.Finish(ctx, "g2", 0, end, at(3)), nil)
	check(t, "finish again", s.Finish(ctx, "g2", 0, store.End{Outcome: "0-1 resignation", Resigned: 0}, at(4)), store.ErrConflict)
	check(t, "finish an unknown game", s.Finish(ctx, "nope", 0, end, at(4)), store.ErrConflict)
	check(t, "move g1", s.AppendMove(ctx, "g1", 0, "m", at(5), nil), nil)
	check(t, "finish at a ply the game has left", s.Finish(ctx, "g1", 0, end, at(6)), store.ErrConflict)
	check(t, "finish at a ply not reached", s.Finish(ctx, "g1", 2, end, at(6)), store.ErrConflict)
	g = mustGet(t, s, "g2")
	if g.Status != store.Finished || g.End != end || !g.Updated.Equal(at(3)) {
		t.Fatalf("after finish: %+v", g)
	}
	check(t, "move after finish", s.AppendMove(ctx, "g2", 0, "1a1-a2", at(5), nil), store.ErrConflict)
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
	check(t, "finish u2", s.Finish(ctx, "u2", 2, store.End{Outcome: "1/2-1/2-1/2-1/2 repetition", Resigned: -1}, at(30)), nil)
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
	check(t, "finish i3", s.Finish(ctx, "i3", 0, store.End{Outcome: "1-0 resignation", Resigned: 1}, at(4)), nil)
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
	check(t, "finish r2", s.Finish(ctx, "r2", 0, store.End{Outcome: "1-0 resignation", Resigned: 1}, at(30)), nil)
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
	check(t, "finish", s.Finish(ctx, want[3], 1, store.End{Outcome: "1-0 resignation", Resigned: 1}, at(40)), nil)
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

func testTakeBack(t *testing.T, open func() store.Store) {
	s := open()
	ctx := context.Background()
	check(t, "create", s.Create(ctx, NewGame("g")), nil)
	check(t, "take back with no move", s.TakeBack(ctx, "g", 0), store.ErrConflict)
	for p, m := range []string{"a", "b", "c"} {
		check(t, "move", s.AppendMove(ctx, "g", p, m, at(p), nil), nil)
	}
	check(t, "take back a move that is not the last", s.TakeBack(ctx, "g", 1), store.ErrConflict)
	check(t, "take back a ply past the end", s.TakeBack(ctx, "g", 3), store.ErrConflict)
	check(t, "take back the last move", s.TakeBack(ctx, "g", 2), nil)
	g := mustGet(t, s, "g")
	if g.Ply != 2 || !reflect.DeepEqual(g.Moves, []string{"a", "b"}) || len(g.MoveTimes) != 2 {
		t.Fatalf("after the takeback: ply %d moves %q times %v", g.Ply, g.Moves, g.MoveTimes)
	}
	check(t, "play again at the ply taken back", s.AppendMove(ctx, "g", 2, "d", at(9), nil), nil)
	check(t, "finish", s.Finish(ctx, "g", 3, store.End{Outcome: "1-0 resignation; Black resigned", Resigned: 1}, at(10)), nil)
	check(t, "take back in a finished game", s.TakeBack(ctx, "g", 2), store.ErrConflict)
	check(t, "take back in an unknown game", s.TakeBack(ctx, "nope", 0), store.ErrConflict)
}

// onlyOne makes n calls of fn at once and fails the test unless exactly
// one succeeds and each other fails with lose.
func onlyOne(t *testing.T, what string, n int, lose error, fn func(i int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = fn(i)
		}()
	}
	wg.Wait()
	wins := 0
	for _, err := range errs {
		switch {
		case err == nil:
			wins++
		case !errors.Is(err, lose):
			t.Fatalf("%s: %v; want nil or %v", what, err, lose)
		}
	}
	if wins != 1 {
		t.Fatalf("%d of %d %s calls made at once succeeded; want exactly 1", wins, n, what)
	}
}

// testMoveFinishRace races a move and an ending (a flag, a resignation)
// at the same ply, from two stores when it can: exactly one of them is
// stored, and the game reads back as the winner left it.
func testMoveFinishRace(t *testing.T, open func() store.Store) {
	a, b := open(), open()
	ctx := context.Background()
	end := store.End{Outcome: "0-1 time; White ran out of time", Resigned: 0}
	moves, ends := 0, 0
	for round := range 40 {
		id := fmt.Sprint("race", round)
		check(t, "create", a.Create(ctx, NewGame(id)), nil)
		check(t, "first move", a.AppendMove(ctx, id, 0, "m0", at(1), nil), nil)
		var moveErr, finishErr error
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); moveErr = a.AppendMove(ctx, id, 1, "m1", at(2), nil) }()
		go func() { defer wg.Done(); finishErr = b.Finish(ctx, id, 1, end, at(2)) }()
		wg.Wait()
		g := mustGet(t, a, id)
		switch {
		case moveErr == nil && errors.Is(finishErr, store.ErrConflict):
			moves++
			if g.Status != store.Playing || len(g.Moves) != 2 {
				t.Fatalf("round %d: the move won but the game is %s with %d moves", round, g.Status, len(g.Moves))
			}
		case finishErr == nil && errors.Is(moveErr, store.ErrConflict):
			ends++
			if g.Status != store.Finished || len(g.Moves) != 1 || g.End != end {
				t.Fatalf("round %d: the ending won but the game is %s with %d moves, %+v", round, g.Status, len(g.Moves), g.End)
			}
		default:
			t.Fatalf("round %d: move %v, finish %v; want exactly one to be stored and the other a conflict", round, moveErr, finishErr)
		}
	}
	t.Logf("of 40 races, %d moves and %d endings won", moves, ends)
}
