package account

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"golang.org/x/crypto/argon2"

	"stax/server/httpx"
	"stax/server/store"
)

// The codes of the HTTP errors a player meets while signing in, by which
// the UI shows them in the player's language.
const (
	CodeBadName       = "bad_name"
	CodeWeakPassword  = "weak_password"
	CodeNameTaken     = "name_taken"
	CodeWrongLogin    = "wrong_login"
	CodeWrongPassword = "wrong_password"
	CodeBusy          = "busy"
)

// PasswordParams are the argon2id parameters of new password hashes. Each
// hash records its own, so that changing them later still verifies the
// older hashes.
type PasswordParams struct {
	// Time is the number of passes over the memory.
	Time uint32
	// Memory is the memory used, in KiB.
	Memory uint32
	// Threads is the parallelism.
	Threads uint8
}

// DefaultPasswordParams are the parameters OWASP's password storage cheat
// sheet gives for argon2id with 19 MiB: m=19456 KiB, t=2, p=1 (a 16-byte
// random salt and a 32-byte key). One hash takes some 30 to 60 ms on one
// core.
var DefaultPasswordParams = PasswordParams{Time: 2, Memory: 19 * 1024, Threads: 1}

const (
	// sessionCookie names the session cookie.
	sessionCookie = SessionCookie
	// DefaultSessionTTL is how long a session lasts after signing in.
	DefaultSessionTTL = 30 * 24 * time.Hour
	// minPassword and maxPassword bound a password's length, in bytes;
	// argon2 hashes anything, but a password of megabytes is an attack
	// rather than a secret.
	minPassword, maxPassword = 8, 256
	// minUserName and maxUserName bound an account name, in characters.
	minUserName, maxUserName = 3, 20
	// DeletedName is the name a deleted account's seats keep.
	DeletedName = "(deleted player)"
	// The login rate limits, token buckets: 10 attempts at once per
	// account name, then one every 30 s; 30 at once per address, then
	// one every 10 s. Signups: 5 at once per address, then one every 10
	// minutes.
	loginNameEvery, loginNameBurst = 30 * time.Second, 10
	loginIPEvery, loginIPBurst     = 10 * time.Second, 30
	signupEvery, signupBurst       = 10 * time.Minute, 5
)

// Config configures the accounts.
type Config struct {
	// Users keeps the accounts and sessions; nil serves none (every
	// account route answers 501, and every visitor is a guest).
	Users store.Users
	// Tokens keeps the personal API tokens and the bot accounts; nil
	// refuses every request that carries a token (401), and the token
	// routes answer 501.
	Tokens store.Tokens
	// Feed tells every instance of the sessions that end, so that their
	// websockets close (store.EventRevoke); nil tells none.
	Feed store.Feed
	// PasswordParams are the argon2id parameters of new password hashes
	// (default DefaultPasswordParams).
	PasswordParams PasswordParams
	// SessionTTL is how long a session lasts (default DefaultSessionTTL).
	SessionTTL time.Duration
	// Hashers bounds the password hashes computed at once (default 1).
	Hashers int
	// Proxies are the trusted reverse proxies, for the per-address limits.
	Proxies httpx.Proxies
	// TokenEvery and TokenBurst limit the requests of one API token:
	// TokenBurst at once, then one every TokenEvery (defaults
	// DefaultTokenEvery, DefaultTokenBurst).
	TokenEvery time.Duration
	TokenBurst int
	// Now tells the time of sessions and rate limits (default time.Now).
	Now func() time.Time
	// Log receives the accounts' logs; nil discards them.
	Log *slog.Logger
}

// Forgetter is a domain that keeps something of an account (seats in
// games, seeks) and forgets it when the account is deleted.
type Forgetter interface {
	ForgetAccount(ctx context.Context, userID string)
}

