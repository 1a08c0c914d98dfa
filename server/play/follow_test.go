package play

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"stax/games"
	"stax/server/store"
)

// followGame starts live play on a memStore, on a clock that moves only
// when told, with a Pogo game between the accounts ann (seat 0) and bob
// (seat 1).
func followGame(t *testing.T) (s *Live, id string, ann, bob *store.User, advance func(time.Duration)) {
	t.Helper()
	var mu sync.Mutex
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s, err := New(Config{Store: newMemStore(), Games: games.All(), Now: func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return now
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	ann, bob = &store.User{ID: "id-ann", Name: "ann"}, &store.User{ID: "id-bob", Name: "bob"}
	id, err = s.StartGame(context.Background(), "pogo", "", []*store.User{ann, bob}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, id, ann, bob, func(d time.Duration) {
		mu.Lock()
		now = now.Add(d)
		mu.Unlock()
	}
}

// taken waits for what a follower has to take.
func taken(t *testing.T, f *Follower) (*Followed, []string) {
	t.Helper()
	select {
	case <-f.Ready():
	case <-time.After(5 * time.Second):
		t.Fatal("the follower was given nothing")
	}
	st, lines := f.Take()
	var texts []string
	for _, l := range lines {
		texts = append(texts, l.From+": "+l.Text)
	}
	return st, texts
}

// TestFollower follows a game as one of its players: the state first,
// then the state after each change (a move, a draw offer, the end) and the
// players' chat; the follower counts as the player's connection until it
// is closed.
func TestFollower(t *testing.T) {
	s, id, ann, bob, _ := followGame(t)
	ctx := context.Background()
	if err := s.Act(ctx, id, bob, Message{Type: "chat", Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	f, err := s.Follow(ctx, id, ann, "session-ann")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.Seats(); len(got) != 1 || got[0] != 0 {
		t.Fatalf("Seats() = %v; want [0]", got)
	}
	st, lines := taken(t, f)
	first := st.State()
	if first.Ply != 0 || first.Status != store.Playing || !first.Seats[0].Connected || first.Seats[1].Connected {
		t.Fatalf("first state: ply %d, %s, seats %+v; want ply 0 playing, ann connected", first.Ply, first.Status, first.Seats)
	}
	if len(lines) != 1 || lines[0] != "bob: hello" {
		t.Fatalf("the chat so far: %q; want bob's hello", lines)
	}

	mv := first.Legal()[0]
	if err := s.Act(ctx, id, ann, Message{Type: "move", Move: mv}); err != nil {
		t.Fatal(err)
	}
	st, _ = taken(t, f)
	if got := st.State(); got.Ply != 1 || len(st.Moves) != 1 || st.Moves[0] != mv {
		t.Fatalf("after ann's move: ply %d, moves %v; want 1, [%s]", got.Ply, st.Moves, mv)
	}
	if err := s.Act(ctx, id, bob, Message{Type: "draw"}); err != nil {
		t.Fatal(err)
	}
	st, _ = taken(t, f)
	if d := st.Offers["draw"]; len(d) != 1 || d[0] != 1 {
		t.Fatalf("after bob's offer: offers %v; want a draw from seat 1", st.Offers)
	}
	if err := s.Act(ctx, id, bob, Message{Type: "chat", Text: "your move"}); err != nil {
		t.Fatal(err)
	}
	if _, lines = taken(t, f); len(lines) != 1 || lines[0] != "bob: your move" {
		t.Fatalf("chat %q; want bob's line", lines)
	}
	if err := s.Act(ctx, id, ann, Message{Type: "draw"}); err != nil {
		t.Fatal(err)
	}
	st, _ = taken(t, f)
	if got := st.State(); got.Status != store.Finished || got.Outcome == nil || got.Outcome.Reason != "agreement" {
		t.Fatalf("after ann accepts: %s %+v; want finished by agreement", got.Status, got.Outcome)
	}

	f.Close()
	f.Close()
	l := s.held(id)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seats[0].connected != 0 || len(l.follows) != 0 {
		t.Fatalf("after Close: %d connections to ann's seat, %d followers; want none", l.seats[0].connected, len(l.follows))
	}
}

// TestFollowerBounded: a follower whose consumer takes nothing holds one
// state however many changes come, and is closed once more than
// FollowChat chat lines wait, without holding up the game.
func TestFollowerBounded(t *testing.T) {
	s, id, ann, bob, advance := followGame(t)
	ctx := context.Background()
	f, err := s.Follow(ctx, id, ann, "")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i := 0; i < 6; i++ {
		p := []*store.User{ann, bob}[i%2]
		l := s.held(id)
		l.mu.Lock()
		legal := l.stateNow().Legal()[0]
		l.mu.Unlock()
		if err := s.Act(ctx, id, p, Message{Type: "move", Move: legal}); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
	}
	if st, lines := f.Take(); st == nil || st.State().Ply != 6 || len(lines) != 0 {
		t.Fatalf("after 6 moves the follower holds %v and %d lines; want the state at ply 6 alone", st, len(lines))
	}
	for i := 0; i <= FollowChat; i++ {
		advance(time.Minute) // within the chat's rate limit
		if err := s.Act(ctx, id, bob, Message{Type: "chat", Text: "spam"}); err != nil {
			t.Fatalf("chat line %d: %v", i, err)
		}
	}
	select {
	case <-f.Done():
	default:
		t.Fatalf("%d chat lines waited and the follower is open; want it closed", FollowChat+1)
	}
	if err := f.Err(); err == nil || !strings.Contains(err.Error(), "too slow") {
		t.Fatalf("Err() = %v; want too slow", err)
	}
	if st, lines := f.Take(); st != nil || len(lines) != 0 {
		t.Fatalf("a closed follower holds %v and %d lines; want nothing", st, len(lines))
	}
}

// TestFollowerRevoked: ending the session that opened a follower closes
// it; ending another session of the account does not.
func TestFollowerRevoked(t *testing.T) {
	s, id, ann, _, _ := followGame(t)
	f, err := s.Follow(context.Background(), id, ann, "token-1")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s.Revoke(store.Revocation{User: ann.ID, Session: "token-2", Only: true})
	select {
	case <-f.Done():
		t.Fatal("revoking another token closed the follower")
	default:
	}
	s.Revoke(store.Revocation{User: ann.ID, Session: "token-1", Only: true})
	select {
	case <-f.Done():
	default:
		t.Fatal("revoking its token left the follower open")
	}
}

// TestFollowRefused: a game the account holds no seat of, and one that
// does not exist, are refused.
func TestFollowRefused(t *testing.T) {
	s, id, _, _, _ := followGame(t)
	cat := &store.User{ID: "id-cat", Name: "cat"}
	_, err := s.Follow(context.Background(), id, cat, "")
	var me *moveError
	if !errors.As(err, &me) || me.Code() != CodeNotYourSeat || !strings.Contains(err.Error(), "cat holds no seat") {
		t.Errorf("Follow by a spectator: %v; want %s saying cat holds no seat", err, CodeNotYourSeat)
	}
	if err := s.Act(context.Background(), id, cat, Message{Type: "resign"}); !errors.As(err, &me) || me.Code() != CodeNotYourSeat {
		t.Errorf("Act by a spectator: %v; want %s", err, CodeNotYourSeat)
	}
	if _, err := s.Follow(context.Background(), "aaaaaaaaaaaaaaaa", cat, ""); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Follow of an unknown game: %v; want store.ErrNotFound", err)
	}
}
