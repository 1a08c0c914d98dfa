// Package loadtest plays many concurrent games against a stax server
// through its HTTP and websocket API and measures the relay latency: the
// time from a player sending a move to a client receiving the state that
// shows it.
//
// Each game is created over HTTP and played by one websocket per seat (the
// second seat joins through its invite), or, with Config.Clients = 1, by one
// websocket that holds both seats, which halves the connections a machine
// must hold. Players wait Config.Think (with ±50% jitter) before each move
// and pick a random legal move. A game that ends is replaced by a new one,
// so the number of concurrent games stays constant. Every loop is bounded by
// Config.Duration. It speaks the API with the server's own wire types
// (play.CreateRequest, play.Message, play.State), so that a change of
// the API shows here at compile time.
package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"stax/server/latency"
	"stax/server/play"
	"stax/server/update"
)

// Config describes a load test.
type Config struct {
	// URL is the server's base URL, e.g. http://127.0.0.1:8080, or
	// several instances' base URLs separated by commas. Only loopback
	// addresses are accepted. With several, game i is created on instance
	// i mod n; in even games both players are on that instance, in odd
	// games the second player is on the next one, so that the report
	// compares the relay within an instance and across two in one run.
	URL string
	// Games is the number of concurrent games.
	Games int
	// Clients is the number of websockets per game: 2 (one per seat, the
	// default) or 1 (one holding both seats).
	Clients int
	// Duration is how long the games are played once all are connected.
	Duration time.Duration
	// Think is the mean pause of a player before each move (default 1s).
	Think time.Duration
	// Spec is the game played (default pogo).
	Spec string
	// Setup is the number of games connected at once while setting up
	// (default 64).
	Setup int
	// Progress, if not nil, receives a line now and then.
	Progress func(format string, args ...any)
}

// Report is the result of a load test.
type Report struct {
	Games       int           // concurrent games held during the measurement
	Conns       int           // websockets open during the measurement
	SetupTime   time.Duration // to create and connect every game
	Elapsed     time.Duration // the measurement
	Moves       int64         // moves acknowledged during the measurement
	MovesPerSec float64
	Finished    int64 // games that ended and were replaced
	Errors      int64 // error messages and failed connections
	P50, P90    time.Duration
	P99, Max    time.Duration
	Samples     int
	// With several instances: the relay between players on the same
	// instance and on different ones.
	Same, Cross Percentiles
	FirstError  string
	// Server is the server's own account (GET /debug/stats) at the end
	// of the measurement, when it has one.
	Server string
	// Measured is each server's own account of its moves during the
	// measurement alone (from its histograms read before and after),
	// for the servers that give one.
	Measured []ServerTimes
}

// ServerTimes is one server's account of the moves it relayed during a
// measurement: its relay (from a move read to its state queued, commit
// included) and its commits, as upper bounds of its histograms' buckets.
type ServerTimes struct {
	URL                  string
	Moves                int64
	MoveP50, MoveP99     time.Duration
	CommitP50, CommitP99 time.Duration
}

func (t ServerTimes) String() string {
	return fmt.Sprintf("%s during the measurement: %d moves, relay p50 ≤%s, p99 ≤%s; commit p50 ≤%s, p99 ≤%s",
		t.URL, t.Moves, ms(t.MoveP50), ms(t.MoveP99), ms(t.CommitP50), ms(t.CommitP99))
}

// serverTimes returns what a server's histograms counted between two
// readings of GET /debug/stats (play.Stats), or false when it does not
// give them.
func serverTimes(url, before, after string) (ServerTimes, bool) {
	var b, a play.Stats
	if json.Unmarshal([]byte(before), &b) != nil || json.Unmarshal([]byte(after), &a) != nil {
		return ServerTimes{}, false
	}
	snap := func(c [latency.Buckets]int64) latency.Snapshot {
		s := latency.Snapshot{Counts: c}
		for _, n := range c {
			s.Count += n
		}
		return s
	}
	if a.Moves > 0 && snap(a.MoveBuckets).Count == 0 {
		return ServerTimes{}, false // a server that counts moves but gives no histograms
	}
	move := snap(a.MoveBuckets).Since(snap(b.MoveBuckets))
	commit := snap(a.CommitBuckets).Since(snap(b.CommitBuckets))
	return ServerTimes{URL: url, Moves: move.Count,
		MoveP50: move.Quantile(0.5), MoveP99: move.Quantile(0.99),
		CommitP50: commit.Quantile(0.5), CommitP99: commit.Quantile(0.99)}, true
}

