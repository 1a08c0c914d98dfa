// Package bot plays on a stax server as a bot account, through the bot
// API of docs/bots.md: it reads the account's event stream, accepts the
// challenges its Policy allows and declines the others with a reason,
// follows each game's stream, and asks its Engine for a move whenever one
// of its seats is to move, passing the clocks. It reconnects with a
// growing delay after network errors, and after a restart it resumes its
// games where they stand, since the event stream begins with every
// unfinished game. It logs what it does to the caller's logger.
//
// The Engine may be a program speaking the engine protocol (Process, as
// stax bot runs it) or a computer player in the same process (Search, as
// the server's house bots run).
package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"stax/server/bots"
)

// Config configures a bot.
type Config struct {
	// URL is the server's address, e.g. https://stax.example.org.
	URL string
	// Token is a personal API token of the bot's account, with the bot
	// scope (or read, play and challenge).
	Token string
	// Engine chooses the moves.
	Engine Engine
	// Policy says which challenges are accepted.
	Policy Policy
	// MoveTime is the thinking time of a move in a game without a
	// Fischer clock (0: the engine's own budget).
	MoveTime time.Duration
	// Log receives what the bot does; nil discards it.
	Log *slog.Logger
	// HTTP sends the requests (default: a client of its own, with no
	// overall timeout, since streams last).
	HTTP *http.Client
	// MinBackoff and MaxBackoff bound the wait before connecting again
	// after an error: it starts at MinBackoff and doubles up to
	// MaxBackoff (defaults 1s and 1m).
	MinBackoff, MaxBackoff time.Duration
	// Quiet is how long a stream may send nothing, not even a keep-alive,
	// before the bot takes the connection for dead and connects again
	// (default three times bots.KeepAlive).
	Quiet time.Duration
}

// pendingTTL is how long an accepted challenge counts as a game under way
// before its game starts (a gameStart line that never comes frees it).
const pendingTTL = time.Minute

// answeredTTL is how long the bot remembers a challenge it answered, so
// that one sent again (after a reconnection) is not answered twice.
const answeredTTL = 10 * time.Minute

// Bot is a bot playing on a server. Run runs it, once.
type Bot struct {
	cfg   Config
	base  string // the server's URL, without a trailing slash
	log   *slog.Logger
	http  *http.Client
	quiet time.Duration
	name  string // the account's name, known once Run has begun

	ctx context.Context // Run's
	wg  sync.WaitGroup  // the games' goroutines

	mu        sync.Mutex // guards the fields below
	games     map[string]*gameRun
	accepting int                  // accepts sent and not yet answered
	pending   map[string]time.Time // games accepted and not yet started
	answered  map[string]time.Time // challenges answered, by id
}

// New checks a configuration and returns its bot.
func New(cfg Config) (*Bot, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("server address %q: want http:// or https:// and a host, e.g. https://stax.example.org", cfg.URL)
	}
	if cfg.Token == "" {
		return nil, errors.New("missing the token: make one in the account's settings, with the bot scope")
	}
	if cfg.Engine == nil {
		return nil, errors.New("missing the engine")
	}
	b := &Bot{cfg: cfg, base: strings.TrimRight(cfg.URL, "/"), log: cfg.Log, http: cfg.HTTP, quiet: cfg.Quiet,
		games: map[string]*gameRun{}, pending: map[string]time.Time{}, answered: map[string]time.Time{}}
	if b.log == nil {
		b.log = slog.New(slog.DiscardHandler)
	}
	if b.http == nil {
		b.http = &http.Client{}
	}
	if b.quiet <= 0 {
		b.quiet = 3 * bots.KeepAlive
	}
	if b.cfg.MinBackoff <= 0 {
		b.cfg.MinBackoff = time.Second
	}
	if b.cfg.MaxBackoff < b.cfg.MinBackoff {
		b.cfg.MaxBackoff = max(time.Minute, b.cfg.MinBackoff)
	}
	return b, nil
}

// Run plays until ctx is done, then waits for the moves being chosen and
// returns nil; the games go on on the server and are resumed by the next
// Run. It returns an error, at once, when the server refuses the token or
// the bot API (no reconnection can help), and after that for no other
// reason: network errors and a server that restarts are waited out.
func (b *Bot) Run(ctx context.Context) error {
	b.ctx = ctx
	defer b.wg.Wait()
	if err := b.whoami(ctx); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	bo := b.backoff()
	for {
		err := b.stream(ctx, "/api/stream/event", func() {
			bo.reset()
			b.log.Info("connected: waiting for challenges", "account", b.name, "server", b.base)
		}, b.event)
		if ctx.Err() != nil {
			return nil
		}
		if permanent(err) {
			return fmt.Errorf("the event stream: %w", err)
		}
		wait := bo.after(err)
		b.log.Warn("the event stream broke: connecting again", "err", err, "in", wait.Round(time.Millisecond))
		if !sleep(ctx, wait) {
			return nil
		}
	}
}

// backoff returns the backoff of a connection.
func (b *Bot) backoff() *backoff {
	return &backoff{min: b.cfg.MinBackoff, max: b.cfg.MaxBackoff}
}

// whoami learns the account's name (GET /api/me), waiting out network
// errors.
func (b *Bot) whoami(ctx context.Context) error {
	bo := b.backoff()
	for {
		var me struct {
			Name string `json:"name"`
		}
		err := b.request(ctx, http.MethodGet, "/api/me", nil, &me)
		if err == nil && me.Name != "" {
			b.name = me.Name
			return nil
		}
		if err == nil {
			err = errors.New("GET /api/me: no account's name in the answer")
		}
		if permanent(err) {
			return fmt.Errorf("the server refused the token: %w", err)
		}
		wait := bo.after(err)
		b.log.Warn("cannot reach the server: trying again", "err", err, "in", wait.Round(time.Millisecond))
		if !sleep(ctx, wait) {
			return ctx.Err()
		}
	}
}

