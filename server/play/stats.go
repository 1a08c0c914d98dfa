package play

import (
	"sync"

	"stax/server/latency"
)

// Stats is the answer of GET /debug/stats: what the server holds and how
// long its moves take.
type Stats struct {
	Games int `json:"games"` // games in memory
	Conns int `json:"conns"` // open websockets and bot API streams of games
	// Lobby counts the lobby's open websockets.
	Lobby int   `json:"lobby"`
	Moves int64 `json:"moves"` // moves played since the server started
	// Move latency: from a move message read to its state queued for
	// every connection, including the commit (upper bounds, µs).
	MoveP50 int64 `json:"moveP50us"`
	MoveP99 int64 `json:"moveP99us"`
	MoveMax int64 `json:"moveMaxus"`
	// Commit latency of moves (upper bounds, µs).
	CommitP50 int64 `json:"commitP50us"`
	CommitP99 int64 `json:"commitP99us"`
	CommitMax int64 `json:"commitMaxus"`
	// The histograms behind the figures above, since the server started:
	// element i counts the durations of at least 2^(i-1) µs and below
	// 2^i µs. Two readings give the latencies between them (a load test
	// reads them before and after its measurement).
	MoveBuckets   [latency.Buckets]int64 `json:"moveBuckets"`
	CommitBuckets [latency.Buckets]int64 `json:"commitBuckets"`
	// Refused counts the connections refused at a connection limit, and
	// PingClosed the websockets closed for not answering a ping, since
	// the server started.
	Refused    int64 `json:"refused"`
	PingClosed int64 `json:"pingClosed"`
	// The computer moves made by this process's workers: the wait from a
	// move being due to a worker taking its job (upper bounds, µs), and
	// the players the workers have made (each worker keeps at most two).
	AIWaitP50 int64 `json:"aiWaitP50us"`
	AIWaitP99 int64 `json:"aiWaitP99us"`
	AIWaitMax int64 `json:"aiWaitMaxus"`
	Players   int64 `json:"playersMade"`
	// Expired counts the games adjudicated as abandoned since the start.
	Expired int64 `json:"expired"`
	// Broken lists the games that could not be loaded (their stored
	// moves or rows are damaged), the first maxBroken of them, and
	// BrokenCount counts the failures (beyond those listed, a game asked
	// for twice counts twice); the server skips them and serves the
	// others.
	Broken      []BrokenGame `json:"broken"`
	BrokenCount int          `json:"brokenCount"`
}

// BrokenGame is a game that could not be loaded, and why.
type BrokenGame struct {
	ID    string `json:"id"`
	Error string `json:"error"`
}

// maxBroken bounds the broken games Stats lists.
const maxBroken = 100

// brokenGames records the games that could not be loaded.
type brokenGames struct {
	mu    sync.Mutex // guards the fields below
	list  []BrokenGame
	seen  map[string]bool
	count int
}

func (b *brokenGames) add(id string, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.seen[id] {
		return
	}
	if b.seen == nil {
		b.seen = map[string]bool{}
	}
	b.count++
	if len(b.list) < maxBroken {
		b.seen[id] = true
		b.list = append(b.list, BrokenGame{ID: id, Error: err.Error()})
	}
}

func (b *brokenGames) report() ([]BrokenGame, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]BrokenGame{}, b.list...), b.count
}
