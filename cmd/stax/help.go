package main

import (
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
)

// helpFiles holds the long description of every command, help/<name>.txt,
// and the introduction to them all, help/stax.txt. They are plain text
// with Markdown's `code` spans, examples indented by four spaces, and
// references to docs/*.md that the README makes links.
//
//go:embed help/*.txt
var helpFiles embed.FS

// longText returns the long description of a command, or the
// introduction for "stax".
func longText(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// flagSet returns the flags of a command, learnt by running it with -h,
// which stops it once they are defined.
func flagSet(c *command) (*flag.FlagSet, error) {
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	err := c.run(e, []string{"-h"})
	if !errors.Is(err, flag.ErrHelp) || e.flags == nil {
		return nil, fmt.Errorf("stax %s -h: %v; want its flags (the command must parse them first)", c.name, err)
	}
	return e.flags, nil
}

// printHelp writes "stax help": the commands and the introduction.
func printHelp(w io.Writer) {
	fmt.Fprintln(w, "stax plays, analyses and serves the stacking games Pogo, Pisola and Diam.")
	fmt.Fprintln(w, "\nUsage: stax <command> [arguments]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.short)
	}
	fmt.Fprintf(w, "\n%s\n", plain(longText("stax")))
}

// printCommandHelp writes the help of one command, as both "stax help
// <command>" and "stax <command> -h" show it.
func printCommandHelp(w io.Writer, c *command) error {
	fs, err := flagSet(c)
	if err != nil {
		return err
	}
	for i, u := range c.usage {
		lead := "usage:"
		if i > 0 {
			lead = "      "
		}
		fmt.Fprintf(w, "%s stax %s %s\n", lead, c.name, u)
	}
	fmt.Fprintf(w, "\n%s\n", plain(longText(c.name)))
	flags := documentedFlags(fs)
	if len(flags) > 0 {
		fmt.Fprintln(w, "\nFlags:")
	}
	for _, g := range groupFlags(c.name, flags) {
		if g.title != "" {
			fmt.Fprintf(w, "\n %s:\n", g.title)
		}
		for _, f := range g.flags {
			fmt.Fprintf(w, "  %s\n", f.synopsis())
			for _, line := range wrap(f.doc(), 72) {
				fmt.Fprintf(w, "        %s\n", line)
			}
		}
	}
	if dep := deprecatedFlags(fs); dep != "" {
		for _, line := range wrap("Still accepted but deprecated: "+dep+".", 78) {
			fmt.Fprintf(w, "\n%s", line)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// deprecatedPrefix starts the usage of a flag kept only so that old
// command lines still work; help lists it apart, with what replaces it.
const deprecatedPrefix = "deprecated: "

// helpFlag is a flag as the help shows it.
type helpFlag struct{ *flag.Flag }

// documentedFlags returns the flags of fs that are not deprecated, in
// lexical order.
func documentedFlags(fs *flag.FlagSet) []helpFlag {
	var out []helpFlag
	fs.VisitAll(func(f *flag.Flag) {
		if !strings.HasPrefix(f.Usage, deprecatedPrefix) {
			out = append(out, helpFlag{f})
		}
	})
	return out
}

// deprecatedFlags describes the deprecated flags of fs and their
// replacements, e.g. "--game SPEC (give the spec as the first argument)".
func deprecatedFlags(fs *flag.FlagSet) string {
	var out []string
	fs.VisitAll(func(f *flag.Flag) {
		if rest, ok := strings.CutPrefix(f.Usage, deprecatedPrefix); ok {
			out = append(out, fmt.Sprintf("--%s (%s)", f.Name, rest))
		}
	})
	return strings.Join(out, ", ")
}

// synopsis writes the flag with the name of its value, e.g. "--pos S" or
// "--quiet". The name is the first `quoted` word of the usage, as in the
// flag package, else one from the flag's type.
func (f helpFlag) synopsis() string {
	name, _ := flag.UnquoteUsage(f.Flag)
	if g, ok := f.Value.(flag.Getter); ok && name == "value" {
		if _, ok := g.Get().(time.Duration); ok {
			name = "duration"
		}
	}
	if name == "" {
		return "--" + f.Name
	}
	return "--" + f.Name + " " + name
}

// doc writes the flag's usage with its default, which is left out when
// it is the zero value or the usage already says what the default is.
func (f helpFlag) doc() string {
	_, usage := flag.UnquoteUsage(f.Flag)
	usage = strings.TrimPrefix(usage, deprecatedPrefix)
	switch f.DefValue {
	case "", "0", "false", "0s", "[]":
		return usage
	}
	if strings.Contains(usage, "default") {
		return usage
	}
	def := f.DefValue
	if g, ok := f.Value.(flag.Getter); ok {
		if _, ok := g.Get().(time.Duration); ok {
			// 336h0m0s is written 336h, 10m0s 10m.
			if strings.HasSuffix(def, "m0s") {
				def = strings.TrimSuffix(def, "0s")
			}
			if strings.HasSuffix(def, "h0m") {
				def = strings.TrimSuffix(def, "0m")
			}
		}
	}
	return fmt.Sprintf("%s (default %s)", usage, def)
}

// wrap breaks text into lines of at most width columns, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// emphasis matches Markdown's *emphasis*.
var emphasis = regexp.MustCompile(`\*([^*\s][^*]*)\*`)

// plain renders a long text for a terminal: the backquotes of code spans
// and the stars of emphasis are dropped outside the indented examples.
func plain(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "    ") {
			lines[i] = emphasis.ReplaceAllString(strings.ReplaceAll(l, "`", ""), "$1")
		}
	}
	return strings.Join(lines, "\n")
}

// docRef matches a reference to a document of docs/, with an optional
// anchor.
var docRef = regexp.MustCompile(`docs/[a-z0-9-]+\.md(#[a-z0-9-]+)?`)

// markdown renders a long text for the README: references to docs/ become
// links (outside code spans and examples).
func markdown(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "    ") {
			continue
		}
		parts := strings.Split(l, "`")
		for j := 0; j < len(parts); j += 2 {
			parts[j] = docRef.ReplaceAllStringFunc(parts[j], func(ref string) string {
				path, _, _ := strings.Cut(ref, "#")
				return fmt.Sprintf("[%s](%s)", path, ref)
			})
		}
		lines[i] = strings.Join(parts, "`")
	}
	return strings.Join(lines, "\n")
}

