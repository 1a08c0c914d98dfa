// Package server is the stax web site: a JSON API over HTTP and live games
// over websockets, with the server as referee. docs/server.md documents the
// API.
//
// The site is a set of domains, each a package of its own with its store
// interface, routes and wire types: the catalogue of games and levels
// (server/catalog), live play (server/play: rooms, moves, offers, the
// relay between instances), its clocks (server/clock), chat
// (server/chat) and computer moves (server/worker),
// accounts (server/account), ratings (server/ratings), the lobby
// (server/lobby), the bot API (server/bots), the analysis board
// (server/analysis), the opening
// explorer (server/explorer), the puzzles (server/puzzles) and the lessons
// (server/lessons). A domain that
// needs another calls a small interface the other implements. This package
// is the thin layer that composes them: it wires their dependencies,
// routes and guards the requests (headers, hosts, connection limits,
// proxies), follows the store's feed once for all of them, and serves the
// UI's files.
//
// The server knows no concrete game and no computer player: its caller
// passes the games it offers (Config.Games) and the players of its AI
// seats (Config.NewPlayer, Config.Levels), as stax serve does.
package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"stax/game"
	"stax/search"
	"stax/server/account"
	"stax/server/analysis"
	"stax/server/archive"
	"stax/server/assets"
	"stax/server/bots"
	"stax/server/catalog"
	"stax/server/explorer"
	"stax/server/httpx"
	"stax/server/lessons"
	"stax/server/lobby"
	"stax/server/moderation"
	"stax/server/offline"
	"stax/server/play"
	"stax/server/puzzles"
	"stax/server/ratings"
	"stax/server/store"
)

// The defaults of the limits (see Config).
const (
	DefaultCreateEvery     = play.DefaultCreateEvery
	DefaultCreateBurst     = play.DefaultCreateBurst
	DefaultJoinEvery       = play.DefaultJoinEvery
	DefaultJoinBurst       = play.DefaultJoinBurst
	DefaultMaxOpenGames    = play.DefaultMaxOpenGames
	DefaultExpiry          = play.DefaultExpiry
	DefaultKeepIdle        = play.DefaultKeepIdle
	DefaultMaxPlies        = play.DefaultMaxPlies
	DefaultAnalysisWorkers = analysis.DefaultAnalysisWorkers
	DefaultAnalysisTime    = analysis.DefaultAnalysisTime
	DefaultReviewTime      = analysis.DefaultReviewTime
	DefaultAnalyzeEvery    = analysis.DefaultAnalyzeEvery
	DefaultAnalyzeBurst    = analysis.DefaultAnalyzeBurst
	DefaultSessionTTL      = account.DefaultSessionTTL
	DefaultTokenEvery      = account.DefaultTokenEvery
	DefaultTokenBurst      = account.DefaultTokenBurst
	// DefaultStoreDeadline bounds a call to the store.
	DefaultStoreDeadline = 10 * time.Second
	// HealthDeadline bounds GET /healthz's check of the database.
	HealthDeadline = 2 * time.Second
)

// DefaultPasswordParams are the argon2id parameters of new password hashes.
var DefaultPasswordParams = account.DefaultPasswordParams

// PasswordParams are the argon2id parameters of password hashes.
type PasswordParams = account.PasswordParams

// Analyst analyses positions and reviews games for the analysis board.
type Analyst = analysis.Analyst

// Stats is the answer of GET /debug/stats.
type Stats = play.Stats

// Config configures a Server. Store and Games are required.
type Config struct {
	// Store keeps the games.
	Store store.Store
	// StoreDeadline bounds each call to the store (default
	// DefaultStoreDeadline): a database that stalls fails the request or
	// the move instead of holding it.
	StoreDeadline time.Duration
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
	// HSTSMaxAge is the max-age of the Strict-Transport-Security header
	// of answers to requests that came over TLS, directly or through a
	// trusted proxy that says so in X-Forwarded-Proto (default
	// DefaultHSTSMaxAge; negative sends none). Plain HTTP answers never
	// carry it.
	HSTSMaxAge time.Duration
	// DebugStats serves GET /debug/stats; it is off by default because it
	// tells outsiders how busy the server is.
	DebugStats bool
	// Metrics serves the Prometheus metrics at GET /metrics beside the
	// site; off by default, for the reason of DebugStats. The health
	// handler (HealthHandler) serves them always.
	Metrics bool
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
	// TokenEvery and TokenBurst limit the requests of one personal API
	// token: TokenBurst at once, then one every TokenEvery (defaults
	// DefaultTokenEvery, DefaultTokenBurst); past them a request is
	// answered 429 with Retry-After.
	TokenEvery time.Duration
	TokenBurst int
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
	// Engine gives the engine compiled for the browser, for offline play
	// and local analysis (stax serve builds it at start); nil serves none,
	// and GET /engine/status says so (server/offline).
	Engine offline.Source
}

