package web_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"stax/game"
	"stax/server/account"
	"stax/server/lessons"
	"stax/server/lobby"
	"stax/server/play"
	"stax/server/puzzles"
	"stax/web"
)

// catalog reads the words of one language, i18n/<lang>.js: a module whose
// default export is a JSON object.
func catalog(t *testing.T, lang string) map[string]string {
	t.Helper()
	src, err := fs.ReadFile(web.FS(), "i18n/"+lang+".js")
	if err != nil {
		t.Fatal(err)
	}
	body, ok := strings.CutPrefix(strings.TrimSpace(string(src)), "export default ")
	if !ok {
		t.Fatalf("i18n/%s.js does not start with export default", lang)
	}
	var words map[string]string
	if err := json.Unmarshal([]byte(strings.TrimSuffix(body, ";")), &words); err != nil {
		t.Fatalf("i18n/%s.js: %v", lang, err)
	}
	return words
}

var placeholderRE = regexp.MustCompile(`\{\w+\}`)

// placeholders returns the {names} of a text, sorted.
func placeholders(s string) string {
	p := placeholderRE.FindAllString(s, -1)
	sort.Strings(p)
	return strings.Join(p, " ")
}

// TestTranslations checks that every language has every key of English,
// with the same placeholders, and that every key the modules use exists.
func TestTranslations(t *testing.T) {
	en := catalog(t, "en")
	for _, lang := range []string{"fr", "es"} {
		words := catalog(t, lang)
		for k, v := range en {
			w, ok := words[k]
			switch {
			case !ok:
				t.Errorf("i18n/%s.js lacks %q (English: %q)", lang, k, v)
			case strings.TrimSpace(w) == "":
				t.Errorf("i18n/%s.js: %q is empty", lang, k)
			case placeholders(w) != placeholders(v):
				t.Errorf("i18n/%s.js: %q has placeholders %q, English %q", lang, k, placeholders(w), placeholders(v))
			}
		}
		for k := range words {
			if _, ok := en[k]; !ok {
				t.Errorf("i18n/%s.js has %q, which English lacks", lang, k)
			}
		}
	}
	// Every key written in the modules exists.
	keyRE := regexp.MustCompile(`"((?:nav|notfound|home|recent|moves|rules|game|result|reason|error|controls|picker|extras|lobby|bots|profile|account|board|settings|analysis|offline|puzzles|lessons)\.[A-Za-z_.]*[A-Za-z_])"`)
	for _, name := range modules(t) {
		if strings.HasPrefix(name, "i18n/") {
			continue
		}
		src, err := fs.ReadFile(web.FS(), name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range keyRE.FindAllStringSubmatch(string(src), -1) {
			if _, ok := en[m[1]]; !ok {
				t.Errorf("%s uses the key %q, which i18n/en.js lacks", name, m[1])
			}
		}
	}
	// The keys made from the server's words: reasons and error codes.
	for r := game.ByRules; r.String() != "" && !strings.HasPrefix(r.String(), "Reason("); r++ {
		if _, ok := en["reason."+r.String()]; !ok {
			t.Errorf("i18n/en.js lacks the reason %q", r)
		}
	}
	for _, r := range lobby.DeclineReasons {
		if _, ok := en["lobby.declineReason."+r]; !ok && r != lobby.DeclineGeneric {
			t.Errorf("i18n/en.js lacks the reason a challenge was declined for %q", r)
		}
	}
	for _, code := range []string{play.CodeBadToken, play.CodeBadMessage, play.CodeNotYourSeat, play.CodeNotYourTurn, play.CodeIllegalMove, play.CodeStale, play.CodeGameOver, play.CodeServer, play.CodeFlagged, play.CodeRateLimited,
		account.CodeBadName, account.CodeWeakPassword, account.CodeNameTaken, account.CodeWrongLogin, account.CodeWrongPassword, lobby.CodeSelfChallenge, lobby.CodeOwnSeek, lobby.CodeNoRatedBots, lobby.CodeBotsNotPaired, lobby.CodeBadReason,
		account.CodeInvalidToken, account.CodeMissingScope, account.CodeTokenRefused, account.CodeBotAccount, account.CodeBadTokenRequest, account.CodeAlreadyBot, account.CodePlayedGames,
		puzzles.CodeNoPuzzle, puzzles.CodeBadLine, puzzles.CodeIllegalMove, puzzles.CodeNoPlayer, lessons.CodeNoLesson, lessons.CodeBadStep, lessons.CodeIllegalMove} {
		if _, ok := en["error."+code]; !ok {
			t.Errorf("i18n/en.js lacks the error code %q", code)
		}
	}
}

// gameTextChecks compares the words of every game module across languages
// and returns what is missing.
const gameTextChecks = `(async () => {
  const { GAMES } = await import("/games/index.js");
  const { LANGUAGES } = await import("/i18n.js");
  const fails = [];
  for (const g of GAMES) {
    const en = (g.text || {}).en || {};
    for (const { code } of LANGUAGES) {
      const words = (g.text || {})[code];
      if (!words) {
        fails.push(g.name + " has no words in " + code);
        continue;
      }
      for (const k of Object.keys(en)) if (!words[k]) fails.push(g.name + " lacks " + k + " in " + code);
      for (const k of Object.keys(words)) if (!(k in en)) fails.push(g.name + " has " + k + " in " + code + " but not in English");
    }
  }
  return fails;
})()`

// languages checks the interface in French and Spanish: chosen with the
// switch and remembered, or taken from Accept-Language.
func languages(t *testing.T, b *browser) {
	t.Run("game-words", func(t *testing.T) {
		ctx := b.person(t, 20*time.Second)
		do(t, ctx, "opening the rules", chromedp.Navigate(b.base+"/rules/pogo"), chromedp.WaitVisible(tid("rules-pogo")))
		for _, f := range awaitEval[[]string](t, ctx, gameTextChecks) {
			t.Error(f)
		}
	})

	t.Run("french-by-switch", func(t *testing.T) {
		ctx := b.person(t, 40*time.Second)
		do(t, ctx, "opening the home page", chromedp.Navigate(b.base+"/"), chromedp.WaitVisible(tid("lang-switch")))
		eval[chromedp.Void](t, ctx, `(e => { e.value = 'fr'; e.dispatchEvent(new Event('change')); })(document.querySelector('[data-testid=lang-switch]'))`)
		waitFor(t, ctx, "the French home page", `document.querySelector('main h1').textContent === 'Jouer à un jeu d’empilement'`)
		waitFor(t, ctx, "the options in French", `document.querySelector('#opt-u') !== null && document.querySelector('label[for=opt-u]').textContent.includes('Coup en U')`)
		do(t, ctx, "opening the rules", chromedp.Navigate(b.base+"/rules/pisola"), chromedp.WaitVisible(tid("rules-pisola")))
		if h := eval[string](t, ctx, `document.querySelector('main h1').textContent`); h != "Pisola : les règles" {
			t.Errorf("the rules' heading reads %q after a reload", h)
		}
		if text := eval[string](t, ctx, `document.querySelector('[data-testid=rules-pisola]').textContent`); !strings.Contains(text, "piles") || !strings.Contains(text, "pions") {
			t.Errorf("the French rules do not speak of piles and pions: %.200q", text)
		}
		startGame(t, ctx, b.base, "pogo", "you", "you")
		waitMyTurn(t, ctx)
		if s := eval[string](t, ctx, `document.querySelector('[data-testid=status]').textContent`); !strings.Contains(s, "Blanc au trait (vous)") {
			t.Errorf("the status reads %q", s)
		}
		if r := eval[string](t, ctx, `document.querySelector('[data-testid=resign]').textContent`); r != "Abandonner" {
			t.Errorf("the resign button reads %q", r)
		}
		shot(t, ctx, "french")
		// French plurals: 0 and 1 are singular, by Intl.PluralRules.
		plurals := awaitEval[[]string](t, ctx, `(async () => {
		  const { t } = await import("/i18n.js");
		  return [0, 1, 2, 1.5].map((n) => t("moves.count", { n }));
		})()`)
		if want := []string{"0 coup", "1 coup", "2 coups", "1.5 coup"}; strings.Join(plurals, "|") != strings.Join(want, "|") {
			t.Errorf("French counts read %q, want %q", plurals, want)
		}
	})

	t.Run("spanish-by-accept-language", func(t *testing.T) {
		ctx := b.person(t, 30*time.Second)
		do(t, ctx, "asking for Spanish",
			chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
					return err
				}
				_, err := cdp.Call(ctx, tg, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": "es-ES,es;q=0.9,en;q=0.5"}})
				return err
			}),
			chromedp.Navigate(b.base+"/rules/diam"),
			chromedp.WaitVisible(tid("rules-diam")),
		)
		if h := eval[string](t, ctx, `document.querySelector('main h1').textContent`); h != "Diam: las reglas" {
			t.Errorf("the rules' heading reads %q", h)
		}
		if text := eval[string](t, ctx, `document.querySelector('[data-testid=rules-diam]').textContent`); !strings.Contains(text, "El Diam se juega") {
			t.Errorf("the rules are not in Spanish: %.200q", text)
		}
		if n := eval[string](t, ctx, `document.querySelector('header nav').textContent`); !strings.Contains(n, "Nueva partida") {
			t.Errorf("the header reads %q", n)
		}
		do(t, ctx, "opening the recent games", chromedp.Navigate(b.base+"/games"), chromedp.WaitVisible(chromedp.CSS("main h1")))
		if h := eval[string](t, ctx, `document.querySelector('main h1').textContent`); h != "Partidas recientes" {
			t.Errorf("the recent games' heading reads %q", h)
		}
	})
}

