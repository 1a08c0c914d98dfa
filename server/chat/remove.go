package chat

// Remove drops the lines of sender from with text text from both rooms,
// and returns the rooms that lost lines.
func (g *Log) Remove(from, text string) []string {
	var changed []string
	for _, room := range []string{Players, Spectators} {
		r := g.room(room)
		kept := (*r)[:0]
		for _, line := range *r {
			if line.From != from || line.Text != text {
				kept = append(kept, line)
			}
		}
		if len(kept) != len(*r) {
			clear((*r)[len(kept):])
			*r = kept
			changed = append(changed, room)
		}
	}
	return changed
}
