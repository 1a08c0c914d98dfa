package web_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"stax/ai"
	"stax/game"
	"stax/games"
	"stax/internal/testgame"
	"stax/server"
	"stax/server/store/sqlite"
	"stax/server/view"
	"stax/web"
)

// startServer runs the real server in-process with the embedded interface,
// the games of reg and a temporary SQLite database, and returns its base
// URL.
func startServer(t *testing.T, reg game.Registry) string {
	t.Helper()
	url, _ := startStoppableServer(t, reg)
	return url
}

// startStoppableServer is startServer that also returns a function that
// stops the server at once, as a crash would.
func startStoppableServer(t *testing.T, reg game.Registry) (string, func()) {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "stax.db"), sqlite.Options{})
	if err != nil {
		t.Fatalf("opening the database: %v", err)
	}
	// Pogo's tables are never built here, so the perfect level is offered
	// as being prepared, as on a new machine while the table is built.
	tables := ai.NewTables(ai.TablesConfig{Dir: t.TempDir()})
	levels := ai.Config{Tables: tables}
	srv, err := server.New(server.Config{
		Store:      st,
		Games:      reg,
		NewPlayer:  levels.New,
		Levels:     levels.Levels,
		LevelReady: levels.Ready,
		LevelElo:   ai.Elo,
		Assets:     web.FS(),
		AIDelay:    50 * time.Millisecond,
	})
	if err != nil {
		st.Close()
		t.Fatalf("starting the server: %v", err)
	}
	ts := httptest.NewServer(srv)
	var once sync.Once
	stop := func() {
		once.Do(func() {
			ts.CloseClientConnections()
			srv.Close()
			ts.Close()
			st.Close()
		})
	}
	t.Cleanup(stop)
	return ts.URL, stop
}

// offers reports whether the server plays the named game.
func offers(name string) bool {
	for _, info := range games.All() {
		if info.Name == name {
			return true
		}
	}
	return false
}

// The browser tests drive Debian's Chromium (headless) through the real
// server, in-process. Without Chromium they skip, unless STAX_REQUIRE_BROWSER
// is set (as .ci/run does), in which case they fail.

// chromiumPath returns the Chromium executable, or "" when there is none.
func chromiumPath() string {
	if p := os.Getenv("STAX_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return ""
		}
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	return ""
}

// browser is one headless Chromium shared by the subtests of a test, and
// the base URL of the server it talks to.
type browser struct {
	ctx  context.Context // a chromedp context whose browser has started
	base string

	mu     sync.Mutex // guards errors
	errors []string   // uncaught exceptions in any tab
}

// newBrowser starts the server and Chromium, or skips the test.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	needChromium(t)
	return newBrowserAt(t, startServer(t, games.All()))
}

// needChromium skips the test without Chromium (or fails it, with
// STAX_REQUIRE_BROWSER set).
func needChromium(t *testing.T) {
	t.Helper()
	if chromiumPath() == "" {
		if os.Getenv("STAX_REQUIRE_BROWSER") != "" {
			t.Fatal("STAX_REQUIRE_BROWSER is set but Chromium was not found (apt-get install -y chromium)")
		}
		t.Skip("Chromium not found: browser tests skipped (apt-get install -y chromium to run them)")
	}
}

// newBrowserAt starts Chromium for the server at base.
func newBrowserAt(t *testing.T, base string) *browser {
	t.Helper()
	path := chromiumPath()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1200, 900),
	}
	// Chromium now and then exits as it starts, under load, before it
	// opens its DevTools port ("chrome failed to start"): it is started
	// again, up to startAttempts times, each failure logged.
	const startAttempts = 3
	for attempt := 1; ; attempt++ {
		// A profile of its own each time: a Chromium that failed may
		// leave its profile locked.
		profile := append(opts[:len(opts):len(opts)], chromedp.UserDataDir(t.TempDir()))
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), profile...)
		ctx, cancel := chromedp.NewContext(actx)
		// Start the browser with a first, unbounded run (see chromedp.Run).
		err := chromedp.Do(ctx, chromedp.Navigate("about:blank"))
		if err == nil {
			t.Cleanup(func() {
				cancel()
				cancelAlloc()
			})
			return &browser{ctx: ctx, base: base}
		}
		cancel()
		cancelAlloc()
		if attempt == startAttempts {
			t.Fatalf("starting Chromium (%s), %d attempts: %v", path, attempt, err)
		}
		t.Logf("starting Chromium (%s), attempt %d: %v; starting it again", path, attempt, err)
	}
}

// tab opens a new tab for one subtest, bounded by timeout. On failure the
// subtest saves a screenshot of the tab and logs its path.
func (b *browser) tab(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	return b.open(t, timeout)
}

// person opens a tab in a browser context of its own, with its own storage:
// another person on another device.
func (b *browser) person(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	return b.open(t, timeout, chromedp.WithNewBrowserContext())
}

func (b *browser) open(t *testing.T, timeout time.Duration, opts ...chromedp.ContextOption) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, opts...)
	// Open the tab before the deadline starts, then bound the actions.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		cancel()
		t.Fatalf("opening a tab: %v", err)
	}
	messages := chromedp.Console(ctx)
	name := t.Name()
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.IsException() {
				// Reported by checkNoExceptions: t must not be used once
				// the subtest has ended.
				b.mu.Lock()
				b.errors = append(b.errors, name+": "+m.Text)
				b.mu.Unlock()
			}
		}
	}()
	tctx, tcancel := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() {
		if t.Failed() {
			b.screenshot(t, ctx)
		}
		tcancel()
		cancel()
	})
	return tctx
}

// screenshot saves the tab's page as a PNG in the temporary directory.
func (b *browser) screenshot(t *testing.T, ctx context.Context) {
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(sctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("no screenshot: %v", err)
		// The tab does not answer: what the browser itself says of its
		// pages and service workers (their addresses) tells where it
		// stopped.
		if targets, terr := chromedp.Targets(b.ctx); terr == nil {
			for _, tg := range targets {
				if tg.Type == "page" || tg.Type == "service_worker" {
					t.Logf("the browser's %s: %s (%q)", tg.Type, tg.URL, tg.Title)
				}
			}
		}
		return
	}
	name := regexp.MustCompile(`[^A-Za-z0-9_-]+`).ReplaceAllString(t.Name(), "_")
	path := filepath.Join(os.TempDir(), fmt.Sprintf("stax-browser-%s-%d.png", name, time.Now().UnixNano()))
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Logf("no screenshot: %v", err)
		return
	}
	t.Logf("screenshot of the failure: %s", path)
}

// shot saves a screenshot of the tab as name.png into the directory
// named by STAX_SCREENSHOTS (or STAX_BROWSER_SHOTS), when it is set, for
// looking at the pages by eye and as artifacts of a test run.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := cmp.Or(os.Getenv("STAX_SCREENSHOTS"), os.Getenv("STAX_BROWSER_SHOTS"))
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Logf("screenshot %s: %v", name, err)
	}
}

// checkNoExceptions fails the test if any page threw an uncaught exception.
func (b *browser) checkNoExceptions(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.errors {
		t.Errorf("uncaught exception in the page: %s", e)
	}
	b.errors = nil
}

