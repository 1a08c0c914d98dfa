package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// printedConfig runs a command with --print-config, the given environment
// and arguments, and returns what it printed, read back as TOML (the
// groups' tables flattened), or the command's error.
func printedConfig(t *testing.T, command string, environ map[string]string, args ...string) (map[string]any, string, error) {
	t.Helper()
	var out bytes.Buffer
	e := &env{stdout: &out, stderr: &out, getenv: func(k string) string { return environ[k] }}
	if err := run(e, append([]string{command, "--print-config"}, args...)); err != nil {
		return nil, out.String(), err
	}
	var raw map[string]map[string]any
	if _, err := toml.Decode(out.String(), &raw); err != nil {
		t.Fatalf("--print-config wrote no TOML file: %v\n%s", err, out.String())
	}
	flat := map[string]any{}
	for _, table := range raw {
		for k, v := range table {
			flat[k] = v
		}
	}
	return flat, out.String(), nil
}

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "stax.toml")
	if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestConfigPrecedence checks that a setting comes from the flag, else
// the environment, else the file, else the default.
func TestConfigPrecedence(t *testing.T) {
	file := writeConfig(t, `
# A file as an operator writes it, grouped and commented.
max-conns = 10
create-every = "5s"
trusted-proxies = ["10.0.0.1", "10.0.0.0/8"]
[limits]
join-burst = 7
max-open-games = 9
[operators]
metrics = true
`)
	environ := map[string]string{"STAX_MAX_CONNS": "20", "STAX_JOIN_BURST": "8", "STAX_PING_INTERVAL": "45s", "STAX_UNRELATED": "x"}
	got, text, err := printedConfig(t, "serve", environ, "--config", file, "--max-conns", "30")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		want any
		from string
	}{
		{"max-conns", int64(30), "from the command line"},
		{"join-burst", int64(8), "from $STAX_JOIN_BURST"},
		{"ping-interval", "45s", "from $STAX_PING_INTERVAL"},
		{"create-every", "5s", "from " + file},
		{"max-open-games", int64(9), "from " + file},
		{"metrics", true, "from " + file},
		{"trusted-proxies", "10.0.0.1,10.0.0.0/8", "from " + file},
		{"max-plies", int64(2000), "default"},
		{"addr", "127.0.0.1:8080", "default"},
	} {
		if got[c.name] != c.want {
			t.Errorf("%s = %#v; want %#v", c.name, got[c.name], c.want)
		}
		if !strings.Contains(text, c.name+" = ") || !strings.Contains(lineOf(text, c.name+" = "), "# "+c.from) {
			t.Errorf("%s: printed %q; want it said to come %s", c.name, lineOf(text, c.name+" = "), c.from)
		}
	}
	// $STAX_CONFIG names the file when --config does not.
	got, _, err = printedConfig(t, "serve", map[string]string{"STAX_CONFIG": file})
	if err != nil || got["max-conns"] != int64(10) {
		t.Errorf("with $STAX_CONFIG: max-conns %v, %v; want 10 from the file", got["max-conns"], err)
	}
}

