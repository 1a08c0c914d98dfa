// Package lobby is the site's domain of pairing: seeks open to everyone,
// challenges to one player, and the lobby's websocket, which shows the
// seeks as they change and brings a player the news of their own. The
// seeks are in the store, shared by every instance; the games they start
// are started by live play, through the Starter interface.
package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"stax/game"
	"stax/server/catalog"
	"stax/server/httpx"
	"stax/server/ratings"
	"stax/server/store"

	"github.com/coder/websocket"
)

const (
	// maxSeeksPerUser bounds the open seeks and challenges of one account.
	maxSeeksPerUser = 10
	// seekGrace is how long a seek posted by an account without a lobby
	// connection waits for one before it is withdrawn.
	seekGrace = time.Minute
	// presenceTTL is how long an instance's record that it holds an
	// account's lobby connection lasts; it renews it every presenceRenew,
	// so the seeks of an instance that stopped without a word go at most
	// presenceTTL after it.
	presenceTTL   = time.Minute
	presenceRenew = 20 * time.Second
	// seekSweepEvery is how often an instance withdraws expired seeks.
	seekSweepEvery = time.Second
	// DefaultQuiet is how long a lobby connection may go without a word
	// from its page (the page says "here" every 20 s) before the lobby
	// takes the page for gone (left for another in the same tab, frozen
	// in the back-forward cache) and closes it: its owner's seeks go
	// with it, so that nobody is paired in a game they will not see.
	DefaultQuiet = time.Minute
	// maxInitial, maxIncrement and maxDays bound a time control.
	maxInitial   = 3 * time.Hour
	maxIncrement = 3 * time.Minute
	maxDays      = 14
	// ratedMinimum is the least expected length of a rated Fischer game,
	// its initial time plus 40 increments: a rated game is long enough to
	// be decided by the board, not by the network (1+0 and 0.5+1 are
	// rated, 0.5+0 and 0+1 are not).
	ratedMinimum = time.Minute
)

// ClockSpec is a Fischer time control in seconds.
type ClockSpec struct {
	Initial   float64 `json:"initial"`
	Increment float64 `json:"increment"`
}

// SeekRequest is the body of POST /api/seeks and POST /api/challenges.
type SeekRequest struct {
	Spec string `json:"spec"`
	// Clock is a Fischer clock; Days a correspondence one (days per
	// move); neither means no clock.
	Clock *ClockSpec `json:"clock,omitempty"`
	Days  int        `json:"days,omitempty"`
	Rated bool       `json:"rated"`
	// Seat is the seat the seeker wants: "random" (or empty), or a seat
	// number as a number or a string.
	Seat json.RawMessage `json:"seat,omitempty"`
	// To names the player challenged (POST /api/challenges only).
	To string `json:"to,omitempty"`
}

// Seek is an open seek or a challenge.
type Seek struct {
	ID    string     `json:"id"`
	Owner string     `json:"owner"`
	To    string     `json:"to,omitempty"`
	Spec  string     `json:"spec"`
	Title string     `json:"title"`
	Clock *ClockSpec `json:"clock,omitempty"`
	Days  int        `json:"days,omitempty"`
	Rated bool       `json:"rated"`
	// Seat is the owner's seat, or -1 for a random one.
	Seat int `json:"seat"`
	// Pool is the rating pool of a rated seek.
	Pool string `json:"pool,omitempty"`
	// Rating is the owner's rating in the pool, when it has one, and
	// Provisional says that it is still provisional (shown "1500?").
	Rating      *float64 `json:"rating,omitempty"`
	Provisional bool     `json:"provisional,omitempty"`
	// Bot reports that the owner is a bot account, and ToBot that the
	// player challenged is.
	Bot   bool `json:"bot,omitempty"`
	ToBot bool `json:"toBot,omitempty"`
	// BotsRefused reports that the owner accepts no rated games against
	// bots (store.User.NoRatedBots): a rated seek of theirs is not
	// offered to bots.
	BotsRefused bool      `json:"botsRefused,omitempty"`
	Created     time.Time `json:"created"`

	ownerID, toID string
}

// AcceptResponse answers the acceptance of a seek or challenge.
type AcceptResponse struct {
	Game string `json:"game"`
}

// errNoLobby answers the lobby's routes on a server whose store keeps no
// seeks.
var errNoLobby = errors.New("this server keeps no lobby; invite a player with a link instead")

// Sessions tells who sends a request (the accounts domain implements it).
type Sessions interface {
	// Session returns the request's account, or an error when it has
	// none.
	Session(r *http.Request) (*store.User, *store.Session, error)
	// SignedIn returns the request's account, answering the request
	// itself (401 and the like) when there is none.
	SignedIn(w http.ResponseWriter, r *http.Request) (*store.User, *store.Session, bool)
}

// Starter starts the games the lobby pairs (live play implements it).
type Starter interface {
	// StartGame creates and starts a game between accounts, players[i]
	// in seat i, and returns its id.
	StartGame(ctx context.Context, spec, start string, players []*store.User, rated bool, clock *store.Clock) (string, error)
}

// Ratings tells a player's rating (the ratings domain implements it).
type Ratings interface {
	// Rating returns an account's rating in a pool.
	Rating(ctx context.Context, userID, pool string) (store.Rating, error)
}

