package server

import (
	"strconv"
	"strings"
)

// pageLanguages are the languages of the browser interface, the first the
// default.
var pageLanguages = []string{"en", "fr", "es"}

// pageLanguage picks the interface's language from an Accept-Language
// header: the known language the browser weighs highest, else English.
func pageLanguage(header string) string {
	best, bestQ := pageLanguages[0], 0.0
	for _, part := range strings.Split(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				continue
			}
			q = f
		}
		base, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		for _, l := range pageLanguages {
			if base == l && q > bestQ {
				best, bestQ = l, q
			}
		}
	}
	return best
}
