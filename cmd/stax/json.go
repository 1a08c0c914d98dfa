package main

import (
	"encoding/json"
	"io"
	"math"
	"time"

	"stax/engine/match"
	"stax/game"
	"stax/games"
	"stax/search"
)

// The --json output of the commands: one JSON value on standard output.
// Each command's help documents its fields (TestJSONDocumented checks that
// it names every one). Durations are strings in the flags' form ("1.5s"),
// scores and outcomes their text forms (search.Score, game.Outcome), and
// the player to move is numbered from 0, as in the server's API.

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// gameJSON is a game of stax games --json.
type gameJSON struct {
	Name    string       `json:"name"`
	Title   string       `json:"title"`
	Summary string       `json:"summary"`
	Start   string       `json:"start"`
	Options []optionJSON `json:"options"`
}

// optionJSON is an option of a game.
type optionJSON struct {
	Key      string   `json:"key"`
	Label    string   `json:"label"`
	Default  string   `json:"default"`
	Doc      string   `json:"doc"`
	Expected string   `json:"expected"`
	Choices  []string `json:"choices,omitempty"`
}

// gamesJSON describes every game.
func gamesJSON() []gameJSON {
	var out []gameJSON
	for _, info := range games.All() {
		gj := gameJSON{Name: info.Name, Title: info.Title, Summary: info.Summary, Options: []optionJSON{}}
		if g, err := info.Variant(nil); err == nil {
			gj.Start = g.Start().String()
		}
		for _, o := range info.Options {
			gj.Options = append(gj.Options, optionJSON{Key: o.Key, Label: o.Label, Default: o.Default, Doc: o.Doc, Expected: o.Expected(), Choices: o.Choices})
		}
		out = append(out, gj)
	}
	return out
}

// movesJSON is the output of stax moves --json.
type movesJSON struct {
	Spec     string   `json:"spec"`
	Position string   `json:"position"`
	ToMove   int      `json:"toMove"`
	Moves    []string `json:"moves"`
	// Outcome is the outcome's text form when the game is over ("*" while
	// it goes on).
	Outcome string `json:"outcome"`
}

// perftJSON is the output of stax perft --json.
type perftJSON struct {
	Spec     string       `json:"spec"`
	Position string       `json:"position"`
	Depths   []perftDepth `json:"depths"`
	Divide   []perftMove  `json:"divide,omitempty"`
}

// perftDepth is the count of leaves at one depth.
type perftDepth struct {
	Depth  int    `json:"depth"`
	Leaves uint64 `json:"leaves"`
}

// perftMove is the count of leaves below one root move.
type perftMove struct {
	Move   string `json:"move"`
	Leaves uint64 `json:"leaves"`
}

// verdictJSON is a move's verdict, as the server's analysis sends it.
type verdictJSON struct {
	Move   string        `json:"move"`
	Score  search.Score  `json:"score"`
	Source search.Source `json:"source"`
	Exact  bool          `json:"exact"`
	Depth  int           `json:"depth,omitempty"`
}

func verdictOf(s game.State, v search.MoveVerdict) verdictJSON {
	return verdictJSON{Move: s.FormatMove(v.Move), Score: v.Score, Source: v.Source, Exact: v.Source.Exact(), Depth: v.Depth}
}

// analysisJSON is the output of stax analyze --json for a position.
type analysisJSON struct {
	Spec     string        `json:"spec"`
	Position string        `json:"position"`
	ToMove   int           `json:"toMove"`
	Exact    bool          `json:"exact"`
	Moves    []verdictJSON `json:"moves"`
	// Outcome is the outcome's text form, "*" while the game goes on (a
	// finished game has no moves).
	Outcome string `json:"outcome"`
}

func analysisOf(g game.Game, s game.State, a search.Analysis) analysisJSON {
	out := analysisJSON{Spec: game.SpecOf(g).String(), Position: s.String(), ToMove: s.ToMove(), Exact: a.Exact, Moves: []verdictJSON{}, Outcome: s.Outcome().String()}
	for _, v := range a.Moves {
		out.Moves = append(out.Moves, verdictOf(s, v))
	}
	return out
}

// reviewJSON is the output of stax analyze --load --json.
type reviewJSON struct {
	Spec       string            `json:"spec"`
	Title      string            `json:"title"`
	Exact      bool              `json:"exact"`
	Thresholds search.Thresholds `json:"thresholds"`
	Moves      []reviewedJSON    `json:"moves"`
	Outcome    string            `json:"outcome"`
	// Marks counts each player's inaccuracies, mistakes and blunders.
	Marks []marksJSON `json:"marks"`
}

