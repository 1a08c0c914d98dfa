package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"stax/ai"
	"stax/game"
)

// tablesDir returns the directory of Pogo's solved tables:
// $STAX_CACHE_DIR if set, else stax/ in the user's cache directory.
func tablesDir() (string, error) {
	if d := os.Getenv("STAX_CACHE_DIR"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the solved tables (set STAX_CACHE_DIR): %w", err)
	}
	return filepath.Join(d, "stax"), nil
}

// newTables returns the tables of the commands: files in tablesDir, built
// in the background when missing, with the news written to w. Without a
// cache directory a built table is kept in memory only.
func newTables(w io.Writer) *ai.Tables {
	dir, err := tablesDir()
	if err != nil {
		fmt.Fprintf(w, "stax: %v\n", err)
	}
	return ai.NewTables(ai.TablesConfig{Dir: dir, Build: true, Notify: func(ev ai.TableEvent) {
		fmt.Fprintf(w, "stax: %s\n", ev)
	}})
}

// prepareLevels waits until each of levels plays g at full strength (the
// perfect level needs its table, built first when missing).
func prepareLevels(ctx context.Context, cfg ai.Config, g game.Game, levels ...string) error {
	for _, level := range levels {
		if err := cfg.Prepare(ctx, g, level); err != nil {
			return fmt.Errorf("level %s: %w", level, err)
		}
	}
	return nil
}
