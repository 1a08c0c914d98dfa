package server

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"golang.org/x/crypto/argon2"

	"stax/server/httpx"
	"stax/server/store"
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
	sessionCookie = "stax_session"
	// DefaultSessionTTL is how long a session lasts after signing in.
	DefaultSessionTTL = 30 * 24 * time.Hour
	// minPassword and maxPassword bound a password's length, in bytes;
	// argon2 hashes anything, but a password of megabytes is an attack
	// rather than a secret.
	minPassword, maxPassword = 8, 256
	// minUserName and maxUserName bound an account name, in characters.
	minUserName, maxUserName = 3, 20
	// deletedName is the name a deleted account's seats keep.
	deletedName = "(deleted player)"
	// The login rate limits, token buckets: 10 attempts at once per
	// account name, then one every 30 s; 30 at once per address, then
	// one every 10 s. Signups: 5 at once per address, then one every 10
	// minutes.
	loginNameEvery, loginNameBurst = 30 * time.Second, 10
	loginIPEvery, loginIPBurst     = 10 * time.Second, 30
	signupEvery, signupBurst       = 10 * time.Minute, 5
)

// accounts is the server's part that deals with accounts.
type accounts struct {
	store  store.Accounts // nil when the store keeps no accounts
	params PasswordParams
	ttl    time.Duration
	hashes chan struct{} // one token per password hash computed at once
	// Login attempts per account name and per address, and signups per
	// address.
	loginsByName, loginsByIP, signups *httpx.RateLimiter
}

func (s *Server) now() time.Time {
	if s.cfg.Now != nil {
		return s.cfg.Now().UTC()
	}
	return time.Now().UTC()
}

// errNoAccounts is the answer of every account route on a server whose
// store keeps no accounts.
var errNoAccounts = errors.New("this server keeps no accounts; guests can still play")

// hashPassword returns the PHC string of argon2id over password with a new
// salt.
func hashPassword(password string, p PasswordParams) string {
	salt := make([]byte, 16)
	rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, 32)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// checkPassword reports whether password matches a PHC string that
