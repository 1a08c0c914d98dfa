package web_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"stax/ai"
	"stax/games"
	"stax/server"
	"stax/server/store/sqlite"
	"stax/web"
)

// startAccountServer runs the real server with accounts and analysis on
// the SQLite database at db (a new one when db is ""), with cheap password
// hashing, and returns its base URL. Several servers on one database are
// instances of one site.
func startAccountServer(t *testing.T, db string) string {
	t.Helper()
	if db == "" {
		db = filepath.Join(t.TempDir(), "stax.db")
	}
	st, err := sqlite.Open(db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	levels := ai.Config{Tables: ai.NewTables(ai.TablesConfig{Dir: t.TempDir()})}
	srv, err := server.New(server.Config{
		Store: st, Games: games.All(), Assets: web.FS(),
		NewPlayer: levels.New, Levels: levels.Levels, LevelReady: levels.Ready, LevelElo: ai.Elo,
		Analyst: levels, AnalysisWorkers: 1, AnalysisTime: time.Second,
		PasswordParams: server.PasswordParams{Time: 1, Memory: 64, Threads: 1},
		AIDelay:        50 * time.Millisecond,
	})
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
	return hs.URL
}

// signUpAPI creates an account from the tab, through the API, so that the
// tab's browser context holds its session.
func signUpAPI(t *testing.T, ctx context.Context, base, name string) {
	t.Helper()
	do(t, ctx, "opening the site", chromedp.Navigate(base+"/signup"), chromedp.WaitVisible(tid("acct-name")))
	status := awaitEval[int](t, ctx, fmt.Sprintf(`fetch("/api/signup", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({name: %q, password: "correct horse " + %q})}).then(r => r.status)`, name, name))
	if status != 201 && status != 200 {
		t.Fatalf("signing %s up: status %d", name, status)
	}
}

// apiCall sends a JSON request from the tab and returns the answer's
// status and body.
func apiCall(t *testing.T, ctx context.Context, method, path, body string) (int, string) {
	t.Helper()
	out := awaitEval[[]any](t, ctx, fmt.Sprintf(`fetch(%q, {method: %q, headers: {"Content-Type": "application/json"}, body: %s}).then(async r => [r.status, await r.text()])`, path, method, cmpOr(body, "undefined")))
	return int(out[0].(float64)), out[1].(string)
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// onScreen lists the parts of a game page that must be on a phone's
// screen without scrolling, by data-testid, and returns those that are
// not: missing, hidden, empty or outside the viewport. The page must not
// have been scrolled either.
func offScreen(t *testing.T, ctx context.Context, ids []string) []string {
	t.Helper()
	js := fmt.Sprintf(`(() => {
  const bad = [];
  if (window.scrollY !== 0) bad.push("the page is scrolled by " + window.scrollY + " px");
  for (const id of %s) {
    const e = document.querySelector('[data-testid="' + id + '"]');
    if (!e) { bad.push(id + ": missing"); continue; }
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) { bad.push(id + ": not shown"); continue; }
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) bad.push(id + ": at " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(",") + " in " + innerWidth + "x" + innerHeight);
  }
  return bad;
})()`, jsList(ids))
	return eval[[]string](t, ctx, js)
}

func jsList(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return "[" + strings.Join(q, ",") + "]"
}

// phonePlies is how many plies a phone's game is played at most, when it
// does not end before.
const phonePlies = 40

// TestBrowserPhoneGames plays a rated 3+2 game of each two-player game
// between two accounts on phones of 390x844 (and Pogo on 360x640), to its
// end or for phonePlies plies, with moves drawn from the legal ones, and a
// four-player Diam game against the computer on both sizes, checking with
// bounding boxes at every move that the board, both players' names,
// ratings and clocks, whose turn it is, the move controls and the offer of
// a draw and resignation are on the screen without scrolling.
func TestBrowserPhoneGames(t *testing.T) {
	skipShort(t)
	needChromium(t)
	base := startAccountServer(t, "")
	b := newBrowserAt(t, base)
	defer b.checkNoExceptions(t)
	ann := b.person(t, 8*time.Minute)
	bob := b.person(t, 8*time.Minute)
	signUpAPI(t, ann, base, "ann")
	signUpAPI(t, bob, base, "bob")

	cases := []struct {
		game, spec    string
		width, height int64
	}{
		{"pogo", "pogo", 390, 844},
		{"pisola", "pisola", 390, 844},
		{"diam", "diam", 390, 844},
		{"pogo", "pogo", 360, 640},
	}
	for n, c := range cases {
		name := fmt.Sprintf("%s-%dx%d", c.game, c.width, c.height)
		t.Run(name, func(t *testing.T) {
			for _, ctx := range []context.Context{ann, bob} {
				do(t, ctx, "a phone's screen", chromedp.EmulateViewport(c.width, c.height))
			}
			code, body := apiCall(t, ann, "POST", "/api/seeks", fmt.Sprintf(`JSON.stringify({spec: %q, rated: true, seat: 0, clock: {initial: 180, increment: 2}})`, c.spec))
			if code != 201 {
				t.Fatalf("ann's seek: %d %s", code, body)
			}
			id := between(body, `"id":"`, `"`)
			code, body = apiCall(t, bob, "POST", "/api/seeks/"+id+"/accept", "'{}'")
			if code != 201 {
				t.Fatalf("bob accepts: %d %s", code, body)
			}
			gameID := between(body, `"game":"`, `"`)
			for _, ctx := range []context.Context{ann, bob} {
				do(t, ctx, "opening the game", chromedp.Navigate(base+"/game/"+gameID), chromedp.WaitVisible(tid("board-box")))
				waitRatings(t, ctx)
				waitFor(t, ctx, "the clocks", `document.querySelector('[data-testid=clock-0] .time') !== null && document.querySelector('[data-testid=clock-0] .time').textContent !== ""`)
			}
			strips := []string{"board-box", "strip-name-0", "strip-name-1", "strip-rating-0", "strip-rating-1", "clock-0", "clock-1"}
			must := append(slices.Clone(strips), "status", "controls", "offer-draw", "resign")
			players := []context.Context{ann, bob}
			rng := rand.New(rand.NewPCG(uint64(n), 26))
			ply := 0
			for ; ply < phonePlies && !finished(t, ann); ply++ {
				p := players[ply%2]
				waitMyTurn(t, p)
				for i, ctx := range players {
					if bad := offScreen(t, ctx, must); len(bad) > 0 {
						t.Fatalf("%s, ply %d, player %d: off the screen: %s", name, ply, i, strings.Join(bad, "; "))
					}
				}
				if !eval[bool](t, p, `document.querySelector('[data-testid=strip-`+fmt.Sprint(ply%2)+`]').classList.contains('to-move')`) {
					t.Fatalf("ply %d: the strip of the player to move is not marked", ply)
				}
				shot(t, p, fmt.Sprintf("phone-%s-%d", name, ply))
				moves := legal(t, p)
				mv := moves[rng.IntN(len(moves))]
				t.Logf("ply %d: %s", ply, mv)
				clickMove(t, p, c.game, mv)
				for _, ctx := range players {
					waitFor(t, ctx, fmt.Sprintf("move %d or the end", ply+1), fmt.Sprintf(`document.querySelectorAll('[data-testid=moves] button.move').length >= %d || document.querySelector('[data-testid=result]:not([hidden])') !== null`, ply+1))
				}
			}
			resigned := !finished(t, ann)
			if resigned {
				do(t, ann, "ann resigns", chromedp.Click(tid("resign"), chromedp.NodeVisible), chromedp.Click(tid("resign-confirm"), chromedp.NodeVisible))
			}
			t.Logf("%s: %d plies, then %s", name, ply, map[bool]string{true: "ann resigned", false: "the game's end"}[resigned])
			// After a rated game each strip shows what it changed, on the
			// screen with the board and the result.
			for i, ctx := range players {
				waitFor(t, ctx, "the rating changes", `/^\d+\??\s[+−]\d+$/.test(document.querySelector('[data-testid=strip-rating-0]')?.textContent) && /^\d+\??\s[+−]\d+$/.test(document.querySelector('[data-testid=strip-rating-1]')?.textContent)`)
				if bad := offScreen(t, ctx, strips); len(bad) > 0 {
					t.Fatalf("%s, the end, player %d: off the screen: %s", name, i, strings.Join(bad, "; "))
				}
			}
			if got := eval[string](t, bob, `document.querySelector('[data-testid=strip-rating-1]').textContent`); resigned && !strings.Contains(got, "+") {
				t.Fatalf("bob won and his strip shows %q; want a gain", got)
			}
		})
	}

	for n, vp := range [][2]int64{{390, 844}, {360, 640}} {
		t.Run(fmt.Sprintf("diam4-%dx%d", vp[0], vp[1]), func(t *testing.T) {
			if !offers("diam") {
				t.Skip("no diam")
			}
			ctx := b.tab(t, 4*time.Minute)
			do(t, ctx, "a phone's screen", chromedp.EmulateViewport(vp[0], vp[1]))
			startVariant(t, ctx, base, "diam", [][2]string{{"players", "4"}}, "diam(players=4)", "you", "ai:random", "ai:random", "ai:random")
			must := []string{"board-box", "strip-name-0", "strip-name-1", "strip-name-2", "strip-name-3", "status", "controls"}
			rng := rand.New(rand.NewPCG(uint64(n), 4))
			i := 0
			for ; i < phonePlies/4 && !finished(t, ctx); i++ {
				waitMyTurn(t, ctx)
				if bad := offScreen(t, ctx, must); len(bad) > 0 {
					t.Fatalf("move %d: off the screen: %s", i, strings.Join(bad, "; "))
				}
				shot(t, ctx, fmt.Sprintf("phone-diam4-%dx%d-%d", vp[0], vp[1], i))
				before := plies(t, ctx)
				moves := legal(t, ctx)
				clickMove(t, ctx, "diam", moves[rng.IntN(len(moves))])
				waitFor(t, ctx, "the computers' replies or the end", fmt.Sprintf(`document.querySelectorAll('[data-testid=moves] button.move').length >= %d || document.querySelector('[data-testid=result]:not([hidden])') !== null`, before+4))
			}
			t.Logf("diam4: %d of the player's moves, finished: %v", i, finished(t, ctx))
			if bad := offScreen(t, ctx, must[:5]); len(bad) > 0 {
				t.Fatalf("the last position: off the screen: %s", strings.Join(bad, "; "))
			}
		})
	}
}

// waitRatings waits until a game page between accounts shows both
// players' ratings, the last thing it draws once opened: a board clicked
// before may be drawn again under the click.
func waitRatings(t *testing.T, ctx context.Context) {
	t.Helper()
	waitFor(t, ctx, "the ratings", `/^\d+\??$/.test(document.querySelector('[data-testid=strip-rating-0]')?.textContent) && /^\d+\??$/.test(document.querySelector('[data-testid=strip-rating-1]')?.textContent)`)
}

// between returns the text of s between the first before and the next
// after.
func between(s, before, after string) string {
	i := strings.Index(s, before)
	if i < 0 {
		return ""
	}
	s = s[i+len(before):]
	if j := strings.Index(s, after); j >= 0 {
		return s[:j]
	}
	return s
}

// TestBrowserQuickPairing: two players on two instances of one site (two
// servers sharing one database), on phones, pick the same game and preset
// in the lobby's quick pairing; the first waits, the second is paired with
// her, and both pages go to the one rated game with the preset's clock.
func TestBrowserQuickPairing(t *testing.T) {
	skipShort(t)
	needChromium(t)
	db := filepath.Join(t.TempDir(), "stax.db")
	base1 := startAccountServer(t, db)
	base2 := startAccountServer(t, db)
	b := newBrowserAt(t, base1)
	defer b.checkNoExceptions(t)
	ann := b.person(t, 90*time.Second)
	bob := b.person(t, 90*time.Second)
	signUpAPI(t, ann, base1, "ann")
	signUpAPI(t, bob, base2, "bob")
	for _, p := range []struct {
		ctx  context.Context
		base string
	}{{ann, base1}, {bob, base2}} {
		do(t, p.ctx, "the lobby on a phone", chromedp.EmulateViewport(390, 844), chromedp.Navigate(p.base+"/"), chromedp.WaitVisible(tid("quick-3+2")))
		waitFor(t, p.ctx, "the rated games", `document.querySelector('[data-testid=quick-spec] option[value=pisola]') !== null`)
		if bad := offScreen(t, p.ctx, []string{"quick-spec", "quick-1+0", "quick-15+10", "quick-7d"}); len(bad) > 0 {
			t.Fatalf("quick pairing off the screen: %s", strings.Join(bad, "; "))
		}
		do(t, p.ctx, "choosing pisola", chromedp.SetValue(tid("quick-spec"), "pisola"))
	}
	click(t, ann, "quick-3+2")
	waitFor(t, ann, "ann's wait", `document.querySelector('[data-testid=quick-status]').textContent !== "" && !document.querySelector('[data-testid=quick-cancel]').hidden`)
	shot(t, ann, "quick-waiting")
	click(t, bob, "quick-3+2")
	var games []string
	for _, ctx := range []context.Context{ann, bob} {
		waitFor(t, ctx, "the game", `/^\/game\/[a-z0-9]+$/.test(location.pathname) && document.querySelector('[data-testid=clock-1] .time') !== null`)
		games = append(games, eval[string](t, ctx, `location.pathname`))
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=clock-0] .time').textContent`); got != "3:00" {
			t.Errorf("the clock shows %q; want 3:00", got)
		}
	}
	if games[0] != games[1] {
		t.Fatalf("ann is in %s and bob in %s; want one game", games[0], games[1])
	}
	for _, ctx := range []context.Context{ann, bob} {
		waitFor(t, ctx, "both names", `[0, 1].map(i => document.querySelector('[data-testid=strip-name-' + i + ']')?.textContent).sort().join() === "ann,bob"`)
	}
}