// do runs actions and fails the test with what was being done.
func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// notYet makes a predicate that throws (an element not drawn yet: a page
// draws itself once its module is loaded) false, not yet true.
func notYet(predicate string) string {
	return "(() => { try { return (" + predicate + "); } catch { return false; } })()"
}

// waitFor polls a JavaScript predicate until it holds.
func waitFor(t *testing.T, ctx context.Context, what, predicate string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](notYet(predicate), chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		status, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('[data-testid=status]')||{}).textContent||''`))
		moveErr, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('[data-testid=move-error]')||{}).textContent||''`))
		t.Fatalf("waiting for %s: %v (status %q, error %q)", what, err, status, moveErr)
	}
}

// tid is the CSS selector of a data-testid.
func tid(id string) chromedp.CSS { return chromedp.CSS(`[data-testid="` + id + `"]`) }

// click clicks the element with the data-testid.
func click(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	for range 3 {
		err := chromedp.Do(ctx, chromedp.Click(tid(id), chromedp.NodeVisible))
		if err == nil {
			return
		}
		if !strings.Contains(err.Error(), "Could not find node") && !strings.Contains(err.Error(), "No node with given id") {
			break
		}
		// The page drew the element again between finding and clicking
		// it (a state message arrived): find it again.
	}
	do(t, ctx, "clicking "+id, chromedp.Click(tid(id), chromedp.NodeVisible))
}

// legal returns the legal moves the page offers.
func legal(t *testing.T, ctx context.Context) []string {
	t.Helper()
	return eval[[]string](t, ctx, `JSON.parse(document.querySelector('[data-testid=legal]').dataset.moves)`)
}

// plies returns the number of moves in the page's move list.
func plies(t *testing.T, ctx context.Context) int {
	t.Helper()
	return eval[int](t, ctx, `document.querySelectorAll('[data-testid=moves] button.move').length`)
}

// waitMyTurn waits until the page says it is the player's move.
func waitMyTurn(t *testing.T, ctx context.Context) {
	t.Helper()
	waitFor(t, ctx, "the player's turn", `document.querySelector('[data-testid=board-box].interactive') !== null && JSON.parse(document.querySelector('[data-testid=legal]').dataset.moves || '[]').length > 0`)
}

// waitPlies waits until the move list holds at least n moves.
func waitPlies(t *testing.T, ctx context.Context, n int) {
	t.Helper()
	waitFor(t, ctx, fmt.Sprintf("%d moves", n), fmt.Sprintf(`document.querySelectorAll('[data-testid=moves] button.move').length >= %d`, n))
}

// startGame opens the home page, chooses a game and the seats, and starts.
// seats are values of the seat selects ("you", "ai:random", "invite"). It
// returns the game's id.
func startGame(t *testing.T, ctx context.Context, base, game string, seats ...string) string {
	t.Helper()
	return startVariant(t, ctx, base, game, nil, game, seats...)
}

// startVariant is startGame with options: pairs of an option's key and
// value, set in order, and the spec they make.
func startVariant(t *testing.T, ctx context.Context, base, game string, options [][2]string, spec string, seats ...string) string {
	t.Helper()
	do(t, ctx, "opening the home page",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(tid("game-"+game)),
		chromedp.Click(tid("game-"+game)),
	)
	waitFor(t, ctx, "the options of "+game, `document.querySelector('[data-testid=seats][data-spec="`+game+`"]') !== null`)
	for _, o := range options {
		if o[0] == "position" {
			eval[chromedp.Void](t, ctx, fmt.Sprintf(`(e => { e.value = %q; e.dispatchEvent(new Event('input')); })(document.querySelector('[data-testid=start-position]'))`, o[1]))
			continue
		}
		sel := fmt.Sprintf(`document.querySelector('[data-testid=opt-%s]')`, o[0])
		eval[chromedp.Void](t, ctx, fmt.Sprintf(`(e => { if (e.type === 'checkbox') e.checked = %q === 'true'; else e.value = %q; e.dispatchEvent(new Event('change')); })(%s)`, o[1], o[1], sel))
	}
	waitFor(t, ctx, "the seats of "+spec, `document.querySelector('[data-testid=seats][data-spec="`+spec+`"] [data-testid=seat-1]') !== null`)
	for i, s := range seats {
		do(t, ctx, "choosing seat "+fmt.Sprint(i), chromedp.SetValue(tid(fmt.Sprintf("seat-%d", i)), s))
		// SetValue does not fire change events; the page listens for them.
		eval[chromedp.Void](t, ctx, fmt.Sprintf(`document.querySelector('[data-testid=seat-%d]').dispatchEvent(new Event('change'))`, i))
	}
	shot(t, ctx, "home-"+game)
	click(t, ctx, "start")
	waitFor(t, ctx, "the game page", `/^\/game\/[a-z0-9]+$/.test(location.pathname) && document.querySelector('[data-testid=board]') !== null`)
	path := eval[string](t, ctx, `location.pathname`)
	return strings.TrimPrefix(path, "/game/")
}

// clickMove plays a move by clicking the board, in the way a person would.
func clickMove(t *testing.T, ctx context.Context, game, move string) {
	t.Helper()
	var m []string
	switch game {
	case "pogo":
		m = regexp.MustCompile(`^([1-3])([a-c][1-3])-([a-c][1-3])$`).FindStringSubmatch(move)
		if m == nil {
			t.Fatalf("bad pogo move %q", move)
		}
		// Every other move of the player picks the count by clicking the
		// disc at that depth, the others with the count buttons.
		disc := "disc-" + m[2] + "-" + m[1]
		if plies(t, ctx)%4 == 0 && eval[bool](t, ctx, `document.querySelector('[data-testid="`+disc+`"]') !== null`) {
			clickUntil(t, ctx, disc, "the count picked by "+disc, `document.querySelector('[data-testid=count-`+m[1]+`].active') !== null`)
		} else {
			clickUntil(t, ctx, "sq-"+m[2], "the count buttons of "+m[2], `document.querySelector('[data-testid=count-`+m[1]+`]') !== null`)
			click(t, ctx, "count-"+m[1])
		}
		waitFor(t, ctx, "the targets of "+move, `document.querySelector('[data-testid="sq-`+m[3]+`"].target') !== null`)
		click(t, ctx, "sq-"+m[3])
	case "pisola":
		if m = regexp.MustCompile(`^([a-h][1-8])\+([a-h][1-8])$`).FindStringSubmatch(move); m != nil {
			clickUntil(t, ctx, "sq-"+m[1], m[1]+" previewed", `document.querySelector('[data-testid="ghost-`+m[1]+`"]') !== null`)
			click(t, ctx, "sq-"+m[2])
			return
		}
		m = regexp.MustCompile(`^([a-h][1-8])-([a-h][1-8])$`).FindStringSubmatch(move)
		if m == nil {
			t.Fatalf("bad pisola move %q", move)
		}
		clickUntil(t, ctx, "sq-"+m[1], "the targets of "+move, `document.querySelector('[data-testid="sq-`+m[2]+`"].target') !== null`)
		click(t, ctx, "sq-"+m[2])
	case "diam":
		if m = regexp.MustCompile(`^([rygb])@([1-8])$`).FindStringSubmatch(move); m != nil {
			clickUntil(t, ctx, "reserve-"+m[1], "the targets of "+move, `document.querySelector('[data-testid="cell-`+m[2]+`"].target') !== null`)
			click(t, ctx, "cell-"+m[2])
			return
		}
		m = regexp.MustCompile(`^([1-8]):([1-4])([+-])$`).FindStringSubmatch(move)
		if m == nil {
			t.Fatalf("bad diam move %q", move)
		}
		cell := int(m[1][0] - '0')
		to := cell%8 + 1
		if m[3] == "-" {
			to = (cell+6)%8 + 1
		}
		clickUntil(t, ctx, "piece-"+m[1]+"-"+m[2], "the targets of "+move, fmt.Sprintf(`document.querySelector('[data-testid="cell-%d"].target') !== null`, to))
		shot(t, ctx, "diam-picked")
		click(t, ctx, fmt.Sprintf("cell-%d", to))
	default:
		t.Fatalf("unknown game %q", game)
	}
}

