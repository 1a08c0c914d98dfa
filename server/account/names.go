package account

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// maxName bounds a player's name, in characters.
const maxName = 40

// CleanName checks a player's name and returns it in the form the server
// keeps: normalised to NFC, each run of spaces made one ASCII space, trimmed.
// It refuses invalid UTF-8, control and format characters (bidi overrides,
// zero-width characters), line separators, private-use and unassigned code
// points, names longer than maxName, and names that pass for the computer or
// the server (see reservedName).
func CleanName(name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", errors.New("name: want UTF-8 text")
	}
	name = norm.NFC.String(name)
	var b strings.Builder
	space := false
	for _, r := range name {
		switch {
		case unicode.In(r, unicode.Zs):
			space = true
			continue
		case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs, unicode.Zl, unicode.Zp) || !unicode.IsGraphic(r):
			return "", fmt.Errorf("name: the character %U is not allowed (control, formatting and invisible characters are refused)", r)
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	name = b.String()
	if n := utf8.RuneCountInString(name); n > maxName {
		return "", fmt.Errorf("name: %d characters; want at most %d", n, maxName)
	}
	if reservedName(name) {
		return "", fmt.Errorf("name %q: names that pass for the computer or the server are reserved; choose another", name)
	}
	return name, nil
}

// lookalikes maps letters and digits that pass for Latin letters in a name
// to those letters.
var lookalikes = map[rune]rune{
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'і': 'i', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd', 'т': 't', 'м': 'm',
	'α': 'a', 'ε': 'e', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'ν': 'v', 'κ': 'k', 'ι': 'i', 'μ': 'u',
	'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '$': 's', '@': 'a', '|': 'l',
}

// skeleton reduces a name to what it looks like: compatibility forms
// folded and accents split off (NFKD: full-width and styled letters become
// plain ones), lower case, lookalike letters replaced, everything but
// letters dropped (accents included).
func skeleton(name string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(strings.ToLower(name)) {
		if l, ok := lookalikes[r]; ok {
			r = l
		}
		if unicode.IsLetter(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// reservedName reports whether a name passes for the computer or the
// server: it reads "computer" anywhere, or starts with "stax", or is "ai"
// or "bot", whatever the spacing, case, accents or lookalike letters.
func reservedName(name string) bool {
	s := skeleton(name)
	return strings.Contains(s, "computer") || strings.HasPrefix(s, "stax") || s == "ai" || s == "bot"
}
