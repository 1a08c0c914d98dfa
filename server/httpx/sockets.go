package httpx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// MaxMessage bounds a message from a websocket client, in bytes.
const MaxMessage = 4 << 10

// CompressAbove is the size from which a websocket message is compressed
// (permessage-deflate, when the client offers it).
const CompressAbove = 8 << 10

// SocketLimits configures Sockets.
type SocketLimits struct {
	// MaxConns bounds the open websockets and MaxConnsPerIP those of one
	// client address.
	MaxConns, MaxConnsPerIP int
	// OriginPatterns lists the other origins allowed to open websockets
	// (see websocket.AcceptOptions); the server's own origin always is.
	OriginPatterns []string
	// PingInterval is how often a websocket is pinged; one that does not
	// answer (or take a message) within PingTimeout is closed.
	PingInterval, PingTimeout time.Duration
	// SendQueue is how many messages may wait for a slow connection
	// before it is closed.
	SendQueue int
	// Handlers bounds the messages handled at once across every
	// websocket, and the goroutines serving parked sockets (default 256;
	// see Socket.Serve). Messages that come together from a crowd (every
	// player of a closing client resigning at once) wait unread in their
	// sockets, not each on a goroutine holding a deep stack while the
	// store works through the others.
	Handlers int
	// FrameTimeout bounds the time a message begun may take to come whole
	// to a parked socket (default 5 s; see Socket.Serve).
	FrameTimeout time.Duration
}

// Sockets admits the site's websockets, whichever domain serves them: it
// counts them against the connection limits, upgrades them, keeps them
// alive with pings, and on Close closes them all and waits for their
// handlers.
type Sockets struct {
	limits  SocketLimits
	proxies Proxies
	log     *slog.Logger

	conns ConnCount
	// handling holds a token for each message being handled, and for
	// each goroutine serving the ready queue (see Serve).
	handling chan struct{}
	// ready is the queue of parked sockets whose bytes have come.
	readyMu sync.Mutex
	ready   []*Socket
	// poll watches the parked sockets (Serve), made when the first is
	// served; nil where the system has none.
	pollOnce sync.Once
	poll     *poller
	// Refused counts the websockets refused at a limit and IdleClosed
	// those closed for not answering a ping.
	Refused, IdleClosed atomic.Int64

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // the open websockets' handlers
	// closing is set by Close, under closeMu, before it waits for wg: a
	// websocket that arrives after it is refused rather than added to a
	// WaitGroup that is being waited for.
	closeMu sync.Mutex
	closing bool
}

// NewSockets returns the websocket admission of a server.
func NewSockets(limits SocketLimits, proxies Proxies, log *slog.Logger) *Sockets {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	SetDefault(&limits.SendQueue, 32)
	SetDefault(&limits.PingInterval, 30*time.Second)
	SetDefault(&limits.PingTimeout, 20*time.Second)
	SetDefault(&limits.Handlers, 256)
	SetDefault(&limits.FrameTimeout, 5*time.Second)
	s := &Sockets{limits: limits, proxies: proxies, log: log, handling: make(chan struct{}, limits.Handlers)}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s
}

// Count returns the number of open websockets.
func (s *Sockets) Count() int { return s.conns.Count() }

// Stopping returns a context that is done once Close has begun.
func (s *Sockets) Stopping() context.Context { return s.ctx }

// Take counts a new websocket of r against the connection limits. At a
// limit it answers the request (503 at the server's limit, 429 at the
// client's, both with Retry-After) and returns a false ok; otherwise the
// caller calls release when the websocket closes.
func (s *Sockets) Take(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	ip := s.proxies.ClientIP(r)
	switch s.conns.Take(ip, s.limits.MaxConns, s.limits.MaxConnsPerIP) {
	case "total":
		s.Refused.Add(1)
		w.Header().Set("Retry-After", "30")
		Error(w, http.StatusServiceUnavailable, fmt.Sprintf("the server holds its most live connections (%d); try again in a little while", s.limits.MaxConns))
		return nil, false
	case "ip":
		s.Refused.Add(1)
		w.Header().Set("Retry-After", "10")
		Error(w, http.StatusTooManyRequests, fmt.Sprintf("your address holds the most live connections one address may (%d); close some games' pages", s.limits.MaxConnsPerIP))
		return nil, false
	}
	return func() { s.conns.Give(ip) }, true
}

