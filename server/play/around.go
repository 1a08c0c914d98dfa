package play

import (
	"context"
	"errors"
	"fmt"
	"time"

	"stax/game"
	"stax/server/chat"
	"stax/server/clock"
	"stax/server/httpx"
	"stax/server/relay"
	"stax/server/store"
)

const ()

// The offers a player can make; each waits for the other players.
const (
	offerDraw     = "draw"
	offerTakeback = "takeback"
	offerRematch  = "rematch"
)

// talk is the chat and offers of a live game, and the connections to it
// that other instances told of (see sync.go).
type talk struct {
	chat chat.Log
	// offers holds, for each kind of offer, the seats that made it.
	offers map[string][]int
	// away holds, for each other instance holding connections to seats,
	// how many it holds per seat.
	away map[string][]int
	// rematch is the id of the game's rematch once its players were told.
	rematch string
}

// chat posts a message. The caller holds l.mu.
func (s *Live) chat(l *room, c *actor, text string) error {
	text, err := chat.Clean(text)
	if err != nil {
		return &moveError{code: CodeBadMessage, msg: err.Error()}
	}
	room := c.room()
	from := c.name
	if room == chat.Players {
		from = l.seats[c.seats[0]].Name
		if from == "" {
			from = l.g.PlayerName(c.seats[0])
		}
	} else if c.user == "" {
		return &moveError{code: CodeNotYourSeat, msg: "sign in to chat as a spectator"}
	}
	if s.muted(c) {
		return &moveError{code: CodeMuted, msg: "the operators have muted your account in chats"}
	}
	if ok, wait := c.chatLimit.Allow(c.chatKey, s.now()); !ok {
		return &moveError{code: CodeRateLimited, msg: fmt.Sprintf("you are chatting too fast; wait %d s", int(wait.Seconds()+0.999)), retry: wait}
	}
	line := chat.Line{Type: "chat", Room: room, From: from, Text: text, At: s.now()}
	l.addLine(line)
	s.rooms.tell(l, relay.News{What: relay.Chat, Line: &line})
	return nil
}

// sendTalk sends a newcomer the chat of its room and the offers standing,
// in one message. The caller holds l.mu.
func (l *room) sendTalk(c *client) {
	c.send(httpx.Marshal(ChatLog{Type: "chatlog", Room: c.room(), Lines: c.heard(l.talk.chat.Lines(c.room())), Offers: l.offers()}))
}

// ChatLog is the chat of a room so far and the offers standing, sent to a
// connection when it joins.
type ChatLog struct {
	Type   string           `json:"type"` // "chatlog"
	Room   string           `json:"room"`
	Lines  []chat.Line      `json:"lines"`
	Offers map[string][]int `json:"offers"`
}

// watchers returns how many connections hold no seat. The caller holds
// l.mu.
func (l *room) watchers() int {
	n := 0
	for c := range l.subs {
		if len(c.seats) == 0 {
			n++
		}
	}
	return n
}

// watchersEvery is the least time between two watcher counts sent to a
// game's connections: joins and leaves in between are told together, so
// that a crowd opening websockets to one game costs each connection one
// message a second, not one per join (which grows as the square of the
// crowd).
const watchersEvery = time.Second

// sendWatchers tells everyone how many watch: now, or when watchersEvery
// has passed since the last count sent. The caller holds l.mu.
func (l *room) sendWatchers() {
	if l.watchersTimer != nil {
		return // a count is on its way
	}
	if wait := time.Until(l.watchersSent.Add(watchersEvery)); wait > 0 {
		l.watchersTimer = time.AfterFunc(wait, func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.watchersTimer = nil
			l.sendWatchersNow()
		})
		return
	}
	l.sendWatchersNow()
}

// sendWatchersNow sends the count of watchers to every connection. The
// caller holds l.mu.
func (l *room) sendWatchersNow() {
	l.watchersSent = time.Now()
	msg := httpx.Marshal(struct {
		Type  string `json:"type"`
		Count int    `json:"count"`
	}{"watchers", l.watchers()})
	for c := range l.subs {
		c.send(msg)
	}
}

