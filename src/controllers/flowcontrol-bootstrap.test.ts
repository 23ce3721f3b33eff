import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqliteStorage } from '../storage/sqlite.ts';
import { ResourceStore } from '../registry/store.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { flowSchemaKind } from '../apis/flowcontrol/flowschema.ts';
import { priorityLevelConfigurationKind } from '../apis/flowcontrol/prioritylevelconfiguration.ts';
import { GROUP } from '../apis/flowcontrol/common.ts';
import { AUTOUPDATE_ANNOTATION } from '../apis/flowcontrol/bootstrap.ts';
import { ensureFlowControlBootstrap } from './flowcontrol-bootstrap.ts';

const ctx = { user: { username: 'test', groups: ['system:masters'] }, version: 'v1', subresource: '', dryRun: false, warnings: [] };

const LEVELS = ['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low'];
const SCHEMAS = ['catch-all', 'endpoint-controller', 'exempt', 'global-default', 'kube-controller-manager', 'kube-scheduler', 'kube-system-service-accounts',
  'probes', 'service-accounts', 'system-leader-election', 'system-node-high', 'system-nodes', 'workload-leader-election'];

async function flowControlStores() {
  const storage = SqliteStorage.open(':memory:');
  const levels = new ResourceStore(priorityLevelConfigurationKind, storage);
  const schemas = new ResourceStore(flowSchemaKind, storage);
  await Promise.all([levels.cache.start(), schemas.cache.start()]);
  const lookup = (group: string, resource: string) =>
    group !== GROUP ? undefined : resource === 'prioritylevelconfigurations' ? levels : resource === 'flowschemas' ? schemas : undefined;
  /** Runs the ensurer, then lets the caches see what it wrote. */
  const ensure = async () => {
    await ensureFlowControlBootstrap(lookup);
    const revision = await storage.currentRevision();
    await Promise.all([levels.cache.waitFor(revision, 2000), schemas.cache.waitFor(revision, 2000)]);
  };
  return { storage, levels, schemas, ensure };
}

const get = (store: ResourceStore, name: string) => store.current('', name)?.object as ApiObject | undefined;
const names = (store: ResourceStore) => store.cache.list().map((c) => c.object.metadata?.name as string).sort();
const versions = (store: ResourceStore) => Object.fromEntries(store.cache.list().map((c) => [c.object.metadata?.name, c.object.metadata?.resourceVersion]));

async function edit(store: ResourceStore, name: string, change: (obj: ApiObject) => void): Promise<void> {
  await store.update('', (current) => { change(current!); return current!; }, { ctx, dryRun: false, subresource: '', allowCreate: false, name });
}

test('a fresh store gets every Kubernetes v1.32 priority level and flow schema, annotated for auto-update', async () => {
  const { storage, levels, schemas, ensure } = await flowControlStores();
  await ensure();
  assert.deepEqual(names(levels), LEVELS);
  assert.deepEqual(names(schemas), SCHEMAS);
  for (const store of [levels, schemas]) {
    for (const c of store.cache.list()) {
      assert.equal((c.object.metadata?.annotations as Record<string, string>)[AUTOUPDATE_ANNOTATION], 'true', `${c.object.metadata?.name}`);
      assert.equal(c.object.metadata?.generation, 1);
    }
  }

  assert.deepEqual(get(levels, 'exempt')!.spec, { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } });
  assert.deepEqual(get(levels, 'catch-all')!.spec, { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' }, lendablePercent: 0 } });
  assert.deepEqual(get(levels, 'workload-low')!.spec, {
    type: 'Limited',
    limited: { nominalConcurrencyShares: 100, limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } }, lendablePercent: 90 },
  });

  const probes = get(schemas, 'probes')!.spec as Record<string, unknown>;
  assert.deepEqual(probes, {
    priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 2,
    rules: [{
      subjects: [{ kind: 'Group', group: { name: 'system:unauthenticated' } }, { kind: 'Group', group: { name: 'system:authenticated' } }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
    }],
  });
  const nodeHigh = get(schemas, 'system-node-high')!.spec as { rules: { resourceRules: unknown[] }[]; distinguisherMethod: unknown };
  assert.deepEqual(nodeHigh.distinguisherMethod, { type: 'ByUser' });
  assert.deepEqual(nodeHigh.rules[0].resourceRules[1], { verbs: ['*'], apiGroups: ['coordination.svc.io'], resources: ['leases'], namespaces: ['*'] });
  const endpoints = get(schemas, 'endpoint-controller')!.spec as { matchingPrecedence: number; rules: { subjects: unknown[] }[] };
  assert.equal(endpoints.matchingPrecedence, 150);
  assert.deepEqual(endpoints.rules[0].subjects[2], { kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: 'endpointslicemirroring-controller' } });
  await storage.close();
});

test('a second run writes nothing', async () => {
  const { storage, levels, schemas, ensure } = await flowControlStores();
  await ensure();
  const before = [versions(levels), versions(schemas)];
  const revision = await storage.currentRevision();
  await ensure();
  assert.deepEqual([versions(levels), versions(schemas)], before);
  assert.equal(await storage.currentRevision(), revision);
  await storage.close();
});

