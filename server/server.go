// Package server is the stax web server: a JSON API over HTTP and live games
// over websockets, with the server as referee. docs/server.md documents the
// API.
//
// A [Server] holds every unfinished game in memory and each change to a game
// is serialised by that game's lock: a move is checked with the rules
// engine, committed to the [store.Store], and only then broadcast to the
// game's connections. On start the server loads the unfinished games from
// the store and resumes them.
//
// Several servers may share one store (PostgreSQL): any of them may hold
// any game's connections. The store orders each game's moves (of two
// servers writing one ply, one wins and the other rereads the game), and
// its feed (Store.Watch) brings every committed change to the servers
// holding the game, which pass it on to their connections. Computer moves
// are jobs in the store that a [Worker] claims, in this process or in
// another (stax worker), so that each is computed once.
//
// The server knows no concrete game and no computer player: its caller
// passes the games it offers (Config.Games) and the players of its AI
// seats (Config.NewPlayer, Config.Levels), as stax serve does.
package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"stax/game"
	"stax/search"
	"stax/server/httpx"
	"stax/server/store"
)

// Config configures a Server. Store and Games are required.
type Config struct {
	// Store keeps the games.
	Store store.Store
	// Games lists the games the server plays.
	Games game.Registry
	// Assets holds the UI's static files; nil serves a minimal page.
	Assets fs.FS
	// Log receives the server's logs; nil discards them.
	Log *slog.Logger
	// Workers is the number of computer moves this process computes at
	// once (default: the number of CPUs); negative computes none, leaving
	// them to other processes sharing the store (stax worker).
	Workers int
	// AIDelay is the least time between a move and the AI's answer, so
	// that people can follow.
	AIDelay time.Duration
	// AITimeout bounds one AI move (default 30s); an AI that finds no move
	// in time forfeits.
	AITimeout time.Duration
	// NewPlayer makes the player of an AI seat; the caller wires in the
	// computer players (stax serve passes ai.New). Without it the server
	// offers no AI seats.
	NewPlayer func(g game.Game, level string) (search.Player, error)
	// Levels lists a game's AI levels for the game picker (stax serve
	// passes ai.Levels); nil lists none.
	Levels func(g game.Game) []string
	// LevelReady reports whether a level plays at its full strength now
	// (stax serve passes ai.Config.Ready: false for "perfect" while Pogo's
	// table is being built). A level that is not ready is listed as being
	// prepared, and a game with it is refused with 503 and Retry-After;
	// nil: every level is ready.
	LevelReady func(g game.Game, level string) bool
	// LevelElo, when set, gives a level's measured rating in Elo (random
	// = 0), shown next to the level in the game picker; ok is false for a
	// level not measured.
	LevelElo func(g game.Game, level string) (elo int, ok bool)
	// OriginPatterns lists the other origins allowed to open websockets
	// (see websocket.AcceptOptions); the server's own origin always is.
	OriginPatterns []string
	// SendQueue is how many messages may wait for a slow connection before
	// it is closed (default 32).
	SendQueue int
	// AllowedHosts lists the host names, besides loopback ones, that the
	// Host header may name: "*" allows any, ".example.org" a domain and
	// its subdomains. Any other host is refused, so that a page of another
	// site that rebinds its DNS name to this server's address cannot reach
	// it.
	AllowedHosts []string
	// TrustedProxies lists the reverse proxies in front of the server
	// (ParseTrustedProxies). A request that comes through one is counted
	// against the per-address limits by the client address the proxies
	// name in X-Forwarded-For, and the proxy's own connections only against
	// the total. Without it, the connection's address is the client's, and
	// X-Forwarded-For is ignored, since any client can write it.
	TrustedProxies []netip.Prefix
	// DebugStats serves GET /debug/stats; it is off by default because it
	// tells outsiders how busy the server is.
	DebugStats bool
	// MaxConns bounds the open websockets (default DefaultMaxConns);
	// MaxConnsPerIP bounds those of one client address (default
	// DefaultMaxConnsPerIP). A websocket past them is refused with 503 or
	// 429 and Retry-After.
	MaxConns, MaxConnsPerIP int
	// ConnHeadroom and IPHeadroom are how many connections Listener lets
	// in beyond MaxConns and MaxConnsPerIP, for plain requests such as
	// GET /healthz (defaults DefaultConnHeadroom, DefaultIPHeadroom).
	ConnHeadroom, IPHeadroom int
	// ReadHeaderTimeout and ReadTimeout bound the time a request's header
	// and whole request may take to arrive (see HTTPServer).
	ReadHeaderTimeout, ReadTimeout time.Duration
	// PingInterval is how often a websocket is pinged; one that does not
	// answer within PingTimeout is closed (defaults DefaultPingInterval,
	// DefaultPingTimeout).
	PingInterval, PingTimeout time.Duration
	// CreateEvery and CreateBurst limit the games one client address may
	// create: CreateBurst at once, then one every CreateEvery (defaults
	// DefaultCreateEvery, DefaultCreateBurst); JoinEvery and JoinBurst
	// limit its joins alike. Past them the request is answered 429 with
	// Retry-After.
	CreateEvery, JoinEvery time.Duration
	CreateBurst, JoinBurst int
	// MaxOpenGames bounds the unfinished games created from one client
	// address (default DefaultMaxOpenGames).
	MaxOpenGames int
	// Expiry is how long an unfinished game may go without a move (or a
	// join) before it is adjudicated as abandoned: the seat to move
	// forfeits (default DefaultExpiry, 14 days).
	Expiry time.Duration
	// KeepIdle is how long an unfinished game that nobody watches and no
	// computer is thinking in stays in memory; it is loaded again from
	// the store when asked for (default DefaultKeepIdle).
	KeepIdle time.Duration
	// SweepEvery is how often games are expired and idle ones unloaded
	// (default a minute).
	SweepEvery time.Duration
	// MaxPlies is the longest game the server plays, in plies: a game
	// created with a larger ply cap (the maxplies option), or none, is
	// refused (default DefaultMaxPlies).
	MaxPlies int
	// KeepFinished is how long a finished game nobody watches stays in
	// memory (default 5 minutes).
	KeepFinished time.Duration
	// Now tells the time of clocks, sessions and rate limits (default
	// time.Now); tests pass a fake clock. With Now set, the server does
	// not look for flags by itself: the caller calls CheckClocks.
	Now func() time.Time
	// PasswordParams are the argon2id parameters of new password hashes
	// (default DefaultPasswordParams).
	PasswordParams PasswordParams
	// SessionTTL is how long a session lasts (default DefaultSessionTTL).
	SessionTTL time.Duration
	// Analyst analyses positions and reviews finished games for the
	// analysis board (stax serve passes an ai.Config); nil offers none.
	Analyst Analyst
	// AnalysisWorkers bounds the analyses and reviews searching at once
	// (default DefaultAnalysisWorkers), besides the Workers of the games'
	// computer players; a request waits up to 10 s for one, then is
	// answered 503.
	AnalysisWorkers int
	// AnalysisTime caps one live analysis of /ws/analyze (default
	// DefaultAnalysisTime); ReviewTime is the search time of a whole
	// review (default DefaultReviewTime), shared over its positions.
	AnalysisTime, ReviewTime time.Duration
	// AnalyzeEvery and AnalyzeBurst limit the analyses and reviews one
	// client address may start (defaults DefaultAnalyzeEvery,
	// DefaultAnalyzeBurst).
	AnalyzeEvery time.Duration
	AnalyzeBurst int
}