// Accounts is the site's domain of accounts: sign-up, sign-in, sessions,
// passwords, the deletion of an account, personal API tokens and bot
// accounts.
type Accounts struct {
	store   store.Users  // nil when the store keeps no accounts
	tokens  store.Tokens // nil when it keeps no tokens
	feed    store.Feed
	params  PasswordParams
	ttl     time.Duration
	proxies httpx.Proxies
	forget  []Forgetter
	now     func() time.Time
	log     *slog.Logger
	// hashes shares the password hashes computed at once between client
	// addresses, in turn, with a bounded waiting room.
	hashes *httpx.Fair
	// hashed, when the tests set it, is told each client address as its
	// request takes a hashing slot: the order the server serves them in.
	hashed func(client string)
	// Login attempts per account name and per address, and signups per
	// address.
	loginsByName, loginsByIP, signups *httpx.RateLimiter
	// tokenLimit limits the requests per API token; used records their
	// use.
	tokenLimit *httpx.RateLimiter
	used       tokenUse
}

// New returns the accounts domain.
func New(cfg Config) *Accounts {
	if cfg.PasswordParams == (PasswordParams{}) {
		cfg.PasswordParams = DefaultPasswordParams
	}
	httpx.SetDefault(&cfg.SessionTTL, DefaultSessionTTL)
	httpx.SetDefault(&cfg.Hashers, 1)
	httpx.SetDefault(&cfg.TokenEvery, DefaultTokenEvery)
	httpx.SetDefault(&cfg.TokenBurst, DefaultTokenBurst)
	if cfg.Users == nil {
		cfg.Tokens = nil
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Accounts{store: cfg.Users, tokens: cfg.Tokens, feed: cfg.Feed, params: cfg.PasswordParams, ttl: cfg.SessionTTL, proxies: cfg.Proxies,
		now: func() time.Time { return cfg.Now().UTC() }, log: cfg.Log,
		hashes:       httpx.NewFair(cfg.Hashers, hashWaiting, hashWaitingPerClient),
		loginsByName: httpx.NewRateLimiter(loginNameEvery, loginNameBurst), loginsByIP: httpx.NewRateLimiter(loginIPEvery, loginIPBurst),
		signups:    httpx.NewRateLimiter(signupEvery, signupBurst),
		tokenLimit: httpx.NewRateLimiter(cfg.TokenEvery, cfg.TokenBurst), used: tokenUse{last: map[string]time.Time{}}}
}

// ForgetIn adds domains that keep something of an account (seats,
// seeks), told when one is deleted. It is called while the site is wired,
// before it serves.
func (s *Accounts) ForgetIn(fs ...Forgetter) {
	s.forget = append(s.forget, fs...)
}

// revoke tells every instance that sessions ended, so that the websockets
// they opened close.
func (s *Accounts) revoke(ctx context.Context, r store.Revocation) {
	if s.feed == nil {
		return
	}
	if err := s.feed.Announce(context.WithoutCancel(ctx), store.RevokeEvent(r)); err != nil {
		s.log.Error("announce the end of sessions", "err", err)
	}
}

// Enabled reports whether the site keeps accounts.
func (s *Accounts) Enabled() bool { return s.store != nil }

// Sweep forgets the rate limits' clients and the tokens that have been
// quiet.
func (s *Accounts) Sweep(now time.Time) {
	s.loginsByName.Sweep(now)
	s.loginsByIP.Sweep(now)
	s.signups.Sweep(now)
	s.tokenLimit.Sweep(now)
	s.used.sweep(now)
}

// hashPassword returns the PHC string of argon2id over password with a new
// salt.
func hashPassword(password string, p PasswordParams) string {
	salt := make([]byte, 16)
	rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, 32)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// noPassword begins the password hash of an account that never signs in
// with a password (NoPassword).
const noPassword = "!"

// NoPassword returns a password hash that no password matches, for an
// account that never signs in with one, such as a house bot: signing in
// as it is refused as a wrong password is.
func NoPassword() string {
	raw := make([]byte, 16)
	rand.Read(raw)
	return noPassword + hex.EncodeToString(raw)
}

// checkPassword reports whether password matches a PHC string that
// hashPassword made (none matches NoPassword's).
func checkPassword(password, encoded string) (bool, error) {
	if strings.HasPrefix(encoded, noPassword) {
		return false, nil
	}
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, fmt.Errorf("password hash: want $argon2id$v=..$m=..,t=..,p=..$salt$key")
	}
	var v int
	var p PasswordParams
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return false, fmt.Errorf("password hash: version %q; want v=%d", parts[2], argon2.Version)
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil {
		return false, fmt.Errorf("password hash: parameters %q: %v", parts[3], err)
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	key, err2 := b64.DecodeString(parts[5])
	if err := errors.Join(err1, err2); err != nil || len(key) == 0 {
		return false, fmt.Errorf("password hash: bad salt or key: %v", err)
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1, nil
}

// The bounds of the password hashing's waiting room: requests past them
// are answered 503 with Retry-After at once, rather than waiting behind a
// crowd (a hash takes tens of milliseconds and 19 MiB).
const (
	hashWaiting          = 64
	hashWaitingPerClient = 4
)

// HashesWaiting returns how many sign-ins, sign-ups and password changes
// wait for a password hashing slot now, for metrics.
func (s *Accounts) HashesWaiting() int { return s.hashes.Waiting() }

// hashing runs f while holding one of the password hashing slots, taken
// in turn with the other client addresses, so that the memory argon2 takes
// stays bounded whatever the number of requests, and one address's crowd
// of sign-ins does not hold another's. When the waiting room is full, or
// the request ends first, it answers the request itself (503 with
// Retry-After) and returns an error.
func (s *Accounts) hashing(w http.ResponseWriter, r *http.Request, f func()) error {
	client := s.proxies.ClientIP(r)
	release, err := s.hashes.Acquire(r.Context(), httpx.ClientKey(client))
	if err != nil {
		if errors.Is(err, httpx.ErrBusy) {
			w.Header().Set("Retry-After", "2")
			httpx.ErrorCode(w, http.StatusServiceUnavailable, CodeBusy, "too many sign-ins at once; try again in a moment")
		}
		return err
	}
	defer release()
	if s.hashed != nil {
		s.hashed(client)
	}
	f()
	return nil
}

// checkUserName checks an account name: 3 to 20 ASCII letters, digits,
// '_' or '-', starting with a letter or digit. (Plain ASCII keeps names
// that look alike from being different accounts.)
func checkUserName(name string) error {
	if n := len(name); n < minUserName || n > maxUserName {
		return fmt.Errorf("name %q: want %d to %d characters", name, minUserName, maxUserName)
	}
	for i, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case (r == '_' || r == '-') && i > 0:
		default:
			return fmt.Errorf("name %q: want letters, digits, '_' and '-' only, starting with a letter or digit", name)
		}
	}
	if reservedName(name) {
		return fmt.Errorf("name %q is reserved; choose another", name)
	}
	return nil
}

