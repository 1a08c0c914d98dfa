// Package ai names the computer players of every stax game: levels from
// "beginner" to "strongest", each a search.Player with a budget and a dose
// of randomness, built on the game's evaluation function.
//
// The baselines "random" (a uniformly random legal move) and "greedy" (the
// best move one ply deep by the evaluation) are accepted by New but not
// listed by Levels.
//
// Each level is a recipe of levelTable: alpha-beta or MCTS from package
// search, a budget (depth, nodes or time) and randomness (a softmax over
// exactly scored root moves, and a probability of a random move). The
// budget caps the limits a level's player is given: a level never thinks
// longer than its name says. "strongest" answers within 2 s on its own
// budget, but honours explicit limits exactly (for analysis) and searches
// on as many threads as it is given (search.Resources). The
// recipes were tuned by self-play so that each level beats the one below
// it; docs/strength.md has the tables and the command that makes them
// (TestStrengthLadder with -strength).
//
// The evaluation functions live here, one file per game (eval_pogo.go,
// eval_pisola.go, eval_diam.go), built from each game's strategy and the
// read-only accessors of its rules package; the rules never import search.
//
// What is policy comes from the caller in a Config: Pogo's solved tables
// for the "perfect" level are an *ai.Tables (a directory of table files,
// built in the background when allowed, with a notifier for the news),
// and the zero Config offers every level but "perfect".
//
// Games between levels are played by the match runner (package
// stax/engine/match), which the strength tests call.
package ai

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"stax/game"
	"stax/games/diam"
	"stax/games/pisola"
	"stax/games/pogo"
	"stax/search"
)

// The level names, weakest first.
var levelNames = []string{"beginner", "easy", "medium", "hard", "strongest"}

// Baselines are the level names New accepts besides those of Levels.
var baselines = []string{"random", "greedy"}

// Config is what the computer players take from their caller: the
// resources that are policy, not strategy. The zero Config offers every
// level but "perfect".
type Config struct {
	// Tables gives the perfect level Pogo's solved tables; nil offers no
	// perfect level.
	Tables *Tables
}

// Levels returns the level names available for g, weakest first, with the
// zero Config: every level but "perfect".
func Levels(g game.Game) []string { return Config{}.Levels(g) }

// New returns a fresh Player for level with the zero Config (see
// Config.New).
func New(g game.Game, level string) (search.Player, error) { return Config{}.New(g, level) }

// NewSeeded returns a Player with a fixed seed with the zero Config (see
// Config.NewSeeded).
func NewSeeded(g game.Game, level string, seed uint64) (search.Player, error) {
	return Config{}.NewSeeded(g, level, seed)
}

// Levels returns the level names available for g, weakest first.
func (c Config) Levels(g game.Game) []string {
	return append(append([]string(nil), levelNames...), c.extraLevels(g)...)
}

// Ready reports whether level plays at its full strength for g now: false
// for "perfect" while its table is missing or being built (it then plays
// as "strongest"), true for every other level. Asking is enough to get the
// level ready: when the Tables may build the missing table, Ready starts
// building it in the background.
func (c Config) Ready(g game.Game, level string) bool {
	if pg, ok := g.(*pogo.Game); ok && level == perfectLevel && c.Tables != nil {
		_, err := c.Tables.Table(pg.U())
		return err == nil
	}
	return true
}

// Prepare makes level ready to play g at its full strength, waiting until
// ctx is done: for "perfect", it loads Pogo's table, building it first
// when it is missing and the Tables allow it. It does nothing for the
// other levels.
func (c Config) Prepare(ctx context.Context, g game.Game, level string) error {
	if pg, ok := g.(*pogo.Game); ok && level == perfectLevel && c.Tables != nil {
		_, err := c.Tables.Wait(ctx, pg.U())
		return err
	}
	return nil
}

// New returns a fresh Player for level (each game and seat should get its
// own Player: it may keep a search tree between moves). Its randomness is
// seeded from the runtime's random source, so two players of the same
// level play different games; NewSeeded makes them reproducible. An
// unknown level is an error that lists the valid ones.
func (c Config) New(g game.Game, level string) (search.Player, error) {
	return c.NewSeeded(g, level, rand.Uint64())
}

