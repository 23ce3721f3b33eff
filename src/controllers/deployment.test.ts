import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDeploymentController } from './deployment.ts';
import { ResourceStore } from '../registry/store.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { deploymentKind } from '../apis/apps/deployment.ts';
import { replicaSetKind } from '../apis/apps/replicaset.ts';
import { podKind } from '../apis/core/pod.ts';
import { requestContext } from '../apis/kind-harness.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { updateObject } from '../registry/update-object.ts';
import * as status from '../machinery/status.ts';

type Obj = Record<string, any>;

const storage = SqliteStorage.open(':memory:');
const deployments = new ResourceStore(deploymentKind, storage);
const replicaSets = new ResourceStore(replicaSetKind, storage);
const pods = new ResourceStore(podKind, storage);
const ctx = requestContext();
let clock = Date.parse('2026-01-01T00:00:00Z');
let refuseCreates: status.StatusError | undefined;
let controller: ReturnType<typeof startDeploymentController>;

before(async () => {
  for (const s of [deployments, replicaSets, pods]) await s.cache.start();
  controller = startDeploymentController({
    deployments, replicaSets, pods, log: () => {}, resyncMs: 60_000, now: () => clock,
    createAdmitted: async (_group, _plural, ns, obj, c) => {
      if (refuseCreates) throw refuseCreates;
      return (await replicaSets.create(ns, obj, { ctx: c, dryRun: false })).object;
    },
  });
});
after(async () => { controller.stop(); for (const s of [deployments, replicaSets, pods]) s.cache.stop(); await storage.close(); });

/** Until the controller has nothing left to do (its writes wake it again: let them come back). */
async function settle(): Promise<void> {
  for (let i = 0; i < 50; i++) {
    await deployments.readNow('ns', 'x');
    await replicaSets.readNow('ns', 'x');
    await controller.queue.idle();
    await new Promise((r) => setTimeout(r, 5));
    if (controller.queue.length === 0) return;
  }
}

const template = (image: string) => ({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } });
async function createDeployment(name: string, spec: Obj): Promise<void> {
  await deployments.create('ns', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { selector: { matchLabels: { app: 'web' } }, template: template('nginx:1'), ...spec } }, { ctx, dryRun: false });
  await settle();
}
const get = async (store: ResourceStore, name: string) => (await store.readNow('ns', name))?.object as ApiObject;
const ownedBy = async (name: string) => {
  const d = await get(deployments, name);
  return replicaSets.cache.list(replicaSets.listPrefix('ns')).map((c) => c.object as ApiObject)
    .filter((rs) => (rs.metadata.ownerReferences ?? []).some((r: Obj) => r.uid === d.metadata.uid))
    .sort((a, b) => Number(a.metadata.annotations!['deployment.platform.io/revision']) - Number(b.metadata.annotations!['deployment.platform.io/revision']));
};
const condition = (d: ApiObject, type: string) => ((d.status as Obj).conditions ?? []).find((c: Obj) => c.type === type);
async function change(name: string, mutate: (spec: Obj) => void): Promise<void> {
  await updateObject(deployments, ctx, 'ns', name, (obj) => mutate(obj.spec as Obj));
  await settle();
}
/** What the ReplicaSet controller and the pods' node agents would report: `ready` of its pods available. */
async function report(rs: ApiObject, ready: number): Promise<void> {
  await updateObject(replicaSets, ctx, 'ns', rs.metadata.name!, (obj) => {
    const replicas = (obj.spec as Obj).replicas;
    obj.status = { replicas, fullyLabeledReplicas: replicas, readyReplicas: ready, availableReplicas: ready, observedGeneration: obj.metadata.generation };
  }, { subresource: 'status' });
  await settle();
}