// clickUntil clicks the element with the data-testid until the predicate
// holds: a click on an element that the page was drawing again at that
// moment (a message arrived) does nothing, and is made again.
func clickUntil(t *testing.T, ctx context.Context, id, what, predicate string) {
	t.Helper()
	for try := 0; try < 2; try++ {
		click(t, ctx, id)
		if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](notYet(predicate), chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(3*time.Second))); err == nil {
			return
		}
	}
	click(t, ctx, id)
	waitFor(t, ctx, what, predicate)
}

// playByClicking plays n of the player's moves against the computer by
// clicking, checking after each that the move and the computer's reply
// appear. pick chooses among the legal moves.
func playByClicking(t *testing.T, ctx context.Context, game string, n int, pick func([]string) string) {
	t.Helper()
	playByClickingN(t, ctx, game, n, 1, pick)
}

// playByClickingN is playByClicking with several computer opponents, who
// make replies moves between two of the player's.
func playByClickingN(t *testing.T, ctx context.Context, game string, n, replies int, pick func([]string) string) {
	t.Helper()
	for i := 0; i < n; i++ {
		waitMyTurn(t, ctx)
		before := plies(t, ctx)
		moves := legal(t, ctx)
		mv := pick(moves)
		clickMove(t, ctx, game, mv)
		waitPlies(t, ctx, before+1)
		got := eval[string](t, ctx, fmt.Sprintf(`document.querySelector('[data-testid="move-%d"]').textContent`, before+1))
		if !strings.HasSuffix(got, mv) {
			t.Fatalf("move %d is %q, want %q", before+1, got, mv)
		}
		if finished(t, ctx) {
			return
		}
		// The computer answers.
		waitFor(t, ctx, "the computer's reply", fmt.Sprintf(`document.querySelectorAll('[data-testid=moves] button.move').length >= %d || document.querySelector('[data-testid=result]:not([hidden])') !== null`, before+1+replies))
		if finished(t, ctx) {
			return
		}
	}
}

// finished reports whether the page shows a result.
func finished(t *testing.T, ctx context.Context) bool {
	t.Helper()
	return eval[bool](t, ctx, `document.querySelector('[data-testid=result]:not([hidden])') !== null`)
}

// first picks the first legal move.
func first(moves []string) string { return moves[0] }

// matching returns a picker of the first legal move matching re, or the
// first move when none does.
func matching(re string) func([]string) string {
	r := regexp.MustCompile(re)
	return func(moves []string) string {
		for _, m := range moves {
			if r.MatchString(m) {
				return m
			}
		}
		return moves[0]
	}
}