// TestBrowserNotifications: a challenge, made with the "Challenge" button
// of her profile, arrives while Ann is on her profile page, and a game of Bob's starts while he is on the recent games
// page: each sees a toast, the count on the header's bell and in the tab's
// title, and the bell's list, which clears the count.
func TestBrowserNotifications(t *testing.T) {
	skipShort(t)
	needChromium(t)
	base := startAccountServer(t, "")
	b := newBrowserAt(t, base)
	defer b.checkNoExceptions(t)
	ann := b.person(t, 60*time.Second)
	bob := b.person(t, 60*time.Second)
	signUpAPI(t, ann, base, "ann")
	signUpAPI(t, bob, base, "bob")
	do(t, ann, "ann's profile", chromedp.Navigate(base+"/@/ann"), chromedp.WaitVisible(tid("bell")))
	do(t, bob, "the recent games", chromedp.EmulateViewport(390, 844), chromedp.Navigate(base+"/games"), chromedp.WaitVisible(tid("bell")))
	// The news connection opens once the page knows who is signed in.
	for _, ctx := range []context.Context{ann, bob} {
		waitFor(t, ctx, "the news connection", `document.querySelector('[data-testid=bell]').dataset.live === "true"`)
	}

	// Bob challenges Ann from her profile: the lobby's form opens with her
	// name.
	do(t, bob, "bob opens ann's profile", chromedp.Navigate(base+"/@/ann"), chromedp.Click(tid("challenge"), chromedp.NodeVisible), chromedp.WaitVisible(tid("seek-form")))
	if to := eval[string](t, bob, `document.querySelector('[data-testid=seek-to]').value`); to != "ann" {
		t.Fatalf("the challenge form is for %q; want ann", to)
	}
	waitFor(t, bob, "the rated variants", `document.querySelector('[data-testid=seek-spec] option[value=pogo]') !== null`)
	click(t, bob, "seek-submit")
	do(t, bob, "back to the recent games", chromedp.Navigate(base+"/games"), chromedp.WaitVisible(tid("bell")))
	waitFor(t, bob, "bob's news connection", `document.querySelector('[data-testid=bell]').dataset.live === "true"`)
	waitFor(t, ann, "the toast", `[...document.querySelectorAll('[data-testid=toast]')].some(e => e.textContent.includes("bob"))`)
	waitFor(t, ann, "the count", `document.querySelector('[data-testid=bell-count]').textContent === "1" && document.title.startsWith("(1) ")`)
	if p := eval[string](t, ann, `location.pathname`); p != "/@/ann" {
		t.Fatalf("ann is at %s; want her profile still", p)
	}
	click(t, ann, "bell")
	waitFor(t, ann, "the list, read", `!document.querySelector('[data-testid=notifications]').hidden && document.querySelector('[data-testid=notifications] a').textContent.includes("bob") && document.querySelector('[data-testid=bell-count]').hidden && !document.title.startsWith("(")`)
	shot(t, ann, "notifications-ann")

	code, body := apiCall(t, bob, "POST", "/api/seeks", `JSON.stringify({spec: "pisola", clock: {initial: 180, increment: 2}, rated: true})`)
	if code != 201 {
		t.Fatalf("bob's seek: %d %s", code, body)
	}
	code, body = apiCall(t, ann, "POST", "/api/seeks/"+between(body, `"id":"`, `"`)+"/accept", "'{}'")
	if code != 201 {
		t.Fatalf("ann accepts: %d %s", code, body)
	}
	game := between(body, `"game":"`, `"`)
	waitFor(t, bob, "the game's toast", `[...document.querySelectorAll('[data-testid=toast] a')].some(a => a.getAttribute('href') === "/game/`+game+`" && a.textContent.includes("ann"))`)
	if bad := offScreen(t, bob, []string{"bell", "toasts"}); len(bad) > 0 {
		t.Fatalf("the news off a phone's screen: %s", strings.Join(bad, "; "))
	}
	shot(t, bob, "notifications-bob")
	do(t, bob, "bob opens the game from the toast", chromedp.Click(chromedp.CSS(`[data-testid=toast] a[href="/game/`+game+`"]`), chromedp.NodeVisible), chromedp.WaitVisible(tid("board-box")))
}

