// Talking to the server: REST calls under /api and one websocket per table under /ws.
//
// The socket reconnects by itself after a network blip (backoff up to a few seconds) and says hello again with
// the seat token and the number of the last event seen, so the server answers with a fresh view of the same
// seat.  `request()` pairs a message with its reply by `id`; listeners get every other server message, and the
// replies too, except a refusal: that is the caller's to show (once), since it asked.  A request the server never
// answers (its rate limit drops a frame without a word when it has just said `rate_limited` about another one) is
// answered by the socket itself after a while: the error `timeout` (REQUEST_TIMEOUT_MS).

export const PROTOCOL_VERSION = 1;

/**
 * Milliseconds `TableSocket.request()` waits for the reply before it answers with the error `timeout` itself (the
 * socket's option `requestTimeout`; 0 waits for ever).  The requests the page makes are quick for the server:
 * `act`, `undo`, `fill` and `rematch` take the table's lock and store an event (a rematch makes and stores a new
 * table), a `hint` is the expert bot's decision (a tenth of a second) in the searching bots' pool; a loaded server
 * takes a few seconds at worst.  Twenty seconds is well past that, and short enough that a frame the server dropped (its rate
 * limit says `rate_limited` about one dropped frame a second, not about every one) does not leave the page waiting
 * with a card "pending" or "Play again" disabled until the connection drops.
 */
export const REQUEST_TIMEOUT_MS = 20_000;

/**
 * Milliseconds the socket waits, from the moment it opens a connection, for the server's welcome (its answer to our
 * hello, or a "not now"); past it the connection is taken for lost, closed, and opened again (the socket's option
 * `helloTimeout`).  A connection can stall before the welcome without any error: a handshake or a hello lost on a
 * network that changed under it (a phone between Wi-Fi and mobile data), which the browser may take minutes to
 * notice, while the page said "connecting…" and the player's seat, unattended, went to a stand-in.  A server
 * answers a hello at once (a table read back from the database takes milliseconds); twenty seconds is well past
 * it.
 */
export const HELLO_TIMEOUT_MS = 20_000;

/**
 * Milliseconds of silence from the server after which the socket pings it itself (the socket's option
 * `quietTimeout`; 0: never).  The server pings every client every `--heartbeat` seconds (20 by default) and
 * answers a client's ping with pong, so on a live connection a frame comes well within this; when none has, the
 * socket pings, and a connection that brings nothing for another `PING_TIMEOUT_MS` is taken for dead, closed and
 * opened again.  A connection that died without a word (a laptop woken from sleep, a router restarted) otherwise
 * looked open to the browser for minutes, the table frozen, while the server gave the seat to a stand-in.
 */
export const QUIET_TIMEOUT_MS = 25_000;

/** Milliseconds the socket waits for any frame after its own ping (see QUIET_TIMEOUT_MS; the option `pingTimeout`). */
export const PING_TIMEOUT_MS = 10_000;

/** The message of the error `timeout` a call or a request answers itself after *timeout* ms. */
function noAnswerMessage(timeout) {
  return `no answer from the server within ${Math.round(timeout / 100) / 10} s`;
}

export class ApiError extends Error {
  constructor(status, code, message, retryAfter = null, table = null, reason = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter; // seconds, from a 429's Retry-After header
    this.table = table; // the table a refusal names (`seated`: the one whose seat a profile holds), or null
    this.reason = reason; // why, for a client to say (a refused name: {code: "name_…", …}; docs/protocol.md), or null
  }
}

/** Call the REST API: `api("POST", "/api/tables", {...})`.  Errors become ApiError with the server's code. */
export async function api(method, path, body = undefined) {
  return (await apiResponse(method, path, body)).data;
}

/**
 * Like `api`, with the response's headers too: `{data, headers}` (a paged list says its total in one).
 * *options*: `headers` to send (say, `Authorization` with a seat token), `signal` to abort the call, `timeout`:
 * milliseconds to wait for the whole answer (REQUEST_TIMEOUT_MS by default; 0 waits for ever) before the call fails
 * with the error `timeout`.  A browser waits minutes for an answer on a connection that stalled (a network that
 * changed under a phone, an overloaded server), with the button that asked disabled all the while.
 */