func TestBrowser(t *testing.T) {
	b := newBrowser(t)
	defer b.checkNoExceptions(t)

	t.Run("picker", func(t *testing.T) {
		ctx := b.tab(t, 20*time.Second)
		do(t, ctx, "opening the home page", chromedp.Navigate(b.base+"/rules/pogo"), chromedp.WaitVisible(tid("rules-pogo")))
		fails, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](pickerChecks, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fails {
			t.Error(f)
		}
	})

	t.Run("board-views", func(t *testing.T) {
		// Each family of boards drawn from the server's views, and from
		// hand-made views of boards no game has yet, on a desktop and on a
		// phone: every cell, stack, mark and highlight of the view is drawn.
		ctx := b.tab(t, 30*time.Second)
		for _, vp := range []struct {
			name          string
			width, height int64
		}{{"desktop", 1200, 900}, {"phone", 390, 844}} {
			do(t, ctx, "emulating a "+vp.name, chromedp.EmulateViewport(vp.width, vp.height), chromedp.Navigate(b.base+"/rules/pogo"), chromedp.WaitVisible(tid("rules-pogo")))
			fails, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](boardChecks, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fails {
				t.Errorf("%s: %s", vp.name, f)
			}
			shot(t, ctx, "board-views-"+vp.name)
		}
	})

	t.Run("wire", func(t *testing.T) {
		// The browser spells out the views the server sends as the
		// server's own Go code does (view.View.List and Cells), along
		// games of every game.
		ctx := b.tab(t, 30*time.Second)
		do(t, ctx, "opening a page", chromedp.Navigate(b.base+"/rules/pogo"), chromedp.WaitVisible(tid("rules-pogo")))
		fails, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](wireChecks(t), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fails {
			t.Error(f)
		}
	})

	t.Run("new-game", func(t *testing.T) {
		// A game the interface has no module for — tic-tac-toe, the tests'
		// toy game — is offered, drawn and played by clicking from its
		// board view and option schema alone.
		base := startServer(t, append(games.All(), testgame.Info))
		ctx := b.tab(t, 30*time.Second)
		startGame(t, ctx, base, "tictactoe", "you", "you")
		if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=board] [data-testid^=sq-]').length`); n != 9 {
			t.Errorf("%d squares drawn, want 9", n)
		}
		for ply, sq := range []string{"a1", "b1", "a2", "b2", "a3"} {
			waitMyTurn(t, ctx)
			waitFor(t, ctx, sq+" offered", `document.querySelector('[data-testid="sq-`+sq+`"].target') !== null`)
			click(t, ctx, "sq-"+sq)
			waitPlies(t, ctx, ply+1)
		}
		waitFor(t, ctx, "the result banner", `document.querySelector('[data-testid=result]:not([hidden])') !== null`)
		if banner := eval[string](t, ctx, `document.querySelector('[data-testid=result]').textContent`); !strings.Contains(banner, "X wins") {
			t.Errorf("result banner %q, want X wins", banner)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=board] .disc.highlighted').length`); n != 3 {
			t.Errorf("%d pieces of the winning line highlighted, want 3", n)
		}
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=disc-a1-1]').dataset.colour`); got != "cross" {
			t.Errorf("a1 holds a %q, want a cross", got)
		}
		shot(t, ctx, "new-game")
	})

	t.Run("perfect being prepared", func(t *testing.T) {
		ctx := b.tab(t, 20*time.Second)
		do(t, ctx, "opening the home page",
			chromedp.Navigate(b.base+"/"),
			chromedp.WaitVisible(tid("game-pogo")),
			chromedp.Click(tid("game-pogo")),
		)
		waitFor(t, ctx, "the seats of pogo", `document.querySelector('[data-testid=seats][data-spec="pogo"] [data-testid=seat-1]') !== null`)
		perfect := `document.querySelector('[data-testid=seat-1] option[value="ai:perfect"]')`
		if !eval[bool](t, ctx, perfect+` !== null && `+perfect+`.disabled && /preparing/.test(`+perfect+`.textContent)`) {
			t.Error("the perfect level is not offered as being prepared while its table is missing")
		}
		if v := eval[string](t, ctx, `document.querySelector('[data-testid=seat-1]').value`); v == "ai:perfect" {
			t.Errorf("seat 2 defaults to %s, a level being prepared", v)
		}
		// Each measured level shows its rating (docs/strength.md).
		hard := `document.querySelector('[data-testid=seat-1] option[value="ai:hard"]').textContent`
		if got, want := eval[string](t, ctx, hard), fmt.Sprintf("hard (%d Elo)", mustElo(t, "pogo", "hard")); !strings.Contains(got, want) {
			t.Errorf("the picker offers %q; want it to show %q", got, want)
		}
		do(t, ctx, "opening Pisola's seats",
			chromedp.Navigate(b.base+"/"),
			chromedp.WaitVisible(tid("game-pisola")),
			chromedp.Click(tid("game-pisola")),
		)
		waitFor(t, ctx, "the seats of pisola", `document.querySelector('[data-testid=seats][data-spec="pisola"] [data-testid=seat-1] option[value="ai:hard"]') !== null`)
		hard = `document.querySelector('[data-testid=seats][data-spec="pisola"] [data-testid=seat-1] option[value="ai:hard"]').textContent`
		if got, want := eval[string](t, ctx, hard), fmt.Sprintf("hard (%d Elo)", mustElo(t, "pisola", "hard")); !strings.Contains(got, want) {
			t.Errorf("Pisola's picker offers %q; want it to show %q", got, want)
		}
	})

	t.Run("transport", func(t *testing.T) {
		ctx := b.tab(t, 20*time.Second)
		do(t, ctx, "opening the rules", chromedp.Navigate(b.base+"/rules/pogo"), chromedp.WaitVisible(tid("rules-pogo")))
		for _, f := range awaitEval[[]string](t, ctx, transportChecks) {
			t.Error(f)
		}
	})

	t.Run("rough-edges", func(t *testing.T) { roughEdges(t, b) })
	t.Run("languages", func(t *testing.T) { languages(t, b) })
	t.Run("dark-mode", func(t *testing.T) { darkMode(t, b) })

	t.Run("rules", func(t *testing.T) {
		ctx := b.tab(t, 20*time.Second)
		for _, g := range []string{"pogo", "pisola", "diam"} {
			do(t, ctx, "opening the rules of "+g,
				chromedp.Navigate(b.base+"/rules/"+g),
				chromedp.WaitVisible(tid("rules-"+g)),
			)
			waitFor(t, ctx, "the options of "+g, `document.querySelector('.options-table') !== null`)
			// The diagrams are drawn from the server's views as they arrive.
			waitFor(t, ctx, "the diagrams of "+g, `document.querySelectorAll('[data-testid=diagram] svg').length === document.querySelectorAll('[data-testid=diagram]').length`)
			shot(t, ctx, "rules-"+g)
			n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=diagram] svg').length`)
			if n < 2 {
				t.Errorf("rules of %s: %d diagrams, want at least 2", g, n)
			}
		}
		// A locked and a roofed stack are drawn on Pisola's page.
		do(t, ctx, "opening Pisola's rules", chromedp.Navigate(b.base+"/rules/pisola"), chromedp.WaitVisible(tid("rules-pisola")))
		waitFor(t, ctx, "Pisola's diagrams", `document.querySelectorAll('[data-testid=diagram] svg').length === document.querySelectorAll('[data-testid=diagram]').length`)
		if n := eval[int](t, ctx, `document.querySelectorAll('.lock-cross').length`); n == 0 {
			t.Error("Pisola's rules draw no locked stack")
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('.roof').length`); n == 0 {
			t.Error("Pisola's rules draw no roof")
		}
		// The rules lead to a new game of their game.
		click(t, ctx, "play-pisola")
		waitFor(t, ctx, "Pisola chosen on the home page", `document.querySelector('[data-testid=game-pisola]') !== null && document.querySelector('[data-testid=game-pisola]').checked`)
	})

	t.Run("pogo", func(t *testing.T) {
		ctx := b.tab(t, 40*time.Second)
		id := startGame(t, ctx, b.base, "pogo", "you", "ai:random")
		// Three moves by clicking, each answered by the computer; the first
		// takes two pieces so the count buttons are used.
		waitMyTurn(t, ctx)
		click(t, ctx, "sq-b1")
		waitFor(t, ctx, "b1 to be picked", `document.querySelector('[data-testid=count-1]') !== null`)
		shot(t, ctx, "pogo-picked")
		click(t, ctx, "cancel")
		waitFor(t, ctx, "nothing picked", `document.querySelector('[data-testid=count-1]') === null`)
		playByClicking(t, ctx, "pogo", 1, matching(`^2`))
		playByClicking(t, ctx, "pogo", 2, first)
		if !finished(t, ctx) {
			// A move with the keyboard alone: Enter on the squares and on
			// the count button.
			waitMyTurn(t, ctx)
			before := plies(t, ctx)
			mv := legal(t, ctx)[0]
			m := regexp.MustCompile(`^([1-3])([a-c][1-3])-([a-c][1-3])$`).FindStringSubmatch(mv)
			do(t, ctx, "picking "+m[2]+" with the keyboard", chromedp.SendKeys(tid("sq-"+m[2]), "\r"))
			waitFor(t, ctx, "the count buttons", `document.querySelector('[data-testid=count-`+m[1]+`]') !== null`)
			do(t, ctx, "choosing the count with the keyboard", chromedp.SendKeys(tid("count-"+m[1]), "\r"))
			waitFor(t, ctx, "the targets of "+mv, `document.querySelector('[data-testid="sq-`+m[3]+`"].target') !== null`)
			do(t, ctx, "moving to "+m[3]+" with the keyboard", chromedp.SendKeys(tid("sq-"+m[3]), "\r"))
			waitPlies(t, ctx, before+1)
		}
		if !finished(t, ctx) {
			// A typed move that is not legal shows the server's error.
			waitMyTurn(t, ctx)
			do(t, ctx, "typing an illegal move",
				chromedp.SendKeys(tid("move-input"), "3a1-c3"),
				chromedp.Click(tid("move-submit")),
			)
			waitFor(t, ctx, "the server's error", `document.querySelector('[data-testid=move-error]').textContent.length > 0`)
			// A typed legal move is played.
			waitMyTurn(t, ctx)
			before := plies(t, ctx)
			mv := legal(t, ctx)[0]
			// The refused move stays in the box to be corrected.
			if got := eval[string](t, ctx, `document.querySelector('[data-testid=move-input]').value`); got != "3a1-c3" {
				t.Errorf("the box holds %q after a refused move, want 3a1-c3", got)
			}
			eval[chromedp.Void](t, ctx, `document.querySelector('[data-testid=move-input]').value = ''`)
			do(t, ctx, "typing a move",
				chromedp.SendKeys(tid("move-input"), mv+"\r"),
			)
			waitPlies(t, ctx, before+1)
			waitFor(t, ctx, "the box to empty", `document.querySelector('[data-testid=move-input]').value === ''`)
		}
		if !finished(t, ctx) {
			waitFor(t, ctx, "the resign button", `!document.querySelector('[data-testid=resign]').hidden`)
			click(t, ctx, "resign")
			click(t, ctx, "resign-confirm")
			waitFor(t, ctx, "the result banner", `document.querySelector('[data-testid=result]:not([hidden])') !== null`)
			shot(t, ctx, "pogo-resigned")
			banner := eval[string](t, ctx, `document.querySelector('[data-testid=result]').textContent`)
			if !strings.Contains(banner, "resign") {
				t.Errorf("result banner %q does not mention the resignation", banner)
			}
		}
		// Replay: back to the start, then forward one move.
		total := plies(t, ctx)
		click(t, ctx, "replay-first")
		waitFor(t, ctx, "the start position", `document.querySelector('[data-testid=board]').getAttribute('data-pos') === 'bb,bb,bb/-,-,-/ww,ww,ww w'`)
		click(t, ctx, "replay-next")
		shot(t, ctx, "pogo-replay")
		waitFor(t, ctx, "ply 1", `document.querySelector('[data-testid=board-box]').getAttribute('data-ply') === '1'`)
		do(t, ctx, "moving the slider", chromedp.SetValue(tid("slider"), "2"))
		eval[chromedp.Void](t, ctx, `document.querySelector('[data-testid=slider]').dispatchEvent(new Event('input'))`)
		waitFor(t, ctx, "ply 2", `document.querySelector('[data-testid=board-box]').getAttribute('data-ply') === '2'`)
		click(t, ctx, "replay-last")
		waitFor(t, ctx, "the last ply", fmt.Sprintf(`document.querySelector('[data-testid=board-box]').getAttribute('data-ply') === '%d'`, total))
		// Playing through starts again from the first position.
		click(t, ctx, "replay-play")
		waitFor(t, ctx, "the replay to play", `document.querySelector('[data-testid=board-box]').getAttribute('data-ply') === '1'`)
		click(t, ctx, "replay-play")
		// The record offered for download is the game's.
		href := eval[string](t, ctx, `document.querySelector('[data-testid=download]').href`)
		rec := get(t, href)
		if !strings.Contains(rec, `[Game "pogo"]`) || !strings.Contains(rec, "[Result") {
			t.Errorf("record of %s:\n%s", id, rec)
		}
		// Play again: a new game with the sides swapped, the computer
		// (White now) moving first.
		click(t, ctx, "rematch")
		waitFor(t, ctx, "the new game", fmt.Sprintf(`location.pathname !== '/game/%s' && document.querySelector('[data-testid=seat-info-1] .badge') !== null`, id))
		waitMyTurn(t, ctx)
		if n := plies(t, ctx); n != 1 {
			t.Errorf("the new game shows %d moves at Black's first turn, want 1", n)
		}
		// The game is listed among the recent games.
		do(t, ctx, "opening the recent games",
			chromedp.Navigate(b.base+"/games"),
			chromedp.WaitVisible(tid("recent-"+id)),
		)
		shot(t, ctx, "recent")
	})

	t.Run("diam", func(t *testing.T) {
		ctx := b.tab(t, 30*time.Second)
		startGame(t, ctx, b.base, "diam", "you", "ai:random")
		playByClicking(t, ctx, "diam", 2, first)
		// A move of a piece on the ring, when there is one.
		playByClicking(t, ctx, "diam", 2, matching(`:`))
		shot(t, ctx, "diam")
	})

	t.Run("diam4", func(t *testing.T) {
		skipShort(t)
		ctx := b.tab(t, 30*time.Second)
		startVariant(t, ctx, b.base, "diam", [][2]string{{"players", "4"}, {"teams", "true"}}, "diam(players=4,teams=true)",
			"you", "ai:random", "ai:random", "ai:random")
		if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid^=seat-info-]').length`); n != 4 {
			t.Errorf("%d seats shown, want 4", n)
		}
		playByClickingN(t, ctx, "diam", 2, 3, first)
		shot(t, ctx, "diam4")
	})

	t.Run("pisola", func(t *testing.T) {
		if !offers("pisola") {
			t.Skip("the server does not play Pisola yet")
		}
		ctx := b.tab(t, 30*time.Second)
		startGame(t, ctx, b.base, "pisola", "you", "ai:random")
		playByClicking(t, ctx, "pisola", 3, first)
		shot(t, ctx, "pisola")
	})

	t.Run("invite", func(t *testing.T) {
		host := b.tab(t, 30*time.Second)
		startGame(t, host, b.base, "pogo", "you", "invite")
		waitFor(t, host, "the invitation link", `document.querySelector('[data-testid=invite-link-1]') !== null`)
		shot(t, host, "invite-host")
		link := eval[string](t, host, `document.querySelector('[data-testid=invite-link-1]').value`)
		guest := b.person(t, 30*time.Second)
		do(t, guest, "opening the invitation",
			chromedp.Navigate(link),
			chromedp.WaitVisible(tid("join")),
			chromedp.SendKeys(tid("join-name"), "bob"),
		)
		click(t, guest, "join")
		waitFor(t, guest, "the invitation to be used", `location.hash === '' && document.querySelector('[data-testid=join-box]').hidden`)
		waitFor(t, host, "the guest to join", `document.querySelector('[data-testid=seat-info-1]').textContent.includes('bob')`)
		waitMyTurn(t, host)
		clickMove(t, host, "pogo", first(legal(t, host)))
		waitPlies(t, guest, 1)
		waitMyTurn(t, guest)
		clickMove(t, guest, "pogo", first(legal(t, guest)))
		waitPlies(t, host, 2)
		shot(t, guest, "invite-guest")

		// A third person with the game's address watches.
		watcher := b.person(t, 30*time.Second)
		do(t, watcher, "watching", chromedp.Navigate(strings.SplitN(link, "#", 2)[0]))
		waitFor(t, watcher, "the game to be watched", `document.querySelector('[data-testid=status]').textContent.includes('watching')`)
		if eval[bool](t, watcher, `document.querySelector('[data-testid=board-box].interactive') !== null`) {
			t.Error("a spectator's board takes moves")
		}
		waitMyTurn(t, host)
		clickMove(t, host, "pogo", first(legal(t, host)))
		waitPlies(t, watcher, 3)
	})

	t.Run("pisola-position", func(t *testing.T) {
		skipShort(t)
		if !offers("pisola") {
			t.Skip("the server does not play Pisola yet")
		}
		// A game in progress with two locked stacks, played on from its
		// position, with crosses and then with roofs.
		const pos = "b,-,-,bwbw,-,b/wbbb,-,-,-,-,w/-,-,-,wbwb*,wb,-/w,-,wb,b,ww,-/w,b,-,-,-,-/-,bw,-,bww,-,bbwwbw* w"
		ctx := b.tab(t, 30*time.Second)
		startVariant(t, ctx, b.base, "pisola", [][2]string{{"position", pos}}, "pisola", "you", "ai:random")
		waitMyTurn(t, ctx)
		if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=board] .lock-cross').length`); n != 2 {
			t.Errorf("%d locked stacks drawn, want 2", n)
		}
		if h := eval[string](t, ctx, `document.querySelector('[data-testid=sq-f1]').dataset.height`); h != "6" {
			t.Errorf("f1 drawn with height %s, want 6", h)
		}
		playByClicking(t, ctx, "pisola", 2, first)

		roofed := strings.ReplaceAll(pos, "*", "^")
		startVariant(t, ctx, b.base, "pisola", [][2]string{{"roofs", "true"}, {"position", roofed}}, "pisola(roofs=true)", "you", "ai:random")
		waitMyTurn(t, ctx)
		if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=board] .roof').length`); n != 2 {
			t.Errorf("%d roofs drawn, want 2", n)
		}
		shot(t, ctx, "pisola-roofs")
		playByClicking(t, ctx, "pisola", 1, first)
	})

	t.Run("pogo-finish", func(t *testing.T) {
		// From a position where one move tops every stack, the game ends
		// by the rules and the banner says so.
		ctx := b.tab(t, 30*time.Second)
		startVariant(t, ctx, b.base, "pogo", [][2]string{{"position", "-,-,-/-,-,-/bbbbbw,b,wwwww w"}}, "pogo", "you", "ai:random")
		waitMyTurn(t, ctx)
		clickMove(t, ctx, "pogo", "1c1-b1")
		waitFor(t, ctx, "the result banner", `document.querySelector('[data-testid=result]:not([hidden])') !== null`)
		banner := eval[string](t, ctx, `document.querySelector('[data-testid=result]').textContent`)
		if !strings.HasPrefix(banner, "You win") || !strings.Contains(banner, "White wins") {
			t.Errorf("result banner %q, want a win for White", banner)
		}
		if eval[bool](t, ctx, `!document.querySelector('[data-testid=resign]').hidden`) {
			t.Error("the resign button is offered in a finished game")
		}
	})

	t.Run("hotseat", func(t *testing.T) {
		skipShort(t)
		// Both seats on one device: each move by clicking, no computer.
		ctx := b.tab(t, 30*time.Second)
		startGame(t, ctx, b.base, "diam", "you", "you")
		for ply := 1; ply <= 3; ply++ {
			waitMyTurn(t, ctx)
			clickMove(t, ctx, "diam", first(legal(t, ctx)))
			waitPlies(t, ctx, ply)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=seats] .badge').length`); n != 2 {
			t.Errorf("%d seats marked as the player's, want 2", n)
		}
	})

	t.Run("phone", func(t *testing.T) {
		skipShort(t)
		g := "pisola"
		if !offers(g) {
			g = "diam"
		}
		ctx := b.tab(t, 30*time.Second)
		do(t, ctx, "emulating a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
		startGame(t, ctx, b.base, g, "you", "ai:random")
		waitMyTurn(t, ctx)
		overflow := eval[int](t, ctx, `document.documentElement.scrollWidth - window.innerWidth`)
		if overflow > 0 {
			t.Errorf("the game page is %d px wider than a phone's screen", overflow)
		}
		width := eval[float64](t, ctx, `document.querySelector('[data-testid=board]').getBoundingClientRect().width`)
		if width < 300 || width > 390 {
			t.Errorf("the board is %.0f px wide on a 390 px screen", width)
		}
		playByClicking(t, ctx, g, 1, first)
		shot(t, ctx, "phone")
		// The other pages fit too.
		for _, page := range []string{"/", "/rules/diam", "/games"} {
			do(t, ctx, "opening "+page, chromedp.Navigate(b.base+page), chromedp.WaitVisible(chromedp.CSS("main h1")))
			if overflow := eval[int](t, ctx, `document.documentElement.scrollWidth - window.innerWidth`); overflow > 0 {
				t.Errorf("%s is %d px wider than a phone's screen", page, overflow)
			}
			shot(t, ctx, "phone"+strings.ReplaceAll(page, "/", "-"))
		}
	})
}

