package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"stax/server/play"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// AbuseConfig describes the abuse scenario: what a few scripts would do to
// a public server, each part bounded in count and time. It needs a Linux
// loopback, which answers on all of 127.0.0.0/8: the parts come from
// different source addresses, as different clients would.
type AbuseConfig struct {
	// URL is the server's base URL; only loopback addresses are accepted.
	URL string
	// Idle is the number of idle websockets opened (spread over
	// addresses 127.0.1.x, IdlePerAddr from each).
	Idle, IdlePerAddr int
	// Slow is the number of requests whose body trickles in, one byte a
	// second.
	Slow int
	// Burst is the number of games one address tries to create at once.
	Burst int
	// Computer is the number of human-against-computer games created (from
	// addresses 127.0.2.x, ComputerPerAddr from each), in each of which
	// the human plays one move.
	Computer, ComputerPerAddr int
	// Spec and Level are the computer games' variant and level.
	Spec, Level string
	// Limit bounds each part's time (default 2 minutes).
	Limit time.Duration
	// Memory, if not nil, returns the server's resident memory in bytes,
	// read after the computer games' moves.
	Memory func() int64
	// Progress, if not nil, receives a line now and then.
	Progress func(format string, args ...any)
}

// AbuseReport is what the server did under abuse.
type AbuseReport struct {
	IdleHeld, IdleRefused, IdleFailed int     // idle websockets held, refused with 429/503, failed otherwise
	HealthP50, HealthP99, HealthMax   float64 // GET /healthz at the cap, ms
	HealthFailed                      int
	SlowCut                           int     // slow requests the server cut off
	SlowHeldMax                       float64 // the longest a slow request was held, s
	BurstCreated, BurstRefused        int
	ComputerGames, ComputerMoved      int   // games created, and in which the human moved
	ComputerAnswered                  int   // games whose computer answered within Limit
	MemoryAfterMoves                  int64 // bytes, from Memory
	Accounts                          AccountsReport
	Server                            string
}

func (r AbuseReport) String() string {
	s := fmt.Sprintf("idle websockets: %d held, %d refused (429/503), %d failed\n", r.IdleHeld, r.IdleRefused, r.IdleFailed)
	s += fmt.Sprintf("GET /healthz at the cap: p50 %.1fms, p99 %.1fms, max %.1fms, %d failed\n", r.HealthP50, r.HealthP99, r.HealthMax, r.HealthFailed)
	s += fmt.Sprintf("slow bodies: %d cut off, held at most %.1fs\n", r.SlowCut, r.SlowHeldMax)
	s += fmt.Sprintf("creation burst from one address: %d created, %d refused (429)\n", r.BurstCreated, r.BurstRefused)
	s += fmt.Sprintf("computer games: %d created, %d with a human move, %d answered", r.ComputerGames, r.ComputerMoved, r.ComputerAnswered)
	if r.MemoryAfterMoves > 0 {
		s += fmt.Sprintf("\nserver resident memory after the human moves: %d MiB", r.MemoryAfterMoves>>20)
	}
	s += "\n" + r.Accounts.String()
	if r.Server != "" {
		s += "\nserver: " + r.Server
	}
	return s
}

// idlePerGame is how many idle websockets watch one game.
const idlePerGame = 20

// abuser is one abuse run.
type abuser struct {
	cfg         AbuseConfig
	base        string
	wsBase      string
	progress    func(string, ...any)
	statsClient *http.Client
	lastSeek    string // the id of the last seek posted
}

// from returns an HTTP client whose connections come from ip, without
// keep-alive.
func from(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}, Timeout: 30 * time.Second}
}

// Abuse runs the abuse scenario against a server: guesses at an account's
// password spread over twenty addresses, seek churn, one address's crowd
// of games against the computer beside another player's, idle websockets
// up to the server's caps while /healthz is timed, slow request bodies, a
// burst of creations from one address, and many games against a computer
// level with one human move each.
func Abuse(ctx context.Context, cfg AbuseConfig) (AbuseReport, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || u.Scheme != "http" {
		return AbuseReport{}, fmt.Errorf("loadtest: URL %q: want http://host:port", cfg.URL)
	}
	if ip := net.ParseIP(u.Hostname()); ip == nil || ip.To4() == nil || !ip.IsLoopback() {
		return AbuseReport{}, fmt.Errorf("loadtest: URL %q: the abuse scenario runs against an IPv4 loopback server only", cfg.URL)
	}
	if cfg.Limit <= 0 {
		cfg.Limit = 2 * time.Minute
	}
	if cfg.IdlePerAddr <= 0 {
		cfg.IdlePerAddr = 100
	}
	if cfg.ComputerPerAddr <= 0 {
		cfg.ComputerPerAddr = 20
	}
	if cfg.Spec == "" {
		cfg.Spec = "pisola"
	}
	if cfg.Level == "" {
		cfg.Level = "strongest"
	}
	a := &abuser{cfg: cfg, base: strings.TrimSuffix(cfg.URL, "/"), progress: cfg.Progress, statsClient: from("127.0.0.1")}
	a.wsBase = "ws" + strings.TrimPrefix(a.base, "http")
	if a.progress == nil {
		a.progress = func(string, ...any) {}
	}
	var rep AbuseReport
	a.accounts(ctx, &rep.Accounts)
	a.computer(ctx, &rep)
	a.burst(ctx, &rep)
	a.slow(ctx, &rep)
	a.idle(ctx, &rep)
	rep.Server = a.serverStats()
	return rep, ctx.Err()
}