// writeReference writes the README's command reference: the introduction
// and every command with its forms, its description and its flags.
func writeReference(w io.Writer) error {
	fmt.Fprintf(w, "%s\n", markdown(longText("stax")))
	for _, c := range commands() {
		fs, err := flagSet(&c)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\n### stax %s\n\n", c.name)
		for _, u := range c.usage {
			fmt.Fprintf(w, "    stax %s %s\n", c.name, u)
		}
		fmt.Fprintf(w, "\n%s\n", markdown(longText(c.name)))
		flags := documentedFlags(fs)
		for _, g := range groupFlags(c.name, flags) {
			if len(g.flags) == 0 {
				continue
			}
			if g.title != "" {
				fmt.Fprintf(w, "\n%s:\n", g.title)
			}
			fmt.Fprintf(w, "\n| flag | meaning |\n|---|---|\n")
			for _, f := range g.flags {
				fmt.Fprintf(w, "| `%s` | %s |\n", f.synopsis(), tableCell(f.doc()))
			}
		}
		if dep := deprecatedFlags(fs); dep != "" {
			fmt.Fprintf(w, "\nStill accepted but deprecated: %s.\n", tableCell(dep))
		}
	}
	return nil
}

// flagName matches a flag's name in a flag's description.
var flagName = regexp.MustCompile(`--[a-z][a-z0-9-]*`)

// tableCell escapes text for a cell of a Markdown table, writing the flags
// it names as code.
func tableCell(s string) string {
	return flagName.ReplaceAllString(strings.ReplaceAll(s, "|", `\|`), "`$0`")
}
