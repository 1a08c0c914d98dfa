package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"stax/server/play"
	"stax/server/store"
	"stax/server/store/pgtest"
	"stax/server/store/postgres"
)

// startProcess runs a stax command (the test binary acting as stax) until
// the test ends or it is killed. Each line it prints is sent to lines
// (when not nil) and kept for the test's log.
func startProcess(t *testing.T, lines chan<- string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeChild$")
	cmd.Env = append(os.Environ(), serveChildEnv+"="+strings.Join(args, " "))
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	var mu sync.Mutex
	var out strings.Builder
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			mu.Lock()
			out.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if lines != nil {
				select {
				case lines <- sc.Text():
				default:
				}
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		<-done
		if t.Failed() {
			mu.Lock()
			t.Logf("stax %s:\n%s", strings.Join(args, " "), out.String())
			mu.Unlock()
		}
	})
	return cmd
}

// instance is one stax serve process.
type instance struct {
	name, addr string
	cmd        *exec.Cmd
}

// startInstance starts stax serve on a port the system chooses, and reads
// the address from what it prints.
func startInstance(t *testing.T, name, db string, extra ...string) *instance {
	t.Helper()
	lines := make(chan string, 16)
	// No browser visits these instances: the engine for it is not built.
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--log-level", "warn", "--ai-delay", "0s", "--browser-engine=false"}, extra...)
	cmd := startProcess(t, lines, args...)
	deadline := time.After(30 * time.Second)
	for {
		select {
		case line := <-lines:
			if rest, ok := strings.CutPrefix(line, "stax serving on http://"); ok {
				addr, _, _ := strings.Cut(rest, "/")
				return &instance{name: name, addr: addr, cmd: cmd}
			}
		case <-deadline:
			t.Fatalf("%s did not say where it serves", name)
		}
	}
}

func postJSON(t *testing.T, url string, req, resp any) {
	t.Helper()
	body, _ := json.Marshal(req)
	res, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode/100 != 2 {
		var e struct{ Error string }
		json.NewDecoder(res.Body).Decode(&e)
		t.Fatalf("POST %s: %s: %s", url, res.Status, e.Error)
	}
	if err := json.NewDecoder(res.Body).Decode(resp); err != nil {
		t.Fatal(err)
	}
}

// player is one websocket to a game on one instance.
type wsPlayer struct {
	t      *testing.T
	name   string
	c      *websocket.Conn
	seats  []int
	mu     sync.Mutex
	last   gameState
	follow follower
	errs   []string
	update chan struct{}
	closed chan struct{}
}

func connect(t *testing.T, name string, in *instance, id, token string) *wsPlayer {
	t.Helper()
	url := "ws://" + in.addr + "/ws/games/" + id
	if token != "" {
		url += "?token=" + token
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatalf("%s: dial %s: %v", name, in.name, err)
	}
	c.SetReadLimit(1 << 20)
	p := &wsPlayer{t: t, name: name, c: c, last: gameState{Ply: -1}, update: make(chan struct{}, 1), closed: make(chan struct{})}
	t.Cleanup(func() { c.CloseNow() })
	hello := make(chan struct{})
	go func() {
		defer close(p.closed)
		for {
			_, data, err := c.Read(context.Background())
			if err != nil {
				return
			}
			var m struct {
				Type    string
				Seats   []int
				State   json.RawMessage
				Message string
			}
			if err := json.Unmarshal(data, &m); err != nil {
				continue
			}
			p.mu.Lock()
			switch m.Type {
			case "hello":
				p.seats = m.Seats
				close(hello)
			case "state", "update":
				st, err := p.follow.take(m.Type, m.State)
				switch {
				case err != nil:
					p.errs = append(p.errs, fmt.Sprintf("%s at ply %d: %v", m.Type, p.last.Ply, err))
				case st.Ply < p.last.Ply:
					p.errs = append(p.errs, fmt.Sprintf("state went back from ply %d to %d", p.last.Ply, st.Ply))
				default:
					p.last = st
				}
			case "error":
				p.errs = append(p.errs, m.Message)
			}
			p.mu.Unlock()
			select {
			case p.update <- struct{}{}:
			default:
			}
		}
	}()
	select {
	case <-hello:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: no hello", name)
	}
	return p
}

// wait returns the first state at least at ply, or one that is finished.
func (p *wsPlayer) wait(ply int) gameState {
	p.t.Helper()
	return p.waitFor(ply, 20*time.Second)
}

// waitFor is wait with a time limit of its own.
func (p *wsPlayer) waitFor(ply int, limit time.Duration) gameState {
	p.t.Helper()
	deadline := time.After(limit)
	for {
		p.mu.Lock()
		st := p.last
		p.mu.Unlock()
		if st.Ply >= ply {
			return st
		}
		select {
		case <-p.update:
		case <-p.closed:
			p.t.Fatalf("%s: connection closed waiting for ply %d", p.name, ply)
		case <-deadline:
			p.t.Fatalf("%s: still at ply %d; want %d", p.name, st.Ply, ply)
		}
	}
}

