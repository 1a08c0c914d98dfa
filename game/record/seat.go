package record

import (
	"fmt"
	"strings"
)

// SeatKind says what kind of player a Seat is.
type SeatKind uint8

// The kinds of players.
const (
	Human  SeatKind = iota // a person
	Level                  // a built-in computer level of stax
	Engine                 // another program, e.g. one speaking the engine protocol
)

// Seat says who played a seat of a game, as a record's Seat tags write it
// (docs/records.md): "human" or "human:NAME" for a person, "stax:LEVEL"
// for a built-in level, "engine:NAME" for another program.
type Seat struct {
	Kind SeatKind
	// Name is the person's name (possibly empty), the level, or the
	// program's name.
	Name string
}

// String returns the seat's tag value, e.g. "human:alice" or "stax:hard".
func (s Seat) String() string {
	switch s.Kind {
	case Level:
		return "stax:" + s.Name
	case Engine:
		return "engine:" + s.Name
	}
	if s.Name == "" {
		return "human"
	}
	return "human:" + s.Name
}

// Tag returns the Seat tag of seat p (0-based) for s.
func (s Seat) Tag(p int) Tag { return Tag{Name: SeatTag(p), Value: s.String()} }

// ParseSeat reads a Seat tag's value as Seat.String writes it.
func ParseSeat(v string) (Seat, error) {
	if v == "human" {
		return Seat{Kind: Human}, nil
	}
	prefix, name, ok := strings.Cut(v, ":")
	kinds := map[string]SeatKind{"human": Human, "stax": Level, "engine": Engine}
	kind, known := kinds[prefix]
	if !ok || !known || name == "" || strings.TrimSpace(name) != name {
		return Seat{}, fmt.Errorf("seat %q: want human, human:NAME, stax:LEVEL or engine:NAME", v)
	}
	return Seat{Kind: kind, Name: name}, nil
}
