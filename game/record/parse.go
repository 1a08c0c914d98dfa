package record

import (
	"fmt"
	"strings"
)

// SyntaxError reports text that is not a well-formed record.
type SyntaxError struct {
	Line int    // the line, counting from 1
	Msg  string // what was wrong and what was expected
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Parse parses the text of one record. It checks only the syntax: the tag
// pairs, the comments, the move numbers and the result token; Replay checks
// the moves. Errors are *SyntaxError and say the line and what was
// expected.
func Parse(text string) (*Record, error) {
	p := newParser(text)
	r, err := p.record()
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, &SyntaxError{Line: p.lineNo(), Msg: "no record: want tag pairs such as [Game \"pogo\"] and a move list"}
	}
	p.skipBlank()
	if !p.done() {
		return nil, &SyntaxError{Line: p.lineNo(), Msg: "a second record starts here; want a single game record"}
	}
	return r, nil
}

// ParseAll parses a file of records separated by blank lines. Text with no
// record gives none and no error.
func ParseAll(text string) ([]*Record, error) {
	p := newParser(text)
	var out []*Record
	for {
		r, err := p.record()
		if err != nil {
			return nil, err
		}
		if r == nil {
			return out, nil
		}
		out = append(out, r)
	}
}

// parser reads records line by line.
type parser struct {
	lines []string
	i     int // the next line to read
}

func newParser(text string) *parser {
	text = strings.TrimPrefix(text, "\uFEFF")
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return &parser{lines: lines}
}

func (p *parser) done() bool { return p.i >= len(p.lines) }

// lineNo returns the number, from 1, of the next line to read.
func (p *parser) lineNo() int { return min(p.i, len(p.lines)-1) + 1 }

func (p *parser) blank() bool { return strings.TrimSpace(p.lines[p.i]) == "" }

func (p *parser) skipBlank() {
	for !p.done() && p.blank() {
		p.i++
	}
}

// isTagLine reports whether a line opens a tag pair.
func isTagLine(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "[") }

// record parses the next record, or returns nil at the end of the text.
func (p *parser) record() (*Record, error) {
	p.skipBlank()
	if p.done() {
		return nil, nil
	}
	r := &Record{}
	seen := map[string]bool{} // the tags read, so that a long list is read in linear time
	for !p.done() && isTagLine(p.lines[p.i]) {
		t, err := parseTag(p.lines[p.i])
		if err != nil {
			return nil, &SyntaxError{Line: p.i + 1, Msg: err.Error()}
		}
		if t.Name == TagResult && !isResult(t.Value) {
			return nil, &SyntaxError{Line: p.i + 1, Msg: fmt.Sprintf("Result tag %q: want 1-0, 0-1, 1/2-1/2, one field per player such as 1-0-1-0, or * for a game in progress", t.Value)}
		}
		if seen[t.Name] {
			return nil, &SyntaxError{Line: p.i + 1, Msg: fmt.Sprintf("tag %s given twice", t.Name)}
		}
		seen[t.Name] = true
		r.Tags = append(r.Tags, t)
		p.i++
	}
	// One blank line (or more) separates the tags from the move list; a
	// tag line after it starts the next record, so this one has no moves.
	if len(r.Tags) > 0 {
		j := p.i
		for j < len(p.lines) && strings.TrimSpace(p.lines[j]) == "" {
			j++
		}
		if j == len(p.lines) || isTagLine(p.lines[j]) {
			p.i = j
			return r, nil
		}
		p.i = j
	}
	if err := p.moves(r); err != nil {
		return nil, err
	}
	return r, nil
}