// weakPasswords are refused whatever their length.
var weakPasswords = map[string]bool{
	"password": true, "password1": true, "12345678": true, "123456789": true, "1234567890": true,
	"qwertyuiop": true, "qwerty123": true, "11111111": true, "iloveyou": true, "abcdefgh": true,
	"abc12345": true, "letmein1": true, "00000000": true, "87654321": true, "passw0rd": true,
}

// checkPassword checks a new password: 8 to 256 bytes, not the name, not
// one character repeated, not a well-known password.
func checkNewPassword(name, password string) error {
	switch {
	case len(password) < minPassword:
		return fmt.Errorf("password: want at least %d characters", minPassword)
	case len(password) > maxPassword:
		return fmt.Errorf("password: want at most %d bytes", maxPassword)
	case strings.EqualFold(password, name):
		return errors.New("password: it must not be your name")
	case strings.Count(password, password[:1]) == len(password):
		return errors.New("password: one character repeated is too weak")
	case weakPasswords[strings.ToLower(password)]:
		return errors.New("password: that is one of the best-known passwords; choose another")
	}
	return nil
}

// Credentials is the body of POST /api/signup and POST /api/login.
type Credentials struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

// PasswordChange is the body of POST /api/password.
type PasswordChange struct {
	Old string `json:"old"`
	New string `json:"new"`
}

// PasswordConfirm is the body of DELETE /api/me.
type PasswordConfirm struct {
	Password string `json:"password"`
}

// Me answers GET /api/me, POST /api/signup and POST /api/login.
type Me struct {
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
	// Expires is when the session ends (absent for a request made with an
	// API token, which does not expire).
	Expires time.Time `json:"expires,omitzero"`
	// Bot reports that the account is a bot.
	Bot bool `json:"bot"`
	// RatedBots reports whether the player accepts rated games against
	// bots.
	RatedBots bool `json:"ratedBots"`
}

