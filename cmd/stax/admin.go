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

	"stax/server/moderation"
	"stax/server/store"
)

// adminUsage lists the operator's commands.
const adminUsage = "want an operator's command: reset-password NAME, disable NAME, enable NAME, mute NAME, unmute NAME, reports, close-report ID, remove-chat ID"

// runAdmin runs what an operator does without SQL, on the site's
// database: password reset links, disabling and muting accounts, reading
// and closing reports.
func runAdmin(e *env, args []string) error {
	fs := newFlags(e, "admin")
	db := fs.String("db", "stax.db", "the site's `DB`: a SQLite file or a postgres:// URL ($STAX_DB)")
	url := fs.String("url", "http://127.0.0.1:8080", "reset-password: the site's public address, e.g. https://stax.example.org")
	valid := fs.Duration("valid", moderation.ResetValid, "reset-password: how long the link works")
	all := fs.Bool("all", false, "reports: list the closed reports too")
	limit := fs.Int("limit", 100, "reports: the most reports listed")
	note := fs.String("note", "", "close-report: what the operator did, kept with the report")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return &usageError{adminUsage}
	}
	cmd, arg := rest[0], ""
	wantArg := cmd != "reports"
	switch {
	case !strings.Contains(" reset-password disable enable mute unmute reports close-report remove-chat ", " "+cmd+" "):
		return &usageError{fmt.Sprintf("unknown command %q; %s", cmd, adminUsage)}
	case wantArg && len(rest) != 2:
		return &usageError{fmt.Sprintf("stax admin %s takes one argument: the account's name (a report's id for close-report and remove-chat)", cmd)}
	case !wantArg && len(rest) != 1:
		return &usageError{fmt.Sprintf("unexpected argument %q", rest[1])}
	case wantArg:
		arg = rest[1]
	}
	if *limit < 1 || *valid <= 0 {
		return &usageError{"--limit and --valid must be positive"}
	}
	dbSet := false
	fs.Visit(func(f *flag.Flag) { dbSet = dbSet || f.Name == "db" })
	if !dbSet {
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
