package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"stax/server/account"
	"stax/server/assets"
)

// The page: index.html, served for every route of the interface, with a
// head made for the request: <html lang> in the visitor's language, the
// page's description in it, every asset named by its content-hashed URL,
// the import map sending the modules' plain URLs to their hashed ones and
// the module graph preloaded.

// pageKind sorts the interface's routes (app.js) into the pages that
// have a description of their own.
func pageKind(p string) string {
	p = strings.TrimSuffix(p, "/")
	switch {
	case p == "" || p == "/new":
		return "home"
	case strings.HasPrefix(p, "/game/"):
		return "game"
	case p == "/games" || p == "/me/games":
		return "games"
	case p == "/rules" || strings.HasPrefix(p, "/rules/"):
		return "rules"
	case p == "/analysis":
		return "analysis"
	case strings.HasPrefix(p, "/@/"):
		return "profile"
	case p == "/leaderboard" || strings.HasPrefix(p, "/leaderboard/"):
		return "leaderboard"
	case p == "/bots":
		return "bots"
	case p == "/puzzles" || strings.HasPrefix(p, "/puzzles/"):
		return "puzzles"
	case p == "/learn" || strings.HasPrefix(p, "/learn/"):
		return "learn"
	case p == "/offline" || p == "/bench":
		return "offline"
	case p == "/login" || p == "/signup" || p == "/account" || p == "/reset":
		return "account"
	}
	return "home"
}

// pageModule returns the module of the page a path names (the routes of
// app.js, which imports each page when it is first shown): the page
// preloads it with the rest of the module graph. "/" is the lobby for a
// signed-in player.
func pageModule(p string, guest bool) string {
	p = strings.TrimSuffix(p, "/")
	switch {
	case p == "":
		if guest {
			return "pages/home.js"
		}
		return "pages/lobby.js"
	case p == "/new":
		return "pages/home.js"
	case strings.HasPrefix(p, "/game/"):
		return "pages/game/page.js"
	case p == "/games":
		return "pages/recent.js"
	case p == "/rules" || strings.HasPrefix(p, "/rules/"):
		return "pages/rules.js"
	case p == "/analysis":
		return "pages/analysis.js"
	case strings.HasPrefix(p, "/@/") || p == "/me/games" || p == "/leaderboard" || strings.HasPrefix(p, "/leaderboard/"):
		return "pages/profile.js"
	case p == "/bots":
		return "pages/bots.js"
	case p == "/puzzles" || strings.HasPrefix(p, "/puzzles/"):
		return "pages/puzzles.js"
	case p == "/learn" || strings.HasPrefix(p, "/learn/"):
		return "pages/learn.js"
	case p == "/offline":
		return "offline/play.js"
	case p == "/bench":
		return "offline/bench.js"
	case p == "/login" || p == "/signup" || p == "/account":
		return "pages/signin.js"
	case p == "/reset":
		return "pages/reset.js"
	}
	return ""
}

