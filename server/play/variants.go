package play

import (
	"sync"

	"stax/game"
)

// variants gives the rooms their variant: one Game a spec, which every
// room of that variant shares (a Game is a rule set no one changes), where
// 10,000 rooms of Pogo held 10,000 copies of its options.
type variants struct {
	games game.Registry

	mu sync.Mutex // guards m
	m  map[string]game.Game
}

// maxVariants bounds the specs variants remembers: past it, it starts
// again (the specs a server's games use are few, but a client names them).
const maxVariants = 256

// load returns the variant of a spec, as game.Registry.Load does.
func (v *variants) load(spec string) (game.Game, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if g, ok := v.m[spec]; ok {
		return g, nil
	}
	g, err := v.games.Load(spec)
	if err != nil {
		return nil, err
	}
	if v.m == nil || len(v.m) >= maxVariants {
		v.m = map[string]game.Game{}
	}
	v.m[spec] = g
	return g, nil
}
