package server_test

import (
	"database/sql"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"stax/server"
)

// scrape fetches url's /metrics and parses it with Prometheus's own text
// parser.
func scrape(t *testing.T, c *http.Client, url string) map[string]*dto.MetricFamily {
	t.Helper()
	res, err := c.Get(url + "/metrics")
	if err != nil {
		t.Fatalf("GET /metrics: %v", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %d", res.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(res.Body)
	if err != nil {
		t.Fatalf("GET /metrics does not parse as Prometheus's text format: %v", err)
	}
	return fams
}

// sample returns the value of the metric of a family whose labels include
// those given (a counter's, a gauge's, or a histogram's count), and
// whether there is one.
func sample(fams map[string]*dto.MetricFamily, name string, labels ...string) (float64, bool) {
	f := fams[name]
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.Metric {
		for i := 0; i+1 < len(labels); i += 2 {
			found := false
			for _, l := range m.Label {
				if l.GetName() == labels[i] && l.GetValue() == labels[i+1] {
					found = true
				}
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

// TestMetrics plays a move and is refused a request, then scrapes /metrics
// and checks with Prometheus's parser that the metrics an operator watches
// are there and count what happened.
func TestMetrics(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{Metrics: true, CreateBurst: 1})
	cr := ts.create(hotseat)
	w := ts.dial("p", cr.ID, cr.Token)
	w.hello()
	w.move("1a1-a2", 0)
	w.waitPly(1)
	// A second game at once is past the burst: 429.
	ts.call("POST", "/api/games", hotseat, http.StatusTooManyRequests, nil)

	fams := scrape(t, http.DefaultClient, ts.url)
	for _, c := range []struct {
		name   string
		labels []string
		least  float64
	}{
		{"stax_live_games", nil, 1},
		{"stax_websockets", []string{"kind", "game"}, 1},
		{"stax_websockets", []string{"kind", "lobby"}, 0},
		{"stax_moves_total", nil, 1},
		{"stax_move_relay_seconds", nil, 1},
		{"stax_move_commit_seconds", nil, 1},
		{"stax_ai_queue_wait_seconds", nil, 0},
		{"stax_refused_total", []string{"reason", "rate_limit"}, 1},
		{"stax_refused_total", []string{"reason", "connections"}, 0},
		{"stax_refused_total", []string{"reason", "busy"}, 0},
		{"stax_http_responses_total", []string{"code", "429"}, 1},
		{"stax_database_up", nil, 1},
		{"stax_queue_waiting", []string{"queue", "password_hashing"}, 0},
		{"stax_queue_waiting", []string{"queue", "analysis"}, 0},
		{"stax_games_broken_total", nil, 0},
		{"go_goroutines", nil, 1},
	} {
		v, ok := sample(fams, c.name, c.labels...)
		if !ok || v < c.least {
			t.Errorf("%s%v = %v (present %v); want at least %v", c.name, c.labels, v, ok, c.least)
		}
	}
	if f := fams["stax_move_relay_seconds"]; f != nil && f.GetType() != dto.MetricType_HISTOGRAM {
		t.Errorf("stax_move_relay_seconds is a %v; want a histogram", f.GetType())
	}
}

// TestMetricsOff checks that the site does not serve /metrics unless told
// to, while the health handler always does.
func TestMetricsOff(t *testing.T) {
	ts := startServer(t, newDB(t), server.Config{})
	req, _ := http.NewRequest("GET", ts.url+"/metrics", nil)
	if code, _, _ := do(t, req); code != http.StatusNotFound {
		t.Errorf("GET /metrics without Config.Metrics: %d; want 404", code)
	}
	hs := httptest.NewServer(ts.srv.HealthHandler())
	defer hs.Close()
	if _, ok := sample(scrape(t, http.DefaultClient, hs.URL), "stax_database_up"); !ok {
		t.Error("the health handler's /metrics has no stax_database_up")
	}
	req, _ = http.NewRequest("GET", hs.URL+"/api/games", nil)
	if code, _, _ := do(t, req); code != http.StatusNotFound {
		t.Errorf("GET /api/games on the health handler: %d; want 404 (it serves no site route)", code)
	}
}

// TestHealthListenerUnderLoad fills the site's listener with idle
// connections up to its limits and headroom: /healthz on the site's
// address is refused, as the issue found, while the health listener still
// answers, and its metrics count the refusal.
func TestHealthListenerUnderLoad(t *testing.T) {
	ts := startListening(t, server.Config{MaxConns: 2, MaxConnsPerIP: 2, ConnHeadroom: 2, IPHeadroom: 2})
	health, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := ts.srv.HealthServer()
	go hs.Serve(health)
	defer hs.Close()
	healthURL := "http://" + health.Addr().String()

	// Idle connections that send nothing, as many as the listener holds.
	for range 4 {
		c, err := net.Dial("tcp", ts.url[len("http://"):])
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	// The listener accepts connections in the order they were made, so
	// these four take its places before the request below is accepted.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 5 * time.Second}
	if res, err := client.Get(ts.url + "/healthz"); err == nil {
		res.Body.Close()
		if res.StatusCode == http.StatusOK {
			t.Fatalf("GET /healthz on the full site listener: 200; the test does not fill it")
		}
	}
	for i := range 20 {
		res, err := client.Get(healthURL + "/healthz")
		if err != nil {
			t.Fatalf("GET /healthz %d on the health listener: %v", i, err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET /healthz %d on the health listener: %d; want 200", i, res.StatusCode)
		}
	}
	if v, _ := sample(scrape(t, client, healthURL), "stax_refused_total", "reason", "connections"); v < 1 {
		t.Errorf("stax_refused_total{reason=connections} = %v after a refused connection; want at least 1", v)
	}
}

// TestMetricsBrokenGame damages a stored game: after a restart the
// metrics count the game that did not load and the error logged for it.
func TestMetricsBrokenGame(t *testing.T) {
	db := newDB(t)
	ts := startServer(t, db, server.Config{})
	cr := ts.create(hotseat)
	w := ts.dial("p", cr.ID, cr.Token)
	w.hello()
	w.move("1a1-a2", 0)
	w.waitPly(1)
	w.c.CloseNow()
	ts.stop()
	raw, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`UPDATE moves SET move = 'zz9' WHERE game_id = ?`, cr.ID); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	ts = startServer(t, db, server.Config{Metrics: true})
	fams := scrape(t, http.DefaultClient, ts.url)
	for _, name := range []string{"stax_games_broken_total", "stax_errors_logged_total"} {
		if v, _ := sample(fams, name); v < 1 {
			t.Errorf("%s = %v after a damaged game was skipped; want at least 1", name, v)
		}
	}
}
