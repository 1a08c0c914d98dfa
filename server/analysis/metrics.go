package analysis

// Waiting returns how many analyses and reviews wait for a worker now,
// for metrics.
func (b *Board) Waiting() int { return b.slots.Waiting() }
