package offline

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Package is the import path, in the module, of the engine's main
// package.
const Package = "./cmd/stax-wasm"

// BuildConfig says where the engine's source is and where to keep it.
type BuildConfig struct {
	// Module is the root directory of stax's module (its go.mod); empty:
	// the module of the working directory, as `go env GOMOD` finds it.
	Module string
	// Dir is the cache directory the engine is kept in between starts
	// (stax serve passes engine/ in the solved tables' directory); empty
	// keeps it in memory only.
	Dir string
	// Go is the go tool; empty: go on PATH, else the one of the toolchain
	// that built this program.
	Go string
	// Log receives the news of the build (nil: none): what was built, how
	// long it took and its sizes, or why there is no engine.
	Log func(msg string, args ...any)
}

// Builder builds the engine in the background and then gives it: it is
// the Source stax serve passes to the server.
type Builder struct {
	cfg  BuildConfig
	done chan struct{}

	mu       sync.Mutex
	engine   *Engine
	building bool
	why      error
}

// StartBuild starts building the engine in the background (the go tool
// builds it with GOOS=js GOARCH=wasm; its build cache makes a rebuild of
// unchanged source a matter of seconds). When the build fails and Dir
// holds an earlier build, that one is given, and the log says so.
func StartBuild(ctx context.Context, cfg BuildConfig) *Builder {
	b := &Builder{cfg: cfg, done: make(chan struct{}), building: true}
	go func() {
		defer close(b.done)
		start := time.Now()
		e, err := build(ctx, cfg)
		if err != nil {
			if old, oldErr := readCached(cfg.Dir); oldErr == nil {
				b.log("the browser engine could not be built; serving the one built earlier", "err", err, "version", old.Version)
				e, err = old, nil
			} else {
				b.log("no browser engine: offline play and local analysis are off", "err", err)
			}
		} else {
			b.log("built the browser engine", "elapsed", time.Since(start).Round(time.Millisecond), "bytes", e.Size, "gzip", len(e.Gzip), "version", e.Version)
		}
		b.mu.Lock()
		b.engine, b.why, b.building = e, err, false
		b.mu.Unlock()
	}()
	return b
}

// Engine gives the engine once built (see Source).
func (b *Builder) Engine() (*Engine, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.building {
		return nil, true, errors.New("the browser engine is being built")
	}
	return b.engine, false, b.why
}

// Wait waits until the build is over or ctx is done, and returns the
// engine or why there is none.
func (b *Builder) Wait(ctx context.Context) (*Engine, error) {
	select {
	case <-b.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	e, _, err := b.Engine()
	return e, err
}

func (b *Builder) log(msg string, args ...any) {
	if b.cfg.Log != nil {
		b.cfg.Log(msg, args...)
	}
}

// The files of a build in the cache directory.
const (
	wasmFile = "stax.wasm"
	execFile = "wasm_exec.js"
)

// build builds the engine with the go tool.
func build(ctx context.Context, cfg BuildConfig) (*Engine, error) {
	tool, err := goTool(cfg.Go)
	if err != nil {
		return nil, err
	}
	mod, err := moduleRoot(ctx, tool, cfg.Module)
	if err != nil {
		return nil, err
	}
	out, err := os.MkdirTemp("", "stax-wasm-")
	if err != nil {
		return nil, fmt.Errorf("a temporary directory for the build: %w", err)
	}
	defer os.RemoveAll(out)
	target := filepath.Join(out, wasmFile)
	cmd := exec.CommandContext(ctx, tool, "build", "-trimpath", "-ldflags=-s -w", "-o", target, Package)
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s build %s (GOOS=js GOARCH=wasm) in %s: %w: %s", tool, Package, mod, err, strings.TrimSpace(stderr.String()))
	}
	wasm, err := os.ReadFile(target)
	if err != nil {
		return nil, err
	}
	exe, err := wasmExec(ctx, tool)
	if err != nil {
		return nil, err
	}
	e := NewEngine(wasm, exe, gzipped(wasm))
	if cfg.Dir != "" {
		if err := writeCached(cfg.Dir, wasm, exe); err != nil && cfg.Log != nil {
			cfg.Log("the browser engine is kept in memory only", "err", err)
		}
	}
	return e, nil
}

// goTool finds the go tool.
func goTool(name string) (string, error) {
	if name != "" {
		return name, nil
	}
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	return "", errors.New("the go tool is neither on PATH nor in this program's GOROOT: the browser engine is built with it at start (docs/offline.md)")
}

// moduleRoot returns the root of stax's module: dir when given, else the
// module of the working directory, checked to be stax's with the
// engine's package.
func moduleRoot(ctx context.Context, tool, dir string) (string, error) {
	if dir == "" {
		out, err := exec.CommandContext(ctx, tool, "env", "GOMOD").Output()
		if err != nil {
			return "", fmt.Errorf("%s env GOMOD: %w", tool, err)
		}
		mod := strings.TrimSpace(string(out))
		if mod == "" || mod == os.DevNull {
			wd, _ := os.Getwd()
			return "", fmt.Errorf("the working directory %s is not in stax's source, from which the browser engine is built: run stax serve in the repository (docs/offline.md)", wd)
		}
		dir = filepath.Dir(mod)
	}
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return "", fmt.Errorf("stax's source, from which the browser engine is built: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if name, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			if strings.TrimSpace(name) != "stax" {
				return "", fmt.Errorf("%s is module %s, not stax: the browser engine is built from stax's source (docs/offline.md)", dir, strings.TrimSpace(name))
			}
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(Package))); err != nil {
				return "", fmt.Errorf("stax's source in %s has no %s: %w", dir, Package, err)
			}
			return dir, nil
		}
	}
	return "", fmt.Errorf("%s names no module", filepath.Join(dir, "go.mod"))
}

// wasmExec reads the toolchain's wasm_exec.js, which loads the modules it
// builds.
func wasmExec(ctx context.Context, tool string) ([]byte, error) {
	out, err := exec.CommandContext(ctx, tool, "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("%s env GOROOT: %w", tool, err)
	}
	root := strings.TrimSpace(string(out))
	var errs []error
	for _, p := range []string{filepath.Join(root, "lib", "wasm", execFile), filepath.Join(root, "misc", "wasm", execFile)} {
		b, err := os.ReadFile(p)
		if err == nil {
			return b, nil
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("the toolchain's %s, which loads the engine: %w", execFile, errors.Join(errs...))
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// writeCached keeps a build in dir, each file written whole before it
// replaces the old one.
func writeCached(dir string, wasm, exec []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, b := range map[string][]byte{wasmFile: wasm, execFile: exec} {
		tmp := filepath.Join(dir, name+".tmp")
		if err := os.WriteFile(tmp, b, 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// readCached reads the build kept in dir.
func readCached(dir string) (*Engine, error) {
	if dir == "" {
		return nil, errors.New("no cache directory")
	}
	wasm, err := os.ReadFile(filepath.Join(dir, wasmFile))
	if err != nil {
		return nil, err
	}
	exe, err := os.ReadFile(filepath.Join(dir, execFile))
	if err != nil {
		return nil, err
	}
	return NewEngine(wasm, exe, gzipped(wasm)), nil
}