// Server serves the site. It is an http.Handler.
type Server struct {
	cfg Config
	log *slog.Logger
	mux http.Handler // the routes behind the guard

	sockets  *httpx.Sockets
	catalog  *catalog.Catalog
	accounts *account.Accounts
	ratings  *ratings.Ratings
	lobby    *lobby.Lobby
	analysis *analysis.Board
	live     *play.Live
	archive  *archive.Archive
	offline  *offline.Offline
	// assets are the interface's files, hashed (nil without any), and
	// pages the index.html made from them for each page.
	assets *assets.Source
	pages  pages
	// moderation holds the blocks, reports and restrictions.
	moderation *moderation.Moderation
	puzzles    *puzzles.Puzzles
	explorer   *explorer.Explorer
	lessons    *lessons.Lessons
	bots       *bots.Bots

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // the janitor and the lobby's sweeper
	// refused counts the connections the listener refused.
	refused atomic.Int64
	// metrics is the registry of GET /metrics.
	metrics *metrics
}

// New starts a server: it composes the site's domains, follows the store's
// feed, and resumes the unfinished games.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil || len(cfg.Games) == 0 {
		return nil, errors.New("server: a store and at least one game are required")
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	// The errors every domain logs are counted for the metrics.
	errorsLogged := newErrorsLogged()
	cfg.Log = slog.New(errorsLogged.wrap(cfg.Log.Handler()))
	if cfg.Workers == 0 {
		cfg.Workers = runtime.NumCPU()
	}
	httpx.SetDefault(&cfg.MaxConns, DefaultMaxConns)
	httpx.SetDefault(&cfg.MaxConnsPerIP, DefaultMaxConnsPerIP)
	httpx.SetDefault(&cfg.ConnHeadroom, DefaultConnHeadroom)
	httpx.SetDefault(&cfg.IPHeadroom, DefaultIPHeadroom)
	httpx.SetDefault(&cfg.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	httpx.SetDefault(&cfg.ReadTimeout, DefaultReadTimeout)
	httpx.SetDefault(&cfg.PingInterval, DefaultPingInterval)
	httpx.SetDefault(&cfg.PingTimeout, DefaultPingTimeout)
	httpx.SetDefault(&cfg.SweepEvery, time.Minute)
	httpx.SetDefault(&cfg.MaxPlies, DefaultMaxPlies)
	if cfg.HSTSMaxAge == 0 {
		cfg.HSTSMaxAge = DefaultHSTSMaxAge
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	proxies := httpx.Proxies(cfg.TrustedProxies)
	s := &Server{cfg: cfg, log: cfg.Log}
	if cfg.Assets != nil {
		var err error
		if s.assets, err = assets.Open(cfg.Assets); err != nil {
			return nil, fmt.Errorf("server: the interface's files: %w", err)
		}
		// Compressed before the first visitors ask, once for the process.
		go s.assets.Set().Warm()
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.sockets = httpx.NewSockets(httpx.SocketLimits{MaxConns: cfg.MaxConns, MaxConnsPerIP: cfg.MaxConnsPerIP,
		OriginPatterns: cfg.OriginPatterns, PingInterval: cfg.PingInterval, PingTimeout: cfg.PingTimeout, SendQueue: cfg.SendQueue},
		proxies, cfg.Log)

	// The stores of the domains beyond live play are optional: a store
	// that keeps no accounts serves guests alone.
	users, _ := cfg.Store.(store.Users)
	rated, _ := cfg.Store.(store.Ratings)
	seeks, _ := cfg.Store.(store.Seeks)
	pairing, _ := cfg.Store.(store.Pairing)
	puzzleStore, _ := cfg.Store.(store.Puzzles)
	explorerStore, _ := cfg.Store.(store.Explorer)
	tokens, _ := cfg.Store.(store.Tokens)
	if users == nil {
		seeks, pairing, puzzleStore, tokens = nil, nil, nil, nil
	}
	// Every call to the database has a deadline: a stalled database fails
	// a request or a move in time rather than holding it.
	httpx.SetDefault(&cfg.StoreDeadline, DefaultStoreDeadline)
	games := store.WithDeadline(cfg.Store, cfg.StoreDeadline)
	if users != nil {
		users = store.UsersWithDeadline(users, cfg.StoreDeadline)
	}
	if rated != nil {
		rated = store.RatingsWithDeadline(rated, cfg.StoreDeadline)
	}
	if seeks != nil {
		seeks = store.SeeksWithDeadline(seeks, cfg.StoreDeadline)
	}
	if tokens != nil {
		tokens = store.TokensWithDeadline(tokens, cfg.StoreDeadline)
	}
	mods, _ := cfg.Store.(store.Moderation)
	if users == nil {
		mods = nil
	}
	if mods != nil {
		mods = store.ModerationWithDeadline(mods, cfg.StoreDeadline)
	}
	// Moderation comes first: the accounts refuse disabled ones.
	s.moderation = moderation.New(moderation.Config{Store: mods, Users: users, Proxies: proxies, Now: now, Log: cfg.Log})
	if puzzleStore != nil {
		puzzleStore = store.PuzzlesWithDeadline(puzzleStore, cfg.StoreDeadline)
	}
	if explorerStore != nil {
		explorerStore = store.ExplorerWithDeadline(explorerStore, cfg.StoreDeadline)
	}
	instance := httpx.NewID()
	s.catalog = catalog.New(catalog.Config{Games: cfg.Games, Levels: cfg.Levels, LevelReady: cfg.LevelReady, LevelElo: cfg.LevelElo,
		MaxPlies: cfg.MaxPlies})
	s.ratings = ratings.New(ratings.Config{Ratings: rated, Users: users, Games: cfg.Games, Now: now, Log: cfg.Log})
	var rater play.Rater
	if rated != nil && users != nil {
		rater = s.ratings
	}
	// Password hashes take the computer moves' share of the CPUs, or all
	// of them on a server that leaves the moves to stax worker.
	hashers := cfg.Workers
	if hashers < 1 {
		hashers = runtime.NumCPU()
	}
	s.accounts = account.New(account.Config{Users: s.moderation.GuardUsers(users), Tokens: s.moderation.GuardTokens(tokens),
		Feed: games, PasswordParams: cfg.PasswordParams, SessionTTL: cfg.SessionTTL,
		Hashers: hashers, Proxies: proxies, TokenEvery: cfg.TokenEvery, TokenBurst: cfg.TokenBurst, Now: now, Log: cfg.Log})
	live, err := play.New(play.Config{Store: games, Games: cfg.Games, Sessions: s.accounts, Rater: rater,
		Sockets: s.sockets, Proxies: proxies, Instance: instance, Log: cfg.Log,
		Catalog: s.catalog, Workers: cfg.Workers, AIDelay: cfg.AIDelay, AITimeout: cfg.AITimeout, NewPlayer: cfg.NewPlayer,
		CreateEvery: cfg.CreateEvery, CreateBurst: cfg.CreateBurst, JoinEvery: cfg.JoinEvery, JoinBurst: cfg.JoinBurst,
		MaxOpenGames: cfg.MaxOpenGames, Expiry: cfg.Expiry, KeepIdle: cfg.KeepIdle, SweepEvery: cfg.SweepEvery,
		KeepFinished: cfg.KeepFinished, MaxPlies: cfg.MaxPlies, Now: cfg.Now})
	if err != nil {
		return nil, err
	}
	s.live = live
	s.archive = archive.New(archive.Config{Store: games, Users: users, Games: cfg.Games, Sessions: s.accounts, Catalog: s.catalog,
		Turns: live, Proxies: proxies, ImportEvery: cmp.Or(cfg.CreateEvery, DefaultCreateEvery), ImportBurst: cmp.Or(cfg.CreateBurst, DefaultCreateBurst), MaxPlies: cfg.MaxPlies, Now: now, Log: cfg.Log})
	live.SetModerator(s.moderation)
	s.moderation.Wire(s.accounts, s.accounts, live)
	s.lobby = lobby.New(lobby.Config{Seeks: seeks, Pairing: pairing, Users: users, Feed: games, Games: cfg.Games, Sessions: s.accounts,
		Starter: live, Ratings: s.ratings, Sockets: s.sockets, Instance: instance, MaxPlies: cfg.MaxPlies, Now: now, Log: cfg.Log})
	s.lobby.SetBlocker(s.moderation)
	// Live play's news (a player's move, a draw offered) goes through the
	// lobby's site-wide news connections.
	live.SetNotifier(s.lobby)
	// The bot API follows and acts in live play's games.
	// It tells the accounts their challenges and games from the lobby's
	// news, and keeps their seeks while their event streams are open.
	bcfg := bots.Config{Sessions: s.accounts, Tokens: tokens, Games: live, Lobby: s.lobby, Registry: cfg.Games,
		Sockets: s.sockets, Proxies: proxies, Now: now, Log: cfg.Log}
	if rated != nil && users != nil {
		bcfg.Ratings = s.ratings
	}
	if users != nil {
		bcfg.Stored = botStore{Store: games, users: users}
	}
	s.bots = bots.New(bcfg)
	// An account disabled anywhere loses its websockets and streams here.
	s.moderation.OnDisabled(func(userID string) {
		r := store.Revocation{User: userID}
		s.live.Revoke(r)
		s.lobby.Revoke(r)
		s.bots.Revoke(r)
	})
	// A deleted account's seats and seeks are forgotten.
	s.accounts.ForgetIn(live, s.lobby)
	s.analysis = analysis.New(analysis.Config{Analyst: cfg.Analyst, Games: cfg.Games, Stored: games,
		Workers: cfg.AnalysisWorkers, Time: cfg.AnalysisTime, ReviewTime: cfg.ReviewTime,
		Every: cfg.AnalyzeEvery, Burst: cfg.AnalyzeBurst, MaxPlies: cfg.MaxPlies, Proxies: proxies,
		Sockets: s.sockets, Log: cfg.Log})
	s.offline = offline.New(offline.Config{Source: cfg.Engine, Assets: cfg.Assets, Hashed: s.hashedURLs})
	// The puzzles refute wrong moves with the analysis board's analyst.
	var refuter puzzles.Refuter
	if cfg.Analyst != nil {
		refuter = cfg.Analyst
	}
	if s.puzzles, err = puzzles.New(puzzles.Config{Store: puzzleStore, Games: cfg.Games, Sessions: s.accounts, Users: users, Refuter: refuter,
		Proxies: proxies, Now: cfg.Now, Log: cfg.Log}); err != nil {
		live.Close()
		return nil, err
	}
	// The explorer gives the verdicts of the analysis board's analyst and
	// the players' ratings before their rated games.
	xcfg := explorer.Config{Store: explorerStore, PoolOf: ratings.PoolOf, Games: cfg.Games, Proxies: proxies, Log: cfg.Log}
	if cfg.Analyst != nil {
		xcfg.Analyst = cfg.Analyst
	}
	if rated != nil {
		xcfg.Ratings = rated
	}
	s.explorer = explorer.New(xcfg)
	if s.lessons, err = lessons.New(lessons.Config{Games: cfg.Games, Proxies: proxies, Now: cfg.Now, Log: cfg.Log}); err != nil {
		live.Close()
		return nil, err
	}

	// Follow the feed before reading the games, so that no change falls
	// between the two.
	if err := cfg.Store.Watch(s.ctx, s.feed(live.Feed())); err != nil {
		s.cancel()
		return nil, fmt.Errorf("server: follow the store's changes: %w", err)
	}
	if err := live.Start(); err != nil {
		s.cancel()
		return nil, err
	}
	s.ratings.RateMissed(s.ctx)
	s.metrics = newMetrics(s, errorsLogged.c)
	s.routes()
	s.wg.Add(2)
	go s.janitor()
	go s.explorerLoop()
	if cfg.Now == nil {
		s.wg.Add(2)
		go s.lobbyLoop()
		go s.moderationLoop()
	}
	return s, nil
}

// feed returns the function that takes the store's events: the lobby's
// to the lobby, the others to live play, and a resync to both.
func (s *Server) feed(live func(store.Event)) func(store.Event) {
	return func(ev store.Event) {
		if s.ctx.Err() != nil {
			// Stopping: the domains are closing, and the store after
			// them; an event now would reach a closed store.
			return
		}
		switch ev.Kind {
		case store.EventSeek:
			s.lobby.Publish(ev.Game)
		case store.EventNews:
			s.lobby.Deliver(ev.Game, ev.Move)
			s.bots.Deliver(ev.Game, ev.Move)
		case store.EventRevoke:
			// Sessions and tokens ended: their websockets and streams
			// close, on every instance.
			r := store.RevocationOf(ev)
			s.live.Revoke(r)
			s.lobby.Revoke(r)
			s.bots.Revoke(r)
		case store.EventResync:
			s.lobby.Publish("")
			live(ev)
		default:
			live(ev)
		}
	}
}

// janitor has the domains forget their quiet rate-limit clients and rates
// the games left unrated, every SweepEvery.
func (s *Server) janitor() {
	defer s.wg.Done()
	httpx.Every(s.ctx, s.cfg.SweepEvery, func(now time.Time) {
		s.accounts.Sweep(now)
		s.analysis.Sweep(now)
		s.puzzles.Sweep(now)
		s.explorer.Sweep(now)
		s.lessons.Sweep(now)
		// A game whose instance stopped between its end and its rating
		// is rated by whichever instance is alive.
		s.ratings.RateMissed(s.ctx)
	})
}

// explorerBatch bounds the finished games the explorer indexes at once,
// so that a server started on a large database that was never indexed
// catches up a batch every SweepEvery (stax db explore indexes it all at
// once).
const explorerBatch = 1000

// explorerLoop indexes the finished games for the opening explorer at
// start and then every SweepEvery.
func (s *Server) explorerLoop() {
	defer s.wg.Done()
	index := func(time.Time) {
		if n, err := s.explorer.IndexMissed(s.ctx, explorerBatch); err != nil && s.ctx.Err() == nil {
			s.log.Error("explorer: index the finished games", "err", err, "indexed", n)
		}
	}
	index(time.Now())
	httpx.Every(s.ctx, s.cfg.SweepEvery, index)
}

// lobbyTick is how often the lobby withdraws the seeks left without their
// owner and renews its presence.
const lobbyTick = 100 * time.Millisecond

// lobbyLoop sweeps the lobby every lobbyTick.
func (s *Server) lobbyLoop() {
	defer s.wg.Done()
	httpx.Every(s.ctx, lobbyTick, func(now time.Time) { s.lobby.Sweep(now.UTC()) })
}

// moderationLoop reads the blocks and restrictions again every
// moderation.RefreshEvery, so that what stax admin or another instance
// changed takes effect here.
func (s *Server) moderationLoop() {
	defer s.wg.Done()
	httpx.Every(s.ctx, moderation.RefreshEvery, func(now time.Time) { s.moderation.Sweep(s.ctx, now) })
}

// CheckClocks flags the games whose player to move has run out of time,
// withdraws the seeks left without their owner and reads the moderation's
// snapshot again when it is due. A server configured
// with Config.Now does this only when called; otherwise every 100 ms.
func (s *Server) CheckClocks() {
	s.live.CheckClocks()
	now := time.Now
	if s.cfg.Now != nil {
		now = s.cfg.Now
	}
	s.lobby.Sweep(now().UTC())
	s.moderation.Sweep(s.ctx, now())
}

// Close stops the server: it closes every websocket with status 1001,
// stops the AI moves and waits for them. It does not close the store.
func (s *Server) Close() error {
	// The feed first, so that no event reaches a domain that is closing;
	// then the bot API's streams and the websockets, the rooms and their
	// workers, the analyses.
	s.cancel()
	s.bots.Close()
	s.sockets.Close()
	s.live.Close()
	s.analysis.Close()
	s.wg.Wait()
	return nil
}

// Live reports how many games are in memory and how many connections are
// open, for logs and tests.
func (s *Server) Live() (games, conns int) { return s.live.Live() }

// EventStreams reports how many event streams of the bot API are open on
// this instance, for tests.
func (s *Server) EventStreams() int { return s.bots.EventStreams() }

// botStore is what the bot API reads of the store: the games and the
// accounts' games.
type botStore struct {
	store.Store
	users store.Users
}

// GamesOf implements bots.Stored.
func (b botStore) GamesOf(ctx context.Context, userID string, limit int, status string) ([]*store.Game, error) {
	return b.users.GamesOf(ctx, userID, limit, status)
}

// Stats reports what the server holds and how long its moves take.
func (s *Server) Stats() Stats {
	st := s.live.Stats()
	st.Lobby = s.lobby.Conns()
	st.Refused = s.refused.Load() + s.sockets.Refused.Load()
	st.PingClosed = s.sockets.IdleClosed.Load()
	return st
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mux.ServeHTTP(w, r)
}
