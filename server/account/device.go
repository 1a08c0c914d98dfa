package account

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"

	"stax/server/store"
)

// deviceCookie names the cookie that marks a browser where an account
// signed in before (a known device). The account-wide limit on sign-in
// attempts does not apply to it: someone guessing an account's password
// from elsewhere, however many addresses they spread the guesses over,
// cannot lock its owner out of their own browsers (OWASP's advice on
// credential stuffing and account lockout).
const deviceCookie = "stax_device"

// deviceTTL is how long a browser stays known without signing in again.
const deviceTTL = 365 * 24 * time.Hour

// deviceMark returns the cookie value that marks a browser known to u
// since issued: the account, the time, and an HMAC of both keyed by the
// account's password hash, so that no store is needed, every instance can
// check it, and a password change forgets every device.
func deviceMark(u *store.User, issued time.Time) string {
	payload := u.ID + "." + strconv.FormatInt(issued.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(u.PasswordHash))
	mac.Write([]byte(payload))
	return payload + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// knownDevice reports whether the request comes from a browser where u
// signed in within deviceTTL of now.
func knownDevice(r *http.Request, u *store.User, now time.Time) bool {
	c, err := r.Cookie(deviceCookie)
	if err != nil || u == nil {
		return false
	}
	parts := strings.Split(c.Value, ".")
	if len(parts) != 3 || parts[0] != u.ID {
		return false
	}
	sec, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || now.Sub(time.Unix(sec, 0)) > deviceTTL {
		return false
	}
	return hmac.Equal([]byte(c.Value), []byte(deviceMark(u, time.Unix(sec, 0))))
}

// markDevice sets the known-device cookie of u on the browser.
func markDevice(w http.ResponseWriter, r *http.Request, u *store.User, now time.Time) {
	http.SetCookie(w, &http.Cookie{
		Name: deviceCookie, Value: deviceMark(u, now), Path: "/api/", MaxAge: int(deviceTTL.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil,
	})
}
