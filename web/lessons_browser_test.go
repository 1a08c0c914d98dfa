package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"stax/games"
	"stax/server/lessons"
)

// lessonSolution returns a move meeting the goal of a step of a built-in
// lesson, found by the rules (as the lessons' own test proves one exists).
func lessonSolution(t *testing.T, lessonID, stepID string) string {
	t.Helper()
	for _, l := range lessons.Builtin() {
		if l.ID != lessonID {
			continue
		}
		for _, s := range l.Steps {
			if s.ID != stepID {
				continue
			}
			spec := s.Spec
			if spec == "" {
				spec = l.Spec
			}
			g, err := games.All().Load(spec)
			if err != nil {
				t.Fatal(err)
			}
			st, err := g.ParseState(s.Position)
			if err != nil {
				t.Fatal(err)
			}
			if sol := lessons.Solutions(st, s.Goal); len(sol) > 0 {
				return sol[0]
			}
			t.Fatalf("lesson %s, step %s: no solution", lessonID, stepID)
		}
	}
	t.Fatalf("no step %s of lesson %s", stepID, lessonID)
	return ""
}

// lessonState waits until the lesson page is in state (play, done,
// missed, complete) and returns the step shown.
func lessonState(t *testing.T, ctx context.Context, state string) string {
	t.Helper()
	waitFor(t, ctx, "the lesson in state "+state, fmt.Sprintf(`(e => e !== null && e.dataset.state === %q)(document.querySelector('[data-testid=lesson]'))`, state))
	return eval[string](t, ctx, `document.querySelector('[data-testid=lesson]').dataset.step || ""`)
}

// gameModuleWords is, per language, the words the game modules hold
// (their rules, options and lessons), read in the page.
const gameModuleWords = `(async () => {
  const { GAMES } = await import("/games/index.js");
  const out = { en: [], fr: [], es: [] };
  for (const g of GAMES) for (const lang of Object.keys(out)) out[lang].push(...Object.values((g.text || {})[lang] || {}));
  return JSON.stringify(out);
})()`

// englishOnlyWithGames is englishOnly with the game modules' words too
// (their rules, options and lessons): the English words that neither the
// catalogue of lang nor the games' words in lang use.
func englishOnlyWithGames(t *testing.T, ctx context.Context, lang string) map[string]bool {
	t.Helper()
	var mods map[string][]string
	if err := json.Unmarshal([]byte(awaitEval[string](t, ctx, gameModuleWords)), &mods); err != nil {
		t.Fatal(err)
	}
	words := func(texts []string) map[string]bool {
		out := map[string]bool{}
		for _, v := range texts {
			for _, w := range wordRE.FindAllString(placeholderRE.ReplaceAllString(v, " "), -1) {
				out[strings.ToLower(w)] = true
			}
		}
		return out
	}
	var catalogue []string
	for _, v := range catalog(t, lang) {
		catalogue = append(catalogue, v)
	}
	theirs := words(append(catalogue, mods[lang]...))
	out := englishOnly(t, lang)
	for w := range words(mods["en"]) {
		if !walkAllowed[w] {
			out[w] = true
		}
	}
	// A word the texts of lang use is a word of lang too ("but", the aim,
	// in French).
	for w := range theirs {
		delete(out, w)
	}
	return out
}

// checkNoEnglish fails on any word of english the page shows (walkText).
func checkNoEnglish(t *testing.T, ctx context.Context, english map[string]bool, where string) {
	t.Helper()
	text := eval[string](t, ctx, walkText)
	found := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		for _, w := range wordRE.FindAllString(specOption.ReplaceAllString(line, " "), -1) {
			if english[strings.ToLower(w)] {
				if _, ok := found[w]; !ok {
					found[w] = strings.TrimSpace(line)
				}
			}
		}
	}
	var ws []string
	for w := range found {
		ws = append(ws, w)
	}
	sort.Strings(ws)
	for _, w := range ws {
		t.Errorf("%s: English %q in %q", where, w, found[w])
	}
}

