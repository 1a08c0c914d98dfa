// Package play is the site's domain of live play: the games being played
// (rooms), their moves, clocks, offers and chat, the game websocket, the
// relay of live games between the instances sharing a store; it queues
// the computer moves that package worker makes.
//
// [Live] holds the unfinished games it serves in memory and each change to
// a game is serialised by that game's lock: a move is checked with the
// rules engine, committed to the store, and only then broadcast to the
// game's connections. On start it loads the unfinished games from the
// store and resumes them.
//
// Several instances may share one store (PostgreSQL): any of them may hold
// any game's connections. The store orders each game's moves (of two
// instances writing one ply, one wins and the other rereads the game), and
// its feed (store.Feed) brings every committed change to the instances
// holding the game, which pass it on to their connections. Computer moves
// are jobs in the store that a worker (package worker) claims, in this
// process or in another (stax worker), so that each is computed once.
//
// Live knows no concrete game and no computer player: its caller passes
// the games it offers (Config.Games) and the players of its AI seats
// (Config.NewPlayer, Config.Levels), as stax serve does.
package play

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"stax/game"
	"stax/search"
	"stax/server/account"
	"stax/server/catalog"
	"stax/server/chat"
	"stax/server/httpx"
	"stax/server/latency"
	"stax/server/relay"
	"stax/server/store"
	"stax/server/worker"
)

// Sessions tells who sends a request (the accounts domain implements it).
type Sessions interface {
	// Session returns the request's account, or an error when it has
	// none.
	Session(r *http.Request) (*store.User, *store.Session, error)
	// SignedIn returns the request's account, answering the request
	// itself (401 and the like) when there is none.
	SignedIn(w http.ResponseWriter, r *http.Request) (*store.User, *store.Session, bool)
}

// Catalog tells the computer levels of the games (the catalogue
// implements it).
type Catalog interface {
	// Levels returns g's computer levels.
	Levels(g game.Game) []string
	// Known reports whether level is a computer level of g.
	Known(g game.Game, level string) bool
	// Ready reports whether a level of g plays at its full strength now.
	Ready(g game.Game, level string) bool
}

// Rater rates the finished rated games (the ratings domain implements it).
type Rater interface {
	// RateGame updates the ratings of a finished rated game's players.
	RateGame(ctx context.Context, id string, g game.Game, seats []store.Seat, o game.Outcome, at time.Time) error
}

// Notifier brings players the news of their games wherever they are on the
// site: the lobby's site-wide news connection implements it, on whichever
// instance the player is connected.
type Notifier interface {
	// Notify tells the account userID of news in game gameID: kind is
	// NewsTurn (it is the account's move), NewsDraw (a draw is offered
	// to it), NewsStart or NewsFinish; by is the name of the player who
	// moved or offered, title the game's title.
	Notify(ctx context.Context, userID, kind, gameID, by, title string)
}

// The kinds of news live play sends through its Notifier. NewsStart and
// NewsFinish go to every account holding a seat when a game starts (or
// the account joins it) and when it ends, from the instance that
// committed the change, once the store holds it (and the new ratings of
// a rated game).
const (
	NewsTurn   = "turn"
	NewsDraw   = "draw"
	NewsStart  = "gameStart"
	NewsFinish = "gameFinish"
)

