// One websocket to the server: sign in with the page's token, reconnect by itself with backoff.
//
// Status goes "connecting" -> "online" -> "offline" (lost, retrying) -> "online" ...; a token the
// server refuses, or one that expires or is revoked while connected (close 4001 / 4003), stops
// the retries ("refused") and shows the sign-in form: reconnecting with a dead token would only
// be refused again. Every frame is JSON; the caller gets the parsed server messages after the
// welcome.
//
// The token never travels in a URL the browser sends or keeps: it comes in the fragment
// (`#token=…`, which is not sent to the server nor in a Referer) or from the sign-in form, is
// kept in sessionStorage (this tab only) and is taken out of the address at once.

const PING_EVERY = 10_000;
const PONG_WITHIN = 8_000;
const TOKEN_KEY = "tablewire:token";
const TOKEN_ENDED = { 4001: "The token has expired", 4003: "The token was revoked" };

/**
 * The station's token: from the address (`#token=…`; a `?token=` of an older link too) once,
 * then from sessionStorage. The address is rewritten without it, so it stays out of the
 * history and the address bar.
 */
export function takeToken() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const query = new URLSearchParams(location.search);
  const given = fragment.get("token") || query.get("token");
  if (given) {
    sessionStorage.setItem(TOKEN_KEY, given);
    fragment.delete("token");
    query.delete("token");
    const search = query.toString();
    const hash = fragment.toString();
    const address = location.pathname + (search ? `?${search}` : "") + (hash ? `#${hash}` : "");
    history.replaceState(history.state, "", address);
  }
  return sessionStorage.getItem(TOKEN_KEY) || "";
}

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
    addEventListener("online", () => this.retryNow());
    if (!this.token) {
      this.signInAgain("Not signed in: enter this station's token");
      return;
    }
    this.open();
  }

  /** Stop retrying, forget the token and ask for one. */
  signInAgain(reason) {
    this.stopped = true;
    this.token = "";
    sessionStorage.removeItem(TOKEN_KEY);
    this.setStatus("refused", `${reason} — sign in again`);
    showSignInForm((token) => {
      sessionStorage.setItem(TOKEN_KEY, token);
      this.token = token;
      this.stopped = false;
      this.failures = 0;
      this.setStatus("connecting");
      this.open();
    });
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
      if (this.ws !== ws) return;
      if (TOKEN_ENDED[close.code]) {
        this.stopped = true;
        this.lost(close.reason);
        this.signInAgain(TOKEN_ENDED[close.code]);
      } else {
        this.lost(close.reason || "connection closed");
      }
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
        this.ws = null;
        ws.close();
        this.signInAgain(`Sign-in refused: ${message.message}`);
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

/** The sign-in form: one field for the token, shown under the page's header bar. */
function showSignInForm(onToken) {
  let form = document.getElementById("sign-in");
  if (!form) {
    form = document.createElement("form");
    form.id = "sign-in";
    form.className = "sign-in";
    form.setAttribute("aria-label", "Sign in");
    const label = document.createElement("label");
    label.textContent = "Station token ";
    const input = document.createElement("input");
    input.name = "token";
    input.type = "password";
    input.autocomplete = "off";
    input.required = true;
    input.spellcheck = false;
    label.append(input);
    const button = document.createElement("button");
    button.type = "submit";
    button.textContent = "Sign in";
    form.append(label, " ", button);
    const bar = document.querySelector("header.bar");
    if (bar) bar.after(form);
    else document.body.prepend(form);
  }
  form.hidden = false;
  const input = form.elements.namedItem("token");
  input.value = "";
  form.onsubmit = (event) => {
    event.preventDefault();
    const token = input.value.trim();
    if (!token) return;
    form.hidden = true;
    onToken(token);
  };
  input.focus();
}
