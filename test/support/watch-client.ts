// Raw watch streams against a test server, over HTTP/1.1 or HTTP/2: the events as they arrive, one JSON
// document per line, and how the stream ended.
import { request as httpsRequest } from 'node:https';
import { connect, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import type { IncomingMessage } from 'node:http';
import type { TestServer } from './capstan.ts';

export interface WatchEvent {
  type: string;
  object: any;
}

export interface WatchStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Every event received so far. */
  events: WatchEvent[];
  /** The next event not yet returned by next(); rejects if the stream ends or nothing comes in time. */
  next(timeoutMs?: number): Promise<WatchEvent>;
  /** The next `n` events. */
  take(n: number, timeoutMs?: number): Promise<WatchEvent[]>;
  /** Resolves when the stream is over: 'end' when the server ended it cleanly, 'aborted' otherwise. */
  ended: Promise<'end' | 'aborted'>;
  /** The body received so far (for non-200 answers: the Status; for streams, the first 64 KiB or so). */
  text(): string;
  close(): void;
  /** Stops reading without closing: the server's buffers fill up. */
  pause(): void;
  /** Reads again after pause(). */
  resume(): void;
}

function makeStream(status: number, headers: WatchStream['headers'], onClose: () => void, onPause: () => void, onResume: () => void) {
  const events: WatchEvent[] = [];
  const pending: string[] = [];
  let all = '';
  let cursor = 0;
  let over: 'end' | 'aborted' | undefined;
  const waiters: (() => void)[] = [];
  let resolveEnded!: (how: 'end' | 'aborted') => void;
  const ended = new Promise<'end' | 'aborted'>((r) => { resolveEnded = r; });
  const wake = () => { for (const w of waiters.splice(0)) w(); };
  const stream: WatchStream = {
    status,
    headers,
    events,
    ended,
    text: () => all,
    close: onClose,
    pause: onPause,
    resume: onResume,
    async next(timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (cursor >= events.length) {
        if (over) throw new Error(`the stream ended (${over}) after ${events.length} events`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no event within ${timeoutMs} ms (after ${events.length} events)`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => { clearTimeout(t); resolve(); });
        });
      }
      return events[cursor++];
    },
    async take(n, timeoutMs = 5000) {
      const out: WatchEvent[] = [];
      for (let i = 0; i < n; i++) out.push(await stream.next(timeoutMs));
      return out;
    },
  };
  return {
    stream,
    data(chunk: Buffer | string) {
      const s = chunk.toString();
      if (status !== 200 || all.length < 65536) all += s;
      if (status !== 200) return;
      // Only the new chunk is searched for line ends: events can be megabytes long.
      let nl = s.indexOf('\n');
      if (nl < 0) { pending.push(s); return; }
      let rest = s;
      while (nl >= 0) {
        pending.push(rest.slice(0, nl));
        const line = pending.join('');
        pending.length = 0;
        if (line.trim()) events.push(JSON.parse(line));
        rest = rest.slice(nl + 1);
        nl = rest.indexOf('\n');
      }
      if (rest) pending.push(rest);
      wake();
    },
    end(how: 'end' | 'aborted') {
      if (over) return;
      over = how;
      resolveEnded(how);
      wake();
    },
  };
}

/** A watch (or any GET) over HTTPS/1.1 with the admin certificate; resolves once the headers are in. */
export function watchHttp1(s: TestServer, path: string, headers: Record<string, string> = {}): Promise<WatchStream> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, s.url);
    let res: IncomingMessage | undefined;
    const req = httpsRequest({
      host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'GET',
      ca: s.credentials.ca, cert: s.credentials.cert, key: s.credentials.key, headers, agent: false,
    }, (r) => {
      res = r;
      const h = makeStream(r.statusCode!, r.headers, () => { req.destroy(); }, () => { r.pause(); }, () => { r.resume(); });
      r.on('data', h.data);
      r.on('end', () => h.end(r.complete ? 'end' : 'aborted'));
      r.on('aborted', () => h.end('aborted'));
      r.on('error', () => h.end('aborted'));
      r.on('close', () => h.end(r.complete ? 'end' : 'aborted'));
      resolve(h.stream);
    });
    req.on('error', (err) => { if (!res) reject(err); });
    req.end();
  });
}

/** A watch (or any GET) as one stream of an HTTP/2 session; resolves once the headers are in. */
export function watchHttp2(session: ClientHttp2Session, path: string, headers: Record<string, string> = {}): Promise<WatchStream> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ':method': 'GET', ':path': path, ...headers });
    let responded = false;
    req.on('response', (h: IncomingHttpHeaders) => {
      responded = true;
      const status = Number(h[':status']);
      const { ':status': _s, ...rest } = h;
      const handle = makeStream(status, rest as WatchStream['headers'], () => { req.close(); }, () => { req.pause(); }, () => { req.resume(); });
      req.on('data', handle.data);
      req.on('end', () => handle.end(req.rstCode && req.rstCode !== 0 ? 'aborted' : 'end'));
      req.on('close', () => handle.end(req.rstCode && req.rstCode !== 0 ? 'aborted' : 'end'));
      req.on('error', () => handle.end('aborted'));
      resolve(handle.stream);
    });
    req.on('error', (err) => { if (!responded) reject(err); });
    req.end();
  });
}

/**
 * An HTTP/2 connection with the admin certificate and the flow-control windows Go clients (kubectl, client-go)
 * use, 4 MiB per stream and 1 GiB per connection; Node's default 64 KiB windows cap a stream's throughput.
 */
export function fastHttp2Session(s: Pick<TestServer, 'url' | 'credentials'>): ClientHttp2Session {
  const session = connect(s.url, { ...s.credentials, settings: { initialWindowSize: 4 << 20 } });
  session.on('connect', () => session.setLocalWindowSize(1 << 30));
  return session;
}

export { until } from './until.ts';
