package server

import (
	"net/http"
	"strconv"
	"strings"

	"stax/server/assets"
)

// The API's answers are compressed for the clients that accept it (a
// game's state, the list of games, an analysis: tens of kilobytes of
// JSON), brotli at a quick level or gzip.

// compressMin is the smallest answer compressed; compressMax the largest
// buffered to be, larger ones go as they are.
const (
	compressMin = 1024
	compressMax = 8 << 20
)

// compressAPI compresses the answers of next to GET and POST /api/
// requests.
func compressAPI(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.Method != http.MethodGet && r.Method != http.MethodPost) || !strings.HasPrefix(r.URL.Path, "/api/") {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", "Accept-Encoding")
		coding := assets.Negotiate(r.Header.Get("Accept-Encoding"))
		if coding == "" {
			next.ServeHTTP(w, r)
			return
		}
		cw := &compressWriter{ResponseWriter: w, coding: coding, code: http.StatusOK}
		next.ServeHTTP(cw, r)
		cw.finish()
	})
}

// compressWriter holds an answer until it is complete, then sends it
// compressed when it pays; an answer flushed or too large goes as it is.
type compressWriter struct {
	http.ResponseWriter
	coding  string
	code    int
	wrote   bool // WriteHeader was called
	through bool // the answer goes as it is
	buf     []byte
}

func (cw *compressWriter) WriteHeader(code int) {
	if cw.through {
		cw.ResponseWriter.WriteHeader(code)
		return
	}
	if cw.wrote || code < 200 {
		return
	}
	cw.wrote, cw.code = true, code
}

func (cw *compressWriter) Write(b []byte) (int, error) {
	if cw.through {
		return cw.ResponseWriter.Write(b)
	}
	if len(cw.buf)+len(b) > compressMax {
		cw.passThrough()
		return cw.ResponseWriter.Write(b)
	}
	cw.buf = append(cw.buf, b...)
	return len(b), nil
}

// Flush sends what is held and the rest as it comes.
func (cw *compressWriter) Flush() {
	if !cw.through {
		cw.passThrough()
	}
	if f, ok := cw.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (cw *compressWriter) Unwrap() http.ResponseWriter { return cw.ResponseWriter }

func (cw *compressWriter) passThrough() {
	cw.through = true
	cw.ResponseWriter.WriteHeader(cw.code)
	if len(cw.buf) > 0 {
		cw.ResponseWriter.Write(cw.buf)
	}
	cw.buf = nil
}

// finish sends the answer held, compressed when it pays.
func (cw *compressWriter) finish() {
	if cw.through {
		return
	}
	h := cw.Header()
	body := cw.buf
	if (cw.code == http.StatusOK || cw.code == http.StatusCreated) && len(body) >= compressMin && h.Get("Content-Encoding") == "" && assets.Compressible(h.Get("Content-Type")) {
		if c := assets.Quick(cw.coding, body); len(c) < len(body) {
			body = c
			h.Set("Content-Encoding", cw.coding)
			if etag := h.Get("ETag"); strings.HasSuffix(etag, `"`) {
				h.Set("ETag", strings.TrimSuffix(etag, `"`)+"-"+cw.coding+`"`)
			}
		}
	}
	if cw.code != http.StatusNoContent && cw.code != http.StatusNotModified {
		h.Set("Content-Length", strconv.Itoa(len(body)))
	}
	cw.ResponseWriter.WriteHeader(cw.code)
	if len(body) > 0 {
		cw.ResponseWriter.Write(body)
	}
}