// pageDescriptions are the pages' <meta name="description">, by kind and
// language (pageLanguages).
var pageDescriptions = map[string]map[string]string{
	"home": {
		"en": "Play Pogo, Pisola and Diam, three stacking abstract games, in the browser: against people or the computer, from beginner to perfect, online or offline.",
		"fr": "Jouez à Pogo, Pisola et Diam, trois jeux abstraits d'empilement, dans le navigateur : contre d'autres joueurs ou l'ordinateur, du débutant au parfait, en ligne ou hors ligne.",
		"es": "Juega a Pogo, Pisola y Diam, tres juegos abstractos de apilar, en el navegador: contra otras personas o el ordenador, de principiante a perfecto, con o sin conexión.",
	},
	"game": {
		"en": "A game of stax: play your move, watch, chat, or replay it move by move.",
		"fr": "Une partie de stax : jouez votre coup, regardez, discutez, ou rejouez-la coup par coup.",
		"es": "Una partida de stax: juega tu movimiento, mira, chatea o repítela jugada a jugada.",
	},
	"games": {
		"en": "The games just played on stax: watch the ones going on, replay the finished ones.",
		"fr": "Les parties jouées à l'instant sur stax : regardez celles en cours, rejouez celles terminées.",
		"es": "Las partidas recién jugadas en stax: mira las que están en curso, repite las terminadas.",
	},
	"rules": {
		"en": "The rules of Pogo, Pisola and Diam, the stacking games of stax, with diagrams.",
		"fr": "Les règles de Pogo, Pisola et Diam, les jeux d'empilement de stax, avec des schémas.",
		"es": "Las reglas de Pogo, Pisola y Diam, los juegos de apilar de stax, con diagramas.",
	},
	"analysis": {
		"en": "The analysis board of stax: set up a position of Pogo, Pisola or Diam, see the computer judge every move, review finished games.",
		"fr": "Le plateau d'analyse de stax : placez une position de Pogo, Pisola ou Diam, voyez l'ordinateur juger chaque coup, revoyez les parties terminées.",
		"es": "El tablero de análisis de stax: prepara una posición de Pogo, Pisola o Diam, mira cómo el ordenador juzga cada movimiento, revisa partidas terminadas.",
	},
	"profile": {
		"en": "A player of stax: ratings in Pogo, Pisola and Diam, their history and recent games.",
		"fr": "Un joueur de stax : classements à Pogo, Pisola et Diam, leur historique et ses dernières parties.",
		"es": "Un jugador de stax: puntuaciones en Pogo, Pisola y Diam, su historial y sus últimas partidas.",
	},
	"leaderboard": {
		"en": "The leaderboards of stax: the best-rated players of Pogo, Pisola and Diam.",
		"fr": "Les classements de stax : les joueurs les mieux classés à Pogo, Pisola et Diam.",
		"es": "Las clasificaciones de stax: los jugadores mejor puntuados en Pogo, Pisola y Diam.",
	},
	"bots": {
		"en": "The bots of stax: programs that play Pogo, Pisola and Diam through its API, rated like everyone; challenge one.",
		"fr": "Les bots de stax : des programmes qui jouent à Pogo, Pisola et Diam par son API, classés comme tout le monde ; défiez-en un.",
		"es": "Los bots de stax: programas que juegan a Pogo, Pisola y Diam a través de su API, puntuados como todos; desafía a uno.",
	},
	"puzzles": {
		"en": "Puzzles of Pogo, Pisola and Diam from real games: find the best move.",
		"fr": "Des problèmes de Pogo, Pisola et Diam tirés de vraies parties : trouvez le meilleur coup.",
		"es": "Problemas de Pogo, Pisola y Diam sacados de partidas reales: encuentra el mejor movimiento.",
	},
	"learn": {
		"en": "Lessons of Pogo, Pisola and Diam: learn the moves and the first ideas by playing them on the board.",
		"fr": "Des leçons de Pogo, Pisola et Diam : apprenez les coups et les premières idées en les jouant sur le plateau.",
		"es": "Lecciones de Pogo, Pisola y Diam: aprende los movimientos y las primeras ideas jugándolos en el tablero.",
	},
	"offline": {
		"en": "Play Pogo, Pisola and Diam against the computer in the browser, with no network.",
		"fr": "Jouez à Pogo, Pisola et Diam contre l'ordinateur dans le navigateur, sans réseau.",
		"es": "Juega a Pogo, Pisola y Diam contra el ordenador en el navegador, sin conexión.",
	},
	"account": {
		"en": "Sign in to stax to keep your games on every device, meet opponents in the lobby and earn a rating.",
		"fr": "Connectez-vous à stax pour garder vos parties sur tous vos appareils, trouver des adversaires dans le salon et obtenir un classement.",
		"es": "Inicia sesión en stax para guardar tus partidas en todos tus dispositivos, encontrar rivales en la sala y obtener una puntuación.",
	},
}

// pageDescription returns the description of a page kind in a language.
func pageDescription(kind, lang string) string {
	d := pageDescriptions[kind]
	if d == nil {
		d = pageDescriptions["home"]
	}
	if s, ok := d[lang]; ok {
		return s
	}
	return d[pageLanguages[0]]
}

// page is index.html made for a kind of page, a language and whether the
// visitor is known to be a guest.
type page struct {
	body []byte
	csp  string // the Content-Security-Policy allowing its import map
	tag  string // its ETag
	enc  assets.Encodings
}

