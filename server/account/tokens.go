package account

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"stax/server/httpx"
	"stax/server/store"
)

// The codes of the HTTP errors about personal API tokens and bot accounts
// (docs/api.md#tokens).
const (
	// CodeInvalidToken: the request's token is unknown (revoked, or never
	// made), or the server keeps none (401).
	CodeInvalidToken = "invalid_token"
	// CodeMissingScope: the token lacks the scope the request needs (403).
	CodeMissingScope = "missing_scope"
	// CodeTokenRefused: no token may make this request; it is for a
	// signed-in browser (403).
	CodeTokenRefused = "token_refused"
	// CodeBotAccount: a bot account's browser asked to play or seek; bots
	// play through the bot API (403).
	CodeBotAccount = "bot_account"
	// CodeBadTokenRequest: a new token's description or scopes are not
	// valid, or the account has as many tokens as it may (400).
	CodeBadTokenRequest = "bad_token_request"
	// CodeAlreadyBot and CodePlayedGames refuse to make an account a bot
	// (409).
	CodeAlreadyBot  = "already_bot"
	CodePlayedGames = "played_games"
)

const (
	// TokenPrefix starts every token's secret, so that a secret pasted
	// where it should not be is recognised (by secret scanners too).
	TokenPrefix = "stax_"
	// DefaultTokenEvery and DefaultTokenBurst limit the requests one
	// token makes: 60 at once, then ten a second.
	DefaultTokenEvery = 100 * time.Millisecond
	DefaultTokenBurst = 60
	// MaxTokens bounds the tokens of one account.
	MaxTokens = 30
	// maxDescription bounds a token's description, in characters.
	maxDescription = 100
	// usedEvery is how often a token's last use is recorded, at most.
	usedEvery = time.Minute
)

// tokenScopes is the table of the scopes a request made with a token
// needs, by method and path (routeMatches), the first matching rule
// winning: what no rule matches, no token may do.
var tokenScopes = []struct {
	method, path, scope string
}{
	{"", "/ws/", store.ScopePlay},
	{"GET", "/", store.ScopeRead},
	{"POST", "/api/bot/game/", store.ScopePlay},
	{"POST", "/api/bot/account/upgrade", store.ScopeBot},
	{"!GET", "/api/challenges/...", store.ScopeChallenge},
	{"!GET", "/api/seeks/...", store.ScopeChallenge},
}

// botBrowserRoutes are the routes that play or seek, which a bot account's
// browser (signed in with a cookie) may not use: a bot plays through the
// bot API only. Its browser may open any game's websocket, where live
// play gives it no seat: the bot's owner watches its games.
var botBrowserRoutes = []struct {
	method, path string
}{
	{"!GET", "/api/seeks/..."},
	{"!GET", "/api/challenges/..."},
	{"!GET", "/api/pairing/..."},
	{"POST", "/api/games"},
	{"POST", "/api/games/*/join"},
}

// routeMatches reports whether a request's method and path match a rule
// of tokenScopes or botBrowserRoutes. The method "" matches any method,
// "GET" GET and HEAD, "!GET" any but those. A rule's path ending in "/"
// matches the paths under it; one ending in "/..." matches itself and the
// paths under it; any other matches itself alone, "*" standing for one
// segment.
func routeMatches(ruleMethod, rulePath, method, path string) bool {
	get := method == http.MethodGet || method == http.MethodHead
	switch ruleMethod {
	case "":
	case "GET":
		if !get {
			return false
		}
	case "!GET":
		if get {
			return false
		}
	default:
		if method != ruleMethod {
			return false
		}
	}
	if base, ok := strings.CutSuffix(rulePath, "/..."); ok {
		return path == base || strings.HasPrefix(path, base+"/")
	}
	if strings.HasSuffix(rulePath, "/") {
		return strings.HasPrefix(path, rulePath)
	}
	rs, ps := strings.Split(rulePath, "/"), strings.Split(path, "/")
	if len(rs) != len(ps) {
		return false
	}
	for i := range rs {
		if rs[i] != "*" && rs[i] != ps[i] {
			return false
		}
	}
	return true
}

