package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"time"

	"stax/server/httpx"
	"stax/server/ratings"
	"stax/server/store"
)

// Quick pairing: a player picks a game and a preset time control and is
// paired with a player waiting in the same pool (the game's rating pool
// and the preset) whose rating is near theirs. The pools are in the store
// (store.Pairing), shared by every instance; the waiting player's page
// renews its wait every few seconds and learns of its game through the
// lobby's news ("started"), on whichever instance it is connected.

const (
	// pairWait is how long a wait lasts unless the page renews it (it
	// does every 5 s): a player who left stops waiting soon after.
	pairWait = 20 * time.Second
	// pairReach is how far apart two ratings may be for their players to
	// be paired at once; the reach grows by pairReachGrowth a second
	// waited, up to pairReachMax, so that nobody waits for ever in a
	// small pool.
	pairReach       = 100.0
	pairReachGrowth = 10.0
	pairReachMax    = 500.0
	// unratedRating is the rating of a player new to a pool.
	unratedRating = 1500.0
)

// Preset is a time control of quick pairing.
type Preset struct {
	// Name names it: "3+2" (minutes and seconds of increment) or "3d"
	// (days per move).
	Name  string     `json:"name"`
	Clock *ClockSpec `json:"clock,omitempty"`
	Days  int        `json:"days,omitempty"`
}

// presets are the time controls of quick pairing: every one is long
// enough to be rated (ratedMinimum).
var presets = []Preset{
	{Name: "1+0", Clock: &ClockSpec{Initial: 60}},
	{Name: "3+2", Clock: &ClockSpec{Initial: 180, Increment: 2}},
	{Name: "5+3", Clock: &ClockSpec{Initial: 300, Increment: 3}},
	{Name: "10+0", Clock: &ClockSpec{Initial: 600}},
	{Name: "15+10", Clock: &ClockSpec{Initial: 900, Increment: 10}},
	{Name: "1d", Days: 1},
	{Name: "3d", Days: 3},
	{Name: "7d", Days: 7},
}

// Presets returns the time controls of quick pairing.
func Presets() []Preset { return append([]Preset(nil), presets...) }

// PairingInfo answers GET /api/pairing.
type PairingInfo struct {
	Presets []Preset `json:"presets"`
}

// PairRequest is the body of POST /api/pairing.
type PairRequest struct {
	// Spec is the game: the spec of a rating pool (GET /api/pools).
	Spec string `json:"spec"`
	// Preset names the time control (PairingInfo.Presets).
	Preset string `json:"preset"`
	// Renew renews a wait rather than starting one: it fails with 404
	// (code not_waiting) when the player no longer waits, having been
	// paired (the news "started" brings the game) or having left.
	Renew bool `json:"renew,omitempty"`
}

// PairResponse answers POST /api/pairing: the game when the player was
// paired at once (201), or the wait (202).
type PairResponse struct {
	Game string `json:"game,omitempty"`
	// Waiting says that the player waits in Pool since Since, for an
	// opponent whose rating is within Reach of theirs.
	Waiting bool      `json:"waiting,omitempty"`
	Pool    string    `json:"pool,omitempty"`
	Since   time.Time `json:"since,omitzero"`
	Reach   float64   `json:"reach,omitempty"`
}

// waiter is a waiting player as the store keeps them (store.Waiting.Body).
type waiter struct {
	Name        string `json:"name"`
	Provisional bool   `json:"provisional,omitempty"`
}

// CodeNotWaiting answers the renewal of a wait that is over.
const CodeNotWaiting = "not_waiting"

// pairingRoutes adds the routes of quick pairing to m.
func (lb *Lobby) pairingRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /api/pairing", lb.handlePairingInfo)
	m.HandleFunc("POST /api/pairing", lb.handlePair)
	m.HandleFunc("DELETE /api/pairing", lb.handleUnpair)
}

func (lb *Lobby) handlePairingInfo(w http.ResponseWriter, r *http.Request) {
	httpx.WriteJSON(w, http.StatusOK, PairingInfo{Presets: Presets()})
}

// reach returns how far apart two ratings may be once a player has waited
// d.
func reach(d time.Duration) float64 {
	return math.Min(pairReachMax, pairReach+pairReachGrowth*math.Max(0, d.Seconds()))
}

// matchAt returns the rule of pairing at now: two players are paired when
// their ratings are within the reach of the one who has waited longer.
func matchAt(now time.Time) func(self, other *store.Waiting) bool {
	return func(self, other *store.Waiting) bool {
		r := math.Max(reach(now.Sub(self.Created)), reach(now.Sub(other.Created)))
		return math.Abs(self.Rating-other.Rating) <= r
	}
}