// Socket is an open websocket.
type Socket struct {
	*websocket.Conn
	s    *Sockets
	nc   *socketConn   // the connection under the websocket
	rd   *bufio.Reader // the websocket's reader (see Read)
	fd   int           // nc's file descriptor for the poller, or -1
	stop func() bool
	// filled is set when the next message is the empty one await put
	// after a pong (only Read's goroutine uses it).
	filled bool
	// handle and end are Serve's.
	handle func(websocket.MessageType, []byte)
	end    func()

	mu sync.Mutex // guards the fields below
	// waiting is set while Read waits for a message by itself, outside
	// the websocket library; closing once the socket is being closed,
	// after which nothing more is read. A close asked while Read waits
	// is left to Read (asked, with its code and reason), woken by a read
	// deadline: the library's close handshake reads the connection too,
	// and only one goroutine may.
	waiting, closing, asked bool
	code                    websocket.StatusCode
	reason                  string
	// parked is set while the poller watches the socket for its next
	// bytes and no goroutine serves it; watched once the poller has its
	// file descriptor (the poller's lock guards it too).
	parked, watched bool
}

// aLongTimeAgo is a read deadline that wakes a read at once.
var aLongTimeAgo = time.Unix(1, 0)

// Accept upgrades the request to a websocket, from the server's own origin
// or the allowed ones, reading messages of at most MaxMessage bytes and
// compressing those it sends of CompressAbove bytes or more. Once
// Close has begun it answers 503 instead. On failure the request has been
// answered. The caller calls Socket.Done when it is over; Close closes the
// socket with status 1001 and waits for that.
func (s *Sockets) Accept(w http.ResponseWriter, r *http.Request) (*Socket, bool) {
	s.closeMu.Lock()
	if s.closing {
		s.closeMu.Unlock()
		Error(w, http.StatusServiceUnavailable, "the server is shutting down; try again")
		return nil, false
	}
	s.wg.Add(1)
	s.closeMu.Unlock()
	sk := &Socket{s: s}
	hj := &smallBuffers{ResponseWriter: w}
	conn, err := websocket.Accept(hj, r, &websocket.AcceptOptions{
		OriginPatterns: s.limits.OriginPatterns,
		// Compressed when it pays (docs/performance.md, "Messages"): the
		// full states of long games shrink 3 to 8 times, while updates
		// and small states would gain a few hundred bytes for a
		// compression each per connection. Without context takeover a
		// connection keeps no compressor between messages.
		CompressionMode:      websocket.CompressionNoContextTakeover,
		CompressionThreshold: CompressAbove,
	})
	if err != nil {
		s.wg.Done()
		s.log.Debug("websocket accept", "path", r.URL.Path, "err", err)
		return nil, false
	}
	conn.SetReadLimit(MaxMessage)
	sk.Conn, sk.nc, sk.rd, sk.fd = conn, hj.conn, hj.rd, fdOf(hj.conn.Conn)
	hj.conn.sk = sk
	sk.stop = context.AfterFunc(s.ctx, func() { sk.CloseWith(websocket.StatusGoingAway, "server shutting down") })
	return sk, true
}

// CloseWith closes the socket with a status and reason, once: later calls
// do nothing. It does not wait.
func (sk *Socket) CloseWith(code websocket.StatusCode, reason string) {
	sk.mu.Lock()
	defer sk.mu.Unlock()
	switch {
	case sk.closing:
	case sk.parked:
		// No goroutine serves it: one of its own closes it and ends it,
		// not one of those serving the ready queue, since the close
		// handshake may wait for the peer (5 s).
		sk.parked = false
		sk.closing = true
		sk.s.poll.forget(sk)
		go func() {
			sk.Conn.Close(code, reason)
			sk.finish()
		}()
	case sk.waiting:
		// Read closes it, on its own goroutine.
		sk.closing, sk.asked, sk.code, sk.reason = true, true, code, reason
		sk.nc.SetReadDeadline(aLongTimeAgo)
	default:
		sk.closing = true
		go sk.Conn.Close(code, reason)
	}
}

// Read reads the next message, as websocket.Conn.Read does: a read that
// fails or whose ctx ends closes the socket. While no message comes it
// waits by itself, at the bottom of a stack so short that the runtime
// shrinks it by half: the library's read would hold a stack twice as
// large through the wait, which for a server of many idle websockets is
// most of their memory (docs/performance.md).
func (sk *Socket) Read(ctx context.Context) (websocket.MessageType, []byte, error) {
	for {
		typ, data, err := sk.readOne(ctx)
		if err != errFiller {
			return typ, data, err
		}
	}
}