// ScopeOf returns the scope a request made with a token needs, or "" when
// no token may make it (tokenScopes).
func ScopeOf(method, path string) string {
	for _, rule := range tokenScopes {
		if routeMatches(rule.method, rule.path, method, path) {
			return rule.scope
		}
	}
	return ""
}

// tokenError is why a request's token was refused: the status, code and
// words of the answer.
type tokenError struct {
	status int
	code   string
	msg    string
}

func (e *tokenError) Error() string { return e.msg }

// errNoTokens answers a token on a site whose store keeps none.
var errNoTokens = &tokenError{http.StatusUnauthorized, CodeInvalidToken, "this server keeps no API tokens"}

// errBadToken answers a token that is unknown: revoked, or never made.
var errBadToken = &tokenError{http.StatusUnauthorized, CodeInvalidToken, "the API token is unknown: revoked, or mistyped"}

// bearerSecret returns the secret of a request's "Authorization: Bearer"
// header. Other schemes are left alone (a proxy in front of the site may
// use Basic).
func bearerSecret(r *http.Request) (string, bool) {
	scheme, secret, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(secret), true
}

// HasToken reports whether a request carries a personal API token
// ("Authorization: Bearer"): such a request is no cross-site form's, and
// is authenticated by its token rather than by the session cookie.
func HasToken(r *http.Request) bool {
	_, ok := bearerSecret(r)
	return ok
}

// tokenSession returns the account and session of a request that carries
// a token, once its scope is checked against the request: a *tokenError
// when the token is refused.
func (s *Accounts) tokenSession(r *http.Request, secret string) (*store.User, *store.Session, error) {
	if s.tokens == nil || s.store == nil {
		return nil, nil, errNoTokens
	}
	if !strings.HasPrefix(secret, TokenPrefix) {
		return nil, nil, errBadToken
	}
	tok, err := s.tokens.TokenByHash(r.Context(), httpx.HashSecret(secret))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, errBadToken
	}
	if err != nil {
		return nil, nil, err
	}
	switch need := ScopeOf(r.Method, r.URL.Path); {
	case need == "":
		return nil, nil, &tokenError{http.StatusForbidden, CodeTokenRefused,
			fmt.Sprintf("no API token may be used for %s %s: it is for a signed-in browser", r.Method, r.URL.Path)}
	case !tok.Has(need):
		return nil, nil, &tokenError{http.StatusForbidden, CodeMissingScope,
			fmt.Sprintf("%s %s needs a token with the %q scope; this one has %s", r.Method, r.URL.Path, need, strings.Join(tok.Scopes, ", "))}
	}
	u, err := s.store.UserByID(r.Context(), tok.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, errBadToken
	}
	if err != nil {
		return nil, nil, err
	}
	return u, &store.Session{TokenHash: store.TokenSession(tok.Hash), UserID: u.ID, Created: tok.Created, Token: tok}, nil
}

// tokenUse remembers when this instance last recorded each token's use,
// so that requests at once record it once.
type tokenUse struct {
	mu   sync.Mutex // guards last
	last map[string]time.Time
}

// due reports whether the use of token id at minute is to be recorded,
// and notes that it will be.
func (u *tokenUse) due(id string, stored, minute time.Time) bool {
	if !minute.After(stored) {
		return false
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if !minute.After(u.last[id]) {
		return false
	}
	u.last[id] = minute
	return true
}

// sweep forgets the uses recorded before now-usedEvery.
func (u *tokenUse) sweep(now time.Time) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for id, t := range u.last {
		if now.Sub(t) > usedEvery {
			delete(u.last, id)
		}
	}
}

// Guard wraps the site's routes. A request that carries a token is
// authenticated and its scope checked before any route sees it (401 or
// 403, whether the route itself asks who sends it or not), then counted
// against its token's rate limit (429 with Retry-After), and its use is
// recorded. A bot account's browser is refused on the routes that play or
// seek (403): bots play through the bot API.
func (s *Accounts) Guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if HasToken(r) {
			if !s.admitToken(w, r) {
				return
			}
		} else if s.store != nil && s.botBrowserRoute(r) && !s.admitBrowser(w, r) {
			return
		}
		next.ServeHTTP(w, r)
	})
}

