// Package server is the stax web server: a JSON API over HTTP and live games
// over websockets, with the server as referee. docs/server.md documents the
// API.
//
// A [Server] holds every unfinished game in memory and each change to a game
// is serialised by that game's lock: a move is checked with the rules
// engine, committed to the [store.Store], and only then broadcast to the
// game's connections. AI moves run in a bounded pool of workers. On start
// the server loads the unfinished games from the store and resumes them.
//
// The server knows no concrete game and no computer player: its caller
// passes the games it offers (Config.Games) and the players of its AI
// seats (Config.NewPlayer, Config.Levels), as stax serve does.
package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"stax/game"
	"stax/search"
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
	// Workers bounds the AI moves computed at once (default: the number
	// of CPUs).
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
	// KeepFinished is how long a finished game nobody watches stays in
	// memory (default 5 minutes).
	KeepFinished time.Duration
}

// Server serves the API. It is an http.Handler.
type Server struct {
	cfg   Config
	store store.Store
	log   *slog.Logger
	mux   http.Handler // the routes behind the guard

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // AI moves, connections and the janitor
	sem    chan struct{}  // one token per AI worker

	mu    sync.Mutex // guards games
	games map[string]*live

	moveLat, commitLat latency

	wsConns    connCount    // open websockets
	refused    atomic.Int64 // connections refused at a limit
	idleClosed atomic.Int64 // websockets closed for not answering a ping
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
	if cfg.Workers <= 0 {
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
	if cfg.SendQueue <= 0 {
		cfg.SendQueue = 32
	}
	setDefault(&cfg.MaxConns, DefaultMaxConns)
	setDefault(&cfg.MaxConnsPerIP, DefaultMaxConnsPerIP)
	setDefault(&cfg.ConnHeadroom, DefaultConnHeadroom)
	setDefault(&cfg.IPHeadroom, DefaultIPHeadroom)
	setDefault(&cfg.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	setDefault(&cfg.ReadTimeout, DefaultReadTimeout)
	setDefault(&cfg.PingInterval, DefaultPingInterval)
	setDefault(&cfg.PingTimeout, DefaultPingTimeout)
	if cfg.KeepFinished <= 0 {
		cfg.KeepFinished = 5 * time.Minute
	}
	s := &Server{
		cfg:   cfg,
		store: cfg.Store,
		log:   cfg.Log,
		sem:   make(chan struct{}, cfg.Workers),
		games: map[string]*live{},
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	if err := s.resume(); err != nil {
		s.cancel()
		return nil, err
	}
	s.routes()
	s.wg.Add(1)
	go s.janitor()
	return s, nil
}

// resume loads the unfinished games and schedules their AI moves.
func (s *Server) resume() error {
	gs, err := s.store.Unfinished(s.ctx)
	if err != nil {
		return fmt.Errorf("server: load unfinished games: %w", err)
	}
	for _, sg := range gs {
		l, err := s.build(sg)
		if err != nil {
			// One broken game must not keep the others from resuming.
			s.log.Error("resume game", "game", sg.ID, "err", err)
			continue
		}
		l.mu.Lock()
		if l.h.Over() {
			// The moves end the game although it was stored unfinished
			// (e.g. a rules change): record the ending.
			if err := s.store.Finish(s.ctx, l.id, *l.end(), time.Now().UTC()); err != nil {
				s.log.Error("finish resumed game", "game", l.id, "err", err)
			}
		}
		s.scheduleAI(l)
		l.mu.Unlock()
		s.games[l.id] = l
	}
	s.log.Info("resumed games", "count", len(s.games))
	return nil
}

// build makes the live game of a stored one.
func (s *Server) build(sg *store.Game) (*live, error) {
	g, err := s.cfg.Games.Load(sg.Spec)
	if err != nil {
		return nil, err
	}
	return newLive(sg, g)
}

// get returns the game with the given id, loading it from the store if it
// is not in memory. It returns store.ErrNotFound for an unknown id.
func (s *Server) get(ctx context.Context, id string) (*live, error) {
	s.mu.Lock()
	l := s.games[id]
	s.mu.Unlock()
	if l != nil {
		return l, nil
	}
	if !validID(id) {
		return nil, fmt.Errorf("game %q: %w", id, store.ErrNotFound)
	}
	sg, err := s.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	l, err = s.build(sg)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if prev := s.games[id]; prev != nil {
		return prev, nil
	}
	l.idle = time.Now()
	s.games[id] = l
	return l, nil
}

// janitor drops finished games that nobody has watched for a while.
func (s *Server) janitor() {
	defer s.wg.Done()
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		cutoff := time.Now().Add(-s.cfg.KeepFinished)
		s.mu.Lock()
		for id, l := range s.games {
			l.mu.Lock()
			drop := l.h.Over() && len(l.subs) == 0 && !l.aiBusy && l.idle.Before(cutoff) && l.updated.Before(cutoff)
			l.mu.Unlock()
			if drop {
				delete(s.games, id)
			}
		}
		s.mu.Unlock()
	}
}

// Close stops the server: it closes every websocket with status 1001,
// stops the AI moves and waits for them. It does not close the store.
func (s *Server) Close() error {
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

// scheduleAI starts the AI of the seat to move, if it is an AI's turn and
// none is running. The caller holds l.mu.
func (s *Server) scheduleAI(l *live) {
	if l.h.Over() || l.aiBusy || s.ctx.Err() != nil {
		return
	}
	if l.seats[l.h.State().ToMove()].Kind != "ai" {
		return
	}
	l.aiBusy = true
	s.wg.Add(1)
	go s.runAI(l)
}

// runAI waits for a worker, lets the AI choose a move and plays it.
func (s *Server) runAI(l *live) {
	defer s.wg.Done()
	l.mu.Lock()
	wait := time.Until(l.lastAt.Add(s.cfg.AIDelay))
	l.mu.Unlock()
	if wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-s.ctx.Done():
			t.Stop()
		}
	}
	select {
	case s.sem <- struct{}{}:
	case <-s.ctx.Done():
	}
	if s.ctx.Err() != nil {
		// Shutting down: the game resumes when the server starts again.
		return
	}
	defer func() { <-s.sem }()

	l.mu.Lock()
	if l.h.Over() || l.seats[l.h.State().ToMove()].Kind != "ai" {
		l.aiBusy = false
		l.mu.Unlock()
		return
	}
	p := l.h.State().ToMove()
	st := &l.seats[p]
	if st.player == nil {
		pl, err := s.cfg.NewPlayer(l.g, st.Level)
		if err != nil {
			l.aiBusy = false
			s.log.Error("make AI player", "game", l.id, "seat", p, "level", st.Level, "err", err)
			s.finish(s.ctx, l, p, game.ByForfeit, "the computer player could not start: "+err.Error())
			l.mu.Unlock()
			return
		}
		st.player = pl
	}
	player := st.player
	pos := search.PositionOf(l.h).Clone()
	ply := l.h.Ply()
	st.thinking = true
	l.msg = nil
	l.broadcast()
	l.mu.Unlock()

	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.AITimeout)
	start := time.Now()
	res, err := search.Ask(ctx, player, pos, search.Limits{}, nil)
	cancel()

	l.mu.Lock()
	defer l.mu.Unlock()
	st.thinking = false
	l.aiBusy = false
	l.msg = nil
	if s.ctx.Err() != nil {
		return
	}
	if l.h.Over() || l.h.Ply() != ply {
		l.broadcast()
		s.scheduleAI(l)
		return
	}
	if err != nil {
		s.log.Error("AI move", "game", l.id, "seat", p, "err", err)
		detail := "the computer found no move: " + err.Error()
		if errors.Is(err, game.ErrIllegalMove) {
			detail = "the computer played an " + err.Error()
		}
		s.finish(s.ctx, l, p, game.ByForfeit, detail)
		return
	}
	text := pos.State.FormatMove(res.Move)
	s.log.Debug("AI move", "game", l.id, "seat", p, "move", text, "score", res.Score, "depth", res.Depth, "elapsed", time.Since(start))
	if err := s.play(s.ctx, l, []int{p}, text, nil); err != nil {
		// The move is legal (search.Ask checked it): the commit failed.
		s.log.Error("AI move not saved", "game", l.id, "seat", p, "move", text, "err", err)
		l.broadcast()
	}
}

// noPlayers is the NewPlayer of a server configured without computer
// players.
func noPlayers(g game.Game, level string) (search.Player, error) {
	return nil, fmt.Errorf("level %q: this server has no computer players; want a human seat", level)
}

// newSecret returns 128 random bits in hex.
func newSecret() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// hashSecret returns the hex SHA-256 of a token or invite.
func hashSecret(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newID returns a game id: 16 lowercase letters and digits.
func newID() string {
	var b [10]byte
	rand.Read(b[:])
	return idEncoding.EncodeToString(b[:])
}

func validID(id string) bool {
	if len(id) != 16 {
		return false
	}
	return strings.Trim(id, "abcdefghijklmnopqrstuvwxyz234567") == ""
}

// setDefault sets *v to def when it is zero or less.
func setDefault[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}
