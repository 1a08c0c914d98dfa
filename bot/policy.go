package bot

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"stax/game"
	"stax/server/lobby"
)

// Policy says which challenges a bot accepts; it declines the others,
// telling the challenger why.
type Policy struct {
	// Variants lists the games and variants accepted (ParseVariants
	// reads them); empty accepts every game.
	Variants []Variant
	// Rated and Casual say whether rated and casual games are accepted.
	Rated, Casual bool
	// MinInitial and MaxInitial bound the initial time of a Fischer
	// clock, MinIncrement and MaxIncrement its increment; a maximum of 0
	// sets no bound.
	MinInitial, MaxInitial     time.Duration
	MinIncrement, MaxIncrement time.Duration
	// Fischer accepts games with a Fischer clock (within the bounds
	// above); Correspondence those with days per move, and games with no
	// clock at all.
	Fischer, Correspondence bool
	// Concurrent is the most games played at once (at least 1).
	Concurrent int
	// From, when not empty, lists the only accounts whose challenges are
	// accepted (names compared without regard to case).
	From []string
}

// Variant is a game, or one variant of it, that a policy accepts.
type Variant struct {
	// Game is the game's name; Spec, when set, the canonical spec of the
	// only variant accepted (game.SpecOf), else every variant is.
	Game, Spec string
}

func (v Variant) String() string {
	if v.Spec != "" {
		return v.Spec
	}
	return v.Game
}

// The reasons a challenge is declined for, sent with the decline: the
// lobby's (lobby.DeclineReasons), which are the words of Lichess's Bot
// API, so that its authors recognise them.
const (
	DeclineGeneric     = lobby.DeclineGeneric     // not from an account of Policy.From
	DeclineLater       = lobby.DeclineLater       // as many games as Policy.Concurrent under way
	DeclineTooFast     = lobby.DeclineTooFast     // a Fischer clock below the bounds
	DeclineTooSlow     = lobby.DeclineTooSlow     // a Fischer clock above the bounds
	DeclineTimeControl = lobby.DeclineTimeControl // a kind of time control not accepted
	DeclineRated       = lobby.DeclineRated       // rated, and only casual games are accepted
	DeclineCasual      = lobby.DeclineCasual      // casual, and only rated games are accepted
	DeclineVariant     = lobby.DeclineVariant     // a game or variant not accepted
)

// Challenge is what the policy looks at in a challenge.
type Challenge struct {
	// From is the challenger's name.
	From string
	// Spec is the variant's canonical spec.
	Spec  string
	Rated bool
	// Initial and Increment are a Fischer clock's, when Fischer is set;
	// Days a correspondence game's days per move (0 with neither: no
	// clock).
	Fischer            bool
	Initial, Increment time.Duration
	Days               int
}

// Decision is a policy's answer to a challenge.
type Decision struct {
	// Accept is set when the challenge is accepted; otherwise Reason is
	// one of the Decline* reasons and Why says it in words, for the log.
	Accept      bool
	Reason, Why string
}

// Decide answers a challenge when playing games are under way.
func (p *Policy) Decide(c Challenge, playing int) Decision {
	decline := func(reason, format string, args ...any) Decision {
		return Decision{Reason: reason, Why: fmt.Sprintf(format, args...)}
	}
	if len(p.From) > 0 && !slices.ContainsFunc(p.From, func(n string) bool { return strings.EqualFold(n, c.From) }) {
		return decline(DeclineGeneric, "%s is not among the accounts whose challenges are accepted", c.From)
	}
	if !p.accepts(c.Spec) {
		return decline(DeclineVariant, "%s is not among the games accepted (%s)", c.Spec, p.variants())
	}
	switch {
	case c.Rated && !p.Rated:
		return decline(DeclineRated, "rated games are not accepted")
	case !c.Rated && !p.Casual:
		return decline(DeclineCasual, "casual games are not accepted")
	}
	switch {
	case !c.Fischer && !p.Correspondence:
		return decline(DeclineTimeControl, "games without a Fischer clock are not accepted")
	case c.Fischer && !p.Fischer:
		return decline(DeclineTimeControl, "games with a Fischer clock are not accepted")
	case c.Fischer && (c.Initial < p.MinInitial || c.Increment < p.MinIncrement):
		return decline(DeclineTooFast, "the clock %v+%v is faster than %v+%v", c.Initial, c.Increment, p.MinInitial, p.MinIncrement)
	case c.Fischer && (p.MaxInitial > 0 && c.Initial > p.MaxInitial || p.MaxIncrement > 0 && c.Increment > p.MaxIncrement):
		return decline(DeclineTooSlow, "the clock %v+%v is slower than %s+%s", c.Initial, c.Increment, bound(p.MaxInitial), bound(p.MaxIncrement))
	}
	if playing >= max(p.Concurrent, 1) {
		return decline(DeclineLater, "%d games are under way, the most at once", playing)
	}
	return Decision{Accept: true}
}

// bound writes a maximum, 0 being none.
func bound(d time.Duration) string {
	if d == 0 {
		return "any"
	}
	return d.String()
}

// accepts reports whether the policy accepts the variant spec.
func (p *Policy) accepts(spec string) bool {
	if len(p.Variants) == 0 {
		return true
	}
	name, _, _ := strings.Cut(spec, "(")
	for _, v := range p.Variants {
		if v.Spec == spec || v.Spec == "" && v.Game == name {
			return true
		}
	}
	return false
}

// variants lists the games and variants accepted, for messages.
func (p *Policy) variants() string {
	names := make([]string, len(p.Variants))
	for i, v := range p.Variants {
		names[i] = v.String()
	}
	return strings.Join(names, ", ")
}

// ParseVariants reads a list of games and variants separated by commas
// (commas inside a spec's parentheses separate its options), e.g.
// "pogo,pisola(size=8,roofs=true)", and returns its entries. A game's name
// accepts every variant of it, a spec with options (even the default
// ones: pogo(u=true)) that variant only. Every entry must be a game of
// reg.
func ParseVariants(reg game.Registry, list string) ([]Variant, error) {
	var out []Variant
	depth, from := 0, 0
	var entries []string
	for i, r := range list {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				entries = append(entries, list[from:i])
				from = i + 1
			}
		}
	}
	entries = append(entries, list[from:])
	for _, e := range entries {
		e = strings.TrimSpace(e)
		if e == "" {
			return nil, fmt.Errorf("%q: an empty entry; want game names or specs separated by commas, e.g. pogo,pisola(size=8)", list)
		}
		g, err := reg.Load(e)
		if err != nil {
			return nil, err
		}
		v := Variant{Game: g.Info().Name}
		if strings.Contains(e, "(") {
			v.Spec = game.SpecOf(g).String()
		}
		out = append(out, v)
	}
	return out, nil
}
