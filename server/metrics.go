package server

import (
	"bufio"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"stax/server/latency"
	"strconv"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics is the server's Prometheus registry: one per Server, never the
// global one, so that several servers in one process (tests, instances)
// count apart. What the domains already count is read at scrape time
// (metricsCollector); what the composing layer sees passing (answers,
// refusals) is counted here.
type metrics struct {
	reg       *prometheus.Registry
	responses *prometheus.CounterVec // answers of the routes by status code
	refused   *prometheus.CounterVec // refusals by reason
	healthBad prometheus.Counter     // failed health checks
}

// Refusal reasons of stax_refused_total.
const (
	refusedConnections = "connections" // the listener's connection limit
	refusedRateLimit   = "rate_limit"  // 429: a per-client limit
	refusedBusy        = "busy"        // 503: a queue or limit of the server is full, or its database is down
	refusedTooLarge    = "too_large"   // 413: a request too large
)

func newMetrics(s *Server, errorsLogged prometheus.Counter) *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.responses = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "stax_http_responses_total",
		Help: "Answers of the site's routes by HTTP status code (websockets that opened are not counted).",
	}, []string{"code"})
	m.refused = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "stax_refused_total",
		Help: "Requests and connections refused, by reason: connections (past the listener's limit), rate_limit (429), busy (503), too_large (413).",
	}, []string{"reason"})
	m.healthBad = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "stax_health_failures_total",
		Help: "Health checks (GET /healthz) answered 503 because the database failed.",
	})
	// Every reason is exported from the start, at zero.
	for _, r := range []string{refusedConnections, refusedRateLimit, refusedBusy, refusedTooLarge} {
		m.refused.WithLabelValues(r)
	}
	m.reg.MustRegister(m.responses, m.refused, m.healthBad, errorsLogged, &metricsCollector{s: s},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// handler serves the registry in Prometheus's text format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// count wraps the routes so that each answer is counted by status code,
// and refusals by reason.
func (m *metrics) count(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		code := int(sw.code.Load())
		if code == 0 {
			if sw.hijacked.Load() {
				return
			}
			code = http.StatusOK
		}
		m.responses.WithLabelValues(strconv.Itoa(code)).Inc()
		if r.URL.Path == "/healthz" {
			// An unwell database is not a refusal.
			if code == http.StatusServiceUnavailable {
				m.healthBad.Inc()
			}
			return
		}
		switch code {
		case http.StatusTooManyRequests:
			m.refused.WithLabelValues(refusedRateLimit).Inc()
		case http.StatusServiceUnavailable:
			m.refused.WithLabelValues(refusedBusy).Inc()
		case http.StatusRequestEntityTooLarge:
			m.refused.WithLabelValues(refusedTooLarge).Inc()
		}
	})
}

// listenerRefusals counts the connections the listener refuses, in
// Server.Stats and in stax_refused_total.
type listenerRefusals struct {
	total *atomic.Int64
	c     prometheus.Counter
}

func (l listenerRefusals) Add(n int64) int64 {
	l.c.Add(float64(n))
	return l.total.Add(n)
}

// statusWriter records the status code of an answer. It unwraps to the
// connection's writer, so that websockets can hijack it and
// http.ResponseController reaches its deadlines and flushes.
type statusWriter struct {
	http.ResponseWriter
	code     atomic.Int32
	hijacked atomic.Bool
}

func (w *statusWriter) WriteHeader(code int) {
	if code >= 200 {
		w.code.CompareAndSwap(0, int32(code))
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.code.CompareAndSwap(0, http.StatusOK)
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush flushes the answer when the connection's writer can.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Hijack hands the connection over (a websocket's upgrade).
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("server: the connection cannot be hijacked")
	}
	w.hijacked.Store(true)
	return h.Hijack()
}

// metricsCollector reads, at each scrape, what the domains count.
type metricsCollector struct{ s *Server }

