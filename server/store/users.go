package store

import (
	"context"
	"errors"
	"strings"
	"time"
)

// User is an account.
type User struct {
	// ID is the account's id, random and never reused; seats point to it.
	ID string
	// Name is the name the player signed up with; it is unique without
	// regard to case.
	Name string
	// PasswordHash is the password's hash in the PHC string format, e.g.
	// "$argon2id$v=19$m=19456,t=2,p=1$salt$hash".
	PasswordHash string
	Created      time.Time
	// Bot reports that the account is a bot: it plays through the bot API
	// only, and its name shows BOT wherever it is shown (Tokens.SetBot).
	Bot bool
	// NoRatedBots reports that the player refuses rated games against
	// bots (Tokens.SetBotsRated).
	NoRatedBots bool
	// Seen is when a bot account was last connected to its event stream
	// (Tokens.BotSeen); zero for others.
	Seen time.Time
}

// Session is a signed-in browser.
type Session struct {
	// TokenHash is the hex SHA-256 of the session cookie's value.
	TokenHash string
	UserID    string
	Created   time.Time
	// Expires is when the session stops being accepted.
	Expires time.Time
	// Token, when not nil, is the personal API token the request carried
	// instead of a session cookie (TokenHash is then its hash); it is not
	// stored with the sessions.
	Token *Token
}

// Rating is a player's Glicko-2 rating in one rating pool.
type Rating struct {
	UserID string
	// Name is the player's name (filled in by reads).
	Name       string
	Pool       string
	Rating     float64
	Deviation  float64
	Volatility float64
	// Games counts the rated games played in the pool.
	Games   int
	Updated time.Time
	// Bot reports that the player is a bot account (filled in by reads).
	Bot bool
}

// RatingPoint is a player's rating after one rated game.
type RatingPoint struct {
	Pool       string
	GameID     string
	At         time.Time
	Rating     float64
	Deviation  float64
	Volatility float64
}

// ErrNoAccounts is the answer of every account route on a site whose
// store keeps no accounts.
var ErrNoAccounts = errors.New("this server keeps no accounts; guests can still play")

// Users keeps the accounts and their sessions. Its methods are safe for
// concurrent use; a method that writes returns once the write is
// committed.
type Users interface {
	// CreateUser stores a new account; a name taken already (in any case),
	// the name of a deleted account, or an id that exists is ErrConflict.
	CreateUser(ctx context.Context, u *User) error
	// UserByName returns the account with that name, compared without
	// regard to case, or ErrNotFound.
	UserByName(ctx context.Context, name string) (*User, error)
	// UserByID returns the account with that id, or ErrNotFound.
	UserByID(ctx context.Context, id string) (*User, error)
	// SetPassword replaces an account's password hash; an unknown id is
	// ErrNotFound.
	SetPassword(ctx context.Context, userID, hash string) error
	// DeleteUser deletes an account with its sessions and ratings, and
	// retires its name: nobody may take it again. Its games stay: its
	// seats lose their account and take the name anonymous. An unknown id
	// is ErrNotFound.
	DeleteUser(ctx context.Context, userID, anonymous string) error
	// CreateSession stores a session.
	CreateSession(ctx context.Context, s *Session) error
	// Session returns the session whose token hash is given, expired or
	// not, or ErrNotFound.
	Session(ctx context.Context, tokenHash string) (*Session, error)
	// DeleteSession deletes one session; an unknown one is not an error.
	DeleteSession(ctx context.Context, tokenHash string) error
	// DeleteSessions deletes every session of an account but the one
	// whose token hash is keep (none when keep is empty).
	DeleteSessions(ctx context.Context, userID, keep string) error
	// DeleteExpiredSessions deletes the sessions expired before t.
	DeleteExpiredSessions(ctx context.Context, t time.Time) error
	// GamesOf returns up to limit games in which the account holds a
	// seat, most recently updated first, with seats but without moves;
	// status filters them when not empty.
	GamesOf(ctx context.Context, userID string, limit int, status string) ([]*Game, error)
}