// Config configures the lobby.
type Config struct {
	// Seeks keeps the seeks; nil keeps no lobby (its routes answer 501).
	Seeks store.Seeks
	// Pairing keeps the pools of quick pairing; nil keeps none (its
	// routes answer 501).
	Pairing store.Pairing
	// Users finds the players challenged.
	Users store.Users
	// Feed carries the news of the lobby to every instance.
	Feed store.Feed
	// Games lists the games the site plays.
	Games game.Registry
	// Sessions, Starter and Ratings are the neighbouring domains.
	Sessions Sessions
	Starter  Starter
	Ratings  Ratings
	// Sockets admits the lobby's websockets.
	Sockets *httpx.Sockets
	// Instance names this server in the store's presence records.
	Instance string
	// MaxPlies is the longest game the site plays (default 2000).
	MaxPlies int
	// Quiet is how long a lobby connection may go without a message from
	// its page before it is closed (default DefaultQuiet).
	Quiet time.Duration
	// Now tells the time of seeks and presence (default time.Now).
	Now func() time.Time
	// Log receives the lobby's logs; nil discards them.
	Log *slog.Logger
}

// Lobby is the site's domain of seeks and challenges. It holds this
// instance's lobby websockets; the seeks and challenges are in the store
// (store.Seeks), shared by every instance: each change comes back through
// the store's feed (EventSeek), and every instance sends the new lists to
// its own lobby connections (Publish); news for one account (a challenge,
// a seek taken or declined) travels the same way (EventNews), to whichever
// instance holds its connections (Deliver).
type Lobby struct {
	seeks    store.Seeks   // nil when the store keeps none
	pairing  store.Pairing // nil when the store keeps none
	users    store.Users
	feed     store.Feed
	games    game.Registry
	sessions Sessions
	starter  Starter
	ratings  Ratings
	blocker  Blocker // nil: nobody blocks anybody (see SetBlocker)
	sockets  *httpx.Sockets
	now      func() time.Time
	log      *slog.Logger
	// instance names this server in the store's lobby presence records.
	instance string
	maxPlies int
	quiet    time.Duration

	mu    sync.Mutex
	conns map[string]map[*httpx.Outbox]lobbyConn // lobby websockets by account id
	// news holds the websockets that follow only an account's news (the
	// site-wide connection of every page, GET /ws/lobby?news=1): they
	// neither receive the seeks nor keep them.
	news map[string]map[*httpx.Outbox]lobbyConn
	all  map[*httpx.Outbox]viewer // every lobby websocket and its account (none for guests)
	// attending counts, by account id, the connections of accounts that
	// keep their seeks as a lobby websocket does without being one (the
	// bot API's event streams: see Attend).
	attending map[string]int
	// shown holds the ids of the seeks this instance has told its
	// connections of, so that a change of many seeks is sent as its
	// differences.
	shown map[string]bool
	// changes limits the seeks each account posts and cancels.
	changes *httpx.RateLimiter
	// swept and renewed are when the expired seeks were last withdrawn
	// and this instance's presence records last renewed.
	swept, renewed time.Time
}

// New returns the lobby.
func New(cfg Config) *Lobby {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	httpx.SetDefault(&cfg.MaxPlies, 2000)
	httpx.SetDefault(&cfg.Quiet, DefaultQuiet)
	return &Lobby{maxPlies: cfg.MaxPlies, quiet: cfg.Quiet, seeks: cfg.Seeks, pairing: cfg.Pairing, users: cfg.Users, feed: cfg.Feed, games: cfg.Games, sessions: cfg.Sessions,
		starter: cfg.Starter, ratings: cfg.Ratings, sockets: cfg.Sockets, now: func() time.Time { return cfg.Now().UTC() },
		log: cfg.Log, instance: cfg.Instance,
		conns: map[string]map[*httpx.Outbox]lobbyConn{}, news: map[string]map[*httpx.Outbox]lobbyConn{}, all: map[*httpx.Outbox]viewer{}, attending: map[string]int{}, shown: map[string]bool{},
		changes: httpx.NewRateLimiter(churnEvery, churnBurst)}
}

// The limit on an account's seeks and challenges posted and cancelled:
// ten at once, then one every six seconds.
const (
	churnEvery = 6 * time.Second
	churnBurst = 10
)

// churn spends one of an account's seek changes, answering 429 itself
// when it has none left.
func (lb *Lobby) churn(w http.ResponseWriter, userID string) bool {
	if ok, retry := lb.changes.Allow(userID, lb.now()); !ok {
		httpx.TooFastAccount(w, retry, "seeks posted and cancelled")
		return false
	}
	return true
}

// lobbyConn is a signed-in lobby websocket: the token hash of the session
// that opened it, and how to close it.
type lobbyConn struct {
	session string
	drop    func()
}

// Revoke closes the lobby websockets that ended sessions opened, on this
// instance: the account's news no longer reaches them.
func (lb *Lobby) Revoke(r store.Revocation) {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	for _, conns := range []map[*httpx.Outbox]lobbyConn{lb.conns[r.User], lb.news[r.User]} {
		for _, lc := range conns {
			if r.Ends(lc.session) {
				lc.drop()
			}
		}
	}
}

// Conns returns the number of this instance's lobby websockets, those
// that follow only an account's news included.
func (lb *Lobby) Conns() int {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	n := len(lb.all)
	for _, conns := range lb.news {
		n += len(conns)
	}
	return n
}

// Routes adds the lobby's routes to m.
func (lb *Lobby) Routes(m *http.ServeMux) {
	m.HandleFunc("GET /api/seeks", lb.handleGetSeeks)
	m.HandleFunc("POST /api/seeks", lb.handlePostSeek)
	m.HandleFunc("POST /api/seeks/{id}/accept", lb.handleAcceptSeek)
	m.HandleFunc("DELETE /api/seeks/{id}", lb.handleCancelSeek)
	m.HandleFunc("GET /api/challenges", lb.handleGetSeeks)
	m.HandleFunc("POST /api/challenges", lb.handlePostChallenge)
	m.HandleFunc("POST /api/challenges/{id}/accept", lb.handleAcceptSeek)
	m.HandleFunc("POST /api/challenges/{id}/decline", lb.handleDeclineSeek)
	m.HandleFunc("DELETE /api/challenges/{id}", lb.handleCancelSeek)
	m.HandleFunc("GET /ws/lobby", lb.handleLobbyWS)
	lb.pairingRoutes(m)
}