// errFiller is readOne's answer when the frames it read were a pong and
// await's empty message after it.
var errFiller = errors.New("a pong")

// readOne reads the next message, as Read does, or a pong alone (and
// answers errFiller).
func (sk *Socket) readOne(ctx context.Context) (websocket.MessageType, []byte, error) {
	if err := sk.idle(ctx); err != nil {
		return 0, nil, sk.idleEnd(ctx, err)
	}
	typ, data, err := sk.Conn.Read(ctx)
	if sk.filled && err == nil {
		sk.filled = false
		if typ == websocket.MessageBinary && len(data) == 0 {
			return 0, nil, errFiller
		}
	}
	return typ, data, err
}

// Serve runs the socket's life after its set-up and returns at once, so
// that the HTTP handler returns (its goroutine, whose stack grew with the
// set-up, and its request are freed): it hands each message to handle,
// one after the other, until the socket closes, then calls end, then
// Done. At most SocketLimits.Handlers messages of all the sockets are
// handled at once: the others wait their turn unread.
//
// Where the system has a poller (Linux, for plain TCP connections), no
// goroutine waits for the socket between messages: the socket is parked,
// and when its next bytes come it joins the sockets ready to be served,
// which at most Handlers goroutines serve in turn, a message at a time.
// A message begun must then be whole within FrameTimeout, or the socket
// is closed: a client cannot hold a server's goroutine with half a
// message. Elsewhere a goroutine of the socket's waits for each message at
// the bottom of a short stack (see Read), and handles it on a goroutine
// of its own, so that the socket's never keeps the deep stack handling
// may grow (a move, its commit, its broadcast).
func (sk *Socket) Serve(handle func(websocket.MessageType, []byte), end func()) {
	sk.handle, sk.end = handle, end
	if sk.fd < 0 || sk.s.poller() == nil {
		go sk.serveAlone()
		return
	}
	sk.rest()
}

// rest parks the socket until bytes come; when some have come already, or
// the socket is closing, it joins the ready queue instead.
func (sk *Socket) rest() {
	if !sk.park() {
		sk.s.dispatch(sk)
	}
}

// serveOnce reads and handles the next message of a socket from the ready
// queue, then rests it, or ends it once it has closed.
func (sk *Socket) serveOnce() {
	sk.nc.SetReadDeadline(time.Now().Add(sk.s.limits.FrameTimeout))
	typ, data, err := sk.readOne(context.Background())
	switch {
	case err == errFiller:
		sk.nc.SetReadDeadline(time.Time{})
	case err != nil:
		sk.finish()
		return
	default:
		sk.nc.SetReadDeadline(time.Time{})
		sk.handle(typ, data)
	}
	sk.rest()
}

// finish ends the life Serve runs once the socket has closed: end, then
// Done.
func (sk *Socket) finish() {
	sk.end()
	sk.Done()
}

// serveAlone serves a socket that cannot be parked, on a goroutine of its
// own, until it closes.
func (sk *Socket) serveAlone() {
	done := make(chan struct{})
	for {
		typ, data, err := sk.readOne(context.Background())
		switch {
		case err == errFiller:
			continue
		case err != nil:
			sk.finish()
			return
		}
		sk.s.handling <- struct{}{}
		go func() {
			sk.handle(typ, data)
			done <- struct{}{}
		}()
		<-done
		<-sk.s.handling
	}
}

// dispatch queues a socket whose bytes have come (or that is closing) to
// be served, and starts a goroutine to serve the queue if fewer than
// Handlers do.
func (s *Sockets) dispatch(sk *Socket) {
	s.readyMu.Lock()
	s.ready = append(s.ready, sk)
	s.readyMu.Unlock()
	s.drain()
}

// drain starts goroutines to serve the ready queue while handler tokens
// are free and sockets wait.
func (s *Sockets) drain() {
	for {
		select {
		case s.handling <- struct{}{}:
		default:
			return
		}
		sk := s.next()
		if sk == nil {
			<-s.handling
			// A socket queued while the token was held, when no token
			// was free, is served now.
			s.readyMu.Lock()
			waiting := len(s.ready) > 0
			s.readyMu.Unlock()
			if !waiting {
				return
			}
			continue
		}
		go s.work(sk)
	}
}

// work serves sockets from the ready queue, a message at a time, until it
// is empty; it holds a handler token.
func (s *Sockets) work(sk *Socket) {
	for ; sk != nil; sk = s.next() {
		sk.serveOnce()
	}
	<-s.handling
	s.drain()
}

