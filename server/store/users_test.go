package store

import "testing"

// TestRevocation: a revocation crosses the feed unchanged, and ends the
// sessions it says: a sign-out its own, a password change the other
// browsers' (not what tokens opened), a deleted account every one.
func TestRevocation(t *testing.T) {
	browser, other, token := "b1", "b2", TokenSession("t1")
	for _, c := range []struct {
		name string
		r    Revocation
		ends map[string]bool
	}{
		{"sign-out", Revocation{User: "u", Session: browser, Only: true}, map[string]bool{browser: true, other: false, token: false}},
		{"token revoked", Revocation{User: "u", Session: token, Only: true}, map[string]bool{browser: false, other: false, token: true}},
		{"password changed", Revocation{User: "u", Session: browser, Browsers: true}, map[string]bool{browser: false, other: true, token: false}},
		{"password reset", Revocation{User: "u", Browsers: true}, map[string]bool{browser: true, other: true, token: false}},
		{"account deleted", Revocation{User: "u"}, map[string]bool{browser: true, other: true, token: true}},
	} {
		if got := RevocationOf(RevokeEvent(c.r)); got != c.r {
			t.Errorf("%s: %+v came back from the feed as %+v", c.name, c.r, got)
		}
		for session, want := range c.ends {
			if got := c.r.Ends(session); got != want {
				t.Errorf("%s: Ends(%q) = %v; want %v", c.name, session, got, want)
			}
		}
	}
}
