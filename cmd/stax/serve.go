package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/netip"
	neturl "net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"stax/ai"
	"stax/games"
	"stax/server"
	"stax/server/bots"
	"stax/server/httpx"
	"stax/server/loadtest"
	"stax/server/offline"
	"stax/server/store"
	"stax/server/store/postgres"
	"stax/server/store/sqlite"
	"stax/web"
)

func runServe(e *env, args []string) error {
	fs := newFlags(e, "serve")
	addr := fs.String("addr", "127.0.0.1:8080", "the address to listen on")
	db := fs.String("db", "stax.db", "the database: a SQLite file (created if missing) or a postgres:// URL")
	assets := fs.String("assets", "", "serve the UI's static files from this directory instead of the embedded ones")
	workers := fs.Int("workers", runtime.NumCPU(), "computer moves computed at once in this process (default: one per CPU); 0 leaves them to stax worker processes sharing the database")
	aiDelay := fs.Duration("ai-delay", 300*time.Millisecond, "the least time an AI takes to answer a move")
	sync := fs.String("sync", "normal", "SQLite's synchronous mode: normal or full (see docs/operating.md)")
	level := fs.String("log-level", "info", "debug, info, warn or error")
	pprof := fs.Bool("pprof", false, "serve Go's profiles at /debug/pprof/ (for performance work; keep the server on loopback)")
	maxConns := fs.Int("max-conns", server.DefaultMaxConns, "the most open websockets (lowered to fit the open file limit)")
	maxPerIP := fs.Int("max-conns-per-ip", server.DefaultMaxConnsPerIP, "the most open websockets of one client address")
	readTimeout := fs.Duration("read-timeout", server.DefaultReadTimeout, "the longest a request's header and body may take to arrive")
	ping := fs.Duration("ping-interval", server.DefaultPingInterval, "how often websockets are pinged; one that does not answer within 20s is closed")
	createEvery := fs.Duration("create-every", server.DefaultCreateEvery, "one client address may create a game this often, after a burst of --create-burst")
	createBurst := fs.Int("create-burst", server.DefaultCreateBurst, "the games one client address may create at once")
	joinEvery := fs.Duration("join-every", server.DefaultJoinEvery, "one client address may join a game this often, after a burst of --join-burst")
	joinBurst := fs.Int("join-burst", server.DefaultJoinBurst, "the joins one client address may make at once")
	maxOpen := fs.Int("max-open-games", server.DefaultMaxOpenGames, "the most unfinished games one client address may have created")
	expiry := fs.Duration("expire-after", server.DefaultExpiry, "a game with no move for this long is adjudicated as abandoned by the seat to move")
	maxPlies := fs.Int("max-plies", server.DefaultMaxPlies, "the longest game the server plays: games with a larger maxplies, or maxplies=0, are refused")
	analysisWorkers := fs.Int("analysis-workers", server.DefaultAnalysisWorkers, "analyses and reviews searching at once, besides --workers")
	analysisTime := fs.Duration("analysis-time", server.DefaultAnalysisTime, "the longest one live analysis of the analysis board searches")
	stats := fs.Bool("stats", false, "serve the server's counters at /debug/stats (for monitoring and load tests)")
	metrics := fs.Bool("metrics", false, "serve Prometheus metrics at /metrics on --addr (--health-addr serves them always)")
	healthAddr := fs.String("health-addr", "", "a second address, for operators only, serving /healthz, /metrics (and /debug/stats with --stats), never refused for the site's connections; keep it private")
	proxies := fs.String("trusted-proxies", "", "comma-separated addresses or networks (CIDR) of the reverse proxies in front of the server, whose X-Forwarded-For names the client for the per-address limits")
	browserEngine := fs.Bool("browser-engine", true, "build the engine for the browser at start with the go tool (offline play and local analysis; docs/offline.md); false serves none")
	houseBots := fs.String("house-bots", "", "computer levels that play as bot accounts named stax-LEVEL, accepting challenges, e.g. easy,hard,strongest (give it to one instance of a site only)")
	houseGames := fs.Int("house-bot-games", defaultHouseGames, "the most games each house bot plays at once")
	hosts := fs.String("allowed-hosts", "", "comma-separated host names the server answers to besides loopback ones (default: the host of --addr); * for any, .example.org for a domain")
	var tf tlsFlags
	fs.StringVar(&tf.cert, "tls-cert", "", "serve HTTPS on --addr with this certificate (a PEM file, read again when it changes), with --tls-key")
	fs.StringVar(&tf.key, "tls-key", "", "the private key of --tls-cert (a PEM file)")
	fs.StringVar(&tf.acmeHosts, "acme-hosts", "", "serve HTTPS on --addr with certificates got automatically (ACME, e.g. Let's Encrypt) for these comma-separated public names; --addr should be :443")
	fs.StringVar(&tf.acmeCache, "acme-cache", "", "the directory that keeps the certificates of --acme-hosts across restarts")
	fs.StringVar(&tf.acmeEmail, "acme-email", "", "the address the certificate authority may write to about --acme-hosts' certificates")
	fs.StringVar(&tf.httpAddr, "http-addr", "", "with TLS, a plain HTTP address (e.g. :80) that redirects to HTTPS and answers ACME's challenges")
	configFile, printConfig := configFlags(fs)
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return &usageError{fmt.Sprintf("unexpected argument %q", rest[0])}
	}
	set, err := applySettings(e, "serve", fs, *configFile)
	if err != nil {
		return err
	}
	if *printConfig {
		set.print(e.stdout)
		return nil
	}
	if *hosts == "" && tf.acmeHosts != "" {
		*hosts = tf.acmeHosts
	}
	log, err := newLogger(e, *level)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c := serveConfig{addr: *addr, db: *db, assets: *assets, workers: *workers, aiDelay: *aiDelay, sync: *sync, pprof: *pprof, stats: *stats,
		metrics: *metrics, healthAddr: *healthAddr, tls: tf,
		maxConns: *maxConns, maxPerIP: *maxPerIP, readTimeout: *readTimeout, ping: *ping,
		createEvery: *createEvery, createBurst: *createBurst, joinEvery: *joinEvery, joinBurst: *joinBurst,
		maxOpen: *maxOpen, expiry: *expiry, maxPlies: *maxPlies, analysisWorkers: *analysisWorkers, analysisTime: *analysisTime}
	if c.createEvery <= 0 || c.createBurst < 1 || c.joinEvery <= 0 || c.joinBurst < 1 || c.maxOpen < 1 || c.expiry <= 0 || c.maxPlies < 1 {
		return &usageError{"--create-every, --create-burst, --join-every, --join-burst, --max-open-games, --expire-after and --max-plies must be positive"}
	}
	if c.analysisWorkers < 1 || c.analysisTime <= 0 {
		return &usageError{"--analysis-workers and --analysis-time must be positive"}
	}
	if c.maxConns < 1 || c.maxPerIP < 1 || c.readTimeout <= 0 || c.ping <= 0 {
		return &usageError{"--max-conns, --max-conns-per-ip, --read-timeout and --ping-interval must be positive"}
	}
	if c.allowedHosts, err = allowedHosts(*addr, *hosts); err != nil {
		return err
	}
	if c.trustedProxies, err = httpx.ParseTrustedProxies(*proxies); err != nil {
		return &usageError{"--trusted-proxies: " + err.Error()}
	}
	if *houseGames < 1 || *houseGames > bots.MaxGameStreams {
		return &usageError{fmt.Sprintf("--house-bot-games %d: want 1 to %d (the game streams a token may hold open)", *houseGames, bots.MaxGameStreams)}
	}
	var closeAI func()
	c.ai, closeAI = computerPlayers(log)
	defer closeAI()
	if c.houseBots, err = parseHouseBots(*houseBots, c.ai); err != nil {
		return err
	}
	c.houseGames = *houseGames
	if *browserEngine {
		c.engine = browserEngineBuild(ctx, log)
	}
	return serve(ctx, e, log, c)
}

