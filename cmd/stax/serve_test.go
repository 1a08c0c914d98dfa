package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"stax/server/store/pgtest"
)

// The kill test runs stax serve in a child process: the test binary
// itself, told by this variable to act as the command.
const serveChildEnv = "STAX_TEST_SERVE_CHILD"

// TestServeChild is the child process of TestServeKilled; it does nothing in
// a normal test run.
func TestServeChild(t *testing.T) {
	args := os.Getenv(serveChildEnv)
	if args == "" {
		t.Skip("runs only as the child of TestServeKilled")
	}
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	if err := run(e, strings.Fields(args)); err != nil {
		t.Fatal(err)
	}
}

// startChild starts stax serve in a child process and waits until it
// answers.
func startChild(t *testing.T, addr, db string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeChild$")
	cmd.Env = append(os.Environ(), serveChildEnv+"=serve --addr "+addr+" --db "+db+" --log-level error")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := waitHealthy(ctx, "http://"+addr); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	return cmd
}

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestServeKilled kills the server process (SIGKILL, no shutdown) in the
// middle of a game: every acknowledged move is there when it starts again,
// with SQLite and with PostgreSQL.
func TestServeKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	t.Run("sqlite", func(t *testing.T) { testServeKilled(t, filepath.Join(t.TempDir(), "stax.db")) })
	t.Run("postgres", func(t *testing.T) { testServeKilled(t, pgtest.URL(t)) })
}

func testServeKilled(t *testing.T, db string) {
	addr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	child := startChild(t, addr, db)
	base := "http://" + addr

	body := `{"spec":"pogo","seats":[{"kind":"human"},{"kind":"human"}]}`
	res, err := http.Post(base+"/api/games", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID, Token string }
	json.NewDecoder(res.Body).Decode(&created)
	res.Body.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws/games/"+created.ID+"?token="+created.Token, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	var f follower
	// next reads messages until a state or an update, which it applies
	// to the state so far.
	next := func() gameState {
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var m struct {
				Type  string
				State json.RawMessage
			}
			json.Unmarshal(data, &m)
			if m.State == nil || m.Type != "state" && m.Type != "update" {
				continue
			}
			st, err := f.take(m.Type, m.State)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
	}
	st := next()
	const plies = 6
	for st.Ply < plies {
		msg, _ := json.Marshal(map[string]any{"type": "move", "move": st.Legal[0], "ply": st.Ply})
		c.Write(ctx, websocket.MessageText, msg)
		want := st.Ply + 1
		for st.Ply < want {
			st = next() // the acknowledgement: the move is committed
		}
	}
	child.Process.Kill()
	child.Wait()

	startChild(t, addr, db)
	res, err = http.Get(base + "/api/games/" + created.ID)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var after gameState
	if err := json.Unmarshal(data, &after); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	if after.Ply != plies || strings.Join(after.Moves, " ") != strings.Join(st.Moves, " ") {
		t.Fatalf("after the kill: ply %d moves %v; want %d moves %v", after.Ply, after.Moves, plies, st.Moves)
	}
}

// TestServeShutdown runs the serve command in-process and stops it as
// SIGINT would.
func TestServeShutdown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	e := &env{stdout: &out, stderr: io.Discard}
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, e, discardLogger(), serveConfig{
			addr: "127.0.0.1:0", db: filepath.Join(t.TempDir(), "stax.db"), sync: "normal",
			ready: func(addr string) { ready <- addr },
		})
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	res, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(page), "<html") {
		t.Errorf("GET / = %.100s; want the interface's page", page)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "stax serving on http://127.0.0.1:") {
		t.Errorf("serve printed %q; want the address", out.String())
	}
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// TestAllowedHosts checks which host names stax serve answers to besides
// loopback ones.
func TestAllowedHosts(t *testing.T) {
	for _, tt := range []struct {
		addr, flag string
		want       string
		bad        bool
	}{
		{"127.0.0.1:8080", "", "", false},
		{"0.0.0.0:8080", "", "", false},
		{":8080", "", "", false},
		{"[::]:8080", "", "", false},
		{"192.168.1.5:8080", "", "192.168.1.5", false},
		{"stax.example.org:80", "", "stax.example.org", false},
		{":8080", "stax.example.org, .example.net", "stax.example.org .example.net", false},
		{":8080", "*", "*", false},
		{":8080", "http://x", "", true},
		{":8080", "a,,b", "", true},
		{"8080", "", "", true},
	} {
		got, err := allowedHosts(tt.addr, tt.flag)
		if (err != nil) != tt.bad || strings.Join(got, " ") != tt.want {
			t.Errorf("allowedHosts(%q, %q) = %q, %v; want %q (error: %v)", tt.addr, tt.flag, got, err, tt.want, tt.bad)
		}
	}
}

// TestAssetsDir checks that --assets serves the directory's files and
// symbolic links inside it, but not links leading out of it.
func TestAssetsDir(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	os.WriteFile(secret, []byte("secret"), 0o644)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<title>stax</title>"), 0o644)
	for link, target := range map[string]string{"out.txt": secret, "up": outside, "index2.html": "index.html"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	fsys, err := assetsDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, ok := range map[string]bool{"index.html": true, "index2.html": true, "out.txt": false, "up/secret.txt": false, "../" + filepath.Base(outside) + "/secret.txt": false} {
		b, err := fs.ReadFile(fsys, name)
		if ok != (err == nil) {
			t.Errorf("reading %s from the assets: %q, %v; want it readable: %v", name, b, err, ok)
		}
	}
	if _, err := assetsDir(secret); err == nil {
		t.Errorf("assetsDir of a file did not fail")
	}
}
