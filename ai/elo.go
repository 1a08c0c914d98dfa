package ai

import "stax/game"

// levelElo holds the levels' ratings, in Elo with random = 0, measured by
// the round robins of docs/strength.md (the levels below strongest and
// the baselines, with the ratings that best explain every pair's score;
// Pisola's strongest from its games against hard and medium, Pogo's by a
// round robin with hard and medium, shifted onto their ratings; in
// four-player Diam, the share of games won by each level's two seats in
// the ladder's pairings, strongest from its games against hard), by the
// key of levelTable. A game or level missing here has not been measured.
var levelElo = map[string]map[string]int{
	"pogo":   {"random": 0, "beginner": 549, "greedy": 845, "easy": 899, "medium": 1072, "hard": 1184, "strongest": 1438},
	"diam":   {"random": 0, "beginner": 551, "greedy": 740, "easy": 1024, "medium": 1310, "hard": 1865, "strongest": 2002},
	"diam/4": {"random": 0, "beginner": 331, "easy": 566, "medium": 710, "hard": 947, "strongest": 1111},
	"pisola": {"random": 0, "beginner": 493, "greedy": 962, "easy": 1146, "medium": 1422, "hard": 1611, "strongest": 1775},
}

// Elo returns level's measured rating for g, in Elo with the random
// baseline at 0, and whether it was measured. Variants share the rating
// of their game's default (a Pogo rating serves pogo(u=false) too), which
// makes it an approximation for them.
func Elo(g game.Game, level string) (int, bool) {
	r, ok := levelElo[levelKey(g)][level]
	return r, ok
}