// newLogger returns the logger of a server or worker: text on standard
// error, from the --log-level given.
func newLogger(e *env, level string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, &usageError{fmt.Sprintf("--log-level %q: want debug, info, warn or error", level)}
	}
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: lv})), nil
}

// computerPlayers returns the configuration of the computer players of a
// server or worker, and a function that releases it.
func computerPlayers(log *slog.Logger) (ai.Config, func()) {
	dir, err := tablesDir()
	if err != nil {
		log.Warn("the solved tables are kept in memory only", "err", err)
	}
	tables := ai.NewTables(ai.TablesConfig{Dir: dir, Build: true, Notify: tableNews(log)})
	// Pogo's default variant is solved in the background at once when
	// its table is missing; until then "perfect" plays as "strongest".
	tables.Prepare(true)
	return ai.Config{Tables: tables}, func() { tables.Close() }
}

// tableNews returns the notifier of the server's tables: each piece of
// news is a log record.
func tableNews(log *slog.Logger) func(ai.TableEvent) {
	return func(ev ai.TableEvent) {
		level := slog.LevelInfo
		if ev.Err != nil {
			level = slog.LevelWarn
		}
		attrs := []any{"variant", ev.Variant(), "event", ev.Kind.String()}
		if ev.Path != "" {
			attrs = append(attrs, "path", ev.Path)
		}
		if ev.Kind != ai.TableBuilding {
			attrs = append(attrs, "elapsed", ev.Elapsed.Round(time.Millisecond))
		}
		if ev.Err != nil {
			attrs = append(attrs, "err", ev.Err)
		}
		log.Log(context.Background(), level, ev.String(), attrs...)
	}
}