func (p *wsPlayer) move(m string, ply int) {
	msg, _ := json.Marshal(map[string]any{"type": "move", "move": m, "ply": ply})
	if err := p.c.Write(context.Background(), websocket.MessageText, msg); err != nil {
		p.t.Fatalf("%s: send %s: %v", p.name, m, err)
	}
}

func (p *wsPlayer) holds(seat int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.seats {
		if s == seat {
			return true
		}
	}
	return false
}

func (p *wsPlayer) errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errs...)
}

// playOut plays a game to its end: each move by the player holding the
// seat to move, and every watcher sees every ply. It returns the moves
// acknowledged.
func playOut(t *testing.T, players, watchers []*wsPlayer, maxPlies int) gameState {
	t.Helper()
	all := append(append([]*wsPlayer(nil), players...), watchers...)
	st := all[0].wait(0)
	for st.Status == "playing" && st.Ply < maxPlies {
		var mover *wsPlayer
		for _, p := range players {
			if p.holds(st.ToMove) {
				mover = p
			}
		}
		if mover != nil {
			mover.wait(st.Ply)
			mover.move(st.Legal[(st.Ply*7)%len(st.Legal)], st.Ply)
		} // else a computer is to move
		next := st.Ply + 1
		for _, p := range all {
			st = p.wait(next)
		}
	}
	for _, p := range all {
		if errs := p.errors(); len(errs) > 0 {
			t.Fatalf("%s got errors: %q", p.name, errs)
		}
	}
	return st
}

