package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"stax/games"
	"stax/server/httpx"
	"stax/server/store"
)

// memStore is a store.Store in memory: enough to run the server without a
// database, and a check that the interface does not lean on SQLite.
type memStore struct {
	mu    sync.Mutex // guards games
	games map[string]*store.Game
}

func newMemStore() *memStore { return &memStore{games: map[string]*store.Game{}} }

func clone(g *store.Game) *store.Game {
	c := *g
	c.Seats = slices.Clone(g.Seats)
	c.Moves = slices.Clone(g.Moves)
	return &c
}

func (m *memStore) Create(ctx context.Context, g *store.Game) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.games[g.ID] != nil {
		return store.ErrConflict
	}
	m.games[g.ID] = clone(g)
	return nil
}

func (m *memStore) Get(ctx context.Context, id string) (*store.Game, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g := m.games[id]
	if g == nil {
		return nil, store.ErrNotFound
	}
	return clone(g), nil
}

func (m *memStore) AppendMove(ctx context.Context, id string, ply int, move string, at time.Time, end *store.End) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g := m.games[id]
	if g == nil || len(g.Moves) != ply || g.Status == store.Finished {
		return store.ErrConflict
	}
	g.Moves = append(g.Moves, move)
	g.Ply = len(g.Moves)
	if end != nil {
		g.Status, g.End, g.Updated = store.Finished, *end, at
	}
	return nil
}

func (m *memStore) Join(ctx context.Context, id string, seat int, tokenHash, name, user string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g := m.games[id]
	if g == nil || g.Seats[seat].Joined {
		return store.ErrConflict
	}
	g.Seats[seat].TokenHash, g.Seats[seat].Name, g.Seats[seat].User, g.Seats[seat].Joined = tokenHash, name, user, true
	g.Updated = at
	return nil
}

func (m *memStore) Finish(ctx context.Context, id string, ply int, end store.End, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g := m.games[id]
	if g == nil || g.Status == store.Finished || len(g.Moves) != ply {
		return store.ErrConflict
	}
	g.Status, g.End, g.Updated = store.Finished, end, at
	return nil
}

func (m *memStore) Unfinished(ctx context.Context) ([]*store.Game, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*store.Game
	for _, g := range m.games {
		if g.Status != store.Finished {
			out = append(out, clone(g))
		}
	}
	return out, nil
}

func (m *memStore) Idle(ctx context.Context, before time.Time, limit int) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for id, g := range m.games {
		last := g.Updated
		if n := len(g.MoveTimes); n > 0 && g.MoveTimes[n-1].After(last) {
			last = g.MoveTimes[n-1]
		}
		if g.Status != store.Finished && last.Before(before) && len(out) < limit {
			out = append(out, id)
		}
	}
	return out, nil
}

