package httpx

import (
	"fmt"
	"net"
	"sync"
	"syscall"
)

// poller watches parked websockets for their next bytes with one epoll
// instance and one goroutine, so that a socket waiting for a message holds
// no goroutine of its own (Socket.Serve). Each socket is watched once at a
// time (EPOLLONESHOT): when its bytes come it is handed back to serve and
// watched again only when it parks again.
type poller struct {
	epfd int
	wake [2]int // a pipe whose read end wakes the wait to end it

	mu     sync.Mutex // guards parked and closed
	parked map[int32]*Socket
	closed bool
	done   chan struct{} // closed when the poller's goroutine has ended
}

// newPoller starts a poller, or returns nil (with the reason) when the
// system refuses one: the sockets then wait on goroutines of their own.
func newPoller() (*poller, error) {
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("epoll_create1: %w", err)
	}
	p := &poller{epfd: epfd, parked: map[int32]*Socket{}, done: make(chan struct{})}
	if err := syscall.Pipe2(p.wake[:], syscall.O_CLOEXEC|syscall.O_NONBLOCK); err != nil {
		syscall.Close(epfd)
		return nil, fmt.Errorf("pipe2: %w", err)
	}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(p.wake[0])}
	if err := syscall.EpollCtl(epfd, syscall.EPOLL_CTL_ADD, p.wake[0], &ev); err != nil {
		p.closeFDs()
		return nil, fmt.Errorf("epoll_ctl: %w", err)
	}
	go p.run()
	return p, nil
}

// fdOf returns the file descriptor of a plain TCP (or Unix) connection,
// seen through the wrappers that buffer nothing (ConnWrapper), or -1 for a
// connection whose bytes the kernel's readiness does not tell (TLS, whose
// records may wait in its own buffer) or that has none.
func fdOf(c net.Conn) int {
	for range 8 {
		switch w := c.(type) {
		case *net.TCPConn, *net.UnixConn:
			rc, err := w.(syscall.Conn).SyscallConn()
			if err != nil {
				return -1
			}
			fd := -1
			if rc.Control(func(f uintptr) { fd = int(f) }) != nil {
				return -1
			}
			return fd
		case ConnWrapper:
			c = w.Unwrap()
		default:
			return -1
		}
	}
	return -1
}

// park watches sk's connection until bytes (or its end) come, then calls
// sk.unpark on the poller's goroutine. It reports false when the socket
// cannot be watched. The caller holds sk.mu.
func (p *poller) park(sk *Socket) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP | syscall.EPOLLONESHOT, Fd: int32(sk.fd)}
	op := syscall.EPOLL_CTL_MOD
	if !sk.watched {
		op = syscall.EPOLL_CTL_ADD
	}
	if err := syscall.EpollCtl(p.epfd, op, sk.fd, &ev); err != nil {
		return false
	}
	sk.watched = true
	p.parked[int32(sk.fd)] = sk
	return true
}

// forget stops watching sk's connection, before it is closed: its file
// descriptor may be another connection's next. The caller holds sk.mu.
func (p *poller) forget(sk *Socket) {
	if !sk.watched {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	sk.watched = false
	if p.parked[int32(sk.fd)] == sk {
		delete(p.parked, int32(sk.fd))
	}
	if !p.closed {
		syscall.EpollCtl(p.epfd, syscall.EPOLL_CTL_DEL, sk.fd, nil)
	}
}

// run hands each socket whose bytes came back to its serve, until close.
func (p *poller) run() {
	defer close(p.done)
	events := make([]syscall.EpollEvent, 128)
	for {
		n, err := syscall.EpollWait(p.epfd, events, -1)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			// Nothing can be watched any more: give every parked socket
			// back to a goroutine of its own.
			p.stop()
			return
		}
		for _, ev := range events[:n] {
			if int(ev.Fd) == p.wake[0] {
				p.stop()
				return
			}
			p.mu.Lock()
			sk := p.parked[ev.Fd]
			delete(p.parked, ev.Fd)
			p.mu.Unlock()
			if sk != nil {
				sk.unpark()
			}
		}
	}
}

// stop ends the watching: the sockets still parked go back to serve.
func (p *poller) stop() {
	p.mu.Lock()
	p.closed = true
	left := p.parked
	p.parked = nil
	p.mu.Unlock()
	for _, sk := range left {
		sk.unpark()
	}
	p.closeFDs()
}

// close ends the poller's goroutine and waits for it; the sockets still
// parked go back to serve.
func (p *poller) close() {
	syscall.Write(p.wake[1], []byte{0})
	<-p.done
}

func (p *poller) closeFDs() {
	syscall.Close(p.wake[0])
	syscall.Close(p.wake[1])
	syscall.Close(p.epfd)
}