// Server serves the API. It is an http.Handler.
type Server struct {
	cfg   Config
	store store.Store
	log   *slog.Logger
	mux   http.Handler // the routes behind the guard

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // workers, connections and the janitor
	// closing is set by Close, under closeMu, before it waits for wg: a
	// websocket that arrives after it is refused rather than added to a
	// WaitGroup that is being waited for.
	closeMu sync.Mutex
	closing bool
	worker  *Worker // nil when this process computes no moves

	mu    sync.Mutex // guards games
	games map[string]*room

	moveLat, commitLat latency

	creates, joins *httpx.RateLimiter
	open           openGames    // unfinished games per creating client
	expired        atomic.Int64 // games expired since the start
	broken         brokenGames  // games that could not be loaded

	aiWait      latency      // from a computer's move being due to a worker of this process taking it
	playersMade atomic.Int64 // computer players made by the workers

	wsConns    httpx.ConnCount // open websockets
	refused    atomic.Int64    // connections refused at a limit
	idleClosed atomic.Int64    // websockets closed for not answering a ping

	// instance names this server among those sharing the store; peers
	// are the others it has heard from (see relay.go).
	instance string
	peers    peers

	acct  accounts  // accounts and sessions
	lobby *lobby    // seeks and challenges
	an    *analysis // the analysis board's workers, rate limit and reviews
}