// playLesson plays every step of the lesson shown, each with a move
// meeting its goal, checking the English-free page at each state; with
// wrong set, the first step is first tried with that move, which must be
// refused with the missed conditions' codes. It stops at the lesson's
// end.
func playLesson(t *testing.T, ctx context.Context, game, lessonID string, wrong string, codes []string, english map[string]bool) {
	t.Helper()
	waitFor(t, ctx, "lesson "+lessonID, fmt.Sprintf(`(e => e !== null && e.dataset.lesson === %q)(document.querySelector('[data-testid=lesson]'))`, lessonID))
	for n := 0; ; n++ {
		step := lessonState(t, ctx, "play")
		if english != nil {
			checkNoEnglish(t, ctx, english, lessonID+"/"+step)
		}
		if n == 0 && wrong != "" {
			clickMove(t, ctx, game, wrong)
			lessonState(t, ctx, "missed")
			got := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-testid=lesson-misses] li')].map((e) => e.dataset.code)`)
			if strings.Join(got, " ") != strings.Join(codes, " ") {
				t.Errorf("%s/%s: %s missed %v, want %v", lessonID, step, wrong, got, codes)
			}
			if english != nil {
				checkNoEnglish(t, ctx, english, lessonID+"/"+step+" missed")
			}
			shot(t, ctx, "lesson-"+lessonID+"-missed")
			click(t, ctx, "lesson-retry")
			lessonState(t, ctx, "play")
		}
		clickMove(t, ctx, game, lessonSolution(t, lessonID, step))
		lessonState(t, ctx, "done")
		click(t, ctx, "lesson-next")
		if eval[bool](t, ctx, `document.querySelector('[data-testid=lesson]').dataset.state === 'complete'`) {
			break
		}
	}
	lessonState(t, ctx, "complete")
	if english != nil {
		checkNoEnglish(t, ctx, english, lessonID+" complete")
	}
}