// visibleEnglish finds the string literals a module shows to people
// without going through the words of i18n/: a text child of the DOM
// helper h(tag, attrs, "…"), a textContent, a document title, a
// placeholder, an aria-label or a title attribute given as a literal, and
// template literals whose fixed part has words. A literal counts when it
// holds a word (two letters or more) and is neither a key nor a path.
var visibleEnglish = []*regexp.Regexp{
	regexp.MustCompile(`\}\s*,\s*("[^"\n]*"|` + "`[^`\\n]*`" + `)\s*[,)]`),
	regexp.MustCompile(`\)\s*,\s*("[^"\n]*"|` + "`[^`\\n]*`" + `)\s*[,)]`),
	regexp.MustCompile(`(?:textContent|document\.title)\s*=\s*("[^"\n]*"|` + "`[^`\\n]*`" + `)`),
	regexp.MustCompile(`(?:placeholder|"aria-label"|title|alt)\s*:\s*("[^"\n]*"|` + "`[^`\\n]*`" + `)`),
}

// visibleAllowed are literals with letters that are no words of a
// language: the site's name, units and symbols written the same everywhere.
// The units of Intl.RelativeTimeFormat are names, not words.
var visibleAllowed = map[string]bool{"stax": true, " – stax": true, "second": true, "minute": true, "hour": true}