// The codes of the HTTP errors a player meets in the lobby, by which the UI
// shows them in the player's language.
const (
	CodeSelfChallenge = "self_challenge"
	CodeOwnSeek       = "own_seek"
	// CodeNoRatedBots refuses a bot a rated game with a player who
	// accepts none against bots.
	CodeNoRatedBots = "no_rated_bots"
	// CodeBotsNotPaired refuses a bot quick pairing.
	CodeBotsNotPaired = "bots_not_paired"
	// CodeBadReason refuses a decline whose reason is not one of
	// DeclineReasons.
	CodeBadReason = "bad_reason"
)

// decodeSeek returns the seek a stored one describes.
func decodeSeek(r *store.Seek) (*Seek, error) {
	var sk Seek
	if err := json.Unmarshal(r.Body, &sk); err != nil {
		return nil, fmt.Errorf("seek %s: %w", r.ID, err)
	}
	sk.ownerID, sk.toID = r.Owner, r.To
	return &sk, nil
}

// all returns every seek and challenge, oldest first.
func (lb *Lobby) allSeeks(ctx context.Context) ([]*Seek, error) {
	rs, err := lb.seeks.Seeks(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]*Seek, 0, len(rs))
	for _, r := range rs {
		sk, err := decodeSeek(r)
		if err != nil {
			lb.log.Error("lobby", "err", err)
			continue
		}
		out = append(out, sk)
	}
	return out, nil
}

// viewer is who looks at the lobby: an account (none for a guest), and
// whether it is a bot.
type viewer struct {
	id  string
	bot bool
}

// viewerOf returns the viewer an account is (nil for a guest).
func viewerOf(u *store.User) viewer {
	if u == nil {
		return viewer{}
	}
	return viewer{id: u.ID, bot: u.Bot}
}

// seeksFor returns the seeks a viewer sees among all: the open seeks and
// the challenges from or to them; a bot does not see the rated seeks of
// the players who accept no rated games against bots.
func seeksFor(all []*Seek, v viewer) []*Seek {
	out := []*Seek{}
	for _, sk := range all {
		if v.bot && sk.toID == "" && sk.Rated && sk.BotsRefused {
			continue
		}
		if sk.toID == "" || sk.toID == v.id || sk.ownerID == v.id {
			out = append(out, sk)
		}
	}
	return out
}

// Message is a message of the lobby's websockets: the seeks ("seeks",
// "added", "removed"), or news of an account (one of the News* kinds),
// which the store's feed carries to whichever instance holds its
// connections (Deliver) and its event streams (the bot API).
type Message struct {
	Type  string  `json:"type"`
	Seeks []*Seek `json:"seeks,omitempty"`
	Game  string  `json:"game,omitempty"`
	Seek  string  `json:"seek,omitempty"`
	By    string  `json:"by,omitempty"`
	// Title is the title of the game of live play's news ("turn", "draw").
	Title string `json:"title,omitempty"`
	// Challenge is the challenge of the news of challenges.
	Challenge *Seek `json:"challenge,omitempty"`
	// Reason is why a challenge was declined (NewsDeclined), one of
	// DeclineReasons.
	Reason string `json:"reason,omitempty"`
}

// The kinds of an account's news (Message.Type).
const (
	// NewsChallenge: a challenge made to the account (Challenge, By).
	NewsChallenge = "challenge"
	// NewsChallengeSent: a challenge the account made (Challenge).
	NewsChallengeSent = "challengeSent"
	// NewsCanceled: a challenge to or from the account was cancelled by
	// its owner (Challenge).
	NewsCanceled = "canceled"
	// NewsDeclined: a challenge the account made was declined (Challenge,
	// By).
	NewsDeclined = "declined"
	// NewsStarted: a seek or challenge of the account was accepted, or
	// the account was paired, and its game started (Game, By).
	NewsStarted = "started"
	// NewsGameStart and NewsGameFinish: a game in which the account holds
	// a seat started or finished (Game), as live play tells through
	// Notify (play.NewsStart, play.NewsFinish).
	NewsGameStart  = "gameStart"
	NewsGameFinish = "gameFinish"
)

// forStreams reports whether news of a kind is for the account's event
// streams alone, which the pages have no use for: a challenge the account
// made or that was cancelled, a game started or finished.
func forStreams(kind string) bool {
	switch kind {
	case NewsChallengeSent, NewsCanceled, NewsGameStart, NewsGameFinish:
		return true
	}
	return false
}

