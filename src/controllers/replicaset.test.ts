import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BURST_REPLICAS, EXPECTATIONS_TIMEOUT_MS, Expectations, calculateStatus, podsToDelete, startReplicaSetController } from './replicaset.ts';
import type { AdmittedCreate } from './client.ts';
import { ResourceStore } from '../registry/store.ts';
import { updateObject } from '../registry/update-object.ts';
import { syncCache } from '../registry/list.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { StatusError } from '../machinery/status.ts';
import { podKind } from '../apis/core/pod.ts';
import { replicaSetKind } from '../apis/apps/replicaset.ts';
import { requestContext } from '../apis/kind-harness.ts';
import type { ApiObject } from '../apis/meta/v1.ts';

type Obj = Record<string, any>;

const storage = SqliteStorage.open(':memory:');
const replicaSets = new ResourceStore(replicaSetKind, storage);
const pods = new ResourceStore(podKind, storage);
const opts = { ctx: requestContext(), dryRun: false };

/** The controller's clock runs with real time, shifted by this much. */
let clockOffset = 0;
/** Creates by namespace that do something else than create the pod. */
const createHooks = new Map<string, AdmittedCreate>();
const createCalls: { group: string; plural: string; namespace: string; username: string }[] = [];
const createAdmitted: AdmittedCreate = async (group, plural, namespace, object, ctx) => {
  createCalls.push({ group, plural, namespace, username: ctx.user.username });
  const hook = createHooks.get(namespace);
  if (hook) return hook(group, plural, namespace, object, ctx);
  return (await pods.create(namespace, object, { ctx, dryRun: false })).object;
};

let controller: ReturnType<typeof startReplicaSetController>;
const logged: string[] = [];
before(async () => {
  await replicaSets.cache.start();
  await pods.cache.start();
  controller = startReplicaSetController({ replicaSets, pods, createAdmitted, log: (l) => logged.push(l), resyncMs: 60_000, now: () => Date.now() + clockOffset });
});
after(async () => { controller.stop(); replicaSets.cache.stop(); pods.cache.stop(); await storage.close(); });

// ---- helpers ----

interface RsOptions {
  replicas?: number;
  selector?: Record<string, string>;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  minReadySeconds?: number;
  owner?: string;
  rsFinalizers?: string[];
}

function replicaSet(name: string, o: RsOptions = {}): ApiObject {
  const labels = o.labels ?? { app: name };
  return {
    apiVersion: 'apps/v1', kind: 'ReplicaSet',
    metadata: {
      name,
      ...(o.owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'owner', uid: o.owner, controller: true, blockOwnerDeletion: true }] } : {}),
      ...(o.rsFinalizers ? { finalizers: o.rsFinalizers } : {}),
    },
    spec: {
      replicas: o.replicas ?? 1,
      ...(o.minReadySeconds ? { minReadySeconds: o.minReadySeconds } : {}),
      selector: { matchLabels: o.selector ?? labels },
      template: {
        metadata: { labels, ...(o.annotations ? { annotations: o.annotations } : {}), ...(o.finalizers ? { finalizers: o.finalizers } : {}) },
        spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
      },
    },
  } as ApiObject;
}

async function createReplicaSet(namespace: string, name: string, o: RsOptions = {}): Promise<ApiObject> {
  // Created by a client that records its fields, as kubectl does: later writes record theirs.
  return (await replicaSets.create(namespace, replicaSet(name, o), { ctx: { ...requestContext(), fieldManager: 'kubectl-create' }, dryRun: false })).object;
}

async function createPod(namespace: string, name: string, labels: Record<string, string>, extra: { nodeName?: string; annotations?: Record<string, string>; owner?: Obj } = {}): Promise<ApiObject> {
  const pod = {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, labels, ...(extra.annotations ? { annotations: extra.annotations } : {}), ...(extra.owner ? { ownerReferences: [extra.owner] } : {}) },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27' }], ...(extra.nodeName ? { nodeName: extra.nodeName } : {}) },
  } as ApiObject;
  return (await pods.create(namespace, pod, opts)).object;
}

const rfc3339 = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** A pod's status as a node agent would write it. */
async function setPodStatus(namespace: string, name: string, s: { phase?: string; readySince?: number; restarts?: number }): Promise<void> {
  await updateObject(pods, requestContext('status'), namespace, name, (pod) => {
    const status = pod.status as Obj;
    status.phase = s.phase ?? 'Running';
    if (s.readySince !== undefined) status.conditions = [{ type: 'Ready', status: 'True', lastTransitionTime: rfc3339(s.readySince) }];
    if (s.restarts !== undefined) status.containerStatuses = [{ name: 'c', image: 'nginx:1.27', imageID: '', ready: true, restartCount: s.restarts, started: true }];
  }, { subresource: 'status' });
}