// reviewedJSON is one move of a review.
type reviewedJSON struct {
	Ply    int           `json:"ply"`
	Player int           `json:"player"`
	Move   string        `json:"move"`
	Played verdictJSON   `json:"played"`
	Best   verdictJSON   `json:"best"`
	Better []verdictJSON `json:"better"`
	Mark   search.Mark   `json:"mark"`
}

// marksJSON counts one player's marks.
type marksJSON struct {
	Inaccuracies int `json:"inaccuracies"`
	Mistakes     int `json:"mistakes"`
	Blunders     int `json:"blunders"`
}

func reviewOf(h *game.History, title string, r search.Review) reviewJSON {
	g := h.Game()
	out := reviewJSON{Spec: game.SpecOf(g).String(), Title: title, Exact: r.Exact, Thresholds: r.Thresholds, Moves: []reviewedJSON{}, Outcome: h.Outcome().String()}
	s := h.Start()
	for _, m := range r.Moves {
		rm := reviewedJSON{Ply: m.Ply, Player: m.Player, Move: s.FormatMove(m.Move), Played: verdictOf(s, m.Played), Best: verdictOf(s, m.Best), Better: []verdictJSON{}, Mark: m.Mark}
		for _, b := range m.Better {
			rm.Better = append(rm.Better, verdictOf(s, b))
		}
		out.Moves = append(out.Moves, rm)
		s.Apply(m.Move)
	}
	for p := 0; p < g.Players(); p++ {
		n := r.Counts(p)
		out.Marks = append(out.Marks, marksJSON{Inaccuracies: n[search.Inaccuracy], Mistakes: n[search.Mistake], Blunders: n[search.Blunder]})
	}
	return out
}

// matchJSON is the output of stax match --json.
type matchJSON struct {
	Spec     string `json:"spec"`
	Games    int    `json:"games"`
	Played   int    `json:"played"`
	Seed     uint64 `json:"seed"`
	Openings int    `json:"openings"`
	Elapsed  string `json:"elapsed"`
	// Engines are in the order of the --engine flags.
	Engines []matchEngine `json:"engines"`
	Pairs   []matchPair   `json:"pairs"`
	SPRT    *sprtJSON     `json:"sprt,omitempty"`
}

// matchEngine is one engine's result against the field.
type matchEngine struct {
	Name string `json:"name"`
	// Rating is the engine's rating from all the pairwise scores, on an
	// Elo scale (null when infinite).
	Rating *float64 `json:"rating"`
	scoreJSON
	Faults map[string]int `json:"faults"`
}

// matchPair is one engine's result against another.
type matchPair struct {
	Engine   string `json:"engine"`
	Opponent string `json:"opponent"`
	scoreJSON
}

// scoreJSON is a score over games, with its Elo difference and 95%
// interval (null when infinite: a perfect or null score).
type scoreJSON struct {
	Played  int      `json:"played"`
	Score   float64  `json:"score"`
	Wins    int      `json:"wins"`
	Draws   int      `json:"draws"`
	Losses  int      `json:"losses"`
	Elo     *float64 `json:"elo"`
	EloLow  *float64 `json:"eloLow"`
	EloHigh *float64 `json:"eloHigh"`
}

// sprtJSON is the state of a match's SPRT.
type sprtJSON struct {
	Elo0     float64  `json:"elo0"`
	Elo1     float64  `json:"elo1"`
	Pairs    int      `json:"pairs"`
	LLR      *float64 `json:"llr"`
	Lower    float64  `json:"lower"`
	Upper    float64  `json:"upper"`
	Decision string   `json:"decision"`
}

// finite returns x, or nil when it is infinite or not a number.
func finite(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}

func scoreOf(s match.Score) scoreJSON {
	elo, lo, hi := s.Elo()
	return scoreJSON{Played: s.N, Score: s.Sum, Wins: s.Wins, Draws: s.Draws, Losses: s.Losses, Elo: finite(elo), EloLow: finite(lo), EloHigh: finite(hi)}
}