// Percentiles summarises a set of relay latencies.
type Percentiles struct {
	Samples       int
	P50, P99, Max time.Duration
}

func percentiles(d []time.Duration) Percentiles {
	slices.Sort(d)
	n := len(d)
	if n == 0 {
		return Percentiles{}
	}
	q := func(p float64) time.Duration { return d[min(n-1, int(p*float64(n)))] }
	return Percentiles{Samples: n, P50: q(0.5), P99: q(0.99), Max: d[n-1]}
}

func (p Percentiles) String() string {
	return fmt.Sprintf("over %d moves: p50 %s, p99 %s, max %s", p.Samples, ms(p.P50), ms(p.P99), ms(p.Max))
}

func (r Report) String() string {
	s := fmt.Sprintf("games %d, websockets %d, setup %.1fs, measured %.1fs\nmoves %d (%.0f/s), games finished and replaced %d, errors %d\nrelay latency over %d moves: p50 %s, p90 %s, p99 %s, max %s",
		r.Games, r.Conns, r.SetupTime.Seconds(), r.Elapsed.Seconds(), r.Moves, r.MovesPerSec, r.Finished, r.Errors,
		r.Samples, ms(r.P50), ms(r.P90), ms(r.P99), ms(r.Max))
	if r.Cross.Samples > 0 {
		s += "\nsame instance " + r.Same.String() + "\nacross instances " + r.Cross.String() +
			fmt.Sprintf("\ncross-instance hop: p50 %+.2fms", float64(r.Cross.P50-r.Same.P50)/1e6)
	}
	if r.Server != "" {
		s += "\nserver: " + r.Server
	}
	for _, t := range r.Measured {
		s += "\nserver " + t.String()
	}
	if r.FirstError != "" {
		s += "\nfirst error: " + r.FirstError
	}
	return s
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d)/1e6) }

// run is the state of one load test.
type run struct {
	cfg   Config
	bases []string // the instances' base URLs
	http  *http.Client
	ws    *websocket.DialOptions

	measuring atomic.Bool
	moves     atomic.Int64
	finished  atomic.Int64
	errs      atomic.Int64
	conns     atomic.Int64
	firstErr  atomic.Value

	mu          sync.Mutex // guards the samples
	samples     []time.Duration
	same, cross []time.Duration
}

// Run runs a load test and reports its figures. It returns when
// cfg.Duration has passed after setup, or when ctx ends.
func Run(ctx context.Context, cfg Config) (Report, error) {
	if cfg.Games <= 0 {
		return Report{}, errors.New("loadtest: want at least one game")
	}
	if cfg.Clients == 0 {
		cfg.Clients = 2
	}
	if cfg.Clients != 1 && cfg.Clients != 2 {
		return Report{}, errors.New("loadtest: clients per game: want 1 or 2")
	}
	if cfg.Think <= 0 {
		cfg.Think = time.Second
	}
	if cfg.Spec == "" {
		cfg.Spec = "pogo"
	}
	if cfg.Setup <= 0 {
		cfg.Setup = 64
	}
	if cfg.Duration <= 0 {
		cfg.Duration = 10 * time.Second
	}
	if cfg.Progress == nil {
		cfg.Progress = func(string, ...any) {}
	}
	r := &run{cfg: cfg}
	var ip net.IP
	for _, raw := range strings.Split(cfg.URL, ",") {
		u, err := url.Parse(strings.TrimSpace(raw))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			return Report{}, fmt.Errorf("loadtest: URL %q: want http://host:port", raw)
		}
		host := u.Hostname()
		ip = net.ParseIP(host)
		if !(host == "localhost" || (ip != nil && ip.IsLoopback())) {
			return Report{}, fmt.Errorf("loadtest: URL %q: only loopback servers may be load tested", raw)
		}
		r.bases = append(r.bases, strings.TrimSuffix(strings.TrimSpace(raw), "/"))
	}
	// Spread the connections over several loopback source addresses so
	// that one address's ephemeral ports do not run out.
	var next atomic.Uint32
	dialer := func(ctx context.Context, network, addr string) (net.Conn, error) {
		d := net.Dialer{Timeout: 10 * time.Second}
		if ip != nil && ip.To4() != nil {
			src := net.IPv4(127, 0, 0, byte(2+next.Add(1)%8))
			d.LocalAddr = &net.TCPAddr{IP: src}
		}
		return d.DialContext(ctx, network, addr)
	}
	r.http = &http.Client{Transport: &http.Transport{DialContext: dialer, MaxIdleConnsPerHost: cfg.Setup}, Timeout: 30 * time.Second}
	// Websockets get a transport of their own, so that hijacked
	// connections never come from the HTTP pool.
	r.ws = &websocket.DialOptions{HTTPClient: &http.Client{Transport: &http.Transport{DialContext: dialer, DisableKeepAlives: true}}}

	// A server that is not there fails the run at once, rather than
	// every game's set-up retrying for as long as the run lasts.
	for _, base := range r.bases {
		if err := r.reachable(ctx, base); err != nil {
			return Report{}, err
		}
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	ready := make(chan struct{}, cfg.Games)
	sem := make(chan struct{}, cfg.Setup)
	for i := 0; i < cfg.Games; i++ {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r.gameLoop(ctx, i, sem, ready)
		}(i)
		if (i+1)%1000 == 0 {
			cfg.Progress("setting up: %d games started", i+1)
		}
	}
	// Wait until every game is connected once.
	for n := 0; n < cfg.Games && ctx.Err() == nil; n++ {
		select {
		case <-ready:
		case <-ctx.Done():
		}
	}
	setup := time.Since(start)
	cfg.Progress("setup done in %.1fs: %d websockets open; measuring for %s", setup.Seconds(), r.conns.Load(), cfg.Duration)
	before := r.stats()
	r.measuring.Store(true)
	mstart := time.Now()
	conns := int(r.conns.Load())
	ticker := time.NewTicker(5 * time.Second)
	timer := time.NewTimer(cfg.Duration)
	seen := 0 // the samples told of in a progress line