// admitToken checks a request's token, its scope and its rate limit,
// answering the request itself when one fails.
func (s *Accounts) admitToken(w http.ResponseWriter, r *http.Request) bool {
	_, ss, ok := s.SignedIn(w, r)
	if !ok {
		return false
	}
	now := s.now()
	tok := ss.Token
	if ok, wait := s.tokenLimit.Allow(tok.ID, now); !ok {
		httpx.TooFastToken(w, wait, "requests")
		return false
	}
	// The use is kept to the minute, and never before the token was
	// made: one used in the minute it was made was used when it was.
	minute := now.Truncate(usedEvery)
	if minute.Before(tok.Created) {
		minute = tok.Created
	}
	if s.used.due(tok.ID, tok.Used, minute) {
		if err := s.tokens.TokenUsed(context.WithoutCancel(r.Context()), tok.ID, minute); err != nil {
			s.log.Error("record a token's use", "err", err)
		}
	}
	return true
}

// botBrowserRoute reports whether a request is one of botBrowserRoutes.
func (s *Accounts) botBrowserRoute(r *http.Request) bool {
	for _, rule := range botBrowserRoutes {
		if routeMatches(rule.method, rule.path, r.Method, r.URL.Path) {
			return true
		}
	}
	return false
}

// admitBrowser refuses a bot account's browser on a route that plays or
// seeks, answering the request itself.
func (s *Accounts) admitBrowser(w http.ResponseWriter, r *http.Request) bool {
	u, _, err := s.Session(r)
	if err != nil || !u.Bot {
		// A guest, or a session the route itself will answer for.
		return true
	}
	httpx.ErrorCode(w, http.StatusForbidden, CodeBotAccount, "bot accounts play through the bot API, with an API token (docs/bots.md); their browser may watch")
	return false
}

// secretEncoding writes a token's secret: lowercase letters and digits.
var secretEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newSecret returns a new token's secret: TokenPrefix and 160 random bits
// in 32 characters.
func newSecret() string {
	var b [20]byte
	rand.Read(b[:])
	return TokenPrefix + secretEncoding.EncodeToString(b[:])
}

// checkScopes returns the scopes asked for, each once, in the order of
// store.Scopes, or an error saying what is wrong.
func checkScopes(scopes []string) ([]string, error) {
	if len(scopes) == 0 {
		return nil, fmt.Errorf("scopes: want one or more of %s", strings.Join(store.Scopes, ", "))
	}
	for _, sc := range scopes {
		if !slices.Contains(store.Scopes, sc) {
			return nil, fmt.Errorf("scope %q: want one of %s", sc, strings.Join(store.Scopes, ", "))
		}
	}
	var out []string
	for _, sc := range store.Scopes {
		if slices.Contains(scopes, sc) {
			out = append(out, sc)
		}
	}
	return out, nil
}

// checkDescription returns a token's description with its spaces trimmed,
// or an error saying what is wrong.
func checkDescription(d string) (string, error) {
	d = strings.TrimSpace(d)
	if n := utf8.RuneCountInString(d); n > maxDescription {
		return "", fmt.Errorf("description: %d characters; want at most %d", n, maxDescription)
	}
	if strings.IndexFunc(d, unicode.IsControl) >= 0 || !utf8.ValidString(d) {
		return "", errors.New("description: want one line of text, without control characters")
	}
	return d, nil
}

// TokenManager makes, lists and revokes the personal API tokens of
// accounts: the accounts domain's routes and stax admin share it.
type TokenManager struct {
	Users  store.Users
	Tokens store.Tokens
	// Feed tells every instance of the tokens revoked, so that the
	// streams and websockets they opened close; nil tells none.
	Feed store.Feed
	// Now tells the time (default time.Now).
	Now func() time.Time
}

// errBadTokenRequest wraps what is wrong with a new token's description or
// scopes.
var errBadTokenRequest = errors.New("bad token request")