// Publish sends this instance's lobby connections what changed in the
// seeks: the feed said that seek id changed ("" for any number of them). A
// change is sent as itself ("added" with the seek, "removed" with its id),
// to the connections that may see it, so that its cost does not grow with
// the list; the whole list goes only to a connection when it opens.
func (lb *Lobby) Publish(id string) {
	if lb.seeks == nil {
		return
	}
	ctx := context.Background()
	var changed []*Seek // the seeks added or changed
	var removed []string
	if id != "" {
		rec, err := lb.seeks.GetSeek(ctx, id)
		switch {
		case errors.Is(err, store.ErrNotFound):
			removed = append(removed, id)
		case err != nil:
			lb.log.Error("lobby: read a seek", "seek", id, "err", err)
			return
		default:
			sk, err := decodeSeek(rec)
			if err != nil {
				lb.log.Error("lobby", "err", err)
				return
			}
			changed = append(changed, sk)
		}
	} else {
		all, err := lb.allSeeks(ctx)
		if err != nil {
			lb.log.Error("lobby: read the seeks", "err", err)
			return
		}
		now := map[string]bool{}
		for _, sk := range all {
			now[sk.ID] = true
		}
		lb.mu.Lock()
		for known := range lb.shown {
			if !now[known] {
				removed = append(removed, known)
			}
		}
		for _, sk := range all {
			if !lb.shown[sk.ID] {
				changed = append(changed, sk)
			}
		}
		lb.mu.Unlock()
	}
	lb.mu.Lock()
	defer lb.mu.Unlock()
	for _, sk := range changed {
		lb.shown[sk.ID] = true
		msg := httpx.Marshal(Message{Type: "added", Seeks: []*Seek{sk}})
		for c, v := range lb.all {
			if len(lb.seeksFor([]*Seek{sk}, v)) > 0 {
				c.Send(msg)
			}
		}
	}
	for _, gone := range removed {
		delete(lb.shown, gone)
		msg := httpx.Marshal(Message{Type: "removed", Seek: gone})
		for c := range lb.all {
			c.Send(msg)
		}
	}
}

// Deliver sends news from the feed to this instance's lobby connections
// of an account, but for the kinds meant for its event streams alone.
func (lb *Lobby) Deliver(userID, news string) {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	if len(lb.conns[userID]) == 0 && len(lb.news[userID]) == 0 {
		return
	}
	var m struct{ Type string }
	if json.Unmarshal([]byte(news), &m) == nil && forStreams(m.Type) {
		return
	}
	b := []byte(news)
	for c := range lb.conns[userID] {
		c.Send(b)
	}
	for c := range lb.news[userID] {
		c.Send(b)
	}
}

// announce sends news to an account's lobby connections, on whichever
// instances they are.
func (lb *Lobby) announce(ctx context.Context, userID string, m Message) {
	ev := store.Event{Kind: store.EventNews, Game: userID, Move: string(httpx.Marshal(m))}
	if err := lb.feed.Announce(ctx, ev); err != nil {
		lb.log.Error("lobby: announce", "type", m.Type, "err", err)
	}
}

// Notify sends an account news of one of its games, on whichever instance
// holds its connections (live play's play.Notifier): kind is "turn" (the
// account's move), "draw" (a draw offered to it), NewsGameStart or
// NewsGameFinish, by the player who moved or offered, title the game's.
func (lb *Lobby) Notify(ctx context.Context, userID, kind, gameID, by, title string) {
	if lb.feed == nil {
		return
	}
	lb.announce(ctx, userID, Message{Type: kind, Game: gameID, By: by, Title: title})
}

// Challenges returns the open challenges to or from an account, oldest
// first (the bot API's event stream starts with them).
func (lb *Lobby) Challenges(ctx context.Context, userID string) ([]*Seek, error) {
	if lb.seeks == nil {
		return nil, nil
	}
	all, err := lb.allSeeks(ctx)
	if err != nil {
		return nil, err
	}
	var out []*Seek
	for _, sk := range all {
		if sk.toID != "" && (sk.toID == userID || sk.ownerID == userID) {
			out = append(out, sk)
		}
	}
	return out, nil
}

// Attend keeps an account's seeks and challenges in the lobby while a
// connection of its own holds them, as its lobby websockets do (the bot
// API's event stream, for a program that has no lobby page): until leave
// is called, and on every instance, they are not withdrawn for want of
// their owner. They stay seekGrace after leave, unlike a lobby page's: a
// program whose stream broke finds them when it connects again, and the
// games they make wait for it.
func (lb *Lobby) Attend(ctx context.Context, userID string) (leave func()) {
	if lb.seeks == nil {
		return func() {}
	}
	lb.mu.Lock()
	first := lb.attending[userID] == 0 && lb.conns[userID] == nil
	lb.attending[userID]++
	lb.mu.Unlock()
	if first {
		if err := lb.seeks.Present(ctx, lb.instance, []string{userID}, lb.now().Add(presenceTTL)); err != nil {
			lb.log.Error("lobby: presence", "err", err)
		}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			lb.mu.Lock()
			lb.attending[userID]--
			last := lb.attending[userID] == 0 && lb.conns[userID] == nil
			if lb.attending[userID] == 0 {
				delete(lb.attending, userID)
			}
			lb.mu.Unlock()
			if last && lb.sockets.Stopping().Err() == nil {
				// The presence lapses at the end of the grace, and the
				// sweep withdraws the seeks then (ExpireSeeks).
				if err := lb.seeks.Present(context.WithoutCancel(ctx), lb.instance, []string{userID}, lb.now().Add(seekGrace)); err != nil {
					lb.log.Error("lobby: leave", "err", err)
				}
			}
		})
	}
}

// ForgetAccount withdraws a deleted account's seeks and the challenges to it.
func (lb *Lobby) ForgetAccount(ctx context.Context, userID string) {
	if lb.seeks == nil {
		return
	}
	if err := lb.seeks.DeleteSeeks(ctx, userID); err != nil {
		lb.log.Error("lobby: delete the seeks of a deleted account", "err", err)
	}
	if lb.pairing != nil {
		if err := lb.pairing.Unwait(ctx, userID, ""); err != nil && !errors.Is(err, store.ErrNotFound) {
			lb.log.Error("lobby: stop the pairing of a deleted account", "err", err)
		}
	}
}

