// One websocket to the server: sign in with the page's token, reconnect by itself with backoff.
//
// Status goes "connecting" -> "online" -> "offline" (lost, retrying) -> "online" ...; a token the
// server refuses stops the retries ("refused"). Every frame is JSON; the caller gets the parsed
// server messages after the welcome.

const PING_EVERY = 10_000;
const PONG_WITHIN = 8_000;

export class Connection {
  /**
   * @param {object} options
   * @param {string} options.token the station's signed token
   * @param {(welcome: object) => void} options.onWelcome signed in (again): subscribe here
   * @param {(message: object) => void} options.onMessage every server message after the welcome
   * @param {(status: string, detail: string) => void} options.onStatus connection state changes
   * @param {string} [options.url] ws(s)://same host/ by default
   */
  constructor({ token, onWelcome, onMessage, onStatus, url }) {
    this.url = url || `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/`;
    this.token = token;
    this.onWelcome = onWelcome;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.signedIn = false;
    this.failures = 0;
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.pongTimer = null;
    this.status = "connecting";
    this.welcome = null;
  }

  start() {
    if (!this.token) {
      this.setStatus("refused", "No token: open this page with ?token=…");
      return;
    }
    this.open();
    addEventListener("online", () => this.retryNow());
  }

  setStatus(status, detail = "") {
    this.status = status;
    this.onStatus?.(status, detail);
  }

  open() {
    clearTimeout(this.retryTimer);
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (error) {
      this.lost(String(error));
      return;
    }
    this.ws = ws;
    this.signedIn = false;
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: this.token }));
    ws.onmessage = (frame) => this.received(ws, frame.data);
    ws.onclose = (close) => {
      if (this.ws === ws) this.lost(close.reason || "connection closed");
    };
    ws.onerror = () => {};
  }

  received(ws, data) {
    if (ws !== this.ws) return;
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (!this.signedIn) {
      if (message.type === "welcome") {
        this.signedIn = true;
        this.failures = 0;
        this.welcome = message;
        this.setStatus("online", message.server || "");
        this.keepAlive();
        this.onWelcome?.(message);
      } else if (message.type === "error") {
        // The server refused the token: retrying with the same one will not help.
        this.stopped = true;
        this.setStatus("refused", `Sign-in refused: ${message.message}`);
        ws.close();
      }
      return;
    }
    if (message.type === "pong") {
      clearTimeout(this.pongTimer);
      return;
    }
    if (message.type === "resync") {
      // The server dropped us as too slow: reconnect and resume from the last event seen.
      this.drop(message.reason || "resync");
      return;
    }
    this.onMessage?.(message);
  }

  keepAlive() {
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      if (!this.send({ type: "ping", nonce: Date.now() % 1_000_000 })) return;
      clearTimeout(this.pongTimer);
      this.pongTimer = setTimeout(() => this.drop("no answer from the server"), PONG_WITHIN);
    }, PING_EVERY);
  }

  /** Close this socket and reconnect. */
  drop(reason) {
    const ws = this.ws;
    this.lost(reason);
    try {
      ws?.close();
    } catch {
      /* already closed */
    }
  }

  lost(reason) {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.ws = null;
    this.signedIn = false;
    if (this.stopped) return;
    this.failures += 1;
    // 0.25 s, 0.5 s, 1 s, 2 s, then every 3 s, with a little jitter.
    const delay = Math.min(250 * 2 ** (this.failures - 1), 3000) * (0.8 + Math.random() * 0.4);
    this.setStatus("offline", reason);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  retryNow() {
    if (this.ws || this.stopped) return;
    this.open();
  }

  get online() {
    return this.signedIn && this.ws?.readyState === WebSocket.OPEN;
  }

  /** Send a message; false when offline (nothing is queued). */
  send(message) {
    if (!this.online) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }
}