func (m *memStore) Recent(ctx context.Context, limit int, status string) ([]*store.Game, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*store.Game
	for _, g := range m.games {
		if status == "" || g.Status == status {
			c := clone(g)
			c.Moves = nil
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out[:min(limit, len(out))], nil
}

func (m *memStore) Beat(ctx context.Context, instance string, at time.Time, gone bool) error {
	return nil
}
func (m *memStore) Beats(ctx context.Context) ([]store.Beat, error)         { return nil, nil }
func (m *memStore) ForgetBeats(ctx context.Context, before time.Time) error { return nil }
func (m *memStore) AddOutage(ctx context.Context, o store.Outage) error     { return nil }
func (m *memStore) Outages(ctx context.Context, after time.Time) ([]store.Outage, error) {
	return nil, nil
}
func (m *memStore) Ping(ctx context.Context) error { return nil }
func (m *memStore) Close() error                   { return nil }

// newFuzzGame starts a server on a memStore with one Pogo game whose two
// seats a single client holds.
func newFuzzGame(t testing.TB, spec string) (*Live, *room, *client) {
	t.Helper()
	s, err := New(Config{Store: newMemStore(), Games: games.All()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	g, err := games.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	sg := &store.Game{ID: httpx.NewID(), Spec: spec, Status: store.Playing, End: store.End{Resigned: -1}}
	var seats []int
	for p := 0; p < g.Players(); p++ {
		sg.Seats = append(sg.Seats, store.Seat{Kind: "human", TokenHash: "h", Joined: true})
		seats = append(seats, p)
	}
	if err := s.store.Create(context.Background(), sg); err != nil {
		t.Fatal(err)
	}
	l, err := newRoom(sg, g, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &client{actor: actor{seats: seats}, Outbox: httpx.NewOutbox(1<<16, func() { t.Fatal("client too slow") })}
	l.subs[c] = struct{}{}
	return s, l, c
}

// FuzzMessage sends arbitrary messages to a game: the server never panics,
// answers each message, and the game it holds always agrees with the store
// and with a replay of its moves.
func FuzzMessage(f *testing.F) {
	seeds := []string{
		`{"type":"move","move":"1a1-a2"}`,         // a legal first move
		`{"type":"move","move":"1a1-a2","ply":0}`, // with its ply
		`{"type":"move","move":"1a1-a2","ply":7}`, // a stale ply
		`{"type":"move","move":"1a1-c3"}`,         // illegal
		`{"type":"move","move":"9z9-z9"}`,         // not notation
		`{"type":"move"}`,                         // no move
		`{"type":"resign"}`,                       // resign the seat to move
		`{"type":"resign","seat":1}`,              // resign another seat
		`{"type":"resign","seat":-3}`,             // a seat that does not exist
		`{"type":"dance"}`,                        // unknown type
		`{"type":"move","move":"1a1-a2"`,          // truncated
		`[1,2,3]`,                                 // not an object
		"\x00\xff",                                // not JSON
	}
	for _, s := range seeds {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		s, l, c := newFuzzGame(t, "pogo")
		for _, msg := range []string{a, b, a} {
			before := c.Len()
			handlers{s}.handleMessage(l, c, true, []byte(msg))
			if c.Len() == before {
				t.Fatalf("no answer to %q", msg)
			}
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		sg, err := s.store.Get(context.Background(), l.id)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(l.notes); got != fmt.Sprint(sg.Moves) {
			t.Fatalf("live moves %s; stored %s", got, fmt.Sprint(sg.Moves))
		}
		if l.h.Over() != (sg.Status == store.Finished) {
			t.Fatalf("live over %v; stored status %s", l.h.Over(), sg.Status)
		}
		again, err := newRoom(sg, l.g, nil)
		if err != nil {
			t.Fatal(err)
		}
		if again.h.State().String() != l.h.State().String() || again.h.Outcome() != l.h.Outcome() {
			t.Fatalf("replay %s %v; live %s %v", again.h.State(), again.h.Outcome(), l.h.State(), l.h.Outcome())
		}
		var st State
		if err := json.Unmarshal(l.stateMsg()[len(`{"type":"state","state":`):len(l.stateMsg())-1], &st); err != nil {
			t.Fatalf("state message: %v", err)
		}
	})
}

// TestSlowClient checks that a client whose queue is full is closed once
// and then gets nothing more, without blocking the sender.
func TestSlowClient(t *testing.T) {
	var closed int
	c := &client{Outbox: httpx.NewOutbox(2, func() { closed++ })}
	for i := 0; i < 5; i++ {
		c.send([]byte("x"))
	}
	if closed != 1 || c.Len() != 2 {
		t.Fatalf("slow called %d times, %d queued; want 1 and 2", closed, c.Len())
	}
}

// TestUndoLast checks that taking back a move whose commit failed restores
// the JSON arrays exactly.
func TestUndoLast(t *testing.T) {
	_, l, _ := newFuzzGame(t, "diam")
	for i := 0; i < 6; i++ {
		st := l.h.State()
		mv := st.FormatMove(st.Legal(nil)[0])
		beforeMoves, beforePos := string(l.movesJSON), string(l.positionsJSON)
		if _, err := l.applyText(mv); err != nil {
			t.Fatal(err)
		}
		l.undoLast()
		if string(l.movesJSON) != beforeMoves || string(l.positionsJSON) != beforePos {
			t.Fatalf("after undo: %s %s; want %s %s", l.movesJSON, l.positionsJSON, beforeMoves, beforePos)
		}
		l.applyText(mv)
	}
	var moves, positions []string
	if err := json.Unmarshal(append(l.movesJSON, ']'), &moves); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(append(l.positionsJSON, ']'), &positions); err != nil {
		t.Fatal(err)
	}
	if len(moves) != 6 || len(positions) != 7 || positions[6] != l.h.State().String() {
		t.Fatalf("moves %v positions %v", moves, positions)
	}
}

// TestIDs checks the form of game ids and secrets.
func TestIDs(t *testing.T) {
	for i := 0; i < 100; i++ {
		if id := httpx.NewID(); !httpx.ValidID(id) {
			t.Fatalf("newID() = %q is not valid", id)
		}
		if s := httpx.NewSecret(); len(s) != 32 {
			t.Fatalf("newSecret() = %q; want 32 hex digits", s)
		}
	}
	for _, id := range []string{"", "abc", "ABCDEFGHIJKLMNOP", "abcdefghijklmno1", "../../etc/passwd"} {
		if httpx.ValidID(id) {
			t.Errorf("validID(%q) = true", id)
		}
	}
}

func (m *memStore) List(ctx context.Context, after string, limit int) ([]*store.Game, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*store.Game
	for id, g := range m.games {
		if id > after {
			out = append(out, clone(g))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out[:min(limit, len(out))], nil
}

func (m *memStore) TakeBack(ctx context.Context, id string, ply int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g := m.games[id]
	if g == nil || g.Status == store.Finished || len(g.Moves) != ply+1 {
		return store.ErrConflict
	}
	g.Moves = g.Moves[:ply]
	if len(g.MoveTimes) > ply {
		g.MoveTimes = g.MoveTimes[:ply]
	}
	g.Ply = ply
	return nil
}

// The memStore is one process's store for human games: it reports no
// changes (the server knows its own) and queues no computer moves.
func (m *memStore) Watch(ctx context.Context, fn func(store.Event)) error { return nil }
func (m *memStore) Announce(ctx context.Context, ev store.Event) error    { return nil }
func (m *memStore) AddJob(ctx context.Context, id string, ply int, client string, delay time.Duration) error {
	return errors.New("memStore: no computer moves")
}
func (m *memStore) ClaimJob(ctx context.Context, owner string, lease time.Duration, perClient int) (*store.Job, time.Duration, error) {
	return nil, 0, nil
}
func (m *memStore) DoneJob(ctx context.Context, id int64, owner string) error {
	return store.ErrConflict
}
func (m *memStore) ReleaseJob(ctx context.Context, id int64, owner string) error {
	return store.ErrConflict
}
func (m *memStore) Jobs(ctx context.Context, id string) ([]store.Job, error) { return nil, nil }

// TestClockLimits checks that a seat of a game without a clock has no
// limits from it (clock.Clock.Limits tests the arithmetic).
func TestClockLimits(t *testing.T) {
	if got := (&room{}).clockLimits(0, time.Now()); !got.IsZero() {
		t.Errorf("clockLimits without a clock = %+v; want none", got)
	}
}