// pairingUser answers a pairing route for the signed-in player, or answers
// the error itself.
func (lb *Lobby) pairingUser(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
	u, _, ok := lb.sessions.SignedIn(w, r)
	switch {
	case ok && lb.pairing == nil:
		httpx.Error(w, http.StatusNotImplemented, "this server keeps no pools of quick pairing; post a seek in the lobby instead")
		return nil, false
	case ok && u.Bot:
		httpx.ErrorCode(w, http.StatusForbidden, CodeBotsNotPaired, "quick pairing is for people; a bot posts seeks and challenges, and accepts them")
		return nil, false
	}
	return u, ok
}

func (lb *Lobby) handlePair(w http.ResponseWriter, r *http.Request) {
	u, ok := lb.pairingUser(w, r)
	if !ok {
		return
	}
	var req PairRequest
	if !httpx.ReadJSON(w, r, &req) {
		return
	}
	var preset *Preset
	for i := range presets {
		if presets[i].Name == req.Preset {
			preset = &presets[i]
		}
	}
	if preset == nil {
		httpx.Error(w, http.StatusBadRequest, fmt.Sprintf("preset %q: want one of GET /api/pairing's presets", req.Preset))
		return
	}
	sk, _, err := lb.parseSeek(&SeekRequest{Spec: req.Spec, Clock: preset.Clock, Days: preset.Days, Rated: true})
	if err != nil {
		httpx.Error(w, http.StatusBadRequest, err.Error())
		return
	}
	rating, provisional := unratedRating, true
	if rt, err := lb.ratings.Rating(r.Context(), u.ID, sk.Pool); err == nil && rt.Games > 0 {
		rating, provisional = rt.Rating, rt.Deviation > ratings.ProvisionalDeviation
	}
	body, err := json.Marshal(waiter{Name: u.Name, Provisional: provisional})
	if err != nil {
		httpx.Error(w, http.StatusInternalServerError, "the wait could not be saved")
		return
	}
	now := lb.now().Truncate(time.Millisecond)
	pool := sk.Pool + " " + preset.Name
	if !req.Renew {
		// A player waits in one pool at a time.
		if err := lb.pairing.Unwait(r.Context(), u.ID, ""); err != nil && !errors.Is(err, store.ErrNotFound) {
			lb.log.Error("pairing: leave the other pools", "err", err)
		}
	}
	me := &store.Waiting{Pool: pool, User: u.ID, Rating: rating, Body: body, Created: now, Expires: now.Add(pairWait)}
	near := matchAt(now)
	// Two accounts one of which blocks the other are never paired.
	match := func(self, other *store.Waiting) bool { return !lb.apart(self.User, other.User) && near(self, other) }
	partner, err := lb.pairing.Pair(r.Context(), store.PairRequest{Waiting: me, Renew: req.Renew, Now: now, Match: match})
	if errors.Is(err, store.ErrNotFound) {
		httpx.ErrorCode(w, http.StatusNotFound, CodeNotWaiting, "you are no longer waiting in "+pool+": you were paired (the lobby's news brings the game) or your wait ran out")
		return
	}
	if err != nil {
		lb.log.Error("pairing", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the pool could not be read")
		return
	}
	if partner == nil {
		httpx.WriteJSON(w, http.StatusAccepted, PairResponse{Waiting: true, Pool: pool, Since: me.Created, Reach: reach(now.Sub(me.Created))})
		return
	}
	var them waiter
	if err := json.Unmarshal(partner.Body, &them); err != nil {
		lb.log.Error("pairing: the waiting player", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the waiting player could not be read")
		return
	}
	players := []*store.User{u, {ID: partner.User, Name: them.Name}}
	if rand.IntN(2) == 1 {
		players[0], players[1] = players[1], players[0]
	}
	id, err := lb.starter.StartGame(r.Context(), sk.Spec, "", players, true, sk.clock())
	if err != nil {
		lb.log.Error("pairing: start game", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the game could not be started")
		return
	}
	lb.announce(context.WithoutCancel(r.Context()), partner.User, Message{Type: NewsStarted, Game: id, By: u.Name})
	httpx.WriteJSON(w, http.StatusCreated, PairResponse{Game: id})
}

func (lb *Lobby) handleUnpair(w http.ResponseWriter, r *http.Request) {
	u, ok := lb.pairingUser(w, r)
	if !ok {
		return
	}
	if err := lb.pairing.Unwait(r.Context(), u.ID, ""); err != nil && !errors.Is(err, store.ErrNotFound) {
		lb.log.Error("pairing: leave", "err", err)
		httpx.Error(w, http.StatusInternalServerError, "the pool could not be left")
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// sweepPairing forgets the waits that ran out.
func (lb *Lobby) sweepPairing(ctx context.Context, now time.Time) {
	if lb.pairing == nil {
		return
	}
	if _, err := lb.pairing.ExpireWaiting(ctx, now); err != nil {
		lb.log.Error("pairing: expire", "err", err)
	}
}