// next takes the first socket of the ready queue, or nil.
func (s *Sockets) next() *Socket {
	s.readyMu.Lock()
	defer s.readyMu.Unlock()
	if len(s.ready) == 0 {
		s.ready = nil
		return nil
	}
	sk := s.ready[0]
	s.ready[0] = nil
	s.ready = s.ready[1:]
	return sk
}

// park hands the socket to the poller when no byte of a message has come
// yet, and reports whether it did; the poller queues it when bytes come
// (unpark).
func (sk *Socket) park() bool {
	if sk.fd < 0 {
		return false
	}
	p := sk.s.poller()
	if p == nil {
		return false
	}
	// Under the lock: once closing, the library's close handshake reads
	// the connection and its reader.
	sk.mu.Lock()
	defer sk.mu.Unlock()
	if sk.closing || sk.rd.Buffered() > 0 || sk.nc.hasPending() || !p.park(sk) {
		return false
	}
	sk.parked = true
	return true
}

// unpark queues a parked socket to be served.
func (sk *Socket) unpark() {
	sk.mu.Lock()
	defer sk.mu.Unlock()
	if sk.parked {
		sk.parked = false
		sk.s.dispatch(sk)
	}
}

// connClosing is told that the socket's connection is being closed (by
// the library, after an error or a close handshake): the poller forgets
// it, and a parked socket is queued to see the end.
func (sk *Socket) connClosing() {
	sk.mu.Lock()
	defer sk.mu.Unlock()
	if sk.watched {
		sk.s.poll.forget(sk)
	}
	if sk.parked {
		sk.parked = false
		sk.s.dispatch(sk)
	}
}

// idle waits for the next message's first bytes, or until ctx ends or
// CloseWith asks.
func (sk *Socket) idle(ctx context.Context) error {
	sk.mu.Lock()
	if sk.closing {
		sk.mu.Unlock()
		return net.ErrClosed
	}
	sk.waiting = true
	sk.mu.Unlock()
	var stop func() bool
	if ctx.Done() != nil {
		stop = context.AfterFunc(ctx, sk.wake)
	}
	err := sk.await()
	if stop != nil {
		stop()
	}
	sk.mu.Lock()
	sk.waiting = false
	if sk.asked || ctx.Err() != nil {
		err = errAsked
	}
	sk.mu.Unlock()
	return err
}

// errAsked ends a wait that CloseWith or the end of the context cut short.
var errAsked = errors.New("the wait for a message was cut short")

// idleEnd closes the socket after idle's error and returns Read's.
func (sk *Socket) idleEnd(ctx context.Context, err error) error {
	sk.mu.Lock()
	asked, code, reason := sk.asked, sk.code, sk.reason
	sk.closing = true
	sk.mu.Unlock()
	switch {
	case asked:
		sk.nc.SetReadDeadline(time.Time{})
		sk.Conn.Close(code, reason)
		return net.ErrClosed
	case err == net.ErrClosed:
		return err
	}
	sk.CloseNow()
	if ctx.Err() != nil {
		return fmt.Errorf("waiting for a message: %w", ctx.Err())
	}
	return err
}

// wake ends the wait of Read, which then sees that its context ended.
func (sk *Socket) wake() {
	sk.mu.Lock()
	defer sk.mu.Unlock()
	if sk.waiting {
		sk.nc.SetReadDeadline(aLongTimeAgo)
	}
}

// await waits for the next frame. The library reads the frames; but a
// pong alone, which it would read and then wait within for a message, is
// followed by an empty binary message of await's own (filler), which the
// library reads next and Read drops: the library's read returns, having
// told its Ping of the pong.
func (sk *Socket) await() error {
	h, err := sk.rd.Peek(2)
	if err != nil {
		return err
	}
	if n := pongSize(h); n > 0 {
		if _, err := sk.rd.Peek(n); err != nil {
			return err
		}
		if sk.rd.Buffered() == n {
			sk.nc.unread(filler)
			sk.filled = true
		}
	}
	return nil
}

// filler is an empty binary message from a client (final, masked with
// the key 0).
var filler = []byte{0x82, 0x80, 0, 0, 0, 0}

// pongSize returns the size of the client's pong frame whose first two
// bytes are h (final, masked, at most 125 bytes of payload), or 0 when h
// begins any other frame.
func pongSize(h []byte) int {
	const final, opPong, masked = 0x80, 0xA, 0x80
	if h[0] != final|opPong || h[1]&masked == 0 || h[1]&^masked > 125 {
		return 0
	}
	return 2 + 4 + int(h[1]&^masked)
}

