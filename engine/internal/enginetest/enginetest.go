// Package enginetest builds the programs that the engine and match tests
// run as subprocesses: the stax command and a misbehaving engine.
package enginetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Programs holds the paths of the built programs.
type Programs struct {
	Stax string // the stax command
	Bad  string // engine/testdata/badengine
}

// Build compiles the programs into dir: the misbehaving engine, and the
// stax command when withStax is set (Stax is empty otherwise). It finds
// the module root from the go command, so it works from any package's
// tests.
func Build(dir string, withStax bool) (Programs, error) {
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		goCmd = "go"
	}
	out, err := exec.Command(goCmd, "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return Programs{}, fmt.Errorf("go list -m: %v", err)
	}
	root := strings.TrimSpace(string(out))
	p := Programs{Stax: filepath.Join(dir, "stax"), Bad: filepath.Join(dir, "badengine")}
	builds := []struct{ out, pkg string }{{p.Bad, "./engine/testdata/badengine"}}
	if withStax {
		builds = append(builds, struct{ out, pkg string }{p.Stax, "./cmd/stax"})
	} else {
		p.Stax = ""
	}
	for _, b := range builds {
		cmd := exec.Command(goCmd, "build", "-o", b.out, b.pkg)
		cmd.Dir = root
		if msg, err := cmd.CombinedOutput(); err != nil {
			return Programs{}, fmt.Errorf("go build %s: %v\n%s", b.pkg, err, msg)
		}
	}
	return p, nil
}

// Main builds the programs into a temporary directory, stores their paths
// in *progs, runs the tests and exits; a test package's TestMain calls it.
func Main(m *testing.M, progs *Programs, withStax bool) {
	dir, err := os.MkdirTemp("", "stax-engine-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	*progs, err = Build(dir, withStax)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