/** Waits until the controller has nothing left to do: caches current, queue empty, nothing written meanwhile. */
async function settled(): Promise<void> {
  for (;;) {
    const revision = await storage.currentRevision();
    await syncCache(pods, storage);
    await syncCache(replicaSets, storage);
    await controller.queue.idle();
    if (await storage.currentRevision() === revision) return;
  }
}

async function eventually(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const podsIn = (namespace: string) => pods.cache.list(pods.listPrefix(namespace)).map((c) => c.object as ApiObject);
const podNames = (namespace: string) => podsIn(namespace).map((p) => p.metadata.name!).sort();
const stored = async (namespace: string, name: string) => (await replicaSets.readNow(namespace, name))!.object as ApiObject;
const statusOf = async (namespace: string, name: string) => (await stored(namespace, name)).status as Obj;
const controlledBy = (pod: ApiObject, rs: ApiObject) => (pod.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === rs.metadata.uid);

// ---- creating ----

test('creates pods up to spec.replicas from the template, controlled by the ReplicaSet, and reports them', async () => {
  const rs = await createReplicaSet('create', 'web', { replicas: 3, annotations: { note: 'from-template' }, finalizers: ['example.com/keep'] });
  await settled();
  const created = podsIn('create');
  assert.equal(created.length, 3);
  for (const pod of created) {
    assert.equal(pod.metadata.generateName, 'web-');
    assert.match(pod.metadata.name!, /^web-[a-z0-9]{5}$/);
    assert.equal(pod.metadata.namespace, 'create');
    assert.deepEqual(pod.metadata.labels, { app: 'web' });
    assert.deepEqual(pod.metadata.annotations, { note: 'from-template' });
    assert.deepEqual(pod.metadata.finalizers, ['example.com/keep']);
    assert.deepEqual(pod.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    assert.equal((pod.spec as Obj).containers[0].image, 'nginx:1.27');
    assert.deepEqual(pod.metadata.managedFields?.map((m) => m.manager), ['kube-controller-manager']);
  }
  const calls = createCalls.filter((c) => c.namespace === 'create');
  assert.equal(calls.length, 3);
  assert.deepEqual(calls[0], { group: '', plural: 'pods', namespace: 'create', username: 'system:serviceaccount:kube-system:replicaset-controller' });

  const after = await stored('create', 'web');
  assert.deepEqual(after.status, { replicas: 3, fullyLabeledReplicas: 3, observedGeneration: 1 });
  const managers = (after.metadata.managedFields ?? []).map((m) => `${m.manager}/${m.subresource ?? ''}`);
  assert.ok(managers.includes('kube-controller-manager/status'), managers.join(' '));

  // A pod that goes (here: held by its finalizer) is replaced at once.
  await pods.delete('create', created[0].metadata.name!, opts);
  await settled();
  const live = podsIn('create').filter((p) => !p.metadata.deletionTimestamp);
  assert.equal(live.length, 3);
  assert.ok(!live.some((p) => p.metadata.name === created[0].metadata.name));
  assert.equal((await statusOf('create', 'web')).replicas, 3);
});

test('creates in slow-start batches of 1, 2, 4 ... each waiting for the one before', async () => {
  const waiting: { resolve(): void }[] = [];
  createHooks.set('slow', (group, plural, namespace, object, ctx) => new Promise((resolve, reject) => {
    waiting.push({ resolve: () => pods.create(namespace, object, { ctx, dryRun: false }).then((r) => resolve(r.object), reject) });
  }));
  try {
    await createReplicaSet('slow', 'batch', { replicas: 10 });
    const batches: number[] = [];
    for (let created = 0; created < 10;) {
      await eventually(() => waiting.length > 0, 'a batch');
      // Give a batch the time to start in full, and anything beyond it the time to show up.
      await new Promise((r) => setTimeout(r, 50));
      const batch = waiting.splice(0);
      batches.push(batch.length);
      for (const w of batch) w.resolve();
      created += batch.length;
    }
    assert.deepEqual(batches, [1, 2, 4, 3]);
    await settled();
    assert.equal(podsIn('slow').length, 10);
  } finally {
    createHooks.delete('slow');
  }
});

test('a sync makes no second set of pods while the cache does not show the first, until the expectations expire', async () => {
  // Creates that the pod cache never shows: only expectations keep a second sync from creating again.
  let calls = 0;
  createHooks.set('expect', async (_g, _p, _ns, object) => { calls++; return object; });
  try {
    await createReplicaSet('expect', 'pending', { replicas: 2 });
    await settled();
    assert.equal(calls, 2);
    controller.queue.add('expect/pending');
    controller.queue.add('expect/pending');
    await settled();
    assert.equal(calls, 2);
    assert.equal((await statusOf('expect', 'pending')).replicas, 0);

    clockOffset = EXPECTATIONS_TIMEOUT_MS + 1000;
    controller.queue.add('expect/pending');
    await settled();
    assert.equal(calls, 4);
  } finally {
    clockOffset = 0;
    createHooks.delete('expect');
  }
});

test('expectations: satisfied once every create and each expected delete is seen, or after the timeout', () => {
  let clock = 0;
  const e = new Expectations(() => clock);
  assert.equal(e.satisfied('ns/rs'), true);
  e.expectCreations('ns/rs', 2);
  e.creationObserved('ns/rs');
  assert.equal(e.satisfied('ns/rs'), false);
  e.creationObserved('ns/rs');
  assert.equal(e.satisfied('ns/rs'), true);

  e.expectDeletions('ns/rs', ['ns/a', 'ns/b']);
  e.deletionObserved('ns/rs', 'ns/a');
  // The same pod seen going twice (marked, then gone) counts once; a pod not expected does not count.
  e.deletionObserved('ns/rs', 'ns/a');
  e.deletionObserved('ns/rs', 'ns/c');
  assert.equal(e.satisfied('ns/rs'), false);
  clock = EXPECTATIONS_TIMEOUT_MS;
  assert.equal(e.satisfied('ns/rs'), false);
  clock = EXPECTATIONS_TIMEOUT_MS + 1;
  assert.equal(e.satisfied('ns/rs'), true);

  clock = 0;
  e.expectCreations('ns/rs', 1);
  e.forget('ns/rs');
  assert.equal(e.satisfied('ns/rs'), true);
});

test('creates at most BURST_REPLICAS pods in one sync', async () => {
  let calls = 0;
  createHooks.set('burst', async (_g, _p, _ns, object) => { calls++; return object; });
  try {
    await createReplicaSet('burst', 'big', { replicas: BURST_REPLICAS + 20 });
    await settled();
    assert.equal(calls, BURST_REPLICAS);
  } finally {
    createHooks.delete('burst');
  }
});

// ---- deleting: which pods go first ----

const T = Date.parse('2026-03-01T12:00:00Z');
let uidCounter = 0;
function pod(name: string, o: { node?: string; phase?: string; readySince?: number; cost?: string; restarts?: number; created?: number; uid?: string } = {}): Obj {
  return {
    metadata: {
      name, namespace: 'ns', uid: o.uid ?? `uid-${String(++uidCounter).padStart(4, '0')}`,
      creationTimestamp: rfc3339(o.created ?? T - 3_600_000),
      ...(o.cost !== undefined ? { annotations: { 'controller.platform.io/pod-deletion-cost': o.cost } } : {}),
    },
    spec: o.node ? { nodeName: o.node } : {},
    status: {
      phase: o.phase ?? 'Running',
      ...(o.readySince !== undefined ? { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: rfc3339(o.readySince) }] } : {}),
      ...(o.restarts !== undefined ? { containerStatuses: [{ name: 'c', restartCount: o.restarts }] } : {}),
    },
  };
}
const firstToGo = (candidates: Obj[], related: Obj[] = candidates, count = 1) =>
  podsToDelete(candidates, related, count, T).map((p) => p.metadata.name);

