// Package pgtest starts a throwaway PostgreSQL cluster for tests: Debian's
// postgresql package's initdb and pg_ctl, in a temporary directory, on a
// Unix socket in that directory (no TCP port), as an unprivileged user when
// the tests run as root (PostgreSQL refuses to run as root).
//
// A package's tests call [Main] from TestMain and [URL] for each new
// database they need. Without PostgreSQL installed, URL skips the test with
// a message, unless STAX_REQUIRE_POSTGRES=1 is set, as in CI, which makes
// it fail instead.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// RequireEnv names the environment variable that makes PostgreSQL tests
// mandatory.
const RequireEnv = "STAX_REQUIRE_POSTGRES"

// cluster is the package's running cluster.
type cluster struct {
	dir     string // holds data/ and the socket
	bin     string // PostgreSQL's bin directory
	cred    *syscall.Credential
	baseURL string // the maintenance database
}

var (
	once    sync.Once
	running *cluster
	startEr error
	dbs     atomic.Int64
)

// Main runs the tests, then stops the cluster if one was started.
func Main(m interface{ Run() int }) {
	code := m.Run()
	if running != nil {
		running.stop()
	}
	os.Exit(code)
}

// Bin returns the directory of PostgreSQL's server programs, or an error
// saying that PostgreSQL is not installed.
func Bin() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", errors.New("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/pg_ctl; apt-get install postgresql)")
}

func version(dir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return v
}

// URL returns the URL of a new, empty database on the package's cluster,
// starting the cluster on first use. It skips t when PostgreSQL is not
// installed, or fails it when STAX_REQUIRE_POSTGRES=1.
func URL(t testing.TB) string {
	t.Helper()
	once.Do(func() { running, startEr = start() })
	if startEr != nil {
		if os.Getenv(RequireEnv) == "1" {
			t.Fatalf("PostgreSQL is required (%s=1): %v", RequireEnv, startEr)
		}
		t.Skipf("skipping: %v (set %s=1 to make this a failure)", startEr, RequireEnv)
	}
	name := fmt.Sprintf("t%d_%d", os.Getpid(), dbs.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, running.baseURL)
	if err != nil {
		t.Fatalf("pgtest: connect: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	return running.url(name)
}

func (c *cluster) url(db string) string {
	return "postgres://postgres@/" + db + "?host=" + url.QueryEscape(c.dir) + "&sslmode=disable"
}

// start makes and starts a cluster in a new temporary directory.
func start() (*cluster, error) {
	bin, err := Bin()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "stax-pg-")
	if err != nil {
		return nil, err
	}
	c := &cluster{dir: dir, bin: bin}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root, and no postgres user to run PostgreSQL as: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	if out, err := c.run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	// No TCP: the socket in dir is the only way in. fsync is off, since
	// the cluster is thrown away.
	opts := "-c listen_addresses='' -c unix_socket_directories=" + dir + " -c fsync=off -c full_page_writes=off -c max_connections=200"
	if out, err := c.run("pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-o", opts, "-w", "-t", "120", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	c.baseURL = c.url("postgres")
	c.watch()
	return c, nil
}

// watch starts a watchdog that stops the cluster and removes its directory
// once the test process is gone, so that a test binary that panics, times
// out or is killed (and never gets to Main's cleanup) leaves nothing
// running.
func (c *cluster) watch() {
	// The server's last processes may still be writing when pg_ctl
	// returns: the removal is tried again until the directory is gone.
	script := fmt.Sprintf(`while [ -d /proc/%d ]; do sleep 1; done; [ -d %[2]q ] || exit 0; %[3]q -D %[4]q -m immediate -w stop >/dev/null 2>&1; for i in 1 2 3 4 5 6 7 8 9 10; do rm -rf %[2]q 2>/dev/null; [ -d %[2]q ] || exit 0; sleep 1; done`,
		os.Getpid(), c.dir, filepath.Join(c.bin, "pg_ctl"), filepath.Join(c.dir, "data"))
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Credential: c.cred}
	if err := cmd.Start(); err == nil {
		go cmd.Wait()
	}
}

// run runs one of PostgreSQL's programs as the cluster's user.
func (c *cluster) run(prog string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(c.bin, prog), args...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	return cmd.CombinedOutput()
}

func (c *cluster) stop() {
	if out, err := c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "-w", "stop"); err != nil {
		fmt.Fprintf(os.Stderr, "pgtest: pg_ctl stop: %v\n%s", err, strings.TrimSpace(string(out)))
	}
	// The server's last processes may still be writing when pg_ctl
	// returns; what is left the watchdog removes.
	for range 10 {
		if os.RemoveAll(c.dir) == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}
