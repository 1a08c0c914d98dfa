package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"stax/ai"
	"stax/games"
	"stax/server"
	"stax/server/account"
	"stax/server/bots"
	"stax/server/bots/botstest"
	"stax/server/lobby"
	"stax/server/ratings"
	"stax/server/store"
	"stax/server/store/sqlite"
	"stax/web"
)

// botSite runs the real server in-process on a new SQLite database, with
// the computer levels and the browser interface, and returns its base
// URL.
func botSite(t *testing.T) string {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "stax.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	levels := ai.Config{Tables: ai.NewTables(ai.TablesConfig{Dir: t.TempDir()})}
	srv, err := server.New(server.Config{
		Store: st, Games: games.All(), Assets: web.FS(),
		NewPlayer: levels.New, Levels: levels.Levels, LevelReady: levels.Ready, LevelElo: ai.Elo,
		PasswordParams: server.PasswordParams{Time: 1, Memory: 64, Threads: 1},
		AIDelay:        50 * time.Millisecond,
	})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		srv.Close()
		hs.Close()
		st.Close()
	})
	return hs.URL
}

// waitLine waits for a line of a process's output that contains want.
func waitLine(t *testing.T, lines <-chan string, want string) {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case l := <-lines:
			if strings.Contains(l, want) {
				return
			}
		case <-deadline:
			t.Fatalf("the process did not say %q in a minute", want)
		}
	}
}

// startBotCommand runs stax bot for the bot account at base, with stax
// engine at level as its engine (this test binary acting as both), until
// the test ends or it is killed, and waits until it is connected. It
// returns the process and the lines it writes from then on.
func startBotCommand(t *testing.T, base string, robot *botstest.Account, level string, flags ...string) (*exec.Cmd, <-chan string) {
	t.Helper()
	// The token and the engine's command line (which has spaces) come
	// from the environment, as STAX_* settings.
	t.Setenv("STAX_TOKEN", robot.Secret)
	t.Setenv("STAX_ENGINE", os.Args[0]+" -test.run=^TestMainChild$")
	t.Setenv(mainChildEnv, "engine --level "+level)
	lines := make(chan string, 256)
	cmd := startProcess(t, lines, append([]string{"bot", "--url", base, "--log-level", "debug"}, flags...)...)
	waitLine(t, lines, "connected: waiting for challenges")
	return cmd, lines
}

// TestBotCommand runs stax bot with stax engine --level easy against a
// real server: it declines a challenge its policy refuses, accepts one it
// allows, and plays that rated game to its end, though it is killed in
// the middle of the game and started again: it resumes the game.
func TestBotCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game with processes")
	}
	base := botSite(t)
	robot := botstest.MakeBot(t, base, "robot")
	flags := []string{"--variants", "pogo", "--max-initial", "10m"}
	bot, _ := startBotCommand(t, base, robot, "easy", flags...)

	ann := botstest.SignUp(t, base, "ann")
	ann.MakeToken(store.ScopeRead, store.ScopePlay, store.ScopeChallenge)
	events := ann.Events()
	var refused, ch lobby.Seek
	ann.Call("POST", "/api/challenges", lobby.SeekRequest{Spec: "diam", To: "robot", Clock: &lobby.ClockSpec{Initial: 300, Increment: 3}}, &refused)
	botstest.WaitEvent(t, events, "the decline of the Diam challenge", func(ev bots.Event) bool {
		return ev.Type == bots.EventChallengeDeclined && ev.Challenge != nil && ev.Challenge.ID == refused.ID
	})
	ann.Call("POST", "/api/challenges", lobby.SeekRequest{Spec: "pogo", To: "robot", Rated: true, Clock: &lobby.ClockSpec{Initial: 300, Increment: 3}, Seat: json.RawMessage("0")}, &ch)
	start := botstest.WaitEvent(t, events, "the game's start", func(ev bots.Event) bool { return ev.Type == bots.EventGameStart && ev.Game != nil })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	end := ann.PlayOut(ctx, start.Game.ID, func(ply int) {
		if ply != 2 {
			return
		}
		// The bot has answered ann's first move: it is killed (no
		// shutdown) and started again, and picks the game up from its
		// event stream.
		bot.Process.Kill()
		bot.Wait()
		_, lines := startBotCommand(t, base, robot, "easy", flags...)
		waitLine(t, lines, `msg="game started" game=`+start.Game.ID)
	})
	if end.Status != "finished" || end.Outcome == nil || end.Ply < 3 {
		t.Fatalf("the game stopped at ply %d, %s; want it finished after the restart", end.Ply, end.Status)
	}
	var p ratings.Profile
	ann.Call("GET", "/api/users/robot", nil, &p)
	if len(p.Ratings) != 1 || p.Ratings[0].Games != 1 {
		t.Errorf("robot's ratings %+v; want one rated game of pogo", p.Ratings)
	}
	t.Logf("robot's game: %d plies, %s", end.Ply, end.Outcome.Description)
}