// Create makes a token of the account u, with a description and scopes,
// and returns its secret, which is shown once: the store keeps its hash.
// A description or scopes that are not valid, or an account with
// MaxTokens already, are errBadTokenRequest.
func (m TokenManager) Create(ctx context.Context, u *store.User, description string, scopes []string) (string, *store.Token, error) {
	d, err := checkDescription(description)
	if err != nil {
		return "", nil, fmt.Errorf("%w: %v", errBadTokenRequest, err)
	}
	sc, err := checkScopes(scopes)
	if err != nil {
		return "", nil, fmt.Errorf("%w: %v", errBadTokenRequest, err)
	}
	have, err := m.Tokens.TokensOf(ctx, u.ID)
	if err != nil {
		return "", nil, err
	}
	if len(have) >= MaxTokens {
		return "", nil, fmt.Errorf("%w: an account has at most %d tokens; revoke one first", errBadTokenRequest, MaxTokens)
	}
	now := time.Now
	if m.Now != nil {
		now = m.Now
	}
	secret := newSecret()
	tok := &store.Token{ID: httpx.NewID(), UserID: u.ID, Hash: httpx.HashSecret(secret), Description: d, Scopes: sc,
		Created: now().UTC().Truncate(time.Millisecond)}
	if err := m.Tokens.CreateToken(ctx, tok); err != nil {
		return "", nil, err
	}
	return secret, tok, nil
}

// Revoke deletes a token of the account userID and tells every instance,
// so that what the token opened closes; a token that is not the
// account's is ErrNotFound.
func (m TokenManager) Revoke(ctx context.Context, userID, id string) (*store.Token, error) {
	tok, err := m.Tokens.DeleteToken(ctx, userID, id)
	if err != nil {
		return nil, err
	}
	if m.Feed != nil {
		if err := m.Feed.Announce(context.WithoutCancel(ctx), store.RevokeEvent(store.Revocation{User: userID, Session: store.TokenSession(tok.Hash), Only: true})); err != nil {
			return tok, fmt.Errorf("token %s revoked, but the servers could not be told to close its connections: %w", id, err)
		}
	}
	return tok, nil
}

// Account returns the account named name, for stax admin.
func (m TokenManager) Account(ctx context.Context, name string) (*store.User, error) {
	u, err := m.Users.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("no account is named %q", name)
	}
	return u, err
}

// TokenView is a token as its owner sees it (GET /api/tokens): never its
// secret.
type TokenView struct {
	ID          string    `json:"id"`
	Description string    `json:"description"`
	Scopes      []string  `json:"scopes"`
	Created     time.Time `json:"created"`
	// Used is when a request last carried it, to the minute; absent:
	// never.
	Used time.Time `json:"used,omitzero"`
}

// NewToken answers POST /api/tokens: the token, and its secret, shown
// this once.
type NewToken struct {
	TokenView
	Secret string `json:"secret"`
}

// TokenRequest is the body of POST /api/tokens.
type TokenRequest struct {
	Description string   `json:"description"`
	Scopes      []string `json:"scopes"`
}

// Preferences is the body of POST /api/me/preferences.
type Preferences struct {
	// RatedBots says whether the player accepts rated games against bots.
	RatedBots *bool `json:"ratedBots"`
}

func viewOf(t *store.Token) TokenView {
	return TokenView{ID: t.ID, Description: t.Description, Scopes: t.Scopes, Created: t.Created, Used: t.Used}
}

// browserOnly returns the account of a signed-in browser, answering the
// request itself when there is none, when it carries a token (a token
// cannot manage tokens), or when the server keeps no tokens.
func (s *Accounts) browserOnly(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
	if HasToken(r) {
		httpx.ErrorCode(w, http.StatusForbidden, CodeTokenRefused, "API tokens are managed from a signed-in browser (the account's settings) or with stax admin, not with a token")
		return nil, false
	}
	u, _, ok := s.SignedIn(w, r)
	if !ok {
		return nil, false
	}
	if s.tokens == nil {
		httpx.Error(w, http.StatusNotImplemented, "this server keeps no API tokens")
		return nil, false
	}
	return u, true
}

