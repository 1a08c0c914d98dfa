package account

// HashesWaiting returns how many sign-ins, sign-ups and password changes
// wait for a password hashing slot now, for metrics.
func (s *Accounts) HashesWaiting() int { return s.hashes.Waiting() }