// OfferMsg tells a game's connections of the offers standing.
type OfferMsg struct {
	Type string `json:"type"` // "offers"
	// Offers maps each kind of offer made ("draw", "takeback",
	// "rematch") to the seats that made it.
	Offers map[string][]int `json:"offers"`
}

// offers returns the offers standing.
func (l *room) offers() map[string][]int {
	out := map[string][]int{}
	for k, v := range l.talk.offers {
		if len(v) > 0 {
			out[k] = v
		}
	}
	return out
}

func (l *room) sendOffers() {
	msg := httpx.Marshal(OfferMsg{Type: "offers", Offers: l.offers()})
	for c := range l.subs {
		c.send(msg)
	}
	l.tellFollowers(true)
}

// clearOffers withdraws the offers that a move makes stale. The caller
// holds l.mu.
// afterMove keeps the offers that outlive a move by seat mover: its own
// draw offer, which its opponent may still accept on their turn. The
// others go: a takeback was for the position before, and moving declines
// the opponent's draw offer. The caller holds l.mu.
func (l *room) afterMove(mover int) {
	kept := holds(l.talk.offers[offerDraw], mover)
	if len(l.talk.offers[offerTakeback]) == 0 && len(l.talk.offers[offerDraw]) == 0 {
		return
	}
	if kept && len(l.talk.offers[offerDraw]) == 1 && len(l.talk.offers[offerTakeback]) == 0 {
		return
	}
	delete(l.talk.offers, offerTakeback)
	delete(l.talk.offers, offerDraw)
	if kept && !l.h.Over() {
		l.addOffer(offerDraw, mover)
	}
	l.sendOffers()
}

// withdraw takes back a connection's own offer of a kind (withdraw is
// true), or turns down the other players' (a decline). The caller holds
// l.mu.
func (s *Live) withdraw(l *room, c *actor, kind string, own bool) error {
	switch {
	case len(c.seats) == 0:
		return &moveError{code: CodeNotYourSeat, msg: "spectators make no offers"}
	case kind != offerDraw && kind != offerTakeback && kind != offerRematch:
		return &moveError{code: CodeBadMessage, msg: fmt.Sprintf(`offer %q: want "offer": "draw", "takeback" or "rematch"`, kind)}
	}
	var left []int
	for _, p := range l.talk.offers[kind] {
		if holds(c.seats, p) != own {
			left = append(left, p)
		}
	}
	if len(left) == len(l.talk.offers[kind]) {
		if own {
			return &moveError{code: CodeBadMessage, msg: fmt.Sprintf("there is no %s offer of yours to withdraw", kind)}
		}
		return &moveError{code: CodeBadMessage, msg: fmt.Sprintf("there is no %s offer to you to decline", kind)}
	}
	if len(left) == 0 {
		delete(l.talk.offers, kind)
	} else {
		l.talk.offers[kind] = left
	}
	l.sendOffers()
	s.rooms.tellState(l, false)
	return nil
}

func (l *room) clearOffers() {
	if len(l.talk.offers[offerDraw]) == 0 && len(l.talk.offers[offerTakeback]) == 0 {
		return
	}
	delete(l.talk.offers, offerDraw)
	delete(l.talk.offers, offerTakeback)
	l.sendOffers()
}

// humans returns the seats a person plays.
func (l *room) humans() []int {
	var out []int
	for i := range l.seats {
		if l.seats[i].Kind == "human" {
			out = append(out, i)
		}
	}
	return out
}

