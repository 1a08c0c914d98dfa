// Package games names every game stax plays, in one explicit list.
package games

import (
	"stax/game"
	"stax/games/diam"
	"stax/games/pisola"
	"stax/games/pogo"
)

// All returns the games stax plays, in display order.
func All() game.Registry {
	return game.Registry{
		pogo.Info,
		pisola.Info,
		diam.Info,
	}
}

// Load parses a game spec such as "pogo(u=false)" and returns its variant.
func Load(spec string) (game.Game, error) {
	return All().Load(spec)
}
