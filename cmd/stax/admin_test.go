package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"stax/server/account"
	"stax/server/httpx"
	"stax/server/store"
	"stax/server/store/sqlite"
)

// TestAdmin runs stax admin's commands on a database with two accounts
// and a report, and checks what they print and change.
func TestAdmin(t *testing.T) {
	db := filepath.Join(t.TempDir(), "stax.db")
	st, err := sqlite.Open(db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, name := range []string{"ann", "bob"} {
		if err := st.CreateUser(ctx, &store.User{ID: "id-" + name, Name: name, PasswordHash: "h", Created: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	st.CreateSession(ctx, &store.Session{TokenHash: "s", UserID: "id-bob", Created: time.Now(), Expires: time.Now().Add(time.Hour)})
	st.AddReport(ctx, &store.Report{ID: "rep1", Reporter: "id-ann", Target: "id-bob", Game: "g1", Chat: "bob: rude thing", Reason: "insult", Created: time.Now()})
	st.Close()

	admin := func(environ map[string]string, args ...string) (string, error) {
		var out bytes.Buffer
		err := run(&env{stdout: &out, stderr: &bytes.Buffer{}, getenv: func(k string) string { return environ[k] }}, append([]string{"admin"}, args...))
		return out.String(), err
	}
	for _, c := range []struct {
		args    []string
		environ map[string]string
		says    string
		err     string
	}{
		{[]string{"--db", db, "reports"}, nil, "rep1", ""},
		{[]string{"--db", db, "mute", "bob"}, nil, "muted bob", ""},
		{[]string{"disable", "BOB"}, map[string]string{"STAX_DB": db}, "disabled BOB", ""},
		{[]string{"--db", db, "reset-password", "ann", "--url", "https://stax.example.org"}, nil, "https://stax.example.org/reset#", ""},
		{[]string{"--db", db, "remove-chat", "rep1"}, nil, `removed "bob: rude thing"`, ""},
		{[]string{"--db", db, "remove-chat", "rep9"}, nil, "", "no report has the id"},
		{[]string{"--db", db, "close-report", "rep1", "--note", "warned"}, nil, "closed report rep1", ""},
		{[]string{"--db", db, "reports"}, nil, "no reports", ""},
		{[]string{"--db", db, "reports", "--all"}, nil, "warned", ""},
		{[]string{"--db", db, "close-report", "rep9"}, nil, "", "no report has the id"},
		{[]string{"--db", db, "mute", "nobody"}, nil, "", `no account is named "nobody"`},
		{[]string{"--db", db, "mute"}, nil, "", "takes one argument"},
		{[]string{"--db", db, "ban", "bob"}, nil, "", `unknown command "ban"`},
		{[]string{"--db", db}, nil, "", "want an operator's command"},
		{[]string{"--db", filepath.Join(t.TempDir(), "none.db"), "reports"}, nil, "", "no such file"},
	} {
		out, err := admin(c.environ, c.args...)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("stax admin %v: %v; want an error saying %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil || !strings.Contains(out, c.says) {
			t.Errorf("stax admin %v: %q, %v; want it to say %q", c.args, out, err, c.says)
		}
	}

	st, err = sqlite.Open(db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rs, _ := st.Restrictions(ctx)
	if len(rs) != 1 || rs[0] != (store.Restriction{UserID: "id-bob", Muted: true, Disabled: true}) {
		t.Errorf("restrictions after mute and disable: %+v", rs)
	}
	if _, err := st.Session(ctx, "s"); err == nil {
		t.Error("bob's session outlived his account's disabling")
	}
}

// TestAdminTokens makes, lists and revokes an account's API tokens with
// stax admin: the secret is printed once, and the database keeps only its
// hash.
func TestAdminTokens(t *testing.T) {
	db := filepath.Join(t.TempDir(), "stax.db")
	st, err := sqlite.Open(db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := st.CreateUser(ctx, &store.User{ID: "id-ann", Name: "ann", PasswordHash: "h", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	admin := func(args ...string) (string, string, error) {
		var out, errs bytes.Buffer
		err := run(&env{stdout: &out, stderr: &errs, getenv: func(string) string { return "" }}, append([]string{"admin", "--db", db}, args...))
		return out.String(), errs.String(), err
	}

	out, _, err := admin("tokens", "ann")
	if err != nil || !strings.Contains(out, "ann has no API tokens") {
		t.Fatalf("tokens of a new account: %q, %v", out, err)
	}
	secret, note, err := admin("create-token", "ann", "--scopes", "play, read", "--description", "my engine")
	secret = strings.TrimSpace(secret)
	if err != nil || !strings.HasPrefix(secret, account.TokenPrefix) || strings.Contains(secret, "\n") || !strings.Contains(note, "shown only now") {
		t.Fatalf("create-token: %q (%q), %v; want the secret alone on standard output", secret, note, err)
	}
	out, _, err = admin("tokens", "ann")
	if err != nil || !strings.Contains(out, "read,play") || !strings.Contains(out, "my engine") || !strings.Contains(out, "never") || strings.Contains(out, secret) {
		t.Fatalf("tokens: %q, %v; want the token without its secret", out, err)
	}
	st, err = sqlite.Open(db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := st.TokenByHash(ctx, httpx.HashSecret(secret))
	st.Close()
	if err != nil || tok.UserID != "id-ann" {
		t.Fatalf("the token by its secret's hash: %+v, %v", tok, err)
	}

	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"create-token", "ann"}, "needs --scopes"},
		{[]string{"create-token", "ann", "--scopes", "read,admin"}, `scope "admin"`},
		{[]string{"create-token", "nobody", "--scopes", "read"}, `no account is named "nobody"`},
		{[]string{"tokens", "ann", "--scopes", "read"}, "create-token's"},
		{[]string{"revoke-token", "ann"}, "takes two arguments"},
		{[]string{"revoke-token", "ann", "nope"}, `ann has no token "nope"`},
	} {
		if _, _, err := admin(c.args...); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("stax admin %v: %v; want an error saying %q", c.args, err, c.err)
		}
	}
	out, note, err = admin("revoke-token", "ann", tok.ID)
	if err != nil || !strings.Contains(out, "revoked the token "+tok.ID) || !strings.Contains(note, "SQLite") {
		t.Fatalf("revoke-token: %q (%q), %v", out, note, err)
	}
	if out, _, err := admin("tokens", "ann"); err != nil || !strings.Contains(out, "no API tokens") {
		t.Fatalf("tokens after revoking the only one: %q, %v", out, err)
	}
}
