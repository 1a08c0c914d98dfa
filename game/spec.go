package game

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// OptionKind is the type of an option's value.
type OptionKind uint8

// The kinds of option.
const (
	Bool   OptionKind = iota // true or false
	Int                      // an integer in [Min, Max]
	Choice                   // one of Choices
)

// Option describes one option of a game: its key, type, default and range.
type Option struct {
	Key string
	// Label names the option for people, e.g. "Board size".
	Label   string
	Kind    OptionKind
	Default string
	// Min and Max bound an Int option.
	Min, Max int
	// Choices lists the values of a Choice option (an Int option may list
	// its only allowed values here too, e.g. a board size of 6 or 8).
	Choices []string
	// Doc describes the option in one sentence.
	Doc string
}

// Expected describes the values the option accepts, for error messages and
// help, e.g. "true or false" or "an integer from 0 to 1000".
func (o *Option) Expected() string {
	switch {
	case o.Kind == Bool:
		return "true or false"
	case len(o.Choices) > 0:
		return "one of " + strings.Join(o.Choices, ", ")
	default:
		return fmt.Sprintf("an integer from %d to %d", o.Min, o.Max)
	}
}

// normalize checks v against the option and returns its canonical form.
func (o *Option) normalize(v string) (string, error) {
	switch o.Kind {
	case Bool:
		switch strings.ToLower(v) {
		case "true", "1", "yes", "on":
			return "true", nil
		case "false", "0", "no", "off":
			return "false", nil
		}
	case Int:
		n, err := strconv.Atoi(v)
		if err != nil || n < o.Min || n > o.Max {
			break
		}
		if len(o.Choices) > 0 {
			for _, c := range o.Choices {
				if c == strconv.Itoa(n) {
					return c, nil
				}
			}
			break
		}
		return strconv.Itoa(n), nil
	case Choice:
		for _, c := range o.Choices {
			if strings.EqualFold(c, v) {
				return c, nil
			}
		}
	}
	return "", fmt.Errorf("option %s=%q: want %s", o.Key, v, o.Expected())
}

// Options maps option keys to values. A variant's Options hold every key of
// its game, in canonical form.
type Options map[string]string

// Bool returns the value of a Bool option.
func (o Options) Bool(key string) bool { return o[key] == "true" }

// Int returns the value of an Int option, or 0 if it is not an integer.
func (o Options) Int(key string) int {
	n, _ := strconv.Atoi(o[key])
	return n
}

// String returns the value of an option.
func (o Options) String(key string) string { return o[key] }

// Spec is a parsed game spec: a game name and the options written with it,
// e.g. pogo(u=false).
type Spec struct {
	Name    string
	Options Options
}

// String writes the spec as name(key=value,...) with keys in sorted order,
// or just the name when there are no options.
func (s Spec) String() string {
	if len(s.Options) == 0 {
		return s.Name
	}
	keys := make([]string, 0, len(s.Options))
	for k := range s.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(s.Name)
	b.WriteByte('(')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k + "=" + s.Options[k])
	}
	b.WriteByte(')')
	return b.String()
}

// SpecError reports a game spec that could not be parsed or loaded.
type SpecError struct {
	Input string // the spec as written
	Err   error  // what was wrong
}

func (e *SpecError) Error() string { return fmt.Sprintf("game spec %q: %v", e.Input, e.Err) }

func (e *SpecError) Unwrap() error { return e.Err }

// ErrUnknownGame is wrapped by the error for a spec naming no known game.
var ErrUnknownGame = errors.New("unknown game")

// ParseSpec parses name or name(key=value,...). Spaces around names, keys
// and values are ignored. It checks only the syntax; Registry.Load checks
// the name and options.
func ParseSpec(s string) (Spec, error) {
	fail := func(format string, args ...any) (Spec, error) {
		return Spec{}, &SpecError{Input: s, Err: fmt.Errorf(format, args...)}
	}
	in := strings.TrimSpace(s)
	name, rest, hasOpts := strings.Cut(in, "(")
	name = strings.TrimSpace(name)
	if name == "" {
		return fail("missing game name; want name or name(key=value,...)")
	}
	if !isWord(name) {
		return fail("bad game name %q; want letters, digits, - or _", name)
	}
	sp := Spec{Name: strings.ToLower(name), Options: Options{}}
	if !hasOpts {
		return sp, nil
	}
	body, ok := strings.CutSuffix(strings.TrimSpace(rest), ")")
	if !ok {
		return fail("missing closing parenthesis; want name(key=value,...)")
	}
	if strings.ContainsAny(body, "()") {
		return fail("unexpected parenthesis inside the options")
	}
	if strings.TrimSpace(body) == "" {
		return sp, nil
	}
	for _, kv := range strings.Split(body, ",") {
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return fail("bad option %q; want key=value", strings.TrimSpace(kv))
		}
		if !isWord(k) || !isWord(v) {
			return fail("bad option %q; keys and values are letters, digits, - or _", strings.TrimSpace(kv))
		}
		k = strings.ToLower(k)
		if _, dup := sp.Options[k]; dup {
			return fail("option %s given twice", k)
		}
		sp.Options[k] = v
	}
	return sp, nil
}

