package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
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

// siteUser is an account of a test's site: signed in with a cookie, and
// with a personal API token once it has made one.
type siteUser struct {
	t      *testing.T
	name   string
	base   string
	c      *http.Client
	secret string
}

// signUp signs name up on the site at base.
func signUp(t *testing.T, base, name string) *siteUser {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	u := &siteUser{t: t, name: name, base: base, c: &http.Client{Jar: jar}}
	u.call("POST", "/api/signup", account.Credentials{Name: name, Password: "correct horse " + name}, nil)
	return u
}

// call sends a request (with the token once there is one, else with the
// session cookie), decodes the answer into out and fails the test on an
// error.
func (u *siteUser) call(method, path string, body, out any) {
	u.t.Helper()
	if status, data := u.try(method, path, body); status/100 != 2 {
		u.t.Fatalf("%s: %s %s: %d %s", u.name, method, path, status, data)
	} else if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			u.t.Fatalf("%s: %s %s: %v in %s", u.name, method, path, err, data)
		}
	}
}

// try sends a request and returns the answer's status and body.
func (u *siteUser) try(method, path string, body any) (int, []byte) {
	u.t.Helper()
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, u.base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if u.secret != "" {
		req.Header.Set("Authorization", "Bearer "+u.secret)
	}
	res, err := u.c.Do(req)
	if err != nil {
		u.t.Fatalf("%s: %s %s: %v", u.name, method, path, err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, data
}

// makeToken makes a personal API token with the scopes, which the
// account's later calls carry.
func (u *siteUser) makeToken(scopes ...string) {
	u.t.Helper()
	var tok account.NewToken
	u.call("POST", "/api/tokens", account.TokenRequest{Description: "test", Scopes: scopes}, &tok)
	u.secret = tok.Secret
}

// makeBot signs name up as a bot account, with a token of the bot scope.
func makeBot(t *testing.T, base, name string) *siteUser {
	t.Helper()
	u := signUp(t, base, name)
	u.makeToken(store.ScopeBot)
	u.call("POST", "/api/bot/account/upgrade", nil, nil)
	return u
}

// stream calls fn with each line of one of the account's streams, until
// fn returns false; the test fails if ctx ends first.
func (u *siteUser) stream(ctx context.Context, path string, fn func([]byte) bool) {
	u.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", u.base+path, nil)
	req.Header.Set("Authorization", "Bearer "+u.secret)
	res, err := u.c.Do(req)
	if err != nil {
		u.t.Fatalf("%s: GET %s: %v", u.name, path, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(res.Body)
		u.t.Fatalf("%s: GET %s: %s: %s", u.name, path, res.Status, data)
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 && !fn(sc.Bytes()) {
			return
		}
	}
	u.t.Fatalf("%s: GET %s ended: %v", u.name, path, errors.Join(sc.Err(), ctx.Err()))
}

// events returns the account's event stream as a channel of events,
// read until the test ends.
func (u *siteUser) events() <-chan bots.Event {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan bots.Event, 64)
	req, _ := http.NewRequestWithContext(ctx, "GET", u.base+"/api/stream/event", nil)
	req.Header.Set("Authorization", "Bearer "+u.secret)
	res, err := u.c.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		cancel()
		u.t.Fatalf("%s: the event stream: %v %v", u.name, err, res)
	}
	done := make(chan struct{})
	u.t.Cleanup(func() {
		cancel()
		<-done
	})
	go func() {
		defer close(done)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var ev bots.Event
			if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Type != "" {
				select {
				case ch <- ev:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return ch
}

// waitEvent returns the first event of ch that ok accepts.
func waitEvent(t *testing.T, ch <-chan bots.Event, what string, ok func(bots.Event) bool) bots.Event {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case ev := <-ch:
			if ok(ev) {
				return ev
			}
		case <-deadline:
			t.Fatalf("no %s in a minute", what)
		}
	}
}

// playOut plays the account's seats of game id through the bot API, a
// legal move drawn by the ply each time, until the game is over, and
// returns its last state. before, when not nil, is called before each of
// the account's moves with its ply.
func (u *siteUser) playOut(ctx context.Context, id string, before func(ply int)) bots.GameState {
	u.t.Helper()
	var seats []int
	var last bots.GameState
	u.stream(ctx, "/api/bot/game/stream/"+id, func(line []byte) bool {
		var head struct{ Type string }
		json.Unmarshal(line, &head)
		var st bots.GameState
		switch head.Type {
		case bots.LineGameFull:
			var full bots.GameFull
			if err := json.Unmarshal(line, &full); err != nil {
				u.t.Fatal(err)
			}
			seats, st = full.Seats, full.State
		case bots.LineGameState:
			if err := json.Unmarshal(line, &st); err != nil {
				u.t.Fatal(err)
			}
		default:
			return true
		}
		last = st
		if st.Status != "playing" {
			return false
		}
		if slices.Contains(seats, st.ToMove) && len(st.Legal) > 0 {
			if before != nil {
				before(st.Ply)
			}
			mv := st.Legal[(st.Ply*7)%len(st.Legal)]
			u.call("POST", fmt.Sprintf("/api/bot/game/%s/move/%s?ply=%d", id, url.PathEscape(mv), st.Ply), nil, nil)
		}
		return true
	})
	return last
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
func startBotCommand(t *testing.T, base string, robot *siteUser, level string, flags ...string) (*exec.Cmd, <-chan string) {
	t.Helper()
	// The token and the engine's command line (which has spaces) come
	// from the environment, as STAX_* settings.
	t.Setenv("STAX_TOKEN", robot.secret)
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
	robot := makeBot(t, base, "robot")
	flags := []string{"--variants", "pogo", "--max-initial", "10m"}
	bot, _ := startBotCommand(t, base, robot, "easy", flags...)

	ann := signUp(t, base, "ann")
	ann.makeToken(store.ScopeRead, store.ScopePlay, store.ScopeChallenge)
	events := ann.events()
	var refused, ch lobby.Seek
	ann.call("POST", "/api/challenges", lobby.SeekRequest{Spec: "diam", To: "robot", Clock: &lobby.ClockSpec{Initial: 300, Increment: 3}}, &refused)
	waitEvent(t, events, "the decline of the Diam challenge", func(ev bots.Event) bool {
		return ev.Type == bots.EventChallengeDeclined && ev.Challenge != nil && ev.Challenge.ID == refused.ID
	})
	ann.call("POST", "/api/challenges", lobby.SeekRequest{Spec: "pogo", To: "robot", Rated: true, Clock: &lobby.ClockSpec{Initial: 300, Increment: 3}, Seat: json.RawMessage("0")}, &ch)
	start := waitEvent(t, events, "the game's start", func(ev bots.Event) bool { return ev.Type == bots.EventGameStart && ev.Game != nil })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	end := ann.playOut(ctx, start.Game.ID, func(ply int) {
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
	ann.call("GET", "/api/users/robot", nil, &p)
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
	ann := signUp(t, base, "ann")
	ann.makeToken(store.ScopeRead, store.ScopePlay, store.ScopeChallenge)
	events := ann.events()
	var ch lobby.Seek
	ann.call("POST", "/api/challenges", lobby.SeekRequest{Spec: "pisola", To: "stax-easy", Rated: true, Clock: &lobby.ClockSpec{Initial: 120, Increment: 2}}, &ch)
	start := waitEvent(t, events, "the game's start", func(ev bots.Event) bool { return ev.Type == bots.EventGameStart && ev.Game != nil })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	end := ann.playOut(ctx, start.Game.ID, nil)
	if end.Status != "finished" || end.Outcome == nil {
		t.Fatalf("the game stopped at ply %d, %s", end.Ply, end.Status)
	}
	// The house bot is a bot account, rated like a person.
	var p ratings.Profile
	ann.call("GET", "/api/users/stax-easy", nil, &p)
	if len(p.Ratings) != 1 || p.Ratings[0].Games != 1 {
		t.Errorf("stax-easy's ratings %+v; want one rated game of pisola", p.Ratings)
	}
	if status, _ := ann.try("POST", "/api/signup", account.Credentials{Name: "stax-hard", Password: "correct horse battery"}); status/100 == 2 {
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