// offer records an offer of a connection's seats; once every human seat
// has made it, it is carried out. The caller holds l.mu.
func (s *Live) offer(l *room, c *actor, kind string) error {
	if len(c.seats) == 0 {
		return &moveError{code: CodeNotYourSeat, msg: "spectators cannot make offers"}
	}
	over := l.h.Over()
	if kind == offerTakeback || kind == offerRematch {
		// The bot API answers draws only: an offer a bot cannot take up
		// would stand unanswered.
		for i := range l.seats {
			if l.seats[i].Bot && !holds(c.seats, i) {
				msg := fmt.Sprintf("%s is a bot: it answers no takeback offers", l.seats[i].Name)
				if kind == offerRematch {
					msg = fmt.Sprintf("%s is a bot: it answers no rematch offers; challenge it again from the lobby", l.seats[i].Name)
				}
				return &moveError{code: CodeBadMessage, msg: msg}
			}
		}
	}
	switch kind {
	case offerDraw:
		if over {
			return &moveError{code: CodeGameOver, msg: "the game is over"}
		}
	case offerTakeback:
		switch {
		case over:
			return &moveError{code: CodeGameOver, msg: "the game is over"}
		case l.rated:
			return &moveError{code: CodeBadMessage, msg: "no takebacks in a rated game"}
		case l.clk != nil:
			return &moveError{code: CodeBadMessage, msg: "no takebacks in a game with a clock"}
		case l.h.Ply() == 0:
			return &moveError{code: CodeBadMessage, msg: "there is no move to take back"}
		}
	case offerRematch:
		switch {
		case !over:
			return &moveError{code: CodeBadMessage, msg: "a rematch is offered once the game is over"}
		case l.talk.rematch != "":
			return &moveError{code: CodeBadMessage, msg: "the rematch has started: game " + l.talk.rematch}
		}
	}
	made := -1 // a seat whose offer is new
	for _, p := range c.seats {
		if l.addOffer(kind, p) && made < 0 {
			made = p
		}
	}
	if !l.agreed(kind) {
		l.sendOffers()
		s.rooms.tellState(l, false)
		if kind == offerDraw && made >= 0 {
			s.newsOfDraw(l, made)
		}
		return nil
	}
	// Every player agrees: this instance carries the offer out, and the
	// others learn of it from the store (or the rematch's news).
	return s.carryOut(l, kind)
}

// addOffer records an offer of seat p, and reports whether it is new. The
// caller holds l.mu.
func (l *room) addOffer(kind string, p int) bool {
	if holds(l.talk.offers[kind], p) {
		return false
	}
	if l.talk.offers == nil {
		l.talk.offers = map[string][]int{}
	}
	l.talk.offers[kind] = append(l.talk.offers[kind], p)
	return true
}

// agreed reports whether every human seat made the offer. The caller
// holds l.mu.
func (l *room) agreed(kind string) bool {
	for _, p := range l.humans() {
		if !holds(l.talk.offers[kind], p) {
			return false
		}
	}
	return len(l.talk.offers[kind]) > 0
}

// carryOut carries out an offer every player made. The caller holds l.mu.
func (s *Live) carryOut(l *room, kind string) error {
	delete(l.talk.offers, kind)
	switch kind {
	case offerDraw:
		o := game.Drawn(l.g.Players(), game.ByAgreement, "drawn by agreement")
		return s.conclude(s.ctx, l, func() { l.h.End(o) }, -1, "the draw")
	case offerTakeback:
		return s.takeBack(l)
	default:
		l.sendOffers()
		return s.rematch(l)
	}
}

// abort calls off a game before its second move: nobody wins, and it is
// not rated. The caller holds l.mu.
func (s *Live) abort(l *room, c *actor) error {
	switch {
	case len(c.seats) == 0:
		return &moveError{code: CodeNotYourSeat, msg: "spectators cannot abort a game"}
	case l.h.Over():
		return &moveError{code: CodeGameOver, msg: "the game is over"}
	case l.h.Ply() >= 2:
		return &moveError{code: CodeBadMessage, msg: "a game can be aborted only before its second move; resign or offer a draw instead"}
	}
	o := game.Drawn(l.g.Players(), game.Aborted, "by "+l.seatName(c.seats[0]))
	return s.conclude(s.ctx, l, func() { l.h.End(o) }, -1, "the abort")
}

// takeBack takes back the last move, with every player's agreement. The
// caller holds l.mu.
func (s *Live) takeBack(l *room) error {
	ply := l.h.Ply() - 1
	if err := s.store.TakeBack(context.WithoutCancel(s.ctx), l.id, ply); err != nil {
		if errors.Is(err, store.ErrConflict) {
			// Another instance took the move back first, or the game
			// moved on: catch up with it.
			s.rooms.refresh(l)
			return &moveError{code: CodeStale, msg: "the game changed before the takeback; it was not made"}
		}
		s.log.Error("store takeback", "game", l.id, "err", err)
		return &moveError{code: CodeServer, msg: "the server could not save the takeback"}
	}
	l.undoLast()
	l.changed()
	l.broadcast()
	l.sendOffers()
	s.scheduleAI(l)
	return nil
}