test('a new Deployment gets its ReplicaSet: hashed name and labels, owner, revision and replicas annotations, status', async () => {
  await createDeployment('web', { replicas: 3 });
  const [rs] = await ownedBy('web');
  const d = await get(deployments, 'web');
  const hash = rs.metadata.labels!['pod-template-hash'];
  assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]+$/);
  assert.equal(rs.metadata.name, `web-${hash}`);
  assert.deepEqual(rs.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  const spec = rs.spec as Obj;
  assert.equal(spec.replicas, 3);
  assert.deepEqual(spec.selector, { matchLabels: { app: 'web', 'pod-template-hash': hash } });
  assert.deepEqual(spec.template.metadata.labels, { app: 'web', 'pod-template-hash': hash });
  assert.equal(spec.template.spec.containers[0].image, 'nginx:1');
  // 25% surge of 3 rounds up to 1.
  assert.deepEqual(rs.metadata.annotations, {
    'deployment.platform.io/revision': '1', 'deployment.kubernetes.io/revision': '1', 'deployment.platform.io/desired-replicas': '3', 'deployment.platform.io/max-replicas': '4',
  });
  assert.equal(d.metadata.annotations!['deployment.platform.io/revision'], '1');
  assert.equal(d.metadata.annotations!['deployment.kubernetes.io/revision'], '1');
  const st = d.status as Obj;
  assert.equal(st.observedGeneration, 1);
  assert.equal(st.unavailableReplicas, 3);
  assert.equal(st.replicas, undefined);
  assert.equal(condition(d, 'Available').reason, 'MinimumReplicasUnavailable');
  assert.equal(condition(d, 'Available').message, 'Deployment does not have minimum availability.');
  assert.equal(condition(d, 'Progressing').status, 'True');
  assert.equal(condition(d, 'Progressing').reason, 'NewReplicaSetCreated');
  assert.equal(condition(d, 'Progressing').message, `Created new replica set "web-${hash}"`);
  await report(rs, 3);
  const done = await get(deployments, 'web');
  assert.deepEqual({ ...(done.status as Obj), conditions: undefined }, { observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3, conditions: undefined });
  assert.equal(condition(done, 'Available').reason, 'MinimumReplicasAvailable');
  assert.equal(condition(done, 'Progressing').reason, 'NewReplicaSetAvailable');
  assert.equal(condition(done, 'Progressing').message, `ReplicaSet "web-${hash}" has successfully progressed.`);
});

test('a rolling update surges the new ReplicaSet and scales the old one down as pods become available', async () => {
  await createDeployment('roll', { replicas: 4, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } });
  const [first] = await ownedBy('roll');
  await report(first, 4);
  await change('roll', (spec) => { spec.template.spec.containers[0].image = 'nginx:2'; });
  let [old, fresh] = await ownedBy('roll');
  assert.equal(old.metadata.name, first.metadata.name);
  assert.equal(fresh.metadata.annotations!['deployment.platform.io/revision'], '2');
  assert.equal((fresh.spec as Obj).template.spec.containers[0].image, 'nginx:2');
  // One surge pod; no old one goes before a new one is available (maxUnavailable 0).
  assert.deepEqual([(old.spec as Obj).replicas, (fresh.spec as Obj).replicas], [4, 1]);
  await report(fresh, 0);
  [old, fresh] = await ownedBy('roll');
  assert.deepEqual([(old.spec as Obj).replicas, (fresh.spec as Obj).replicas], [4, 1]);
  await report(fresh, 1);
  [old, fresh] = await ownedBy('roll');
  assert.deepEqual([(old.spec as Obj).replicas, (fresh.spec as Obj).replicas], [3, 2]);
  const d = await get(deployments, 'roll');
  assert.equal(d.metadata.annotations!['deployment.platform.io/revision'], '2');
  assert.equal(condition(d, 'Progressing').reason, 'ReplicaSetUpdated');
  assert.equal(condition(d, 'Progressing').message, `ReplicaSet "${fresh.metadata.name}" is progressing.`);
});

test('no progress within progressDeadlineSeconds turns Progressing False with ProgressDeadlineExceeded; the controller keeps processing it', async () => {
  await createDeployment('stuck', { replicas: 2, progressDeadlineSeconds: 30 });
  const [rs] = await ownedBy('stuck');
  clock += 31_000;
  await change('stuck', () => {}); // any event: the controller looks again
  await updateObject(deployments, ctx, 'ns', 'stuck', (obj) => { obj.metadata.labels = { touch: '1' }; });
  await settle();
  const d = await get(deployments, 'stuck');
  const progressing = condition(d, 'Progressing');
  assert.equal(progressing.status, 'False');
  assert.equal(progressing.reason, 'ProgressDeadlineExceeded');
  assert.equal(progressing.message, `ReplicaSet "${rs.metadata.name}" has timed out progressing.`);
  // Progress afterwards: the rollout completes and says so.
  await report(rs, 2);
  assert.equal(condition(await get(deployments, 'stuck'), 'Progressing').reason, 'NewReplicaSetAvailable');
});

test('a scaling event resizes the only active ReplicaSet and its desired-replicas annotation', async () => {
  await createDeployment('scale', { replicas: 2 });
  await change('scale', (spec) => { spec.replicas = 5; });
  const [rs] = await ownedBy('scale');
  assert.equal((rs.spec as Obj).replicas, 5);
  assert.equal(rs.metadata.annotations!['deployment.platform.io/desired-replicas'], '5');
  assert.equal(rs.metadata.annotations!['deployment.platform.io/max-replicas'], '7');
});

