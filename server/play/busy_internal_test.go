package play

import (
	"context"
	"testing"
	"time"

	"stax/games"
	"stax/server/httpx"
	"stax/server/store"
)

// TestBusyGameHoldsNoOther checks that a game whose lock is held (its move
// being committed, which may take long on a busy database) holds up only
// its own players: the server's statistics and its janitor, which look at
// every game, wait for it without keeping the other games from being found
// (as a move relayed from another instance finds its game).
func TestBusyGameHoldsNoOther(t *testing.T) {
	s, err := New(Config{Store: newMemStore(), Games: games.All(), SweepEvery: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	g, err := games.Load("pogo")
	if err != nil {
		t.Fatal(err)
	}
	var rooms []*room
	for range 2 {
		sg := &store.Game{ID: httpx.NewID(), Spec: "pogo", Status: store.Playing, End: store.End{Resigned: -1},
			Seats: []store.Seat{{Kind: "human", Joined: true}, {Kind: "human", Joined: true}}}
		if err := s.store.Create(context.Background(), sg); err != nil {
			t.Fatal(err)
		}
		l, err := newRoom(sg, g, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.mu.Lock()
		s.games[l.id] = l
		s.mu.Unlock()
		rooms = append(rooms, l)
	}
	busy, other := rooms[0], rooms[1]

	busy.mu.Lock()
	done := make(chan string, 2)
	go func() { s.Live(); done <- "statistics" }()
	go func() { s.sweep(s.now()); done <- "janitor" }()
	time.Sleep(50 * time.Millisecond) // both reach the busy game

	found := make(chan *room, 1)
	go func() { found <- s.held(other.id) }()
	var l *room
	select {
	case l = <-found:
	case <-time.After(5 * time.Second):
		t.Error("looking up a game waited for the statistics and the janitor, which wait for another, busy game")
	}
	select {
	case who := <-done:
		t.Errorf("the %s finished while a game it must look at was busy", who)
	default:
	}
	busy.mu.Unlock()
	for range 2 {
		<-done
	}
	if l == nil {
		l = <-found
	}
	if l != other {
		t.Errorf("looking up the other game found %v; want it", l)
	}
}