// event handles one line of the event stream. It never blocks on the
// network: the answers to challenges are sent by goroutines of their own,
// so that the stream is read as fast as it comes.
func (b *Bot) event(data []byte) error {
	var ev bots.Event
	if err := json.Unmarshal(data, &ev); err != nil {
		b.log.Warn("a line of the event stream is not an event", "err", err)
		return nil
	}
	switch ev.Type {
	case bots.EventChallenge:
		if c := ev.Challenge; c != nil {
			ch := Challenge{From: c.Owner, Spec: c.Spec, Rated: c.Rated, Days: c.Days}
			if c.Clock != nil {
				ch.Fischer = true
				ch.Initial = secondsOf(c.Clock.Initial)
				ch.Increment = secondsOf(c.Clock.Increment)
			}
			b.challenge(c.ID, c.To, ch)
		}
	case bots.EventGameStart:
		if ev.Game != nil {
			b.follow(ev.Game)
		}
	case bots.EventGameFinish:
		if ev.Game != nil {
			b.finished(ev.Game)
		}
	case bots.EventChallengeCanceled:
		if ev.Challenge != nil {
			b.log.Info("challenge cancelled", "challenge", ev.Challenge.ID, "from", ev.Challenge.Owner)
		}
	case bots.EventChallengeDeclined:
		if ev.Challenge != nil {
			b.log.Info("challenge declined", "challenge", ev.Challenge.ID, "to", ev.Challenge.To)
		}
	default:
		b.log.Debug("an event of an unknown type, ignored", "type", ev.Type)
	}
	return nil
}

// secondsOf converts seconds to a duration.
func secondsOf(s float64) time.Duration {
	return time.Duration(s * float64(time.Second))
}

// playing returns the games under way: those followed, and those
// accepted and not started yet. b.mu must be held.
func (b *Bot) playing() int {
	n := len(b.games) + b.accepting
	for id, at := range b.pending {
		if time.Since(at) > pendingTTL {
			delete(b.pending, id)
			continue
		}
		n++
	}
	return n
}

// challenge answers a challenge made to the account (or notes one it
// made) as the policy decides.
func (b *Bot) challenge(id, to string, c Challenge) {
	if strings.EqualFold(c.From, b.name) {
		b.log.Debug("our challenge", "challenge", id, "to", to)
		return
	}
	b.mu.Lock()
	for cid, at := range b.answered {
		if time.Since(at) > answeredTTL {
			delete(b.answered, cid)
		}
	}
	if _, done := b.answered[id]; done {
		b.mu.Unlock()
		return
	}
	b.answered[id] = time.Now()
	d := b.cfg.Policy.Decide(c, b.playing())
	if d.Accept {
		b.accepting++
	}
	b.mu.Unlock()
	attrs := []any{"challenge", id, "from", c.From, "spec", c.Spec, "rated", c.Rated, "clock", clockText(c)}
	if !d.Accept {
		b.log.Info("declining a challenge", append(attrs, "reason", d.Reason, "why", d.Why)...)
		b.wg.Add(1)
		go func() {
			defer b.wg.Done()
			path := "/api/challenges/" + url.PathEscape(id) + "/decline"
			if err := b.request(b.ctx, http.MethodPost, path, map[string]string{"reason": d.Reason}, nil); err != nil && b.ctx.Err() == nil {
				b.log.Warn("the decline failed", "challenge", id, "err", err)
			}
		}()
		return
	}
	b.log.Info("accepting a challenge", attrs...)
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		var res struct {
			Game string `json:"game"`
		}
		err := b.request(b.ctx, http.MethodPost, "/api/challenges/"+url.PathEscape(id)+"/accept", nil, &res)
		b.mu.Lock()
		b.accepting--
		if err == nil && b.games[res.Game] == nil {
			b.pending[res.Game] = time.Now()
		}
		b.mu.Unlock()
		if err != nil && b.ctx.Err() == nil {
			b.log.Warn("the acceptance failed", "challenge", id, "err", err)
		}
	}()
}

// clockText writes a challenge's time control for the log.
func clockText(c Challenge) string {
	switch {
	case c.Fischer:
		return c.Initial.String() + "+" + c.Increment.String()
	case c.Days > 0:
		return fmt.Sprintf("%d days a move", c.Days)
	}
	return "none"
}

// follow starts playing a game, unless it is followed already.
func (b *Bot) follow(ge *bots.GameEvent) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.pending, ge.ID)
	if b.games[ge.ID] != nil || b.ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithCancel(b.ctx)
	g := &gameRun{b: b, id: ge.ID, spec: ge.Spec, cancel: cancel, posted: -1, declined: -1}
	b.games[ge.ID] = g
	b.wg.Add(1)
	var names []string
	for _, p := range ge.Players {
		names = append(names, p.Name)
	}
	b.log.Info("game started", "game", ge.ID, "spec", ge.Spec, "rated", ge.Rated, "players", strings.Join(names, ", "), "seat", ge.Seat)
	go func() {
		defer b.wg.Done()
		g.play(ctx)
		cancel()
		b.mu.Lock()
		delete(b.games, ge.ID)
		b.mu.Unlock()
	}()
}

// finished notes the end of a game that the event stream announces, and
// stops following it.
func (b *Bot) finished(ge *bots.GameEvent) {
	b.mu.Lock()
	g := b.games[ge.ID]
	b.mu.Unlock()
	if g != nil {
		g.cancel()
	}
}
