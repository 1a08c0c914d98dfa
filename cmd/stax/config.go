package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// A settingGroup gathers the settings of a long-running command by
// purpose, for --print-config, configuration files, help and the README.
type settingGroup struct {
	name  string   // the table of the configuration file, e.g. "limits"
	title string   // what the settings are for
	flags []string // the flags, in the order shown
}

// settingGroups are the groups of the commands whose every setting may
// also come from a configuration file and the environment.
var settingGroups = map[string][]settingGroup{
	"serve": {
		{"site", "Listening and names", []string{"addr", "allowed-hosts", "trusted-proxies", "assets", "browser-engine"}},
		{"tls", "HTTPS", []string{"tls-cert", "tls-key", "acme-hosts", "acme-cache", "acme-email", "http-addr"}},
		{"database", "Database", []string{"db", "sync"}},
		{"computer", "Computer players and analysis", []string{"workers", "ai-delay", "analysis-workers", "analysis-time", "house-bots", "house-bot-games"}},
		{"limits", "Limits on clients", []string{"max-conns", "max-conns-per-ip", "read-timeout", "ping-interval",
			"create-every", "create-burst", "join-every", "join-burst", "max-open-games", "expire-after", "max-plies"}},
		{"operators", "Operating and monitoring", []string{"health-addr", "metrics", "stats", "pprof", "log-level"}},
	},
	"bot": {
		{"server", "The server", []string{"url", "token"}},
		{"engine", "The engine", []string{"engine", "time"}},
		{"policy", "Challenges accepted", []string{"variants", "rated", "casual", "fischer", "correspondence",
			"min-initial", "max-initial", "min-increment", "max-increment", "workers", "from"}},
		{"operators", "Operating and monitoring", []string{"log-level"}},
	},
	"worker": {
		{"database", "Database", []string{"db"}},
		{"computer", "Computer players", []string{"workers", "ai-delay", "ai-timeout"}},
		{"operators", "Operating and monitoring", []string{"log-level"}},
	},
}

// metaFlags are the flags about the configuration itself, which no file
// sets.
var metaFlags = map[string]bool{"config": true, "print-config": true}

// envName returns the environment variable of a flag: STAX_ and its name
// in capitals with underscores, e.g. STAX_MAX_CONNS for --max-conns.
func envName(flagName string) string {
	return "STAX_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// configFlags defines --config and --print-config on a command's flags.
func configFlags(fs *flag.FlagSet) (file *string, print *bool) {
	file = fs.String("config", "", "read settings from this TOML file (also $STAX_CONFIG); a flag given overrides $STAX_* variables, which override the file, which overrides the defaults")
	print = fs.Bool("print-config", false, "print the effective settings as a configuration file, secrets masked, and exit")
	return file, print
}

// settings records where each setting of a command came from.
type settings struct {
	command string
	fs      *flag.FlagSet
	source  map[string]string // flag name → "flag", "$STAX_…" or the file; absent: the default
}

// applySettings sets the flags of fs that the command line did not give
// from the environment and then the configuration file (named by file,
// else by $STAX_CONFIG): flag > environment > file > default.
func applySettings(e *env, command string, fs *flag.FlagSet, file string) (*settings, error) {
	s := &settings{command: command, fs: fs, source: map[string]string{}}
	fs.Visit(func(f *flag.Flag) { s.source[f.Name] = "the command line" })
	getenv := e.getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if file == "" {
		file = getenv("STAX_CONFIG")
	}
	if file != "" {
		values, err := readConfigFile(file, settingGroups[command])
		if err != nil {
			return nil, err
		}
		names := make([]string, 0, len(values))
		for name := range values {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if !s.settable(name) {
				return nil, &usageError{fmt.Sprintf("--config %s: %q is not a setting of stax %s (see stax help %s)", file, name, command, command)}
			}
			if s.source[name] != "" {
				continue
			}
			if err := fs.Set(name, values[name]); err != nil {
				return nil, &usageError{fmt.Sprintf("--config %s: %s = %q: %v", file, name, values[name], err)}
			}
			s.source[name] = file
		}
	}
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if err != nil || !s.settable(f.Name) || s.source[f.Name] == "the command line" {
			return
		}
		v, ok := lookupEnv(getenv, envName(f.Name))
		if !ok {
			return
		}
		if e := fs.Set(f.Name, v); e != nil {
			err = &usageError{fmt.Sprintf("$%s=%q (--%s): %v", envName(f.Name), v, f.Name, e)}
			return
		}
		s.source[f.Name] = "$" + envName(f.Name)
	})
	return s, err
}

// lookupEnv returns a variable's value and whether it is set and not
// empty.
func lookupEnv(getenv func(string) string, name string) (string, bool) {
	v := getenv(name)
	return v, v != ""
}

// settable reports whether a flag may come from a file or the
// environment: every flag but the deprecated ones and --config itself.
func (s *settings) settable(name string) bool {
	f := s.fs.Lookup(name)
	return f != nil && !metaFlags[name] && !strings.HasPrefix(f.Usage, deprecatedPrefix)
}

