package docs

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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
	"sync"
	"testing"
	"time"

	"stax/games"
	"stax/server"
	"stax/server/account"
	"stax/server/bots"
	"stax/server/lobby"
	"stax/server/store/sqlite"
)

// TestPythonBotQuoted checks that bots.md quotes examples/bot.py as it
// is, and that it keeps its promise of 30 lines.
func TestPythonBotQuoted(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("examples", "bot.py"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("bots.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, []byte("```python\n"+string(src)+"```\n")) {
		t.Error("bots.md does not quote examples/bot.py as it is: copy the file into its python block")
	}
	if n := bytes.Count(src, []byte("\n")); n > 30 {
		t.Errorf("examples/bot.py has %d lines; bots.md promises a bot in 30", n)
	}
}

// siteUser is an account of the test's site, signed in with a cookie, and
// with a personal API token once it has made one.
type siteUser struct {
	t      *testing.T
	base   string
	c      *http.Client
	secret string
}

// signUp signs name up on the site at base.
func signUp(t *testing.T, base, name string) *siteUser {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	u := &siteUser{t: t, base: base, c: &http.Client{Jar: jar}}
	u.call("POST", "/api/signup", account.Credentials{Name: name, Password: "correct horse " + name}, nil)
	return u
}

// call sends a request (with the token once there is one, else with the
// session cookie) and decodes the answer into out, failing the test on an
// error.
func (u *siteUser) call(method, path string, body, out any) {
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
		u.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode/100 != 2 {
		u.t.Fatalf("%s %s: %s: %s", method, path, res.Status, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			u.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
}

// makeToken makes a personal API token with the scopes, used by the
// account's later calls.
func (u *siteUser) makeToken(scopes ...string) {
	u.t.Helper()
	var tok account.NewToken
	u.call("POST", "/api/tokens", account.TokenRequest{Description: "test", Scopes: scopes}, &tok)
	u.secret = tok.Secret
}

// stream calls fn with each line of a stream of the account's until fn
// returns false or ctx is done.
func (u *siteUser) stream(ctx context.Context, path string, fn func([]byte) bool) {
	u.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", u.base+path, nil)
	req.Header.Set("Authorization", "Bearer "+u.secret)
	res, err := u.c.Do(req)
	if err != nil {
		u.t.Fatalf("GET %s: %v", path, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(res.Body)
		u.t.Fatalf("GET %s: %s: %s", path, res.Status, data)
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 && !fn(sc.Bytes()) {
			return
		}
	}
	if ctx.Err() != nil {
		u.t.Fatalf("GET %s: %v", path, ctx.Err())
	}
}

// playOut plays the account's seats of game id through the bot API, the
// first legal move each time, until the game is over, and returns its
// last state.
func (u *siteUser) playOut(ctx context.Context, id string) bots.GameState {
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
			u.call("POST", fmt.Sprintf("/api/bot/game/%s/move/%s?ply=%d", id, url.PathEscape(st.Legal[0]), st.Ply), nil, nil)
		}
		return true
	})
	return last
}

// TestPythonBot runs examples/bot.py with python3 against the real
// server: a person challenges it, and they play a game to its end, the
// person through the bot API with a token of her own.
func TestPythonBot(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game against python3")
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the Python bot of bots.md is not run")
	}
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "stax.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{Store: st, Games: games.All(), PasswordParams: server.PasswordParams{Time: 1, Memory: 64, Threads: 1}})
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

	pybot := signUp(t, hs.URL, "pybot")
	pybot.makeToken("bot")
	pybot.call("POST", "/api/bot/account/upgrade", nil, nil)
	var out lockedBuffer
	cmd := exec.Command(python, filepath.Join("examples", "bot.py"))
	cmd.Env = append(os.Environ(), "STAX_URL="+hs.URL, "STAX_TOKEN="+pybot.secret, "PYTHONUNBUFFERED=1")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("bot.py wrote:\n%s", out.String())
		}
	})

	ann := signUp(t, hs.URL, "ann")
	ann.makeToken("read", "play", "challenge")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// An open challenge is in the bot's event stream whenever it
	// connects, so ann need not wait for it.
	var ch lobby.Seek
	ann.call("POST", "/api/challenges", lobby.SeekRequest{Spec: "pogo", To: "pybot"}, &ch)
	var game string
	ann.stream(ctx, "/api/stream/event", func(line []byte) bool {
		var ev bots.Event
		json.Unmarshal(line, &ev)
		if ev.Type == bots.EventGameStart && ev.Game != nil {
			game = ev.Game.ID
			return false
		}
		return true
	})
	end := ann.playOut(ctx, game)
	if end.Status != "finished" || end.Outcome == nil {
		t.Fatalf("the game stopped at ply %d, %s; want it finished", end.Ply, end.Status)
	}
	t.Logf("pybot's game %s: %d plies, %s", game, end.Ply, end.Outcome.Description)
}

// lockedBuffer collects a process's output.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
