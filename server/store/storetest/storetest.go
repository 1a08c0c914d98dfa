// Package storetest is the conformance kit every store implementation
// passes: its tests call [Run] with a way to make an empty database. The kit
// is in parts, one per interface of package store ([Games], [Feed], [Jobs],
// [Uptime], [Users], [Ratings], [Seeks], [Moderation], [Puzzles], [Explorer], [Pairing], [Tokens]), each in a file of its own; a new domain adds
// its interface's part beside them and a line to Run.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"stax/game"
	"stax/server/store"
)

// Opener makes a new, empty database for one test and returns a function
// that opens a store on it. The function may be called several times, also
// at once, and each store it returns is closed by the kit; a store opened
// after another was closed sees what the first one wrote.
type Opener func(t *testing.T) func() (store.Store, error)

// Run checks a store implementation against the behaviour the server relies
// on: every part of the kit, then copying one store into another. A store
// that implements only some of the interfaces runs the parts it implements.
func Run(t *testing.T, newDB Opener) {
	Games(t, newDB)
	Feed(t, newDB)
	Jobs(t, newDB)
	Uptime(t, newDB)
	Users(t, newDB)
	Ratings(t, newDB)
	Seeks(t, newDB)
	Moderation(t, newDB)
	Puzzles(t, newDB)
	Explorer(t, newDB)
	Pairing(t, newDB)
	Tokens(t, newDB)
	t.Run("Copy", func(t *testing.T) { testCopy(t, opener(t, newDB), opener(t, newDB)) })
}

// part is one part of the kit: its tests, each named and run on a new
// database.
type part []struct {
	name string
	f    func(t *testing.T, open func() store.Store)
}

func (p part) run(t *testing.T, newDB Opener) {
	for _, tc := range p {
		t.Run(tc.name, func(t *testing.T) {
			tc.f(t, opener(t, newDB))
		})
	}
}

// Games checks the store.Games part of a store: games, moves, seats and endings, by one store and by several at once.
func Games(t *testing.T, newDB Opener) {
	part{
		{"CreateGet", testCreateGet},
		{"AppendMove", testAppendMove},
		{"ConcurrentAppend", testConcurrentAppend},
		{"JoinFinish", testJoinFinish},
		{"Unfinished", testUnfinished},
		{"Idle", testIdle},
		{"Recent", testRecent},
		{"Reopen", testReopen},
		{"ConcurrentOpen", testConcurrentOpen},
		{"ManyWriters", testManyWriters},
		{"List", testList},
		{"TakeBack", testTakeBack},
		{"MoveFinishRace", testMoveFinishRace},
	}.run(t, newDB)
}

// Feed checks the store.Feed part: every committed change and announcement reaches every watcher.
func Feed(t *testing.T, newDB Opener) {
	part{
		{"Watch", testWatch},
	}.run(t, newDB)
}

// Jobs checks the store.Jobs part: the computer moves' queue, its leases and concurrent claims.
func Jobs(t *testing.T, newDB Opener) {
	part{
		{"Jobs", testJobs},
		{"JobLease", testJobLease},
		{"ConcurrentClaims", testConcurrentClaims},
		{"JobClients", testJobClients},
	}.run(t, newDB)
}

// Uptime checks the store.Uptime part: heartbeats and outages.
func Uptime(t *testing.T, newDB Opener) {
	part{
		{"Uptime", testUptime},
	}.run(t, newDB)
}

// Users checks the store.Users part: accounts, sessions, deletion and the games of an account.
func Users(t *testing.T, newDB Opener) {
	part{
		{"Terms", testTerms},
		{"Users", testUsers},
		{"Sessions", testSessions},
		{"DeleteUser", testDeleteUser},
	}.run(t, newDB)
}

// Ratings checks the store.Ratings part: ratings per pool, their history, and that a game is rated once.
func Ratings(t *testing.T, newDB Opener) {
	part{
		{"Ratings", testRatings},
		{"ConcurrentRate", testConcurrentRate},
		{"Unrated", testUnrated},
	}.run(t, newDB)
}