// readConfigFile reads a TOML configuration file: settings named as the
// flags, at the top or in the tables of their groups (e.g. [limits]).
// Each value is returned as the flag's text: a list is joined by commas.
func readConfigFile(file string, groups []settingGroup) (map[string]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, &usageError{fmt.Sprintf("--config: %v", err)}
	}
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return nil, &usageError{fmt.Sprintf("--config %s: not a TOML file: %v", file, err)}
	}
	isGroup := map[string]bool{}
	for _, g := range groups {
		isGroup[g.name] = true
	}
	out := map[string]string{}
	var add func(prefix string, m map[string]any) error
	add = func(prefix string, m map[string]any) error {
		for k, v := range m {
			if sub, ok := v.(map[string]any); ok {
				if prefix != "" || !isGroup[k] {
					return &usageError{fmt.Sprintf("--config %s: [%s%s] is not a group of settings; want one of %s", file, prefix, k, groupNames(groups))}
				}
				if err := add(k+".", sub); err != nil {
					return err
				}
				continue
			}
			text, err := configText(v)
			if err != nil {
				return &usageError{fmt.Sprintf("--config %s: %s%s: %v", file, prefix, k, err)}
			}
			if _, dup := out[k]; dup {
				return &usageError{fmt.Sprintf("--config %s: %s is set twice", file, k)}
			}
			out[k] = text
		}
		return nil
	}
	return out, add("", raw)
}

// configText returns a TOML value as a flag's text.
func configText(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case bool:
		return strconv.FormatBool(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64), nil
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			s, ok := x.(string)
			if !ok {
				return "", fmt.Errorf("want a list of strings, e.g. [\"10.0.0.1\", \"10.0.0.2\"]")
			}
			parts[i] = s
		}
		return strings.Join(parts, ","), nil
	}
	return "", fmt.Errorf("want a string, a number, true or false, or a list of strings; got %T", v)
}

// groupNames lists the tables of groups, e.g. "[site], [tls]".
func groupNames(groups []settingGroup) string {
	var out []string
	for _, g := range groups {
		out = append(out, "["+g.name+"]")
	}
	return strings.Join(out, ", ")
}

// secretFlag reports whether a setting's value must be masked when shown.
func secretFlag(name string) bool {
	for _, w := range []string{"password", "secret", "token"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// print writes the effective settings as a configuration file that
// --config reads back: by group, each with its meaning and where its
// value came from; a database URL's password and secrets are masked.
func (s *settings) print(w io.Writer) {
	fmt.Fprintf(w, "# The effective settings of stax %s: flag > $STAX_* > --config file > default.\n", s.command)
	fmt.Fprintf(w, "# Secrets are masked (a database URL's password reads xxxxx): put them back before using this file.\n")
	for _, g := range settingGroups[s.command] {
		fmt.Fprintf(w, "\n# %s\n[%s]\n", g.title, g.name)
		for _, name := range g.flags {
			f := s.fs.Lookup(name)
			if f == nil {
				continue
			}
			_, usage := flag.UnquoteUsage(f)
			for _, line := range wrap(usage, 76) {
				fmt.Fprintf(w, "# %s\n", line)
			}
			from := "default ($" + envName(name) + ")"
			switch src := s.source[name]; {
			case strings.HasPrefix(src, "$"):
				from = "from " + src
			case src != "":
				from = "from " + src + " ($" + envName(name) + ")"
			}
			fmt.Fprintf(w, "%s = %s # %s\n", name, s.tomlValue(f), from)
		}
	}
}

// tomlValue writes a flag's value in TOML, masked if secret.
func (s *settings) tomlValue(f *flag.Flag) string {
	var v any = f.Value.String()
	if g, ok := f.Value.(flag.Getter); ok {
		v = g.Get()
	}
	switch x := v.(type) {
	case bool, int, int64, uint, uint64, float64:
		return fmt.Sprint(x)
	case time.Duration:
		v = x.String()
	}
	text := fmt.Sprint(v)
	switch {
	case f.Name == "db":
		text = redactDB(text)
	case secretFlag(f.Name) && text != "":
		text = "********"
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(text)
	return strings.TrimSpace(b.String())
}

// flagGroup is a titled list of a command's flags, as help shows them.
type flagGroup struct {
	title string
	flags []helpFlag
}

// groupFlags returns a command's documented flags by purpose, for a
// command with settingGroups, the flags of no group last under
// "Configuration"; for another command, one untitled group of them all.
func groupFlags(command string, flags []helpFlag) []flagGroup {
	groups, ok := settingGroups[command]
	if !ok {
		return []flagGroup{{flags: flags}}
	}
	byName := map[string]helpFlag{}
	for _, f := range flags {
		byName[f.Name] = f
	}
	var out []flagGroup
	for _, g := range groups {
		fg := flagGroup{title: g.title}
		for _, name := range g.flags {
			if f, ok := byName[name]; ok {
				fg.flags = append(fg.flags, f)
				delete(byName, name)
			}
		}
		out = append(out, fg)
	}
	rest := flagGroup{title: "Configuration"}
	for _, f := range flags {
		if _, ok := byName[f.Name]; ok {
			rest.flags = append(rest.flags, f)
		}
	}
	return append(out, rest)
}