// Ratings keeps the players' ratings per pool and their history.
type Ratings interface {
	// Ratings returns an account's ratings, one per pool it has played
	// rated games in, ordered by pool.
	Ratings(ctx context.Context, userID string) ([]Rating, error)
	// Leaderboard returns up to limit ratings of a pool, highest first,
	// among those whose deviation is at most maxDeviation and that were
	// last updated (by a rated game) at activeSince or later.
	Leaderboard(ctx context.Context, pool string, maxDeviation float64, activeSince time.Time, limit int) ([]Rating, error)
	// RatingHistory returns an account's ratings after each rated game of
	// a pool, oldest first.
	RatingHistory(ctx context.Context, userID, pool string) ([]RatingPoint, error)
	// Rate records the new ratings of a finished game's players, all or
	// none: a game rated already is ErrConflict (so that a game is rated
	// once, whichever server instance tries first), and so is a rating
	// whose Games is not one more than the stored one (another game
	// changed it meanwhile: read it again and recompute).
	Rate(ctx context.Context, gameID string, at time.Time, ratings []Rating) error
	// Unrated returns up to limit finished rated games that no Rate has
	// marked (a server stopped between a game's end and its rating),
	// earliest finished first, with seats but without moves.
	Unrated(ctx context.Context, limit int) ([]*Game, error)
	// RatedGames returns up to limit rated games whose ids sort after the
	// given id, in id order. (Rate with no ratings marks a game rated.)
	RatedGames(ctx context.Context, after string, limit int) ([]RatedGame, error)
}

// Accounts is a store that keeps accounts: their users, sessions and
// ratings, and the walk over them that copies a database.
type Accounts interface {
	Users
	Ratings
	// ListAccounts returns up to limit accounts whose ids sort after the
	// given id (byte order), in id order, each with its ratings and rating
	// history: a walk over every account, a page at a time.
	ListAccounts(ctx context.Context, after string, limit int) ([]*Account, error)
	// RestoreAccount stores an account read from another store with its
	// ratings and rating history as they are, all or none: an account
	// whose id or name exists is ErrConflict.
	RestoreAccount(ctx context.Context, a *Account) error
}

// Account is what a store keeps of an account but its sessions: the
// account, its ratings ordered by pool, its rating history ordered by
// pool, time and game, and its personal API tokens (when the store keeps
// Tokens) newest first.
type Account struct {
	User    User
	Ratings []Rating
	History []RatingPoint
	Tokens  []Token
}

// RatedGame is a game whose result was rated, and when.
type RatedGame struct {
	GameID string
	At     time.Time
}

// NameKey is the form of a player's name that must be unique: names that
// differ only in case are the same name.
func NameKey(name string) string { return strings.ToLower(name) }

// NameSkeleton is the form two names that look alike share, after the
// skeletons of Unicode's confusables (TR39) for the ASCII names accounts
// have: I, l, | and 1 are one letter, O and 0 another, "rn" reads as "m",
// "vv" as "w" and "cl" as "d", and case does not count. No two accounts
// share a skeleton, so that "aIice" cannot pass for "alice".
func NameSkeleton(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch r {
		case 'I', 'L', '|', '1':
			r = 'l'
		case 'O', '0':
			r = 'o'
		}
		b.WriteRune(r)
	}
	k := strings.ToLower(b.String())
	for _, p := range [][2]string{{"rn", "m"}, {"vv", "w"}, {"cl", "d"}} {
		k = strings.ReplaceAll(k, p[0], p[1])
	}
	return k
}

// EventRevoke says that sessions of an account ended (a sign-out, a
// password change, a deleted account): every instance closes the
// websockets those sessions opened. RevokeEvent and RevocationOf write and
// read it.
const EventRevoke = "revoke"

// Revocation says which sessions of an account ended: the one session
// Session (Only), or every one but Session (every one when it is empty).
// Browsers limits the latter to the browsers' sessions: what personal API
// tokens opened stays open (a password change keeps the tokens).
type Revocation struct {
	User     string
	Session  string // a session's token hash (TokenSession for a token)
	Only     bool
	Browsers bool
}

// tokenSession begins the session hash of a request that carried a
// personal API token.
const tokenSession = "token:"

// TokenSession returns the session hash (Session.TokenHash) of the
// requests that carry the token whose hash is given: it differs from any
// browser's, so that a revocation tells them apart.
func TokenSession(hash string) string { return tokenSession + hash }

// Ends reports whether the revocation ends the session whose token hash
// is session.
func (r Revocation) Ends(session string) bool {
	if r.Only {
		return session == r.Session
	}
	if r.Browsers && strings.HasPrefix(session, tokenSession) {
		return false
	}
	return session != r.Session
}

// RevokeEvent returns the event that announces r.
func RevokeEvent(r Revocation) Event {
	ev := Event{Kind: EventRevoke, Game: r.User, Move: r.Session}
	if r.Only {
		ev.Ply |= 1
	}
	if r.Browsers {
		ev.Ply |= 2
	}
	return ev
}

// RevocationOf reads an EventRevoke.
func RevocationOf(ev Event) Revocation {
	return Revocation{User: ev.Game, Session: ev.Move, Only: ev.Ply&1 != 0, Browsers: ev.Ply&2 != 0}
}
