package store

import (
	"context"
	"time"
)

// The scopes of a personal API token: what a request that carries it may
// do. A token has one or more.
const (
	// ScopeRead reads the account, its games and its event stream.
	ScopeRead = "read"
	// ScopePlay moves, resigns, offers draws and chats in the account's
	// games through the bot API.
	ScopePlay = "play"
	// ScopeChallenge creates, accepts, declines and cancels challenges
	// and seeks.
	ScopeChallenge = "challenge"
	// ScopeBot turns the account into a bot, and lets a bot account do
	// all the above.
	ScopeBot = "bot"
)

// Scopes lists every scope, in the order the settings show them.
var Scopes = []string{ScopeRead, ScopePlay, ScopeChallenge, ScopeBot}

// Token is a personal API token of an account. The secret itself is shown
// once, when the token is made; the store keeps its hash.
type Token struct {
	// ID names the token in lists and in its revocation; it is not a
	// secret.
	ID     string
	UserID string
	// Hash is the hex SHA-256 of the secret.
	Hash string
	// Description is what the owner called it.
	Description string
	Scopes      []string
	Created     time.Time
	// Used is when a request last carried it (zero: never), to the
	// minute.
	Used time.Time
}

// Has reports whether the token has scope (a bot token has every scope).
func (t *Token) Has(scope string) bool {
	for _, s := range t.Scopes {
		if s == scope || s == ScopeBot {
			return true
		}
	}
	return false
}

// Tokens keeps the personal API tokens and the bot accounts. A store that
// keeps Users may implement it; its methods are safe for concurrent use.
type Tokens interface {
	// CreateToken stores a new token; an id or hash that exists is
	// ErrConflict, an unknown account ErrNotFound.
	CreateToken(ctx context.Context, t *Token) error
	// TokenByHash returns the token whose secret's hash is given, or
	// ErrNotFound.
	TokenByHash(ctx context.Context, hash string) (*Token, error)
	// TokensOf returns an account's tokens, newest first.
	TokensOf(ctx context.Context, userID string) ([]*Token, error)
	// DeleteToken deletes one token of an account and returns it; a token
	// that is not the account's is ErrNotFound.
	DeleteToken(ctx context.Context, userID, id string) (*Token, error)
	// TokenUsed records that a token was used at t; a token deleted
	// meanwhile is not an error.
	TokenUsed(ctx context.Context, id string, t time.Time) error
	// SetBot makes an account a bot, for good (again is not an error);
	// an unknown account is ErrNotFound.
	SetBot(ctx context.Context, userID string) error
	// SetBotsRated records whether an account accepts rated games
	// against bots (User.NoRatedBots is its opposite); an unknown account
	// is ErrNotFound.
	SetBotsRated(ctx context.Context, userID string, accept bool) error
	// BotSeen records that a bot account was connected at t (an account
	// that is not a bot is left alone); an unknown account is
	// ErrNotFound.
	BotSeen(ctx context.Context, userID string, t time.Time) error
	// Bots returns up to limit bot accounts, those seen most recently
	// first.
	Bots(ctx context.Context, limit int) ([]*User, error)
}