// browserEngineBuild starts building the engine for the browser in the
// background, kept in engine/ of the solved tables' cache directory; the
// log tells when it is ready or why there is none.
func browserEngineBuild(ctx context.Context, log *slog.Logger) offline.Source {
	dir, err := tablesDir()
	if err == nil {
		dir = filepath.Join(dir, "engine")
	}
	return offline.StartBuild(ctx, offline.BuildConfig{Dir: dir, Log: func(msg string, args ...any) {
		log.Info(msg, args...)
	}})
}

type serveConfig struct {
	addr, db, assets, sync string
	workers                int
	aiDelay                time.Duration
	pprof, stats           bool
	metrics                bool   // serve /metrics on addr
	healthAddr             string // the operators' listener, if any
	tls                    tlsFlags
	allowedHosts           []string
	trustedProxies         []netip.Prefix
	maxConns, maxPerIP     int
	readTimeout, ping      time.Duration
	createEvery, joinEvery time.Duration
	createBurst, joinBurst int
	maxOpen, maxPlies      int
	expiry                 time.Duration
	analysisWorkers        int
	analysisTime           time.Duration
	ai                     ai.Config         // the computer players' configuration
	houseBots              []string          // the levels that play as bot accounts
	houseGames             int               // the most games of each house bot at once
	engine                 offline.Source    // the engine for the browser, or nil
	ready                  func(addr string) // called with the listening address, for tests
}

// openStore opens the store a --db value names: a PostgreSQL database for
// a postgres:// or postgresql:// URL, a SQLite file otherwise. sync is
// SQLite's synchronous mode.
func openStore(ctx context.Context, db, sync string) (store.Store, error) {
	if postgres.IsURL(db) {
		if sync != "" && sync != "normal" {
			return nil, &usageError{"--sync applies to SQLite only; PostgreSQL's durability is its own setting (synchronous_commit)"}
		}
		return postgres.Open(ctx, db, postgres.Options{})
	}
	return sqlite.Open(db, sqlite.Options{Sync: sync})
}

// serverWorkers turns --workers into server.Config.Workers, where 0 means
// the default and a negative number none.
func serverWorkers(n int) int {
	if n <= 0 {
		return -1
	}
	return n
}

// redactDB returns a --db value fit for logs: a URL's password is hidden.
func redactDB(db string) string {
	if u, err := neturl.Parse(db); err == nil && postgres.IsURL(db) {
		return u.Redacted()
	}
	return db
}

