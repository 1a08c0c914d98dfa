// Package bots is the bot API: an account's event stream, a stream per
// game, and one request per move, resignation, draw offer or chat line, for
// programs that play on the site with a personal API token. Its shapes
// follow Lichess's Bot API where they fit, so that its authors recognise
// them; docs/bots.md documents it.
//
// A request is authenticated by the accounts domain (Sessions), which
// accepts a token sent as "Authorization: Bearer" and checks its scopes.
// The games are live play's (Games), the challenges and the news of an
// account the lobby's (Events).
package bots

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"stax/server/httpx"
	"stax/server/store"
)

// KeepAlive is how often a stream with nothing to say sends an empty line.
const KeepAlive = 7 * time.Second

// Sessions tells who sends a request (the accounts domain implements it).
type Sessions interface {
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
	// Sockets bounds the open streams with the websockets.
	Sockets *httpx.Sockets
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

	ctx    context.Context
	cancel context.CancelFunc

	mu sync.Mutex
}

// New makes the bot API.
func New(cfg Config) *Bots {
	b := &Bots{cfg: cfg, now: cfg.Now, log: cfg.Log}
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
}

// Close ends the streams.
func (b *Bots) Close() { b.cancel() }