// Sweep withdraws the seeks whose owner has been out of the lobby
// for seekGrace, at most every seekSweepEvery, and renews this instance's
// presence records every presenceRenew.
func (lb *Lobby) Sweep(now time.Time) {
	if lb.seeks == nil {
		return
	}
	lb.mu.Lock()
	sweep := now.Sub(lb.swept) >= seekSweepEvery
	if sweep {
		lb.swept = now
	}
	var present []string
	if now.Sub(lb.renewed) >= presenceRenew {
		lb.renewed = now
		for uid := range lb.conns {
			present = append(present, uid)
		}
		for uid := range lb.attending {
			if lb.conns[uid] == nil {
				present = append(present, uid)
			}
		}
	}
	lb.mu.Unlock()
	ctx := context.Background()
	if len(present) > 0 {
		if err := lb.seeks.Present(ctx, lb.instance, present, now.Add(presenceTTL)); err != nil {
			lb.log.Error("lobby: renew presence", "err", err)
		}
	}
	if sweep {
		lb.changes.Sweep(now) // the rate limit forgets quiet accounts
		if _, err := lb.seeks.ExpireSeeks(ctx, now); err != nil {
			lb.log.Error("lobby: expire seeks", "err", err)
		}
		lb.sweepPairing(ctx, now)
	}
}

// parseSeek checks a seek request and returns the seek it describes.
func (lb *Lobby) parseSeek(req *SeekRequest) (*Seek, game.Game, error) {
	if strings.TrimSpace(req.Spec) == "" {
		return nil, nil, errors.New("missing spec; want a game spec such as pogo or pisola(size=8)")
	}
	g, err := lb.games.Load(req.Spec)
	if err != nil {
		return nil, nil, err
	}
	if g.Players() != 2 {
		return nil, nil, fmt.Errorf("%s has %d players: the lobby pairs two players; invite the others with a link from the home page", game.SpecOf(g), g.Players())
	}
	sk := &Seek{ID: httpx.NewID(), Spec: game.SpecOf(g).String(), Title: g.Info().Title, Rated: req.Rated, Seat: -1}
	switch {
	case req.Clock != nil && req.Days != 0:
		return nil, nil, errors.New("want a clock or days per move, not both")
	case req.Clock != nil:
		c := *req.Clock
		initial := time.Duration(c.Initial * float64(time.Second))
		increment := time.Duration(c.Increment * float64(time.Second))
		if c.Initial != c.Initial || initial < 0 || initial > maxInitial || c.Increment != c.Increment || increment < 0 || increment > maxIncrement || initial+increment < time.Second {
			return nil, nil, fmt.Errorf("clock %v+%v: want an initial time of 0 to %v seconds and an increment of 0 to %v seconds, at least 1 second in all",
				c.Initial, c.Increment, maxInitial.Seconds(), maxIncrement.Seconds())
		}
		if req.Rated && initial+40*increment < ratedMinimum {
			return nil, nil, fmt.Errorf("clock %v+%v: a rated game needs an initial time plus 40 increments of at least %v seconds (e.g. 60+0 or 20+1); make it longer or unrated",
				c.Initial, c.Increment, ratedMinimum.Seconds())
		}
		sk.Clock = &c
	case req.Days != 0:
		if req.Days < 1 || req.Days > maxDays {
			return nil, nil, fmt.Errorf("days %d: want 1 to %d days per move", req.Days, maxDays)
		}
		sk.Days = req.Days
	}
	if req.Rated && sk.Clock == nil && sk.Days == 0 {
		return nil, nil, errors.New("a rated game needs a clock or days per move, so that no player can stall it; add one or make it unrated")
	}
	if c := g.MaxPlies(); catalog.Capped(g) && (c == 0 || c > lb.maxPlies) {
		return nil, nil, fmt.Errorf("maxplies=%d: this server plays games of at most %d plies; want maxplies from 1 to %d", c, lb.maxPlies, lb.maxPlies)
	}
	if req.Rated {
		pool := ratings.PoolOf(g)
		if pool == "" {
			return nil, nil, fmt.Errorf("%s is not rated (ratings are kept for %s); make the seek unrated", sk.Spec, strings.Join(ratings.PoolNames(), ", "))
		}
		sk.Pool = pool
	}
	if len(req.Seat) > 0 {
		var v any
		if err := json.Unmarshal(req.Seat, &v); err != nil {
			return nil, nil, fmt.Errorf("seat: %v", err)
		}
		str := fmt.Sprint(v)
		if str != "random" && str != "" {
			n, err := strconv.Atoi(str)
			if err != nil || n < 0 || n >= g.Players() {
				return nil, nil, fmt.Errorf("seat %s: want \"random\" or a seat from 0 to %d", req.Seat, g.Players()-1)
			}
			sk.Seat = n
		}
	}
	return sk, g, nil
}

// clock returns the store's time control of a seek.
func (sk *Seek) clock() *store.Clock {
	switch {
	case sk.Clock != nil:
		return &store.Clock{
			Initial:   time.Duration(sk.Clock.Initial * float64(time.Second)).Truncate(time.Millisecond),
			Increment: time.Duration(sk.Clock.Increment * float64(time.Second)).Truncate(time.Millisecond),
		}
	case sk.Days > 0:
		return &store.Clock{Days: sk.Days}
	}
	return nil
}

func (lb *Lobby) handlePostSeek(w http.ResponseWriter, r *http.Request) {
	lb.postSeek(w, r, false)
}

func (lb *Lobby) handlePostChallenge(w http.ResponseWriter, r *http.Request) {
	lb.postSeek(w, r, true)
}

// lobbyUser answers a lobby route for the signed-in player, or answers
// the error itself.
func (lb *Lobby) lobbyUser(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
	u, _, ok := lb.sessions.SignedIn(w, r)
	if ok && lb.seeks == nil {
		httpx.Error(w, http.StatusNotImplemented, errNoLobby.Error())
		return nil, false
	}
	return u, ok
}

