package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"time"

	"stax/server/loadtest"
)

func runLoadtest(e *env, args []string) error {
	fs := newFlags(e, "loadtest")
	games := fs.Int("games", 1000, "concurrent games")
	clients := fs.Int("clients", 2, "websockets per game: 2 (one per seat) or 1 (one holding both seats)")
	duration := fs.Duration("duration", 30*time.Second, "how long to play once every game is connected")
	think := fs.Duration("think", time.Second, "mean pause of a player before each move")
	url := fs.String("url", "", "a running server on this machine to test, e.g. http://127.0.0.1:8080, or several instances of one installation separated by commas (default: start one)")
	db := fs.String("db", "", "the database of the server started for the test (default: a temporary file)")
	abuse := fs.Bool("abuse", false, "run the abuse scenario instead: idle websockets, slow bodies, a creation burst and computer games (Linux loopback)")
	idle := fs.Int("idle", 1500, "--abuse: idle websockets opened")
	slow := fs.Int("slow", 200, "--abuse: requests whose body trickles in")
	burst := fs.Int("burst", 200, "--abuse: games one address tries to create at once")
	computer := fs.Int("computer", 200, "--abuse: games against the computer, with one human move each (of the game given, default pisola)")
	level := fs.String("level", "strongest", "--abuse: the computer's level")
	maxConns := fs.Int("max-conns", 1000, "--abuse: the websocket cap of the server started for the test")
	limitD := fs.Duration("limit", 2*time.Minute, "--abuse: the longest each part may take")
	spec := fs.String("spec", "", deprecatedPrefix+"give the spec as the first argument")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(rest) > 1 || len(rest) == 1 && *spec != "":
		return &usageError{fmt.Sprintf("unexpected argument %q; want at most one game spec", rest[len(rest)-1])}
	case len(rest) == 1:
		*spec = rest[0]
	}
	if *games < 1 || *games > 100000 {
		return &usageError{fmt.Sprintf("--games %d: want 1 to 100000", *games)}
	}
	if *duration <= 0 || *duration > 10*time.Minute {
		return &usageError{fmt.Sprintf("--duration %s: want at most 10m", *duration)}
	}
	if *abuse {
		if *idle < 0 || *idle > 20000 || *slow < 0 || *slow > 5000 || *burst < 0 || *burst > 10000 || *computer < 0 || *computer > 5000 || *limitD <= 0 || *limitD > 10*time.Minute {
			return &usageError{"--abuse: want --idle up to 20000, --slow up to 5000, --burst up to 10000, --computer up to 5000 and --limit up to 10m"}
		}
		*games, *clients = max(*idle, *computer)/2+*slow/2+1, 2
		if *spec == "" {
			*spec = "pisola"
		}
	}
	if *spec == "" {
		*spec = "pogo"
	}
	limit, err := loadtest.RaiseFileLimit()
	if err != nil {
		return fmt.Errorf("raising the open file limit: %w", err)
	}
	need := uint64(*games**clients) + 256
	if need > limit {
		return fmt.Errorf("%d games of %d websockets need about %d open files; the limit is %d (try --clients 1 or fewer games)", *games, *clients, need, limit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	base := *url
	var child *exec.Cmd
	if base == "" {
		if *db == "" {
			dir, err := os.MkdirTemp("", "stax-loadtest-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(dir)
			*db = filepath.Join(dir, "load.db")
		}
		addr, err := freeAddr()
		if err != nil {
			return err
		}
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		// The server runs in its own process, as in production, so that
		// the two sides' websockets count against separate file limits.
		args := []string{"serve", "--addr", addr, "--db", *db, "--log-level", "error", "--stats",
			// Every game comes from this one address: lift the limits
			// on one address to the test's size.
			"--create-every", "1ms", "--create-burst", fmt.Sprint(*games*4 + 100), "--join-every", "1ms", "--join-burst", fmt.Sprint(*games*4 + 100),
			"--max-open-games", fmt.Sprint(*games*2 + 100), "--max-conns-per-ip", fmt.Sprint(*games**clients + 100), "--max-conns", fmt.Sprint(*games**clients + 100)}
		if *abuse {
			// The server's own limits, but for a lower websocket cap
			// and read timeout, to be reached within the test's bounds.
			args = []string{"serve", "--addr", addr, "--db", *db, "--log-level", "error", "--stats",
				"--max-conns", fmt.Sprint(*maxConns), "--read-timeout", "5s"}
		}
		child = exec.Command(exe, args...)
		child.Stdout, child.Stderr = e.stderr, e.stderr
		if err := child.Start(); err != nil {
			return fmt.Errorf("starting the server: %w", err)
		}
		defer func() {
			if child.ProcessState == nil {
				child.Process.Kill()
				child.Wait()
			}
		}()
		base = "http://" + addr
		if err := waitHealthy(ctx, base); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "server started: %s, database %s\n", base, *db)
	}
	if *abuse {
		rep, err := loadtest.Abuse(ctx, loadtest.AbuseConfig{
			URL: base, Idle: *idle, Slow: *slow, Burst: *burst, Computer: *computer,
			Spec: *spec, Level: *level, Limit: *limitD,
			Memory:   func() int64 { return residentMemory(child) },
			Progress: func(format string, args ...any) { fmt.Fprintf(e.stderr, format+"\n", args...) },
		})
		fmt.Fprintf(e.stdout, "stax loadtest '%s' --abuse --idle %d --slow %d --burst %d --computer %d --level %s --max-conns %d\n%s\n",
			*spec, *idle, *slow, *burst, *computer, *level, *maxConns, rep)
		if child != nil {
			child.Process.Signal(syscall.SIGTERM)
			child.Wait()
			if mib := maxRSS(child.ProcessState); mib > 0 {
				fmt.Fprintf(e.stdout, "server peak memory: %d MiB\n", mib)
			}
		}
		return err
	}
	before := loadtest.ProcessCPU()
	rep, err := loadtest.Run(ctx, loadtest.Config{
		URL:      base,
		Games:    *games,
		Clients:  *clients,
		Duration: *duration,
		Think:    *think,
		Spec:     *spec,
		Progress: func(format string, args ...any) { fmt.Fprintf(e.stderr, format+"\n", args...) },
	})
	if err != nil {
		return err
	}
	clientCPU := loadtest.ProcessCPU() - before
	fmt.Fprintf(e.stdout, "stax loadtest --games %d --clients %d --duration %s --think %s --spec %s\n%s\n", *games, *clients, *duration, *think, *spec, rep)
	fmt.Fprintf(e.stdout, "client process CPU: %.1fs\n", clientCPU.Seconds())
	if child != nil {
		killed := false
		if err := child.Process.Signal(syscall.SIGTERM); err != nil {
			child.Process.Kill() // no SIGTERM on this system
			killed = true
		}
		if err := child.Wait(); err != nil && !killed {
			return fmt.Errorf("server: %w", err)
		}
		ps := child.ProcessState
		fmt.Fprintf(e.stdout, "server process CPU: %.1fs (user %.1fs, system %.1fs)\n",
			(ps.UserTime() + ps.SystemTime()).Seconds(), ps.UserTime().Seconds(), ps.SystemTime().Seconds())
		if mib := maxRSS(ps); mib > 0 {
			fmt.Fprintf(e.stdout, "server peak memory: %d MiB\n", mib)
		}
	}
	if rep.Errors > 0 {
		return fmt.Errorf("%d errors; first: %s", rep.Errors, rep.FirstError)
	}
	return nil
}

// maxRSS returns the peak resident memory of a finished process in MiB,
// or 0 where it is not known.
func maxRSS(ps *os.ProcessState) int64 {
	v := reflect.ValueOf(ps.SysUsage())
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		if f := v.Elem().FieldByName("Maxrss"); f.IsValid() && f.CanInt() {
			return f.Int() / 1024
		}
	}
	return 0
}

// freeAddr returns a loopback address with a port free at the moment.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// waitHealthy waits until the server answers /healthz.
func waitHealthy(ctx context.Context, base string) error {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		res, err := http.Get(base + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("the server at %s did not become healthy", base)
}

// residentMemory returns the resident memory of a running child process in
// bytes, from Linux's /proc, or 0.
func residentMemory(c *exec.Cmd) int64 {
	if c == nil || c.Process == nil {
		return 0
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", c.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), &kb)
			return kb << 10
		}
	}
	return 0
}
