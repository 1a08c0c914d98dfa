// Package moderation is the site's domain of moderation: players block
// accounts and report games and chat lines; operators (stax admin) read
// the reports, mute and disable accounts and send one-time password reset
// links.
//
// What live play and the lobby must know at every message (is this
// account muted, does this one block that one) is answered from memory:
// the domain keeps a snapshot of the blocks and restrictions, read again
// after each change made through it and every RefreshEvery, so that a
// change made by stax admin or another instance takes effect within that
// time.
package moderation

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"stax/server/httpx"
	"stax/server/store"
)

// RefreshEvery is how often the snapshot of blocks and restrictions is
// read again.
const RefreshEvery = 10 * time.Second

// ResetValid is how long a password reset link works, by default.
const ResetValid = 24 * time.Hour

// Sessions tells who sends a request (the accounts implement it).
type Sessions interface {
	// SignedIn returns the request's account, answering the request
	// itself (401 and the like) when there is none.
	SignedIn(w http.ResponseWriter, r *http.Request) (*store.User, *store.Session, bool)
}

// Passwords sets passwords (the accounts implement it).
type Passwords interface {
	// CheckNewPassword checks a new password of the account named name
	// (empty: the rules that do not depend on the name).
	CheckNewPassword(name, password string) error
	// ResetPassword sets an account's password and ends its sessions; it
	// reports false when it answered the request itself (busy, failed).
	ResetPassword(w http.ResponseWriter, r *http.Request, u *store.User, password string) bool
}

// ChatLines finds and removes chat lines of live games (live play
// implements it), so that a report quotes what was said rather than what
// the reporter claims, and an operator can take a line back.
type ChatLines interface {
	// ChatLine returns the text of the line of game sent by from at at,
	// "from: text", and whether this instance holds it.
	ChatLine(game, from string, at time.Time) (string, bool)
	// RemoveChatLines drops the lines of game sent by from with text
	// text, if this instance holds the game.
	RemoveChatLines(game, from, text string)
}

// KeepRemovals is how long a removed chat line is removed again at each
// refresh, in case another instance's copy of the chat brings it back.
const KeepRemovals = 24 * time.Hour

// Config configures the moderation domain.
type Config struct {
	// Store keeps the blocks, reports and restrictions; nil: the site
	// has no moderation (its routes answer 501, nobody is muted).
	Store store.Moderation
	// Users reads accounts by name.
	Users store.Users
	// Sessions and Passwords are the accounts'; Chat is live play's.
	Sessions  Sessions
	Passwords Passwords
	Chat      ChatLines
	// Proxies are the trusted reverse proxies, for the rate limits.
	Proxies httpx.Proxies
	// Now tells the time (default time.Now).
	Now func() time.Time
	// Log receives the domain's logs; nil discards them.
	Log *slog.Logger
}

// Moderation is the moderation domain.
type Moderation struct {
	cfg     Config
	reports *httpx.RateLimiter // reports per account

	mu       sync.RWMutex // guards the snapshot below
	muted    map[string]bool
	disabled map[string]bool
	blocks   map[string]map[string]bool // account id → names (NameKey) it blocks
	blockIDs map[string]map[string]bool // account id → account ids it blocks
	loaded   time.Time

	// onDisabled is told of each account found disabled at a refresh
	// that was not at the one before (see OnDisabled).
	onDisabled func(userID string)
}

// The limit of reports: 5 at once per account, then one a minute.
const reportEvery, reportBurst = time.Minute, 5

// New returns the moderation domain with its first snapshot read (an
// error reading it is logged, and the snapshot read again later).
func New(cfg Config) *Moderation {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	m := &Moderation{cfg: cfg, reports: httpx.NewRateLimiter(reportEvery, reportBurst)}
	if err := m.Refresh(context.Background()); err != nil {
		cfg.Log.Error("read the blocks and restrictions", "err", err)
	}
	return m
}

// Enabled reports whether the site has moderation.
func (m *Moderation) Enabled() bool { return m.cfg.Store != nil }

