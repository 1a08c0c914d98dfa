// Package catalog is the site's list of the games it offers: each game's
// options, the description of a variant (its players, start and board
// view), and the computer levels of each with their readiness and measured
// strength (GET /api/games, GET /api/variant). Live play checks the seats
// of a new game against it.
package catalog

import (
	"net/http"
	"slices"

	"stax/game"
	"stax/server/httpx"
	"stax/server/view"
)

// Config configures the catalogue.
type Config struct {
	// Games lists the games the site plays.
	Games game.Registry
	// Levels lists a game's computer levels (stax serve passes ai.Levels);
	// nil lists none.
	Levels func(g game.Game) []string
	// LevelReady reports whether a level plays at its full strength now;
	// nil: every level is.
	LevelReady func(g game.Game, level string) bool
	// LevelElo gives a level's measured rating in Elo, when it has one.
	LevelElo func(g game.Game, level string) (elo int, ok bool)
	// MaxPlies is the longest game the site plays, the ceiling of the
	// maxplies option.
	MaxPlies int
}

// Catalog is the list of games the site offers: their options, variants
// and computer levels.
type Catalog struct {
	cfg Config
}

// New returns the catalogue.
func New(cfg Config) *Catalog {
	if cfg.Levels == nil {
		cfg.Levels = func(game.Game) []string { return []string{} }
	}
	if cfg.LevelReady == nil {
		cfg.LevelReady = func(game.Game, string) bool { return true }
	}
	return &Catalog{cfg: cfg}
}

// Routes adds the catalogue's routes to m.
func (s *Catalog) Routes(m *http.ServeMux) {
	m.HandleFunc("GET /api/games", s.handleGames)
	m.HandleFunc("GET /api/variant", s.handleVariant)
}

// Levels returns g's computer levels.
func (s *Catalog) Levels(g game.Game) []string { return s.cfg.Levels(g) }

// Ready reports whether a level of g plays at its full strength now.
func (s *Catalog) Ready(g game.Game, level string) bool { return s.cfg.LevelReady(g, level) }

// Variant returns the description of a variant.
func (s *Catalog) Variant(g game.Game) Variant {
	v := Variant{
		Spec:        game.SpecOf(g).String(),
		Players:     g.Players(),
		PlayerNames: view.PlayerNames(g),
		Start:       g.Start().String(),
		View:        view.Of(g.Start(), false, nil),
		Levels:      s.cfg.Levels(g),
	}
	for _, l := range v.Levels {
		if !s.cfg.LevelReady(g, l) {
			v.Preparing = append(v.Preparing, l)
		}
	}
	if s.cfg.LevelElo != nil {
		for _, l := range append(slices.Clone(v.Levels), "random") {
			if elo, ok := s.cfg.LevelElo(g, l); ok {
				if v.Elo == nil {
					v.Elo = map[string]int{}
				}
				v.Elo[l] = elo
			}
		}
	}
	return v
}

func (s *Catalog) handleGames(w http.ResponseWriter, r *http.Request) {
	var out struct {
		Games []GameInfo `json:"games"`
	}
	out.Games = []GameInfo{}
	for _, info := range s.cfg.Games {
		gi := GameInfo{Name: info.Name, Title: info.Title, Summary: info.Summary, Options: []OptionInfo{}}
		for _, o := range info.Options {
			oi := OptionInfo{Key: o.Key, Label: o.Label, Default: o.Default, Doc: o.Doc, Choices: o.Choices}
			switch o.Kind {
			case game.Bool:
				oi.Kind = "bool"
			case game.Int:
				oi.Kind = "int"
				min, max := o.Min, o.Max
				if o.Key == "maxplies" {
					// The server's ceiling: every game it plays ends.
					min, max = 1, s.cfg.MaxPlies
				}
				oi.Min, oi.Max = &min, &max
			default:
				oi.Kind = "choice"
			}
			gi.Options = append(gi.Options, oi)
		}
		if g, err := info.Variant(nil); err == nil {
			gi.Default = s.Variant(g)
			gi.Levels = gi.Default.Levels
		}
		out.Games = append(out.Games, gi)
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

func (s *Catalog) handleVariant(w http.ResponseWriter, r *http.Request) {
	spec := r.URL.Query().Get("spec")
	if spec == "" {
		httpx.Error(w, http.StatusBadRequest, "missing spec; want e.g. /api/variant?spec=diam(players=4)")
		return
	}
	g, err := s.cfg.Games.Load(spec)
	if err != nil {
		httpx.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	httpx.WriteJSON(w, http.StatusOK, s.Variant(g))
}

// Known reports whether level is a computer level of g: one of
// Config.Levels or a baseline (random, greedy).
func (s *Catalog) Known(g game.Game, level string) bool {
	return level == "random" || level == "greedy" || slices.Contains(s.cfg.Levels(g), level)
}

// Capped reports whether a game's length is set by its ply cap (the
// maxplies option); a game without that option ends within a bound of its
// rules (tic-tac-toe within 9 plies).
func Capped(g game.Game) bool {
	for _, o := range g.Info().Options {
		if o.Key == "maxplies" {
			return true
		}
	}
	return false
}

// GameInfo describes one game the server plays.
type GameInfo struct {
	Name    string       `json:"name"`
	Title   string       `json:"title"`
	Summary string       `json:"summary"`
	Options []OptionInfo `json:"options"`
	Levels  []string     `json:"levels"`
	Default Variant      `json:"default"`
}

// OptionInfo describes one option of a game.
type OptionInfo struct {
	Key     string   `json:"key"`
	Label   string   `json:"label"`
	Kind    string   `json:"kind"`
	Default string   `json:"default"`
	Min     *int     `json:"min,omitempty"`
	Max     *int     `json:"max,omitempty"`
	Choices []string `json:"choices,omitempty"`
	Doc     string   `json:"doc"`
}

// Variant describes one variant of a game.
type Variant struct {
	Spec        string     `json:"spec"`
	Players     int        `json:"players"`
	PlayerNames []string   `json:"playerNames"`
	Start       string     `json:"start"`
	View        *view.View `json:"view,omitempty"`
	Levels      []string   `json:"levels,omitempty"`
	// Preparing lists the levels of Levels that cannot be chosen yet: they
	// are being prepared (the perfect level while its table is built).
	Preparing []string `json:"preparing,omitempty"`
	// Elo gives the measured rating of the levels that have one, in Elo
	// with the random baseline at 0 (docs/strength.md).
	Elo map[string]int `json:"elo,omitempty"`
}
