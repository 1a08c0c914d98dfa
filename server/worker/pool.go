package worker

import (
	"container/list"

	"stax/game"
	"stax/search"
)

// playersPerWorker bounds the players a worker keeps: one per game variant
// and level it served last. A player holds its search tables (a strongest
// level's table is about 24 MB), so the memory of the computer players is
// bounded by workers × playersPerWorker, whatever the number of games.
const playersPerWorker = 2

// aiWorker is one worker of the pool with the players it keeps, most
// recently used first.
type aiWorker struct {
	players *list.List // of *keptPlayer
}

type keptPlayer struct {
	key    string // spec and level
	player search.Player
}

// player returns the worker's player for a variant and level, making it
// (and dropping the least recently used one past playersPerWorker) if the
// worker has none. A player serves every game of its variant and level in
// turn: its tables are keyed by position, so what it learnt in one game
// stays true in the next, and the game's history comes with each position.
func (w *aiWorker) player(cfg *Config, g game.Game, spec, level string) (search.Player, error) {
	key := spec + " " + level
	for e := w.players.Front(); e != nil; e = e.Next() {
		if k := e.Value.(*keptPlayer); k.key == key {
			w.players.MoveToFront(e)
			return k.player, nil
		}
	}
	for w.players.Len() >= playersPerWorker {
		w.players.Remove(w.players.Back())
	}
	p, err := cfg.NewPlayer(g, level)
	if err != nil {
		return nil, err
	}
	w.players.PushFront(&keptPlayer{key: key, player: p})
	if cfg.PlayerMade != nil {
		cfg.PlayerMade()
	}
	return p, nil
}