var templateExpr = regexp.MustCompile(`\$\{[^}]*\}`)
var letter = regexp.MustCompile(`\p{L}{2,}`)

// keyLike matches a key of i18n/ ("lobby.seek"), which a page may pass on.
var keyLike = regexp.MustCompile(`^[a-z]+(\.[A-Za-z_]+)+$`)

// TestNoHardCodedEnglish checks that the pages and the modules they use
// show no English written into the code: every word a visitor reads comes
// from i18n/<lang>.js (or, for a game's own words, its module's text), so a
// page cannot fall back to English in French or Spanish unnoticed.
func TestNoHardCodedEnglish(t *testing.T) {
	for _, name := range modules(t) {
		if strings.HasPrefix(name, "i18n/") || strings.HasPrefix(name, "games/") {
			continue
		}
		src, err := fs.ReadFile(web.FS(), name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			trimmed := strings.TrimSpace(line)
			if strings.HasPrefix(trimmed, "//") || strings.HasPrefix(trimmed, "import ") {
				continue
			}
			for _, re := range visibleEnglish {
				for _, m := range re.FindAllStringSubmatch(line, -1) {
					for _, lit := range m[1:] {
						body := lit[1 : len(lit)-1]
						if visibleAllowed[body] || keyLike.MatchString(body) || strings.HasPrefix(body, "/") || !letter.MatchString(templateExpr.ReplaceAllString(body, "")) {
							continue
						}
						t.Errorf("%s:%d shows %s to people without a key of i18n/en.js", name, i+1, lit)
					}
				}
			}
		}
	}
}