test('scale down ranking: unscheduled, then by phase, then not ready before ready', () => {
  assert.deepEqual(firstToGo([pod('scheduled', { node: 'n1', phase: 'Pending' }), pod('unscheduled', { phase: 'Running' })]), ['unscheduled']);
  assert.deepEqual(firstToGo([pod('running', { node: 'n1' }), pod('unknown', { node: 'n1', phase: 'Unknown' }), pod('pending', { node: 'n1', phase: 'Pending' })], undefined, 2), ['pending', 'unknown']);
  assert.deepEqual(firstToGo([pod('ready', { node: 'n1', readySince: T - 60_000 }), pod('not-ready', { node: 'n1' })]), ['not-ready']);
});

test('scale down ranking: lower deletion cost, then more pods of the controller on the node', () => {
  assert.deepEqual(firstToGo([pod('dear', { node: 'n1', cost: '100' }), pod('cheap', { node: 'n1', cost: '-5' }), pod('default', { node: 'n1' })], undefined, 2), ['cheap', 'default']);
  // An invalid cost counts as 0.
  assert.deepEqual(firstToGo([pod('one', { node: 'n1', cost: '1' }), pod('invalid', { node: 'n1', cost: '+7' })]), ['invalid']);
  const crowded = pod('crowded', { node: 'n1', restarts: 0 });
  const alone = pod('alone', { node: 'n2', restarts: 9 });
  const sibling = pod('sibling-of-other-rs', { node: 'n1' });
  assert.deepEqual(firstToGo([crowded, alone], [crowded, alone, sibling]), ['crowded']);
  // Inactive related pods do not count.
  const finished = pod('finished', { node: 'n1', phase: 'Succeeded' });
  assert.deepEqual(firstToGo([crowded, alone], [crowded, alone, finished]), ['alone']);
});

