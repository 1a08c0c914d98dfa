// Package aitest gives tests Pogo's solved table when this machine has one:
// tests never build it (a solve takes about 15 s and 110 MB), they read the
// table `stax solve pogo` wrote. Without it they skip, unless
// STAX_REQUIRE_TABLES is set (as .ci/run does after solving), when they
// fail.
package aitest

import (
	"os"
	"path/filepath"
	"testing"

	"stax/ai"
)

// Dir returns the directory of the solved tables as the stax command finds
// it: $STAX_CACHE_DIR, else stax/ in the user's cache directory.
func Dir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("STAX_CACHE_DIR"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		missing(t, "no cache directory: "+err.Error())
	}
	return filepath.Join(d, "stax")
}

// Tables returns tables that read Pogo's solved table (u=true) from Dir,
// loaded, and closes them when the test ends. It skips the test when the
// table is missing, or fails it under STAX_REQUIRE_TABLES.
func Tables(t testing.TB) *ai.Tables {
	t.Helper()
	dir := Dir(t)
	tables := ai.NewTables(ai.TablesConfig{Dir: dir})
	t.Cleanup(tables.Close)
	if _, err := tables.Table(true); err != nil {
		missing(t, "no solved Pogo table (run stax solve pogo): "+err.Error())
	}
	return tables
}

func missing(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("STAX_REQUIRE_TABLES") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}