var (
	descGames      = prometheus.NewDesc("stax_live_games", "Games in memory on this instance (being played, watched or just finished).", nil, nil)
	descSockets    = prometheus.NewDesc("stax_websockets", "Open websockets by kind: game, lobby, and all (analysis included).", []string{"kind"}, nil)
	descMoves      = prometheus.NewDesc("stax_moves_total", "Moves played on this instance since it started; its rate is the moves per second.", nil, nil)
	descExpired    = prometheus.NewDesc("stax_games_expired_total", "Games adjudicated as abandoned since the start.", nil, nil)
	descBroken     = prometheus.NewDesc("stax_games_broken_total", "Failures to load a stored game (damaged moves or rows).", nil, nil)
	descPingClosed = prometheus.NewDesc("stax_websockets_ping_closed_total", "Websockets closed for not answering a ping.", nil, nil)
	descPlayers    = prometheus.NewDesc("stax_ai_players_made_total", "Computer players made by this process's workers.", nil, nil)
	descDBUp       = prometheus.NewDesc("stax_database_up", "1 when the database answered a ping within the health deadline at this scrape, else 0.", nil, nil)
	descMoveLat    = prometheus.NewDesc("stax_move_relay_seconds", "From a move read to its state queued for every connection of the game, commit included.", nil, nil)
	descCommitLat  = prometheus.NewDesc("stax_move_commit_seconds", "The commit of a move to the database.", nil, nil)
	descQueue      = prometheus.NewDesc("stax_queue_waiting", "Requests waiting now for a shared worker, by queue: password_hashing (sign-ins, sign-ups, password changes) and analysis.", []string{"queue"}, nil)
	descAIWait     = prometheus.NewDesc("stax_ai_queue_wait_seconds", "From a computer move being due to a worker of this process taking it.", nil, nil)
)

// Describe implements prometheus.Collector; the descriptions are those of
// a fixed set of metrics.
func (c *metricsCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descGames, descSockets, descMoves, descExpired, descBroken, descPingClosed,
		descPlayers, descDBUp, descMoveLat, descCommitLat, descAIWait, descQueue} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *metricsCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.s
	st := s.Stats()
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	counter := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
	}
	gauge(descGames, float64(st.Games))
	gauge(descSockets, float64(st.Conns), "game")
	gauge(descSockets, float64(st.Lobby), "lobby")
	gauge(descSockets, float64(s.sockets.Count()), "all")
	counter(descMoves, float64(st.Moves))
	counter(descExpired, float64(st.Expired))
	counter(descBroken, float64(st.BrokenCount))
	counter(descPingClosed, float64(st.PingClosed))
	counter(descPlayers, float64(st.Players))
	gauge(descQueue, float64(s.accounts.HashesWaiting()), "password_hashing")
	gauge(descQueue, float64(s.analysis.Waiting()), "analysis")
	up := 1.0
	ctx, cancel := context.WithTimeout(context.Background(), HealthDeadline)
	if err := s.cfg.Store.Ping(ctx); err != nil {
		up = 0
	}
	cancel()
	gauge(descDBUp, up)
	move, commit, wait := s.live.Latencies()
	ch <- constHistogram(descMoveLat, move)
	ch <- constHistogram(descCommitLat, commit)
	ch <- constHistogram(descAIWait, wait)
}

// Histogram buckets exported: 2^6 µs (64 µs) to 2^26 µs (about 67 s).
const firstBucket, lastBucket = 6, 26

// constHistogram turns one of live play's power-of-two histograms into a
// Prometheus histogram in seconds.
func constHistogram(d *prometheus.Desc, h latency.Snapshot) prometheus.Metric {
	buckets := make(map[float64]uint64, lastBucket-firstBucket+1)
	var cum int64
	for i, c := range h.Counts {
		cum += c
		if i >= firstBucket && i <= lastBucket {
			buckets[latency.UpperBound(i).Seconds()] = uint64(cum)
		}
	}
	return prometheus.MustNewConstHistogram(d, uint64(h.Count), h.Sum.Seconds(), buckets)
}

// errorsLogged counts the records the server logs at level error (a
// database that fails, a game that does not load): stax_errors_logged_total.
type errorsLogged struct{ c prometheus.Counter }

func newErrorsLogged() errorsLogged {
	return errorsLogged{prometheus.NewCounter(prometheus.CounterOpts{
		Name: "stax_errors_logged_total",
		Help: "Records logged at level error (most are the database failing); a rise is worth a look at the log.",
	})}
}

// wrap returns h counting its error records.
func (e errorsLogged) wrap(h slog.Handler) slog.Handler { return countingHandler{h, e.c} }

// countingHandler is a slog.Handler that counts the records of level
// error it is given, handled or not.
type countingHandler struct {
	slog.Handler
	c prometheus.Counter
}

func (h countingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelError || h.Handler.Enabled(ctx, l)
}

func (h countingHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelError {
		h.c.Inc()
		if !h.Handler.Enabled(ctx, r.Level) {
			return nil
		}
	}
	return h.Handler.Handle(ctx, r)
}

func (h countingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return countingHandler{h.Handler.WithAttrs(as), h.c}
}

func (h countingHandler) WithGroup(name string) slog.Handler {
	return countingHandler{h.Handler.WithGroup(name), h.c}
}