test('scale down ranking: ready for less time, then more restarts, then newer, on a logarithmic scale', () => {
  assert.deepEqual(firstToGo([pod('old-ready', { node: 'n1', readySince: T - 86_400_000 }), pod('just-ready', { node: 'n1', readySince: T - 10_000 })]), ['just-ready']);
  assert.deepEqual(firstToGo([pod('calm', { node: 'n1', restarts: 1 }), pod('flappy', { node: 'n1', restarts: 7 })]), ['flappy']);
  assert.deepEqual(firstToGo([pod('older', { node: 'n1', created: T - 86_400_000 }), pod('newer', { node: 'n1', created: T - 60_000 })]), ['newer']);
  // Within the same power of two of age, the uid decides.
  assert.deepEqual(firstToGo([pod('b', { node: 'n1', created: T - 70_000, uid: 'bbbb' }), pod('a', { node: 'n1', created: T - 80_000, uid: 'aaaa' })]), ['a']);
  // Asked for all of them, no ranking is needed.
  assert.deepEqual(firstToGo([pod('x'), pod('y')], undefined, 2), ['x', 'y']);
});

test('scaling down deletes the pods Kubernetes picks first', async () => {
  await createPod('down', 'unscheduled', { app: 'shrink' });
  await createPod('down', 'pending', { app: 'shrink' }, { nodeName: 'node-1' });
  await createPod('down', 'running-ready', { app: 'shrink' }, { nodeName: 'node-1' });
  await createPod('down', 'running', { app: 'shrink' }, { nodeName: 'node-1' });
  await setPodStatus('down', 'running-ready', { readySince: Date.now() - 60_000 });
  await setPodStatus('down', 'running', {});
  await settled();
  const rs = await createReplicaSet('down', 'shrink', { replicas: 2 });
  await settled();
  assert.deepEqual(podNames('down'), ['running', 'running-ready']);
  for (const p of podsIn('down')) assert.ok(controlledBy(p, rs), `${p.metadata.name} is adopted`);
  assert.equal((await statusOf('down', 'shrink')).replicas, 2);

  // Scaled to one, both ready: the more costly pod stays, though it has been ready for less time.
  await setPodStatus('down', 'running', { readySince: Date.now() - 5_000 });
  await updateObject(pods, requestContext(), 'down', 'running', (p) => { p.metadata.annotations = { 'controller.platform.io/pod-deletion-cost': '1000' }; });
  await updateObject(replicaSets, requestContext(), 'down', 'shrink', (o) => { (o.spec as Obj).replicas = 1; });
  await settled();
  assert.deepEqual(podNames('down'), ['running']);
  assert.deepEqual(await statusOf('down', 'shrink'), { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, observedGeneration: 2 });
});

test('scaling down prefers pods on nodes crowded with pods of the same owner', async () => {
  const owner = 'f0f0f0f0-0000-4000-8000-000000000001';
  await createPod('related', 'a-crowded', { app: 'a' }, { nodeName: 'node-1' });
  await createPod('related', 'a-alone', { app: 'a' }, { nodeName: 'node-2' });
  await createPod('related', 'b-neighbour', { app: 'b' }, { nodeName: 'node-1' });
  // Without the ranking by node, the pod with more restarts would go.
  await setPodStatus('related', 'a-alone', { phase: 'Pending', restarts: 3 });
  await createReplicaSet('related', 'b', { replicas: 1, owner });
  await settled();
  await createReplicaSet('related', 'a', { replicas: 1, owner });
  await settled();
  assert.deepEqual(podNames('related'), ['a-alone', 'b-neighbour']);
});