// rematch starts the next game between the same players: same variant,
// start position, clock and rating, seats turned by one (swapped for two
// players). Its id is derived from the game's, so that of instances
// starting it at once one creates it and the others find it. Each
// connection that held a seat is told the new game (deliverRematch), the
// other instances through the feed. The caller holds l.mu.
func (s *Live) rematch(l *room) error {
	n := len(l.seats)
	now := s.now().Truncate(time.Millisecond)
	sg := &store.Game{ID: rematchID(l.id), Spec: l.spec, Status: store.Playing, Created: now, Updated: now, Rated: l.rated}
	if start := l.h.Start().String(); start != l.g.Start().String() {
		sg.Start = start
	}
	if l.clk != nil {
		c := l.clk.Control()
		sg.Clock = &c
	}
	sg.End.Resigned = -1
	// A guest's seats are joined with a new token by the instance that
	// holds the guest's connection (deliverRematch).
	for i := range n {
		old := l.seats[(i+1)%n].Seat
		guest := old.Kind == "human" && old.User == "" && old.TokenHash != ""
		sg.Seats = append(sg.Seats, store.Seat{Kind: old.Kind, Level: old.Level, Name: old.Name, User: old.User, Joined: !guest})
	}
	switch err := s.store.Create(context.WithoutCancel(s.ctx), sg); {
	case errors.Is(err, store.ErrConflict):
		// Another instance started it first.
	case err != nil:
		s.log.Error("rematch", "game", l.id, "err", err)
		return &moveError{code: CodeServer, msg: "the rematch could not be saved"}
	default:
		nl, err := newRoom(sg, l.g, nil)
		if err != nil {
			return &moveError{code: CodeServer, msg: "the rematch could not be started"}
		}
		s.mu.Lock()
		s.games[nl.id] = nl
		s.mu.Unlock()
		nl.mu.Lock()
		s.scheduleAI(nl)
		s.newsOfSeats(nl, NewsStart)
		nl.mu.Unlock()
		s.log.Info("rematch", "game", l.id, "rematch", nl.id)
	}
	s.deliverRematch(l, sg.ID)
	s.rooms.tell(l, relay.News{What: relay.Rematch, Rematch: sg.ID})
	return nil
}

// rematchID returns the id of the rematch of game id.
func rematchID(id string) string {
	return httpx.DerivedID("rematch " + id)
}

// deliverRematch tells this instance's connections to the game that its
// rematch id has started, once: a guest's connection with a new token for
// the guest's seats in it. The caller holds l.mu.
func (s *Live) deliverRematch(l *room, id string) {
	if l.talk.rematch == id || !httpx.ValidID(id) {
		return
	}
	l.talk.rematch = id
	if len(l.talk.offers[offerRematch]) > 0 {
		delete(l.talk.offers, offerRematch)
		l.sendOffers()
	}
	tokens := map[string]string{} // by the old token's hash
	for c := range l.subs {
		m := RematchMsg{Type: "rematch", Game: id}
		if len(c.seats) > 0 {
			if old := l.seats[c.seats[0]].Seat; old.Kind == "human" && old.User == "" && old.TokenHash != "" {
				tok, ok := tokens[old.TokenHash]
				if !ok {
					tok = s.joinRematch(l, id, old.TokenHash)
					tokens[old.TokenHash] = tok
				}
				m.Token = tok
			}
		}
		c.send(httpx.Marshal(m))
	}
}