// TestBrowserFirstMoveInSight: on a laptop's screen (1280x800) and on
// phones, in every game, what the player can move or place first (Diam's
// reserve, the stacks of Pogo) is on the screen without
// scrolling and marked as such before anything is clicked, and so is
// Diam's hint to pick a piece first.
func TestBrowserFirstMoveInSight(t *testing.T) {
	skipShort(t)
	b := newBrowser(t)
	defer b.checkNoExceptions(t)
	cases := []struct {
		game, spec    string
		options       [][2]string
		marked        string // the selector of what is marked as movable
		width, height int64
	}{
		{"diam", "diam", nil, "[data-testid^=reserve-].movable", 1280, 800},
		{"diam", "diam(players=4)", [][2]string{{"players", "4"}}, "[data-testid^=reserve-].movable", 1280, 800},
		{"pogo", "pogo", nil, "[data-testid=board] .sq-source", 1280, 800},
		{"diam", "diam", nil, "[data-testid^=reserve-].movable", 360, 640},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s-%dx%d", c.spec, c.width, c.height), func(t *testing.T) {
			if !offers(c.game) {
				t.Skip("no " + c.game)
			}
			ctx := b.tab(t, 60*time.Second)
			do(t, ctx, "the screen", chromedp.EmulateViewport(c.width, c.height))
			seats := []string{"you", "ai:random"}
			if strings.Contains(c.spec, "players=4") {
				seats = []string{"you", "ai:random", "ai:random", "ai:random"}
			}
			startVariant(t, ctx, b.base, c.game, c.options, c.spec, seats...)
			waitMyTurn(t, ctx)
			eval[chromedp.Void](t, ctx, `window.scrollTo(0, 0)`)
			shot(t, ctx, fmt.Sprintf("first-%s-%dx%d", strings.NewReplacer("(", "-", ")", "", "=", "").Replace(c.spec), c.width, c.height))
			n := eval[int](t, ctx, `document.querySelectorAll(`+fmt.Sprintf("%q", c.marked)+`).length`)
			if n == 0 {
				t.Fatalf("nothing matches %s: what can be moved first is not marked", c.marked)
			}
			bad := eval[[]string](t, ctx, `[...document.querySelectorAll(`+fmt.Sprintf("%q", c.marked)+`)].map(e => e.getBoundingClientRect()).filter(r => r.top < 0 || r.bottom > innerHeight || r.width === 0).map(r => Math.round(r.top) + ".." + Math.round(r.bottom))`)
			if len(bad) > 0 {
				t.Fatalf("what can be moved first is off the %dx%d screen: %v", c.width, c.height, bad)
			}
			// Diam's hint to pick a piece first, when there is more than one
			// to choose from, is on the screen too.
			if c.game == "diam" && n > 1 {
				if eval[string](t, ctx, `document.querySelector('[data-testid=hint]').textContent`) == "" {
					t.Fatal("no hint to pick a piece first")
				}
				if bad := offScreen(t, ctx, []string{"hint", "board-box"}); len(bad) > 0 {
					t.Fatalf("off the %dx%d screen: %s", c.width, c.height, strings.Join(bad, "; "))
				}
			}
		})
	}
}