// ---- claiming ----

test('adopts matching orphans, leaves others alone, and releases pods whose labels stop matching', async () => {
  const other = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'other', uid: 'a0a0a0a0-0000-4000-8000-000000000002', controller: true };
  await createPod('adopt', 'orphan-full', { app: 'keep', tier: 'web' });
  await createPod('adopt', 'orphan-partial', { app: 'keep' });
  await createPod('adopt', 'stranger', { app: 'other' });
  await createPod('adopt', 'taken', { app: 'keep', tier: 'web' }, { owner: other });
  await settled();
  const rs = await createReplicaSet('adopt', 'keep', { replicas: 2, selector: { app: 'keep' }, labels: { app: 'keep', tier: 'web' } });
  await settled();

  const byName = new Map(podsIn('adopt').map((p) => [p.metadata.name, p]));
  assert.equal(byName.size, 4, 'nothing created, nothing deleted');
  assert.deepEqual(byName.get('orphan-full')!.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'keep', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  assert.ok(controlledBy(byName.get('orphan-partial')!, rs));
  assert.equal(byName.get('stranger')!.metadata.ownerReferences, undefined);
  assert.deepEqual(byName.get('taken')!.metadata.ownerReferences, [other]);
  // Only one of them has every label of the template.
  assert.deepEqual(await statusOf('adopt', 'keep'), { replicas: 2, fullyLabeledReplicas: 1, observedGeneration: 1 });

  await updateObject(pods, requestContext(), 'adopt', 'orphan-partial', (p) => { p.metadata.labels = { app: 'moved' }; });
  await settled();
  const released = podsIn('adopt').find((p) => p.metadata.name === 'orphan-partial')!;
  assert.equal(released.metadata.ownerReferences, undefined);
  const owned = podsIn('adopt').filter((p) => controlledBy(p, rs));
  assert.equal(owned.length, 2, 'a replacement for the released pod');
  assert.ok(owned.some((p) => p.metadata.generateName === 'keep-'));

  // An orphan relabelled to match is adopted, and then one pod too many is removed.
  await updateObject(pods, requestContext(), 'adopt', 'stranger', (p) => { p.metadata.labels = { app: 'keep' }; });
  await settled();
  const stranger = podsIn('adopt').find((p) => p.metadata.name === 'stranger');
  assert.ok(!stranger || controlledBy(stranger, rs), 'adopted, or adopted and deleted');
  assert.equal(podsIn('adopt').filter((p) => controlledBy(p, rs)).length, 2);
  assert.equal(podsIn('adopt').length, 4);
});

// ---- status ----

test('status counts ready and available pods with minReadySeconds, and looks again when more become available', async () => {
  await createReplicaSet('ready', 'slow', { replicas: 3, minReadySeconds: 10 });
  await settled();
  const [a, b, c] = podNames('ready');
  const second = Math.floor(Date.now() / 1000) * 1000 - 20_000;
  // The controller's clock: b (ready at `second`) is available in 1.5 s.
  clockOffset = second + 10_000 - 1_500 - Date.now();
  try {
    await setPodStatus('ready', a, { readySince: second - 60_000 });
    await setPodStatus('ready', b, { readySince: second });
    await setPodStatus('ready', c, {});
    await settled();
    assert.deepEqual(await statusOf('ready', 'slow'), { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 2, availableReplicas: 1, observedGeneration: 1 });
    // Nothing else happens: only the controller's own wake-up brings the second pod in.
    await eventually(async () => (await statusOf('ready', 'slow')).availableReplicas === 2, 'the second pod to be available', 6000);
  } finally {
    clockOffset = 0;
  }

  // A finished pod is no replica: it is replaced, and no longer counted.
  await setPodStatus('ready', a, { phase: 'Failed' });
  await settled();
  const after = await statusOf('ready', 'slow');
  assert.equal(after.replicas, 3);
  assert.equal(after.readyReplicas, 1);
  assert.equal(after.availableReplicas, 1);
  assert.equal(podsIn('ready').length, 4);
});

test('status uses the clock it is given for availability', async () => {
  await createReplicaSet('clock', 'timed', { replicas: 1, minReadySeconds: 600 });
  await settled();
  const [name] = podNames('clock');
  await setPodStatus('clock', name, { readySince: Date.now() });
  await settled();
  assert.equal((await statusOf('clock', 'timed')).availableReplicas, undefined);
  try {
    clockOffset = 601_000;
    controller.queue.add('clock/timed');
    await settled();
    assert.equal((await statusOf('clock', 'timed')).availableReplicas, 1);
  } finally {
    clockOffset = 0;
  }
});

