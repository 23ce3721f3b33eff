import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqliteStorage } from '../storage/sqlite.ts';
import { ResourceStore } from '../registry/store.ts';
import { clusterRoleKind } from '../apis/rbac/clusterrole.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { aggregateAll } from './default-policy.ts';

const ctx = { user: { username: 'test', groups: ['system:masters'] }, version: 'v1', subresource: '', dryRun: false, warnings: [] };
const GROUP = 'rbac.authorization.svc.io';
const TO_VIEW = 'example.com/aggregate-to-view';
const TO_EDIT = 'example.com/aggregate-to-edit';
const TO_ADMIN = 'example.com/aggregate-to-admin';

const role = (name: string, labels: Record<string, string>, rules: unknown[], aggregateFrom?: string): ApiObject => ({
  apiVersion: `${GROUP}/v1`, kind: 'ClusterRole', metadata: { name, labels },
  ...(aggregateFrom ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [aggregateFrom]: 'true' } }] } } : {}),
  rules,
});
const read = (resource: string, verbs = ['get']) => ({ apiGroups: [''], resources: [resource], verbs });

async function clusterRoles() {
  const storage = SqliteStorage.open(':memory:');
  const store = new ResourceStore(clusterRoleKind, storage);
  await store.cache.start();
  return { storage, store };
}

test('a chain of aggregated roles (view into edit into admin) reaches its fixed point with one write per role', async () => {
  const { storage, store } = await clusterRoles();
  // view gathers from aggregate-to-view and is itself aggregated into edit, which is aggregated into admin.
  for (const obj of [
    role('admin', {}, [], TO_ADMIN),
    role('edit', { [TO_ADMIN]: 'true' }, [], TO_EDIT),
    role('view', { [TO_EDIT]: 'true' }, [], TO_VIEW),
    role('pods-reader', { [TO_VIEW]: 'true' }, [read('pods')]),
    role('pods-writer', { [TO_EDIT]: 'true' }, [read('pods', ['create'])]),
    role('secrets-admin', { [TO_ADMIN]: 'true' }, [read('secrets', ['*'])]),
  ]) await store.create('', obj, { ctx, dryRun: false });

  const modified: string[] = [];
  const unwatch = store.cache.watch(store.cache.revision, { onEvent: (e) => { if (e.previous) modified.push(e.current.object.metadata?.name as string); }, onClose: () => {} });
  await aggregateAll(store);
  unwatch();

  const rulesOf = (name: string) => (store.current('', name)!.object.rules as { resources: string[]; verbs: string[] }[]).map((r) => `${r.verbs.join('+')} ${r.resources.join('+')}`);
  assert.deepEqual(rulesOf('view'), ['get pods']);
  assert.deepEqual(rulesOf('edit'), ['create pods', 'get pods']);
  assert.deepEqual(rulesOf('admin'), ['create pods', 'get pods', '* secrets']);
  assert.deepEqual(modified.sort(), ['admin', 'edit', 'view']);

  // At the fixed point a further pass writes nothing.
  const revision = store.cache.revision;
  await aggregateAll(store);
  assert.equal(store.cache.revision, revision);
  await storage.close();
});

test('aggregation puts back rules changed by hand, and a role that gathers nothing has no rules', async () => {
  const { storage, store } = await clusterRoles();
  await store.create('', role('view', {}, [read('configmaps')], TO_VIEW), { ctx, dryRun: false });
  await store.create('', role('lonely', {}, [read('nodes')], 'example.com/nothing-matches'), { ctx, dryRun: false });
  await aggregateAll(store);
  // A ClusterRole's rules lack omitempty: none gathered is stored and answered as null, as Go writes nil.
  assert.equal(store.current('', 'view')!.object.rules, null);
  assert.equal(store.current('', 'lonely')!.object.rules, null);

  await store.create('', role('cm-reader', { [TO_VIEW]: 'true' }, [read('configmaps')]), { ctx, dryRun: false });
  await aggregateAll(store);
  assert.deepEqual(store.current('', 'view')!.object.rules, [read('configmaps')]);
  await storage.close();
});
