package httpx

import (
	"fmt"
	"net"
	"os"
	"sync"
	"syscall"
)

// poller watches parked websockets for their next bytes with one epoll
// instance and one goroutine, so that a socket waiting for a message holds
// no goroutine of its own (Socket.Serve). Each socket is watched once at a
// time (EPOLLONESHOT): when its bytes come it joins the ready queue, and
// is watched again only when it parks again.
//
// The epoll instance is itself watched by the runtime's poller: the
// goroutine waits for it as for a connection, never in a blocking system
// call, which would hold one of the program's processors until the
// runtime noticed (up to 10 ms).
type poller struct {
	epfd int
	file *os.File        // epfd, known to the runtime's poller
	rc   syscall.RawConn // file's, to wait for events

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
	if err := syscall.SetNonblock(epfd, true); err != nil {
		syscall.Close(epfd)
		return nil, fmt.Errorf("epoll: %w", err)
	}
	file := os.NewFile(uintptr(epfd), "epoll")
	rc, err := file.SyscallConn()
	if err != nil {
		file.Close()
		return nil, fmt.Errorf("epoll: %w", err)
	}
	p := &poller{epfd: epfd, file: file, rc: rc, parked: map[int32]*Socket{}, done: make(chan struct{})}
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

// run hands each socket whose bytes came to the ready queue, until close.
func (p *poller) run() {
	defer close(p.done)
	events := make([]syscall.EpollEvent, 128)
	for {
		var n int
		var werr error
		err := p.rc.Read(func(fd uintptr) bool {
			// Never blocks: with nothing ready, the runtime waits for
			// the epoll instance to be readable, and asks again.
			// Interrupted, it asks again: the runtime waits for the
			// next edge, and the events ready now would wait with it.
			for {
				n, werr = syscall.EpollWait(int(fd), events, 0)
				if werr != syscall.EINTR {
					break
				}
			}
			return n > 0 || (werr != nil && werr != syscall.EAGAIN)
		})
		if err != nil || werr != nil {
			// Closed, or nothing can be watched any more: every parked
			// socket is served again.
			p.stop()
			return
		}
		for _, ev := range events[:n] {
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

// stop ends the watching: the sockets still parked go to the ready queue.
func (p *poller) stop() {
	p.mu.Lock()
	p.closed = true
	left := p.parked
	p.parked = nil
	p.mu.Unlock()
	for _, sk := range left {
		sk.unpark()
	}
}

// close ends the poller's goroutine and waits for it; the sockets still
// parked go to the ready queue.
func (p *poller) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.file.Close()
	<-p.done
}