// NewSeeded is New with the seed of the player's randomness fixed, for
// reproducible games and tests.
func (c Config) NewSeeded(g game.Game, level string, seed uint64) (search.Player, error) {
	level = strings.ToLower(level)
	ev := levelEvaluator(g, level)
	switch level {
	case "random":
		return search.NewRandom(seed), nil
	case "greedy":
		return search.NewGreedy(ev, seed), nil
	}
	if pg, ok := g.(*pogo.Game); ok && level == perfectLevel && c.Tables != nil {
		return newPerfect(pg, c.Tables, ev, seed), nil
	}
	if dg, ok := g.(*diam.Game); ok && level == perfectLevel && c.Tables != nil && offersPerfect(dg) {
		p := newLevel(g, "strongest", ev, seed).(*diamProver)
		p.perfect = true
		return p, nil
	}
	for _, name := range levelNames {
		if name == level {
			return newLevel(g, level, ev, seed), nil
		}
	}
	valid := append(c.Levels(g), baselines...)
	return nil, fmt.Errorf("ai: unknown level %q for %s: valid levels are %s",
		level, g.Info().Name, strings.Join(valid, ", "))
}

// levelSpec is a level's recipe: an algorithm, a budget and a dose of
// randomness.
type levelSpec struct {
	algo  string        // "alphabeta" or "mcts"
	depth int           // alpha-beta depth bound (0: none)
	nodes int64         // node (playout) bound (0: none)
	time  time.Duration // time budget (0: none)
	temp  float64       // softmax temperature over root moves, in evaluation units
	eps   float64       // probability of a random move
	// reduce is search.AlphaBeta's Reduce: late moves are searched a ply
	// shallower from the reduce-th on (0: never).
	reduce int
	// decisive makes MCTS playouts take immediate wins.
	decisive bool
	// draw is what a draw is worth to an MCTS player (0: ½).
	draw float64
}

// Level recipes by game name; a missing game uses "default".
var levelTable = map[string]map[string]levelSpec{
	"default": {
		"beginner":  {algo: "alphabeta", depth: 1, temp: 60, eps: 0.15},
		"easy":      {algo: "alphabeta", depth: 2, temp: 25, eps: 0.03},
		"medium":    {algo: "alphabeta", depth: 3, temp: 8},
		"hard":      {algo: "alphabeta", depth: 6},
		"strongest": {algo: "alphabeta", time: 1500 * time.Millisecond},
	},
	// Pogo's games are short and tactical: the levels were tuned by
	// self-play so that each scores at least 70% against the one below
	// and easy beats the greedy baseline (see docs/strength.md).
	"pogo": {
		"beginner":  {algo: "alphabeta", depth: 1, temp: 80, eps: 0.3},
		"easy":      {algo: "alphabeta", depth: 2, temp: 40, eps: 0.05},
		"medium":    {algo: "alphabeta", depth: 3, temp: 10},
		"hard":      {algo: "alphabeta", depth: 4, temp: 5},
		"strongest": {algo: "alphabeta", time: 1500 * time.Millisecond, reduce: 2},
	},
	// Pisola's placing phase offers hundreds of moves: fixed depths beyond
	// one ply are out of reach, so the levels from easy get node budgets
	// (easy's, with a little noise, keeps it above the greedy baseline and
	// well below medium; see docs/strength.md).
	"pisola": {
		"beginner":  {algo: "alphabeta", depth: 1, temp: 80, eps: 0.2},
		"easy":      {algo: "alphabeta", nodes: 700, temp: 8},
		"medium":    {algo: "alphabeta", nodes: 5_000},
		"hard":      {algo: "alphabeta", nodes: 50_000},
		"strongest": {algo: "alphabeta", time: 1500 * time.Millisecond},
	},
	// Four-player Diam: MCTS with a reward per player beats the paranoid
	// alpha-beta at equal time (7 games to 3 at 200 ms a move). The
	// playout budgets, about ten times apart (hard's playouts taking an
	// immediate win, which makes each cost twice as much but says far
	// more), make each level win at least 70% of its games against the
	// one below (a game counting as won by a level when one of its two
	// seats wins; see docs/strength.md). strongest searches for its time,
	// with hard's playouts, and counts a draw as a quarter of a point (the
	// point shared four ways) rather than half, so that it plays for the
	// win where the others settle for a draw.
	"diam/4": {
		"beginner":  {algo: "alphabeta", depth: 1, temp: 60, eps: 0.15},
		"easy":      {algo: "mcts", nodes: 250},
		"medium":    {algo: "mcts", nodes: 2500},
		"hard":      {algo: "mcts", nodes: 25_000, decisive: true},
		"strongest": {algo: "mcts", time: 1500 * time.Millisecond, decisive: true, draw: 0.25},
	},
}

// spec returns the recipe of level for g.
func spec(g game.Game, level string) levelSpec {
	if t, ok := levelTable[levelKey(g)]; ok {
		if sp, ok := t[level]; ok {
			return sp
		}
	}
	return levelTable["default"][level]
}

