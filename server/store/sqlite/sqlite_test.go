package sqlite

import (
	"path/filepath"
	"testing"

	"stax/server/store"
	"stax/server/store/storetest"
)

func newGame(id string) *store.Game { return storetest.NewGame(id) }

// TestStore runs the store conformance kit on SQLite.
func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) func() (store.Store, error) {
		path := filepath.Join(t.TempDir(), "s.db")
		return func() (store.Store, error) { return Open(path, Options{}) }
	})
}
