// End-to-end over raw HTTP: client mistakes never make a 500. Bodies with wrong types where objects,
// maps, lists and strings go, random JSON, and bytes that are not JSON, against every write verb of the
// foundation kinds; a seeded generator keeps failures reproducible.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { call } from './support/write-helpers.ts';

const NS = 'write-fuzz';

/** mulberry32: a small seeded generator. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_VALUES: unknown[] = ['x', '', 5, -1, 1.5, 1e300, true, false, null, [], [1, 'a'], {}, { a: { b: [] } }, [[[]]], '\u0000', 'é✓', 9007199254740993];

function randomJson(next: () => number, depth = 0): unknown {
  const r = next();
  if (depth > 3 || r < 0.35) return ODD_VALUES[Math.floor(next() * ODD_VALUES.length)];
  if (r < 0.65) return Array.from({ length: Math.floor(next() * 4) }, () => randomJson(next, depth + 1));
  const o: Record<string, unknown> = {};
  const keys = ['metadata', 'name', 'labels', 'data', 'spec', 'status', 'kind', 'apiVersion', 'type', 'x', 'finalizers'];
  for (let i = Math.floor(next() * 4); i > 0; i--) o[keys[Math.floor(next() * keys.length)]] = randomJson(next, depth + 1);
  return o;
}

/** What mutations put in place of a valid value: a sample of the odd values, one of each JSON type. */
const MUTANTS: unknown[] = ['x', 5, 1.5, true, null, [], [1, 'a'], {}, '\u0000'];

/** Every place of a valid object replaced, in turn, by each mutant. */
function mutations(base: Record<string, any>): unknown[] {
  const out: unknown[] = [];
  const paths: string[][] = [];
  const walk = (v: unknown, path: string[]) => {
    paths.push(path);
    if (v && typeof v === 'object' && !Array.isArray(v)) for (const [k, c] of Object.entries(v)) walk(c, [...path, k]);
    if (Array.isArray(v)) v.forEach((c, i) => walk(c, [...path, String(i)]));
  };
  walk(base, []);
  for (const path of paths) {
    if (!path.length) continue;
    for (const odd of MUTANTS) {
      const copy = structuredClone(base);
      let at: any = copy;
      for (const seg of path.slice(0, -1)) at = at[seg];
      at[path[path.length - 1]] = odd;
      out.push(copy);
    }
  }
  return out;
}

const KINDS = [
  { collection: `/api/v1/namespaces/${NS}/configmaps`, base: (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { a: 'b' }, annotations: { c: 'd' }, finalizers: ['example.com/f'], ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u' }] }, data: { k: 'v' }, binaryData: { b: 'AAE=' }, immutable: false }) },
  { collection: `/api/v1/namespaces/${NS}/secrets`, base: (name: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, type: 'Opaque', data: { k: 'dg==' }, stringData: { s: 't' } }) },
  { collection: '/api/v1/nodes', status: true, base: (name: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, spec: { podCIDR: '10.0.0.0/24', taints: [{ key: 'k', effect: 'NoSchedule' }] }, status: { capacity: { cpu: '1' }, conditions: [{ type: 'Ready', status: 'True' }] } }) },
  { collection: `/apis/coordination.svc.io/v1/namespaces/${NS}/leases`, base: (name: string) => ({ apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: 'h', leaseDurationSeconds: 5, renewTime: '2024-01-01T00:00:00.000000Z' } }) },
  { collection: `/api/v1/namespaces/${NS}/serviceaccounts`, base: (name: string) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name }, secrets: [{ name: 's' }], automountServiceAccountToken: true }) },
  { collection: '/api/v1/namespaces', status: true, base: (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, spec: { finalizers: ['kubernetes'] } }) },
];