// rawError matches what shows an error in the words it came with rather
// than the catalogue's: reading an error's message (the server's English
// words, or a JavaScript exception's) and turning an error into text.
var rawError = []*regexp.Regexp{
	regexp.MustCompile(`\.message\b`),
	// An outcome's description is the server's English words too: it is
	// written by describeOutcome.
	regexp.MustCompile(`outcome\.description\b`),
	regexp.MustCompile(`String\(\s*(?:err|error|ex)\b`),
	regexp.MustCompile(`\$\{\s*(?:e|err|error|ex)\s*\}`),
}

// literalRE matches the quoted string literals of a line of JavaScript
// (template literals are kept: their ${…} parts are code).
var literalRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`)

// rawErrors returns the rawError patterns a line of code matches outside
// its string literals and comments.
func rawErrors(line string) []string {
	code := literalRE.ReplaceAllString(line, `""`)
	if i := strings.Index(code, "//"); i >= 0 {
		code = code[:i]
	}
	var out []string
	for _, re := range rawError {
		if m := re.FindString(code); m != "" {
			out = append(out, m)
		}
	}
	return out
}

// TestNoRawErrors checks that every error a visitor reads comes from a code
// and the catalogue (errorWords in i18n.js), never from an error's own
// message: the server's messages are English and written for programs,
// and an exception's are the browser's. So does the end of a game
// (describeOutcome in outcome.js), never the outcome's English
// description.
func TestNoRawErrors(t *testing.T) {
	for _, tc := range []struct {
		line string
		raw  bool
	}{
		{`status.textContent = err.message;`, true},
		{`box.append(h("p", {}, String(err)));`, true},
		{`values[o.key] = String(e.checked);`, false},
		{`err.textContent = e.message;`, true},
		{"showError(`${err}`);", true},
		{`controls.error.textContent = errorWords(m, { bad_message: "analysis.badPosition" });`, false},
		{`h("input", { "aria-label": t("extras.message") })`, false},
		{`// the server's words stay in err.message`, false},
		{`h("span", {}, g.outcome ? g.outcome.description : "")`, true},
		{`h("strong", {}, tok.description || t("account.tokenNoDescription"))`, false},
	} {
		if got := len(rawErrors(tc.line)) > 0; got != tc.raw {
			t.Errorf("rawErrors(%q) = %v, want raw %v", tc.line, rawErrors(tc.line), tc.raw)
		}
	}
	for _, name := range modules(t) {
		if strings.HasPrefix(name, "i18n/") {
			continue
		}
		src, err := fs.ReadFile(web.FS(), name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			for _, m := range rawErrors(line) {
				t.Errorf("%s:%d shows the words an error or an outcome came with (%s): use errorWords or describeOutcome and a key of i18n/en.js", name, i+1, m)
			}
		}
	}
}