// Config configures live play. Store and Games are required.
type Config struct {
	// Store keeps the games, their feed and the computer moves' jobs.
	Store store.Store
	// Games lists the games the site plays.
	Games game.Registry
	// Sessions and Rater are the neighbouring domains; a nil Rater rates
	// nothing.
	Sessions Sessions
	Rater    Rater
	// Sockets admits the game websockets.
	Sockets *httpx.Sockets
	// Proxies are the trusted reverse proxies, for the per-address
	// limits.
	Proxies httpx.Proxies
	// Instance names this instance among those sharing the store.
	Instance string
	// Log receives the logs; nil discards them.
	Log *slog.Logger
	// Catalog tells the computer levels a seat may have.
	Catalog Catalog
	// Workers, AIDelay, AITimeout and NewPlayer are those of the
	// server's Config: the computer players.
	Workers   int
	AIDelay   time.Duration
	AITimeout time.Duration
	NewPlayer func(g game.Game, level string) (search.Player, error)
	// CreateEvery, CreateBurst, JoinEvery, JoinBurst, MaxOpenGames,
	// Expiry, KeepIdle, SweepEvery, MaxPlies and KeepFinished are the
	// limits of the server's Config, with the same defaults.
	CreateEvery, JoinEvery   time.Duration
	CreateBurst, JoinBurst   int
	MaxOpenGames             int
	Expiry, KeepIdle         time.Duration
	SweepEvery, KeepFinished time.Duration
	MaxPlies                 int
	// Now tells the time of clocks (default time.Now); with Now set,
	// Live does not look for flags by itself: the caller calls
	// CheckClocks.
	Now func() time.Time
}

// Live is the site's live play.
type Live struct {
	cfg   Config
	store store.Store
	log   *slog.Logger

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // workers, feed shards, the janitor and the clock
	worker *worker.Worker // nil when this process computes no moves

	mu    sync.Mutex // guards games
	games map[string]*room
	// variants gives the rooms their variant, shared.
	variants variants

	moveLat, commitLat latency.Histogram
	mod                Moderator                // nil: no moderation (see SetModerator)
	notifier           atomic.Pointer[Notifier] // nil: no news (see SetNotifier)

	creates, joins *httpx.RateLimiter
	open           openGames    // unfinished games per creating client
	expired        atomic.Int64 // games expired since the start
	broken         brokenGames  // games that could not be loaded

	// apiChats bounds the chat of the bot API's requests, per account
	// and game.
	apiChats *httpx.RateLimiter

	aiWait      latency.Histogram // from a computer's move being due to a worker of this process taking it
	playersMade atomic.Int64      // computer players made by the workers

	// outages are the intervals no instance served the site (read at
	// Start; while this instance runs there are none), which the games'
	// clocks charge to nobody.
	outages []store.Outage

	// instance names this server among those sharing the store; relay
	// is its link to the others, which reaches the rooms it holds through
	// rooms (see sync.go).
	instance string
	relay    *relay.Relay
	rooms    rooms
}

