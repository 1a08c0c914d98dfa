//go:build !linux

package httpx

import (
	"errors"
	"net"
)

// poller is Linux's watch of parked websockets (poller_linux.go); on other
// systems a socket waiting for a message waits on a goroutine of its own.
type poller struct{}

func newPoller() (*poller, error) {
	return nil, errors.New("no poller on this system")
}

func fdOf(net.Conn) int           { return -1 }
func (*poller) park(*Socket) bool { return false }
func (*poller) forget(*Socket)    {}
func (*poller) close()            {}
