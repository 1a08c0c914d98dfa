// Package chat is the site's domain of chat: the messages of a live game's
// two rooms (its players', and its spectators', who each see only their
// own), what a message may be, and how much of each room is kept for those
// who join later. Live play carries the lines to the game's connections
// and between instances.
package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

const (
	// MaxLength bounds a message, in characters.
	MaxLength = 300
	// Every and Burst are a connection's rate limit: Burst messages at
	// once, then one every Every.
	Every, Burst = 2 * time.Second, 5
	// Keep is how many messages of each room are kept for those who join
	// later (in memory only).
	Keep = 50
)

// The rooms of a game's chat.
const (
	Players    = "players"
	Spectators = "spectators"
)

// Line is one chat message.
type Line struct {
	Type string `json:"type"` // "chat"
	// Room is Players or Spectators: each sees only its own.
	Room string    `json:"room"`
	From string    `json:"from"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
}

// Clean checks a message's text and returns it trimmed: one line of at
// most MaxLength characters of UTF-8, without control characters.
func Clean(text string) (string, error) {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return "", errors.New(`a chat message needs text, e.g. {"type":"chat","text":"good game"}`)
	case !utf8.ValidString(text) || utf8.RuneCountInString(text) > MaxLength:
		return "", fmt.Errorf("a chat message is at most %d characters of UTF-8", MaxLength)
	}
	for _, r := range text {
		if r < 0x20 || r == 0x7f {
			return "", errors.New("a chat message is one line of text, without control characters")
		}
	}
	return text, nil
}

// Log is the chat of a live game: the last Keep lines of each room.
type Log struct {
	players, spectators []Line
}

// room returns the lines of a room, nil for an unknown one.
func (g *Log) room(name string) *[]Line {
	switch name {
	case Players:
		return &g.players
	case Spectators:
		return &g.spectators
	}
	return nil
}

// Lines returns a copy of a room's lines, oldest first.
func (g *Log) Lines(room string) []Line {
	if r := g.room(room); r != nil {
		return append([]Line{}, *r...)
	}
	return []Line{}
}

// Len returns the number of lines kept in both rooms.
func (g *Log) Len() int { return len(g.players) + len(g.spectators) }

// Add keeps a line in its room, dropping the oldest beyond Keep; it
// reports false for a line of no known room, which it drops.
func (g *Log) Add(line Line) bool {
	r := g.room(line.Room)
	if r == nil {
		return false
	}
	*r = append(*r, line)
	if len(*r) > Keep {
		*r = append((*r)[:0], (*r)[len(*r)-Keep:]...)
	}
	return true
}

// Merge adds lines another copy of the log had (another instance's) to
// those kept, in time order, each line once, and returns the rooms that
// gained lines.
func (g *Log) Merge(got []Line) []string {
	var changed []string
	for _, room := range []string{Players, Spectators} {
		r := g.room(room)
		n := len(*r)
		for _, line := range got {
			if line.Room == room && !slices.Contains(*r, line) {
				*r = append(*r, line)
			}
		}
		if len(*r) == n {
			continue
		}
		slices.SortStableFunc(*r, func(a, b Line) int { return a.At.Compare(b.At) })
		if len(*r) > Keep {
			*r = append((*r)[:0], (*r)[len(*r)-Keep:]...)
		}
		changed = append(changed, room)
	}
	return changed
}

// History returns the last lines of both rooms, oldest first, as many as
// fit in budget bytes of JSON (one byte more each for a separator).
func (g *Log) History(budget int) []Line {
	all := append(append([]Line{}, g.players...), g.spectators...)
	slices.SortStableFunc(all, func(a, b Line) int { return a.At.Compare(b.At) })
	i := len(all)
	for ; i > 0; i-- {
		b, _ := json.Marshal(all[i-1])
		if budget -= len(b) + 1; budget < 0 {
			break
		}
	}
	return all[i:]
}
