package pisola

// Read-only accessors for evaluation functions and user interfaces.

// Height returns the number of pieces on square sq.
func (s *State) Height(sq int) int { return int(s.height[sq]) }

// Tops returns the set of squares topped by player p (bit sq set).
func (s *State) Tops(p int) uint64 { return s.top[p] }

// LockedSquares returns the set of locked (in the roofs variant, roofed)
// squares.
func (s *State) LockedSquares() uint64 { return s.locked }

// Targets returns the squares exactly h steps from sq in a straight
// orthogonal line: where a stack of height h on sq lands, before locked
// squares are taken out. It is empty for h = 0 and for h at least the
// board's side.
func (g *Game) Targets(sq, h int) uint64 {
	if h <= 0 || h >= targetHeights {
		return 0
	}
	return g.geo.target[sq][h]
}