// Refresh reads the blocks and restrictions again.
func (m *Moderation) Refresh(ctx context.Context) error {
	if m.cfg.Store == nil {
		return nil
	}
	rs, err := m.cfg.Store.Restrictions(ctx)
	if err != nil {
		return err
	}
	bs, err := m.cfg.Store.Blocks(ctx)
	if err != nil {
		return err
	}
	muted, disabled := map[string]bool{}, map[string]bool{}
	for _, r := range rs {
		muted[r.UserID] = r.Muted
		disabled[r.UserID] = r.Disabled
	}
	blocks, ids := map[string]map[string]bool{}, map[string]map[string]bool{}
	for _, b := range bs {
		if blocks[b.UserID] == nil {
			blocks[b.UserID], ids[b.UserID] = map[string]bool{}, map[string]bool{}
		}
		blocks[b.UserID][store.NameKey(b.BlockedName)] = true
		ids[b.UserID][b.Blocked] = true
	}
	now := m.cfg.Now()
	m.mu.Lock()
	before, first := m.disabled, m.loaded.IsZero()
	m.muted, m.disabled, m.blocks, m.blockIDs, m.loaded = muted, disabled, blocks, ids, now
	onDisabled := m.onDisabled
	m.mu.Unlock()
	if onDisabled != nil && !first {
		for id, d := range disabled {
			if d && !before[id] {
				onDisabled(id)
			}
		}
	}
	if m.cfg.Chat == nil {
		return nil
	}
	// Chat lives in the instances' memory: each removes the lines an
	// operator removed (again: removing is idempotent).
	removals, err := m.cfg.Store.ChatRemovals(ctx, now.Add(-KeepRemovals))
	if err != nil {
		return err
	}
	for _, r := range removals {
		m.cfg.Chat.RemoveChatLines(r.Game, r.From, r.Text)
	}
	return nil
}

// Sweep reads the snapshot again when it is RefreshEvery old, and
// forgets the quiet clients of the rate limits.
func (m *Moderation) Sweep(ctx context.Context, now time.Time) {
	m.reports.Sweep(now)
	m.mu.RLock()
	due := now.Sub(m.loaded) >= RefreshEvery
	m.mu.RUnlock()
	if due {
		if err := m.Refresh(ctx); err != nil {
			m.cfg.Log.Warn("read the blocks and restrictions", "err", err)
		}
	}
}

// Muted reports whether an account is muted in every chat.
func (m *Moderation) Muted(userID string) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.muted[userID]
}

// Disabled reports whether an account is disabled.
func (m *Moderation) Disabled(userID string) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.disabled[userID]
}

// BlocksName reports whether the account userID blocks the account named
// name (chat lines carry names).
func (m *Moderation) BlocksName(userID, name string) bool {
	if userID == "" || name == "" {
		return false
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.blocks[userID][store.NameKey(name)]
}

// Blocks reports whether the account userID blocks the account other.
func (m *Moderation) Blocks(userID, other string) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.blockIDs[userID][other]
}

// GuardUsers wraps the accounts' store so that a disabled account cannot
// sign in (it reads as unknown by name) and its sessions are refused.
func (m *Moderation) GuardUsers(u store.Users) store.Users {
	if u == nil || m.cfg.Store == nil {
		return u
	}
	return guardedUsers{Users: u, m: m}
}

type guardedUsers struct {
	store.Users
	m *Moderation
}

func (g guardedUsers) UserByName(ctx context.Context, name string) (*store.User, error) {
	u, err := g.Users.UserByName(ctx, name)
	if err == nil && g.m.Disabled(u.ID) {
		return nil, fmt.Errorf("user %q: %w: the account is disabled", name, store.ErrNotFound)
	}
	return u, err
}

func (g guardedUsers) Session(ctx context.Context, tokenHash string) (*store.Session, error) {
	s, err := g.Users.Session(ctx, tokenHash)
	if err == nil && g.m.Disabled(s.UserID) {
		return nil, fmt.Errorf("session: %w: the account is disabled", store.ErrNotFound)
	}
	return s, err
}

// GuardTokens wraps the store of API tokens so that a disabled account's
// tokens are refused (they read as unknown).
func (m *Moderation) GuardTokens(t store.Tokens) store.Tokens {
	if t == nil || m.cfg.Store == nil {
		return t
	}
	return guardedTokens{Tokens: t, m: m}
}

type guardedTokens struct {
	store.Tokens
	m *Moderation
}

func (g guardedTokens) TokenByHash(ctx context.Context, hash string) (*store.Token, error) {
	t, err := g.Tokens.TokenByHash(ctx, hash)
	if err == nil && g.m.Disabled(t.UserID) {
		return nil, fmt.Errorf("token: %w: the account is disabled", store.ErrNotFound)
	}
	return t, err
}

// errNoModeration is the answer of every route of a site without it.
var errNoModeration = errors.New("this server keeps no accounts, so no blocks or reports")

// OnDisabled has f told of each account that a refresh finds newly
// disabled (by stax admin, by another instance), so that the site closes
// its websockets here. It is called while the site is wired.
func (m *Moderation) OnDisabled(f func(userID string)) {
	m.mu.Lock()
	m.onDisabled = f
	m.mu.Unlock()
}

// Wire gives the moderation its neighbours, which are built after it
// (the accounts take GuardUsers): the accounts' sessions and passwords and
// live play's chat. It is called while the site is wired, before it
// serves.
func (m *Moderation) Wire(sessions Sessions, passwords Passwords, chat ChatLines) {
	m.cfg.Sessions, m.cfg.Passwords, m.cfg.Chat = sessions, passwords, chat
}