// lineOf returns the line of text that starts with prefix.
func lineOf(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// TestPrintConfigRoundTrip checks that --print-config writes a file that
// --config reads back to the same settings, with the secrets masked.
func TestPrintConfigRoundTrip(t *testing.T) {
	for _, command := range []string{"serve", "worker"} {
		first, text, err := printedConfig(t, command, map[string]string{"STAX_DB": "postgres://stax:hunter2@db.example.org/stax"},
			"--workers", "3", "--log-level", "warn")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(text, "hunter2") {
			t.Errorf("stax %s --print-config shows the database password:\n%s", command, text)
		}
		second, _, err := printedConfig(t, command, nil, "--config", writeConfig(t, text))
		if err != nil {
			t.Fatalf("stax %s --config of its own --print-config: %v", command, err)
		}
		if len(first) != len(second) {
			t.Errorf("stax %s: %d settings printed, %d read back", command, len(first), len(second))
		}
		for k, v := range first {
			if second[k] != v {
				t.Errorf("stax %s: %s = %#v printed, %#v read back", command, k, v, second[k])
			}
		}
	}
}

// TestConfigErrors checks that a bad file or variable is refused with
// what was expected, never ignored.
func TestConfigErrors(t *testing.T) {
	for _, c := range []struct {
		file    string // the file's text; none when empty
		environ map[string]string
		says    string
	}{
		{"max-conn = 10", nil, `"max-conn" is not a setting of stax serve`},
		{"max-conns = \"many\"", nil, "max-conns = \"many\""},
		{"ping-interval = 30", nil, "ping-interval"},
		{"[limit]\nmax-conns = 10", nil, "[limit] is not a group of settings"},
		{"[limits.more]\nmax-conns = 10", nil, "not a group of settings"},
		{"max-conns = 10\n[limits]\nmax-conns = 11", nil, "set twice"},
		{"max-conns = [1, 2]", nil, "a list of strings"},
		{"config = \"other.toml\"", nil, "not a setting"},
		{"print-config = true", nil, "not a setting"},
		{"max-conns = ", nil, "not a TOML file"},
		{"", map[string]string{"STAX_MAX_CONNS": "lots"}, "$STAX_MAX_CONNS=\"lots\" (--max-conns)"},
		{"", map[string]string{"STAX_CONFIG": "/nonexistent/stax.toml"}, "--config"},
	} {
		args := []string{}
		if c.file != "" {
			args = append(args, "--config", writeConfig(t, c.file))
		}
		_, _, err := printedConfig(t, "serve", c.environ, args...)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("file %q, environment %v: error %v; want one saying %q", c.file, c.environ, err, c.says)
		}
	}
}

// TestSettingGroups checks that every setting of stax serve and stax
// worker belongs to one group, which names only flags that exist.
func TestSettingGroups(t *testing.T) {
	for command, groups := range settingGroups {
		c := lookup(command)
		if c == nil {
			t.Fatalf("settingGroups names no command %q", command)
		}
		fs, err := flagSet(c)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]string{}
		for _, g := range groups {
			for _, name := range g.flags {
				if fs.Lookup(name) == nil {
					t.Errorf("stax %s: group %s names no flag --%s", command, g.name, name)
				}
				if other, dup := seen[name]; dup {
					t.Errorf("stax %s: --%s is in groups %s and %s", command, name, other, g.name)
				}
				seen[name] = g.name
			}
		}
		for _, f := range documentedFlags(fs) {
			if seen[f.Name] == "" && !metaFlags[f.Name] {
				t.Errorf("stax %s: --%s is in no group of settingGroups (cmd/stax/config.go); add it where an operator would look for it", command, f.Name)
			}
		}
	}
}

// TestDeployConfigExample checks that the configuration file shown in
// docs/deploy.md is one that stax serve reads.
func TestDeployConfigExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "deploy.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "    # /etc/stax/serve.toml\n")
	if !ok {
		t.Fatal("docs/deploy.md: no example beginning with # /etc/stax/serve.toml")
	}
	var lines []string
	for _, l := range strings.Split(rest, "\n") {
		if l != "" && !strings.HasPrefix(l, "    ") {
			break
		}
		lines = append(lines, strings.TrimPrefix(l, "    "))
	}
	got, _, err := printedConfig(t, "serve", nil, "--config", writeConfig(t, strings.Join(lines, "\n")))
	if err != nil {
		t.Fatalf("the example of docs/deploy.md: %v", err)
	}
	if got["workers"] != int64(0) || got["health-addr"] != "10.0.0.11:9090" || got["trusted-proxies"] != "10.0.0.5" {
		t.Errorf("the example of docs/deploy.md read as %v", got)
	}
}
