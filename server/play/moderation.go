package play

import (
	"stax/server/chat"
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

// hears reports whether an actor is sent a chat line: not when its
// account blocks the line's sender.
func (c *actor) hears(line chat.Line) bool {
	return c.mod == nil || c.user == "" || !c.mod.BlocksName(c.user, line.From)
}

// heard returns the lines of lines that c hears.
func (c *actor) heard(lines []chat.Line) []chat.Line {
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