// joinRematch joins a guest to the seats of the rematch id that the
// guest's seats of l (those whose token hash is hash) turn into, under a
// new token, which it returns; it returns "" when another instance joined
// them first (for the guest's connection there). The caller holds l.mu.
func (s *Live) joinRematch(l *room, id, hash string) string {
	tok := httpx.NewSecret()
	n := len(l.seats)
	now := s.now().Truncate(time.Millisecond)
	for j := range l.seats {
		if l.seats[j].TokenHash != hash {
			continue
		}
		p, name := (j+n-1)%n, l.seats[j].Name
		if err := s.store.Join(context.WithoutCancel(s.ctx), id, p, httpx.HashSecret(tok), name, "", now); err != nil {
			if !errors.Is(err, store.ErrConflict) {
				s.log.Error("rematch: join a guest", "game", id, "seat", p, "err", err)
			}
			return ""
		}
		// The rematch held here takes the join at once: the guest
		// connects with the token before the feed brings the join.
		s.mu.Lock()
		nl := s.games[id]
		s.mu.Unlock()
		if nl != nil {
			nl.mu.Lock()
			if st := &nl.seats[p].Seat; !st.Joined {
				st.TokenHash, st.Joined = httpx.HashSecret(tok), true
				nl.updated = now
				nl.changed()
			}
			nl.mu.Unlock()
		}
	}
	return tok
}

// RematchMsg tells a game's connections that its rematch has started;
// Token is the new token of a guest's seat.
type RematchMsg struct {
	Type  string `json:"type"`
	Game  string `json:"game"`
	Token string `json:"token,omitempty"`
}

// claimAfter returns how long a player must be gone from a live game
// before their opponent may claim it: a sixth of the initial time, between
// 15 seconds and a minute (1+0: 15 s; 3+2: 30 s; 10+0: a minute).
func claimAfter(k *clock.Clock) time.Duration {
	return min(max(k.Control().Initial/6, 15*time.Second), time.Minute)
}

// claimable reports whether a player who leaves the game can have it
// claimed: a live (Fischer) game of two people, under way. The caller
// holds l.mu.
func (l *room) claimable() bool {
	if l.clk == nil || l.clk.Correspondence() || l.h.Over() || len(l.seats) != 2 {
		return false
	}
	return l.seats[0].Kind == "human" && l.seats[1].Kind == "human"
}

// leftSince returns when seat i's player left a claimable game, nil while
// they are there. The caller holds l.mu.
func (l *room) leftSince(i int) *time.Time {
	if !l.claimable() || l.seats[i].gone.IsZero() || l.connected(i) {
		return nil
	}
	t := l.seats[i].gone
	return &t
}

// claim ends a live game whose opponent left it ClaimAfter ago or more,
// as the claimant chooses: "win" (the one who left forfeits) or "draw".
// The caller holds l.mu.
func (s *Live) claim(l *room, c *actor, what string) error {
	switch {
	case len(c.seats) == 0:
		return &moveError{code: CodeNotYourSeat, msg: "spectators cannot claim a game"}
	case l.h.Over():
		return &moveError{code: CodeGameOver, msg: "the game is over"}
	case !l.claimable():
		return &moveError{code: CodeBadMessage, msg: "only a live game between two people can be claimed when a player leaves"}
	case what != "win" && what != "draw":
		return &moveError{code: CodeBadMessage, msg: fmt.Sprintf(`claim %q: want "offer": "win" or "draw"`, what)}
	case len(c.seats) == len(l.seats):
		return &moveError{code: CodeBadMessage, msg: "you hold both seats: there is nobody to claim the game from"}
	}
	me, them := c.seats[0], 1-c.seats[0]
	left := l.leftSince(them)
	now := s.now()
	if left == nil {
		return &moveError{code: CodeBadMessage, msg: "your opponent is still here; the game can be claimed once they have left it for a while"}
	}
	if wait := left.Add(claimAfter(l.clk)).Sub(now); wait > 0 {
		return &moveError{code: CodeBadMessage, msg: fmt.Sprintf("your opponent left %d s ago; the game can be claimed in %d s", int(now.Sub(*left).Seconds()), int(wait.Seconds()+0.999))}
	}
	detail := l.seatName(them) + " left the game"
	if what == "draw" {
		o := game.Drawn(2, game.ByForfeit, detail+"; "+l.seatName(me)+" called it a draw")
		return s.conclude(s.ctx, l, func() { l.h.End(o) }, -1, "the draw")
	}
	return s.finish(s.ctx, l, them, game.ByForfeit, detail)
}

