package search

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"stax/game"
)

// Score is the value of a position for the player to move, as a player
// found it: a proven win or loss in a number of plies, a proven draw, or a
// heuristic value of an evaluation. Its text form (String, ParseScore) is
// the one the engine protocol's info lines, the terminal and analysis use.
type Score struct {
	// Proven is game.Win, game.Loss or game.Draw for a proven value, and
	// game.Ongoing for a heuristic one.
	Proven game.Result
	// Plies is the distance to the end of a proven win or loss.
	Plies int
	// Value is a heuristic value: positive is good for the player to move.
	Value int
}

// WinIn returns the score of a win in n plies.
func WinIn(n int) Score { return Score{Proven: game.Win, Plies: n} }

// LossIn returns the score of a loss in n plies.
func LossIn(n int) Score { return Score{Proven: game.Loss, Plies: n} }

// ProvenDraw is the score of a position proven drawn.
var ProvenDraw = Score{Proven: game.Draw}

// Estimate returns the score of a heuristic value.
func Estimate(v int) Score { return Score{Value: v} }

// ScoreOf reads a score on the searches' integer scale: WinScore-n is a
// win in n plies, -(WinScore-n) a loss in n, anything else a heuristic
// value (the scale has no proven draw).
func ScoreOf(v int) Score {
	switch {
	case v > WinScore/2:
		return WinIn(WinScore - v)
	case v < -WinScore/2:
		return LossIn(WinScore + v)
	}
	return Estimate(v)
}

// Int returns the score on the searches' integer scale (a proven draw is
// 0), which orders scores from worst to best.
func (s Score) Int() int {
	switch s.Proven {
	case game.Win:
		return WinScore - s.Plies
	case game.Loss:
		return -(WinScore - s.Plies)
	case game.Draw:
		return 0
	}
	return s.Value
}

// IsProven reports whether the score is a proven win, loss or draw.
func (s Score) IsProven() bool { return s.Proven != game.Ongoing }

// Before returns the score of the position one ply earlier for the player
// who moved to this one, in a game of two sides: a win in n becomes a loss
// in n+1, a heuristic value changes sign.
func (s Score) Before() Score {
	switch s.Proven {
	case game.Win:
		return LossIn(s.Plies + 1)
	case game.Loss:
		return WinIn(s.Plies + 1)
	case game.Draw:
		return s
	}
	return Estimate(-s.Value)
}

// String writes the score as "win N" or "loss N" (N plies), "draw", or the
// heuristic value as an integer, e.g. "-37".
func (s Score) String() string {
	switch s.Proven {
	case game.Win, game.Loss:
		return s.Proven.String() + " " + strconv.Itoa(s.Plies)
	case game.Draw:
		return "draw"
	}
	return strconv.Itoa(s.Value)
}

// ParseScore reads the text form of Score.String.
func ParseScore(text string) (Score, error) {
	s, err := parseScore(text)
	if err != nil {
		return Score{}, fmt.Errorf("score %q: %w; want win N, loss N, draw or an integer", text, err)
	}
	return s, nil
}

func parseScore(text string) (Score, error) {
	if text == "draw" {
		return ProvenDraw, nil
	}
	word, n, ok := strings.Cut(text, " ")
	if !ok {
		v, err := strconv.Atoi(text)
		if err != nil || strconv.Itoa(v) != text {
			return Score{}, errors.New("not an integer")
		}
		return Estimate(v), nil
	}
	plies, err := strconv.Atoi(n)
	if err != nil || plies < 0 || strconv.Itoa(plies) != n {
		return Score{}, fmt.Errorf("plies %q: want a number from 0 up", n)
	}
	switch word {
	case "win":
		return WinIn(plies), nil
	case "loss":
		return LossIn(plies), nil
	}
	return Score{}, fmt.Errorf("%q: want win or loss before the plies", word)
}

// MarshalText implements encoding.TextMarshaler with String.
func (s Score) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with ParseScore.
func (s *Score) UnmarshalText(b []byte) error {
	v, err := ParseScore(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}