// hashPassword made.
func checkPassword(password, encoded string) (bool, error) {
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

// hashing runs f while holding one of the password hashing tokens, so that
// the memory argon2 takes stays bounded whatever the number of requests.
func (s *Server) hashing(ctx context.Context, f func()) error {
	select {
	case s.acct.hashes <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.acct.hashes }()
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
	// Expires is when the session ends.
	Expires time.Time `json:"expires"`
}

func (s *Server) handleSignup(w http.ResponseWriter, r *http.Request) {
	if s.acct.store == nil {
		httpx.Error(w, http.StatusNotImplemented, errNoAccounts.Error())
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
	if ok, wait := s.acct.signups.Allow(httpx.ClientKey(httpx.Proxies(s.cfg.TrustedProxies).ClientIP(r)), now); !ok {
		httpx.TooFast(w, wait, "accounts created")
		return
	}
	var hash string
	if err := s.hashing(r.Context(), func() { hash = hashPassword(req.Password, s.acct.params) }); err != nil {
		return
	}
	u := &store.User{ID: httpx.NewID(), Name: req.Name, PasswordHash: hash, Created: now.Truncate(time.Millisecond)}
	if err := s.acct.store.CreateUser(r.Context(), u); err != nil {
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

func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	if s.acct.store == nil {
		httpx.Error(w, http.StatusNotImplemented, errNoAccounts.Error())
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
	okIP, waitIP := s.acct.loginsByIP.Allow(httpx.ClientKey(httpx.Proxies(s.cfg.TrustedProxies).ClientIP(r)), now)
	okName, waitName := s.acct.loginsByName.Allow(store.NameKey(req.Name), now)
	if !okIP || !okName {
		httpx.TooFast(w, max(waitIP, waitName), "sign-in attempts")
		return
	}
	u, err := s.acct.store.UserByName(r.Context(), req.Name)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.log.Error("login", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the account could not be read")
		return
	}
	ok := false
	err = s.hashing(r.Context(), func() {
		if u == nil {
			// Hash anyway, so that the answer takes as long for a name
			// that does not exist.
			hashPassword(req.Password, s.acct.params)
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
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, u *store.User, code int) {
	var b [32]byte
	rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	now := s.now().Truncate(time.Millisecond)
	ss := &store.Session{TokenHash: httpx.HashSecret(token), UserID: u.ID, Created: now, Expires: now.Add(s.acct.ttl)}
	if err := s.acct.store.CreateSession(r.Context(), ss); err != nil {
		s.log.Error("create session", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the session could not be saved")
		return
	}
	http.SetCookie(w, &http.Cookie{
		// Max-Age rather than Expires: the browser's clock may differ
		// from the server's.
		Name: sessionCookie, Value: token, Path: "/", MaxAge: int(s.acct.ttl.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil,
	})
	httpx.WriteJSON(w, code, Me{Name: u.Name, Created: u.Created, Expires: ss.Expires})
}

// errSignedOut and errExpired say why a request has no account.
var (
	errSignedOut = errors.New("you are not signed in")
	errExpired   = errors.New("your session has expired; sign in again")
)

// session returns the account and session of a request's cookie:
// errSignedOut without a valid one, errExpired for an expired one.
func (s *Server) session(r *http.Request) (*store.User, *store.Session, error) {
	if s.acct.store == nil {
		return nil, nil, errSignedOut
	}
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return nil, nil, errSignedOut
	}
	ss, err := s.acct.store.Session(r.Context(), httpx.HashSecret(c.Value))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, errSignedOut
	}
	if err != nil {
		return nil, nil, err
	}
	if !s.now().Before(ss.Expires) {
		s.acct.store.DeleteSession(r.Context(), ss.TokenHash)
		return nil, nil, errExpired
	}
	u, err := s.acct.store.UserByID(r.Context(), ss.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, errSignedOut
	}
	if err != nil {
		return nil, nil, err
	}
	return u, ss, nil
}

// signedIn returns the request's account, answering 401 (or 501, or 500)
// when there is none.
func (s *Server) signedIn(w http.ResponseWriter, r *http.Request) (*store.User, *store.Session, bool) {
	if s.acct.store == nil {
		httpx.Error(w, http.StatusNotImplemented, errNoAccounts.Error())
		return nil, nil, false
	}
	u, ss, err := s.session(r)
	switch {
	case errors.Is(err, errSignedOut), errors.Is(err, errExpired):
		httpx.Error(w, http.StatusUnauthorized, err.Error())
		return nil, nil, false
	case err != nil:
		s.log.Error("session", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the session could not be read")
		return nil, nil, false
	}
	return u, ss, true
}

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request) {
	u, ss, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	httpx.WriteJSON(w, http.StatusOK, Me{Name: u.Name, Created: u.Created, Expires: ss.Expires})
}

// clearCookie tells the browser to forget its session cookie.
func clearCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
}

func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	if s.acct.store == nil {
		httpx.Error(w, http.StatusNotImplemented, errNoAccounts.Error())
		return
	}
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		if err := s.acct.store.DeleteSession(r.Context(), httpx.HashSecret(c.Value)); err != nil {
			s.log.Error("logout", "err", err)
			httpx.Error(w, http.StatusInternalServerError, "the session could not be ended")
			return
		}
	}
	clearCookie(w, r)
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// confirm checks an account's password for a request that changes it.
func (s *Server) confirm(w http.ResponseWriter, r *http.Request, u *store.User, password string) bool {
	if ok, wait := s.acct.loginsByName.Allow(store.NameKey(u.Name), s.now()); !ok {
		httpx.TooFast(w, wait, "password attempts")
		return false
	}
	ok := false
	var cerr error
	if err := s.hashing(r.Context(), func() { ok, cerr = checkPassword(password, u.PasswordHash) }); err != nil {
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

func (s *Server) handlePassword(w http.ResponseWriter, r *http.Request) {
	u, ss, ok := s.signedIn(w, r)
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
	if err := s.hashing(r.Context(), func() { hash = hashPassword(req.New, s.acct.params) }); err != nil {
		return
	}
	if err := s.acct.store.SetPassword(r.Context(), u.ID, hash); err != nil {
		s.log.Error("set password", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the password could not be saved")
		return
	}
	// Every other browser signed in to the account is signed out.
	if err := s.acct.store.DeleteSessions(r.Context(), u.ID, ss.TokenHash); err != nil {
		s.log.Error("revoke sessions", "err", err)
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Server) handleDeleteMe(w http.ResponseWriter, r *http.Request) {
	u, _, ok := s.signedIn(w, r)
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
	if err := s.acct.store.DeleteUser(r.Context(), u.ID, deletedName); err != nil {
		s.log.Error("delete user", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the account could not be deleted")
		return
	}
	s.forgetUser(u.ID)
	clearCookie(w, r)
	s.log.Info("account deleted")
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// forgetUser anonymises a deleted account's seats in the games in memory,
// as DeleteUser did in the store.
func (s *Server) forgetUser(id string) {
	for _, l := range s.inMemory() {
		l.mu.Lock()
		changed := false
		for i := range l.seats {
			if l.seats[i].User == id {
				l.seats[i].User, l.seats[i].Name = "", deletedName
				changed = true
			}
		}
		if changed {
			l.changed()
			l.broadcast()
		}
		l.mu.Unlock()
	}
	s.forgetSeeks(context.WithoutCancel(s.ctx), id)
}

// accountRoutes adds the routes of accounts, the lobby and ratings.
func (s *Server) accountRoutes(m *http.ServeMux) {
	m.HandleFunc("POST /api/signup", s.handleSignup)
	m.HandleFunc("POST /api/login", s.handleLogin)
	m.HandleFunc("POST /api/logout", s.handleLogout)
	m.HandleFunc("GET /api/me", s.handleMe)
	m.HandleFunc("DELETE /api/me", s.handleDeleteMe)
	m.HandleFunc("POST /api/password", s.handlePassword)
	m.HandleFunc("GET /api/me/games", s.handleMyGames)
	m.HandleFunc("GET /api/users/{name}", s.handleUser)
	m.HandleFunc("GET /api/leaderboard/{pool}", s.handleLeaderboard)
	m.HandleFunc("GET /api/pools", s.handlePools)
	m.HandleFunc("GET /api/seeks", s.handleGetSeeks)
	m.HandleFunc("POST /api/seeks", s.handlePostSeek)
	m.HandleFunc("POST /api/seeks/{id}/accept", s.handleAcceptSeek)
	m.HandleFunc("DELETE /api/seeks/{id}", s.handleCancelSeek)
	m.HandleFunc("GET /api/challenges", s.handleGetSeeks)
	m.HandleFunc("POST /api/challenges", s.handlePostChallenge)
	m.HandleFunc("POST /api/challenges/{id}/accept", s.handleAcceptSeek)
	m.HandleFunc("POST /api/challenges/{id}/decline", s.handleDeclineSeek)
	m.HandleFunc("DELETE /api/challenges/{id}", s.handleCancelSeek)
	m.HandleFunc("GET /ws/lobby", s.handleLobbyWS)
}

// CheckClocks flags the games whose player to move has run out of time
// and withdraws the seeks left without their owner. A server configured
// with Config.Now does this only when called; otherwise every 100 ms.
func (s *Server) CheckClocks() {
	s.checkClocks()
	s.sweepSeeks(s.now())
	s.sweepPeers(s.now())
}

// handleMyGames lists the signed-in player's games: the ongoing ones
// where it is their move first (correspondence games waiting for them),
// then the other ongoing ones, then the finished ones, most recent first.
func (s *Server) handleMyGames(w http.ResponseWriter, r *http.Request) {
	u, _, ok := s.signedIn(w, r)
	if !ok {
		return
	}
	gs, err := s.acct.store.GamesOf(r.Context(), u.ID, 100, "")
	if err != nil {
		s.log.Error("my games", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the games could not be listed")
		return
	}
	sums := s.summaries(gs)
	var mine, playing, finished []Summary
	for i, sg := range gs {
		sum := sums[i]
		if sg.Status == store.Finished {
			finished = append(finished, sum)
			continue
		}
		if l, err := s.get(r.Context(), sg.ID); err == nil {
			l.mu.Lock()
			p := l.h.State().ToMove()
			sum.ToMove = &p
			sum.Ply = l.h.Ply()
			yours := !l.h.Over() && l.seats[p].User == u.ID
			l.mu.Unlock()
			sum.YourMove = yours
			if yours {
				mine = append(mine, sum)
				continue
			}
		}
		playing = append(playing, sum)
	}
	out := append(append(append([]Summary{}, mine...), playing...), finished...)
	httpx.WriteJSON(w, http.StatusOK, struct {
		Games []Summary `json:"games"`
	}{out})
}
