package game

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// reasonTokens are the reasons as the text form of an Outcome writes them:
// one word each.
var reasonTokens = [...]string{"", "rules", "repetition", "ply-cap", "resignation", "time", "forfeit", "agreement", "aborted"}

// Token returns the reason as one word, as Outcome.String writes it, e.g.
// "ply-cap"; NotOver and unknown reasons have none.
func (r Reason) Token() string {
	if int(r) < len(reasonTokens) {
		return reasonTokens[r]
	}
	return ""
}

// String returns the outcome's text form, which ParseOutcome reads back
// exactly: the result per player as ResultString writes it, the reason as
// a word, the scores when the game has them, and the detail after a
// semicolon, e.g.
//
//	1-0 rules; every stack topped by White
//	1/2-1/2 ply-cap scores 18,18; equal squares
//	0-1-0-1 resignation; Red resigned
//
// A game in progress is "*". Stores keep outcomes in this form.
func (o Outcome) String() string {
	if !o.Over() {
		return "*"
	}
	var b strings.Builder
	for p := 0; p < o.Players; p++ {
		if p > 0 {
			b.WriteByte('-')
		}
		switch o.Results[p] {
		case Win:
			b.WriteString("1")
		case Loss:
			b.WriteString("0")
		case Draw:
			b.WriteString("1/2")
		default:
			b.WriteString("*")
		}
	}
	b.WriteByte(' ')
	if t := o.Reason.Token(); t != "" {
		b.WriteString(t)
	} else {
		fmt.Fprintf(&b, "reason-%d", o.Reason)
	}
	if o.HasScores {
		b.WriteString(" scores ")
		for p := 0; p < o.Players; p++ {
			if p > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(o.Scores[p]))
		}
	}
	if o.Detail != "" {
		b.WriteString("; ")
		b.WriteString(o.Detail)
	}
	return b.String()
}

// ParseOutcome reads the text form of Outcome.String. "*" is a game in
// progress (with Players 0: the text does not say how many play).
func ParseOutcome(s string) (Outcome, error) {
	o, err := parseOutcome(s)
	if err != nil {
		return Outcome{}, fmt.Errorf("outcome %q: %w; want e.g. \"1-0 rules; every stack topped by White\" or \"1/2-1/2 ply-cap scores 18,18\"", s, err)
	}
	return o, nil
}

func parseOutcome(s string) (Outcome, error) {
	if s == "*" {
		return Outcome{}, nil
	}
	head, detail, hasDetail := strings.Cut(s, ";")
	var o Outcome
	if hasDetail {
		d, ok := strings.CutPrefix(detail, " ")
		if !ok || d == "" {
			return o, errors.New("want \"; \" and the detail after the semicolon")
		}
		o.Detail = d
	}
	fields := strings.Split(head, " ")
	if len(fields) != 2 && len(fields) != 4 {
		return o, errors.New("want the results, the reason and optionally scores, separated by single spaces")
	}
	results := strings.Split(fields[0], "-")
	if len(results) < 1 || len(results) > MaxPlayers {
		return o, fmt.Errorf("%d results; want 1 to %d", len(results), MaxPlayers)
	}
	o.Players = len(results)
	for p, r := range results {
		switch r {
		case "1":
			o.Results[p] = Win
		case "0":
			o.Results[p] = Loss
		case "1/2":
			o.Results[p] = Draw
		case "*":
			o.Results[p] = Ongoing
		default:
			return o, fmt.Errorf("result %q of player %d: want 1, 0 or 1/2", r, p+1)
		}
	}
	reason, err := parseReasonToken(fields[1])
	if err != nil {
		return o, err
	}
	o.Reason = reason
	if len(fields) == 4 {
		if fields[2] != "scores" {
			return o, fmt.Errorf("%q after the reason; want scores", fields[2])
		}
		scores := strings.Split(fields[3], ",")
		if len(scores) != o.Players {
			return o, fmt.Errorf("%d scores for %d players", len(scores), o.Players)
		}
		for p, sc := range scores {
			n, err := strconv.Atoi(sc)
			if err != nil || strconv.Itoa(n) != sc {
				return o, fmt.Errorf("score %q of player %d: want an integer", sc, p+1)
			}
			o.Scores[p] = n
		}
		o.HasScores = true
	}
	return o, nil
}

// parseReasonToken reads a reason as Outcome.String writes it.
func parseReasonToken(s string) (Reason, error) {
	if n, ok := strings.CutPrefix(s, "reason-"); ok {
		if v, err := strconv.ParseUint(n, 10, 8); err == nil && v >= uint64(len(reasonTokens)) && strconv.FormatUint(v, 10) == n {
			return Reason(v), nil
		}
	}
	for r := ByRules; int(r) < len(reasonTokens); r++ {
		if s == reasonTokens[r] {
			return r, nil
		}
	}
	return NotOver, fmt.Errorf("reason %q: want one of %s", s, strings.Join(reasonTokens[1:], ", "))
}

// MarshalText implements encoding.TextMarshaler with the text form of
// String.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with ParseOutcome.
func (o *Outcome) UnmarshalText(b []byte) error {
	v, err := ParseOutcome(string(b))
	if err != nil {
		return err
	}
	*o = v
	return nil
}
