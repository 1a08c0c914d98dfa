package web_test

import (
	"fmt"
	"math"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"stax/ai"
	"stax/ai/aitest"
	"stax/games"
	"stax/puzzle"
	"stax/rating"
	"stax/server"
	"stax/server/puzzles"
	"stax/server/store/sqlite"
	"stax/web"
)

// digits removes the separators of thousands from a text in English.
func digits(s string) string { return strings.ReplaceAll(s, ",", "") }

// TestBrowserPuzzles: on a phone-sized screen, a player signs up, solves
// a puzzle of each game by clicking the board (the server answering each
// right move), then fails a Pogo puzzle on purpose and is shown the
// refutation from the solved table (when this machine has it); after each
// attempt the page shows the puzzle rating rating.Update gives, and the
// history lists the attempts. A guest plays without a rating.
func TestBrowserPuzzles(t *testing.T) {
	skipShort(t)
	needChromium(t)
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "stax.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.Config{Store: st, Games: games.All(), Assets: web.FS(), Now: (&fakeClock{t: time.Now().UTC()}).Now,
		PasswordParams: server.PasswordParams{Time: 1, Memory: 64, Threads: 1}}
	// The refutation of a wrong Pogo move comes from the solved table:
	// without it the page only says the move is wrong.
	tables := ai.NewTables(ai.TablesConfig{Dir: aitest.Dir(t)})
	t.Cleanup(tables.Close)
	exact := false
	if _, err := tables.Table(true); err == nil {
		cfg.Analyst, exact = ai.Config{Tables: tables}, true
	} else {
		t.Logf("no solved Pogo table (%v): the refutation is not checked", err)
	}
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		srv.Close()
		hs.Close()
		st.Close()
	})
	b := newBrowserAt(t, hs.URL)
	ctx := b.person(t, 150*time.Second)
	do(t, ctx, "a phone-sized screen", chromedp.EmulateViewport(390, 844))
	signUp(t, b, ctx, "puzzler")

	builtin, err := puzzle.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	pick := func(spec string, skip int) puzzle.Puzzle {
		for _, p := range builtin {
			if p.Spec == spec && (len(p.Solution) >= 3 || spec == "pisola") {
				if skip == 0 {
					return p
				}
				skip--
			}
		}
		t.Fatalf("no puzzle of %s", spec)
		return puzzle.Puzzle{}
	}
	// The player's rating as the test expects it, from rating.Update
	// after each attempt (the server's clock stands still: no ageing).
	player := rating.New()
	attempt := func(p puzzle.Puzzle, score float64) {
		t.Helper()
		pz := rating.Rating{Rating: float64(p.Rating), Deviation: puzzles.StartDeviation, Volatility: rating.DefaultVolatility}
		want, err := rating.Update(player, []rating.Result{{Opponent: pz, Score: score}}, rating.DefaultTau)
		if err != nil {
			t.Fatal(err)
		}
		wantPuzzle, err := rating.Update(pz, []rating.Result{{Opponent: player, Score: 1 - score}}, rating.DefaultTau)
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, "the rating change", `document.querySelector('[data-testid=rating-change]') !== null`)
		got := func(attr string) float64 {
			v, err := strconv.ParseFloat(eval[string](t, ctx, `document.querySelector('[data-testid=rating-change]').dataset.`+attr), 64)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		for _, c := range []struct {
			attr string
			want float64
		}{{"before", player.Rating}, {"after", want.Rating}, {"puzzleBefore", pz.Rating}, {"puzzleAfter", wantPuzzle.Rating}} {
			if g := got(c.attr); math.Abs(g-c.want) > 1e-6 {
				t.Errorf("puzzle %s: %s %v; want %v (rating.Update)", p.ID, c.attr, g, c.want)
			}
		}
		text := digits(eval[string](t, ctx, `document.querySelector('[data-testid=rating-change]').textContent`))
		if !strings.Contains(text, fmt.Sprint(math.Round(want.Rating))) {
			t.Errorf("the page says %q; want the new rating %.0f", text, want.Rating)
		}
		player = want
	}
	open := func(p puzzle.Puzzle) {
		t.Helper()
		do(t, ctx, "opening puzzle "+p.ID, chromedp.Navigate(b.base+"/puzzles/"+p.ID))
		waitFor(t, ctx, "puzzle "+p.ID+" to play", `document.querySelector('[data-testid=puzzle][data-state=play][data-puzzle="`+p.ID+`"]') !== null`)
		if note := digits(eval[string](t, ctx, `document.querySelector('[data-testid=puzzle-rating]').textContent`)); !strings.Contains(note, fmt.Sprint(math.Round(player.Rating))) {
			t.Errorf("the rating note %q does not give the rating %.0f", note, player.Rating)
		}
	}

	for _, spec := range []string{"pogo", "diam", "pisola"} {
		t.Run("solve-"+spec, func(t *testing.T) {
			p := pick(spec, 0)
			open(p)
			shot(t, ctx, "puzzle-"+spec)
			for ply := 0; ply < len(p.Solution); ply += 2 {
				waitFor(t, ctx, "the player's move", `document.querySelector('[data-testid=puzzle][data-state=play]') !== null`)
				clickMove(t, ctx, spec, p.Solution[ply])
				if ply+1 < len(p.Solution) {
					waitFor(t, ctx, "the reply "+p.Solution[ply+1], fmt.Sprintf(`document.querySelectorAll('[data-testid=puzzle-move]').length === %d && document.querySelector('[data-testid=puzzle][data-state=play]') !== null`, ply+2))
					if got := eval[string](t, ctx, `[...document.querySelectorAll('[data-testid=puzzle-move]')].pop().textContent`); got != p.Solution[ply+1] {
						t.Fatalf("the reply shown is %q; want %q", got, p.Solution[ply+1])
					}
				}
			}
			waitFor(t, ctx, "the puzzle solved", `document.querySelector('[data-testid=puzzle][data-state=solved]') !== null && document.querySelector('[data-testid=puzzle-solved]') !== null`)
			attempt(p, 1)
			shot(t, ctx, "puzzle-"+spec+"-solved")
		})
	}

	t.Run("fail-pogo", func(t *testing.T) {
		p := pick("pogo", 1)
		open(p)
		var wrong string
		for _, m := range legal(t, ctx) {
			if m != p.Solution[0] {
				wrong = m
				break
			}
		}
		clickMove(t, ctx, "pogo", wrong)
		waitFor(t, ctx, "the move judged wrong", `document.querySelector('[data-testid=puzzle][data-state=failed]') !== null && document.querySelector('[data-testid=puzzle-wrong]') !== null`)
		attempt(p, 0)
		if sol := eval[string](t, ctx, `document.querySelector('[data-testid=puzzle-solution]').textContent`); !strings.Contains(sol, strings.Join(p.Solution, " ")) {
			t.Errorf("the solution shown: %q; want %s", sol, strings.Join(p.Solution, " "))
		}
		if exact {
			waitFor(t, ctx, "the refutation", `document.querySelector('[data-testid=puzzle-refutation]') !== null`)
			score := eval[string](t, ctx, `document.querySelector('[data-testid=puzzle-refutation]').dataset.score`)
			line := eval[string](t, ctx, `document.querySelector('[data-testid=puzzle-refutation]').dataset.line`)
			// The puzzle's move is the only win: a wrong one lets the
			// opponent win or draw (save-the-draw: win).
			if !(strings.HasPrefix(score, "win ") || score == "draw") || line == "" {
				t.Errorf("the refutation: score %q, line %q; want the opponent's win or draw and its line", score, line)
			}
		}
		shot(t, ctx, "puzzle-failed")
		// Trying again is not rated.
		click(t, ctx, "puzzle-retry")
		waitFor(t, ctx, "the puzzle again", `document.querySelector('[data-testid=puzzle][data-state=play]') !== null`)
		if note := eval[string](t, ctx, `document.querySelector('[data-testid=puzzle-rating]').textContent`); strings.Contains(note, "is rated") {
			t.Errorf("a retry says %q", note)
		}
	})

	t.Run("history", func(t *testing.T) {
		do(t, ctx, "opening the history", chromedp.Navigate(b.base+"/puzzles/history"))
		waitFor(t, ctx, "four attempts", `document.querySelectorAll('[data-testid=history-attempt]').length === 4`)
		if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=history-attempt][data-solved=true][data-rated=true]').length`); n != 3 {
			t.Errorf("%d rated attempts solved; want 3", n)
		}
		if r, err := strconv.ParseFloat(eval[string](t, ctx, `document.querySelector('[data-testid=history-rating]').dataset.rating`), 64); err != nil || math.Abs(r-player.Rating) > 1e-6 {
			t.Errorf("the history's rating %v (%v); want %v", r, err, player.Rating)
		}
		shot(t, ctx, "puzzle-history")
		// The profile shows the puzzle rating too.
		do(t, ctx, "opening the profile", chromedp.Navigate(b.base+"/@/puzzler"))
		waitFor(t, ctx, "the puzzle rating on the profile", `document.querySelector('[data-testid=rating-value-puzzles]') !== null`)
		if r, err := strconv.ParseFloat(eval[string](t, ctx, `document.querySelector('[data-testid=rating-value-puzzles]').dataset.rating`), 64); err != nil || math.Abs(r-player.Rating) > 1e-6 {
			t.Errorf("the profile's puzzle rating %v (%v); want %v", r, err, player.Rating)
		}
		if s := eval[string](t, ctx, `document.querySelector('[data-testid=rating-puzzles]').textContent`); !strings.Contains(s, "4 rated puzzles") {
			t.Errorf("the profile's puzzle rating reads %q; want 4 rated puzzles", s)
		}
	})

	t.Run("streak", func(t *testing.T) {
		byID := map[string]puzzle.Puzzle{}
		for _, p := range builtin {
			byID[p.ID] = p
		}
		do(t, ctx, "opening a streak", chromedp.Navigate(b.base+"/puzzles/streak?game=pogo"))
		for step := 0; step < 2; step++ {
			waitFor(t, ctx, "a puzzle of the streak", `document.querySelector('[data-testid=puzzle][data-state=play]') !== null`)
			p := byID[eval[string](t, ctx, `document.querySelector('[data-testid=puzzle]').dataset.puzzle`)]
			if step == 1 {
				// A mistake ends the streak.
				var wrong string
				for _, m := range legal(t, ctx) {
					if m != p.Solution[0] {
						wrong = m
						break
					}
				}
				clickMove(t, ctx, "pogo", wrong)
				waitFor(t, ctx, "the streak's end", `document.querySelector('[data-testid=streak-over]') !== null`)
				break
			}
			for ply := 0; ply < len(p.Solution); ply += 2 {
				waitFor(t, ctx, "the player's move", `document.querySelector('[data-testid=puzzle][data-state=play]') !== null`)
				clickMove(t, ctx, "pogo", p.Solution[ply])
			}
			waitFor(t, ctx, "the streak's first puzzle solved", `document.querySelector('[data-testid=puzzle][data-state=solved]') !== null`)
			if s := eval[string](t, ctx, `document.querySelector('[data-testid=streak-score]').textContent`); !strings.Contains(s, "1 solved") {
				t.Errorf("the streak's score reads %q", s)
			}
			if eval[bool](t, ctx, `document.querySelector('[data-testid=rating-change]') !== null`) {
				t.Error("a streak's puzzle changed the rating")
			}
			click(t, ctx, "puzzle-continue")
		}
		shot(t, ctx, "puzzle-streak-over")
	})

	t.Run("choose", func(t *testing.T) {
		do(t, ctx, "opening the next puzzle", chromedp.Navigate(b.base+"/puzzles"))
		waitFor(t, ctx, "a puzzle", `document.querySelector('[data-testid=puzzle][data-state=play]') !== null`)
		eval[chromedp.Void](t, ctx, `(e => { e.value = 'diam'; e.dispatchEvent(new Event('change')); })(document.querySelector('[data-testid=puzzle-game]'))`)
		eval[chromedp.Void](t, ctx, `(e => { e.value = 'diam-in-1'; e.dispatchEvent(new Event('change')); })(document.querySelector('[data-testid=puzzle-theme]'))`)
		waitFor(t, ctx, "a diam in 1", `document.querySelector('[data-testid=puzzle][data-state=play]') !== null && document.querySelector('[data-testid=puzzle-about]').textContent.includes('diam in 1') && location.search === '?game=diam&theme=diam-in-1'`)
		shot(t, ctx, "puzzle-choose")
	})

	t.Run("guest", func(t *testing.T) {
		guest := b.person(t, 40*time.Second)
		do(t, guest, "opening the daily puzzle", chromedp.Navigate(b.base+"/puzzles/daily"))
		waitFor(t, guest, "the daily puzzle", `document.querySelector('[data-testid=puzzle][data-state=play]') !== null`)
		click(t, guest, "puzzle-hint")
		waitFor(t, guest, "the hint", `document.querySelector('[data-testid=puzzle-hint-text]') !== null && document.querySelector('.hinted') !== null`)
		if eval[bool](t, guest, `document.querySelector('[data-testid=rating-change]') !== null`) {
			t.Error("a guest's hint changed a rating")
		}
	})
	b.checkNoExceptions(t)
}