// ConnWrapper is a connection that wraps another and buffers none of its
// bytes (a listener's counting of connections, say): a websocket over it
// is watched through the connection it wraps while it waits for a message
// (Socket.Serve).
type ConnWrapper interface {
	net.Conn
	// Unwrap returns the connection wrapped.
	Unwrap() net.Conn
}

// socketConn is a websocket's connection, whose reads return first the
// bytes given back to it.
type socketConn struct {
	net.Conn
	sk      *Socket // the socket over it, told of its closing
	mu      sync.Mutex
	pending []byte
}

// Close tells the socket, then closes the connection.
func (c *socketConn) Close() error {
	if c.sk != nil {
		c.sk.connClosing()
	}
	return c.Conn.Close()
}

// hasPending reports whether bytes given back wait to be read.
func (c *socketConn) hasPending() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending) > 0
}

func (c *socketConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	if len(c.pending) > 0 {
		n := copy(p, c.pending)
		c.pending = c.pending[n:]
		c.mu.Unlock()
		return n, nil
	}
	c.mu.Unlock()
	return c.Conn.Read(p)
}

// unread puts b before the bytes still to come.
func (c *socketConn) unread(b []byte) {
	c.mu.Lock()
	c.pending = append(b[:len(b):len(b)], c.pending...)
	c.mu.Unlock()
}

// Done closes the socket normally, if nothing closed it before, and tells
// Close that its handler is over.
func (sk *Socket) Done() {
	sk.stop()
	sk.CloseWith(websocket.StatusNormalClosure, "")
	sk.s.wg.Done()
}

// Outbox returns a queue of messages for the socket: Send queues a message
// without blocking and a goroutine writes the messages while any wait (an
// idle socket holds none); a socket whose queue is full is closed as too
// slow (status 1008), and a write that takes longer than the ping timeout
// closes the socket.
func (sk *Socket) Outbox() *Outbox {
	o := NewOutbox(sk.s.limits.SendQueue, func() { sk.CloseWith(websocket.StatusPolicyViolation, "too slow") })
	o.write = func(msg []byte) error {
		ctx, cancel := context.WithTimeout(context.Background(), sk.s.limits.PingTimeout)
		defer cancel()
		return sk.Write(ctx, websocket.MessageText, msg)
	}
	o.fail = func() { sk.CloseNow() }
	return o
}

// KeepAlive pings the socket every ping interval until stop is called,
// and closes it when a ping is not answered within the ping timeout: a
// peer that vanished, or one that holds the connection without reading,
// does not keep it open. Between pings it holds no goroutine.
func (sk *Socket) KeepAlive() (stop func()) {
	var (
		mu      sync.Mutex
		stopped bool
		t       *time.Timer
	)
	ping := func() {
		ctx, cancel := context.WithTimeout(context.Background(), sk.s.limits.PingTimeout)
		err := sk.Ping(ctx)
		cancel()
		mu.Lock()
		defer mu.Unlock()
		switch {
		case stopped:
		case err != nil:
			sk.s.IdleClosed.Add(1)
			sk.CloseNow()
		default:
			t.Reset(sk.s.limits.PingInterval)
		}
	}
	mu.Lock()
	t = time.AfterFunc(sk.s.limits.PingInterval, ping)
	mu.Unlock()
	return func() {
		mu.Lock()
		stopped = true
		t.Stop()
		mu.Unlock()
	}
}

// Close refuses new websockets, closes the open ones with status 1001 and
// waits for their handlers to finish.
func (s *Sockets) Close() {
	s.closeMu.Lock()
	s.closing = true
	s.closeMu.Unlock()
	s.cancel()
	s.wg.Wait()
	s.pollOnce.Do(func() {}) // no poller is made from now on
	if s.poll != nil {
		s.poll.close()
	}
}

// poller returns the poller of the parked sockets, made at the first call;
// nil when the system has none.
func (s *Sockets) poller() *poller {
	s.pollOnce.Do(func() {
		p, err := newPoller()
		if err != nil {
			s.log.Debug("websockets wait on goroutines of their own", "err", err)
			return
		}
		s.poll = p
	})
	return s.poll
}

