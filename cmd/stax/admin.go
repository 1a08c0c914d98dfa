package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"stax/server/account"
	"stax/server/moderation"
	"stax/server/store"
)

// adminUsage lists the operator's commands.
const adminUsage = "want an operator's command: reset-password NAME, disable NAME, enable NAME, mute NAME, unmute NAME, reports, close-report ID, remove-chat ID, tokens NAME, create-token NAME, revoke-token NAME ID"

// adminArgs names the arguments of each operator's command.
var adminArgs = map[string][]string{
	"reset-password": {"the account's name"},
	"disable":        {"the account's name"},
	"enable":         {"the account's name"},
	"mute":           {"the account's name"},
	"unmute":         {"the account's name"},
	"reports":        nil,
	"close-report":   {"a report's id"},
	"remove-chat":    {"a report's id"},
	"tokens":         {"the account's name"},
	"create-token":   {"the account's name"},
	"revoke-token":   {"the account's name", "the token's id"},
}

// runAdmin runs what an operator does without SQL, on the site's
// database: password reset links, disabling and muting accounts, reading
// and closing reports, and the accounts' personal API tokens.
func runAdmin(e *env, args []string) error {
	fs := newFlags(e, "admin")
	db := fs.String("db", "stax.db", "the site's `DB`: a SQLite file or a postgres:// URL ($STAX_DB)")
	url := fs.String("url", "http://127.0.0.1:8080", "reset-password: the site's public address, e.g. https://stax.example.org")
	valid := fs.Duration("valid", moderation.ResetValid, "reset-password: how long the link works")
	all := fs.Bool("all", false, "reports: list the closed reports too")
	limit := fs.Int("limit", 100, "reports: the most reports listed")
	note := fs.String("note", "", "close-report: what the operator did, kept with the report")
	scopes := fs.String("scopes", "", "create-token: the new token's `SCOPES`, separated by commas: read, play, challenge, bot")
	description := fs.String("description", "", "create-token: `TEXT` saying what the new token is for, shown with it")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return &usageError{adminUsage}
	}
	cmd := rest[0]
	want, known := adminArgs[cmd]
	switch {
	case !known:
		return &usageError{fmt.Sprintf("unknown command %q; %s", cmd, adminUsage)}
	case len(want) == 0 && len(rest) > 1:
		return &usageError{fmt.Sprintf("unexpected argument %q", rest[1])}
	case len(want) == 1 && len(rest) != 2:
		return &usageError{fmt.Sprintf("stax admin %s takes one argument: %s", cmd, want[0])}
	case len(want) == 2 && len(rest) != 3:
		return &usageError{fmt.Sprintf("stax admin %s takes two arguments: %s and %s", cmd, want[0], want[1])}
	}
	arg := ""
	if len(rest) > 1 {
		arg = rest[1]
	}
	if *limit < 1 || *valid <= 0 {
		return &usageError{"--limit and --valid must be positive"}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if (set["scopes"] || set["description"]) && cmd != "create-token" {
		return &usageError{"--scopes and --description are create-token's"}
	}
	if cmd == "create-token" && *scopes == "" {
		return &usageError{"stax admin create-token needs --scopes, e.g. --scopes read,play (of read, play, challenge, bot)"}
	}
	if !set["db"] {
		getenv := e.getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		if v := getenv("STAX_DB"); v != "" {
			*db = v
		}
	}
	if err := mustExist(*db); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := openStore(ctx, *db, "")
	if err != nil {
		return err
	}
	defer st.Close()
	users, ok1 := st.(store.Users)
	mods, ok2 := st.(store.Moderation)
	if !ok1 || !ok2 {
		return fmt.Errorf("%s keeps no accounts", redactDB(*db))
	}
	a := moderation.Admin{Users: users, Store: mods, Feed: st}
	if strings.Contains(cmd, "token") {
		tokens, ok := st.(store.Tokens)
		if !ok {
			return fmt.Errorf("%s keeps no API tokens", redactDB(*db))
		}
		tm := account.TokenManager{Users: users, Tokens: tokens, Feed: st}
		return adminTokens(ctx, e, tm, cmd, rest[1:], *scopes, *description, strings.Contains(*db, "://"))
	}
	switch cmd {
	case "reset-password":
		link, err := a.ResetLink(ctx, arg, *url, *valid)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s\n", link)
		fmt.Fprintf(e.stderr, "send this link to %s's owner: it sets a new password once within %s and signs the account out everywhere\n", arg, *valid)
	case "disable", "enable":
		if err := a.Disable(ctx, arg, cmd == "disable"); err != nil {
			return err
		}
		if cmd == "disable" {
			fmt.Fprintf(e.stdout, "disabled %s: its sessions are closed and it cannot sign in (within %s on running servers)\n", arg, moderation.RefreshEvery)
		} else {
			fmt.Fprintf(e.stdout, "enabled %s again\n", arg)
		}
	case "mute", "unmute":
		if err := a.Mute(ctx, arg, cmd == "mute"); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%sd %s in every chat (within %s on running servers)\n", cmd, arg, moderation.RefreshEvery)
	case "reports":
		rs, err := a.Reports(ctx, *all, *limit)
		if err != nil {
			return err
		}
		printReports(e, rs)
	case "remove-chat":
		quoted, err := a.RemoveChat(ctx, arg)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "removed %q from its game's chat (within %s on running servers)\n", quoted, moderation.RefreshEvery)
	case "close-report":
		if err := a.CloseReport(ctx, arg, *note); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("no report has the id %q (stax admin reports lists them)", arg)
			}
			return err
		}
		fmt.Fprintf(e.stdout, "closed report %s\n", arg)
	}
	return nil
}