// moves reads the move list of r: lines up to a blank line outside a
// comment, a tag line, or the end of the text.
func (p *parser) moves(r *Record) error {
	var result string
	resultLine := 0
	inComment := false
	commentLine := 0
	for !p.done() {
		line := p.lines[p.i]
		if !inComment && (strings.TrimSpace(line) == "" || isTagLine(line)) {
			break
		}
		lineNo := p.i + 1
		p.i++
		tok := func(start, end int) error {
			w := line[start:end]
			// A move number: 12. or 12... alone, or stuck to the move.
			for {
				digits := 0
				for digits < len(w) && w[digits] >= '0' && w[digits] <= '9' {
					digits++
				}
				dots := digits
				for dots < len(w) && w[dots] == '.' {
					dots++
				}
				if dots == digits {
					break
				}
				w = w[dots:]
			}
			if w == "" {
				return nil
			}
			if result != "" {
				return &SyntaxError{Line: lineNo, Msg: fmt.Sprintf("%q after the result %s: the result token ends the move list", w, result)}
			}
			if isResult(w) {
				result, resultLine = w, lineNo
				return nil
			}
			for k := 0; k < len(w); k++ {
				if c := w[k]; c <= ' ' || c >= 0x7f || strings.IndexByte("()[]\"\\", c) >= 0 {
					msg := fmt.Sprintf("unexpected character %q in move %q; want moves in the game's notation separated by spaces", c, w)
					if c == '(' || c == ')' {
						msg = "variations in parentheses are not supported; put them in a {comment}"
					}
					return &SyntaxError{Line: lineNo, Msg: msg}
				}
			}
			r.Moves = append(r.Moves, w)
			return nil
		}
		start := -1
		for k := 0; k < len(line); k++ {
			c := line[k]
			if inComment {
				if c == '}' {
					inComment = false
				}
				continue
			}
			switch {
			case c == '{' || c == ';' || c == '}' || c == ' ' || c == '\t':
				if start >= 0 {
					if err := tok(start, k); err != nil {
						return err
					}
					start = -1
				}
				switch c {
				case '{':
					inComment, commentLine = true, lineNo
				case '}':
					return &SyntaxError{Line: lineNo, Msg: "} with no { before it"}
				case ';':
					k = len(line) // a comment to the end of the line
				}
			case start < 0:
				start = k
			}
		}
		if start >= 0 {
			if err := tok(start, len(line)); err != nil {
				return err
			}
		}
	}
	if inComment {
		return &SyntaxError{Line: commentLine, Msg: "comment { is not closed; want } after it"}
	}
	if result != "" {
		switch tag := r.Get(TagResult); {
		case !r.Has(TagResult):
			if result != "*" {
				r.Set(TagResult, result)
			}
		case tag != result:
			return &SyntaxError{Line: resultLine, Msg: fmt.Sprintf("the result token %s disagrees with the Result tag %q", result, tag)}
		}
	}
	return nil
}

// parseTag parses a tag line: [Name "value"], with \" and \\ escaping a
// quote and a backslash in the value.
func parseTag(line string) (Tag, error) {
	s := strings.TrimSpace(line)
	s = strings.TrimPrefix(s, "[")
	s = strings.TrimLeft(s, " \t")
	n := 0
	for n < len(s) && (isLetter(s[n]) || n > 0 && (s[n] >= '0' && s[n] <= '9' || s[n] == '_')) {
		n++
	}
	if n == 0 {
		return Tag{}, fmt.Errorf("tag pair: want a name of letters, digits and _ after [, as in [Game \"pogo\"]")
	}
	name := s[:n]
	s = strings.TrimLeft(s[n:], " \t")
	if !strings.HasPrefix(s, "\"") {
		return Tag{}, fmt.Errorf("tag %s: want a value in double quotes after the name, as in [%s \"value\"]", name, name)
	}
	var v strings.Builder
	k := 1
	for ; k < len(s) && s[k] != '"'; k++ {
		c := s[k]
		switch {
		case c == '\\':
			k++
			if k == len(s) || s[k] != '"' && s[k] != '\\' {
				return Tag{}, fmt.Errorf("tag %s: bad escape in the value; want \\\" for a quote and \\\\ for a backslash", name)
			}
			v.WriteByte(s[k])
		case c < ' ' && c != '\t' || c == 0x7f:
			return Tag{}, fmt.Errorf("tag %s: control character %q in the value", name, c)
		default:
			v.WriteByte(c)
		}
	}
	if k == len(s) {
		return Tag{}, fmt.Errorf("tag %s: the value's closing quote is missing", name)
	}
	rest := strings.TrimSpace(s[k+1:])
	if rest != "]" {
		return Tag{}, fmt.Errorf("tag %s: want ] after the value, then nothing else on the line", name)
	}
	return Tag{name, v.String()}, nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