func matchOf(r *match.Report) matchJSON {
	cfg, t := r.Config, r.Table
	out := matchJSON{Spec: game.SpecOf(cfg.Game).String(), Games: cfg.Games, Played: len(r.Games), Seed: cfg.Seed, Openings: cfg.Openings,
		Elapsed: r.Elapsed.Round(time.Millisecond).String(), Engines: []matchEngine{}, Pairs: []matchPair{}}
	pairs := make([][]match.Score, len(t.Names))
	for e := range t.Names {
		for f := range t.Names {
			pairs[e] = append(pairs[e], t.Pair(e, f))
		}
	}
	ratings := match.Ratings(pairs)
	for e, name := range t.Names {
		faults := map[string]int{}
		for k, n := range t.Faults(e) {
			faults[k] = n
		}
		out.Engines = append(out.Engines, matchEngine{Name: name, Rating: finite(ratings[e]), scoreJSON: scoreOf(t.Total(e)), Faults: faults})
		for f := e + 1; f < len(t.Names); f++ {
			if p := t.Pair(e, f); p.N > 0 {
				out.Pairs = append(out.Pairs, matchPair{Engine: name, Opponent: t.Names[f], scoreJSON: scoreOf(p)})
			}
		}
	}
	if s := cfg.SPRT; s != nil {
		gp := t.GamePairs()
		lo, hi := s.Bounds()
		out.SPRT = &sprtJSON{Elo0: s.Elo0, Elo1: s.Elo1, Pairs: gp.N, LLR: finite(s.LLR(gp)), Lower: lo, Upper: hi, Decision: r.Decision.String()}
	}
	return out
}

// pogoSolveJSON is the output of stax solve pogo --json.
type pogoSolveJSON struct {
	Spec string `json:"spec"`
	// Table is the file the table was written to.
	Table   string `json:"table"`
	Elapsed string `json:"elapsed"`
	// Positions counts the arrangements with White to move, Classes
	// those up to symmetry; Wins, Losses, Draws and Unreachable are for
	// the side to move.
	Positions    int64  `json:"positions"`
	Classes      int64  `json:"classes"`
	Wins         int64  `json:"wins"`
	Losses       int64  `json:"losses"`
	Draws        int64  `json:"draws"`
	Unreachable  int64  `json:"unreachable"`
	LongestWin   int    `json:"longestWin"`
	LongestWinAt string `json:"longestWinAt"`
	Start        string `json:"start"`
	// Verdict is the start's verdict, Moves the first moves' (for their
	// player), in the table's words: "win in N", "loss in N", "draw".
	Verdict   string         `json:"verdict"`
	Moves     []pogoMoveJSON `json:"moves"`
	Reachable *pogoReachJSON `json:"reachable,omitempty"`
}

// pogoMoveJSON is a move of the start with its verdict.
type pogoMoveJSON struct {
	Move    string `json:"move"`
	Verdict string `json:"verdict"`
}

// pogoReachJSON counts the positions reachable from the start, up to
// symmetry and colour swap, by their verdict for the side to move.
type pogoReachJSON struct {
	Classes int64 `json:"classes"`
	Wins    int64 `json:"wins"`
	Losses  int64 `json:"losses"`
	Draws   int64 `json:"draws"`
}

// diamSolveJSON is the output of stax solve diam --json.
type diamSolveJSON struct {
	Spec     string `json:"spec"`
	Position string `json:"position"`
	ToMove   int    `json:"toMove"`
	// Win and Loss are what is known of "the side to move wins" and "the
	// side to move loses".
	Win     answerJSON     `json:"win"`
	Loss    answerJSON     `json:"loss"`
	Nodes   int64          `json:"nodes"`
	Elapsed string         `json:"elapsed"`
	Moves   []diamMoveJSON `json:"moves"`
	Survey  []surveyJSON   `json:"survey"`
	// Verified, with --verify, counts the positions the check of the
	// proof visited.
	Verified *int `json:"verified,omitempty"`
	// Outcome is the outcome's text form when the position is over, when
	// nothing is searched; "*" otherwise.
	Outcome string `json:"outcome"`
}

// answerJSON is what the solver knows of a question: proven (within plies,
// by the proof found), disproven, or open with its proof and disproof
// numbers.
type answerJSON struct {
	Proven    bool   `json:"proven"`
	Disproven bool   `json:"disproven"`
	Plies     int    `json:"plies,omitempty"`
	PN        uint32 `json:"pn,omitempty"`
	DN        uint32 `json:"dn,omitempty"`
}

// diamMoveJSON is what is known of a move: that it wins, that it loses.
type diamMoveJSON struct {
	Move  string     `json:"move"`
	Wins  answerJSON `json:"wins"`
	Loses answerJSON `json:"loses"`
}

// surveyJSON counts the classes of positions some plies below, with their
// proven wins and losses and disproven wins for the side to move.
type surveyJSON struct {
	Plies   int `json:"plies"`
	Classes int `json:"classes"`
	Won     int `json:"won"`
	Lost    int `json:"lost"`
	NoWin   int `json:"noWin"`
}