// MeOf returns the Me of an account and its session.
func MeOf(u *store.User, ss *store.Session) Me {
	return Me{Name: u.Name, Created: u.Created, Expires: ss.Expires, Bot: u.Bot, RatedBots: !u.NoRatedBots}
}

func (s *Accounts) handleSignup(w http.ResponseWriter, r *http.Request) {
	if s.store == nil {
		httpx.Error(w, http.StatusNotImplemented, store.ErrNoAccounts.Error())
		return
	}
	var req Credentials
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	if err := checkUserName(req.Name); err != nil {
		httpx.ErrorCode(w, http.StatusBadRequest, CodeBadName, err.Error())
		return
	}
	if err := checkNewPassword(req.Name, req.Password); err != nil {
		httpx.ErrorCode(w, http.StatusBadRequest, CodeWeakPassword, err.Error())
		return
	}
	now := s.now()
	if !s.signups.Admit(w, r, s.proxies, now, "accounts created") {
		return
	}
	var hash string
	if err := s.hashing(w, r, func() { hash = hashPassword(req.Password, s.params) }); err != nil {
		return
	}
	u := &store.User{ID: httpx.NewID(), Name: req.Name, PasswordHash: hash, Created: now.Truncate(time.Millisecond)}
	if err := s.store.CreateUser(r.Context(), u); err != nil {
		if errors.Is(err, store.ErrConflict) {
			httpx.ErrorCode(w, http.StatusConflict, CodeNameTaken, fmt.Sprintf("the name %q is taken; choose another", req.Name))
			return
		}
		s.log.Error("create user", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the account could not be saved")
		return
	}
	s.log.Info("account created", "name", u.Name)
	s.startSession(w, r, u, http.StatusCreated)
}

func (s *Accounts) handleLogin(w http.ResponseWriter, r *http.Request) {
	if s.store == nil {
		httpx.Error(w, http.StatusNotImplemented, store.ErrNoAccounts.Error())
		return
	}
	var req Credentials
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	if req.Name == "" || req.Password == "" {
		httpx.Error(w, http.StatusBadRequest, `want {"name": ..., "password": ...}`)
		return
	}
	if len(req.Password) > maxPassword || len(req.Name) > 4*maxUserName {
		httpx.ErrorCode(w, http.StatusUnauthorized, CodeWrongLogin, "wrong name or password")
		return
	}
	now := s.now()
	if !s.loginsByIP.Admit(w, r, s.proxies, now, "sign-in attempts") {
		return
	}
	u, err := s.store.UserByName(r.Context(), req.Name)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.log.Error("login", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the account could not be read")
		return
	}
	// The account-wide limit holds guesses from everywhere else; the
	// owner's own browsers (known devices) are not held by it.
	if !knownDevice(r, u, now) {
		if ok, wait := s.loginsByName.Allow(store.NameKey(req.Name), now); !ok {
			httpx.TooFast(w, wait, "sign-in attempts")
			return
		}
	}
	ok := false
	err = s.hashing(w, r, func() {
		if u == nil {
			// Hash anyway, so that the answer takes as long for a name
			// that does not exist.
			hashPassword(req.Password, s.params)
			return
		}
		var cerr error
		ok, cerr = checkPassword(req.Password, u.PasswordHash)
		if cerr != nil {
			s.log.Error("login", "name", u.Name, "err", cerr)
		}
	})
	if err != nil {
		return
	}
	if !ok {
		httpx.ErrorCode(w, http.StatusUnauthorized, CodeWrongLogin, "wrong name or password")
		return
	}
	s.startSession(w, r, u, http.StatusOK)
}

// startSession stores a new session for u, sets its cookie and answers Me.
func (s *Accounts) startSession(w http.ResponseWriter, r *http.Request, u *store.User, code int) {
	var b [32]byte
	rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	now := s.now().Truncate(time.Millisecond)
	ss := &store.Session{TokenHash: httpx.HashSecret(token), UserID: u.ID, Created: now, Expires: now.Add(s.ttl)}
	if err := s.store.CreateSession(r.Context(), ss); err != nil {
		s.log.Error("create session", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the session could not be saved")
		return
	}
	http.SetCookie(w, &http.Cookie{
		// Max-Age rather than Expires: the browser's clock may differ
		// from the server's.
		Name: sessionCookie, Value: token, Path: "/", MaxAge: int(s.ttl.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil,
	})
	markDevice(w, r, u, now)
	httpx.WriteJSON(w, code, MeOf(u, ss))
}

// errSignedOut and errExpired say why a request has no account.
var (
	errSignedOut = errors.New("you are not signed in")
	errExpired   = errors.New("your session has expired; sign in again")
)

// SessionCookie names the session cookie: a request without it is a
// guest's.
const SessionCookie = "stax_session"

// Session returns the account and session of a request: those of its
// personal API token ("Authorization: Bearer", whose session's Token is
// the token and TokenHash its hash) when it carries one, else those of
// its cookie. Without a valid cookie it is errSignedOut, with an expired
// one errExpired; a token that is unknown, or lacks the scope the request
// needs (tokenScopes), is refused with an error that SignedIn answers 401
// or 403.
func (s *Accounts) Session(r *http.Request) (*store.User, *store.Session, error) {
	if secret, ok := bearerSecret(r); ok {
		return s.tokenSession(r, secret)
	}
	if s.store == nil {
		return nil, nil, errSignedOut
	}
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return nil, nil, errSignedOut
	}
	ss, err := s.store.Session(r.Context(), httpx.HashSecret(c.Value))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, errSignedOut
	}
	if err != nil {
		return nil, nil, err
	}
	if !s.now().Before(ss.Expires) {
		s.store.DeleteSession(r.Context(), ss.TokenHash)
		return nil, nil, errExpired
	}
	u, err := s.store.UserByID(r.Context(), ss.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, errSignedOut
	}
	if err != nil {
		return nil, nil, err
	}
	return u, ss, nil
}

// SignedIn returns the request's account, answering 401 (or 501, or 500)
// when there is none.
func (s *Accounts) SignedIn(w http.ResponseWriter, r *http.Request) (*store.User, *store.Session, bool) {
	if s.store == nil {
		httpx.Error(w, http.StatusNotImplemented, store.ErrNoAccounts.Error())
		return nil, nil, false
	}
	u, ss, err := s.Session(r)
	var te *tokenError
	switch {
	case errors.Is(err, errSignedOut), errors.Is(err, errExpired):
		httpx.Error(w, http.StatusUnauthorized, err.Error())
		return nil, nil, false
	case errors.As(err, &te):
		if te.status == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		}
		httpx.ErrorCode(w, te.status, te.code, te.msg)
		return nil, nil, false
	case err != nil:
		s.log.Error("session", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the session could not be read")
		return nil, nil, false
	}
	return u, ss, true
}

// handleMe answers GET /api/me: the signed-in player, or 401. With
// ?guest=ok a visitor who is not signed in (no session, an expired one, a
// site without accounts) gets 200 and null instead: the pages ask so on
// every load, and a guest's console stays free of refused requests.
func (s *Accounts) handleMe(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("guest") == "ok" && !HasToken(r) {
		u, ss, err := s.Session(r)
		switch {
		case errors.Is(err, errSignedOut), errors.Is(err, errExpired):
			httpx.WriteJSON(w, http.StatusOK, nil)
			return
		case err != nil:
			s.log.Error("session", "err", err)
			httpx.Error(w, http.StatusInternalServerError, "the session could not be read")
			return
		}
		httpx.WriteJSON(w, http.StatusOK, MeOf(u, ss))
		return
	}
	u, ss, ok := s.SignedIn(w, r)
	if !ok {
		return
	}
	httpx.WriteJSON(w, http.StatusOK, MeOf(u, ss))
}

// clearCookie tells the browser to forget its session cookie.
func clearCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
}