export async function apiResponse(method, path, body = undefined,
  { headers = {}, signal = undefined, timeout = REQUEST_TIMEOUT_MS } = {}) {
  const abort = new AbortController();
  const forward = () => abort.abort();
  if (signal?.aborted) abort.abort();
  signal?.addEventListener("abort", forward, { once: true });
  let timedOut = false;
  const timer = Number.isFinite(timeout) && timeout > 0
    ? setTimeout(() => { timedOut = true; abort.abort(); }, timeout) : null;
  let response;
  let text;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? { ...headers } : { ...headers, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: abort.signal,
    });
    text = await response.text(); // the body may stall too
  } catch (error) {
    if (timedOut) {
      throw new ApiError(0, "timeout", noAnswerMessage(timeout));
    }
    throw new ApiError(0, "network", String(error));
  } finally {
    if (timer !== null) clearTimeout(timer);
    signal?.removeEventListener("abort", forward);
  }
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { message: text };
  }
  if (!response.ok) {
    // The server answers {"error": code, "message": text}.
    const code = (data && (data.error || data.code)) || String(response.status);
    const message = (data && data.message) || response.statusText;
    const retry = Number.parseInt(response.headers.get("Retry-After") ?? "", 10);
    const table = data && typeof data.table === "string" ? data.table : null;
    const reason = data && data.reason && typeof data.reason === "object" && !Array.isArray(data.reason)
      ? data.reason : null;
    throw new ApiError(response.status, code, message, Number.isFinite(retry) && retry > 0 ? retry : null, table,
      reason);
  }
  return { data, headers: response.headers };
}

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws`;
}

/**
 * The hello refusals that are no refusal of the table or the token, but the server saying "not now": too many
 * requests from this address (`rate_limited`), no room for the table in memory (`server_full`, say while a
 * restarted server is busy), or a table it could not open this time (`internal`).  The socket says hello again
 * after a backoff (state "waiting"); every other refusal is final ("fatal").
 */
export const HELLO_RETRY_CODES = new Set(["rate_limited", "server_full", "internal"]);
/** A connection the server does not admit (before any hello is answered) for the same "not now" reasons, or because
 * it (or this address) holds as many connections as it may: the page waits as for a hello's "not now". */
export const CONNECT_RETRY_CODES = new Set([...HELLO_RETRY_CODES, "too_many_connections"]);

/** Milliseconds before the next hello after *retries* "not now" answers in a row: 1, 2, 4… up to 30 s, jittered. */
export function helloRetryDelay(retries) {
  return Math.round(Math.min(30000, 1000 * 2 ** retries) * (0.75 + Math.random() / 2));
}

/**
 * One table connection.  Events: "message" (any server message), "state" ("connecting", "open",
 * "reconnecting", "waiting", "closed"), "retry" (a hello answered "not now", see HELLO_RETRY_CODES: detail
 * {code, seconds}; the state is "waiting" until the next try), "fatal" (an error reply to hello: the table or token
 * is not valid).
 */
export class TableSocket extends EventTarget {
  /**
   * @param {string} table
   * @param {string | null} token the seat's token (null: a spectator)
   * @param {{requestTimeout?: number, helloTimeout?: number, quietTimeout?: number, pingTimeout?: number}} options
   *   `requestTimeout`: milliseconds a request waits for its reply (see REQUEST_TIMEOUT_MS, the default; 0: for
   *   ever); read at each request, so it may be changed on a live socket.  `helloTimeout`, `quietTimeout` and
   *   `pingTimeout`: when a connection is taken for lost (HELLO_TIMEOUT_MS, QUIET_TIMEOUT_MS, PING_TIMEOUT_MS, the
   *   defaults; 0: never), read each time the watch is set.
   */
  constructor(table, token, { requestTimeout = REQUEST_TIMEOUT_MS, helloTimeout = HELLO_TIMEOUT_MS,
    quietTimeout = QUIET_TIMEOUT_MS, pingTimeout = PING_TIMEOUT_MS } = {}) {
    super();
    this.table = table;
    this.token = token;
    this.requestTimeout = requestTimeout;
    this.helloTimeout = helloTimeout;
    this.quietTimeout = quietTimeout;
    this.pingTimeout = pingTimeout;
    this.watchdog = null; // the timer that takes the connection for lost (watch)
    this.lastSeq = null;
    // The journal's epoch that lastSeq was seen in (the server's count of undos at the table): said with it in a
    // hello, so that after an undo we missed the server refuses our numbers (bad_seq) instead of going on from
    // a number that now names another event.
    this.epoch = null;
    this.ws = null;
    this.state = "connecting";
    this.closedByUs = false;
    this.attempt = 0;
    this.nextId = 1;
    this.pending = new Map(); // request id → {resolve, timer}
    // ids of the requests answered `timeout` on this connection: a reply that comes after all is not the caller's
    // any more (it has shown "no answer"); a late refusal is dropped, not shown a second time by the listeners
    this.expired = new Set();
    this.welcomed = false;
    this.timer = null;
    this.helloRetries = 0; // "not now" answers to hello in a row (HELLO_RETRY_CODES)
  }

  connect() {
    this.closedByUs = false;
    this.setState(this.welcomed ? "reconnecting" : "connecting");
    const ws = new WebSocket(socketUrl());
    this.ws = ws;
    this.watch(ws, this.helloTimeout, () => this.lost(ws)); // no welcome in time: a stalled connection
    ws.addEventListener("open", () => {
      const hello = { type: "hello", id: "hello", protocol: PROTOCOL_VERSION, table: this.table };
      if (this.token) hello.token = this.token;
      if (this.lastSeq !== null) hello.last_seq = this.lastSeq;
      if (this.lastSeq !== null && this.epoch !== null) hello.epoch = this.epoch;
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (event) => {
      if (ws !== this.ws) return; // a connection given up (lost, or a hello's "not now"): nothing more of it counts
      if (this.welcomed && this.state === "open") this.watchQuiet(ws); // any frame: the connection lives
      this.onFrame(event.data);
    });
    ws.addEventListener("close", () => this.onClose(ws));
    ws.addEventListener("error", () => { /* a close event follows */ });
  }

  onFrame(raw) {
    let message;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    if (message.type === "ping") {
      this.send({ type: "pong", id: message.id ?? null });
      return;
    }
    if (message.type === "welcome") {
      this.watchQuiet(this.ws);
      this.welcomed = true;
      this.attempt = 0;
      this.helloRetries = 0;
      this.setState("open");
    }
    if (message.type === "error" && message.id === "hello" && message.code === "bad_seq" && this.lastSeq !== null) {
      // An undo cut the table's journal while we were away: the numbers we saw are gone.  Start afresh.
      this.lastSeq = null;
      this.epoch = null;
      this.send({ type: "hello", id: "hello", protocol: PROTOCOL_VERSION, table: this.table,
        ...(this.token ? { token: this.token } : {}) });
      return;
    }
    // ... and a connection the server would not admit before our hello was answered (too many connection attempts
    // from this address: an error without an id, then the close): the same "not now", not a network blip
    const unanswered = this.state !== "open";
    if (message.type === "error" && ((message.id === "hello" && HELLO_RETRY_CODES.has(message.code))
        || (message.id == null && unanswered && CONNECT_RETRY_CODES.has(message.code)))) {
      this.retryHello(message.code);
      return;
    }
    if (message.type === "error" && message.id === "hello") {
      this.closedByUs = true;
      this.ws?.close();
      this.setState("closed");
      this.dispatchEvent(new CustomEvent("fatal", { detail: message }));
      return;
    }
    if (typeof message.seq === "number" && ["welcome", "snapshot"].includes(message.type)) {
      // the table as it is now; after an undo its number is lower than the ones seen before (protocol.md)
      this.lastSeq = message.seq;
      this.epoch = typeof message.epoch === "number" ? message.epoch : null;
    } else if (typeof message.seq === "number" && message.type === "event") {
      this.lastSeq = Math.max(this.lastSeq ?? 0, message.seq);
    }
    if (message.id !== undefined && message.id !== null && this.pending.has(message.id)) {
      this.settle(message.id, message);
      if (message.type === "error") return; // refused: shown by the request's caller, not a second time here
    } else if (message.id !== undefined && message.id !== null && this.expired.has(message.id)) {
      // the reply to a request answered `timeout` already: its caller said "no answer" and gave the controls
      // back.  A refusal now would be a second, stray message; any other reply (an undo's snapshot, an ack, a
      // hint) goes to the listeners as every server message does: its view, if any, is the table as it is
      this.expired.delete(message.id);
      if (message.type === "error") return;
    }
    this.dispatchEvent(new CustomEvent("message", { detail: message }));
  }

  /** Answer the pending request *id* with *reply* (the server's, or the socket's own error) and stop its timer. */
  settle(id, reply) {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    entry.resolve(reply);
  }

  /** The connection is gone: every pending request is answered `network`; no late reply can come on another. */
  failPending() {
    for (const id of [...this.pending.keys()]) {
      this.settle(id, { type: "error", id, code: "network", message: "the connection was lost" });
    }
    this.expired.clear();
  }

  /**
   * Call *then* after *ms* milliseconds (0: never) unless the watch is set again or stopped first; only while *ws*
   * is still the connection.  One watch at a time: the welcome's, then the quiet one's.
   */
  watch(ws, ms, then) {
    clearTimeout(this.watchdog);
    this.watchdog = null;
    if (!(Number.isFinite(ms) && ms > 0)) return;
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      if (ws === this.ws && !this.closedByUs) then();
    }, ms);
  }

  /** A frame came on the open connection *ws*: ping the server if nothing more comes for `quietTimeout` ms, and
   * take the connection for dead if nothing comes for `pingTimeout` ms after that. */
  watchQuiet(ws) {
    this.watch(ws, this.quietTimeout, () => {
      this.send({ type: "ping", id: null });
      this.watch(ws, this.pingTimeout, () => this.lost(ws));
    });
  }

  /** *ws* brought no welcome, or no frame, in time: give it up (its close event, whenever the browser gets to it,
   * is not ours any more) and connect again, as after a network blip. */
  lost(ws) {
    this.ws = null;
    ws.close();
    this.reconnect();
  }

  onClose(ws) {
    if (ws !== this.ws) return;
    this.reconnect();
  }

  /** The connection is gone: answer what waited for it, and connect again after a backoff (unless we closed it). */
  reconnect() {
    clearTimeout(this.watchdog);
    this.failPending();
    if (this.closedByUs) {
      this.setState("closed");
      return;
    }
    this.setState("reconnecting");
    const delay = Math.min(5000, 300 * 2 ** this.attempt);
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** The server answered our hello "not now" (*code*): drop this connection and say hello again after a backoff. */
  retryHello(code) {
    const delay = helloRetryDelay(this.helloRetries);
    this.helloRetries += 1;
    const ws = this.ws;
    this.ws = null; // its close event is not a network blip: no reconnect of onClose's besides ours
    clearTimeout(this.watchdog);
    ws?.close();
    this.failPending();
    clearTimeout(this.timer);
    this.setState("waiting");
    this.dispatchEvent(new CustomEvent("retry", { detail: { code, seconds: Math.max(1, Math.round(delay / 1000)) } }));
    this.timer = setTimeout(() => {
      if (!this.closedByUs) this.connect();
    }, delay);
  }

  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.dispatchEvent(new CustomEvent("state", { detail: state }));
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /**
   * Send *message* with a fresh id and resolve with the reply that carries it (ack, error, hint…), never reject.
   * The socket answers some itself, as errors: `network` when the message could not be sent or the connection
   * dropped before the reply, `timeout` when no reply came within *timeout* ms (default: the socket's
   * `requestTimeout`, REQUEST_TIMEOUT_MS; 0: wait for ever) -- a reply that comes later is not shown as an error.
   */
  request(message, { timeout = this.requestTimeout } = {}) {
    const id = `r${this.nextId++}`;
    return new Promise((resolve) => {
      const entry = { resolve, timer: null };
      this.pending.set(id, entry);
      if (!this.send({ ...message, id })) {
        this.settle(id, { type: "error", id, code: "network", message: "not connected" });
        return;
      }
      if (Number.isFinite(timeout) && timeout > 0) {
        entry.timer = setTimeout(() => {
          if (this.pending.get(id) !== entry) return;
          this.expired.add(id);
          // a dropped frame's id is never answered: keep the newest few only (a Set iterates oldest first)
          if (this.expired.size > 64) this.expired.delete(this.expired.values().next().value);
          this.settle(id, { type: "error", id, code: "timeout",
            message: noAnswerMessage(timeout) });
        }, timeout);
      }
    });
  }

  close() {
    this.closedByUs = true;
    clearTimeout(this.timer);
    clearTimeout(this.watchdog);
    this.ws?.close();
  }

  /** Drop the connection as a network blip would (tests and the debug hook use it); it reconnects by itself. */
  simulateDrop() {
    this.ws?.close();
  }
}