// serverStats returns the server's /debug/stats, or "".
func (a *abuser) serverStats() string {
	res, err := a.statsClient.Get(a.base + "/debug/stats")
	if err != nil {
		return ""
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// idle opens idle websockets to one game, IdlePerAddr from each address,
// holds them while it times GET /healthz from another address, then
// closes them.
func (a *abuser) idle(ctx context.Context, rep *AbuseReport) {
	if a.cfg.Idle <= 0 {
		return
	}
	// Twenty watchers a game: every connection to a game tells its other
	// connections how many watch, so thousands on one game would test
	// that broadcast rather than the connection limits.
	var ids []string
	for g := range (a.cfg.Idle + idlePerGame - 1) / idlePerGame {
		cr, _, err := a.create(ctx, from(fmt.Sprintf("127.0.4.%d", 1+g/10)), play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "human"}}})
		if err != nil {
			rep.IdleFailed = a.cfg.Idle
			a.progress("idle websockets: could not create their games: %v", err)
			return
		}
		ids = append(ids, cr.ID)
	}
	ctx, cancel := context.WithTimeout(ctx, a.cfg.Limit)
	defer cancel()
	var mu sync.Mutex
	var conns []*websocket.Conn
	defer func() {
		for _, c := range conns {
			c.CloseNow()
		}
	}()
	sem := make(chan struct{}, 64)
	var wg sync.WaitGroup
	for i := range a.cfg.Idle {
		ip := fmt.Sprintf("127.0.1.%d", 1+i/a.cfg.IdlePerAddr%250)
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			c, res, err := websocket.Dial(ctx, a.wsBase+"/ws/games/"+ids[i/idlePerGame], &websocket.DialOptions{HTTPClient: from(ip)})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				conns = append(conns, c)
				rep.IdleHeld++
				// Read in the background, as a browser does, so that
				// pings are answered and the connection is held.
				go func() {
					for {
						if _, _, err := c.Read(context.Background()); err != nil {
							return
						}
					}
				}()
			case res != nil && (res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusServiceUnavailable):
				rep.IdleRefused++
			default:
				rep.IdleFailed++
			}
		}()
	}
	wg.Wait()
	a.progress("idle websockets: %d held, %d refused; timing /healthz (server: %s)", rep.IdleHeld, rep.IdleRefused, a.serverStats())
	var times []time.Duration
	hc := from("127.0.0.1")
	for range 200 {
		start := time.Now()
		res, err := hc.Get(a.base + "/healthz")
		if err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
		if err != nil || res.StatusCode != http.StatusOK {
			rep.HealthFailed++
			continue
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	if n := len(times); n > 0 {
		ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
		rep.HealthP50, rep.HealthP99, rep.HealthMax = ms(times[n/2]), ms(times[min(n-1, n*99/100)]), ms(times[n-1])
	}
}

// slow sends requests whose body trickles in, one byte a second, and
// measures how long the server holds them.
func (a *abuser) slow(ctx context.Context, rep *AbuseReport) {
	if a.cfg.Slow <= 0 {
		return
	}
	addr := strings.TrimPrefix(a.base, "http://")
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range a.cfg.Slow {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 3, byte(1+i/50))}, Timeout: 10 * time.Second}
			c, err := d.DialContext(ctx, "tcp", addr)
			if err != nil {
				return
			}
			defer c.Close()
			start := time.Now()
			fmt.Fprintf(c, "POST /api/games HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{", addr)
			closed := make(chan struct{})
			go func() {
				io.Copy(io.Discard, c)
				close(closed)
			}()
			t := time.NewTicker(time.Second)
			defer t.Stop()
			deadline := time.After(a.cfg.Limit)
			for {
				select {
				case <-closed:
				case <-deadline:
					return
				case <-ctx.Done():
					return
				case <-t.C:
					if _, err := c.Write([]byte(" ")); err == nil {
						continue
					}
				}
				mu.Lock()
				rep.SlowCut++
				rep.SlowHeldMax = max(rep.SlowHeldMax, time.Since(start).Seconds())
				mu.Unlock()
				return
			}
		}()
	}
	wg.Wait()
	a.progress("slow bodies: %d of %d cut off", rep.SlowCut, a.cfg.Slow)
}