wait:
	for {
		select {
		case <-timer.C:
			break wait
		case <-ctx.Done():
			break wait
		case <-ticker.C:
			var recent Percentiles
			recent, seen = r.recent(seen)
			cfg.Progress("%.0fs: %d moves, %d errors; the last 5s: relay p99 %s, max %s",
				time.Since(mstart).Seconds(), r.moves.Load(), r.errs.Load(), ms(recent.P99), ms(recent.Max))
		}
	}
	ticker.Stop()
	r.measuring.Store(false)
	elapsed := time.Since(mstart)
	after := r.stats()
	cancel()
	wg.Wait()

	rep := Report{
		Games:     cfg.Games,
		Conns:     conns,
		SetupTime: setup,
		Elapsed:   elapsed,
		Moves:     r.moves.Load(),
		Finished:  r.finished.Load(),
		Errors:    r.errs.Load(),
		Samples:   len(r.samples),
	}
	var stats []string
	for i, base := range r.bases {
		if after[i] == "" {
			continue
		}
		stats = append(stats, after[i])
		if t, ok := serverTimes(base, before[i], after[i]); ok {
			rep.Measured = append(rep.Measured, t)
		}
	}
	rep.Server = strings.Join(stats, "\nserver: ")
	rep.MovesPerSec = float64(rep.Moves) / elapsed.Seconds()
	if len(r.bases) > 1 {
		rep.Same, rep.Cross = percentiles(r.same), percentiles(r.cross)
	}
	if e, ok := r.firstErr.Load().(string); ok {
		rep.FirstError = e
	}
	slices.Sort(r.samples)
	if n := len(r.samples); n > 0 {
		q := func(p float64) time.Duration { return r.samples[min(n-1, int(p*float64(n)))] }
		rep.P50, rep.P90, rep.P99, rep.Max = q(0.50), q(0.90), q(0.99), r.samples[n-1]
	}
	return rep, nil
}

// recent returns the percentiles of the relay samples taken since the
// first seen, and how many samples there are now.
func (r *run) recent(seen int) (Percentiles, int) {
	r.mu.Lock()
	d := slices.Clone(r.samples[seen:])
	n := len(r.samples)
	r.mu.Unlock()
	return percentiles(d), n
}

