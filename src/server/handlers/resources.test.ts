// A write that loses a race inside the server (an update without resourceVersion, a patch, an apply) is
// tried again on the fresh object; each attempt must start from the request as sent, never from the object
// an earlier attempt built and then changed (defaults, managedFields, mutating admission).
import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SqliteStorage } from '../../storage/sqlite.ts';
import { ResourceStore } from '../../registry/store.ts';
import { configMapKind } from '../../apis/core/configmap.ts';
import type { ApiObject } from '../../apis/meta/v1.ts';
import type { RequestContext } from '../../apis/kind.ts';
import { AdmissionChain, type AdmissionPlugin } from '../../admission/chain.ts';
import { ApiSurface } from '../apis.ts';
import { parseRequestInfo } from '../requestinfo.ts';
import { sendError } from '../respond.ts';
import { handleResource, type ResourceHandlerDeps } from './resources.ts';

const admin = { username: 'admin', groups: ['system:masters'] };
const ctx = (): RequestContext => ({ user: admin, version: 'v1', subresource: '', dryRun: false, warnings: [] });
const PATH = '/api/v1/namespaces/default/configmaps';
const STAMP = 'svc.io/stamp';

describe('a write retried after a concurrent write starts again from the request', () => {
  const storage = SqliteStorage.open(':memory:');
  const store = new ResourceStore(configMapKind, storage);
  const surface = new ApiSurface();
  surface.add({ def: configMapKind, version: configMapKind.versions[0], store });

  // Mutating admission that appends to a list in place. On its first call for an update it also writes the
  // object itself, so that the request's compare-and-swap fails and the store tries it again.
  let admitted = 0;
  let concurrent: ((name: string) => Promise<void>) | undefined;
  const stamp: AdmissionPlugin = {
    name: 'Stamp',
    admit: async (attrs) => {
      if (attrs.operation !== 'UPDATE' || !attrs.object) return;
      admitted++;
      const race = concurrent;
      concurrent = undefined;
      if (race) await race(attrs.name);
      (attrs.object.metadata.finalizers ??= []).push(STAMP);
    },
  };
  const deps: ResourceHandlerDeps = { surface, storage, admission: new AdmissionChain([stamp]), watchRegistry: new Set() };

  let server: http.Server;
  let base = '';
  before(async () => {
    await store.cache.start();
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const info = parseRequestInfo(req.method ?? 'GET', url.pathname, url.searchParams);
      handleResource(deps, req, res, info, url.searchParams, admin).catch((err) => sendError(res, err));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    store.cache.stop();
    await storage.close();
  });
  beforeEach(() => { admitted = 0; });

  const request = async (method: string, path: string, body?: unknown, contentType = 'application/json') => {
    const r = await fetch(base + path, { method, headers: { 'content-type': contentType }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: r.status, json: await r.json() as ApiObject };
  };
  const create = async (name: string, extra: Partial<ApiObject['metadata']> = {}) => {
    const r = await request('POST', PATH, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data: { base: 'x' } });
    assert.equal(r.status, 201, JSON.stringify(r.json));
    return r.json;
  };
  /** The next update's first admission writes `data.raced` to the object, as another client would. */
  const raceOnce = () => {
    concurrent = async (name) => {
      await store.update('default', (cur) => ({ ...cur!, data: { ...(cur!.data as object), raced: 'yes' } }), { ctx: ctx(), dryRun: false, subresource: '', allowCreate: false, name });
    };
  };
  const stored = async (name: string) => (await store.readNow('default', name))!.object as ApiObject;

  it('PUT without resourceVersion: the retry decodes the body again', async () => {
    await create('put');
    raceOnce();
    const r = await request('PUT', `${PATH}/put`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'put' }, data: { mine: 'v' } });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.equal(admitted, 2, 'the first attempt lost the race and was tried again');
    assert.deepEqual(r.json.metadata.finalizers, [STAMP]);
    assert.deepEqual(r.json.data, { mine: 'v' });
    const managed = r.json.metadata.managedFields as { operation: string }[];
    assert.deepEqual(managed.map((m) => m.operation), ['Update']);
    assert.deepEqual((await stored('put')).metadata.finalizers, [STAMP]);
  });

  it('PUT with the resourceVersion that lost the race is a 409, and writes nothing', async () => {
    const created = await create('pinned');
    raceOnce();
    const r = await request('PUT', `${PATH}/pinned`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pinned', resourceVersion: created.metadata.resourceVersion }, data: { mine: 'v' } });
    assert.equal(r.status, 409, JSON.stringify(r.json));
    assert.equal(r.json.message, 'Operation cannot be fulfilled on configmaps "pinned": the object has been modified; please apply your changes to the latest version and try again');
    assert.equal((await stored('pinned')).metadata.finalizers, undefined);
  });

  it('merge patch: the retry applies the patch to the fresh object', async () => {
    await create('patch', { finalizers: ['svc.io/keep'] });
    raceOnce();
    const r = await request('PATCH', `${PATH}/patch`, { data: { mine: 'v' } }, 'application/merge-patch+json');
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.equal(admitted, 2);
    assert.deepEqual(r.json.metadata.finalizers, ['svc.io/keep', STAMP]);
    assert.deepEqual(r.json.data, { base: 'x', raced: 'yes', mine: 'v' });
  });

  it('a patch that admission changes leaves the cached object as it was', async () => {
    await create('dry', { finalizers: ['svc.io/keep'] });
    const r = await request('PATCH', `${PATH}/dry?dryRun=All`, { data: { mine: 'v' } }, 'application/merge-patch+json');
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.deepEqual(r.json.metadata.finalizers, ['svc.io/keep', STAMP]);
    const got = await request('GET', `${PATH}/dry`);
    assert.deepEqual(got.json.metadata.finalizers, ['svc.io/keep']);
    assert.deepEqual(got.json.data, { base: 'x' });
  });

  it('server-side apply: the retry merges the configuration as sent', async () => {
    await create('apply');
    raceOnce();
    const r = await request('PATCH', `${PATH}/apply?fieldManager=tester`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'apply' }, data: { mine: 'v' } }, 'application/apply-patch+yaml');
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.equal(admitted, 2);
    assert.deepEqual(r.json.metadata.finalizers, [STAMP]);
    assert.deepEqual(r.json.data, { base: 'x', raced: 'yes', mine: 'v' });
    const managers = (r.json.metadata.managedFields as { manager: string; operation: string }[]).map((m) => `${m.manager}/${m.operation}`);
    assert.equal(managers.filter((m) => m === 'tester/Apply').length, 1);
  });
});
