// Load-generating child process for the HTTP systems (Capstan and the floor). It runs one job at a time
// on request of the orchestrator: autocannon for plain request streams, its own keep-alive client for
// update chains, lists and the paced watch writer, and node:http2 for the HTTP/2 figures.
import autocannon from 'autocannon';
import { connect as h2connect, type ClientHttp2Session } from 'node:http2';
import { serveJobs } from './protocol.ts';
import { requestSource } from './requests.ts';
import { H1Connection } from './h1-client.ts';
import { configMapPath, stampPatchBody } from '../lib/configmap.ts';
import { MsHistogram } from '../lib/stats.ts';
import type { Target } from '../lib/tls.ts';
import type {
  AutocannonJob, AmountJob, AmountResult, PutChainJob, H2Job, ListJob, ListResult, PacedWriterJob, PacedWriterResult,
  RateRun, RequestSpec,
} from './jobs.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tlsOptions(target: Target): Record<string, unknown> {
  return { ca: target.ca, cert: target.cert, key: target.key, rejectUnauthorized: false };
}

function autocannonOptions(target: Target, connections: number, spec: RequestSpec) {
  const next = requestSource(spec);
  return {
    url: target.url,
    connections,
    sampleInt: 100,
    timeout: 30,
    servername: 'localhost',
    tlsOptions: tlsOptions(target),
    requests: [{ setupRequest: () => next() }],
  };
}

function statuses(stats: Record<string, { count: number }>): Record<string, number> {
  return Object.fromEntries(Object.entries(stats).map(([code, v]) => [code, v.count]));
}

async function runAutocannon(job: AutocannonJob): Promise<RateRun[]> {
  if (job.shape.warmupS > 0) await autocannon({ ...autocannonOptions(job.target, job.connections, job.request), duration: job.shape.warmupS });
  const runs: RateRun[] = [];
  for (let i = 0; i < job.shape.runs; i++) {
    const r = await autocannon({ ...autocannonOptions(job.target, job.connections, job.request), duration: job.shape.durationS });
    runs.push({
      rate: r['2xx'] / r.duration, ok: r['2xx'], failed: r.non2xx + r.errors + r.timeouts, seconds: r.duration,
      p50Ms: r.latency.p50, p99Ms: r.latency.p99, statuses: statuses(r.statusCodeStats),
    });
  }
  return runs;
}

async function runAmount(job: AmountJob): Promise<AmountResult> {
  const started = performance.now();
  const r = await autocannon({ ...autocannonOptions(job.target, job.connections, job.request), amount: job.amount });
  return { ok: r['2xx'], failed: r.non2xx + r.errors + r.timeouts, seconds: (performance.now() - started) / 1000, statuses: statuses(r.statusCodeStats) };
}

/** Runs `loops` concurrent async loops until the deadline, collecting latencies and outcomes. */
async function timedLoops(loops: Array<(deadline: number, record: (status: number, ms: number) => void) => Promise<void>>, seconds: number): Promise<RateRun> {
  const hist = new MsHistogram();
  const fine: number[] = [];
  const codes: Record<string, number> = {};
  let ok = 0;
  let failed = 0;
  const record = (status: number, ms: number) => {
    codes[status] = (codes[status] ?? 0) + 1;
    if (status >= 200 && status < 300) ok++; else failed++;
    hist.record(ms);
    if (fine.length < 200_000) fine.push(ms);
  };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(loops.map((loop) => loop(deadline, record)));
  const elapsed = (performance.now() - started) / 1000;
  fine.sort((a, b) => a - b);
  const pick = (p: number) => (fine.length ? fine[Math.min(fine.length - 1, Math.ceil(p * fine.length) - 1)] : 0);
  return { rate: ok / elapsed, ok, failed, seconds: elapsed, p50Ms: pick(0.5), p99Ms: pick(0.99), statuses: codes };
}

async function runPutChain(job: PutChainJob): Promise<RateRun[]> {
  const conns = Array.from({ length: job.connections }, () => new H1Connection(job.target));
  const objects: Array<Record<string, any>> = [];
  const nameOf = (i: number) => `${job.namePrefix}${i}`;
  const fetch = async (i: number) => {
    const r = await conns[i].request('GET', configMapPath(job.namespace, nameOf(i)));
    if (r.status !== 200) throw new Error(`put-chain: GET ${nameOf(i)} answered ${r.status}: ${r.body.toString().slice(0, 300)}`);
    objects[i] = JSON.parse(r.body.toString('utf8'));
  };
  await Promise.all(conns.map((_, i) => fetch(i)));
  let counter = 0;
  const loop = (i: number) => async (deadline: number, record: (status: number, ms: number) => void) => {
    const path = configMapPath(job.namespace, nameOf(i));
    while (performance.now() < deadline) {
      const obj = objects[i];
      obj.data = { ...obj.data, key0: `updated-${counter++}` };
      const t0 = performance.now();
      const r = await conns[i].request('PUT', path, { 'content-type': 'application/json' }, JSON.stringify(obj));
      record(r.status, performance.now() - t0);
      if (r.status === 200) objects[i] = JSON.parse(r.body.toString('utf8'));
      else if (r.status === 409) await fetch(i);
      else throw new Error(`put-chain: PUT answered ${r.status}: ${r.body.toString().slice(0, 300)}`);
    }
  };
  try {
    if (job.shape.warmupS > 0) await timedLoops(conns.map((_, i) => loop(i)), job.shape.warmupS);
    const runs: RateRun[] = [];
    for (let r = 0; r < job.shape.runs; r++) runs.push(await timedLoops(conns.map((_, i) => loop(i)), job.shape.durationS));
    return runs;
  } finally {
    for (const c of conns) c.close();
  }
}

