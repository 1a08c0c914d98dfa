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

// OnHashed has f told the client address of each request as it takes a
// hashing slot, in the order the server serves them. It must be called
// before any request.
func (s *Accounts) OnHashed(f func(client string)) { s.hashed = f }