// Seeks checks the store.Seeks part: the lobby's seeks, challenges and presence.
func Seeks(t *testing.T, newDB Opener) {
	part{
		{"Seeks", testSeeks},
	}.run(t, newDB)
}

// opener makes a new database and returns a function that opens a store on
// it, closed when the test ends.
func opener(t *testing.T, newDB Opener) func() store.Store {
	openDB := newDB(t)
	return func() store.Store {
		t.Helper()
		s, err := openDB()
		if err != nil {
			t.Fatalf("open store: %v", err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
}

// base is the time the kit's games are created at; stores keep times to
// the millisecond at least.
var base = time.UnixMilli(1_700_000_000_000).UTC()

func at(sec int) time.Time { return base.Add(time.Duration(sec) * time.Second) }

// NewGame returns a two-seat Pogo game with id: seat 0 joined by its
// creator, seat 1 open with an invite.
func NewGame(id string) *store.Game {
	return &store.Game{
		ID: id, Spec: "pogo", Status: store.Playing, Created: base, Updated: base,
		Seats: []store.Seat{
			{Kind: "human", Name: "alice", TokenHash: "t0-" + id, Joined: true},
			{Kind: "human", InviteHash: "i1-" + id},
		},
		End: store.End{Outcome: "*", Resigned: -1},
	}
}

func mustGet(t *testing.T, s store.Store, id string) *store.Game {
	t.Helper()
	g, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatalf("Get(%s): %v", id, err)
	}
	return g
}

func check(t *testing.T, what string, err, want error) {
	t.Helper()
	if want == nil && err != nil || want != nil && !errors.Is(err, want) {
		t.Fatalf("%s: %v; want %v", what, err, want)
	}
}

// LegacyEndings are the endings of finished games as the stores kept them
// before the outcome column (in the result, reason and detail columns),
// each with the outcome text the migration makes of it. Each store's tests
// write them into a database at the version before that migration, migrate
// it and check them with CheckLegacyEndings.
var LegacyEndings = []struct{ Result, Reason, Detail, Outcome string }{
	{"1-0", "rules", "every stack topped by White", "1-0 rules; every stack topped by White"},
	{"0-1", "rules", "", "0-1 rules"},
	{"1/2-1/2", "ply cap", "", "1/2-1/2 ply-cap"},
	{"1/2-1/2", "repetition", "", "1/2-1/2 repetition"},
	{"0-1-0-1", "resignation", "Red resigned", "0-1-0-1 resignation; Red resigned"},
	{"1-0", "forfeit", "the computer found no move: out of ideas", "1-0 forfeit; the computer found no move: out of ideas"},
	{"0-1", "time", "no move within 30s", "0-1 time; no move within 30s"},
}

// LegacyID returns the id of the game of LegacyEndings[i].
func LegacyID(i int) string { return fmt.Sprintf("legacy%d", i) }

// CheckLegacyEndings checks that a migrated store reads every ending of
// LegacyEndings as its outcome text, which game.ParseOutcome reads, and
// the unfinished game "legacy-playing" as "*".
func CheckLegacyEndings(t *testing.T, s store.Store) {
	t.Helper()
	for i, le := range LegacyEndings {
		g := mustGet(t, s, LegacyID(i))
		if g.End.Outcome != le.Outcome {
			t.Errorf("%s (%s, %s, %q): outcome %q; want %q", LegacyID(i), le.Result, le.Reason, le.Detail, g.End.Outcome, le.Outcome)
		}
		if _, err := game.ParseOutcome(g.End.Outcome); err != nil {
			t.Errorf("%s: %v", LegacyID(i), err)
		}
	}
	if g := mustGet(t, s, "legacy-playing"); g.End.Outcome != "*" {
		t.Errorf("an unfinished game's outcome after the migration: %q; want \"*\"", g.End.Outcome)
	}
}