// TestBrowserKeyboardPlay plays Pisola from the keyboard: the arrow keys
// move the focus from square to square, Enter picks the squares of a
// placement, and the focus stays on the board through the computer's
// reply, ready for the next move.
func TestBrowserKeyboardPlay(t *testing.T) {
	skipShort(t)
	b := newBrowser(t)
	defer b.checkNoExceptions(t)
	ctx := b.tab(t, 60*time.Second)
	startGame(t, ctx, b.base, "pisola", "you", "ai:random")
	waitMyTurn(t, ctx)
	active := func() string {
		return eval[string](t, ctx, `document.activeElement.getAttribute('data-testid') || ''`)
	}
	press := func(key string) {
		t.Helper()
		do(t, ctx, "pressing a key", chromedp.KeyEvent(key))
	}
	eval[chromedp.Void](t, ctx, `document.querySelector('[data-testid=sq-a1]').focus()`)
	cursor := []struct{ key, want string }{
		{kb.ArrowRight, "sq-b1"},
		{kb.ArrowRight, "sq-c1"},
		{kb.ArrowUp, "sq-c2"},
		{kb.ArrowLeft, "sq-b2"},
		{kb.ArrowDown, "sq-b1"},
		{kb.ArrowLeft, "sq-a1"},
	}
	for _, c := range cursor {
		press(c.key)
		if got := active(); got != c.want {
			t.Fatalf("after an arrow the focus is on %q; want %q", got, c.want)
		}
	}
	if plies(t, ctx) != 0 {
		t.Fatal("the arrow keys played a move")
	}
	// A placement of two pieces, each square reached with the arrows from
	// the last and picked with Enter.
	var mv []string
	for _, m := range legal(t, ctx) {
		if p := regexp.MustCompile(`^([a-f][1-6])\+([a-f][1-6])$`).FindStringSubmatch(m); p != nil {
			mv = p
			break
		}
	}
	if mv == nil {
		t.Fatalf("no placement among %v", legal(t, ctx))
	}
	for _, sq := range mv[1:] {
		for i := 0; i < 12 && active() != "sq-"+sq; i++ {
			cur := strings.TrimPrefix(active(), "sq-")
			switch {
			case cur[0] < sq[0]:
				press(kb.ArrowRight)
			case cur[0] > sq[0]:
				press(kb.ArrowLeft)
			case cur[1] < sq[1]:
				press(kb.ArrowUp)
			default:
				press(kb.ArrowDown)
			}
		}
		if got := active(); got != "sq-"+sq {
			t.Fatalf("the focus is on %q; want sq-%s", got, sq)
		}
		press(kb.Enter)
	}
	waitPlies(t, ctx, 2)
	waitMyTurn(t, ctx)
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=move-1]').textContent`); !strings.HasSuffix(got, mv[0]) {
		t.Fatalf("the first move is %q; want %s", got, mv[0])
	}
	if got := eval[string](t, ctx, `(e => e.closest('[data-testid=board-box]') ? (e.getAttribute('data-testid') || 'the board') : e.tagName)(document.activeElement)`); !strings.HasPrefix(got, "sq-") && got != "board-box" {
		t.Fatalf("after the move the focus is on %s; want it on the board", got)
	}
}