// pages keeps the pages made from the current assets.
type pages struct {
	mu    sync.Mutex
	set   *assets.Set
	made  map[string]*page
	words map[string]map[string]string // the catalogues, by language
}

// wordRE reads an entry of a catalogue of the interface (i18n/<lang>.js):
// a line "key": "words",
var wordRE = regexp.MustCompile(`(?m)^\s*"([\w.-]+)":\s*("(?:[^"\\\n]|\\.)*"),?\s*$`)

// catalogue returns the words of a language, from the interface's
// i18n/<lang>.js, or nil.
func catalogue(set *assets.Set, lang string) map[string]string {
	f := set.File("i18n/" + lang + ".js")
	if f == nil {
		return nil
	}
	words := map[string]string{}
	for _, m := range wordRE.FindAllSubmatch(f.Data, -1) {
		var w string
		if err := json.Unmarshal(m[2], &w); err == nil {
			words[string(m[1])] = w
		}
	}
	return words
}

var (
	// translatedRE finds an element whose text is the words of a key
	// (data-t), and its text.
	translatedRE = regexp.MustCompile(`(<[a-z]+\b[^>]*\sdata-t="([\w.-]+)"[^>]*>)([^<]*)<`)
	paramRE      = regexp.MustCompile(`\sdata-t-(\w+)="([^"]*)"`)
	placeRE      = regexp.MustCompile(`\{(\w+)\}`)
)

// translate puts the words of the catalogue in the elements marked
// data-t, their {param}s from the attributes data-t-<param>.
func translate(b []byte, words map[string]string) []byte {
	return translatedRE.ReplaceAllFunc(b, func(m []byte) []byte {
		sub := translatedRE.FindSubmatch(m)
		w, ok := words[string(sub[2])]
		if !ok {
			return m
		}
		params := map[string]string{}
		for _, p := range paramRE.FindAllSubmatch(sub[1], -1) {
			params[string(p[1])] = html.UnescapeString(string(p[2]))
		}
		w = placeRE.ReplaceAllStringFunc(w, func(ph string) string {
			if v, ok := params[ph[1:len(ph)-1]]; ok {
				return v
			}
			return ph
		})
		out := append([]byte{}, sub[1]...)
		return append(append(out, html.EscapeString(w)...), '<')
	})
}

// accountRE finds the header's account links.
var accountRE = regexp.MustCompile(`(<span class="account" id="account"[^>]*>)(.*?)(</span>)`)

// signedIn returns the page of a signed-in player: the header's account
// links theirs (as app.js draws them), the new game link /new, and their
// account's data for the interface (as GET /api/me answers it).
func signedIn(b []byte, words map[string]string, me account.Me) []byte {
	word := func(k, def string) string {
		if w, ok := words[k]; ok {
			return html.EscapeString(w)
		}
		return def
	}
	name := html.EscapeString(me.Name)
	links := `<a href="/" data-link>` + word("nav.lobby", "Lobby") + `</a> ` +
		`<a href="/@/` + url.PathEscape(me.Name) + `" data-link>` + name + `</a> ` +
		`<a href="/me/games" data-link>` + word("nav.mygames", "My games") + `</a> ` +
		`<a href="/account" data-link>` + word("nav.account", "Account") + `</a> ` +
		`<button type="button" class="link">` + word("nav.signout", "Sign out") + `</button>`
	b = accountRE.ReplaceAll(b, []byte("${1}"+strings.ReplaceAll(links, "$", "$$")+"${3}"))
	b = bytes.Replace(b, []byte(`<a href="/" data-link data-t="nav.new">`), []byte(`<a href="/new" data-link data-t="nav.new">`), 1)
	data, _ := json.Marshal(me)
	return bytes.Replace(b, []byte("</head>"), []byte(`<meta name="stax-me" content="`+html.EscapeString(string(data))+`">`+"\n</head>"), 1)
}

var (
	descriptionRE  = regexp.MustCompile(`<meta name="description" content="[^"]*">`)
	assetRefRE     = regexp.MustCompile(`\b(href|src)="(/[^"#?]+)"`)
	moduleScriptRE = regexp.MustCompile(`<script type="module" src="(/[^"]+)"></script>`)
)

