package docs

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"stax/games"
	"stax/server"
	"stax/server/bots"
	"stax/server/bots/botstest"
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

	pybot := botstest.SignUp(t, hs.URL, "pybot")
	pybot.MakeToken("bot")
	pybot.Call("POST", "/api/bot/account/upgrade", nil, nil)
	var out lockedBuffer
	cmd := exec.Command(python, filepath.Join("examples", "bot.py"))
	cmd.Env = append(os.Environ(), "STAX_URL="+hs.URL, "STAX_TOKEN="+pybot.Secret, "PYTHONUNBUFFERED=1")
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

	ann := botstest.SignUp(t, hs.URL, "ann")
	ann.MakeToken("read", "play", "challenge")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// An open challenge is in the bot's event stream whenever it
	// connects, so ann need not wait for it.
	var ch lobby.Seek
	ann.Call("POST", "/api/challenges", lobby.SeekRequest{Spec: "pogo", To: "pybot"}, &ch)
	var game string
	ann.Stream(ctx, "/api/stream/event", func(line []byte) bool {
		var ev bots.Event
		json.Unmarshal(line, &ev)
		if ev.Type == bots.EventGameStart && ev.Game != nil {
			game = ev.Game.ID
			return false
		}
		return true
	})
	end := ann.PlayOut(ctx, game, nil)
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