function h2Session(target: Target): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = h2connect(target.url, { ...tlsOptions(target), servername: 'localhost' } as any);
    session.once('connect', () => resolve(session));
    session.once('error', reject);
  });
}

function h2Request(session: ClientHttp2Session, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': method, ':path': path, ...headers });
    let status = 0;
    const parts: Buffer[] = [];
    stream.on('response', (h) => { status = Number(h[':status']); });
    stream.on('data', (d: Buffer) => parts.push(d));
    stream.on('end', () => resolve({ status, body: parts.length === 1 ? parts[0] : Buffer.concat(parts) }));
    stream.on('error', reject);
    // A server that never answers must not hang the benchmark: give up after 30 s, as autocannon does.
    stream.setTimeout(30_000, () => { stream.close(); reject(new Error(`${method} ${path}: no answer in 30 s`)); });
    stream.end(body);
  });
}

async function runH2(job: H2Job): Promise<RateRun[]> {
  const sessions = await Promise.all(Array.from({ length: job.sessions }, () => h2Session(job.target)));
  const next = requestSource(job.request);
  const loops = sessions.flatMap((s) => Array.from({ length: job.streamsPerSession }, () => async (deadline: number, record: (status: number, ms: number) => void) => {
    while (performance.now() < deadline) {
      const req = next();
      const t0 = performance.now();
      const r = await h2Request(s, req.method, req.path, req.headers, req.body);
      record(r.status, performance.now() - t0);
    }
  }));
  try {
    if (job.shape.warmupS > 0) await timedLoops(loops, job.shape.warmupS);
    const runs: RateRun[] = [];
    for (let r = 0; r < job.shape.runs; r++) runs.push(await timedLoops(loops, job.shape.durationS));
    return runs;
  } finally {
    for (const s of sessions) s.close();
  }
}

const CONTINUE = /"continue":"([^"]*)"/;

/** Sequential lists, timed from the request to the last byte (the paged form follows continue tokens). */
async function runList(job: ListJob): Promise<ListResult> {
  const conn = new H1Connection(job.target);
  const sep = job.path.includes('?') ? '&' : '?';
  const once = async (countItems: boolean) => {
    let items = 0;
    let bytes = 0;
    let pages = 0;
    let token: string | undefined;
    const t0 = performance.now();
    do {
      const path = job.pageLimit ? `${job.path}${sep}limit=${job.pageLimit}${token ? `&continue=${encodeURIComponent(token)}` : ''}` : job.path;
      const r = await conn.request('GET', path);
      if (r.status !== 200) throw new Error(`list ${path} answered ${r.status}: ${r.body.toString().slice(0, 300)}`);
      pages++;
      bytes += r.body.length;
      token = job.pageLimit ? CONTINUE.exec(r.body.subarray(0, 4096).toString('utf8'))?.[1] : undefined;
      if (token === '') token = undefined;
      if (countItems) {
        const listed: { metadata?: { name?: string } }[] = JSON.parse(r.body.toString('utf8')).items ?? [];
        items += job.namePrefix ? listed.filter((i) => i.metadata?.name?.startsWith(job.namePrefix!)).length : listed.length;
      }
    } while (token);
    return { ms: performance.now() - t0, items, bytes, pages };
  };
  try {
    const first = await once(true); // untimed: counts the items, warms the connection and the server
    for (let i = 1; i < job.warmups; i++) await once(false);
    const ms: number[] = [];
    for (let i = 0; i < job.runs; i++) ms.push((await once(false)).ms);
    return { ms, items: first.items, bytes: first.bytes, pages: first.pages };
  } finally {
    conn.close();
  }
}

/** Merge-patches a stamp annotation at a fixed rate, spread over a pool of keep-alive connections. */
async function runPacedWriter(job: PacedWriterJob): Promise<PacedWriterResult> {
  const conns = Array.from({ length: job.connections }, () => new H1Connection(job.target));
  const free = [...conns];
  const codes: Record<string, number> = {};
  let sent = 0;
  let ok = 0;
  let failed = 0;
  let inFlight = 0;
  const startedAt = Date.now();
  const t0 = performance.now();
  const end = t0 + job.durationS * 1000;
  const send = (conn: H1Connection) => {
    const name = job.names[sent % job.names.length];
    sent++;
    inFlight++;
    conn.request('PATCH', configMapPath(job.namespace, name), { 'content-type': 'application/merge-patch+json' }, stampPatchBody(Date.now()))
      .then((r) => { codes[r.status] = (codes[r.status] ?? 0) + 1; if (r.status === 200) ok++; else failed++; })
      .catch(() => { failed++; })
      .finally(() => { inFlight--; free.push(conn); });
  };
  while (performance.now() < end) {
    const due = Math.floor(((performance.now() - t0) / 1000) * job.ratePerS);
    while (sent < due && free.length > 0) send(free.pop()!);
    await sleep(1);
  }
  const endedAt = Date.now();
  while (inFlight > 0) await sleep(2);
  for (const c of conns) c.close();
  return { sent, ok, failed, startedAt, endedAt, statuses: codes };
}

serveJobs({
  'autocannon': runAutocannon,
  'autocannon-amount': runAmount,
  'put-chain': runPutChain,
  'h2': runH2,
  'list': runList,
  'paced-writer': runPacedWriter,
});
