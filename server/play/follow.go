package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"stax/game"
	"stax/server/chat"
	"stax/server/store"
)

// The bot API's side of live play: a request of the API acts in a game
// through the code a websocket's message goes through (handlers.act), for
// the seats of the request's account; a Follower receives the game's state
// after every change, on whichever instance the game is held, as a
// websocket's client does.

// FollowChat bounds the chat lines a follower holds for its consumer; a
// follower with more waiting is closed as too slow.
const FollowChat = 32

// The reasons a follower is closed by the game rather than by its
// consumer (Follower.Err).
var (
	errFollowerSlow  = fmt.Errorf("more than %d chat lines waited for the follower: it was closed as too slow", FollowChat)
	errFollowerEnded = errors.New("the session that opened the follower ended")
)

// Code returns the error's code, one of the Code constants of wire.go
// (e.g. CodeNotYourTurn), for an answer that names it.
func (e *moveError) Code() string { return e.code }

// RetryAfter returns how long a refusal for going too fast
// (CodeRateLimited) asks to wait, zero for another refusal.
func (e *moveError) RetryAfter() time.Duration { return e.retry }

// Followed is a game's state as its followers receive it after a change.
// The followers share it; it does not change once made.
type Followed struct {
	// state is the encoded State without the moves and positions
	// (room.current), the bytes the websockets' updates are made from.
	state []byte
	// Moves are the moves so far, in notation.
	Moves []string
	// Offers maps each kind of offer standing ("draw", "takeback",
	// "rematch") to the seats that made it.
	Offers map[string][]int

	decode  sync.Once
	decoded *State
}

// State returns the game's state, without its moves and positions (see
// Moves). It is decoded once for all the followers, who share it and must
// not change it.
func (f *Followed) State() *State {
	f.decode.Do(func() {
		f.decoded = new(State)
		if err := json.Unmarshal(f.state, f.decoded); err != nil {
			panic(err) // the room encoded it from a State
		}
	})
	return f.decoded
}

// Follower follows a game for an account, for the bot API: it receives
// the game's state after every change (a move, a clock, an offer, the
// end, a seat's player leaving or coming back) and the lines of the
// players' chat, and counts as a connection of the account's seats, so
// that the account is not taken to have left the game. It holds at most
// the newest state not taken yet and FollowChat chat lines, so that the
// game never waits for its consumer; one whose chat lines overflow is
// closed as too slow.
type Follower struct {
	live *Live
	l    *room
	// actor holds the account's seats, which are in the players' chat,
	// and whom it blocks.
	actor
	session string
	g       game.Game
	players []store.Seat

	ready chan struct{} // holds a value while something waits to be taken
	done  chan struct{} // closed when the game closes the follower

	mu     sync.Mutex // guards the fields below
	latest *Followed  // the newest state not taken yet
	lines  []chat.Line
	err    error // why the game closed the follower

	closeOnce sync.Once
}

// follow subscribes a follower of game id for account u, opened by the
// session whose token hash is session (which its revocation closes); its
// first state and the players' chat so far wait to be taken. An account
// that holds no seat of the game is refused (CodeNotYourSeat), an unknown
// game is store.ErrNotFound.
func (s handlers) follow(ctx context.Context, id string, u *store.User, session string) (*Follower, error) {
	held := s.held(id) != nil
	l, err := s.acquire(ctx, id)
	if err != nil {
		return nil, err
	}
	defer l.mu.Unlock()
	f := &Follower{live: s.Live, l: l, session: session, g: l.g, ready: make(chan struct{}, 1), done: make(chan struct{}),
		actor: actor{user: u.ID, name: u.Name, mod: s.mod}}
	for i := range l.seats {
		if l.seats[i].User == u.ID {
			f.seats = append(f.seats, i)
		}
		st := l.seats[i].Seat
		st.TokenHash, st.InviteHash = "", ""
		f.players = append(f.players, st)
	}
	if len(f.seats) == 0 {
		return nil, &moveError{code: CodeNotYourSeat, msg: fmt.Sprintf("%s holds no seat in game %s; the bot API follows the account's own games", u.Name, id)}
	}
	if held && !l.h.Over() {
		// As for a websocket: a player is served the game as stored,
		// should this instance have missed a move of another one.
		s.rooms.catchUp(l)
	}
	if l.follows == nil {
		l.follows = map[*Follower]struct{}{}
	}
	l.follows[f] = struct{}{}
	l.idle = time.Time{}
	s.rooms.askOnce(l)
	for _, p := range f.seats {
		l.seats[p].connected++
	}
	l.noteGone(s.now())
	l.changed()
	l.broadcast() // gives every follower, f too, the state
	s.rooms.tellState(l, false)
	lines := f.heard(l.talk.chat.Lines(chat.Players))
	f.lines = slices.Clone(lines[max(0, len(lines)-FollowChat):])
	return f, nil
}

