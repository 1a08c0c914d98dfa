//go:build !unix

package loadtest

// RaiseFileLimit does nothing where there is no file limit to raise; it
// returns a large number.
func RaiseFileLimit() (uint64, error) { return 1 << 20, nil }
