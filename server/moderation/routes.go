package moderation

import (
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"stax/server/httpx"
	"stax/server/store"
)

// Routes adds the moderation's routes.
func (m *Moderation) Routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/blocks", m.handleBlocks)
	mux.HandleFunc("POST /api/blocks", m.handleBlock)
	mux.HandleFunc("DELETE /api/blocks/{name}", m.handleUnblock)
	mux.HandleFunc("POST /api/reports", m.handleReport)
	mux.HandleFunc("POST /api/password/reset", m.handleReset)
}

// Blocks is the answer of GET, POST and DELETE /api/blocks: the names of
// the accounts the player blocks, in order.
type Blocks struct {
	Blocks []string `json:"blocks"`
}

// BlockRequest is the body of POST /api/blocks.
type BlockRequest struct {
	Name string `json:"name"`
}

// ReportRequest is the body of POST /api/reports: what is reported (an
// account by name, a game, a chat line of a game: its sender's name and
// time as the server sent them) and why.
type ReportRequest struct {
	User   string     `json:"user,omitempty"`
	Game   string     `json:"game,omitempty"`
	Chat   *ChatQuote `json:"chat,omitempty"`
	Reason string     `json:"reason"`
}

// ChatQuote names a chat line of the game reported.
type ChatQuote struct {
	From string    `json:"from"`
	At   time.Time `json:"at"`
}

// ReportResponse is the answer of POST /api/reports.
type ReportResponse struct {
	ID string `json:"id"`
}

// ResetRequest is the body of POST /api/password/reset: the token of a
// reset link and the new password.
type ResetRequest struct {
	Token    string `json:"token"`
	Password string `json:"password"`
}

// Error codes of the moderation's routes.
const (
	CodeNoSuchAccount = "no_such_account"
	CodeBadReport     = "bad_report"
	CodeBadLink       = "bad_reset_link"
	// CodeWeakPassword is the accounts' code of a password they refuse.
	CodeWeakPassword = "weak_password"
)

// notFound ends the quote of a chat line reported that this instance did
// not hold.
const notFound = " (not found on this instance)"

// maxReason bounds a report's reason, in characters.
const maxReason = 500

// ready answers 501 on a site without moderation and returns the
// request's account, answering the request when there is none.
func (m *Moderation) ready(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
	if m.cfg.Store == nil || m.cfg.Sessions == nil {
		httpx.Error(w, http.StatusNotImplemented, errNoModeration.Error())
		return nil, false
	}
	u, _, ok := m.cfg.Sessions.SignedIn(w, r)
	return u, ok
}

