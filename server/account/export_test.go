package account

import "context"

// HoldHashing takes a hashing slot, as a sign-in being hashed does, until
// the function it returns is called: the tests queue sign-ins behind it
// and let them through when they choose.
func (s *Accounts) HoldHashing() func() {
	release, err := s.hashes.Acquire(context.Background(), "test")
	if err != nil {
		panic(err)
	}
	return release
}