// reachable asks base for GET /healthz and says why it does not answer.
func (r *run) reachable(ctx context.Context, base string) error {
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/healthz", nil)
	if err != nil {
		return fmt.Errorf("loadtest: %s: %w", base, err)
	}
	res, err := r.http.Do(req)
	if err != nil {
		return fmt.Errorf("loadtest: %s does not answer (%w); want a running stax serve", base, err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("loadtest: %s/healthz answered %s; want 200 from a running stax serve", base, res.Status)
	}
	return nil
}

// stats returns each server's GET /debug/stats, in the order of r.bases,
// "" for a server that does not serve it.
func (r *run) stats() []string {
	out := make([]string, len(r.bases))
	for i, base := range r.bases {
		res, err := r.http.Get(base + "/debug/stats")
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode == http.StatusOK {
			out[i] = string(bytes.TrimSpace(b))
		}
	}
	return out
}

func (r *run) fail(err error) {
	r.errs.Add(1)
	r.firstErr.CompareAndSwap(nil, err.Error())
}

// gameLoop plays games in one slot until ctx ends: when a game finishes a
// new one takes its place.
func (r *run) gameLoop(ctx context.Context, slot int, sem chan struct{}, ready chan<- struct{}) {
	rng := rand.New(rand.NewPCG(uint64(slot), 0x57a8))
	first := true
	for ctx.Err() == nil {
		err := r.playGame(ctx, slot, rng, func() {
			if first {
				first = false
				<-sem
				ready <- struct{}{}
			}
		})
		if err != nil && ctx.Err() == nil {
			r.fail(err)
			// Back off a little before a new game, so a failing server
			// is not hammered.
			select {
			case <-time.After(time.Second):
			case <-ctx.Done():
			}
		}
	}
	if first {
		<-sem
		ready <- struct{}{}
	}
}

func (r *run) post(ctx context.Context, base, path string, body, out any) error {
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, "POST", base+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := r.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("POST %s: %s: %s", path, res.Status, bytes.TrimSpace(data))
	}
	return json.Unmarshal(data, out)
}

// game is one game being played: the time its last move was sent, read by
// the client that receives the state.
type game struct {
	mu      sync.Mutex // guards the fields below
	sentAt  time.Time
	sentPly int  // the ply the last move was sent at; -1 when none is pending
	sentBy  int  // the client that sent it
	cross   bool // the players are on different instances
}

// playGame creates a game, connects its players and plays it until it ends
// or ctx ends. connected is called once every player is connected.
func (r *run) playGame(ctx context.Context, slot int, rng *rand.Rand, connected func()) error {
	seats := []play.SeatRequest{{Kind: "human"}, {Kind: "human", Invite: r.cfg.Clients == 2}}
	// The instance of each client: with several instances, every other
	// game has its second player on the next instance.
	n := len(r.bases)
	at := []string{r.bases[slot%n], r.bases[slot%n]}
	cross := n > 1 && r.cfg.Clients == 2 && slot%2 == 1
	if cross {
		at[1] = r.bases[(slot+1)%n]
	}
	var cr play.CreateResponse
	if err := r.post(ctx, at[0], "/api/games", play.CreateRequest{Spec: r.cfg.Spec, Seats: seats, Name: "load"}, &cr); err != nil {
		return err
	}
	tokens := []string{cr.Token}
	if r.cfg.Clients == 2 {
		if len(cr.Invites) != 1 {
			return fmt.Errorf("game %s: %d invites; want 1 (is %s a two-player game?)", cr.ID, len(cr.Invites), r.cfg.Spec)
		}
		var jr play.JoinResponse
		if err := r.post(ctx, at[1], "/api/games/"+cr.ID+"/join", play.JoinRequest{Invite: cr.Invites[0].Invite}, &jr); err != nil {
			return err
		}
		tokens = append(tokens, jr.Token)
	}
	var conns []*websocket.Conn
	defer func() {
		if ctx.Err() != nil && len(conns) > 0 {
			// The test is over: resign, so that the server is not left
			// with games that never end.
			// Closing with the handshake lets the server read the
			// resignation before the connection ends.
			rctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			resign, _ := json.Marshal(play.Message{Type: "resign"})
			conns[0].Write(rctx, websocket.MessageText, resign)
			cancel()
			conns[0].Close(websocket.StatusNormalClosure, "")
		}
		for _, c := range conns {
			c.CloseNow()
			r.conns.Add(-1)
		}
	}()
	for i, tok := range tokens {
		dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		c, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(at[i], "http")+"/ws/games/"+cr.ID+"?token="+tok, r.ws)
		cancel()
		if err != nil {
			return fmt.Errorf("game %s: dial: %w", cr.ID, err)
		}
		c.SetReadLimit(1 << 20)
		conns = append(conns, c)
		r.conns.Add(1)
	}
	connected()
	g := &game{sentPly: -1, cross: cross}
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, len(conns))
	seed := rng.Uint64()
	for i, c := range conns {
		go func() {
			errc <- r.player(gctx, g, c, i, len(conns), rand.New(rand.NewPCG(seed, uint64(i))))
		}()
	}
	var err error
	for range conns {
		if e := <-errc; e != nil && err == nil {
			err = e
			cancel() // a game's players stop together
		}
	}
	if errors.Is(err, errGameOver) {
		r.finished.Add(1)
		return nil
	}
	if ctx.Err() != nil {
		return nil
	}
	return err
}