// get returns the page of a kind, with the module of the page, in a
// language, for a guest or not, and the catalogue of the language.
func (ps *pages) get(set *assets.Set, kind, module, lang string, guest bool) (*page, map[string]string) {
	key := kind + " " + module + " " + lang
	if guest {
		key += " guest"
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.set != set {
		ps.set, ps.made, ps.words = set, map[string]*page{}, map[string]map[string]string{}
	}
	words, ok := ps.words[lang]
	if !ok {
		words = catalogue(set, lang)
		ps.words[lang] = words
	}
	if p := ps.made[key]; p != nil {
		return p, words
	}
	p := makePage(set, kind, module, lang, guest, words)
	if p != nil {
		ps.made[key] = p
	}
	return p, words
}

// makePage makes index.html for a page.
func makePage(set *assets.Set, kind, module, lang string, guest bool, words map[string]string) *page {
	index := set.File("index.html")
	if index == nil {
		return nil
	}
	b := bytes.Replace(index.Data, []byte(`<html lang="en">`), []byte(`<html lang="`+lang+`">`), 1)
	desc := []byte(`<meta name="description" content="` + html.EscapeString(pageDescription(kind, lang)) + `">`)
	if descriptionRE.Match(b) {
		b = descriptionRE.ReplaceAllLiteral(b, desc)
	} else {
		b = bytes.Replace(b, []byte("</head>"), append(desc, "\n</head>"...), 1)
	}
	if guest {
		// The interface then knows it has no account to ask the server
		// about (a question that would be answered 401).
		b = bytes.Replace(b, []byte("</head>"), []byte(`<meta name="stax-guest" content="">`+"\n</head>"), 1)
	}
	b = translate(b, words)
	b = bytes.Replace(b, []byte(`<option value="`+lang+`">`), []byte(`<option value="`+lang+`" selected>`), 1)
	if kind == "game" {
		// A game's header is one line on a phone from the start.
		b = bytes.Replace(b, []byte("<body>"), []byte(`<body class="in-game">`), 1)
	}
	// The modules: the import map, then the graph preloaded, before the
	// first module script.
	var entries []string
	for _, m := range moduleScriptRE.FindAllSubmatch(b, -1) {
		entries = append(entries, strings.TrimPrefix(string(m[1]), "/"))
	}
	importMap := set.ImportMap()
	csp := contentSecurityPolicy
	if len(entries) > 0 {
		var head bytes.Buffer
		head.WriteString(`<script type="importmap">`)
		head.Write(importMap)
		head.WriteString("</script>\n")
		preload := set.Graph(entries...)[len(entries):]
		// The page's module, and the words of its language (i18n.js loads
		// them before the first word).
		for _, m := range []string{module, "i18n/" + lang + ".js"} {
			if m == "" {
				continue
			}
			for _, name := range set.Graph(m) {
				if !slices.Contains(preload, name) && !slices.Contains(entries, name) {
					preload = append(preload, name)
				}
			}
		}
		for _, name := range preload {
			head.WriteString(`<link rel="modulepreload" href="` + set.File(name).URL() + `">` + "\n")
		}
		at := moduleScriptRE.FindIndex(b)
		b = append(b[:at[0]:at[0]], append(head.Bytes(), b[at[0]:]...)...)
		sum := sha256.Sum256(importMap)
		csp = strings.Replace(csp, "script-src 'self'", "script-src 'self' 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'", 1)
	}
	// Every asset named by its hashed URL, but the manifest, whose URL
	// some browsers take for the installed app's.
	b = assetRefRE.ReplaceAllFunc(b, func(m []byte) []byte {
		sub := assetRefRE.FindSubmatch(m)
		name := strings.TrimPrefix(string(sub[2]), "/")
		if f := set.File(name); f != nil && name != "manifest.json" {
			return []byte(string(sub[1]) + `="` + f.URL() + `"`)
		}
		return m
	})
	sum := sha256.Sum256(b)
	return &page{body: b, csp: csp, tag: base64.RawURLEncoding.EncodeToString(sum[:12])}
}
