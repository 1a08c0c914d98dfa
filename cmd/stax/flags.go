package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// alias defines --old as a deprecated spelling of the flag named name,
// which must be defined already: both set the same value.
func alias(fs *flag.FlagSet, old, name string) {
	fs.Var(fs.Lookup(name).Value, old, deprecatedPrefix+"use --"+name)
}

// millisAlias defines --old as a deprecated spelling of a duration flag
// that took milliseconds, e.g. --movetime 100 for --time 100ms.
func millisAlias(fs *flag.FlagSet, old, name string, d *time.Duration) {
	fs.Func(old, deprecatedPrefix+"milliseconds; use --"+name+" with a unit, e.g. 100ms", func(s string) error {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return fmt.Errorf("want a number of milliseconds, or --%s with a duration, e.g. 100ms", name)
		}
		*d = time.Duration(n) * time.Millisecond
		return nil
	})
}

// lenientDuration is a duration flag that also takes a bare number of
// milliseconds, the unit of its older spelling.
type lenientDuration struct{ d *time.Duration }

func (f lenientDuration) String() string {
	if f.d == nil {
		return ""
	}
	return f.d.String()
}

func (f lenientDuration) Set(s string) error {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n >= 0 {
		*f.d = time.Duration(n) * time.Millisecond
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("want a duration such as 300ms, 10s or 1m30s")
	}
	*f.d = d
	return nil
}

func (f lenientDuration) Get() any { return *f.d }

// parseSeconds parses a duration, or a bare number of seconds as time
// controls write them (10+0.1).
func parseSeconds(s string) (time.Duration, error) {
	if x, err := strconv.ParseFloat(s, 64); err == nil {
		if x < 0 || x > 1e6 {
			return 0, fmt.Errorf("%q: want 0 to 1000000 seconds", s)
		}
		return time.Duration(x * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q: want a duration such as 10s or 1m, or a number of seconds", s)
	}
	return d, nil
}

// canonical returns the name of the flag that name is a deprecated alias
// of, or name.
func canonical(fs *flag.FlagSet, name string) string {
	f := fs.Lookup(name)
	if f == nil {
		return name
	}
	if rest, ok := strings.CutPrefix(f.Usage, deprecatedPrefix+"use --"); ok {
		return rest
	}
	return name
}