// TestBrowserGameNotifications: in a correspondence game, Bob's move and
// then his draw offer reach Ann on her profile page through the site-wide
// connection: a toast, the count on the bell and in the tab's title, and,
// with notifications allowed and the tab in the background, a
// notification of the browser; the toast opens the game, where the offer
// waits for her answer. In the lobby, a game that comes to wait for her
// move joins her list at once.
func TestBrowserGameNotifications(t *testing.T) {
	skipShort(t)
	needChromium(t)
	base := startAccountServer(t, "")
	b := newBrowserAt(t, base)
	defer b.checkNoExceptions(t)
	ann := b.person(t, 90*time.Second)
	bob := b.person(t, 90*time.Second)
	signUpAPI(t, ann, base, "ann")
	signUpAPI(t, bob, base, "bob")
	code, body := apiCall(t, bob, "POST", "/api/seeks", `JSON.stringify({spec: "pogo", rated: true, seat: 0, days: 3})`)
	if code != 201 {
		t.Fatalf("bob's seek: %d %s", code, body)
	}
	code, body = apiCall(t, ann, "POST", "/api/seeks/"+between(body, `"id":"`, `"`)+"/accept", "'{}'")
	if code != 201 {
		t.Fatalf("ann accepts: %d %s", code, body)
	}
	game := between(body, `"game":"`, `"`)

	do(t, ann, "ann's profile", chromedp.EmulateViewport(390, 844), chromedp.Navigate(base+"/@/ann"), chromedp.WaitVisible(tid("bell")))
	waitFor(t, ann, "the news connection", `document.querySelector('[data-testid=bell]').dataset.live === "true"`)
	// The browser's notifications, allowed, are recorded; the tab is in
	// the background.
	eval[bool](t, ann, `(() => {
  window.shown = [];
  window.Notification = class { constructor(title, o) { window.shown.push(o.body); } close() {} static get permission() { return "granted"; } static requestPermission() { return Promise.resolve("granted"); } };
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  return true;
})()`)

	do(t, bob, "bob's game", chromedp.Navigate(base+"/game/"+game), chromedp.WaitVisible(tid("board-box")))
	waitRatings(t, bob)
	waitMyTurn(t, bob)
	clickMove(t, bob, "pogo", legal(t, bob)[0])
	waitFor(t, ann, "the toast of bob's move", `[...document.querySelectorAll('[data-testid=toast] a')].some(a => a.getAttribute('href') === "/game/`+game+`" && a.textContent.includes("bob"))`)
	waitFor(t, ann, "the count", `document.querySelector('[data-testid=bell-count]').textContent === "1" && document.title.startsWith("(1) ")`)
	waitFor(t, ann, "the browser's notification", `window.shown.length === 1 && window.shown[0].includes("bob")`)
	if bad := offScreen(t, ann, []string{"bell", "toasts"}); len(bad) > 0 {
		t.Fatalf("the news off a phone's screen: %s", strings.Join(bad, "; "))
	}

	click(t, bob, "offer-draw")
	waitFor(t, ann, "the toast of the draw offer", `[...document.querySelectorAll('[data-testid=toast] a')].some(a => a.getAttribute('href') === "/game/`+game+`" && a.textContent.includes("draw"))`)
	waitFor(t, ann, "the count", `document.querySelector('[data-testid=bell-count]').textContent === "2" && document.title.startsWith("(2) ")`)
	waitFor(t, ann, "the browser's second notification", `window.shown.length === 2 && window.shown[1].includes("draw")`)
	shot(t, ann, "notifications-draw")
	do(t, ann, "ann opens the game from the toast", chromedp.Click(chromedp.CSS(`[data-testid=toast] a[href="/game/`+game+`"]`), chromedp.NodeVisible), chromedp.WaitVisible(tid("board-box")))
	waitFor(t, ann, "bob's offer", `document.querySelector('[data-testid=offer-news-draw]') !== null`)

	// Ann moves and goes to the lobby: when Bob has moved, the game is in
	// her list of games waiting for her move at once.
	waitRatings(t, ann)
	waitMyTurn(t, ann)
	clickMove(t, ann, "pogo", legal(t, ann)[0])
	waitPlies(t, ann, 2)
	do(t, ann, "ann's lobby", chromedp.Navigate(base+"/"), chromedp.WaitVisible(tid("my-turn")))
	waitFor(t, ann, "no game waiting", `document.querySelector('[data-testid=my-turn] a') === null && document.querySelector('[data-testid=my-turn] li') !== null`)
	waitMyTurn(t, bob)
	clickMove(t, bob, "pogo", legal(t, bob)[0])
	waitFor(t, ann, "the game waiting in the lobby", `document.querySelector('[data-testid=my-turn] a[href="/game/`+game+`"]') !== null`)
}
