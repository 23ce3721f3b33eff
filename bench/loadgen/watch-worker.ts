// Watcher child process: holds many watch streams open over a few HTTP/2 connections and counts the
// events that arrive and their delivery latency (see watch-counter.ts).
import { connect as h2connect, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import { serveJobs } from './protocol.ts';
import { WatchCounter } from './watch-counter.ts';
import type { Target } from '../lib/tls.ts';

export interface WatchOpenJob { kind: 'watch-open'; target: Target; path: string; count: number; sessions: number }
export interface WatchOpenResult { open: number; failed: number; statuses: Record<string, number> }
export interface WatchSnapshot { events: number; at: number }
export interface WatchCollect { events: number; otherEvents: number; latency: Array<[number, number]>; closed: number }

const sessions: ClientHttp2Session[] = [];
const streams: ClientHttp2Stream[] = [];
const counter = new WatchCounter();
let closed = 0;

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
    stream.on('data', counter.reader());
    stream.on('close', () => { closed++; if (!answered) { failed++; resolve(); } });
    stream.on('error', () => { /* counted on close */ });
  })));
  return { open: openCount, failed, statuses };
}

serveJobs({
  'watch-open': open,
  'watch-mark': async () => ({ at: counter.mark() }),
  'watch-snapshot': async (): Promise<WatchSnapshot> => ({ events: counter.events, at: Date.now() }),
  'watch-collect': async (): Promise<WatchCollect> => ({ events: counter.events, otherEvents: counter.otherEvents, latency: counter.latency.toSparse(), closed }),
  'watch-close': async () => {
    for (const s of streams) s.close();
    for (const s of sessions) s.close();
    return {};
  },
});