// pickerChecks runs the click-to-move logic of picker.js on small cases
// of the three kinds of move and returns what went wrong.
const pickerChecks = `(async () => {
  const { Picker } = await import("/picker.js");
  const fails = [];
  const eq = (what, got, want) => {
    if (JSON.stringify(got) !== JSON.stringify(want)) fails.push(what + ": got " + JSON.stringify(got) + ", want " + JSON.stringify(want));
  };
  // The moves of a view: a shift of the top count pieces, a placing.
  const shift = (text, from, count, to) => ({ text, kind: "shift", from, count, to: [to] });
  const place = (text, piece, ...to) => ({ text, kind: "place", piece, to });

  // Shifts of 1 to 3 pieces (Pogo): one and three both reach b1 from a1.
  let p = new Picker([shift("1a1-b1", "a1", 1, "b1"), shift("1a1-a2", "a1", 1, "a2"), shift("3a1-b1", "a1", 3, "b1"), shift("2a1-c1", "a1", 2, "c1")]);
  eq("counts sources", p.sources(), ["a1"]);
  eq("counts pick", p.click("a1"), "");
  eq("counts targets", p.targets().sort(), ["a2", "b1", "c1"]);
  eq("counts", p.counts(), [1, 2, 3]);
  eq("ambiguous destination", p.click("b1"), "");
  eq("counts reaching b1", p.counts(), [1, 3]);
  eq("count 3", p.chooseCount(3), "3a1-b1");
  p.click("a1");
  p.chooseCount(2);
  eq("targets of 2", p.targets(), ["c1"]);
  eq("move of 2", p.click("c1"), "2a1-c1");
  // Clicking the third piece from the top picks three pieces.
  p.click("a1", 3);
  eq("piece depth", p.count, 3);
  eq("targets of 3", p.targets(), ["b1"]);
  eq("unique move", p.click("b1"), "3a1-b1");
  p.click("a1");
  eq("unique destination", p.click("a2"), "1a1-a2");
  eq("empty square", p.click("c3"), "");
  eq("nothing picked", p.src, null);

  // Placing on two cells at once (Pisola): the second square plays.
  p = new Picker([place("a1+c1", "w", "a1", "c1"), place("a1+a3", "w", "a1", "a3"), place("c1+a3", "w", "c1", "a3")]);
  eq("placing", p.placing, true);
  p.click("a1");
  eq("partners", p.targets().sort(), ["a3", "c1"]);
  eq("previewed", p.marks().ghost, { piece: "w", cells: ["a1"] });
  eq("no pair yet", p.groupMove(), "");
  eq("a square that does not pair", p.click("b3"), "");
  p.click("a1");
  eq("unpicked", p.group, []);
  p.click("a3");
  eq("pair in any order", p.click("c1"), "c1+a3");
  eq("nothing picked after the pair", p.group, []);

  // Whole stacks (Pisola's moving).
  p = new Picker([shift("c3-c5", "c3", 2, "c5"), shift("c3-e3", "c3", 2, "e3"), shift("d4-d5", "d4", 1, "d5")]);
  p.click("c3");
  eq("stack targets", p.targets().sort(), ["c5", "e3"]);
  eq("one count", p.counts(), [2]);
  eq("stack move", p.click("e3"), "c3-e3");

  // Placing one piece from the reserve, shifting a piece and those above
  // it, passing (Diam): cell 3 holds two pieces.
  p = new Picker([place("r@1", "r", "1"), place("r@2", "r", "2"), place("y@1", "y", "1"), shift("3:1+", "3", 2, "4"), shift("3:1-", "3", 2, "2"), shift("3:2+", "3", 1, "4")]);
  eq("reserve", p.reservePieces(), ["r", "y"]);
  p.pickPiece("r");
  eq("drop targets", p.targets(), ["1", "2"]);
  eq("drop", p.click("2"), "r@2");
  p.click("3", 2);
  eq("shift targets", p.targets().sort(), ["2", "4"]);
  eq("shift", p.click("2"), "3:1-");
  p.click("3", 1);
  eq("upper piece", p.targets(), ["4"]);
  eq("upper shift", p.click("4", 0), "3:2+");
  p.click("3");
  eq("a cell's counts", p.counts(), [1, 2]);

  // One piece to place (four-player Diam, tic-tac-toe): a click on a cell
  // places it.
  p = new Picker([place("r@1", "r", "1"), place("r@2", "r", "2"), shift("3:1+", "3", 1, "4")]);
  eq("sole piece targets", p.targets(), ["1", "2"]);
  eq("sole piece", p.click("2"), "r@2");
  eq("sole piece beside a source", p.click("3"), "");
  eq("source picked", p.src, "3");
  eq("no pass", p.canPass, false);
  eq("pass", new Picker([{ text: "pass", kind: "pass" }]).canPass, true);
  return fails;
})()`

