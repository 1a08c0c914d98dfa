//go:build !unix

package loadtest

import "time"

// RaiseFileLimit does nothing where there is no file limit to raise; it
// returns a large number.
func RaiseFileLimit() (uint64, error) { return 1 << 20, nil }

// ProcessCPU returns 0 where the process's CPU time is not known.
func ProcessCPU() time.Duration { return 0 }