func (s *Accounts) handleTokens(w http.ResponseWriter, r *http.Request) {
	u, ok := s.browserOnly(w, r)
	if !ok {
		return
	}
	ts, err := s.tokens.TokensOf(r.Context(), u.ID)
	if err != nil {
		s.log.Error("tokens", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the tokens could not be read")
		return
	}
	out := []TokenView{}
	for _, t := range ts {
		out = append(out, viewOf(t))
	}
	httpx.WriteJSON(w, http.StatusOK, map[string][]TokenView{"tokens": out})
}

func (s *Accounts) handleCreateToken(w http.ResponseWriter, r *http.Request) {
	u, ok := s.browserOnly(w, r)
	if !ok {
		return
	}
	var req TokenRequest
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	secret, tok, err := s.manager().Create(r.Context(), u, req.Description, req.Scopes)
	if errors.Is(err, errBadTokenRequest) {
		httpx.ErrorCode(w, http.StatusBadRequest, CodeBadTokenRequest, strings.TrimPrefix(err.Error(), errBadTokenRequest.Error()+": "))
		return
	}
	if err != nil {
		s.log.Error("create token", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the token could not be saved")
		return
	}
	s.log.Info("API token created", "user", u.Name, "token", tok.ID, "scopes", strings.Join(tok.Scopes, " "))
	httpx.WriteJSON(w, http.StatusCreated, NewToken{TokenView: viewOf(tok), Secret: secret})
}

func (s *Accounts) handleRevokeToken(w http.ResponseWriter, r *http.Request) {
	u, ok := s.browserOnly(w, r)
	if !ok {
		return
	}
	id := r.PathValue("id")
	tok, err := s.manager().Revoke(r.Context(), u.ID, id)
	if errors.Is(err, store.ErrNotFound) {
		httpx.Error(w, http.StatusNotFound, fmt.Sprintf("you have no token %q", id))
		return
	}
	if err != nil && tok == nil {
		s.log.Error("revoke token", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the token could not be revoked")
		return
	}
	if err != nil {
		s.log.Error("revoke token", "err", err)
	}
	s.log.Info("API token revoked", "user", u.Name, "token", tok.ID)
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// manager returns the TokenManager of the domain's stores.
func (s *Accounts) manager() TokenManager {
	return TokenManager{Users: s.store, Tokens: s.tokens, Feed: s.feed, Now: s.now}
}

// handleUpgrade answers POST /api/bot/account/upgrade: the account of a
// token with the bot scope becomes a bot, for good, if it has played no
// game.
func (s *Accounts) handleUpgrade(w http.ResponseWriter, r *http.Request) {
	u, ss, ok := s.SignedIn(w, r)
	if !ok {
		return
	}
	if ss.Token == nil || !ss.Token.Has(store.ScopeBot) {
		httpx.ErrorCode(w, http.StatusForbidden, CodeMissingScope, `an account becomes a bot with an API token that has the "bot" scope`)
		return
	}
	if u.Bot {
		httpx.ErrorCode(w, http.StatusConflict, CodeAlreadyBot, fmt.Sprintf("%s is a bot already", u.Name))
		return
	}
	games, err := s.store.GamesOf(r.Context(), u.ID, 1, "")
	if err != nil {
		s.log.Error("upgrade to a bot: games of", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the account's games could not be read")
		return
	}
	if len(games) > 0 {
		httpx.ErrorCode(w, http.StatusConflict, CodePlayedGames, fmt.Sprintf("%s has played games: only an account that has played none can become a bot; make a new account for the bot", u.Name))
		return
	}
	if err := s.tokens.SetBot(r.Context(), u.ID); err != nil {
		s.log.Error("upgrade to a bot", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the account could not be made a bot")
		return
	}
	s.log.Info("account made a bot", "user", u.Name)
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// handlePreferences answers POST /api/me/preferences: whether the player
// accepts rated games against bots.
func (s *Accounts) handlePreferences(w http.ResponseWriter, r *http.Request) {
	u, ok := s.browserOnly(w, r)
	if !ok {
		return
	}
	var req Preferences
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	if req.RatedBots == nil {
		httpx.Error(w, http.StatusBadRequest, `want {"ratedBots": true or false}`)
		return
	}
	if err := s.tokens.SetBotsRated(r.Context(), u.ID, *req.RatedBots); err != nil {
		s.log.Error("set preferences", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the preference could not be saved")
		return
	}
	u.NoRatedBots = !*req.RatedBots
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"ratedBots": !u.NoRatedBots})
}