// wireChecks returns a script that compares, for positions along random
// games of every game, the moves and cells wire.js spells out of the view
// of GET /api/view with those the server's Go code spells out (the moves'
// texts, kinds, cells and counts). It returns what went wrong.
func wireChecks(t *testing.T) string {
	type want struct {
		Spec, Position string
		Moves, Cells   []string
	}
	var cases []want
	for _, spec := range []string{"pogo", "pogo(u=false)", "pisola", "pisola(size=8,roofs=true)", "diam", "diam(drop=any)", "diam(players=4,teams=true)"} {
		g, err := games.Load(spec)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(1, 2))
		st := g.Start()
		for ply := 0; ply < 80 && !st.Terminal(); ply++ {
			if ply%7 == 0 || ply == 32 || ply == 33 {
				v := view.Of(st, false, nil)
				w := want{Spec: spec, Position: st.String()}
				for _, m := range v.List() {
					w.Moves = append(w.Moves, fmt.Sprintf("%s %s %s %s %d %v", m.Text, m.Kind, m.Piece, m.From, m.Count, m.To))
				}
				for _, c := range v.Board.Cells() {
					w.Cells = append(w.Cells, fmt.Sprintf("%s%s %v %v", c.Name, c.Stack, c.Marks, c.Levels))
				}
				slices.Sort(w.Moves)
				cases = append(cases, w)
			}
			legal := st.Legal(nil)
			st.Apply(legal[r.IntN(len(legal))])
		}
	}
	data, _ := json.Marshal(cases)
	return `(async () => {
  const { view } = await import("/api.js");
  const cases = ` + string(data) + `;
  const fails = [];
  // Go's %v of the same lists.
  const list = (xs) => "[" + (xs || []).join(" ") + "]";
  for (const c of cases) {
    const v = await view(c.Spec, c.Position);
    const moves = v.moves.map((m) => [m.text, m.kind, m.piece || "", m.from || "", String(m.count || 0), list(m.to)].join(" ").replace(/ +/g, " ")).sort();
    const want = (c.Moves || []).map((m) => m.replace(/ +/g, " ")).sort();
    if (JSON.stringify(moves) !== JSON.stringify(want)) fails.push(c.Spec + " " + c.Position + ": moves " + JSON.stringify(moves).slice(0, 300) + ", want " + JSON.stringify(want).slice(0, 300));
    const cells = v.board.cells.map((x) => [x.name + x.stack, list(x.marks), list(x.levels)].join(" "));
    if (JSON.stringify(cells) !== JSON.stringify(c.Cells)) fails.push(c.Spec + " " + c.Position + ": cells " + JSON.stringify(cells).slice(0, 300) + ", want " + JSON.stringify(c.Cells).slice(0, 300));
  }
  return fails;
})()`
}