// TestHouseBots runs stax serve --house-bots easy: the house bot stax-easy
// is a bot account that accepts a challenge and plays the game to its end.
func TestHouseBots(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process and plays a whole game")
	}
	in := startInstance(t, "house", filepath.Join(t.TempDir(), "stax.db"), "--house-bots", "easy")
	base := "http://" + in.addr
	ann := botstest.SignUp(t, base, "ann")
	ann.MakeToken(store.ScopeRead, store.ScopePlay, store.ScopeChallenge)
	events := ann.Events()
	var ch lobby.Seek
	ann.Call("POST", "/api/challenges", lobby.SeekRequest{Spec: "pisola", To: "stax-easy", Rated: true, Clock: &lobby.ClockSpec{Initial: 120, Increment: 2}}, &ch)
	start := botstest.WaitEvent(t, events, "the game's start", func(ev bots.Event) bool { return ev.Type == bots.EventGameStart && ev.Game != nil })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	end := ann.PlayOut(ctx, start.Game.ID, nil)
	if end.Status != "finished" || end.Outcome == nil {
		t.Fatalf("the game stopped at ply %d, %s", end.Ply, end.Status)
	}
	// The house bot is a bot account, rated like a person.
	var p ratings.Profile
	ann.Call("GET", "/api/users/stax-easy", nil, &p)
	if len(p.Ratings) != 1 || p.Ratings[0].Games != 1 {
		t.Errorf("stax-easy's ratings %+v; want one rated game of pisola", p.Ratings)
	}
	if status, _ := ann.Try("POST", "/api/signup", account.Credentials{Name: "stax-hard", Password: "correct horse battery"}); status/100 == 2 {
		t.Error("signing up as stax-hard: accepted; want the name reserved")
	}
	t.Logf("stax-easy's game: %d plies, %s", end.Ply, end.Outcome.Description)
}

func TestParseHouseBots(t *testing.T) {
	levels := ai.Config{}
	for _, tt := range []struct {
		in   string
		want []string
		err  string
	}{
		{"", nil, ""},
		{"easy", []string{"easy"}, ""},
		{" Easy , hard,strongest,easy", []string{"easy", "hard", "strongest"}, ""},
		{"perfect", nil, `level "perfect"`},
		{"godlike", nil, `level "godlike"`},
		{"easy,,hard", nil, `level ""`},
	} {
		got, err := parseHouseBots(tt.in, levels)
		if tt.err != "" {
			var ue *usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseHouseBots(%q) = %v, %v; want a usage error mentioning %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("parseHouseBots(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// TestHouseBotsNeedTokens checks that a store without accounts and tokens
// refuses the house bots, saying why.
func TestHouseBotsNeedTokens(t *testing.T) {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "stax.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// A store seen through WithDeadline keeps games only.
	_, err = startHouseBots(context.Background(), store.WithDeadline(st, time.Second), []string{"easy"}, 1, ai.Config{}, "http://127.0.0.1:1", discardLogger())
	if err == nil || !strings.Contains(err.Error(), "no accounts or no API tokens") {
		t.Errorf("startHouseBots on a store without tokens = %v; want a refusal saying why", err)
	}
}

// TestBotUsage checks stax bot's command line: what is missing or wrong
// is one line, exit status 2.
func TestBotUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"bot", "--token", "t", "--engine", "e"}, "missing --url"},
		{[]string{"bot", "--url", "http://x", "--engine", "e"}, "missing --token"},
		{[]string{"bot", "--url", "http://x", "--token", "t"}, "missing --engine"},
		{[]string{"bot", "--url", "x", "--token", "t", "--engine", "e"}, "want http:// or https://"},
		{[]string{"bot", "--url", "http://x", "--token", "t", "--engine", "e", "--variants", "chess"}, "unknown game"},
		{[]string{"bot", "--url", "http://x", "--token", "t", "--engine", "'e"}, "unclosed quote"},
		{[]string{"bot", "--url", "http://x", "--token", "t", "--engine", "e", "--workers", "0"}, "want 1 to 16"},
		{[]string{"bot", "--url", "http://x", "--token", "t", "--engine", "e", "--workers", "17"}, "want 1 to 16"},
		{[]string{"bot", "--url", "http://x", "--token", "t", "--engine", "e", "--min-initial", "5m", "--max-initial", "1m"}, "must not be below"},
		{[]string{"bot", "--url", "http://x", "--token", "t", "--engine", "e", "--rated=false", "--casual=false"}, "accept no game"},
		{[]string{"bot", "--url", "http://x", "--token", "t", "--engine", "e", "--fischer=false"}, "accepts no game"},
		{[]string{"bot", "--url", "http://x", "--token", "t", "--engine", "e", "--time", "-1s"}, "cannot be negative"},
		{[]string{"bot", "--url", "http://x", "--token", "t", "--engine", "e", "extra"}, `unexpected argument "extra"`},
	} {
		t.Run(strings.Join(tt.args[1:], " "), func(t *testing.T) {
			_, _, err := runCmd(t, "", tt.args...)
			var ue *usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("stax %s: %v; want a one-line usage error mentioning %q", strings.Join(tt.args, " "), err, tt.want)
			}
		})
	}
	// A command that cannot run is refused before the bot connects.
	_, _, err := runCmd(t, "", "bot", "--url", "http://127.0.0.1:1", "--token", "t", "--engine", filepath.Join(t.TempDir(), "no-engine"))
	if err == nil || !strings.Contains(err.Error(), "cannot start") {
		t.Errorf("stax bot with a missing engine: %v; want it refused", err)
	}
}

// TestBotFlagsDocumented checks that docs/bots.md describes every flag of
// stax bot.
func TestBotFlagsDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "bots.md"))
	if err != nil {
		t.Fatal(err)
	}
	c := lookup("bot")
	fs, err := flagSet(c)
	if err != nil {
		t.Fatal(err)
	}
	fs.VisitAll(func(f *flag.Flag) {
		if !bytes.Contains(doc, []byte("`--"+f.Name)) {
			t.Errorf("docs/bots.md does not describe stax bot --%s", f.Name)
		}
	})
}