// serve runs the server until ctx is cancelled, then shuts it down
// gracefully.
func serve(ctx context.Context, e *env, log *slog.Logger, c serveConfig) error {
	tlsConfig, redirect, err := c.tls.setup()
	if err != nil {
		return err
	}
	st, err := openStore(ctx, c.db, c.sync)
	if err != nil {
		return err
	}
	defer st.Close()
	var assets fs.FS = web.FS()
	if c.assets != "" {
		if assets, err = assetsDir(c.assets); err != nil {
			return err
		}
	}
	srv, err := server.New(server.Config{
		Store:      st,
		Games:      games.All(),
		NewPlayer:  c.ai.New,
		Levels:     c.ai.Levels,
		LevelReady: c.ai.Ready,
		LevelElo:   ai.Elo,
		Assets:     assets,
		Log:        log,
		Workers:    serverWorkers(c.workers),
		AIDelay:    c.aiDelay,

		AllowedHosts:   c.allowedHosts,
		TrustedProxies: c.trustedProxies,
		DebugStats:     c.stats,
		Metrics:        c.metrics,

		MaxConns:      fitFileLimit(e, c.maxConns),
		MaxConnsPerIP: c.maxPerIP,
		ReadTimeout:   c.readTimeout,
		PingInterval:  c.ping,
		CreateEvery:   c.createEvery,
		CreateBurst:   c.createBurst,
		JoinEvery:     c.joinEvery,
		JoinBurst:     c.joinBurst,
		MaxOpenGames:  c.maxOpen,
		Expiry:        c.expiry,
		MaxPlies:      c.maxPlies,

		Analyst:         c.ai,
		AnalysisWorkers: c.analysisWorkers,
		AnalysisTime:    c.analysisTime,

		Engine: c.engine,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		srv.Close()
		return err
	}
	var h http.Handler = srv
	if c.pprof {
		mux := http.NewServeMux()
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
		mux.Handle("/", srv)
		h = mux
	}
	hs := srv.HTTPServer()
	hs.Handler = h
	hs.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	ln = srv.Listener(ln)
	scheme := "http://"
	if tlsConfig != nil {
		// TLS over the limiting listener: the limits count connections
		// before their handshake.
		ln = tls.NewListener(ln, tlsConfig)
		hs.TLSConfig = tlsConfig
		scheme = "https://"
	}
	url := scheme + ln.Addr().String() + "/"
	if strings.HasPrefix(c.addr, ":") || strings.HasPrefix(c.addr, "0.0.0.0:") {
		url = scheme + "localhost:" + strings.TrimPrefix(c.addr[strings.LastIndex(c.addr, ":"):], ":") + "/"
	}
	fmt.Fprintf(e.stdout, "stax serving on %s (database %s); press Ctrl-C to stop\n", url, redactDB(c.db))
	log.Info("listening", "addr", ln.Addr().String(), "db", redactDB(c.db))
	if len(c.allowedHosts) == 0 && !isLoopbackAddr(ln.Addr()) {
		fmt.Fprintf(e.stderr, "note: the server answers only requests for localhost or a loopback address; give --allowed-hosts to be reached by name from elsewhere\n")
	}
	// The other listeners: the operators' (--health-addr) and the
	// redirection to HTTPS (--http-addr).
	var others []*http.Server
	var otherLns []net.Listener
	listen := func(flag, addr string, h *http.Server) error {
		l, err := net.Listen("tcp", addr)
		if err != nil {
			for _, o := range otherLns {
				o.Close()
			}
			ln.Close()
			srv.Close()
			return fmt.Errorf("%s: %w", flag, err)
		}
		h.ErrorLog = hs.ErrorLog
		others, otherLns = append(others, h), append(otherLns, l)
		return nil
	}
	if c.healthAddr != "" {
		if err := listen("--health-addr", c.healthAddr, srv.HealthServer()); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "operators' listener on http://%s/ (/healthz, /metrics)\n", otherLns[len(otherLns)-1].Addr())
		log.Info("health listener", "addr", otherLns[len(otherLns)-1].Addr().String())
	}
	if c.tls.httpAddr != "" {
		rs := &http.Server{Handler: redirect, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
			WriteTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second}
		if err := listen("--http-addr", c.tls.httpAddr, rs); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "redirecting http://%s/ to HTTPS\n", otherLns[len(otherLns)-1].Addr())
	}
	errc := make(chan error, 2+len(others))
	// The house bots play through a listener of their own on loopback,
	// in plain HTTP whatever the site's is.
	var house *houseBots
	if len(c.houseBots) > 0 {
		hl, err := net.Listen("tcp", "127.0.0.1:0")
		if err == nil {
			go func() { errc <- hs.Serve(srv.Listener(hl)) }()
			house, err = startHouseBots(ctx, st, c.houseBots, c.houseGames, c.ai, "http://"+hl.Addr().String(), log)
		}
		if err != nil {
			for _, o := range otherLns {
				o.Close()
			}
			hs.Close()
			ln.Close()
			srv.Close()
			return err
		}
		log.Info("house bots playing", "levels", strings.Join(c.houseBots, ","), "games each", c.houseGames)
	}
	if c.ready != nil {
		c.ready(ln.Addr().String())
	}
	go func() { errc <- hs.Serve(ln) }()
	for i, o := range others {
		go func() { errc <- o.Serve(otherLns[i]) }()
	}
	select {
	case err := <-errc:
		if house != nil {
			house.stop()
		}
		for _, o := range others {
			o.Close()
		}
		hs.Close()
		srv.Close()
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	if house != nil {
		house.stop()
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, o := range others {
		o.Shutdown(sctx)
	}
	err = hs.Shutdown(sctx)
	srv.Close()
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("stopped")
	return nil
}

// allowedHosts returns the host names the server answers to besides
// loopback ones: those of --allowed-hosts, or by default the host of
// --addr when it names one (a wildcard address names none, so such a
// server answers only on loopback until --allowed-hosts is given).
func allowedHosts(addr, flag string) ([]string, error) {
	if flag != "" {
		var out []string
		for _, h := range strings.Split(flag, ",") {
			h = strings.TrimSpace(h)
			if h == "" || strings.ContainsAny(h, "/:@ ") && net.ParseIP(h) == nil {
				return nil, &usageError{fmt.Sprintf("--allowed-hosts %q: want host names separated by commas, e.g. stax.example.org,.example.net", flag)}
			}
			out = append(out, h)
		}
		return out, nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, &usageError{fmt.Sprintf("--addr %q: want host:port, e.g. 127.0.0.1:8080", addr)}
	}
	if ip := net.ParseIP(host); host == "" || host == "localhost" || ip != nil && (ip.IsUnspecified() || ip.IsLoopback()) {
		return nil, nil
	}
	return []string{host}, nil
}

// isLoopbackAddr reports whether a listening address is a loopback one.
func isLoopbackAddr(a net.Addr) bool {
	ta, ok := a.(*net.TCPAddr)
	return ok && ta.IP.IsLoopback()
}

// assetsDir returns the files of the --assets directory. Symbolic links
// that lead out of it are not followed, so the server serves nothing but
// what the directory holds.
func assetsDir(dir string) (fs.FS, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("--assets %s: not a directory", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("--assets %s: %w", dir, err)
	}
	return root.FS(), nil
}

// fitFileLimit returns want, or less when the open file limit leaves no room
// for want websockets besides the listener's headroom and the database (and
// says so).
func fitFileLimit(e *env, want int) int {
	limit, err := loadtest.RaiseFileLimit()
	if err != nil || limit == 0 {
		return want
	}
	room := int(min(limit, 1<<30)) - server.DefaultConnHeadroom - 64
	if want <= room {
		return want
	}
	room = max(room, 1)
	fmt.Fprintf(e.stderr, "note: the open file limit (%d) allows %d websockets, not %d; raise it (ulimit -n) for more\n", limit, room, want)
	return room
}
