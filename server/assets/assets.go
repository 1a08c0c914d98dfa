// Package assets serves the interface's static files the way a phone on a
// slow network wants them, with no build step: each file compressed with
// brotli and gzip (chosen by Accept-Encoding, compressed once and kept in
// memory), and each reachable under a content-hashed URL as well as its
// own, the hashed one cached for a year as immutable and the plain one
// revalidated (an ETag and 304 Not Modified).
//
// The hashes are computed when the Set is made, from the files' bytes. The
// interface's ES modules import each other by relative paths and are not
// rewritten: the page carries an import map (ImportMap) that sends each
// module's plain URL to its hashed one, and preloads the module graph
// (Preloads), which the Set reads from the modules' import lines.
package assets

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

// HashLen is the number of hex digits of a file's hash in its hashed
// name: app.js is served as app.<12 hex digits>.js too.
const HashLen = 12

// Immutable is the Cache-Control of a hashed URL, whose bytes never
// change; Revalidate is that of a plain URL.
const (
	Immutable  = "public, max-age=31536000, immutable"
	Revalidate = "no-cache"
)

// Plain names the files served by their own names only, never hashed:
// the page and the service worker, whose URLs must stay the same.
var Plain = map[string]bool{"index.html": true, "sw.js": true}

// File is one of the interface's files.
type File struct {
	// Name is its path in the file system ("pages/home.js"), Hashed the
	// same with the hash before the extension ("pages/home.0123456789ab.js"),
	// or "" for the Plain files.
	Name, Hashed string
	// Hash is the hex SHA-256 of Data.
	Hash string
	Data []byte
	// Type is its Content-Type.
	Type string
	// Imports are the files a module imports statically, by name.
	Imports []string

	enc *Encodings
}

// URL is the hashed URL of the file (the plain one of a Plain file).
func (f *File) URL() string {
	if f.Hashed == "" {
		return "/" + f.Name
	}
	return "/" + f.Hashed
}

// Set is a snapshot of the interface's files, hashed.
type Set struct {
	files  map[string]*File // by Name
	hashed map[string]*File // by Hashed
	names  []string         // sorted
}

// New reads and hashes every file of fsys but hidden ones (a segment
// starting with a dot) and those it cannot read.
func New(fsys fs.FS) (*Set, error) {
	s := &Set{files: map[string]*File{}, hashed: map[string]*File{}}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			// Not served: a symbolic link out of an --assets directory, a
			// file gone since the listing.
			return nil
		}
		sum := sha256.Sum256(b)
		f := &File{Name: p, Data: b, Hash: hex.EncodeToString(sum[:]), Type: contentType(p)}
		f.enc = encodingsOf(f.Hash)
		s.files[p] = f
		if !Plain[p] {
			f.Hashed = hashedName(p, f.Hash[:HashLen])
			s.hashed[f.Hashed] = f
		}
		s.names = append(s.names, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(s.names)
	for _, f := range s.files {
		if path.Ext(f.Name) == ".js" {
			for _, spec := range ImportSpecifiers(f.Data) {
				if name, ok := resolve(f.Name, spec); ok && s.files[name] != nil {
					f.Imports = append(f.Imports, name)
				}
			}
		}
	}
	return s, nil
}