// New starts live play: it loads the store's unfinished games and resumes
// them. It does not follow the store's feed: the caller passes Follow's
// events to it (see Feed), so that the site's other domains share one
// watch of the store.
func New(cfg Config) (*Live, error) {
	if cfg.Store == nil || len(cfg.Games) == 0 {
		return nil, errors.New("play: a store and at least one game are required")
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Workers == 0 {
		cfg.Workers = runtime.NumCPU()
	}
	if cfg.Catalog == nil {
		cfg.Catalog = catalog.New(catalog.Config{Games: cfg.Games})
	}
	if cfg.Sockets == nil {
		cfg.Sockets = httpx.NewSockets(httpx.SocketLimits{MaxConns: 10000, MaxConnsPerIP: 100}, cfg.Proxies, cfg.Log)
	}
	httpx.SetDefault(&cfg.CreateEvery, DefaultCreateEvery)
	httpx.SetDefault(&cfg.CreateBurst, DefaultCreateBurst)
	httpx.SetDefault(&cfg.JoinEvery, DefaultJoinEvery)
	httpx.SetDefault(&cfg.JoinBurst, DefaultJoinBurst)
	httpx.SetDefault(&cfg.MaxOpenGames, DefaultMaxOpenGames)
	httpx.SetDefault(&cfg.Expiry, DefaultExpiry)
	httpx.SetDefault(&cfg.KeepIdle, DefaultKeepIdle)
	httpx.SetDefault(&cfg.SweepEvery, time.Minute)
	httpx.SetDefault(&cfg.MaxPlies, DefaultMaxPlies)
	httpx.SetDefault(&cfg.KeepFinished, 5*time.Minute)
	if cfg.Instance == "" {
		cfg.Instance = httpx.NewID()
	}
	s := &Live{
		cfg:      cfg,
		store:    cfg.Store,
		log:      cfg.Log,
		games:    map[string]*room{},
		variants: variants{games: cfg.Games},
		creates:  httpx.NewRateLimiter(cfg.CreateEvery, cfg.CreateBurst),
		joins:    httpx.NewRateLimiter(cfg.JoinEvery, cfg.JoinBurst),
		apiChats: httpx.NewRateLimiter(chat.Every, chat.Burst),
		instance: cfg.Instance,
	}
	s.rooms = rooms{s}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	var wake func()
	if cfg.Workers > 0 {
		s.worker = worker.New(worker.Config{Store: cfg.Store, Games: cfg.Games, NewPlayer: cfg.NewPlayer, Log: cfg.Log,
			AIDelay: cfg.AIDelay, AITimeout: cfg.AITimeout,
			Claimed: s.aiWait.Add, PlayerMade: func() { s.playersMade.Add(1) }})
		wake = s.worker.Wake
	}
	s.relay = relay.New(relay.Config{Instance: cfg.Instance, Feed: cfg.Store, Uptime: cfg.Store, Now: s.now, Wake: wake, Log: cfg.Log}, s.rooms)
	return s, nil
}

// Feed starts the shards that apply game events and returns the function
// to hand the store's events to (the caller's store.Feed.Watch): it
// applies the other events at once and passes a game's events to its
// shard. Live ignores the events of other domains (seeks, news).
func (s *Live) Feed() func(store.Event) { return s.relay.Feed(s.ctx) }

// Start resumes the unfinished games and starts the janitor, the clock
// and the workers. The caller has started following the store's feed
// (Feed) before, so that no change falls between the two.
func (s *Live) Start() error {
	// The outages a game in play may span: none older than the expiry of
	// an abandoned game, and a day's margin.
	var err error
	if s.outages, err = s.relay.Arrive(s.ctx, s.now().Add(-s.cfg.Expiry-24*time.Hour)); err != nil {
		s.cancel()
		return fmt.Errorf("play: %w", err)
	}
	if err := s.resume(); err != nil {
		s.cancel()
		return err
	}
	s.wg.Add(1)
	go s.janitor()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		httpx.Every(s.ctx, relay.BeatEvery, func(time.Time) { s.relay.Beat(false) })
	}()
	if s.cfg.Now == nil {
		s.wg.Add(1)
		go s.clockLoop()
	}
	if s.worker != nil {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.worker.Run(s.ctx, s.cfg.Workers)
		}()
	}
	return nil
}

// Close stops live play: the other instances are told to forget this
// one's connections, the computer moves stop and are waited for. The
// caller closes the websockets first (Sockets.Close).
func (s *Live) Close() {
	ctx, cancel := context.WithTimeout(s.ctx, time.Second)
	s.relay.Gone(ctx)
	cancel()
	s.cancel()
	s.wg.Wait()
	s.relay.Wait()
	// The last sign of life: the time from now to the next start is no
	// player's.
	s.relay.Beat(true)
}

