package play

import (
	"time"

	"stax/server/chat"
	"stax/server/httpx"
)

// CodeMuted is the error code of a chat message from a muted account.
const CodeMuted = "muted"

// Moderator tells live play who may chat and who hears whom (the
// moderation domain implements it from memory: it is asked under a game's
// lock).
type Moderator interface {
	// Muted reports whether an account is muted in every chat.
	Muted(userID string) bool
	// BlocksName reports whether the account userID blocks the account
	// named name.
	BlocksName(userID, name string) bool
}

// SetModerator makes m the moderator of the chats. It is called while the
// site is wired, before it serves; without one, everyone may chat and
// hears everyone.
func (s *Live) SetModerator(m Moderator) { s.mod = m }

// muted reports whether a connection's account is muted.
func (s *Live) muted(c *client) bool {
	return s.mod != nil && c.user != "" && s.mod.Muted(c.user)
}

// hears reports whether a connection is sent a chat line: not when its
// account blocks the line's sender.
func (c *client) hears(line chat.Line) bool {
	return c.mod == nil || c.user == "" || !c.mod.BlocksName(c.user, line.From)
}

// heard returns the lines of lines that c hears.
func (c *client) heard(lines []chat.Line) []chat.Line {
	if c.mod == nil || c.user == "" {
		return lines
	}
	out := lines[:0:0]
	for _, line := range lines {
		if c.hears(line) {
			out = append(out, line)
		}
	}
	return out
}

// ChatLine returns the line of a game's chat sent by from at at, as
// "from: text", when this instance holds the game (for a report of the
// line).
func (s *Live) ChatLine(game, from string, at time.Time) (string, bool) {
	s.mu.Lock()
	l := s.games[game]
	s.mu.Unlock()
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
	s.mu.Lock()
	l := s.games[game]
	s.mu.Unlock()
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, room := range l.talk.chat.Remove(from, text) {
		for c := range l.subs {
			if roomOf(c) == room {
				c.send(httpx.Marshal(ChatLog{Type: "chatlog", Room: room, Lines: c.heard(l.talk.chat.Lines(room)), Offers: l.offers()}))
			}
		}
	}
}