// hashedName puts hash before the extension of name: a/b.js becomes
// a/b.<hash>.js.
func hashedName(name, hash string) string {
	ext := path.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + hash + ext
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".json":
		return "application/json"
	case ".webmanifest":
		return "application/manifest+json"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// File returns the file of a name, or nil.
func (s *Set) File(name string) *File { return s.files[name] }

// Names lists the files' names, sorted.
func (s *Set) Names() []string { return slices.Clone(s.names) }

// Lookup finds the file a URL path names (without its leading slash): its
// plain name or its hashed one, which hashed reports. A hashed name of
// another version of a file finds the file as its plain name would: during
// a rolling deployment, a page served by an instance of one version asks
// another instance for that version's files, and gets the current ones,
// revalidated, rather than a page without its scripts.
func (s *Set) Lookup(name string) (f *File, hashed bool) {
	if f := s.files[name]; f != nil {
		return f, false
	}
	if f := s.hashed[name]; f != nil {
		return f, true
	}
	if f := s.files[unhashed(name)]; f != nil && !Plain[f.Name] {
		return f, false
	}
	return nil, false
}

// unhashed returns the plain name of a hashed one (a/b.<hash>.js is
// a/b.js), or "" when name has no hash of HashLen hex digits before its
// extension.
func unhashed(name string) string {
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	hash := path.Ext(stem)
	if len(hash) != 1+HashLen || strings.Trim(hash[1:], "0123456789abcdef") != "" {
		return ""
	}
	return strings.TrimSuffix(stem, hash) + ext
}

// URL returns the hashed URL of the file a URL path names ("/style.css"),
// or the path itself when no file has that name.
func (s *Set) URL(p string) string {
	if f := s.files[strings.TrimPrefix(p, "/")]; f != nil {
		return f.URL()
	}
	return p
}

// Hashed maps each file's plain URL to its hashed one.
func (s *Set) Hashed() map[string]string {
	m := make(map[string]string, len(s.files))
	for _, f := range s.files {
		if f.Hashed != "" {
			m["/"+f.Name] = f.URL()
		}
	}
	return m
}

// ImportMap returns the import map of the modules: a JSON object whose
// "imports" send each module's plain URL to its hashed one, so that
// relative imports, resolved to plain URLs, load the hashed files.
func (s *Set) ImportMap() []byte {
	imports := map[string]string{}
	for _, name := range s.names {
		if f := s.files[name]; path.Ext(name) == ".js" && f.Hashed != "" {
			imports["/"+name] = f.URL()
		}
	}
	b, err := json.Marshal(map[string]any{"imports": imports})
	if err != nil {
		panic(err) // a map of strings always marshals
	}
	return b
}

// Graph returns the modules that the entries import, directly or not,
// with the entries first, each once, by name.
func (s *Set) Graph(entries ...string) []string {
	var out []string
	seen := map[string]bool{}
	var visit func(string)
	visit = func(name string) {
		if seen[name] || s.files[name] == nil {
			return
		}
		seen[name] = true
		out = append(out, name)
		for _, dep := range s.files[name].Imports {
			visit(dep)
		}
	}
	for _, e := range entries {
		visit(e)
	}
	return out
}

// importRE finds the specifiers of static import and export-from
// statements at the start of a line: import x from "s", import {a, b}
// from "s", import * as x from "s", import "s", export {a} from "s",
// export * from "s".
var importRE = regexp.MustCompile(`(?m)^[ \t]*(?:import[ \t\n]*(?:[\w$*{}\s,]*?\bfrom[ \t\n]*)?|export[ \t\n]*(?:\*[\w$\s]*|\{[\w$\s,]*\})[ \t\n]*from[ \t\n]*)["']([^"'\n]+)["']`)

// ImportSpecifiers returns the specifiers of a module's static imports, in
// the order they appear.
func ImportSpecifiers(src []byte) []string {
	var out []string
	for _, m := range importRE.FindAllSubmatch(src, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// resolve returns the file name a relative or absolute specifier of the
// module from names; bare specifiers and URLs resolve to nothing.
func resolve(from, spec string) (string, bool) {
	switch {
	case strings.HasPrefix(spec, "/") && !strings.HasPrefix(spec, "//"):
		return strings.TrimPrefix(path.Clean(spec), "/"), true
	case strings.HasPrefix(spec, "./"), strings.HasPrefix(spec, "../"):
		p := path.Join(path.Dir(from), spec)
		if strings.HasPrefix(p, "../") || p == ".." {
			return "", false
		}
		return p, true
	}
	return "", false
}

// Serve answers a request for a file: by its hashed name cached for a
// year as immutable, by its plain name revalidated with its ETag;
// compressed as the request accepts, with Vary: Accept-Encoding.
func Serve(w http.ResponseWriter, r *http.Request, f *File, hashed bool) {
	cc := Revalidate
	if hashed {
		cc = Immutable
	}
	w.Header().Set("Cache-Control", cc)
	ServeBytes(w, r, f.Data, f.Type, f.Hash[:HashLen*2], f.enc)
}

// ServeBytes answers a request with body, of content type ctype and
// version tag (the ETag, suffixed with the encoding), compressed as the
// request accepts when it pays; enc keeps the compressed forms (nil
// compresses quickly for this request only). It sets Vary: Accept-Encoding and
// Content-Length, and answers 304 to an If-None-Match of the tag. It
// serves no ranges: the files are small.
func ServeBytes(w http.ResponseWriter, r *http.Request, body []byte, ctype, tag string, enc *Encodings) {
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Add("Vary", "Accept-Encoding")
	if compressible(ctype) && len(body) >= minCompress {
		switch coding := Negotiate(r.Header.Get("Accept-Encoding")); coding {
		case "br", "gzip":
			var c []byte
			if enc != nil {
				c = enc.get(coding, body)
			} else {
				c = smaller(Quick(coding, body), body)
			}
			if c != nil {
				body = c
				h.Set("Content-Encoding", coding)
				tag += "-" + coding
			}
		}
	}
	etag := `"` + tag + `"`
	h.Set("ETag", etag)
	if (r.Method == http.MethodGet || r.Method == http.MethodHead) && matches(r.Header.Get("If-None-Match"), etag) {
		h.Del("Content-Type")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// matches reports whether an If-None-Match header names etag (compared
// weakly, as RFC 9110 asks for If-None-Match), or is "*".
func matches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// minCompress is the smallest body worth compressing.
const minCompress = 256

func compressible(ctype string) bool {
	t, _, _ := strings.Cut(ctype, ";")
	switch t {
	case "text/javascript", "text/css", "text/html", "text/plain", "application/json",
		"application/manifest+json", "image/svg+xml", "application/wasm":
		return true
	}
	return false
}

// Negotiate picks the encoding of an answer from an Accept-Encoding
// header: "br", "gzip" or "" (none), brotli first when both weigh the same.
func Negotiate(header string) string {
	best, bestQ := "", 0.0
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if v, ok := strings.CutPrefix(strings.ReplaceAll(p, " ", ""), "q="); ok {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil {
					f = 0
				}
				q = f
			}
		}
		if q <= 0 {
			continue
		}
		switch name {
		case "br", "gzip":
			if q > bestQ || (q == bestQ && name == "br") {
				best, bestQ = name, q
			}
		}
	}
	return best
}

// Encodings holds a content's compressed forms, each made once; the zero
// value has none yet.
type Encodings struct {
	brOnce, gzOnce sync.Once
	br, gz         []byte // nil when compressing does not pay
}

func (e *Encodings) get(coding string, body []byte) []byte {
	switch coding {
	case "br":
		e.brOnce.Do(func() { e.br = smaller(Brotli(body), body) })
		return e.br
	case "gzip":
		e.gzOnce.Do(func() { e.gz = smaller(Gzip(body), body) })
		return e.gz
	}
	return nil
}

// smaller returns c when it is smaller than body by at least a tenth.
func smaller(c, body []byte) []byte {
	if len(c) > len(body)*9/10 {
		return nil
	}
	return c
}

// byHash keeps the compressed forms of every content by its hash, for
// the process: every Set of the same files (a server restarted in a test,
// a directory re-read after an edit) compresses each content once.
var byHash sync.Map // hash → *Encodings

func encodingsOf(hash string) *Encodings {
	e, _ := byHash.LoadOrStore(hash, &Encodings{})
	return e.(*Encodings)
}

// Warm compresses every compressible file of the set, so that the first
// visitors wait for none.
func (s *Set) Warm() {
	for _, name := range s.names {
		f := s.files[name]
		if compressible(f.Type) && len(f.Data) >= minCompress {
			f.enc.get("br", f.Data)
			f.enc.get("gzip", f.Data)
		}
	}
}

// BrotliQuality is the brotli quality of the files: the best, as each is
// compressed once.
const BrotliQuality = 11

// Brotli compresses b with brotli.
func Brotli(b []byte) []byte { return brotliLevel(b, BrotliQuality) }

// Gzip compresses b with gzip.
func Gzip(b []byte) []byte { return gzipLevel(b, gzip.BestCompression) }

func brotliLevel(b []byte, q int) []byte {
	var out bytes.Buffer
	// A window no larger than the file compresses it as well as the
	// largest: at quality 11 the compressor's tables grow with the window
	// (32 MB for the default 4 MiB one), which every file of a server's
	// start would allocate.
	lgwin := 10
	for lgwin < 24 && 1<<lgwin-16 < len(b) {
		lgwin++
	}
	w := brotli.NewWriterOptions(&out, brotli.WriterOptions{Quality: q, LGWin: lgwin})
	w.Write(b)
	w.Close()
	return out.Bytes()
}

func gzipLevel(b []byte, level int) []byte {
	var out bytes.Buffer
	w, _ := gzip.NewWriterLevel(&out, level)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// The compressors of Quick are kept for reuse: their tables (about 800 KB
// for gzip, 600 KB for brotli) are far larger than an answer, and made
// afresh for each they would be most of its time and of the server's
// garbage.
var (
	quickGzip = sync.Pool{New: func() any {
		w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
		return w
	}}
	quickBrotli = sync.Pool{New: func() any {
		return brotli.NewWriterOptions(nil, brotli.WriterOptions{Quality: 5, LGWin: 22})
	}}
)

// Quick compresses b in a coding ("br" or "gzip") at a level quick
// enough for an answer made for one request.
func Quick(coding string, b []byte) []byte {
	if coding == "br" {
		return compressWith(&quickBrotli, b)
	}
	return compressWith(&quickGzip, b)
}

// compressWith compresses b with a compressor of pool, which it puts back.
func compressWith(pool *sync.Pool, b []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(b)/4 + 64)
	w := pool.Get().(interface {
		io.WriteCloser
		Reset(io.Writer)
	})
	w.Reset(&out)
	w.Write(b)
	w.Close()
	w.Reset(nil)
	pool.Put(w)
	return out.Bytes()
}

// Compressible reports whether answers of a content type are worth
// compressing.
func Compressible(ctype string) bool { return compressible(ctype) }