// blocksOf answers with the names u blocks.
func (m *Moderation) blocksOf(w http.ResponseWriter, r *http.Request, u *store.User) {
	bs, err := m.cfg.Store.Blocks(r.Context())
	if err != nil {
		m.cfg.Log.Error("read blocks", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "reading your blocks failed")
		return
	}
	out := Blocks{Blocks: []string{}}
	for _, b := range bs {
		if b.UserID == u.ID {
			out.Blocks = append(out.Blocks, b.BlockedName)
		}
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

func (m *Moderation) handleBlocks(w http.ResponseWriter, r *http.Request) {
	if u, ok := m.ready(w, r); ok {
		m.blocksOf(w, r, u)
	}
}

// account returns the account of a name, answering 404 when there is none.
func (m *Moderation) account(w http.ResponseWriter, r *http.Request, name string) (*store.User, bool) {
	other, err := m.cfg.Users.UserByName(r.Context(), name)
	if errors.Is(err, store.ErrNotFound) {
		httpx.ErrorCode(w, http.StatusNotFound, CodeNoSuchAccount, "no account is named "+quote(name))
		return nil, false
	}
	if err != nil {
		m.cfg.Log.Error("read account", "name", name, "err", err)
		httpx.Error(w, http.StatusInternalServerError, "reading the account failed")
		return nil, false
	}
	return other, true
}

func (m *Moderation) handleBlock(w http.ResponseWriter, r *http.Request) {
	u, ok := m.ready(w, r)
	if !ok {
		return
	}
	var req BlockRequest
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	other, ok := m.account(w, r, req.Name)
	if !ok {
		return
	}
	if other.ID == u.ID {
		httpx.Error(w, http.StatusBadRequest, "you cannot block yourself")
		return
	}
	if err := m.cfg.Store.Block(r.Context(), u.ID, other.ID); err != nil {
		m.cfg.Log.Error("block", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "blocking failed")
		return
	}
	m.refresh(r)
	m.blocksOf(w, r, u)
}

func (m *Moderation) handleUnblock(w http.ResponseWriter, r *http.Request) {
	u, ok := m.ready(w, r)
	if !ok {
		return
	}
	other, ok := m.account(w, r, r.PathValue("name"))
	if !ok {
		return
	}
	if err := m.cfg.Store.Unblock(r.Context(), u.ID, other.ID); err != nil {
		m.cfg.Log.Error("unblock", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "unblocking failed")
		return
	}
	m.refresh(r)
	m.blocksOf(w, r, u)
}

// refresh reads the snapshot again after a change made here.
func (m *Moderation) refresh(r *http.Request) {
	if err := m.Refresh(r.Context()); err != nil {
		m.cfg.Log.Warn("read the blocks and restrictions", "err", err)
	}
}

func (m *Moderation) handleReport(w http.ResponseWriter, r *http.Request) {
	u, ok := m.ready(w, r)
	if !ok {
		return
	}
	var req ReportRequest
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	req.Reason = strings.TrimSpace(req.Reason)
	switch {
	case req.Reason == "":
		httpx.ErrorCode(w, http.StatusBadRequest, CodeBadReport, "a report needs a reason")
		return
	case utf8.RuneCountInString(req.Reason) > maxReason || !utf8.ValidString(req.Reason):
		httpx.ErrorCode(w, http.StatusBadRequest, CodeBadReport, "a report's reason is at most 500 characters of text")
		return
	case req.Chat != nil && req.Game == "":
		httpx.ErrorCode(w, http.StatusBadRequest, CodeBadReport, "a chat line is reported with its game")
		return
	case req.User == "" && req.Game == "":
		httpx.ErrorCode(w, http.StatusBadRequest, CodeBadReport, "a report names an account (user), a game, or a chat line of a game (game and chat)")
		return
	case req.Game != "" && !httpx.ValidID(req.Game):
		httpx.ErrorCode(w, http.StatusBadRequest, CodeBadReport, "no game has the id "+quote(req.Game))
		return
	}
	if ok, retry := m.reports.Allow(u.ID, m.cfg.Now()); !ok {
		httpx.TooFast(w, retry, "reports")
		return
	}
	rep := &store.Report{ID: httpx.NewID(), Reporter: u.ID, Game: req.Game, Reason: req.Reason,
		// Milliseconds, which both stores keep alike (stax db copy).
		Created: m.cfg.Now().UTC().Truncate(time.Millisecond)}
	if req.User != "" {
		other, ok := m.account(w, r, req.User)
		if !ok {
			return
		}
		rep.Target = other.ID
	}
	if req.Chat != nil {
		line, found := "", false
		if m.cfg.Chat != nil {
			line, found = m.cfg.Chat.ChatLine(req.Game, req.Chat.From, req.Chat.At)
		}
		if !found {
			// The line is not in this instance's memory (chat is not
			// stored): the report says who and when, for the moderator
			// to weigh.
			line = req.Chat.From + " at " + req.Chat.At.UTC().Format(time.RFC3339) + notFound
		}
		rep.Chat = line
		if rep.Target == "" {
			if other, err := m.cfg.Users.UserByName(r.Context(), req.Chat.From); err == nil {
				rep.Target = other.ID
			}
		}
	}
	if err := m.cfg.Store.AddReport(r.Context(), rep); err != nil {
		m.cfg.Log.Error("add report", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "storing the report failed")
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, ReportResponse{ID: rep.ID})
}

func (m *Moderation) handleReset(w http.ResponseWriter, r *http.Request) {
	if m.cfg.Store == nil || m.cfg.Passwords == nil {
		httpx.Error(w, http.StatusNotImplemented, errNoModeration.Error())
		return
	}
	var req ResetRequest
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	// The rules that do not depend on the name come first, so that a
	// password refused for them does not use the link up.
	if err := m.cfg.Passwords.CheckNewPassword("", req.Password); err != nil {
		httpx.ErrorCode(w, http.StatusBadRequest, CodeWeakPassword, err.Error())
		return
	}
	userID, err := m.cfg.Store.UseReset(r.Context(), httpx.HashSecret(req.Token), m.cfg.Now())
	if errors.Is(err, store.ErrNotFound) {
		httpx.ErrorCode(w, http.StatusNotFound, CodeBadLink, "this password reset link is unknown, used or expired; ask the operators for another")
		return
	}
	if err != nil {
		m.cfg.Log.Error("use reset link", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "reading the reset link failed")
		return
	}
	u, err := m.cfg.Users.UserByID(r.Context(), userID)
	if err != nil {
		m.cfg.Log.Error("reset link's account", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "reading the account failed")
		return
	}
	if err := m.cfg.Passwords.CheckNewPassword(u.Name, req.Password); err != nil {
		httpx.ErrorCode(w, http.StatusBadRequest, CodeWeakPassword, err.Error()+"; the link is used: ask the operators for another")
		return
	}
	if !m.cfg.Passwords.ResetPassword(w, r, u, req.Password) {
		return
	}
	m.cfg.Log.Info("password reset", "user", u.Name)
	w.WriteHeader(http.StatusNoContent)
}

// quote writes a name for an error message, cut short if long.
func quote(s string) string {
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return `"` + s + `"`
}
