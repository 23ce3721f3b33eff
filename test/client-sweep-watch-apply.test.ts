// End-to-end: resource versions, watching, paging and server-side apply driven through the official clients
// as an operator author uses them (@kubernetes/client-node's informer, Watch and patch helpers; the Python
// client's Watch, pagination and dynamic server-side apply), each compared with Kubernetes v1.32.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { pythonClient, runPython } from './support/python.ts';
import { until } from './support/until.ts';
import { SqliteStorage } from '../src/storage/sqlite.ts';


const apply = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply);
const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

/** The Status body of a client-node ApiException. */
function statusOf(err: unknown): any {
  const body = (err as { body?: unknown }).body;
  return typeof body === 'string' ? JSON.parse(body) : body;
}

describe('official clients: watch, paging and server-side apply', () => {
  let s: TestServer;
  let storage: SqliteStorage;
  let kc: k8s.KubeConfig;
  let core: k8s.CoreV1Api;
  before(async () => {
    storage = SqliteStorage.open(':memory:');
    // A small watch cache window, so that a compacted version is out of every history a watch can resume from.
    s = await startTestServer({ storage, watchCacheEventWindow: 5 });
    kc = new k8s.KubeConfig();
    kc.loadFromString(s.kubeconfig);
    core = kc.makeApiClient(k8s.CoreV1Api);
    for (const name of ['inf', 'ssa', 'py']) await core.createNamespace({ body: { metadata: { name } } });
  });
  after(async () => { await s.stop(); });

  // Kubernetes' skipNonAppliedManager: an object without entries (cleared with [{}], so later updates are not
  // tracked) gets its existing fields owned by an Update manager `before-first-apply` on its first apply.
  it('the first apply to an untracked object conflicts with before-first-apply; same values share, force takes', async () => {
    await core.createNamespacedConfigMap({ namespace: 'ssa', body: { metadata: { name: 'cm' }, data: { mode: 'a' } }, fieldManager: 'creator' });
    const cleared = await core.patchNamespacedConfigMap({ name: 'cm', namespace: 'ssa', body: { metadata: { managedFields: [{}] } } }, mergePatch);
    assert.equal(cleared.metadata!.managedFields, undefined);
    const edited = await core.patchNamespacedConfigMap({ name: 'cm', namespace: 'ssa', body: { data: { extra: '1' } }, fieldManager: 'editor' }, mergePatch);
    assert.equal(edited.metadata!.managedFields, undefined, 'updates of an untracked object record nothing');

    const intent = (mode: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ssa' }, data: { mode } });
    const err = await core.patchNamespacedConfigMap({ name: 'cm', namespace: 'ssa', body: intent('b'), fieldManager: 'operator' }, apply).then(() => undefined, (e) => e);
    assert.ok(err, 'the apply changing an existing field conflicts');
    assert.equal(err.code, 409);
    assert.deepEqual(statusOf(err), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.mode',
      reason: 'Conflict', code: 409,
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "before-first-apply" using v1', field: '.data.mode' }] },
    });

    // The live value: no conflict, both own it; before-first-apply keeps everything the object held.
    const shared = await core.patchNamespacedConfigMap({ name: 'cm', namespace: 'ssa', body: intent('a'), fieldManager: 'operator' }, apply);
    const entries = shared.metadata!.managedFields!.map((e) => ({ manager: e.manager, operation: e.operation, apiVersion: e.apiVersion, fieldsType: e.fieldsType, fieldsV1: e.fieldsV1 }));
    assert.deepEqual(entries, [
      { manager: 'operator', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:mode': {} } } },
      { manager: 'before-first-apply', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:extra': {}, 'f:mode': {} } } },
    ]);

    const forced = await core.patchNamespacedConfigMap({ name: 'cm', namespace: 'ssa', body: intent('b'), fieldManager: 'operator', force: true }, apply);
    assert.deepEqual(forced.data, { mode: 'b', extra: '1' });
    assert.deepEqual(forced.metadata!.managedFields!.map((e) => [e.manager, e.fieldsV1]), [
      ['operator', { 'f:data': { 'f:mode': {} } }],
      ['before-first-apply', { 'f:data': { '.': {}, 'f:extra': {} } }],
    ]);
  });

  it('an object created with fields records its creator, so its first apply conflicts with that manager instead', async () => {
    await core.createNamespacedConfigMap({ namespace: 'ssa', body: { metadata: { name: 'tracked' }, data: { mode: 'a' } }, fieldManager: 'creator' });
    const err = await core.patchNamespacedConfigMap({ name: 'tracked', namespace: 'ssa', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'tracked' }, data: { mode: 'b' } }, fieldManager: 'operator' }, apply).then(() => undefined, (e) => e);
    assert.equal(statusOf(err).message, 'Apply failed with 1 conflict: conflict with "creator" using v1: .data.mode');
  });

  it('an informer whose list is too old gets the 410 ERROR event, relists and catches up', async () => {
    await core.createNamespacedConfigMap({ namespace: 'inf', body: { metadata: { name: 'first' } } });
    const stale = await core.listNamespacedConfigMap({ namespace: 'inf' });
    for (let i = 0; i < 8; i++) await core.createNamespacedConfigMap({ namespace: 'inf', body: { metadata: { name: `n${i}` } } });
    const current = await core.listNamespacedConfigMap({ namespace: 'inf' });
    await storage.compact(Number(current.metadata!.resourceVersion));

    // The Watch itself: a 200 stream whose one event is the Status, then the end.
    const events: Array<[string, any]> = [];
    const done = new Promise<unknown>((resolve) => {
      void new k8s.Watch(kc).watch('/api/v1/namespaces/inf/configmaps', { resourceVersion: stale.metadata!.resourceVersion }, (type, obj) => events.push([type, obj]), resolve);
    });
    assert.equal(await done, null);
    assert.equal(events.length, 1);
    assert.equal(events[0][0], 'ERROR');
    assert.deepEqual(events[0][1], {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Expired', code: 410,
      message: `too old resource version: ${stale.metadata!.resourceVersion} (${current.metadata!.resourceVersion})`,
    });

    // The informer: its first list is the stale one; the 410 makes it list again.
    let lists = 0;
    const informer = k8s.makeInformer(kc, '/api/v1/namespaces/inf/configmaps', async () => (++lists === 1 ? stale : core.listNamespacedConfigMap({ namespace: 'inf' })));
    const errors: unknown[] = [];
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    try {
      await until(() => informer.list().length === 9, 'the relisted objects');
      assert.equal(lists, 2);
      assert.deepEqual(errors, []);
      await core.createNamespacedConfigMap({ namespace: 'inf', body: { metadata: { name: 'later' } } });
      await until(() => informer.get('later', 'inf') !== undefined, 'the watch after the relist');
    } finally {
      await informer.stop();
    }
  });

  it('the Python client pages with _continue at one version, watches from it with bookmarks, and applies with conflicts', { skip: !pythonClient && 'the Python kubernetes client is not importable' }, async () => {
    for (let i = 0; i < 5; i++) await core.createNamespacedConfigMap({ namespace: 'py', body: { metadata: { name: `p${i}` } } });
    const script = `
import sys, json
from kubernetes import client, config, dynamic, watch
from kubernetes.client.rest import ApiException
config.load_kube_config(sys.argv[1])
api = client.ApiClient()
core = client.CoreV1Api(api)
out = {}
pages, token, versions = [], None, set()
while True:
    page = core.list_namespaced_config_map('py', limit=2, _continue=token)
    pages.append([(i.metadata.name) for i in page.items] + [page.metadata.remaining_item_count])
    versions.add(page.metadata.resource_version)
    token = page.metadata._continue
    if not token:
        break
out['pages'] = pages
out['versions'] = len(versions)
rv = versions.pop()
exact = core.list_namespaced_config_map('py', resource_version=rv, resource_version_match='Exact')
out['exact'] = [exact.metadata.resource_version == rv, len(exact.items)]
core.patch_namespaced_config_map('p0', 'py', {'data': {'w': '1'}})
w = watch.Watch()
out['events'] = [(e['type'], e['raw_object']['metadata'].get('name'), sorted(e['raw_object']['metadata'])) for e in w.stream(core.list_namespaced_config_map, 'py', resource_version=rv, allow_watch_bookmarks=True, timeout_seconds=3)]
cm = dynamic.DynamicClient(api).resources.get(api_version='v1', kind='ConfigMap')
body = lambda v: json.dumps({'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'ssa'}, 'data': {'k': v}})
cm.server_side_apply(body=body('1'), name='ssa', namespace='py', field_manager='py-a')
try:
    cm.server_side_apply(body=body('2'), name='ssa', namespace='py', field_manager='py-b')
except ApiException as e:
    out['conflict'] = [e.status, json.loads(e.body)['message']]
forced = cm.server_side_apply(body=body('2'), name='ssa', namespace='py', field_manager='py-b', force_conflicts=True)
out['forced'] = [[m['manager'], m['fieldsV1']] for m in forced.to_dict()['metadata']['managedFields']]
print(json.dumps(out))
`;
    const r = await runPython(script, [s.kubeconfigPath]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim());
    assert.deepEqual(out.pages, [['p0', 'p1', 3], ['p2', 'p3', 1], ['p4', null]]);
    assert.equal(out.versions, 1, 'every page has the first page\'s resourceVersion');
    assert.deepEqual(out.exact, [true, 5]);
    // The patch after the listed version, then the bookmark before the timeout (the kind, only its version).
    assert.deepEqual(out.events.filter((e: unknown[]) => e[0] !== 'BOOKMARK').map((e: unknown[]) => e.slice(0, 2)), [['MODIFIED', 'p0']]);
    const bookmarks = out.events.filter((e: unknown[]) => e[0] === 'BOOKMARK');
    assert.ok(bookmarks.length >= 1);
    for (const b of bookmarks) assert.deepEqual(b[2], ['resourceVersion']);
    assert.deepEqual(out.conflict, [409, 'Apply failed with 1 conflict: conflict with "py-a": .data.k']);
    assert.deepEqual(out.forced, [['py-b', { 'f:data': { 'f:k': {} } }]]);
  });
});
