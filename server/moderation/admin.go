package moderation

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"stax/server/httpx"
	"stax/server/store"
)

// Admin is what an operator does without the site, on its store (stax
// admin): reset links, disabling and muting accounts, reading and closing
// reports. A change takes effect on every running instance within
// RefreshEvery; a disabled account's sessions are deleted at once.
type Admin struct {
	Users store.Users
	Store store.Moderation
	// Feed, when set, tells the running instances that a disabled
	// account's sessions ended, so that its websockets close (over
	// PostgreSQL; a SQLite feed reaches only its own process).
	Feed interface {
		Announce(ctx context.Context, ev store.Event) error
	}
	Now func() time.Time
}

// now tells the time in milliseconds, which both stores keep alike.
func (a Admin) now() time.Time {
	if a.Now == nil {
		return time.Now().UTC().Truncate(time.Millisecond)
	}
	return a.Now().UTC().Truncate(time.Millisecond)
}

// user returns the account named name, with an error saying so when
// there is none.
func (a Admin) user(ctx context.Context, name string) (*store.User, error) {
	u, err := a.Users.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("no account is named %q", name)
	}
	return u, err
}

// ResetLink makes a one-time password reset link for the account named
// name, valid for valid, under the site's address base (e.g.
// https://stax.example.org): the account's owner opens it and chooses a
// new password, which closes every session of the account.
func (a Admin) ResetLink(ctx context.Context, name, base string, valid time.Duration) (string, error) {
	u, err := a.user(ctx, name)
	if err != nil {
		return "", err
	}
	if valid <= 0 {
		valid = ResetValid
	}
	token := httpx.NewSecret()
	if err := a.Store.CreateReset(ctx, httpx.HashSecret(token), u.ID, a.now().Add(valid)); err != nil {
		return "", err
	}
	return ResetURL(base, token), nil
}

// ResetURL is the address of a reset link: the site's page /reset, with
// the token after # so that it reaches no server log.
func ResetURL(base, token string) string {
	for len(base) > 0 && base[len(base)-1] == '/' {
		base = base[:len(base)-1]
	}
	return base + "/reset#" + token
}

// restrict changes the restriction of the account named name.
func (a Admin) restrict(ctx context.Context, name string, change func(*store.Restriction)) (*store.User, error) {
	u, err := a.user(ctx, name)
	if err != nil {
		return nil, err
	}
	rs, err := a.Store.Restrictions(ctx)
	if err != nil {
		return nil, err
	}
	r := store.Restriction{UserID: u.ID}
	for _, x := range rs {
		if x.UserID == u.ID {
			r = x
		}
	}
	change(&r)
	return u, a.Store.Restrict(ctx, r)
}

// Disable disables an account or enables it again: a disabled account
// cannot sign in, and its sessions are deleted.
func (a Admin) Disable(ctx context.Context, name string, disabled bool) error {
	u, err := a.restrict(ctx, name, func(r *store.Restriction) { r.Disabled = disabled })
	if err != nil || !disabled {
		return err
	}
	if err := a.Users.DeleteSessions(ctx, u.ID, ""); err != nil {
		return err
	}
	if a.Feed != nil {
		return a.Feed.Announce(ctx, store.RevokeEvent(store.Revocation{User: u.ID}))
	}
	return nil
}

// Mute mutes an account in every chat, or lifts it.
func (a Admin) Mute(ctx context.Context, name string, muted bool) error {
	_, err := a.restrict(ctx, name, func(r *store.Restriction) { r.Muted = muted })
	return err
}

// ReportView is a report with the names of its accounts.
type ReportView struct {
	store.Report
	ReporterName, TargetName string
}

// Reports returns up to limit reports (the open ones, unless all), oldest
// first, with the names of the accounts they name (empty for a deleted
// one).
func (a Admin) Reports(ctx context.Context, all bool, limit int) ([]ReportView, error) {
	rs, err := a.Store.Reports(ctx, all, limit)
	if err != nil {
		return nil, err
	}
	name := func(id string) string {
		if id == "" {
			return ""
		}
		if u, err := a.Users.UserByID(ctx, id); err == nil {
			return u.Name
		}
		return "(deleted account)"
	}
	out := make([]ReportView, len(rs))
	for i, r := range rs {
		out[i] = ReportView{Report: *r, ReporterName: name(r.Reporter), TargetName: name(r.Target)}
	}
	return out, nil
}

// RemoveChat removes the chat line a report quotes from its game, on
// every instance within RefreshEvery (chat is kept in memory only).
func (a Admin) RemoveChat(ctx context.Context, reportID string) (string, error) {
	rs, err := a.Store.Reports(ctx, true, 1<<20)
	if err != nil {
		return "", err
	}
	for _, r := range rs {
		if r.ID != reportID {
			continue
		}
		from, text, ok := strings.Cut(r.Chat, ": ")
		if r.Chat == "" || !ok || strings.HasSuffix(r.Chat, notFound) {
			return "", fmt.Errorf("report %s quotes no chat line that the server kept", reportID)
		}
		return r.Chat, a.Store.RemoveChat(ctx, store.ChatRemoval{Game: r.Game, From: from, Text: text, Removed: a.now()})
	}
	return "", fmt.Errorf("no report has the id %q (stax admin reports --all lists them)", reportID)
}

// CloseReport closes a report with a note.
func (a Admin) CloseReport(ctx context.Context, id, note string) error {
	return a.Store.CloseReport(ctx, id, note, a.now())
}