describe('no 500 for client mistakes', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    assert.equal((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
  });
  after(async () => { await s.stop(); });

  const check = async (method: string, path: string, body: string | Buffer | undefined, headers: Record<string, string> = {}) => {
    const r = await call(s, method, path, body, headers);
    assert.ok(r.status < 500, `${method} ${path} ${String(body).slice(0, 300)} -> ${r.status} ${r.body.slice(0, 500)}`);
    if (r.status >= 400) {
      const st = r.json();
      assert.equal(st.kind, 'Status', r.body);
      assert.equal(st.code, r.status, r.body);
    }
    return r;
  };

  for (const kind of KINDS) {
    it(`wrong types everywhere in a ${kind.base('x').kind}, on create, update and patch`, async () => {
      const name = 'fuzz-target';
      const created = await check('POST', kind.collection, JSON.stringify(kind.base(name)));
      assert.equal(created.status, 201, created.body);
      for (const body of mutations(kind.base(name))) {
        const text = JSON.stringify(body);
        await check('POST', kind.collection, text);
        await check('PUT', `${kind.collection}/${name}`, text);
        await check('PATCH', `${kind.collection}/${name}`, text, { 'content-type': 'application/merge-patch+json' });
        if (kind.status) await check('PUT', `${kind.collection}/${name}/status`, text);
      }
    });
  }

  it('random JSON and non-JSON bodies on every verb', async () => {
    const next = rng(20241122);
    const cm = KINDS[0].collection;
    await check('POST', cm, JSON.stringify(KINDS[0].base('random-target')));
    const bodies: (string | Buffer)[] = ['', ' ', 'null', '{', '}', '[', '"', 'nul', 'tru', '{"a":}', '{"a" 1}', '{"metadata":{"name":"x"}}garbage', '\uFEFF{}',
      Buffer.from([0xff, 0xfe, 0x00, 0x7b]), Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]), '{"metadata":{"name":"x","labels":{"a":"b","a":"c"}}}',
      '['.repeat(5000) + ']'.repeat(5000), '{"a":'.repeat(3000) + '1' + '}'.repeat(3000)];
    for (let i = 0; i < 60; i++) bodies.push(JSON.stringify(randomJson(next)));
    for (const body of bodies) {
      await check('POST', cm, body);
      await check('PUT', `${cm}/random-target`, body);
      await check('PATCH', `${cm}/random-target`, body, { 'content-type': 'application/merge-patch+json' });
      await check('PATCH', `${cm}/random-target`, body, { 'content-type': 'application/json-patch+json' });
      await check('DELETE', `${cm}/absent-target`, body);
      await check('POST', cm, body, { 'content-type': 'application/yaml' });
    }
  });

  it('JSON patches with odd operations', async () => {
    const cm = KINDS[0].collection;
    await check('POST', cm, JSON.stringify(KINDS[0].base('ops-target')));
    const paths = ['', '/', '/metadata', '/metadata/name', '/data', '/data/k', '/data/-', '/metadata/finalizers/0', '/metadata/finalizers/-1', '/metadata/finalizers/x', '/a/b/c', '~', '/~2', 5, null];
    const ops = ['add', 'remove', 'replace', 'move', 'copy', 'test', 'nope', 5, null];
    for (const op of ops) {
      for (const path of paths) {
        for (const value of [undefined, null, 'v', { a: 1 }]) {
          const operation: Record<string, unknown> = { op, path, from: '/data/k' };
          if (value !== undefined) operation.value = value;
          const r = await check('PATCH', `${cm}/ops-target?dryRun=All`, JSON.stringify([operation]), { 'content-type': 'application/json-patch+json' });
          assert.ok([200, 400, 409, 422].includes(r.status), `${JSON.stringify(operation)} -> ${r.status} ${r.body.slice(0, 300)}`);
        }
      }
    }
  });

  it('the server still answers', async () => {
    assert.equal((await call(s, 'GET', '/readyz')).status, 200);
    assert.equal((await call(s, 'GET', KINDS[0].collection)).status, 200);
  });
});
