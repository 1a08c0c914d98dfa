package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"stax/games"
	"stax/server"
	"stax/server/store"
	"stax/server/worker"
)

// runWorker makes the computer moves of the servers sharing a database,
// so that the search can run on machines of its own.
func runWorker(e *env, args []string) error {
	fs := newFlags(e, "worker")
	db := fs.String("db", "", "the servers' database (a postgres:// URL; a SQLite file is usable by one process only)")
	workers := fs.Int("workers", runtime.NumCPU(), "computer moves computed at once (default: one per CPU)")
	aiDelay := fs.Duration("ai-delay", 300*time.Millisecond, "the least time a computer takes to answer another computer")
	aiTimeout := fs.Duration("ai-timeout", 30*time.Second, "the longest a computer move may take before its seat forfeits")
	level := fs.String("log-level", "info", "debug, info, warn or error")
	configFile, printConfig := configFlags(fs)
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return &usageError{fmt.Sprintf("unexpected argument %q", rest[0])}
	}
	set, err := applySettings(e, "worker", fs, *configFile)
	if err != nil {
		return err
	}
	if *printConfig {
		set.print(e.stdout)
		return nil
	}
	if *db == "" {
		return &usageError{"--db is required"}
	}
	if *workers <= 0 {
		return &usageError{fmt.Sprintf("--workers %d: want at least 1", *workers)}
	}
	log, err := newLogger(e, *level)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := openStore(ctx, *db, "")
	if err != nil {
		return err
	}
	defer st.Close()
	players, closeAI := computerPlayers(log)
	defer closeAI()
	w := worker.New(worker.Config{
		// Each call to the database has a deadline, as the server's do.
		Store: store.WithDeadline(st, server.DefaultStoreDeadline), Games: games.All(), NewPlayer: players.New, Log: log,
		AIDelay: *aiDelay, AITimeout: *aiTimeout,
	})
	if err := w.Watch(ctx); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "stax worker making computer moves for %s with %d workers; press Ctrl-C to stop\n", redactDB(*db), *workers)
	log.Info("working", "db", redactDB(*db), "workers", *workers)
	w.Run(ctx, *workers)
	log.Info("stopped")
	return nil
}