func (s *Accounts) handleLogout(w http.ResponseWriter, r *http.Request) {
	if s.store == nil {
		httpx.Error(w, http.StatusNotImplemented, store.ErrNoAccounts.Error())
		return
	}
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		hash := httpx.HashSecret(c.Value)
		ss, err := s.store.Session(r.Context(), hash)
		if err == nil {
			err = s.store.DeleteSession(r.Context(), hash)
		}
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.log.Error("logout", "err", err)
			httpx.Error(w, http.StatusInternalServerError, "the session could not be ended")
			return
		}
		if ss != nil {
			s.revoke(r.Context(), store.Revocation{User: ss.UserID, Session: hash, Only: true})
		}
	}
	clearCookie(w, r)
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// confirm checks an account's password for a request that changes it.
func (s *Accounts) confirm(w http.ResponseWriter, r *http.Request, u *store.User, password string) bool {
	if !knownDevice(r, u, s.now()) {
		if ok, wait := s.loginsByName.Allow(store.NameKey(u.Name), s.now()); !ok {
			httpx.TooFast(w, wait, "password attempts")
			return false
		}
	}
	ok := false
	var cerr error
	if err := s.hashing(w, r, func() { ok, cerr = checkPassword(password, u.PasswordHash) }); err != nil {
		return false
	}
	if cerr != nil {
		s.log.Error("check password", "name", u.Name, "err", cerr)
	}
	if !ok {
		httpx.ErrorCode(w, http.StatusForbidden, CodeWrongPassword, "wrong password")
	}
	return ok
}