// SetModerator makes m the moderator of the chats. It is called while the
// site is wired, before it serves; without one, everyone may chat and
// hears everyone.
func (s *Live) SetModerator(m Moderator) { s.mod = m }

// muted reports whether a connection's account is muted.
func (s *Live) muted(c *actor) bool {
	return s.mod != nil && c.user != "" && s.mod.Muted(c.user)
}

// ChatLine returns the line of a game's chat sent by from at at, as
// "from: text", when this instance holds the game (for a report of the
// line).
func (s *Live) ChatLine(game, from string, at time.Time) (string, bool) {
	l := s.held(game)
	if l == nil {
		return "", false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, room := range []string{chat.Players, chat.Spectators} {
		for _, line := range l.talk.chat.Lines(room) {
			if line.From == from && line.At.Equal(at) {
				return line.From + ": " + line.Text, true
			}
		}
	}
	return "", false
}

// RemoveChatLines drops, from a game this instance holds, the chat lines
// of sender from with text text (an operator removed one), and sends the
// rooms that lost lines their chat log again.
func (s *Live) RemoveChatLines(game, from, text string) {
	l := s.held(game)
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, room := range l.talk.chat.Remove(from, text) {
		for c := range l.subs {
			if c.room() == room {
				c.send(httpx.Marshal(ChatLog{Type: "chatlog", Room: room, Lines: c.heard(l.talk.chat.Lines(room)), Offers: l.offers()}))
			}
		}
	}
}

// SetNotifier makes n the bearer of the players' news of their games (see
// Notifier). It is called while the site is wired, before it serves;
// without one, players learn of moves and offers only on the game's page.
func (s *Live) SetNotifier(n Notifier) { s.notifier.Store(&n) }

// notify sends news through the Notifier, if there is one.
func (s *Live) notify(userID, kind string, l *room, by string) {
	if n := s.notifier.Load(); n != nil {
		(*n).Notify(context.WithoutCancel(s.ctx), userID, kind, l.id, by, l.g.Info().Title)
	}
}

// newsOfMove tells the player whose move it now is, after seat mover's
// move, when the game is played by correspondence or without a clock
// (a player of a Fischer clock is on the game's page), the seat is an
// account's and another account made the move. The caller holds l.mu.
func (s *Live) newsOfMove(l *room, mover int) {
	if s.notifier.Load() == nil || l.h.Over() || (l.clk != nil && l.clk.Control().Days == 0) {
		return
	}
	next := l.seats[l.h.State().ToMove()]
	if next.Kind != "human" || next.User == "" || next.User == l.seats[mover].User {
		return
	}
	s.notify(next.User, NewsTurn, l, l.seatName(mover))
}

// newsOfSeats tells every account holding a seat of l news of a kind
// (NewsStart, NewsFinish), once each. The caller holds l.mu.
func (s *Live) newsOfSeats(l *room, kind string) {
	if s.notifier.Load() == nil {
		return
	}
	told := map[string]bool{}
	for i := range l.seats {
		if u := l.seats[i].User; u != "" && !told[u] {
			told[u] = true
			s.notify(u, kind, l, "")
		}
	}
}

// newsOfJoin tells the account that joined seat p of l, if one did, that
// the game started for it (NewsStart), unless it held another seat
// already. The caller holds l.mu.
func (s *Live) newsOfJoin(l *room, p int) {
	u := l.seats[p].User
	if u == "" || s.notifier.Load() == nil {
		return
	}
	for i := range l.seats {
		if i != p && l.seats[i].User == u {
			return
		}
	}
	s.notify(u, NewsStart, l, "")
}

// newsOfDraw tells the accounts of the human seats that have not offered a
// draw that seat by offered one. The caller holds l.mu.
func (s *Live) newsOfDraw(l *room, by int) {
	if s.notifier.Load() == nil {
		return
	}
	told := map[string]bool{l.seats[by].User: true}
	for _, p := range l.humans() {
		u := l.seats[p].User
		if u == "" || told[u] || holds(l.talk.offers[offerDraw], p) {
			continue
		}
		told[u] = true
		s.notify(u, NewsDraw, l, l.seatName(by))
	}
}