// actAs does what m asks of game id for account u, as a request of the
// bot API: for the account's seats of the game, through the code a
// websocket's message goes through. An account that holds no seat of the
// game is refused (CodeNotYourSeat), an unknown game is
// store.ErrNotFound; the other refusals are those of the websocket's
// error messages.
func (s handlers) actAs(ctx context.Context, id string, u *store.User, m Message) error {
	start := time.Now()
	l, err := s.acquire(ctx, id)
	if err != nil {
		return err
	}
	defer l.mu.Unlock()
	// The account's requests to one game share a chat limit, as the
	// messages of one websocket do.
	a := &actor{user: u.ID, name: u.Name, mod: s.mod, chatLimit: s.apiChats, chatKey: u.ID + " " + id}
	for i := range l.seats {
		if l.seats[i].User == u.ID {
			a.seats = append(a.seats, i)
		}
	}
	if len(a.seats) == 0 {
		return &moveError{code: CodeNotYourSeat, msg: fmt.Sprintf("%s holds no seat in game %s; the bot API acts in the account's own games", u.Name, id), move: m.Move}
	}
	return s.act(l, a, m, start)
}

// Seats returns the seats the follower's account holds in the game.
func (f *Follower) Seats() []int { return slices.Clone(f.seats) }

// Players returns the game's seats as they were when the follower came:
// who plays each (the kind, name, level, account, whether it is a bot).
func (f *Follower) Players() []store.Seat { return slices.Clone(f.players) }

// Game returns the game being played.
func (f *Follower) Game() game.Game { return f.g }

// Ready returns a channel that receives when a state or a chat line
// waits to be taken (Take).
func (f *Follower) Ready() <-chan struct{} { return f.ready }

// Done returns a channel that is closed when the game closes the
// follower (Err says why): its session ended, or its consumer fell
// behind.
func (f *Follower) Done() <-chan struct{} { return f.done }

// Err returns why the game closed the follower, nil while it has not.
func (f *Follower) Err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// Take returns the newest state not taken yet (nil when none came since
// the last Take) and the chat lines that came since, oldest first.
func (f *Follower) Take() (*Followed, []chat.Line) {
	f.mu.Lock()
	defer f.mu.Unlock()
	st, lines := f.latest, f.lines
	f.latest, f.lines = nil, nil
	return st, lines
}

// Close unsubscribes the follower: its seats count one connection less.
// It may be called more than once.
func (f *Follower) Close() {
	f.closeOnce.Do(func() {
		l, s := f.l, f.live
		l.mu.Lock()
		defer l.mu.Unlock()
		delete(l.follows, f)
		if len(l.follows) == 0 {
			l.followed = nil // nobody is given it any more
		}
		if len(l.subs) == 0 && len(l.follows) == 0 {
			l.idle = s.now()
		}
		for _, p := range f.seats {
			l.seats[p].connected--
		}
		l.noteGone(s.now())
		l.changed()
		l.broadcast()
		s.rooms.tellState(l, false)
	})
}

// offer gives the follower the game's newest state, in place of any it
// has not taken. The caller holds the room's lock.
func (f *Follower) offer(st *Followed) {
	f.mu.Lock()
	if f.err == nil {
		f.latest = st
	}
	f.mu.Unlock()
	f.wake()
}

// hear queues a chat line for the follower, or closes a follower that has
// FollowChat lines waiting already. The caller holds the room's lock.
func (f *Follower) hear(line chat.Line) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.err != nil:
		return
	case len(f.lines) >= FollowChat:
		f.endLocked(errFollowerSlow)
		return
	}
	f.lines = append(f.lines, line)
	f.wake()
}

// end closes the follower for a reason of the game's; its consumer
// learns of it through Done.
func (f *Follower) end(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.endLocked(err)
}

// endLocked is end with f.mu held.
func (f *Follower) endLocked(err error) {
	if f.err != nil {
		return
	}
	f.err = err
	f.latest, f.lines = nil, nil
	close(f.done)
}

// wake tells the consumer that something waits, without blocking.
func (f *Follower) wake() {
	select {
	case f.ready <- struct{}{}:
	default:
	}
}