// New starts a server: it loads the store's unfinished games and resumes
// them.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil || len(cfg.Games) == 0 {
		return nil, errors.New("server: a store and at least one game are required")
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Workers == 0 {
		cfg.Workers = runtime.NumCPU()
	}
	if cfg.AITimeout <= 0 {
		cfg.AITimeout = 30 * time.Second
	}
	if cfg.NewPlayer == nil {
		cfg.NewPlayer = noPlayers
	}
	if cfg.Levels == nil {
		cfg.Levels = func(game.Game) []string { return []string{} }
	}
	if cfg.LevelReady == nil {
		cfg.LevelReady = func(game.Game, string) bool { return true }
	}
	if cfg.SendQueue <= 0 {
		cfg.SendQueue = 32
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
	httpx.SetDefault(&cfg.MaxConns, DefaultMaxConns)
	httpx.SetDefault(&cfg.MaxConnsPerIP, DefaultMaxConnsPerIP)
	httpx.SetDefault(&cfg.ConnHeadroom, DefaultConnHeadroom)
	httpx.SetDefault(&cfg.IPHeadroom, DefaultIPHeadroom)
	httpx.SetDefault(&cfg.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	httpx.SetDefault(&cfg.ReadTimeout, DefaultReadTimeout)
	httpx.SetDefault(&cfg.PingInterval, DefaultPingInterval)
	httpx.SetDefault(&cfg.PingTimeout, DefaultPingTimeout)
	httpx.SetDefault(&cfg.AnalysisWorkers, DefaultAnalysisWorkers)
	httpx.SetDefault(&cfg.AnalysisTime, DefaultAnalysisTime)
	httpx.SetDefault(&cfg.ReviewTime, DefaultReviewTime)
	httpx.SetDefault(&cfg.AnalyzeEvery, DefaultAnalyzeEvery)
	httpx.SetDefault(&cfg.AnalyzeBurst, DefaultAnalyzeBurst)
	if cfg.KeepFinished <= 0 {
		cfg.KeepFinished = 5 * time.Minute
	}
	instance := httpx.NewID()
	s := &Server{
		cfg:   cfg,
		store: cfg.Store,
		log:   cfg.Log,
		games: map[string]*room{},

		creates: httpx.NewRateLimiter(cfg.CreateEvery, cfg.CreateBurst),
		joins:   httpx.NewRateLimiter(cfg.JoinEvery, cfg.JoinBurst),
		lobby:   newLobby(cfg.Store, instance),

		instance: instance,
		peers:    peers{heard: map[string]time.Time{}, lapsed: map[string]time.Time{}},
		an:       newAnalysis(cfg),
	}
	// Password hashes take the computer moves' share of the CPUs, or all
	// of them on a server that leaves the moves to stax worker.
	hashers := cfg.Workers
	if hashers < 1 {
		hashers = runtime.NumCPU()
	}
	s.acct = accounts{params: cfg.PasswordParams, ttl: cfg.SessionTTL, hashes: make(chan struct{}, hashers),
		loginsByName: httpx.NewRateLimiter(loginNameEvery, loginNameBurst), loginsByIP: httpx.NewRateLimiter(loginIPEvery, loginIPBurst),
		signups: httpx.NewRateLimiter(signupEvery, signupBurst)}
	if s.acct.params == (PasswordParams{}) {
		s.acct.params = DefaultPasswordParams
	}
	if s.acct.ttl <= 0 {
		s.acct.ttl = DefaultSessionTTL
	}
	if a, ok := cfg.Store.(store.Accounts); ok {
		s.acct.store = a
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	if cfg.Workers > 0 {
		s.worker = NewWorker(WorkerConfig{Store: cfg.Store, Games: cfg.Games, NewPlayer: cfg.NewPlayer, Log: cfg.Log,
			AIDelay: cfg.AIDelay, AITimeout: cfg.AITimeout,
			Claimed: s.aiWait.add, PlayerMade: func() { s.playersMade.Add(1) }})
	}
	// Follow the feed before reading the games, so that no change falls
	// between the two.
	if err := s.store.Watch(s.ctx, s.startFeed()); err != nil {
		s.cancel()
		return nil, fmt.Errorf("server: follow the store's changes: %w", err)
	}
	if err := s.resume(); err != nil {
		s.cancel()
		return nil, err
	}
	s.routes()
	s.wg.Add(1)
	go s.janitor()
	if cfg.Now == nil {
		s.wg.Add(1)
		go s.clockLoop()
	}
	if s.worker != nil {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.worker.Run(s.ctx, cfg.Workers)
		}()
	}
	return s, nil
}

// resume looks at the unfinished games: it expires the abandoned ones and
// queues the computer moves of those whose computer is to move (a server
// that died between committing a move and queuing the answer left none;
// queuing a move twice does nothing), and keeps in memory those with a
// clock, whose flag it watches; the others are loaded when
// someone asks for them.
func (s *Server) resume() error {
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
			if err := s.store.Finish(s.ctx, l.id, *l.end(), time.Now().UTC()); err != nil {
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
	s.rateMissed()
	return nil
}

// unfinishedOneByOne reads the unfinished games one at a time, skipping
// (and reporting) those the store cannot read.
func (s *Server) unfinishedOneByOne() ([]*store.Game, error) {
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
func (s *Server) build(sg *store.Game) (*room, error) {
	g, err := s.cfg.Games.Load(sg.Spec)
	if err != nil {
		return nil, err
	}
	return newRoom(sg, g)
}

// get returns the game with the given id, loading it from the store if it
// is not in memory. It returns store.ErrNotFound for an unknown id.
func (s *Server) get(ctx context.Context, id string) (*room, error) {
	s.mu.Lock()
	l := s.games[id]
	s.mu.Unlock()
	if l != nil {
		return l, nil
	}
	if !httpx.ValidID(id) {
		return nil, fmt.Errorf("game %q: %w", id, store.ErrNotFound)
	}
	sg, err := s.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	l, err = s.build(sg)
	if err != nil {
		s.broken.add(id, err)
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	s.mu.Lock()
	if prev := s.games[id]; prev != nil {
		s.mu.Unlock()
		return prev, nil
	}
	l.idle = time.Now()
	s.games[id] = l
	s.mu.Unlock()
	// Other instances may hold it too, with offers, chat and players.
	s.ask(l)
	return l, nil
}

// janitor expires abandoned games and unloads the games nobody uses, every
// SweepEvery.
func (s *Server) janitor() {
	defer s.wg.Done()
	t := time.NewTicker(s.cfg.SweepEvery)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		s.sweep(s.now())
	}
}

// sweep expires the games with no move since Expiry, in memory or not,
// and unloads the games nobody watches: finished ones after KeepFinished,
// unfinished ones after KeepIdle (unless a computer is to move or a clock
// runs).
func (s *Server) sweep(now time.Time) {
	expiry := now.Add(-s.cfg.Expiry)
	finished := now.Add(-s.cfg.KeepFinished)
	idle := now.Add(-s.cfg.KeepIdle)
	s.creates.Sweep(now)
	s.joins.Sweep(now)
	s.an.starts.Sweep(now)
	s.acct.loginsByName.Sweep(now)
	s.acct.loginsByIP.Sweep(now)
	s.acct.signups.Sweep(now)
	s.mu.Lock()
	for id, l := range s.games {
		l.mu.Lock()
		if !l.h.Over() && l.lastActive().Before(expiry) && l.seats[l.h.State().ToMove()].Kind != "ai" {
			s.expire(l)
		}
		switch {
		case len(l.subs) > 0:
		case l.h.Over() && l.idle.Before(finished) && l.updated.Before(finished):
			l.dropped = true
		case !l.h.Over() && l.idle.Before(idle) && l.seats[l.h.State().ToMove()].Kind != "ai" && l.clk == nil:
			l.dropped = true
		}
		if l.dropped {
			delete(s.games, id)
		}
		l.mu.Unlock()
	}
	s.mu.Unlock()
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
func (s *Server) expire(l *room) {
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
func (s *Server) acquire(ctx context.Context, id string) (*room, error) {
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

// Close stops the server: it closes every websocket with status 1001,
// stops the AI moves and waits for them. It does not close the store.
func (s *Server) Close() error {
	s.closeMu.Lock()
	s.closing = true
	s.closeMu.Unlock()
	// The other instances forget this one's connections at once.
	ctx, cancel := context.WithTimeout(s.ctx, time.Second)
	s.announceSelf(ctx, peerGone)
	cancel()
	s.cancel()
	s.wg.Wait()
	return nil
}

// Live reports how many games are in memory and how many connections are
// open, for logs and tests.
func (s *Server) Live() (games, conns int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.games {
		l.mu.Lock()
		conns += len(l.subs)
		l.mu.Unlock()
	}
	return len(s.games), conns
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mux.ServeHTTP(w, r)
}

// scheduleAI queues the computer move of the seat to move, if it is a
// computer's, no sooner than AIDelay after the last move; whichever worker
// claims it makes it. The caller holds l.mu.
func (s *Server) scheduleAI(l *room) {
	if l.h.Over() || l.seats[l.h.State().ToMove()].Kind != "ai" {
		return
	}
	delay := time.Until(l.lastAt.Add(s.cfg.AIDelay))
	if err := s.store.AddJob(context.WithoutCancel(s.ctx), l.id, l.h.Ply(), max(delay, 0)); err != nil {
		s.log.Error("queue a computer move", "game", l.id, "ply", l.h.Ply(), "err", err)
	}
}

// noPlayers is the NewPlayer of a server configured without computer
// players.
func noPlayers(g game.Game, level string) (search.Player, error) {
	return nil, fmt.Errorf("level %q: this server has no computer players; want a human seat", level)
}