// Outbox is a websocket's queue of messages to send. A goroutine writes
// the messages while any wait and ends when none does, so that the many
// idle connections of a busy server hold no writer and no buffer.
type Outbox struct {
	max   int
	slow  func()             // called once when a message does not fit
	write func([]byte) error // writes one message; nil: the messages stay queued
	fail  func()             // called once a write has failed

	mu      sync.Mutex // guards the fields below
	queue   [][]byte
	writing bool          // a goroutine is writing the queue
	shut    bool          // Close was called: nothing more is queued
	dead    bool          // the queue overflowed or a write failed: nothing more is written
	drained chan struct{} // closed when a closed outbox's writer is done
}

// NewOutbox returns an outbox of at most n messages that calls slow, once,
// when a message does not fit. Its messages are only queued (Len counts
// them): Socket.Outbox returns one that writes them.
func NewOutbox(n int, slow func()) *Outbox {
	return &Outbox{max: n, slow: slow}
}

// Send queues a message without blocking; when the queue is full the
// socket is closed as too slow and gets nothing more.
func (o *Outbox) Send(msg []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case o.shut || o.dead:
		return
	case len(o.queue) >= o.max:
		o.dead = true
		o.slow()
		return
	}
	o.queue = append(o.queue, msg)
	if !o.writing && o.write != nil {
		o.writing = true
		go o.run()
	}
}

// Len returns how many messages wait.
func (o *Outbox) Len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.queue)
}

// Take removes the messages waiting and returns them in order: what a
// test reads of an outbox that writes nothing (NewOutbox).
func (o *Outbox) Take() [][]byte {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := o.queue
	o.queue = nil
	return out
}

// run writes the queued messages until none waits.
func (o *Outbox) run() {
	for {
		o.mu.Lock()
		if len(o.queue) == 0 || o.dead {
			o.queue = nil
			o.writing = false
			if o.drained != nil {
				close(o.drained)
				o.drained = nil
			}
			o.mu.Unlock()
			return
		}
		msg := o.queue[0]
		o.queue[0] = nil
		o.queue = o.queue[1:]
		o.mu.Unlock()
		if err := o.write(msg); err != nil {
			o.mu.Lock()
			o.dead = true
			o.mu.Unlock()
			o.fail()
		}
	}
}

// Close stops the outbox taking messages and waits for those queued to be
// written (or for a write to fail).
func (o *Outbox) Close() {
	o.mu.Lock()
	o.shut = true
	if !o.writing {
		o.mu.Unlock()
		return
	}
	if o.drained == nil {
		o.drained = make(chan struct{})
	}
	done := o.drained
	o.mu.Unlock()
	<-done
}

// WriteMessage writes one text message, giving up (and closing the socket)
// when it takes longer than the ping timeout or ctx ends.
func (sk *Socket) WriteMessage(ctx context.Context, msg []byte) error {
	ctx, cancel := context.WithTimeout(ctx, sk.s.limits.PingTimeout)
	defer cancel()
	return sk.Write(ctx, websocket.MessageText, msg)
}

// The sizes of a websocket's read and write buffers. The HTTP server's
// are 4 KiB each, which the websocket would keep for its life: 8 KiB of
// every idle connection, 40% of the heap of a server holding 10,000 games
// (docs/performance.md). Longer messages are read and written through
// them in several pieces, at the cost of a system call more. The read
// buffer holds at least a whole pong frame (Socket.await).
const (
	readBuffer  = 256
	writeBuffer = 512
)

// smallBuffers is a ResponseWriter whose hijacked connection comes with
// small buffers instead of the HTTP server's; it keeps the connection and
// the reader it made.
type smallBuffers struct {
	http.ResponseWriter
	conn *socketConn
	rd   *bufio.Reader
}

// Hijack takes the connection over with small buffers, keeping what the
// server's reader had buffered.
func (w *smallBuffers) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	hj, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("the connection cannot be taken over (no http.Hijacker)")
	}
	conn, brw, err := hj.Hijack()
	if err != nil {
		return nil, nil, err
	}
	if err := brw.Writer.Flush(); err != nil {
		conn.Close()
		return nil, nil, err
	}
	// What the server's reader holds already (a message the client sent
	// right after its handshake) comes first.
	buffered, _ := brw.Reader.Peek(brw.Reader.Buffered())
	sc := &socketConn{Conn: conn, pending: bytes.Clone(buffered)}
	rd := bufio.NewReaderSize(sc, readBuffer)
	w.conn, w.rd = sc, rd
	return sc, bufio.NewReadWriter(rd, bufio.NewWriterSize(conn, writeBuffer)), nil
}