// burst creates games from one address as fast as it can.
func (a *abuser) burst(ctx context.Context, rep *AbuseReport) {
	c := from("127.0.0.4")
	for range a.cfg.Burst {
		_, code, err := a.create(ctx, c, play.CreateRequest{Spec: "pogo", Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "human"}}})
		switch {
		case err == nil:
			rep.BurstCreated++
		case code == http.StatusTooManyRequests:
			rep.BurstRefused++
		}
	}
	a.progress("creation burst: %d created, %d refused", rep.BurstCreated, rep.BurstRefused)
}

// computer creates games against the computer, plays one human move in
// each, reads the server's memory, and waits (within Limit) for the
// computers' answers.
func (a *abuser) computer(ctx context.Context, rep *AbuseReport) {
	if a.cfg.Computer <= 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, a.cfg.Limit)
	defer cancel()
	var moved, answered atomic.Int64
	var created atomic.Int64
	var wg sync.WaitGroup
	sem := make(chan struct{}, 32)
	allMoved := make(chan struct{})
	var movedOnce sync.WaitGroup
	movedOnce.Add(a.cfg.Computer)
	go func() { movedOnce.Wait(); close(allMoved) }()
	for i := range a.cfg.Computer {
		ip := fmt.Sprintf("127.0.2.%d", 1+i/a.cfg.ComputerPerAddr%250)
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			done := sync.OnceFunc(movedOnce.Done)
			defer done()
			c := from(ip)
			cr, _, err := a.create(ctx, c, play.CreateRequest{Spec: a.cfg.Spec, Seats: []play.SeatRequest{{Kind: "human"}, {Kind: "ai", Level: a.cfg.Level}}})
			if err != nil {
				<-sem
				return
			}
			created.Add(1)
			ws, _, err := websocket.Dial(ctx, a.wsBase+"/ws/games/"+cr.ID+"?token="+cr.Token, &websocket.DialOptions{HTTPClient: from(ip)})
			<-sem
			if err != nil {
				return
			}
			defer ws.CloseNow()
			ws.SetReadLimit(1 << 22)
			sent, counted := false, false
			for {
				_, data, err := ws.Read(ctx)
				if err != nil {
					return
				}
				var m struct {
					Type  string
					State *play.State
				}
				if json.Unmarshal(data, &m) != nil || m.State == nil {
					continue
				}
				switch {
				case !sent && m.State.Ply == 0 && m.State.ToMove == 0 && len(m.State.Legal()) > 0:
					b, _ := json.Marshal(play.Message{Type: "move", Move: m.State.Legal()[0], Ply: new(int)})
					if ws.Write(ctx, websocket.MessageText, b) != nil {
						return
					}
					sent = true
				case m.State.Ply == 1 && !counted:
					counted = true
					moved.Add(1)
					done()
				case m.State.Ply >= 2 || m.State.Status == "finished":
					answered.Add(1)
					return
				}
			}
		}()
	}
	select {
	case <-allMoved:
	case <-ctx.Done():
	}
	rep.ComputerMoved = int(moved.Load())
	if a.cfg.Memory != nil {
		rep.MemoryAfterMoves = a.cfg.Memory()
	}
	a.progress("computer games: %d created, %d moved, memory %d MiB; waiting for the answers", created.Load(), moved.Load(), rep.MemoryAfterMoves>>20)
	wg.Wait()
	rep.ComputerGames = int(created.Load())
	rep.ComputerAnswered = int(answered.Load())
	a.progress("computer games: %d answered", rep.ComputerAnswered)
}

// create creates a game and returns the server's answer, or the HTTP
// status of a refusal.
func (a *abuser) create(ctx context.Context, c *http.Client, req play.CreateRequest) (play.CreateResponse, int, error) {
	var cr play.CreateResponse
	b, _ := json.Marshal(req)
	hr, _ := http.NewRequestWithContext(ctx, "POST", a.base+"/api/games", strings.NewReader(string(b)))
	hr.Header.Set("Content-Type", "application/json")
	res, err := c.Do(hr)
	if err != nil {
		return cr, 0, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		io.Copy(io.Discard, res.Body)
		return cr, res.StatusCode, fmt.Errorf("POST /api/games: %s", res.Status)
	}
	err = json.NewDecoder(res.Body).Decode(&cr)
	return cr, res.StatusCode, err
}