func (lb *Lobby) postSeek(w http.ResponseWriter, r *http.Request, challenge bool) {
	u, ok := lb.lobbyUser(w, r)
	if !ok {
		return
	}
	var req SeekRequest
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	sk, _, err := lb.parseSeek(&req)
	if err != nil {
		httpx.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	sk.Owner, sk.ownerID, sk.Bot = u.Name, u.ID, u.Bot
	sk.BotsRefused = !challenge && sk.Rated && u.NoRatedBots
	sk.Created = lb.now().Truncate(time.Millisecond)
	switch {
	case challenge && req.To == "":
		httpx.Error(w, http.StatusBadRequest, `missing "to": the name of the player challenged`)
		return
	case !challenge && req.To != "":
		httpx.Error(w, http.StatusBadRequest, `a seek is open to everyone; challenge a player with POST /api/challenges`)
		return
	case challenge:
		to, err := lb.users.UserByName(r.Context(), req.To)
		if errors.Is(err, store.ErrNotFound) {
			httpx.Error(w, http.StatusNotFound, fmt.Sprintf("no player named %q", req.To))
			return
		}
		if err != nil {
			lb.log.Error("challenge", "err", err)
			httpx.Error(w, http.StatusInternalServerError, "the player could not be looked up")
			return
		}
		if to.ID == u.ID {
			httpx.ErrorCode(w, http.StatusBadRequest, CodeSelfChallenge, "you cannot challenge yourself")
			return
		}
		if lb.apart(u.ID, to.ID) {
			httpx.Error(w, http.StatusForbidden, fmt.Sprintf("%s takes no challenges from you", to.Name))
			return
		}
		if u.Bot && sk.Rated && to.NoRatedBots && !to.Bot {
			httpx.ErrorCode(w, http.StatusConflict, CodeNoRatedBots, fmt.Sprintf("%s accepts no rated games against bots; challenge them to a casual game", to.Name))
			return
		}
		sk.To, sk.toID, sk.ToBot = to.Name, to.ID, to.Bot
	}
	if sk.Pool != "" {
		if rt, err := lb.ratings.Rating(r.Context(), u.ID, sk.Pool); err == nil && rt.Games > 0 {
			v := rt.Rating
			sk.Rating = &v
			sk.Provisional = rt.Deviation > ratings.ProvisionalDeviation
		}
	}
	all, err := lb.allSeeks(r.Context())
	if err != nil {
		lb.log.Error("seek", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the lobby could not be read")
		return
	}
	n := 0
	for _, x := range all {
		if x.ownerID == u.ID {
			n++
		}
	}
	if n >= maxSeeksPerUser {
		httpx.Error(w, http.StatusTooManyRequests, fmt.Sprintf("you have %d open seeks and challenges, the most one may; cancel some", n))
		return
	}
	body, err := json.Marshal(sk)
	if err != nil {
		httpx.Error(w, http.StatusInternalServerError, "the seek could not be saved")
		return
	}
	// A seek whose owner is in the lobby stays while they are; one posted
	// from elsewhere waits seekGrace for them.
	if !lb.churn(w, u.ID) {
		return
	}
	rec := &store.Seek{ID: sk.ID, Owner: u.ID, To: sk.toID, Body: body, Created: sk.Created, Expires: sk.Created.Add(seekGrace)}
	if err := lb.seeks.CreateSeek(r.Context(), rec); err != nil {
		lb.log.Error("seek", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the seek could not be saved")
		return
	}
	if sk.toID != "" {
		lb.announce(r.Context(), sk.toID, Message{Type: NewsChallenge, Seek: sk.ID, By: u.Name, Challenge: sk})
		lb.announce(r.Context(), u.ID, Message{Type: NewsChallengeSent, Seek: sk.ID, Challenge: sk})
	}
	httpx.WriteJSON(w, http.StatusCreated, sk)
}

func (lb *Lobby) handleGetSeeks(w http.ResponseWriter, r *http.Request) {
	if lb.seeks == nil {
		httpx.Error(w, http.StatusNotImplemented, errNoLobby.Error())
		return
	}
	var v viewer
	if u, _, err := lb.sessions.Session(r); err == nil {
		v = viewerOf(u)
	}
	spec := r.URL.Query().Get("game")
	all, err := lb.allSeeks(r.Context())
	if err != nil {
		lb.log.Error("seeks", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the lobby could not be read")
		return
	}
	out := []*Seek{}
	for _, sk := range lb.seeksFor(all, v) {
		if spec == "" || sk.Spec == spec || strings.HasPrefix(sk.Spec, spec+"(") {
			out = append(out, sk)
		}
	}
	httpx.WriteJSON(w, http.StatusOK, struct {
		Seeks []*Seek `json:"seeks"`
	}{out})
}

// takeSeek removes the seek id for its acceptor (or decliner or canceller,
// as by says), answering the errors itself. Of several players taking a
// seek at once, on any instances, one gets it.
func (lb *Lobby) takeSeek(w http.ResponseWriter, r *http.Request, u *store.User, by string) *Seek {
	userID := u.ID
	id := r.PathValue("id")
	gone := fmt.Sprintf("no open seek or challenge %q: it was cancelled, taken by someone else, or withdrawn when its owner left", id)
	rec, err := lb.seeks.GetSeek(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		httpx.Error(w, http.StatusNotFound, gone)
		return nil
	}
	var sk *Seek
	if err == nil {
		sk, err = decodeSeek(rec)
	}
	if err != nil {
		lb.log.Error("seek", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the seek could not be read")
		return nil
	}
	switch {
	case by == "accept" && lb.apart(userID, sk.ownerID):
		// A seek of an account apart from the player is not shown to
		// them: it is as good as gone.
		httpx.Error(w, http.StatusNotFound, gone)
		return nil
	case by == "accept" && sk.ownerID == userID:
		httpx.ErrorCode(w, http.StatusConflict, CodeOwnSeek, "this is your own seek; another player must accept it (or cancel it)")
		return nil
	case by == "accept" && u.Bot && sk.Rated && sk.BotsRefused:
		httpx.ErrorCode(w, http.StatusConflict, CodeNoRatedBots, fmt.Sprintf("%s accepts no rated games against bots", sk.Owner))
		return nil
	case (by == "accept" || by == "decline") && sk.toID != "" && sk.toID != userID:
		httpx.Error(w, http.StatusForbidden, fmt.Sprintf("this challenge is for %s", sk.To))
		return nil
	case by == "decline" && sk.toID == "":
		httpx.Error(w, http.StatusBadRequest, "only a challenge can be declined; a seek is simply left alone")
		return nil
	case by == "cancel" && sk.ownerID != userID:
		httpx.Error(w, http.StatusForbidden, "only its owner can cancel a seek")
		return nil
	}
	err = lb.seeks.TakeSeek(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		httpx.Error(w, http.StatusNotFound, gone)
		return nil
	}
	if err != nil {
		lb.log.Error("take seek", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the seek could not be taken")
		return nil
	}
	return sk
}

func (lb *Lobby) handleAcceptSeek(w http.ResponseWriter, r *http.Request) {
	u, ok := lb.lobbyUser(w, r)
	if !ok {
		return
	}
	sk := lb.takeSeek(w, r, u, "accept")
	if sk == nil {
		return
	}
	owner := &store.User{ID: sk.ownerID, Name: sk.Owner}
	seat := sk.Seat
	if seat < 0 {
		seat = rand.IntN(2)
	}
	players := []*store.User{owner, u}
	if seat == 1 {
		players = []*store.User{u, owner}
	}
	id, err := lb.starter.StartGame(r.Context(), sk.Spec, "", players, sk.Rated, sk.clock())
	if err != nil {
		lb.log.Error("start game", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the game could not be started")
		return
	}
	lb.announce(r.Context(), sk.ownerID, Message{Type: NewsStarted, Game: id, Seek: sk.ID, By: u.Name})
	httpx.WriteJSON(w, http.StatusCreated, AcceptResponse{Game: id})
}

// The reasons a challenge may be declined for (DeclineRequest.Reason): the
// words of Lichess's API, so that bot authors recognise them.
const (
	DeclineGeneric     = "generic"     // no reason given
	DeclineLater       = "later"       // not now: busy with other games
	DeclineTooFast     = "tooFast"     // a clock too fast
	DeclineTooSlow     = "tooSlow"     // a clock too slow
	DeclineTimeControl = "timeControl" // a kind of time control not accepted
	DeclineRated       = "rated"       // rated, and only casual games are accepted
	DeclineCasual      = "casual"      // casual, and only rated games are accepted
	DeclineVariant     = "variant"     // a game or variant not accepted
	DeclineNoBot       = "noBot"       // no games against bots
	DeclineOnlyBot     = "onlyBot"     // games against bots only
)

// DeclineReasons lists the reasons a challenge may be declined for.
var DeclineReasons = []string{DeclineGeneric, DeclineLater, DeclineTooFast, DeclineTooSlow, DeclineTimeControl,
	DeclineRated, DeclineCasual, DeclineVariant, DeclineNoBot, DeclineOnlyBot}

// DeclineRequest is the body of POST /api/challenges/{id}/decline, which
// may also be empty.
type DeclineRequest struct {
	// Reason is why the challenge is declined, one of DeclineReasons
	// (default generic); the challenger is told it.
	Reason string `json:"reason,omitempty"`
}

func (lb *Lobby) handleDeclineSeek(w http.ResponseWriter, r *http.Request) {
	u, ok := lb.lobbyUser(w, r)
	if !ok {
		return
	}
	var req DeclineRequest
	if r.ContentLength != 0 && !httpx.ReadJSON(w, r, &req) {
		return
	}
	if req.Reason == "" {
		req.Reason = DeclineGeneric
	}
	if !slices.Contains(DeclineReasons, req.Reason) {
		httpx.ErrorCode(w, http.StatusBadRequest, CodeBadReason, fmt.Sprintf("unknown reason %q; want one of %s", req.Reason, strings.Join(DeclineReasons, ", ")))
		return
	}
	sk := lb.takeSeek(w, r, u, "decline")
	if sk == nil {
		return
	}
	lb.announce(r.Context(), sk.ownerID, Message{Type: NewsDeclined, Seek: sk.ID, By: u.Name, Challenge: sk, Reason: req.Reason})
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (lb *Lobby) handleCancelSeek(w http.ResponseWriter, r *http.Request) {
	u, ok := lb.lobbyUser(w, r)
	if !ok || !lb.churn(w, u.ID) {
		return
	}
	sk := lb.takeSeek(w, r, u, "cancel")
	if sk == nil {
		return
	}
	if sk.toID != "" {
		for _, uid := range []string{sk.toID, sk.ownerID} {
			lb.announce(r.Context(), uid, Message{Type: NewsCanceled, Seek: sk.ID, By: u.Name, Challenge: sk})
		}
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// serveNews serves a websocket that follows only an account's news: a
// challenge, a game started. Every page of a signed-in player holds one;
// it keeps no seek in the lobby. Like the lobby's, the page says "here"
// every 20 s and a connection quiet for longer than Quiet is closed.
func (lb *Lobby) serveNews(w http.ResponseWriter, r *http.Request, uid, session string, release func()) {
	if uid == "" {
		release()
		httpx.Error(w, http.StatusUnauthorized, "sign in to receive your news")
		return
	}
	conn, ok := lb.sockets.Accept(w, r)
	if !ok {
		release()
		return
	}
	c := conn.Outbox()
	lb.mu.Lock()
	if lb.news[uid] == nil {
		lb.news[uid] = map[*httpx.Outbox]lobbyConn{}
	}
	// Signing out (anywhere) closes the connection.
	lb.news[uid][c] = lobbyConn{session: session, drop: func() { conn.CloseWith(websocket.StatusPolicyViolation, "signed out") }}
	lb.mu.Unlock()
	// A session that ended while the connection was being set up was
	// not among those Revoke closed: look again.
	if _, _, err := lb.sessions.Session(r); err != nil {
		conn.CloseWith(websocket.StatusPolicyViolation, "signed out")
	}
	// The connection's life goes on without the request, and without a
	// goroutine while the page is silent (see httpx.Socket.Serve).
	lb.serveQuiet(conn, func() {
		lb.newsGone(c, uid)
		release()
	})
}

// serveQuiet keeps a connection until it closes, or until it falls quiet
// for longer than Quiet (the page says it is here every 20 s), then calls
// end.
func (lb *Lobby) serveQuiet(conn *httpx.Socket, end func()) {
	quiet := time.AfterFunc(lb.quiet, func() {
		conn.CloseWith(websocket.StatusPolicyViolation, "the page fell quiet")
	})
	conn.Serve(func(websocket.MessageType, []byte) { quiet.Reset(lb.quiet) }, func() {
		quiet.Stop()
		end()
	})
}

// newsGone forgets a news connection that closed.
func (lb *Lobby) newsGone(c *httpx.Outbox, uid string) {
	lb.mu.Lock()
	delete(lb.news[uid], c)
	if len(lb.news[uid]) == 0 {
		delete(lb.news, uid)
	}
	lb.mu.Unlock()
	c.Close()
}

// handleLobbyWS serves the lobby's websocket: the list of seeks whenever
// it changes, and news of one's own seeks and challenges. The page sends
// {"type":"here"} every 20 s; a connection quiet for longer than Quiet is
// closed. An account's seeks are withdrawn when its last lobby connection,
// on any instance, closes.
func (lb *Lobby) handleLobbyWS(w http.ResponseWriter, r *http.Request) {
	release, ok := lb.sockets.Take(w, r)
	if !ok {
		return
	}
	var v viewer
	session := ""
	watching := false
	if u, ss, err := lb.sessions.Session(r); err == nil {
		v, session = viewerOf(u), ss.TokenHash
		// A bot account's seeks are its program's: its browser's lobby
		// page (a session, not a token) watches, and neither keeps
		// them nor withdraws them when it closes.
		watching = u.Bot && ss.Token == nil
	}
	uid := v.id
	if r.URL.Query().Get("news") == "1" {
		lb.serveNews(w, r, uid, session, release)
		return
	}
	if watching {
		uid = ""
	}
	conn, ok := lb.sockets.Accept(w, r)
	if !ok {
		release()
		return
	}
	c := conn.Outbox()

	lb.mu.Lock()
	lb.all[c] = v
	first := false
	if uid != "" {
		if lb.conns[uid] == nil {
			lb.conns[uid] = map[*httpx.Outbox]lobbyConn{}
			first = lb.attending[uid] == 0
		}
		// Signing out (anywhere) closes the connection.
		lb.conns[uid][c] = lobbyConn{session: session, drop: func() { conn.CloseWith(websocket.StatusPolicyViolation, "signed out") }}
	}
	lb.mu.Unlock()
	if session != "" {
		// A session that ended while the connection was being set up
		// was not among those Revoke closed: look again.
		if _, _, err := lb.sessions.Session(r); err != nil {
			conn.CloseWith(websocket.StatusPolicyViolation, "signed out")
		}
	}
	ctx := context.WithoutCancel(r.Context())
	if lb.seeks != nil {
		if first {
			if err := lb.seeks.Present(ctx, lb.instance, []string{uid}, lb.now().Add(presenceTTL)); err != nil {
				lb.log.Error("lobby: presence", "err", err)
			}
		}
		all, err := lb.allSeeks(ctx)
		if err != nil {
			lb.log.Error("lobby: read the seeks", "err", err)
		}
		c.Send(httpx.Marshal(Message{Type: "seeks", Seeks: lb.seeksFor(all, v)}))
	}
	// The connection's life goes on without the request, and without a
	// goroutine while the page is silent (see httpx.Socket.Serve); a
	// page that falls quiet is gone.
	lb.serveQuiet(conn, func() {
		lb.lobbyGone(ctx, c, uid)
		release()
	})
}

// lobbyGone forgets a lobby connection that closed, and withdraws its
// account's seeks when it was the account's last.
func (lb *Lobby) lobbyGone(ctx context.Context, c *httpx.Outbox, uid string) {
	lb.mu.Lock()
	last := false
	if uid != "" {
		delete(lb.conns[uid], c)
		if len(lb.conns[uid]) == 0 {
			delete(lb.conns, uid)
			last = lb.attending[uid] == 0
		}
	}
	lb.mu.Unlock()
	if last && lb.seeks != nil && lb.sockets.Stopping().Err() == nil {
		// The owner's seeks go unless another instance holds them in the
		// lobby. (When this server is stopping, the owner's page
		// reconnects to another instance: the presence record keeps the
		// seeks meanwhile, and lapses within presenceTTL if it does not.)
		if err := lb.seeks.Leave(ctx, lb.instance, uid, lb.now()); err != nil {
			lb.log.Error("lobby: leave", "err", err)
		}
	}
	lb.mu.Lock()
	delete(lb.all, c)
	lb.mu.Unlock()
	c.Close()
}
