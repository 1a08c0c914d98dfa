package server

import (
	"bytes"
	"io/fs"
	"net/http"
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

// serveIndex serves the interface's index.html with <html lang> set to the
// language of the request's Accept-Language, which the interface speaks
// unless the visitor chose another.
func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	page, err := fs.ReadFile(s.cfg.Assets, "index.html")
	if err != nil {
		http.NotFound(w, r)
		return
	}
	lang := pageLanguage(r.Header.Get("Accept-Language"))
	page = bytes.Replace(page, []byte(`<html lang="en">`), []byte(`<html lang="`+lang+`">`), 1)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Vary", "Accept-Language")
	w.Header().Set("Cache-Control", "no-cache")
	if r.Method != http.MethodHead {
		w.Write(page)
	}
}
