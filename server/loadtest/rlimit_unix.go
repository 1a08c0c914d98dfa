//go:build unix

package loadtest

import "syscall"

// RaiseFileLimit raises the soft limit on open files to the hard limit and
// returns the new soft limit. Every websocket is a file descriptor.
func RaiseFileLimit() (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, err
	}
	if lim.Cur < lim.Max {
		lim.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			return 0, err
		}
	}
	return uint64(lim.Cur), nil
}