// levelKey returns the key of g's levels in levelTable: the game's name,
// with the number of players when above two.
func levelKey(g game.Game) string {
	key := g.Info().Name
	if g.Players() > 2 {
		key += "/" + strconv.Itoa(g.Players())
	}
	return key
}

// Budget returns the search limits the named level uses for g (zero for
// the baselines and unknown levels).
func Budget(g game.Game, level string) search.Limits {
	sp := spec(g, level)
	return search.Limits{Time: sp.time, Depth: sp.depth, Nodes: sp.nodes}
}

// newLevel builds the player of a listed level. The player's default
// budget is the level's, so Play with all-zero Limits plays at the level's
// strength; explicit limits override it.
func newLevel(g game.Game, level string, ev search.Evaluator, seed uint64) search.Player {
	sp := spec(g, level)
	lim := Budget(g, level)
	switch sp.algo {
	case "mcts":
		m := search.NewMCTS(ev, seed)
		m.Default = lim
		m.Decisive = sp.decisive
		m.DrawReward = sp.draw
		if level != "strongest" {
			// One tree: a playout budget then plays alike on a loaded
			// machine and an idle one, and a seed replays a game.
			m.Workers = 1
		}
		return &capped{Player: m, lim: lim, open: level == "strongest"}
	}
	bits := 14
	switch {
	case sp.time >= time.Second:
		bits = 20
	case sp.time > 0:
		bits = 18
	}
	ab := search.NewAlphaBeta(ev, bits, seed)
	ab.Default = lim
	ab.RootTemperature = sp.temp
	ab.Epsilon = sp.eps
	ab.Reduce = sp.reduce
	c := &capped{Player: ab, lim: lim, open: level == "strongest"}
	if dg, ok := g.(*diam.Game); ok && dg.Players() == 2 && level == "strongest" {
		return &diamProver{capped: c, g: dg}
	}
	return c
}

// capped is a level's player: its budget caps the limits it is given, so
// a level never plays stronger (or slower) than its name says, while
// tighter limits are honoured. The strongest level is open: it uses its
// budget only when given no limits, and otherwise searches exactly as
// long, as deep or as many nodes as it is told, for analysis.
type capped struct {
	search.Player
	lim  search.Limits
	open bool
}

// Play searches within the tighter of lim and the level's budget, or
// within lim alone for an open level given limits.
func (c *capped) Play(ctx context.Context, pos search.Position, lim search.Limits, report func(search.Progress)) (search.Result, error) {
	if !c.open || lim.IsZero() {
		lim = tighter(lim, c.lim)
	}
	return c.Player.Play(ctx, pos, lim, report)
}

// SetThreads sets the threads of an open level's searches; the levels
// with a depth or node budget stay on one thread (their names promise a
// strength, and more threads would change it).
func (c *capped) SetThreads(n int) {
	if r, ok := c.Player.(search.Resources); ok && c.open {
		r.SetThreads(n)
	}
}

// SetHashSize sizes the search's tables.
func (c *capped) SetHashSize(mb int) {
	if r, ok := c.Player.(search.Resources); ok {
		r.SetHashSize(mb)
	}
}

// tighter returns, field by field, the smaller non-zero bound.
func tighter(a, b search.Limits) search.Limits {
	pick := func(x, y int64) int64 {
		switch {
		case x == 0:
			return y
		case y == 0:
			return x
		}
		return min(x, y)
	}
	return search.Limits{
		Time:  time.Duration(pick(int64(a.Time), int64(b.Time))),
		Nodes: pick(a.Nodes, b.Nodes),
		Depth: int(pick(int64(a.Depth), int64(b.Depth))),
		Clock: cmp.Or(a.Clock, b.Clock),
	}
}

// levelEvaluator returns the evaluation level plays g with: Evaluator's,
// but for Pogo's levels below strongest and the greedy baseline, which
// keep the hand-written evaluation their recipes were tuned with (with
// the fitted one, depth 4 is hardly better than depth 3; see
// docs/strength.md).
func levelEvaluator(g game.Game, level string) search.Evaluator {
	if _, ok := g.(*pogo.Game); ok && level != "strongest" && level != perfectLevel && level != "random" {
		return pogoHandEval{}
	}
	return Evaluator(g)
}

// Evaluator returns the evaluation function of g that the strongest
// level and the analysis use.
func Evaluator(g game.Game) search.Evaluator {
	switch g := g.(type) {
	case *pogo.Game:
		return pogoEval{}
	case *diam.Game:
		return diamEvaluator(g)
	case *pisola.Game:
		return pisolaEval{}
	}
	return search.Zero
}
