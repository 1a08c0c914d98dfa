package lobby

// Blocker tells whether one account blocks another (the moderation domain
// implements it, from memory: it is asked for each seek and connection).
type Blocker interface {
	Blocks(userID, other string) bool
}

// SetBlocker makes b the judge of blocks between accounts. It is called
// while the site is wired, before it serves; without one nobody blocks
// anybody.
func (lb *Lobby) SetBlocker(b Blocker) { lb.blocker = b }

// apart reports whether either of two accounts blocks the other: then
// neither sees the other's seeks, nor may challenge or accept the other.
func (lb *Lobby) apart(a, b string) bool {
	if lb.blocker == nil || a == "" || b == "" {
		return false
	}
	return lb.blocker.Blocks(a, b) || lb.blocker.Blocks(b, a)
}

// seeksFor returns the seeks a viewer sees among all (see the function
// seeksFor), less those of the accounts apart from them.
func (lb *Lobby) seeksFor(all []*Seek, v viewer) []*Seek {
	out := seeksFor(all, v)
	if lb.blocker == nil || v.id == "" {
		return out
	}
	kept := out[:0]
	for _, sk := range out {
		if !lb.apart(v.id, sk.ownerID) {
			kept = append(kept, sk)
		}
	}
	return kept
}