var errGameOver = errors.New("game over")

// player reads one connection's messages and moves for its seat (seat
// index of clients; with one client it moves for both).
func (r *run) player(ctx context.Context, g *game, c *websocket.Conn, seat, clients int, rng *rand.Rand) error {
	// Reading and writing run on one goroutine: the read is interrupted
	// by a timer when it is time to move.
	type pending struct {
		ply  int
		move string
	}
	var moveTimer *time.Timer
	moves := make(chan pending, 1)
	defer func() {
		if moveTimer != nil {
			moveTimer.Stop()
		}
	}()
	// Each message is timed as it is read, before it waits to be decoded.
	type received struct {
		data []byte
		at   time.Time
	}
	msgs := make(chan received, 4)
	readErr := make(chan error, 1)
	go func() {
		for {
			// Not ctx: a read whose context ends closes the connection,
			// and playGame still resigns through it. The read ends when
			// playGame closes the connection.
			_, data, err := c.Read(context.Background())
			if err != nil {
				readErr <- err
				return
			}
			select {
			case msgs <- received{data, time.Now()}:
			case <-ctx.Done():
				return
			}
		}
	}()
	lastPly := -1
	var held json.RawMessage // the state, with the updates applied
	var err error
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-readErr:
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("read: %w", err)
		case p := <-moves:
			g.mu.Lock()
			g.sentAt, g.sentPly, g.sentBy = time.Now(), p.ply, seat
			g.mu.Unlock()
			b, _ := json.Marshal(play.Message{Type: "move", Move: p.move, Ply: &p.ply})
			if err := c.Write(ctx, websocket.MessageText, b); err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return fmt.Errorf("write: %w", err)
			}
		case rm := <-msgs:
			var m play.Message
			if err := json.Unmarshal(rm.data, &m); err != nil {
				return fmt.Errorf("bad message: %w", err)
			}
			if m.Type == "error" {
				r.fail(fmt.Errorf("server error %s: %s", m.Code, m.Message))
				continue
			}
			if m.Type != "state" && m.Type != "update" || len(m.State) == 0 {
				continue
			}
			// An update is what changed: keep the state it changes.
			if m.Type == "state" {
				held = m.State
			} else if held, err = update.Apply(held, m.State); err != nil {
				return fmt.Errorf("update: %w", err)
			}
			var st play.State
			if err := json.Unmarshal(held, &st); err != nil {
				return fmt.Errorf("bad state message: %w", err)
			}
			if st.Ply > lastPly {
				// The relay is measured where the move arrives: at the
				// mover's opponent, or with one client at the mover.
				g.mu.Lock()
				if g.sentPly >= 0 && st.Ply == g.sentPly+1 && (clients == 1 || seat != g.sentBy) {
					lat := rm.at.Sub(g.sentAt)
					g.sentPly = -1
					g.mu.Unlock()
					if r.measuring.Load() {
						r.moves.Add(1)
						r.mu.Lock()
						r.samples = append(r.samples, lat)
						if len(r.bases) > 1 {
							if g.cross {
								r.cross = append(r.cross, lat)
							} else {
								r.same = append(r.same, lat)
							}
						}
						r.mu.Unlock()
					}
				} else {
					g.mu.Unlock()
				}
				lastPly = st.Ply
			} else {
				continue
			}
			if st.Status != "playing" {
				return errGameOver
			}
			if clients == 2 && st.ToMove != seat {
				continue
			}
			legal := st.Legal()
			if len(legal) == 0 {
				continue
			}
			mv := pending{ply: st.Ply, move: legal[rng.IntN(len(legal))]}
			think := time.Duration(float64(r.cfg.Think) * (0.5 + rng.Float64()))
			moveTimer = time.AfterFunc(think, func() {
				select {
				case moves <- mv:
				case <-ctx.Done():
				}
			})
		}
	}
}