// boardChecks draws board views with render.js — views of known positions
// of every game from GET /api/view, and made-up views of a 4x4 grid and a
// ring of six with a colour no game uses — and compares each drawing with
// its view. It returns what went wrong.
const boardChecks = `(async () => {
  const { render } = await import("/render.js");
  const { view } = await import("/api.js");
  const fails = [];
  const check = (what, v, marks = {}) => {
    const svg = render(v, { pos: what, ...marks });
    const box = document.createElement("div");
    box.style.width = "min(100%, 560px)";
    box.className = "board-box";
    box.append(svg);
    document.querySelector("main").append(box);
    const b = v.board;
    const width = svg.getBoundingClientRect().width;
    if (width < 100 || width > window.innerWidth) fails.push(what + ": drawn " + width + " px wide in a " + window.innerWidth + " px window");
    if (svg.dataset.topology !== b.topology) fails.push(what + ": topology " + svg.dataset.topology);
    const cells = svg.querySelectorAll("[data-testid^=sq-], [data-testid^=cell-]");
    if (cells.length !== b.cells.length) fails.push(what + ": " + cells.length + " cells drawn, want " + b.cells.length);
    for (const c of b.cells) {
      const g = svg.querySelector("[data-testid=" + (b.topology === "grid" ? "sq-" : "cell-") + c.name + "]");
      if (!g) {
        fails.push(what + ": no cell " + c.name);
        continue;
      }
      if (g.dataset.height !== String(c.stack.length)) fails.push(what + ": " + c.name + " drawn " + g.dataset.height + " high, want " + c.stack.length);
      // The pieces bottom to top, by colour name.
      const names = [...g.querySelectorAll("[data-depth]")]
        .sort((x, y) => Number(y.dataset.depth) - Number(x.dataset.depth))
        .map((e) => e.dataset.colour);
      const want = [...c.stack].map((l) => b.pieces.find((p) => p.letter === l).name);
      if (JSON.stringify(names) !== JSON.stringify(want)) fails.push(what + ": " + c.name + " holds " + names + ", want " + want);
      const marks = c.marks || [];
      if (marks.includes("locked") !== (g.dataset.locked === "true") && b.topology === "grid") fails.push(what + ": " + c.name + " lock drawn " + g.dataset.locked);
      if (marks.includes("roofed") !== Boolean(g.querySelector(".roof"))) fails.push(what + ": " + c.name + " roof drawn wrong");
      if (marks.includes("locked") && !marks.includes("roofed") && !g.querySelector(".lock-cross")) fails.push(what + ": " + c.name + " has no cross");
      const lit = g.querySelectorAll(".highlighted").length;
      if (lit !== (c.levels || []).length) fails.push(what + ": " + c.name + " has " + lit + " highlighted pieces, want " + (c.levels || []).length);
    }
    for (const name of marks.last || v.last || []) {
      const g = svg.querySelector("[data-sq='" + name + "']");
      if (!g || !g.querySelector(".sq-last, .cell-last")) fails.push(what + ": last move's " + name + " not shown");
    }
    return svg;
  };
  const known = [
    ["pogo", "", ""],
    ["pogo", "-,bww,-/-,wbbw,-/bbw,-,bw b", ""],
    ["pisola", "-,-,-,-,-,-/-,-,-,-,-,-/-,-,b,-,-,-/-,w,-,-,b,-/-,-,-,-,-,-/w,-,-,-,-,- w", "c1+e1"],
    ["pisola", "b,-,-,bwbw,-,b/wbbb,-,-,-,-,w/-,-,-,wbwb*,wb,-/w,-,wb,b,ww,-/w,b,-,-,-,-/-,bw,-,bww,-,bbwwbw* w", "d6-d2"],
    ["pisola(roofs=true)", "b,-,-,bwbw,-,b/wbbb,-,-,-,-,w/-,-,-,wbwb^,wb,-/w,-,wb,b,ww,-/w,b,-,-,-,-/-,bw,-,bww,-,bbwwbw^ w", ""],
    ["pisola(size=8)", "", ""],
    ["diam", "g/rb/yg/-/b/r/y/- 1", "2:1+"],
    ["diam", "gr/-/y/-/br/g/-/- 2", ""],
    ["diam(players=4)", "", "r@5"],
  ];
  for (const [spec, pos, move] of known) {
    try {
      check(spec + " " + pos + " " + move, await view(spec, pos, move));
    } catch (err) {
      fails.push(spec + " " + pos + ": " + err.message);
    }
  }
  // Made-up views: what a new game's server-side view would send.
  const purple = [{ letter: "p", name: "purple", player: 0 }, { letter: "o", name: "orange", player: 1 }];
  const grid = { topology: "grid", size: 4, height: 0, toMove: 0, pieces: purple, reserves: [], counts: [], cells: [] };
  for (let i = 0; i < 16; i++) grid.cells.push({ name: "abcd"[i % 4] + (1 + Math.floor(i / 4)), stack: ["", "p", "po", "ppoo"][i % 4], marks: i === 3 ? ["locked"] : undefined });
  const svg = check("4x4 grid", { board: grid, moves: [], last: ["a1", "d4"] });
  if (svg.querySelectorAll("[data-colour=purple]").length !== 16) fails.push("4x4 grid: purple pieces not drawn");
  const ring = { topology: "ring", size: 6, height: 3, toMove: 0, pieces: purple, reserves: [], counts: [], cells: [] };
  for (let i = 0; i < 6; i++) ring.cells.push({ name: String(i + 1), stack: i % 3 === 0 ? "op" : "p", marks: i % 3 === 0 ? ["highlighted"] : undefined, levels: i % 3 === 0 ? [2] : undefined });
  const rsvg = check("ring of six", { board: ring, moves: [], last: ["2"] });
  if (rsvg.querySelectorAll("[data-testid=highlight-line]").length !== 1) fails.push("ring of six: the highlighted pair is not joined");
  // A topology render.js does not know is said, not drawn as a grid.
  const hex = { topology: "hex", size: 3, height: 0, toMove: 0, pieces: purple, reserves: [], counts: [], cells: [{ name: "a1", stack: "p" }] };
  const usvg = render({ board: hex, moves: [], last: [] }, { pos: "hex" });
  document.querySelector("main").append(usvg);
  if (usvg.dataset.topology !== "unknown") fails.push("hex: drawn as " + usvg.dataset.topology);
  if (usvg.querySelector("[data-sq]")) fails.push("hex: cells drawn");
  const said = usvg.querySelector("[data-testid=unknown-topology]");
  if (!said || !said.textContent.includes("hex") || usvg.getAttribute("aria-label") !== said.textContent) fails.push("hex: the drawing does not say it cannot draw the board");
  return fails;
})()`

