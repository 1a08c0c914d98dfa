package ai

import (
	"os"
	"testing"
)

// TestMain keeps the perfect level from building Pogo's table in tests:
// without a cached table it plays as "strongest" (see perfect_test.go for
// the tests that use a table).
func TestMain(m *testing.M) {
	buildMissingTables = false
	os.Exit(m.Run())
}