// Turn returns the seat to move in game id and its ply, and the account
// playing that seat ("" for none); ok is false when the game is not being
// played (the archive lists a player's games with it).
func (s *Live) Turn(ctx context.Context, id string) (seat, ply int, user string, ok bool) {
	l, err := s.get(ctx, id)
	if err != nil {
		return 0, 0, "", false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.h.Over() {
		return 0, 0, "", false
	}
	p := l.h.State().ToMove()
	return p, l.h.Ply(), l.seats[p].User, true
}

// Routes adds live play's routes to m.
func (s *Live) Routes(m *http.ServeMux) {
	h := handlers{s}
	m.HandleFunc("POST /api/games", h.handleCreate)
	m.HandleFunc("GET /api/games/{id}", h.handleState)
	m.HandleFunc("POST /api/games/{id}/join", h.handleJoin)
	m.HandleFunc("GET /api/games/{id}/record", h.handleRecord)
	m.HandleFunc("GET /ws/games/{id}", h.handleWS)
}

// resume looks at the unfinished games: it expires the abandoned ones and
// queues the computer moves of those whose computer is to move (a server
// that died between committing a move and queuing the answer left none;
// queuing a move twice does nothing), and keeps in memory those with a
// clock, whose flag it watches; the others are loaded when
// someone asks for them.
func (s *Live) resume() error {
	gs, err := s.store.Unfinished(s.ctx)
	if err != nil {
		// One game the store cannot read fails the whole list: read them
		// one at a time instead, skipping those that fail.
		s.log.Error("load unfinished games; loading them one by one", "err", err)
		if gs, err = s.unfinishedOneByOne(); err != nil {
			return fmt.Errorf("server: load unfinished games: %w", err)
		}
	}
	cutoff := s.now().Add(-s.cfg.Expiry)
	kept, queued := 0, 0
	for _, sg := range gs {
		l, err := s.build(sg)
		if err != nil {
			// One broken game must not keep the others from resuming.
			s.broken.add(sg.ID, err)
			s.log.Error("resume game: skipped", "game", sg.ID, "err", err)
			continue
		}
		l.mu.Lock()
		switch {
		case l.h.Over():
			// The moves end the game although it was stored unfinished
			// (e.g. a rules change): record the ending.
			if err := s.store.Finish(s.ctx, l.id, l.h.Ply(), *l.end(), s.now()); err != nil {
				s.log.Error("finish resumed game", "game", l.id, "err", err)
			}
		case l.lastActive().Before(cutoff):
			s.expire(l)
		default:
			if l.seats[l.h.State().ToMove()].Kind == "ai" {
				s.scheduleAI(l)
				queued++
			}
			if l.clk != nil {
				// Its clock runs: the server watches for the flag.
				s.games[l.id] = l
				kept++
			}
		}
		l.mu.Unlock()
	}
	s.log.Info("resumed games", "unfinished", len(gs), "in memory", kept, "computer moves queued", queued)
	return nil
}

// unfinishedOneByOne reads the unfinished games one at a time, skipping
// (and reporting) those the store cannot read.
func (s *Live) unfinishedOneByOne() ([]*store.Game, error) {
	list, err := s.store.Recent(s.ctx, math.MaxInt32, store.Playing)
	if err != nil {
		return nil, err
	}
	var gs []*store.Game
	for _, g := range list {
		id := g.ID
		sg, err := s.store.Get(s.ctx, id)
		if err != nil {
			s.broken.add(id, err)
			s.log.Error("resume game: skipped", "game", id, "err", err)
			continue
		}
		gs = append(gs, sg)
	}
	return gs, nil
}

// build makes the room of a stored game.
func (s *Live) build(sg *store.Game) (*room, error) {
	g, err := s.variants.load(sg.Spec)
	if err != nil {
		return nil, err
	}
	return newRoom(sg, g, s.outages)
}

// held returns the room of game id when this instance holds it in
// memory, else nil.
func (s *Live) held(id string) *room {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.games[id]
}

// get returns the game with the given id, loading it from the store if it
// is not in memory. It returns store.ErrNotFound for an unknown id.
func (s *Live) get(ctx context.Context, id string) (*room, error) {
	if l := s.held(id); l != nil {
		return l, nil
	}
	if !httpx.ValidID(id) {
		return nil, fmt.Errorf("game %q: %w", id, store.ErrNotFound)
	}
	sg, err := s.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	l, err := s.build(sg)
	if err != nil {
		s.broken.add(id, err)
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	s.mu.Lock()
	if prev := s.games[id]; prev != nil {
		s.mu.Unlock()
		return prev, nil
	}
	l.idle = s.now()
	s.games[id] = l
	s.mu.Unlock()
	// Other instances may hold it too, with offers, chat and players.
	s.rooms.ask(l)
	return l, nil
}

// janitor expires abandoned games and unloads the games nobody uses, every
// SweepEvery.
func (s *Live) janitor() {
	defer s.wg.Done()
	httpx.Every(s.ctx, s.cfg.SweepEvery, func(time.Time) { s.sweep(s.now()) })
}

// sweep expires the games with no move since Expiry, in memory or not,
// and unloads the games nobody watches: finished ones after KeepFinished,
// unfinished ones after KeepIdle (unless a computer is to move or a clock
// runs).
func (s *Live) sweep(now time.Time) {
	expiry := now.Add(-s.cfg.Expiry)
	finished := now.Add(-s.cfg.KeepFinished)
	idle := now.Add(-s.cfg.KeepIdle)
	s.creates.Sweep(now)
	s.joins.Sweep(now)
	s.apiChats.Sweep(now)
	// The server's lock is not held while the games are looked at: a
	// game's lock may be held across a commit, and every game's moves
	// relayed from other instances look their game up with it.
	for _, l := range s.inMemory() {
		l.mu.Lock()
		if l.dropped {
			l.mu.Unlock()
			continue
		}
		if !l.h.Over() && l.lastActive().Before(expiry) && l.seats[l.h.State().ToMove()].Kind != "ai" {
			s.expire(l)
		}
		switch {
		case len(l.subs) > 0 || len(l.follows) > 0:
		case l.h.Over() && l.idle.Before(finished) && l.updated.Before(finished):
			l.dropped = true
		case !l.h.Over() && l.idle.Before(idle) && l.seats[l.h.State().ToMove()].Kind != "ai" && l.clk == nil:
			l.dropped = true
		}
		dropped := l.dropped
		l.mu.Unlock()
		if dropped {
			// Whoever finds it meanwhile sees it dropped and loads
			// it again (acquire), once it is gone from the map.
			s.mu.Lock()
			if s.games[l.id] == l {
				delete(s.games, l.id)
			}
			s.mu.Unlock()
		}
	}
	// The games that expired while out of memory, a batch at a time.
	for {
		ids, err := s.store.Idle(s.ctx, expiry, 100)
		if err != nil {
			s.log.Error("list idle games", "err", err)
			return
		}
		n := 0
		for _, id := range ids {
			l, err := s.acquire(s.ctx, id)
			if err != nil {
				s.log.Error("load idle game", "game", id, "err", err)
				continue
			}
			if !l.h.Over() && l.lastActive().Before(expiry) && l.seats[l.h.State().ToMove()].Kind != "ai" {
				s.expire(l)
				n++
			}
			l.mu.Unlock()
		}
		if n == 0 || len(ids) < 100 {
			return
		}
	}
}

// expire adjudicates a game with no move for Expiry as abandoned by the
// seat to move. The caller holds l.mu.
func (s *Live) expire(l *room) {
	p := l.h.State().ToMove()
	days := int(s.cfg.Expiry.Hours() / 24)
	why := fmt.Sprintf("abandoned: no move for %d days", days)
	if days < 1 {
		why = "abandoned: no move for " + s.cfg.Expiry.String()
	}
	if err := s.finish(s.ctx, l, p, game.ByForfeit, why); err == nil {
		s.expired.Add(1)
		s.log.Info("game expired", "game", l.id, "seat", p)
	}
}

// acquire returns the game with the given id locked, loading it if needed,
// and never one the janitor has unloaded meanwhile.
func (s *Live) acquire(ctx context.Context, id string) (*room, error) {
	for {
		l, err := s.get(ctx, id)
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		if !l.dropped {
			return l, nil
		}
		l.mu.Unlock()
	}
}

// Live reports how many games are in memory and how many connections are
// open, for logs and tests.
func (s *Live) Live() (games, conns int) {
	// As in sweep, the server's lock is not held while each game's is
	// taken.
	ls := s.inMemory()
	for _, l := range ls {
		l.mu.Lock()
		conns += len(l.subs) + len(l.follows)
		l.mu.Unlock()
	}
	return len(ls), conns
}

// scheduleAI queues the computer move of the seat to move, if it is a
// computer's, no sooner than AIDelay after the last move; whichever worker
// claims it makes it. The caller holds l.mu.
func (s *Live) scheduleAI(l *room) {
	if l.h.Over() || l.seats[l.h.State().ToMove()].Kind != "ai" {
		return
	}
	delay := time.Until(l.lastAt.Add(s.cfg.AIDelay))
	if err := s.store.AddJob(context.WithoutCancel(s.ctx), l.id, l.h.Ply(), l.client, max(delay, 0)); err != nil {
		s.log.Error("queue a computer move", "game", l.id, "ply", l.h.Ply(), "err", err)
	}
}

func (s *Live) now() time.Time {
	if s.cfg.Now != nil {
		return s.cfg.Now().UTC()
	}
	return time.Now().UTC()
}

// clockTick is how often the server looks for flags.
const clockTick = 100 * time.Millisecond

// clockLoop flags games that ran out of time, until the server closes.
func (s *Live) clockLoop() {
	defer s.wg.Done()
	httpx.Every(s.ctx, clockTick, func(now time.Time) {
		s.checkClocks(false)
		s.relay.Sweep(s.ctx, s.now())
	})
}

// CheckClocks flags the games whose player to move has run out of time
// and forgets the other instances that have gone quiet. With Config.Now
// set, Live does this only when called, and returns once the flags it
// found are written; otherwise every 100 ms.
func (s *Live) CheckClocks() {
	s.checkClocks(true)
	s.relay.Sweep(s.ctx, s.now())
}

// Revoke closes the game websockets and the followers that ended
// sessions opened, on this instance: the account's player can no longer
// move or chat through them.
func (s *Live) Revoke(r store.Revocation) {
	for _, l := range s.inMemory() {
		l.mu.Lock()
		for c := range l.subs {
			if c.user == r.User && c.session != "" && r.Ends(c.session) {
				c.drop()
			}
		}
		for f := range l.follows {
			if f.user == r.User && f.session != "" && r.Ends(f.session) {
				f.end(errFollowerEnded)
			}
		}
		l.mu.Unlock()
	}
}

// Follow subscribes a follower of game id for account u, for the bot
// API, opened by the session whose token hash is session (Revoke closes
// it when the session ends). Its first state waits to be taken, with the
// players' chat so far; the caller closes it. An account that holds no
// seat of the game is refused with an error whose Code is
// CodeNotYourSeat, an unknown game is store.ErrNotFound.
func (s *Live) Follow(ctx context.Context, id string, u *store.User, session string) (*Follower, error) {
	return handlers{s}.follow(ctx, id, u, session)
}

// Act does what m asks of game id for account u, as the same message of
// the game websocket would for the account's seats of the game: "move"
// (Move, and Ply when not nil), "resign", "chat" (Text), "draw",
// "decline" of an Offer, "abort", "claim" (Offer "win" or "draw"). A
// refusal is an error whose method Code returns its code (CodeNotYourTurn,
// CodeIllegalMove, ...: those of the websocket's error messages), and
// whose message says what was expected; an unknown game is
// store.ErrNotFound.
func (s *Live) Act(ctx context.Context, id string, u *store.User, m Message) error {
	return handlers{s}.actAs(ctx, id, u, m)
}

// inMemory returns the games in memory.
func (s *Live) inMemory() []*room {
	s.mu.Lock()
	defer s.mu.Unlock()
	ls := make([]*room, 0, len(s.games))
	for _, l := range s.games {
		ls = append(ls, l)
	}
	return ls
}

// Stats reports what live play holds and how long its moves take; the
// caller adds what the other domains and the listener count (Lobby,
// Refused, PingClosed).
func (s *Live) Stats() Stats {
	games, conns := s.Live()
	us := func(d time.Duration) int64 { return int64(d / time.Microsecond) }
	n := s.moveLat.Count()
	broken, nbroken := s.broken.report()
	return Stats{
		Games: games, Conns: conns, Moves: n,
		MoveP50: us(s.moveLat.Quantile(0.5)), MoveP99: us(s.moveLat.Quantile(0.99)), MoveMax: us(s.moveLat.Quantile(1)),
		CommitP50: us(s.commitLat.Quantile(0.5)), CommitP99: us(s.commitLat.Quantile(0.99)), CommitMax: us(s.commitLat.Quantile(1)),
		Expired:   s.expired.Load(),
		AIWaitP50: us(s.aiWait.Quantile(0.5)), AIWaitP99: us(s.aiWait.Quantile(0.99)), AIWaitMax: us(s.aiWait.Quantile(1)),
		Players: s.playersMade.Load(),
		Broken:  broken, BrokenCount: nbroken,
		MoveBuckets: s.moveLat.Snapshot().Counts, CommitBuckets: s.commitLat.Snapshot().Counts,
	}
}

// StartGame creates and starts a game between accounts, players[i] in
// seat i, and returns its id (the lobby starts the games it pairs).
func (s *Live) StartGame(ctx context.Context, spec, start string, players []*store.User, rated bool, clock *store.Clock) (string, error) {
	l, err := s.startGame(ctx, spec, start, players, rated, clock)
	if err != nil {
		return "", err
	}
	return l.id, nil
}

// startGame creates and starts a game between accounts, players[i] in
// seat i.
func (s *Live) startGame(ctx context.Context, spec, start string, players []*store.User, rated bool, clock *store.Clock) (*room, error) {
	g, err := s.variants.load(spec)
	if err != nil {
		return nil, err
	}
	now := s.now().Truncate(time.Millisecond)
	sg := &store.Game{ID: httpx.NewID(), Spec: game.SpecOf(g).String(), Start: start, Status: store.Playing, Created: now, Updated: now, Rated: rated, Clock: clock}
	sg.End.Resigned = -1
	for _, u := range players {
		sg.Seats = append(sg.Seats, store.Seat{Kind: "human", Name: u.Name, User: u.ID, Joined: true})
	}
	if err := s.store.Create(ctx, sg); err != nil {
		return nil, err
	}
	// Which accounts are bots, the store says when it reads the seats.
	if stored, err := s.store.Get(ctx, sg.ID); err == nil && len(stored.Seats) == len(sg.Seats) {
		for i := range sg.Seats {
			sg.Seats[i].Bot = stored.Seats[i].Bot
		}
	}
	l, err := newRoom(sg, g, nil)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.games[l.id] = l
	s.mu.Unlock()
	s.log.Info("game started", "game", l.id, "spec", sg.Spec, "rated", rated)
	l.mu.Lock()
	s.newsOfSeats(l, NewsStart)
	l.mu.Unlock()
	return l, nil
}

// ForgetAccount anonymises a deleted account's seats in the games in
// memory, as DeleteUser did in the store.
func (s *Live) ForgetAccount(ctx context.Context, id string) {
	for _, l := range s.inMemory() {
		l.mu.Lock()
		changed := false
		for i := range l.seats {
			if l.seats[i].User == id {
				l.seats[i].User, l.seats[i].Name = "", account.DeletedName
				changed = true
			}
		}
		if changed {
			l.changed()
			l.broadcast()
		}
		l.mu.Unlock()
	}
}

// Latencies returns snapshots of the histograms of moves (from a move read
// to its state queued for every connection: the relay, commit included),
// of their commits, and of the computer moves' wait for a worker of this
// process.
func (s *Live) Latencies() (move, commit, aiWait latency.Snapshot) {
	return s.moveLat.Snapshot(), s.commitLat.Snapshot(), s.aiWait.Snapshot()
}
