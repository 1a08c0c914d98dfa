package store

import (
	"context"
	"time"
)

// Block is one account blocking another: nothing of the blocked account
// (chat, challenges, seeks) reaches the one that blocks it.
type Block struct {
	UserID  string // the account that blocks
	Blocked string // the account blocked
	// BlockedName is the blocked account's name (filled in by reads).
	BlockedName string
}

// Report is a player's report of an account, a game or a chat line, for
// the moderators.
type Report struct {
	ID       string
	Reporter string // the reporting account's id
	// Target is the account reported, if any; Game the game, if any; Chat
	// the chat line reported as the server kept it ("name: text"), if any.
	Target, Game, Chat string
	Reason             string
	Created            time.Time
	// Closed is when a moderator closed the report (zero while open), and
	// Note what they wrote.
	Closed time.Time
	Note   string
}

// Restriction is what a moderator has put on an account: muted in every
// chat, or disabled (it cannot sign in). An account without one has
// neither.
type Restriction struct {
	UserID          string
	Muted, Disabled bool
}

// ChatRemoval is a chat line an operator removed: every instance holding
// the game drops the lines of its sender with its text.
type ChatRemoval struct {
	Game, From, Text string
	Removed          time.Time
}

// Moderation keeps the blocks between accounts, the players' reports, the
// moderators' restrictions and one-time password reset tokens. Its
// methods are safe for concurrent use; a method that writes returns once
// the write is committed, and what one instance wrote every instance reads
// at once. Deleting an account deletes its blocks (both ways), its
// restriction and its reset tokens; reports stay.
type Moderation interface {
	// Block records that userID blocks blocked; blocking twice is not an
	// error. An account that does not exist is ErrNotFound.
	Block(ctx context.Context, userID, blocked string) error
	// Unblock removes a block; one that does not exist is not an error.
	Unblock(ctx context.Context, userID, blocked string) error
	// Blocks returns every block, with the blocked accounts' names,
	// ordered by account and name.
	Blocks(ctx context.Context) ([]Block, error)
	// AddReport stores a report; an id that exists is ErrConflict.
	AddReport(ctx context.Context, r *Report) error
	// Reports returns up to limit reports, the open ones alone unless all
	// is set, oldest first.
	Reports(ctx context.Context, all bool, limit int) ([]*Report, error)
	// CloseReport closes a report with a note; an unknown report is
	// ErrNotFound, a closed one ErrConflict.
	CloseReport(ctx context.Context, id, note string, at time.Time) error
	// Restrict replaces an account's restriction (one with neither Muted
	// nor Disabled lifts it); an unknown account is ErrNotFound.
	Restrict(ctx context.Context, r Restriction) error
	// Restrictions returns every account's restriction, ordered by id.
	Restrictions(ctx context.Context) ([]Restriction, error)
	// CreateReset stores a password reset token's hash for an account
	// until expires; an unknown account is ErrNotFound.
	CreateReset(ctx context.Context, tokenHash, userID string, expires time.Time) error
	// UseReset returns the account of a reset token and deletes the
	// token, once: of several uses, whichever instance they are on, one
	// succeeds. A token unknown, used or expired at now is ErrNotFound.
	UseReset(ctx context.Context, tokenHash string, now time.Time) (userID string, err error)
	// RemoveChat records the removal of a chat line.
	RemoveChat(ctx context.Context, r ChatRemoval) error
	// ChatRemovals returns the removals recorded at since or later,
	// oldest first.
	ChatRemovals(ctx context.Context, since time.Time) ([]ChatRemoval, error)
}

// ModerationWithDeadline returns m with a deadline of d on each call, as
// WithDeadline does for the games.
func ModerationWithDeadline(m Moderation, d time.Duration) Moderation {
	return moderationDeadline{m, d}
}

type moderationDeadline struct {
	m Moderation
	d time.Duration
}

// call runs f with a context of the deadline.
func (x moderationDeadline) call(ctx context.Context, f func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, x.d)
	defer cancel()
	return f(ctx)
}

func (x moderationDeadline) Block(ctx context.Context, userID, blocked string) error {
	return x.call(ctx, func(ctx context.Context) error { return x.m.Block(ctx, userID, blocked) })
}

func (x moderationDeadline) Unblock(ctx context.Context, userID, blocked string) error {
	return x.call(ctx, func(ctx context.Context) error { return x.m.Unblock(ctx, userID, blocked) })
}

func (x moderationDeadline) Blocks(ctx context.Context) (out []Block, err error) {
	err = x.call(ctx, func(ctx context.Context) error { out, err = x.m.Blocks(ctx); return err })
	return out, err
}

func (x moderationDeadline) AddReport(ctx context.Context, r *Report) error {
	return x.call(ctx, func(ctx context.Context) error { return x.m.AddReport(ctx, r) })
}

func (x moderationDeadline) Reports(ctx context.Context, all bool, limit int) (out []*Report, err error) {
	err = x.call(ctx, func(ctx context.Context) error { out, err = x.m.Reports(ctx, all, limit); return err })
	return out, err
}

func (x moderationDeadline) CloseReport(ctx context.Context, id, note string, at time.Time) error {
	return x.call(ctx, func(ctx context.Context) error { return x.m.CloseReport(ctx, id, note, at) })
}

func (x moderationDeadline) Restrict(ctx context.Context, r Restriction) error {
	return x.call(ctx, func(ctx context.Context) error { return x.m.Restrict(ctx, r) })
}

func (x moderationDeadline) Restrictions(ctx context.Context) (out []Restriction, err error) {
	err = x.call(ctx, func(ctx context.Context) error { out, err = x.m.Restrictions(ctx); return err })
	return out, err
}

func (x moderationDeadline) CreateReset(ctx context.Context, tokenHash, userID string, expires time.Time) error {
	return x.call(ctx, func(ctx context.Context) error { return x.m.CreateReset(ctx, tokenHash, userID, expires) })
}

func (x moderationDeadline) RemoveChat(ctx context.Context, r ChatRemoval) error {
	return x.call(ctx, func(ctx context.Context) error { return x.m.RemoveChat(ctx, r) })
}

func (x moderationDeadline) ChatRemovals(ctx context.Context, since time.Time) (out []ChatRemoval, err error) {
	err = x.call(ctx, func(ctx context.Context) error { out, err = x.m.ChatRemovals(ctx, since); return err })
	return out, err
}

func (x moderationDeadline) UseReset(ctx context.Context, tokenHash string, now time.Time) (userID string, err error) {
	err = x.call(ctx, func(ctx context.Context) error { userID, err = x.m.UseReset(ctx, tokenHash, now); return err })
	return userID, err
}
