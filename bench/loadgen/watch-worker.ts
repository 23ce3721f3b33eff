// Watcher child process: holds many watch streams open over a few HTTP/2 connections, counts the events
// that arrive (one JSON line each) and the delivery latency of each (receive time minus the writer's
// "bench/stamp" annotation). Kept cheap on purpose: no JSON parsing, only byte searches.
import { connect as h2connect, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import { serveJobs } from './protocol.ts';
import { MsHistogram } from '../lib/stats.ts';
import type { Target } from '../lib/tls.ts';

export interface WatchOpenJob { kind: 'watch-open'; target: Target; path: string; count: number; sessions: number }
export interface WatchOpenResult { open: number; failed: number; statuses: Record<string, number> }
export interface WatchSnapshot { events: number; at: number }
export interface WatchCollect { events: number; stamped: number; latency: Array<[number, number]>; closed: number }

const NEEDLE = Buffer.from('"bench/stamp":"');
const NEWLINE = 10;
const QUOTE = 34;

const sessions: ClientHttp2Session[] = [];
const streams: ClientHttp2Stream[] = [];
let events = 0;
let stamped = 0;
let closed = 0;
let hist = new MsHistogram();

function onData(chunk: Buffer): void {
  const now = Date.now();
  let pos = 0;
  while ((pos = chunk.indexOf(NEWLINE, pos)) !== -1) { events++; pos++; }
  let s = 0;
  while ((s = chunk.indexOf(NEEDLE, s)) !== -1) {
    let i = s + NEEDLE.length;
    let stamp = 0;
    while (i < chunk.length && chunk[i] !== QUOTE) stamp = stamp * 10 + (chunk[i++] - 48);
    if (i < chunk.length) { hist.record(now - stamp); stamped++; }
    s = i;
  }
}

function openSession(target: Target): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = h2connect(target.url, {
      ca: target.ca, cert: target.cert, key: target.key, rejectUnauthorized: false, servername: 'localhost',
      settings: { initialWindowSize: 4 * 1024 * 1024 },
    } as any);
    session.once('connect', () => { session.setLocalWindowSize(64 * 1024 * 1024); resolve(session); });
    session.once('error', reject);
    session.on('error', () => { /* counted through the streams that close */ });
  });
}

async function open(job: WatchOpenJob): Promise<WatchOpenResult> {
  for (let i = 0; i < job.sessions; i++) sessions.push(await openSession(job.target));
  const statuses: Record<string, number> = {};
  let openCount = 0;
  let failed = 0;
  await Promise.all(Array.from({ length: job.count }, (_, i) => new Promise<void>((resolve) => {
    const stream = sessions[i % sessions.length].request({ ':method': 'GET', ':path': job.path, accept: 'application/json' });
    streams.push(stream);
    let answered = false;
    stream.on('response', (h) => {
      const status = Number(h[':status']);
      statuses[status] = (statuses[status] ?? 0) + 1;
      answered = true;
      if (status === 200) openCount++; else failed++;
      resolve();
    });
    stream.on('data', onData);
    stream.on('close', () => { closed++; if (!answered) { failed++; resolve(); } });
    stream.on('error', () => { /* counted on close */ });
  })));
  return { open: openCount, failed, statuses };
}

serveJobs({
  'watch-open': open,
  'watch-mark': async () => { events = 0; stamped = 0; hist = new MsHistogram(); return { at: Date.now() }; },
  'watch-snapshot': async (): Promise<WatchSnapshot> => ({ events, at: Date.now() }),
  'watch-collect': async (): Promise<WatchCollect> => ({ events, stamped, latency: hist.toSparse(), closed }),
  'watch-close': async () => {
    for (const s of streams) s.close();
    for (const s of sessions) s.close();
    return {};
  },
});