func (s *Accounts) handlePassword(w http.ResponseWriter, r *http.Request) {
	u, ss, ok := s.SignedIn(w, r)
	if !ok {
		return
	}
	var req PasswordChange
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	if err := checkNewPassword(u.Name, req.New); err != nil {
		httpx.ErrorCode(w, http.StatusBadRequest, CodeWeakPassword, err.Error())
		return
	}
	if len(req.Old) > maxPassword || !s.confirm(w, r, u, req.Old) {
		if len(req.Old) > maxPassword {
			httpx.ErrorCode(w, http.StatusForbidden, CodeWrongPassword, "wrong password")
		}
		return
	}
	var hash string
	if err := s.hashing(w, r, func() { hash = hashPassword(req.New, s.params) }); err != nil {
		return
	}
	if err := s.store.SetPassword(r.Context(), u.ID, hash); err != nil {
		s.log.Error("set password", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the password could not be saved")
		return
	}
	// Every other browser signed in to the account is signed out, and
	// its websockets close; what the account's tokens opened stays.
	if err := s.store.DeleteSessions(r.Context(), u.ID, ss.TokenHash); err != nil {
		s.log.Error("revoke sessions", "err", err)
	}
	s.revoke(r.Context(), store.Revocation{User: u.ID, Session: ss.TokenHash, Browsers: true})
	// The new password forgets the known devices but this one.
	u.PasswordHash = hash
	markDevice(w, r, u, s.now())
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Accounts) handleDeleteMe(w http.ResponseWriter, r *http.Request) {
	u, _, ok := s.SignedIn(w, r)
	if !ok {
		return
	}
	var req PasswordConfirm
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	if len(req.Password) > maxPassword {
		httpx.ErrorCode(w, http.StatusForbidden, CodeWrongPassword, "wrong password")
		return
	}
	if !s.confirm(w, r, u, req.Password) {
		return
	}
	if err := s.store.DeleteUser(r.Context(), u.ID, DeletedName); err != nil {
		s.log.Error("delete user", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the account could not be deleted")
		return
	}
	for _, f := range s.forget {
		f.ForgetAccount(context.WithoutCancel(r.Context()), u.ID)
	}
	s.revoke(r.Context(), store.Revocation{User: u.ID})
	clearCookie(w, r)
	s.log.Info("account deleted")
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// Routes adds the accounts' routes to m.
func (s *Accounts) Routes(m *http.ServeMux) {
	m.HandleFunc("POST /api/signup", s.handleSignup)
	m.HandleFunc("POST /api/login", s.handleLogin)
	m.HandleFunc("POST /api/logout", s.handleLogout)
	m.HandleFunc("GET /api/me", s.handleMe)
	m.HandleFunc("DELETE /api/me", s.handleDeleteMe)
	m.HandleFunc("POST /api/password", s.handlePassword)
	m.HandleFunc("POST /api/me/preferences", s.handlePreferences)
	m.HandleFunc("GET /api/tokens", s.handleTokens)
	m.HandleFunc("POST /api/tokens", s.handleCreateToken)
	m.HandleFunc("DELETE /api/tokens/{id}", s.handleRevokeToken)
	m.HandleFunc("POST /api/bot/account/upgrade", s.handleUpgrade)
}