// transportChecks checks transport.js in the page: the delays between
// attempts to reconnect, the queue of messages sent before the socket
// opens (the oldest dropped first), and a reconnection after the socket
// drops. It returns what went wrong.
const transportChecks = `(async () => {
  const { Socket, backoff } = await import("/transport.js");
  const fails = [];
  for (const [n, want] of [[0, 300], [1, 600], [4, 4800], [5, 5000], [12, 5000]]) {
    if (backoff(n) !== want) fails.push("backoff(" + n + ") = " + backoff(n) + ", want " + want);
  }
  const lazy = new Socket({ path: "/ws/lobby", lazy: true, queue: 2 });
  if (lazy.ws) fails.push("a lazy socket connected before its first message");
  for (const i of [1, 2, 3]) lazy.send({ type: "note", i });
  if (JSON.stringify(lazy.pending.map((m) => m.i)) !== "[2,3]") fails.push("queue of 2 holds " + JSON.stringify(lazy.pending));
  lazy.close();
  if (lazy.send({ type: "note" })) fails.push("a closed socket accepted a message");
  const none = new Socket({ path: "/ws/lobby", lazy: true });
  if (none.send({ type: "note" })) fails.push("a socket without a queue accepted a message before it opened");
  none.close();
  const seen = [];
  const waitFor = (what) => new Promise((resolve, reject) => {
    const start = Date.now();
    const poll = () => (seen.includes(what) ? resolve() : Date.now() - start > 10000 ? reject(new Error("no " + what + " in " + seen)) : setTimeout(poll, 20));
    poll();
  });
  const live = new Socket({ path: "/ws/lobby" }, { status: (s) => seen.push(s) });
  try {
    await waitFor("connected");
    seen.length = 0;
    live.ws.close(); // as if the network dropped it
    await waitFor("reconnecting");
    await waitFor("connected");
  } catch (err) {
    fails.push("reconnecting: " + err.message);
  }
  live.close();
  return fails;
})()`

// skipShort skips the subtests that add coverage beyond the main paths
// under -short.
func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipped")
	}
}

// get fetches a URL and returns its body.
func get(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s: %s", url, res.Status, body)
	}
	return string(body)
}

// mustElo returns the measured rating of a level of a game.
func mustElo(t *testing.T, spec, level string) int {
	t.Helper()
	g, err := games.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	elo, ok := ai.Elo(g, level)
	if !ok {
		t.Fatalf("no rating for %s %s", spec, level)
	}
	return elo
}