test('Recreate scales the old ReplicaSet to zero and creates the new one only when its pods are gone', async () => {
  await createDeployment('recreate', { replicas: 2, strategy: { type: 'Recreate' } });
  const [first] = await ownedBy('recreate');
  await report(first, 2);
  await change('recreate', (spec) => { spec.template.spec.containers[0].image = 'nginx:2'; });
  let owned = await ownedBy('recreate');
  assert.equal(owned.length, 1);
  assert.equal((owned[0].spec as Obj).replicas, 0);
  await report(owned[0], 0); // status.replicas follows spec: 0 pods left
  owned = await ownedBy('recreate');
  assert.equal(owned.length, 2);
  assert.equal((owned[1].spec as Obj).replicas, 2);
  assert.equal((owned[1].spec as Obj).template.spec.containers[0].image, 'nginx:2');
});

test('old ReplicaSets beyond revisionHistoryLimit are deleted once the rollout completes', async () => {
  await createDeployment('history', { replicas: 1, revisionHistoryLimit: 1, strategy: { type: 'Recreate' } });
  for (const image of ['nginx:2', 'nginx:3']) {
    for (const rs of await ownedBy('history')) await report(rs, (rs.spec as Obj).replicas);
    await change('history', (spec) => { spec.template.spec.containers[0].image = image; });
    for (const rs of await ownedBy('history')) await report(rs, (rs.spec as Obj).replicas);
  }
  for (const rs of await ownedBy('history')) await report(rs, (rs.spec as Obj).replicas);
  const revisions = (await ownedBy('history')).map((rs) => rs.metadata.annotations!['deployment.platform.io/revision']);
  assert.deepEqual(revisions, ['2', '3']);
});

test('a paused Deployment rolls nothing out and says so; resumed, it rolls', async () => {
  await createDeployment('paused', { replicas: 1, paused: true });
  let d = await get(deployments, 'paused');
  assert.deepEqual([condition(d, 'Progressing').status, condition(d, 'Progressing').reason, condition(d, 'Progressing').message], ['Unknown', 'DeploymentPaused', 'Deployment is paused']);
  assert.equal((await ownedBy('paused')).length, 0);
  await change('paused', (spec) => { spec.paused = false; });
  d = await get(deployments, 'paused');
  assert.equal((await ownedBy('paused')).length, 1);
  assert.equal(condition(d, 'Progressing').reason, 'NewReplicaSetCreated');
});

test('an orphan ReplicaSet that the selector matches is adopted and used as the new one', async () => {
  const hashless = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'orphan', labels: { app: 'adopt' } }, spec: { replicas: 1, selector: { matchLabels: { app: 'adopt' } }, template: { metadata: { labels: { app: 'adopt' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } } } };
  await replicaSets.create('ns', hashless, { ctx, dryRun: false });
  await deployments.create('ns', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'adopter' }, spec: { replicas: 1, selector: { matchLabels: { app: 'adopt' } }, template: hashless.spec.template } }, { ctx, dryRun: false });
  await settle();
  const owned = await ownedBy('adopter');
  assert.deepEqual(owned.map((rs) => rs.metadata.name), ['orphan']);
  assert.equal(owned[0].metadata.ownerReferences![0].controller, true);
  const d = await get(deployments, 'adopter');
  assert.equal(condition(d, 'Progressing').reason, 'FoundNewReplicaSet');
  assert.equal(condition(d, 'Progressing').message, 'Found new replica set "orphan"');
});

test('a ReplicaSet that cannot be created shows in the Progressing condition, and the controller tries again', async () => {
  refuseCreates = status.forbidden({ group: 'apps', resource: 'replicasets' }, '', 'exceeded quota: q');
  try {
    await createDeployment('refused', { replicas: 1 });
    const d = await get(deployments, 'refused');
    assert.equal(condition(d, 'Progressing').status, 'False');
    assert.equal(condition(d, 'Progressing').reason, 'ReplicaSetCreateError');
    assert.match(condition(d, 'Progressing').message, /^Failed to create new replica set "refused-[a-z0-9]+": .*exceeded quota: q/);
  } finally {
    refuseCreates = undefined;
  }
  await change('refused', () => {});
  await new Promise((r) => setTimeout(r, 200));
  await settle();
  assert.equal((await ownedBy('refused')).length, 1);
});