test('a mandatory object is put back even when its annotation says false; the exempt level keeps its tuned shares', async () => {
  const { storage, levels, schemas, ensure } = await flowControlStores();
  await ensure();
  await edit(schemas, 'catch-all', (o) => {
    (o.spec as { matchingPrecedence: number }).matchingPrecedence = 5000;
    o.metadata.annotations = { [AUTOUPDATE_ANNOTATION]: 'false' };
  });
  await edit(levels, 'catch-all', (o) => { (o.spec as { limited: { nominalConcurrencyShares: number } }).limited.nominalConcurrencyShares = 50; });
  await edit(levels, 'exempt', (o) => { (o.spec as { exempt: { nominalConcurrencyShares: number } }).exempt.nominalConcurrencyShares = 10; });
  const exemptVersion = get(levels, 'exempt')!.metadata.resourceVersion;
  await ensure();

  const catchAll = get(schemas, 'catch-all')!;
  assert.equal((catchAll.spec as { matchingPrecedence: number }).matchingPrecedence, 10000);
  assert.equal((catchAll.metadata.annotations as Record<string, string>)[AUTOUPDATE_ANNOTATION], 'true');
  assert.equal((get(levels, 'catch-all')!.spec as { limited: { nominalConcurrencyShares: number } }).limited.nominalConcurrencyShares, 5);
  assert.equal(get(levels, 'exempt')!.metadata.resourceVersion, exemptVersion);
  assert.equal((get(levels, 'exempt')!.spec as { exempt: { nominalConcurrencyShares: number } }).exempt.nominalConcurrencyShares, 10);
  await storage.close();
});

test('a suggested object is left alone while its annotation says false and put back while it says true', async () => {
  const { storage, levels, schemas, ensure } = await flowControlStores();
  await ensure();
  await edit(levels, 'workload-low', (o) => {
    (o.spec as { limited: { nominalConcurrencyShares: number } }).limited.nominalConcurrencyShares = 7;
    o.metadata.annotations = { [AUTOUPDATE_ANNOTATION]: 'false' };
  });
  await edit(schemas, 'service-accounts', (o) => { (o.spec as { matchingPrecedence: number }).matchingPrecedence = 8000; });
  const kept = get(levels, 'workload-low')!.metadata.resourceVersion;
  await ensure();

  assert.equal(get(levels, 'workload-low')!.metadata.resourceVersion, kept);
  assert.equal((get(levels, 'workload-low')!.spec as { limited: { nominalConcurrencyShares: number } }).limited.nominalConcurrencyShares, 7);
  assert.equal((get(schemas, 'service-accounts')!.spec as { matchingPrecedence: number }).matchingPrecedence, 9000);
  await storage.close();
});

test('without the annotation, an edited suggested object is marked false and kept, an unedited one is claimed', async () => {
  const { storage, levels, schemas, ensure } = await flowControlStores();
  // Created by hand before the server made them: generation 1 (never edited), no annotation.
  await levels.create('', { apiVersion: `${GROUP}/v1`, kind: 'PriorityLevelConfiguration', metadata: { name: 'system' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 3, limitResponse: { type: 'Reject' } } } }, { ctx, dryRun: false });
  await schemas.create('', { apiVersion: `${GROUP}/v1`, kind: 'FlowSchema', metadata: { name: 'kube-scheduler' }, spec: { priorityLevelConfiguration: { name: 'system' }, matchingPrecedence: 700 } }, { ctx, dryRun: false });
  await edit(schemas, 'kube-scheduler', (o) => { (o.spec as { matchingPrecedence: number }).matchingPrecedence = 750; });
  await levels.cache.waitFor(await storage.currentRevision(), 2000);
  await schemas.cache.waitFor(await storage.currentRevision(), 2000);
  await ensure();

  const system = get(levels, 'system')!;
  assert.equal((system.metadata.annotations as Record<string, string>)[AUTOUPDATE_ANNOTATION], 'true');
  assert.equal((system.spec as { limited: { nominalConcurrencyShares: number } }).limited.nominalConcurrencyShares, 30);
  const scheduler = get(schemas, 'kube-scheduler')!;
  assert.equal((scheduler.metadata.annotations as Record<string, string>)[AUTOUPDATE_ANNOTATION], 'false');
  assert.equal((scheduler.spec as { matchingPrecedence: number }).matchingPrecedence, 750);
  await storage.close();
});

test('deleted objects come back; objects the server made that are no longer wanted go, the others stay', async () => {
  const { storage, levels, schemas, ensure } = await flowControlStores();
  await ensure();
  await schemas.delete('', 'global-default', { ctx, dryRun: false });
  await levels.delete('', 'exempt', { ctx, dryRun: false });
  const level = (name: string, autoupdate?: string): ApiObject => ({
    apiVersion: `${GROUP}/v1`, kind: 'PriorityLevelConfiguration',
    metadata: { name, ...(autoupdate ? { annotations: { [AUTOUPDATE_ANNOTATION]: autoupdate } } : {}) },
    spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } },
  });
  for (const obj of [level('retired', 'true'), level('pinned', 'false'), level('mine'), level('odd', 'maybe')]) await levels.create('', obj, { ctx, dryRun: false });
  await levels.cache.waitFor(await storage.currentRevision(), 2000);
  await schemas.cache.waitFor(await storage.currentRevision(), 2000);
  await ensure();

  assert.ok(get(schemas, 'global-default'));
  assert.ok(get(levels, 'exempt'));
  assert.deepEqual(names(levels), [...LEVELS, 'mine', 'odd', 'pinned'].sort());
  assert.deepEqual(names(schemas), SCHEMAS);
  await storage.close();
});

test('a server without the flow control resources does nothing', async () => {
  await ensureFlowControlBootstrap(() => undefined);
});