func isWord(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return s != ""
}

// Resolve checks the options of a spec against the game's schema and
// returns the complete options, defaults filled in, in canonical form.
func (info *Info) Resolve(given Options) (Options, error) {
	out := make(Options, len(info.Options))
	for k, v := range given {
		o := info.Option(k)
		if o == nil {
			return nil, fmt.Errorf("unknown option %q for %s; want one of %s", k, info.Name, strings.Join(info.optionKeys(), ", "))
		}
		nv, err := o.normalize(v)
		if err != nil {
			return nil, err
		}
		out[k] = nv
	}
	for i := range info.Options {
		o := &info.Options[i]
		if _, ok := out[o.Key]; !ok {
			out[o.Key] = o.Default
		}
	}
	return out, nil
}

// Option returns the option with the given key, or nil.
func (info *Info) Option(key string) *Option {
	for i := range info.Options {
		if info.Options[i].Key == key {
			return &info.Options[i]
		}
	}
	return nil
}

func (info *Info) optionKeys() []string {
	keys := make([]string, len(info.Options))
	for i, o := range info.Options {
		keys[i] = o.Key
	}
	if len(keys) == 0 {
		return []string{"(none)"}
	}
	return keys
}

// Variant builds the variant for the given options, checking them and
// filling in the defaults (Registry.Load does the same for a spec).
func (info *Info) Variant(given Options) (Game, error) {
	opts, err := info.Resolve(given)
	if err != nil {
		return nil, err
	}
	return info.New(opts)
}

// SpecOf returns the canonical spec of a variant: the game's name and the
// options that differ from their defaults.
func SpecOf(g Game) Spec {
	info := g.Info()
	sp := Spec{Name: info.Name, Options: Options{}}
	for k, v := range g.Options() {
		if o := info.Option(k); o != nil && o.Default != v {
			sp.Options[k] = v
		}
	}
	return sp
}

// Registry is the list of games a program knows, in display order.
type Registry []*Info

// Lookup returns the game with the given name, or nil.
func (r Registry) Lookup(name string) *Info {
	for _, info := range r {
		if info.Name == strings.ToLower(name) {
			return info
		}
	}
	return nil
}

// Names returns the names of the games in the registry.
func (r Registry) Names() []string {
	names := make([]string, len(r))
	for i, info := range r {
		names[i] = info.Name
	}
	return names
}

// Load parses a spec and builds its variant. Errors are *SpecError and say
// what was expected.
func (r Registry) Load(spec string) (Game, error) {
	sp, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	info := r.Lookup(sp.Name)
	if info == nil {
		return nil, &SpecError{Input: spec, Err: fmt.Errorf("%w %q; want one of %s", ErrUnknownGame, sp.Name, strings.Join(r.Names(), ", "))}
	}
	g, err := info.Variant(sp.Options)
	if err != nil {
		return nil, &SpecError{Input: spec, Err: err}
	}
	return g, nil
}

// RepetitionOption returns the rep option every game has: how many
// occurrences of a position end the game (0: never), default 3. doc says
// how the game scores that end.
func RepetitionOption(doc string) Option {
	return Option{Key: "rep", Label: "Repetitions that end the game", Kind: Int, Default: "3", Min: 0, Max: 100, Doc: doc}
}

// PlyCapOption returns the maxplies option every game has: the number of
// plies after which the game ends (0: no limit), with the game's default.
// doc says how the game scores that end.
func PlyCapOption(def int, doc string) Option {
	return Option{Key: "maxplies", Label: "Move limit (plies)", Kind: Int, Default: strconv.Itoa(def), Min: 0, Max: 100000, Doc: doc}
}