test('a refused create sets ReplicaFailure (FailedCreate), retried later, and the condition goes once creates work', async () => {
  const message = 'pods "web-" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=0, limited: pods=0';
  let refusals = 0;
  createHooks.set('quota', async () => { refusals++; throw new StatusError(403, 'Forbidden', message); });
  let rs: ApiObject;
  try {
    rs = await createReplicaSet('quota', 'web', { replicas: 2 });
    await settled();
    const status = await statusOf('quota', 'web');
    assert.equal(status.replicas, 0);
    assert.equal(status.conditions.length, 1);
    const [condition] = status.conditions;
    assert.equal(condition.type, 'ReplicaFailure');
    assert.equal(condition.status, 'True');
    assert.equal(condition.reason, 'FailedCreate');
    assert.equal(condition.message, message);
    assert.match(condition.lastTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.ok(logged.some((l) => l.includes('quota/web') && l.includes(message)));
    // Retried through the queue.
    const before = refusals;
    await eventually(() => refusals > before, 'a retry');
  } finally {
    createHooks.delete('quota');
  }
  await eventually(async () => podsIn('quota').length === 2 && !(await statusOf('quota', 'web')).conditions, 'the pods and the condition gone');
  assert.deepEqual(await statusOf('quota', 'web'), { replicas: 2, fullyLabeledReplicas: 2, observedGeneration: 1 });
  assert.ok(podsIn('quota').every((p) => controlledBy(p, rs)));
});

test('a create refused because the namespace is being deleted is no failure', async () => {
  let calls = 0;
  createHooks.set('ending', async () => {
    calls++;
    throw new StatusError(403, 'Forbidden', 'pods "e-" is forbidden: unable to create new content in namespace ending because it is being terminated', {
      causes: [{ reason: 'NamespaceTerminating', message: 'namespace ending is being terminated', field: 'metadata.namespace' }],
    });
  });
  try {
    await createReplicaSet('ending', 'e', { replicas: 2 });
    await settled();
    assert.equal(calls, 2);
    assert.equal((await statusOf('ending', 'e')).conditions, undefined);
  } finally {
    createHooks.delete('ending');
  }
});

test('ReplicaFailure: FailedDelete for deletes, kept as first set while failing, removed without an error', () => {
  const rs = replicaSet('x', { replicas: 1 });
  rs.metadata.generation = 4;
  const running = [pod('p1'), pod('p2')];
  const failing = calculateStatus(rs, running, new Error('unable to delete pods: boom'), T);
  assert.deepEqual(failing.conditions, [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedDelete', message: 'unable to delete pods: boom', lastTransitionTime: '2026-03-01T12:00:00Z' }]);
  assert.equal(failing.observedGeneration, 4);
  rs.status = failing;
  const again = calculateStatus(rs, running, new Error('unable to delete pods: other'), T + 60_000);
  assert.deepEqual(again.conditions, failing.conditions);
  const recovered = calculateStatus(rs, running, undefined, T + 120_000);
  assert.equal(recovered.conditions, undefined);
  // Zero counts are left out, as Go leaves out its empty fields.
  assert.deepEqual(recovered, { replicas: 2, observedGeneration: 4 });
});

// ---- deletion ----

test('a ReplicaSet being deleted neither replaces pods nor adopts, but keeps its status', async () => {
  const rs = await createReplicaSet('going', 'old', { replicas: 2, rsFinalizers: ['example.com/hold'] });
  await settled();
  assert.equal(podsIn('going').length, 2);
  await replicaSets.delete('going', 'old', opts);
  await settled();
  assert.ok((await stored('going', 'old')).metadata.deletionTimestamp);

  const [gone, kept] = podNames('going');
  await pods.delete('going', gone, opts);
  await createPod('going', 'stray', { app: 'old' });
  await settled();
  assert.deepEqual(podNames('going'), [kept, 'stray'].sort());
  assert.ok(controlledBy(podsIn('going').find((p) => p.metadata.name === kept)!, rs));
  assert.equal(podsIn('going').find((p) => p.metadata.name === 'stray')!.metadata.ownerReferences, undefined);
  // Not even tried: no adoption refused.
  assert.ok(!logged.some((l) => l.includes("can't adopt")), logged.join('\n'));
  assert.equal((await statusOf('going', 'old')).replicas, 1);
});