// TestBrowserLessons: a new visitor, in French, goes from the home page to
// the lessons, completes the basics of each game by clicking the board (a
// wrong move refused first, with what it missed in French), then Pogo's
// lesson of the U move, and starts a first game against the beginner
// computer. Every lesson page, in French and in Spanish, shows no English.
func TestBrowserLessons(t *testing.T) {
	needChromium(t)
	base := startServer(t, games.All())
	b := newBrowserAt(t, base)
	defer b.checkNoExceptions(t)
	ctx := b.person(t, 4*time.Minute)
	do(t, ctx, "opening the site", chromedp.Navigate(base+"/"), chromedp.WaitVisible(tid("home-learn")))
	eval[chromedp.Void](t, ctx, `localStorage.setItem("stax.lang", "fr")`)
	do(t, ctx, "opening the home page in French", chromedp.Navigate(base+"/"), chromedp.WaitVisible(tid("home-learn")))
	english := englishOnlyWithGames(t, ctx, "fr")
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=home-learn]').textContent`); got != "Apprendre à jouer" {
		t.Errorf("the home page's link reads %q", got)
	}
	click(t, ctx, "home-learn")
	waitFor(t, ctx, "the lessons", `document.querySelector('[data-testid=lesson-pogo]') !== null && document.querySelector('[data-testid=lesson-diam-teams]') !== null`)
	checkNoEnglish(t, ctx, english, "/learn")

	for _, tc := range []struct {
		game, lesson, title, wrong string
		codes                      []string
	}{
		{"pogo", "pogo", "Pogo : les bases", "2a1-c1", []string{lessons.MissCount}},
		{"pisola", "pisola", "Pisola : les bases", "", nil},
		{"diam", "diam", "Diam : les bases", "r@2", []string{lessons.MissTo}},
	} {
		do(t, ctx, "back to the lessons", chromedp.Navigate(base+"/learn"), chromedp.WaitVisible(tid("lesson-"+tc.lesson)))
		click(t, ctx, "lesson-"+tc.lesson)
		lessonState(t, ctx, "play")
		if h := eval[string](t, ctx, `document.querySelector('[data-testid=lesson-title]').textContent`); h != tc.title {
			t.Errorf("the lesson's title reads %q, want %q", h, tc.title)
		}
		if g := eval[string](t, ctx, `document.querySelector('[data-testid=lesson-goal]').textContent`); !strings.HasPrefix(g, "Objectif : ") {
			t.Errorf("the goal reads %q", g)
		}
		playLesson(t, ctx, tc.game, tc.lesson, tc.wrong, tc.codes, english)
		shot(t, ctx, "lesson-"+tc.lesson)
	}
	// The wrong move's conditions in French.
	do(t, ctx, "Pogo's third step", chromedp.Navigate(base+"/learn/pogo?step=3"))
	lessonState(t, ctx, "play")
	clickMove(t, ctx, "pogo", "1b1-b2")
	lessonState(t, ctx, "missed")
	if m := eval[string](t, ctx, `document.querySelector('[data-testid=lesson-misses]').textContent`); m != "après lui vos pions coiffent 3 piles ; l’objectif en demande 4." {
		t.Errorf("the missed goal reads %q", m)
	}

	// Pogo's next lesson, then a first game against the beginner.
	do(t, ctx, "Pogo's basics", chromedp.Navigate(base+"/learn/pogo?step=4"))
	playLesson(t, ctx, "pogo", "pogo", "", nil, nil)
	click(t, ctx, "lesson-next-lesson")
	playLesson(t, ctx, "pogo", "pogo-u", "", nil, english)
	if eval[bool](t, ctx, `document.querySelector('[data-testid=lesson-next-lesson]') !== null`) {
		t.Error("the last lesson of Pogo offers a next lesson")
	}
	click(t, ctx, "lesson-play")
	waitFor(t, ctx, "the game page", `/^\/game\/[a-z0-9]+$/.test(location.pathname) && document.querySelector('[data-testid=board]') !== null`)
	id := strings.TrimPrefix(eval[string](t, ctx, `location.pathname`), "/game/")
	var g struct {
		Spec  string `json:"spec"`
		Seats []struct {
			Kind  string `json:"kind"`
			Level string `json:"level"`
		} `json:"seats"`
	}
	if err := json.Unmarshal([]byte(awaitEval[string](t, ctx, `fetch("/api/games/`+id+`").then((r) => r.text())`)), &g); err != nil {
		t.Fatal(err)
	}
	if g.Spec != "pogo" || len(g.Seats) != 2 || g.Seats[0].Kind != "human" || g.Seats[1].Kind != "ai" || g.Seats[1].Level != lessons.PlayLevel {
		t.Errorf("the first game: %+v", g)
	}
	waitMyTurn(t, ctx)

	// Every step of every lesson, in French and in Spanish, shows no
	// English, the variants' lessons included; on a phone-sized screen.
	do(t, ctx, "a phone-sized screen", chromedp.EmulateViewport(390, 844))
	for _, lang := range []string{"fr", "es"} {
		eval[chromedp.Void](t, ctx, fmt.Sprintf(`localStorage.setItem("stax.lang", %q)`, lang))
		do(t, ctx, "the lessons in "+lang, chromedp.Navigate(base+"/learn"), chromedp.WaitVisible(tid("lesson-pogo")))
		english = englishOnlyWithGames(t, ctx, lang)
		checkNoEnglish(t, ctx, english, lang+" /learn")
		for _, l := range lessons.Builtin() {
			for i := range l.Steps {
				do(t, ctx, "a step in "+lang, chromedp.Navigate(fmt.Sprintf("%s/learn/%s?step=%d", base, l.ID, i+1)))
				step := lessonState(t, ctx, "play")
				checkNoEnglish(t, ctx, english, lang+" "+l.ID+"/"+step)
				if i == 0 {
					shot(t, ctx, "lesson-"+lang+"-"+l.ID)
				}
			}
		}
	}
}
