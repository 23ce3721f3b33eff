// Helpers for the write-path end-to-end tests: raw requests with an exact body, Status assertions, and
// watches that prove a request wrote nothing.
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import type { TestServer } from './capstan.ts';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json(): any;
}

/**
 * One HTTPS/1.1 request with the admin certificate. A body is sent with its Content-Length (a DELETE body
 * would otherwise not be framed at all) and `content-type: application/json` unless told otherwise.
 */
export function call(s: TestServer, method: string, path: string, body?: string | Buffer | object, headers: Record<string, string> = {}): Promise<RawResponse> {
  const data = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? Buffer.from(body) : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const url = new URL(path, s.url);
    const req = httpsRequest({
      host: url.hostname, port: url.port, path: url.pathname + url.search, method,
      ca: s.credentials.ca, cert: s.credentials.cert, key: s.credentials.key, agent: false,
      headers: { ...(data ? { 'content-type': 'application/json', 'content-length': String(data.length) } : {}), ...headers },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body: text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

/** A POST whose body is sent in chunks, without a Content-Length: the size limit must hold while reading. */
export function callChunked(s: TestServer, path: string, chunks: Iterable<string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, s.url);
    const req = httpsRequest({
      host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'POST',
      ca: s.credentials.ca, cert: s.credentials.cert, key: s.credentials.key, agent: false,
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body: text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    const it = chunks[Symbol.iterator]();
    const pump = () => {
      for (let n = it.next(); !n.done; n = it.next()) if (!req.write(n.value)) { req.once('drain', pump); return; }
      req.end();
    };
    pump();
  });
}

/** Asserts a failure Status: HTTP code, reason and (exact text, or pattern) message. Returns the Status. */
export function expectStatus(r: RawResponse, code: number, reason: string, message?: string | RegExp): any {
  assert.equal(r.status, code, r.body);
  const s = r.json();
  assert.equal(s.kind, 'Status');
  assert.equal(s.apiVersion, 'v1');
  assert.equal(s.status, 'Failure');
  assert.equal(s.code, code);
  assert.equal(s.reason, reason);
  if (typeof message === 'string') assert.equal(s.message, message);
  else if (message) assert.match(s.message, message);
  return s;
}

/** Warning header texts (`299 - "text"` unwrapped), in order. */
export function warnings(r: RawResponse): string[] {
  const h = r.headers.warning;
  if (!h) return [];
  const values = Array.isArray(h) ? h : [h];
  const out: string[] = [];
  for (const v of values) {
    // Node joins repeated headers with ", "; each warning is `299 - "<JSON-quoted text>"`.
    for (const m of v.matchAll(/299 - ("(?:[^"\\]|\\.)*")/g)) out.push(JSON.parse(m[1]));
  }
  return out;
}

export interface WatchEvent {
  type: string;
  object: any;
}

/** An open watch stream: events in order. */
export interface OpenWatch {
  next(): Promise<WatchEvent>;
  close(): void;
}

export function openWatch(s: TestServer, path: string): Promise<OpenWatch> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, s.url);
    const queue: WatchEvent[] = [];
    const waiting: ((e: WatchEvent) => void)[] = [];
    let buffer = '';
    const req = httpsRequest({
      host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'GET',
      ca: s.credentials.ca, cert: s.credentials.cert, key: s.credentials.key, agent: false,
    }, (res) => {
      if (res.statusCode !== 200) { reject(new Error(`watch answered ${res.statusCode}`)); return; }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let nl;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (!line) continue;
          const event = JSON.parse(line) as WatchEvent;
          const w = waiting.shift();
          if (w) w(event); else queue.push(event);
        }
      });
      resolve({
        next: () => (queue.length ? Promise.resolve(queue.shift()!) : new Promise((r) => waiting.push(r))),
        close: () => req.destroy(),
      });
    });
    req.on('error', (err) => { if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err); });
    req.end();
  });
}

let sentinelCount = 0;

/**
 * Proves that `action` writes nothing to a collection: a watch from the collection's resourceVersion,
 * then `action`, then a marker object created in the same collection; the first event must be the
 * marker's ADDED. `collection` is the collection path, `marker(name)` the body of the marker object.
 */
export async function assertNothingWritten<T>(s: TestServer, collection: string, marker: (name: string) => object, action: () => Promise<T>): Promise<T> {
  const list = await call(s, 'GET', collection);
  assert.equal(list.status, 200, list.body);
  const rv = list.json().metadata.resourceVersion;
  const watch = await openWatch(s, `${collection}?watch=1&resourceVersion=${rv}`);
  try {
    const result = await action();
    const name = `marker-${process.pid}-${++sentinelCount}`;
    const created = await call(s, 'POST', collection, marker(name));
    assert.equal(created.status, 201, created.body);
    const first = await watch.next();
    assert.equal(first.type, 'ADDED', `unexpected ${first.type} of ${first.object?.metadata?.name}`);
    assert.equal(first.object.metadata.name, name, `unexpected event for ${first.object.metadata.name}`);
    await call(s, 'DELETE', `${collection}/${name}`);
    return result;
  } finally {
    watch.close();
  }
}

/** A configmap marker for assertNothingWritten. */
export const configMapMarker = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
