package account

import (
	"net/http"

	"stax/server/httpx"
	"stax/server/store"
)

// CheckNewPassword checks a new password of the account named name: the
// rules of a sign-up's or a password change's password. An empty name
// checks the rules that do not depend on it.
func (s *Accounts) CheckNewPassword(name, password string) error {
	return checkNewPassword(name, password)
}

// ResetPassword sets an account's password, as a one-time reset link
// allows (the moderation domain checks the link), and ends every session
// of the account, whose websockets close. The password must have passed
// CheckNewPassword. It reports false when it answered the request itself
// (the hashing queue is full, the database failed).
func (s *Accounts) ResetPassword(w http.ResponseWriter, r *http.Request, u *store.User, password string) bool {
	if s.store == nil {
		httpx.Error(w, http.StatusNotImplemented, store.ErrNoAccounts.Error())
		return false
	}
	var hash string
	if err := s.hashing(w, r, func() { hash = hashPassword(password, s.params) }); err != nil {
		return false
	}
	if err := s.store.SetPassword(r.Context(), u.ID, hash); err != nil {
		s.log.Error("reset password", "user", u.Name, "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the password could not be saved")
		return false
	}
	if err := s.store.DeleteSessions(r.Context(), u.ID, ""); err != nil {
		s.log.Error("reset password: end the sessions", "user", u.Name, "err", err)
	}
	// The browsers are signed out; the account's tokens stay valid, and
	// so do the connections they opened.
	s.revoke(r.Context(), store.Revocation{User: u.ID, Browsers: true})
	return true
}
