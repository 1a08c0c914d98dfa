package main

import (
	"encoding/json"
	"fmt"

	"stax/server/play"
	stateupdate "stax/server/update"
)

// gameState is the part of a state message the tests read.
type gameState struct {
	Ply    int
	ToMove int
	// Legal lists the legal moves, from the state's view.
	Legal    []string `json:"-"`
	Moves    []string
	LastMove string
	Status   string
}

// follower keeps a game's state as a client does: a "state" message
// replaces it and an "update" is applied to it (stateupdate.Apply).
type follower struct{ raw json.RawMessage }

// take applies a message's state of type typ ("state" or "update") and
// returns the state it makes.
func (f *follower) take(typ string, msg json.RawMessage) (gameState, error) {
	switch typ {
	case "state":
		f.raw = msg
	case "update":
		if f.raw == nil {
			return gameState{}, fmt.Errorf("an update before any state")
		}
		raw, err := stateupdate.Apply(f.raw, msg)
		if err != nil {
			return gameState{}, err
		}
		f.raw = raw
	default:
		return gameState{}, fmt.Errorf("message type %q: want state or update", typ)
	}
	var st gameState
	if err := json.Unmarshal(f.raw, &st); err != nil {
		return gameState{}, err
	}
	var full play.State
	if err := json.Unmarshal(f.raw, &full); err != nil {
		return gameState{}, err
	}
	st.Legal = full.Legal()
	return st, nil
}