// TestMultiInstance runs three stax serve processes and a stax worker on
// one PostgreSQL database: players on different instances play whole games
// of every family while a spectator watches from a third; a computer's
// moves are each computed once; and when an instance is killed, its player
// reconnects to another and plays on with every acknowledged move there.
func TestMultiInstance(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	db := pgtest.URL(t)
	// A and B make no computer moves: C and the worker process do.
	a := startInstance(t, "A", db, "--workers", "0")
	b := startInstance(t, "B", db, "--workers", "0")
	c := startInstance(t, "C", db, "--workers", "1")
	startProcess(t, nil, "worker", "--db", db, "--workers", "2", "--ai-delay", "0s", "--log-level", "warn")

	for _, tc := range []struct {
		spec    string
		players int
	}{{"pogo", 2}, {"pisola", 2}, {"diam", 2}, {"diam(players=4,teams=true)", 4}} {
		spec := tc.spec
		t.Run(spec, func(t *testing.T) {
			var created play.CreateResponse
			seats := []play.SeatRequest{{Kind: "human"}}
			instances := []*instance{a, b, c, a}
			for range tc.players - 1 {
				seats = append(seats, play.SeatRequest{Kind: "human", Invite: true})
			}
			postJSON(t, "http://"+a.addr+"/api/games", play.CreateRequest{Spec: spec, Seats: seats}, &created)
			players := []*wsPlayer{connect(t, "seat 0 on A", a, created.ID, created.Token)}
			for i, inv := range created.Invites {
				in := instances[i+1]
				var joined play.JoinResponse
				postJSON(t, "http://"+in.addr+"/api/games/"+created.ID+"/join", play.JoinRequest{Invite: inv.Invite, Name: fmt.Sprint("p", inv.Seat)}, &joined)
				players = append(players, connect(t, fmt.Sprintf("seat %d on %s", inv.Seat, in.name), in, created.ID, joined.Token))
			}
			spectator := connect(t, "spectator on C", c, created.ID, "")
			end := playOut(t, players, []*wsPlayer{spectator}, 400)
			// Every instance serves the same game.
			for _, in := range []*instance{a, b, c} {
				var st gameState
				getJSON(t, "http://"+in.addr+"/api/games/"+created.ID, &st)
				if st.Ply != end.Ply || strings.Join(st.Moves, " ") != strings.Join(end.Moves, " ") || st.Status != end.Status {
					t.Fatalf("%s serves ply %d %s; the players saw ply %d %s", in.name, st.Ply, st.Status, end.Ply, end.Status)
				}
			}
			t.Logf("%s: %d plies, %s", spec, end.Ply, end.Status)
		})
	}

	t.Run("computer", func(t *testing.T) {
		var created play.CreateResponse
		postJSON(t, "http://"+b.addr+"/api/games", play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "ai", Level: "easy"}}}, &created)
		human := connect(t, "human on B", b, created.ID, created.Token)
		spectator := connect(t, "spectator on A", a, created.ID, "")
		end := playOut(t, []*wsPlayer{human}, []*wsPlayer{spectator}, 60)
		st, err := postgres.Open(context.Background(), db, postgres.Options{MaxConns: 2})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		computer := end.Ply / 2 // the computer plays the odd plies
		// The last computer move may still be marked done: wait for it.
		var jobs []store.Job
		for wait := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if jobs, err = st.Jobs(context.Background(), created.ID); err != nil {
				t.Fatal(err)
			}
			if len(jobs) == computer && jobs[len(jobs)-1].Done || time.Now().After(wait) {
				break
			}
		}
		if len(jobs) != computer {
			t.Fatalf("%d jobs for %d computer moves", len(jobs), computer)
		}
		owners := map[string]int{}
		for i, j := range jobs {
			if j.Ply != 2*i+1 || !j.Done || j.Attempts != 1 {
				t.Fatalf("job %+v; want ply %d, done at the first attempt", j, 2*i+1)
			}
			owners[j.Owner]++
		}
		t.Logf("%d computer moves, each computed once, by %d workers: %v", computer, len(owners), owners)
	})

	t.Run("kill", func(t *testing.T) {
		var created play.CreateResponse
		postJSON(t, "http://"+a.addr+"/api/games", play.CreateRequest{Spec: "pisola", Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "human", Invite: true}}}, &created)
		var joined play.JoinResponse
		postJSON(t, "http://"+b.addr+"/api/games/"+created.ID+"/join", play.JoinRequest{Invite: created.Invites[0].Invite}, &joined)
		p1 := connect(t, "seat 0 on A", a, created.ID, created.Token)
		p2 := connect(t, "seat 1 on B", b, created.ID, joined.Token)
		spectator := connect(t, "spectator on C", c, created.ID, "")
		before := playOut(t, []*wsPlayer{p1, p2}, []*wsPlayer{spectator}, 10)
		if before.ToMove != 0 {
			p2.move(before.Legal[0], before.Ply)
			before = p1.wait(before.Ply + 1)
		}
		// Seat 0 sends its move and A dies right after acknowledging it.
		p1.move(before.Legal[0], before.Ply)
		acked := p1.wait(before.Ply + 1)
		a.cmd.Process.Kill() // SIGKILL: no shutdown
		a.cmd.Wait()
		<-p1.closed
		p1 = connect(t, "seat 0 again, on B", b, created.ID, created.Token)
		got := p1.wait(acked.Ply)
		if strings.Join(got.Moves[:acked.Ply], " ") != strings.Join(acked.Moves, " ") {
			t.Fatalf("after the kill B has moves %q; A had acknowledged %q", got.Moves, acked.Moves)
		}
		end := playOut(t, []*wsPlayer{p1, p2}, []*wsPlayer{spectator}, acked.Ply+10)
		if strings.Join(end.Moves[:acked.Ply], " ") != strings.Join(acked.Moves, " ") {
			t.Fatalf("the game lost acknowledged moves: %q, then %q", acked.Moves, end.Moves)
		}
	})
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// TestWorkerKilled kills a stax worker while it computes a computer move:
// once its lease has expired, another worker makes the move, exactly once,
// and the game goes on.
func TestWorkerKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	db := pgtest.URL(t)
	a := startInstance(t, "A", db, "--workers", "0")
	// A lease is --ai-timeout and 10 s; Pisola's strongest thinks 1.5 s.
	worker := []string{"worker", "--db", db, "--workers", "1", "--ai-delay", "0s", "--ai-timeout", "3s", "--log-level", "warn"}
	first := startProcess(t, nil, worker...)
	var created play.CreateResponse
	postJSON(t, "http://"+a.addr+"/api/games", play.CreateRequest{Spec: "pisola", Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "ai", Level: "strongest"}}}, &created)
	human := connect(t, "human on A", a, created.ID, created.Token)
	st, err := postgres.Open(context.Background(), db, postgres.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	begin := human.wait(0)
	human.move(begin.Legal[0], 0)
	// Kill the worker once it has claimed the job, while it thinks.
	deadline := time.Now().Add(20 * time.Second)
	for {
		jobs, err := st.Jobs(context.Background(), created.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) == 1 && jobs[0].Done {
			t.Fatal("the worker made its move before it could be killed")
		}
		if len(jobs) == 1 && jobs[0].Attempts == 1 && jobs[0].Owner != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no worker claimed the computer's move: %+v", jobs)
		}
		time.Sleep(10 * time.Millisecond)
	}
	killed := time.Now()
	first.Process.Kill()
	first.Wait()
	startProcess(t, nil, worker...)

	after := human.waitFor(2, time.Minute)
	waited := time.Since(killed)
	if after.Ply != 2 || after.Status != "playing" {
		t.Fatalf("after the kill: ply %d, %s; want the computer's move and the game going on", after.Ply, after.Status)
	}
	// The worker marks the job done just after committing the move.
	var jobs []store.Job
	for wait := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if jobs, err = st.Jobs(context.Background(), created.ID); err != nil {
			t.Fatal(err)
		}
		if len(jobs) != 1 || jobs[0].Done || time.Now().After(wait) {
			break
		}
	}
	if len(jobs) != 1 || !jobs[0].Done || jobs[0].Attempts != 2 {
		t.Fatalf("jobs %+v; want one, done at the second attempt", jobs)
	}
	human.move(after.Legal[0], 2)
	if end := human.wait(4); end.Ply < 4 {
		t.Fatalf("the game stopped at ply %d", end.Ply)
	}
	if errs := human.errors(); len(errs) > 0 {
		t.Fatalf("errors: %q", errs)
	}
	t.Logf("the second worker moved %v after the first was killed", waited.Round(100*time.Millisecond))
}