// adminTokens runs the commands about an account's personal API tokens:
// list them, make one (its secret printed once), revoke one. shared
// reports whether the database is shared by the servers' processes
// (PostgreSQL), whose feed then carries a revocation to them.
func adminTokens(ctx context.Context, e *env, tm account.TokenManager, cmd string, args []string, scopes, description string, shared bool) error {
	u, err := tm.Account(ctx, args[0])
	if err != nil {
		return err
	}
	switch cmd {
	case "tokens":
		ts, err := tm.Tokens.TokensOf(ctx, u.ID)
		if err != nil {
			return err
		}
		printTokens(e, u, ts)
	case "create-token":
		// "read, play" as well as "read,play".
		list := strings.Split(scopes, ",")
		for i := range list {
			list[i] = strings.TrimSpace(list[i])
		}
		secret, tok, err := tm.Create(ctx, u, description, list)
		if err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, secret)
		fmt.Fprintf(e.stderr, "made the token %s of %s with the scopes %s: give its owner the secret above, which is shown only now (the database keeps its hash)\n",
			tok.ID, u.Name, strings.Join(tok.Scopes, ", "))
	case "revoke-token":
		tok, err := tm.Revoke(ctx, u.ID, args[1])
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("%s has no token %q (stax admin tokens %s lists them)", u.Name, args[1], u.Name)
		}
		if err != nil && tok == nil {
			return err
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "%v\n", err)
		}
		fmt.Fprintf(e.stdout, "revoked the token %s of %s: every request with it is refused\n", tok.ID, u.Name)
		if !shared {
			fmt.Fprintln(e.stderr, "a server on this SQLite file is another process: the streams and websockets the token opened there stay open until they end (revoking it from the account's settings closes them at once)")
		}
	}
	return nil
}

// printTokens writes an account's tokens as a table, one a line, newest
// first.
func printTokens(e *env, u *store.User, ts []*store.Token) {
	if len(ts) == 0 {
		fmt.Fprintf(e.stdout, "%s has no API tokens\n", u.Name)
		return
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tCREATED\tLAST USED\tSCOPES\tDESCRIPTION")
	for _, t := range ts {
		used := "never"
		if !t.Used.IsZero() {
			used = t.Used.Format(time.DateTime)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t.ID, t.Created.Format(time.DateTime), used, strings.Join(t.Scopes, ","), dash(oneLine(t.Description)))
	}
	tw.Flush()
}

// mustExist refuses a SQLite file that does not exist: opening one would
// create an empty database.
func mustExist(db string) error {
	if isURL := strings.Contains(db, "://"); isURL {
		return nil
	}
	if _, err := os.Stat(db); err != nil {
		return fmt.Errorf("--db %s: %w", db, err)
	}
	return nil
}

// printReports writes reports as a table, one a line.
func printReports(e *env, rs []moderation.ReportView) {
	if len(rs) == 0 {
		fmt.Fprintln(e.stdout, "no reports")
		return
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tWHEN\tFROM\tABOUT\tGAME\tCHAT\tREASON\tCLOSED")
	for _, r := range rs {
		closed := "open"
		if !r.Closed.IsZero() {
			closed = r.Closed.Format(time.DateTime) + " " + r.Note
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Created.Format(time.DateTime), r.ReporterName, dash(r.TargetName),
			dash(r.Game), dash(oneLine(r.Chat)), oneLine(r.Reason), closed)
	}
	tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// oneLine keeps a player's text on one line of the table.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '\t' {
			return ' '
		}
		return r
	}, s)
}
