// Package bots is the bot API: an account's event stream, a stream per
// game, and one request per move, resignation, draw offer or chat line, for
// programs that play on the site with a personal API token. Its shapes
// follow Lichess's Bot API where they fit, so that its authors recognise
// them; docs/bots.md documents it.
//
// A request is authenticated by the accounts domain (Sessions), which
// accepts a token sent as "Authorization: Bearer" and checks its scopes.
// The games are live play's (Games), the challenges and the news of an
// account the lobby's (Events). Every stream is bounded: it counts as a
// websocket against the site's connection limits (httpx.Sockets), a token
// or session holds at most MaxGameStreams game streams and
// MaxEventStreams event streams, and what waits for a stream's client is
// bounded (play.Follower, StreamQueue); a client too slow to read is
// closed.
package bots

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"stax/game"
	"stax/server/httpx"
	"stax/server/store"
)

// KeepAlive is how often a stream with nothing to say sends an empty line.
const KeepAlive = 7 * time.Second

// Sessions tells who sends a request (the accounts domain implements it).
type Sessions interface {
	// Session returns the request's account, or an error when it has
	// none.
	Session(r *http.Request) (*store.User, *store.Session, error)
	// SignedIn returns the request's account, answering the request
	// itself (401 and the like) when there is none.
	SignedIn(w http.ResponseWriter, r *http.Request) (*store.User, *store.Session, bool)
}

// Config configures the bot API.
type Config struct {
	// Sessions authenticates the requests.
	Sessions Sessions
	// Tokens keeps the bot accounts; nil: the store keeps none, and the
	// API answers 501.
	Tokens store.Tokens
	// Games is live play, whose games the API follows and acts in.
	Games Games
	// Ratings tells the players' ratings the streams show; nil shows
	// none.
	Ratings Ratings
	// Lobby is the lobby, for the event streams: the challenges of an
	// account, and its seeks kept while its stream is open.
	Lobby Events
	// Stored reads the accounts' games for the event streams; nil: the
	// store keeps no accounts.
	Stored Stored
	// Registry lists the games the site plays.
	Registry game.Registry
	// Sockets bounds the open streams with the websockets.
	Sockets *httpx.Sockets
	// KeepAlive is how often a quiet stream sends an empty line (default
	// KeepAlive).
	KeepAlive time.Duration
	// Proxies are the trusted reverse proxies, for the per-address
	// limits.
	Proxies httpx.Proxies
	// Now tells the time (default time.Now).
	Now func() time.Time
	// Log receives the logs; nil discards them.
	Log *slog.Logger
}

// Bots serves the bot API.
type Bots struct {
	cfg Config
	now func() time.Time
	log *slog.Logger

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // the open streams' handlers

	mu sync.Mutex // guards the fields below
	// closing is set by Close: no stream opens after it.
	closing bool
	// streams are the open streams, and gameStreams and eventStreams
	// count the game and event streams of each token or session
	// (streamKey).
	streams                   map[*stream]struct{}
	gameStreams, eventStreams map[string]int
	// events are the open event streams, by account id (Deliver).
	events map[string]map[*eventStream]struct{}
}

// New makes the bot API.
func New(cfg Config) *Bots {
	httpx.SetDefault(&cfg.KeepAlive, KeepAlive)
	b := &Bots{cfg: cfg, now: cfg.Now, log: cfg.Log, streams: map[*stream]struct{}{}, gameStreams: map[string]int{},
		eventStreams: map[string]int{}, events: map[string]map[*eventStream]struct{}{}}
	if b.now == nil {
		b.now = time.Now
	}
	if b.log == nil {
		b.log = slog.New(slog.DiscardHandler)
	}
	b.ctx, b.cancel = context.WithCancel(context.Background())
	return b
}

// Routes adds the bot API's routes to m.
func (b *Bots) Routes(m *http.ServeMux) {
	m.HandleFunc("GET /api/bot/game/stream/{id}", b.handleGameStream)
	m.HandleFunc("POST /api/bot/game/{id}/move/{move}", b.handleMove)
	m.HandleFunc("POST /api/bot/game/{id}/resign", b.handleResign)
	m.HandleFunc("POST /api/bot/game/{id}/draw/{answer}", b.handleDraw)
	m.HandleFunc("POST /api/bot/game/{id}/chat", b.handleChat)
	m.HandleFunc("POST /api/bot/game/{id}/abort", b.handleAbort)
	m.HandleFunc("POST /api/bot/game/{id}/claim-victory", b.handleClaim)
	m.HandleFunc("GET /api/stream/event", b.handleEvents)
	m.HandleFunc("GET /api/bots", b.handleBots)
}

// Revoke ends the streams that ended sessions (or tokens) opened, on this
// instance.
func (b *Bots) Revoke(r store.Revocation) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for st := range b.streams {
		if st.user == r.User && st.session != "" && r.Ends(st.session) {
			st.cancel()
		}
	}
}

// Close ends the streams, refuses new ones and waits for their handlers
// to finish. It may be called more than once.
func (b *Bots) Close() {
	b.mu.Lock()
	b.closing = true
	b.mu.Unlock()
	b.cancel()
	b.wg.Wait()
}
