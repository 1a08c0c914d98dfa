// transport.js is the one websocket of the client: every page that follows
// the server live (a game, the lobby, the analysis board) opens a Socket.
// A Socket reconnects after it drops, waiting longer after each failed
// attempt (0.3 s, doubling up to 5 s), keeps the messages sent while it is
// not open in a short queue when asked to, and hands every JSON message it
// receives to its page.

// The delays between attempts to reconnect, in milliseconds.
const FIRST_DELAY = 300;
const MAX_DELAY = 5000;

// backoff returns the delay before attempt n (from 0) to reconnect.
export const backoff = (n) => Math.min(MAX_DELAY, FIRST_DELAY * 2 ** n);

// Socket is a websocket to a path of this server. on holds:
//   receive(msg)  each message received, decoded from JSON (others are
//                 ignored);
//   status(s)     "connected" when it opens, "reconnecting" when it drops
//                 and will try again, "closed" when it is closed for good;
//   open()        after it opens, before the queued messages are sent.
// opts holds:
//   path          the path to connect to, or a function returning it (read
//                 at every attempt, e.g. for a token that changed);
//   reconnect     try again after the socket drops (default true);
//   lazy          connect at the first send rather than at once;
//   queue         how many messages sent while the socket is not open are
//                 kept and sent in order once it opens (default 0: such a
//                 message is dropped, and send says so); the oldest go first
//                 when more arrive.
export class Socket {
  constructor(opts, on = {}) {
    this.opts = { reconnect: true, lazy: false, queue: 0, ...opts };
    this.on = on;
    this.ws = null;
    this.retry = 0;
    this.timer = null;
    this.closed = false;
    this.pending = [];
    this.lastSent = ""; // the type of the last message sent
    if (!this.opts.lazy) this.connect();
  }

  // url returns the websocket address of the socket's path.
  url() {
    const path = typeof this.opts.path === "function" ? this.opts.path() : this.opts.path;
    return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${path}`;
  }

  // connect opens the websocket unless it is open or opening.
  connect() {
    if (this.closed || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return;
    clearTimeout(this.timer);
    this.timer = null;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.retry = 0;
      this.on.status && this.on.status("connected");
      this.on.open && this.on.open();
      const queued = this.pending;
      this.pending = [];
      for (const m of queued) this.write(m);
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.on.receive && this.on.receive(msg);
    };
    ws.onclose = () => {
      if (ws !== this.ws || this.closed) return;
      this.ws = null;
      if (!this.opts.reconnect) {
        this.on.status && this.on.status("closed");
        return;
      }
      this.on.status && this.on.status("reconnecting");
      this.timer = setTimeout(() => this.connect(), backoff(this.retry++));
    };
  }

  // isOpen reports whether messages go out at once.
  get isOpen() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  write(msg) {
    this.lastSent = msg.type || "";
    this.ws.send(JSON.stringify(msg));
  }

  // send sends msg as JSON. It reports whether the message went out or was
  // queued to go out once the socket opens; a message the socket can
  // neither send nor queue is dropped and send reports false.
  send(msg) {
    if (this.closed) return false;
    if (this.isOpen) {
      this.write(msg);
      return true;
    }
    if (this.opts.queue <= 0) return false;
    this.pending.push(msg);
    while (this.pending.length > this.opts.queue) this.pending.shift();
    this.connect();
    return true;
  }

  // reconnect drops the connection and opens a new one at once, e.g. when
  // the page finds itself out of step with the server.
  reconnect() {
    if (this.closed) return;
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
    this.connect();
  }

  // close closes the socket for good.
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.pending = [];
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close(1000);
  }
}
