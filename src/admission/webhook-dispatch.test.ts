import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { dispatchMutating, dispatchValidating, type DispatchDeps } from './webhook-dispatch.ts';
import { compileConfiguration, type CompiledWebhook } from './webhook-configurations.ts';
import { Equivalents } from './webhook-rules.ts';
import { WebhookClient } from './webhook-client.ts';
import type { AdmissionAttributes } from './chain.ts';
import { allKinds } from '../apis/index.ts';
import { ApiSurface, isServed } from '../server/apis.ts';
import { ResourceStore } from '../registry/store.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { requestContext } from '../apis/kind-harness.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { StatusError } from '../machinery/status.ts';
import { startAdmissionWebhook, jsonPatch, type AdmissionWebhookServer } from '../../test/support/admission-webhook.ts';

const storage = SqliteStorage.open(':memory:');
const surface = new ApiSurface();
for (const def of allKinds()) {
  const store = new ResourceStore(def, storage);
  for (const version of def.versions) if (isServed(def, version, {})) surface.add({ def, version, store });
}
const client = new WebhookClient(async () => undefined);
const deps: DispatchDeps = {
  equivalents: new Equivalents(surface.served), client,
  namespaces: async (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { env: 'test' } } }),
  authorize: async () => ({ decision: 'allow', reason: '' }),
};
let hook: AdmissionWebhookServer;
before(async () => { hook = await startAdmissionWebhook(); });
after(async () => { client.close(); await hook.close(); await storage.close(); });

const webhooks = (config: string, hooks: Record<string, unknown>[]): CompiledWebhook[] => compileConfiguration({
  apiVersion: 'admissionregistration.svc.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: config },
  webhooks: hooks.map((h) => ({
    clientConfig: { url: `${hook.origin}/${h.name}`, caBundle: hook.caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'],
    rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*', '*/*'] }], ...h,
  })),
}, (g) => g);
const attrs = (group: string, version: string, resource: string, a: Partial<AdmissionAttributes>): AdmissionAttributes => ({
  operation: 'CREATE', served: surface.lookup(group, version, resource)!, namespace: 'ns', name: 'x', object: undefined, ctx: requestContext(a.ctx?.subresource ?? ''), ...a,
});
const labelsOf = (review: any) => review.request.object?.metadata?.labels ?? {};
const addLabel = (review: any, key: string) => jsonPatch([{ op: 'add', path: '/metadata/labels', value: { ...labelsOf(review), [key]: 'yes' } }]);
const callsTo = (name: string) => hook.reviews.filter((r) => r.path.startsWith(`/${name}?`));

test('mutating: in order, each webhook sees the previous one\'s patch; IfNeeded webhooks are called again once a later one changes the object', async () => {
  hook.reviews.length = 0;
  // "again" adds its label only once; "late" changes the object after it; "never" is not called again.
  hook.answer = (review, path) => {
    const name = path.slice(1, path.indexOf('?'));
    if (name === 'again' && !labelsOf(review).again) return { allowed: true, ...addLabel(review, 'again') };
    if (name === 'late') return { allowed: true, ...addLabel(review, 'late') };
    return { allowed: true };
  };
  const hooks = [
    ...webhooks('a-config', [{ name: 'never' }, { name: 'again', reinvocationPolicy: 'IfNeeded' }]),
    ...webhooks('b-config', [{ name: 'late' }]),
  ];
  const obj: ApiObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: '1' } };
  await dispatchMutating(hooks, attrs('', 'v1', 'configmaps', { object: obj }), deps);
  assert.deepEqual(obj.metadata.labels, { again: 'yes', late: 'yes' });
  assert.deepEqual([callsTo('never').length, callsTo('again').length, callsTo('late').length], [1, 2, 1]);
  assert.deepEqual(labelsOf(callsTo('late')[0]!.review), { again: 'yes' });
  assert.deepEqual(labelsOf(callsTo('again')[1]!.review), { again: 'yes', late: 'yes' });
  // The object is the request's namespace's and defaulted, as Kubernetes decodes it.
  assert.equal(callsTo('never')[0]!.review.request.object.metadata.namespace, 'ns');
});

const hpaV2 = (): ApiObject => ({
  apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h', namespace: 'ns' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, minReplicas: 1, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] },
});

test('Equivalent: a webhook for autoscaling/v1 gets a v2 request\'s object in v1, and its v1 patch is taken back', async () => {
  hook.reviews.length = 0;
  hook.answer = () => ({ allowed: true, ...jsonPatch([{ op: 'replace', path: '/spec/targetCPUUtilizationPercentage', value: 70 }]) });
  const hooks = webhooks('c', [{
    name: 'v1only', rules: [{ operations: ['CREATE'], apiGroups: ['autoscaling'], apiVersions: ['v1'], resources: ['horizontalpodautoscalers'] }],
    // Match conditions see the invoked kind, but the request's resource (as Kubernetes' matcher builds them).
    matchConditions: [{ name: 'versions', expression: "request.kind.version == 'v1' && request.resource.version == 'v2' && object.apiVersion == 'autoscaling/v1'" }],
  }]);
  const obj = hpaV2();
  await dispatchMutating(hooks, attrs('autoscaling', 'v2', 'horizontalpodautoscalers', { name: 'h', object: obj }), deps);
  const req = hook.reviews[0]!.review.request;
  assert.deepEqual([req.kind, req.resource, req.requestKind, req.requestResource], [
    { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' }, { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' },
    { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' }, { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' },
  ]);
  assert.equal(req.object.apiVersion, 'autoscaling/v1');
  assert.equal(req.object.spec.targetCPUUtilizationPercentage, 50);
  assert.equal(obj.apiVersion, 'autoscaling/v2');
  assert.deepEqual((obj.spec as any).metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]);
  // Exact: the v2 request is not sent to it.
  hook.reviews.length = 0;
  await dispatchMutating(webhooks('c', [{ name: 'v1only', matchPolicy: 'Exact', rules: [{ operations: ['CREATE'], apiGroups: ['autoscaling'], apiVersions: ['v1'], resources: ['horizontalpodautoscalers'] }] }]),
    attrs('autoscaling', 'v2', 'horizontalpodautoscalers', { name: 'h', object: hpaV2() }), deps);
  assert.equal(hook.reviews.length, 0);
});

test('a view sub-resource: the webhook sees the Scale, and its patch changes the stored object', async () => {
  hook.reviews.length = 0;
  hook.answer = () => ({ allowed: true, ...jsonPatch([{ op: 'replace', path: '/spec/replicas', value: 4 }]) });
  const deployment = (replicas: number): ApiObject => ({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'ns', uid: 'u1', resourceVersion: '5' },
    spec: { replicas, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
  });
  const obj = deployment(2);
  await dispatchMutating(webhooks('s', [{ name: 'scale', rules: [{ operations: ['UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments/scale'] }] }]),
    attrs('apps', 'v1', 'deployments', { operation: 'UPDATE', name: 'd', object: obj, oldObject: deployment(1), ctx: requestContext('scale') }), deps);
  const req = hook.reviews[0]!.review.request;
  assert.deepEqual([req.kind, req.subResource, req.object.kind, req.object.spec.replicas, req.oldObject.spec.replicas], [{ group: 'autoscaling', version: 'v1', kind: 'Scale' }, 'scale', 'Scale', 2, 1]);
  assert.equal((obj.spec as any).replicas, 4);
});

test('a patch on a delete is an internal error; a failing webhook fails the request or, with Ignore, is skipped', async () => {
  hook.answer = () => ({ allowed: true, ...jsonPatch([{ op: 'add', path: '/metadata/labels', value: {} }]) });
  const existing: ApiObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'ns' } };
  await assert.rejects(dispatchMutating(webhooks('d', [{ name: 'del' }]), attrs('', 'v1', 'configmaps', { operation: 'DELETE', oldObject: existing }), deps),
    (e: StatusError) => e.code === 500 && e.message === 'Internal error occurred: admission webhook "del" attempted to modify the object, which is not supported for this operation');
  hook.answer = () => ({ raw: { status: 500, body: 'down', contentType: 'text/plain' } });
  const obj: ApiObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } };
  await assert.rejects(dispatchMutating(webhooks('e', [{ name: 'down' }]), attrs('', 'v1', 'configmaps', { object: obj }), deps),
    (e: StatusError) => e.code === 500 && e.message === 'Internal error occurred: failed calling webhook "down": failed to call webhook: an error on the server ("down") has prevented the request from succeeding');
  await dispatchMutating(webhooks('e', [{ name: 'down', failurePolicy: 'Ignore' }]), attrs('', 'v1', 'configmaps', { object: obj }), deps);
});

test('validating: all called, warnings and audit annotations kept, the first refusal in webhook order answered', async () => {
  hook.reviews.length = 0;
  hook.answer = (review, path) => {
    if (path.startsWith('/deny-a')) return { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'a says no' }, warnings: ['from a'] };
    if (path.startsWith('/deny-b')) return { allowed: false, status: { message: 'b says no' } };
    return { allowed: true, warnings: ['from ok', 'from ok'], auditAnnotations: { checked: 'true' } };
  };
  const a = attrs('', 'v1', 'configmaps', { object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'ns' } } });
  await assert.rejects(dispatchValidating(webhooks('v', [{ name: 'ok' }, { name: 'deny-a' }, { name: 'deny-b' }]), a, deps),
    (e: StatusError) => e.code === 403 && e.reason === 'Forbidden' && e.message === 'admission webhook "deny-a" denied the request: a says no');
  assert.equal(hook.reviews.length, 3);
  assert.deepEqual([...a.ctx.warnings].sort(), ['from a', 'from ok']);
  assert.deepEqual(a.auditAnnotations, new Map([['ok/checked', { value: 'true', level: 'Metadata' }]]));
  // A validating webhook may not patch.
  hook.answer = () => ({ allowed: true, ...jsonPatch([]) });
  await assert.rejects(dispatchValidating(webhooks('v', [{ name: 'patcher' }]), attrs('', 'v1', 'configmaps', { object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } }), deps),
    (e: StatusError) => e.code === 500 && /failed calling webhook "patcher": received invalid webhook response: validating webhook may not return response.patch/.test(e.message));
});

test('a match condition that errors: with Fail the request is forbidden, with Ignore the webhook is skipped; a false one skips it', async () => {
  hook.reviews.length = 0;
  hook.answer = () => ({ allowed: true });
  const broken = { matchConditions: [{ name: 'broken', expression: 'object.spec.replicas > 1' }] };
  const cm = () => attrs('', 'v1', 'configmaps', { object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } });
  await assert.rejects(dispatchValidating(webhooks('m', [{ name: 'strict', ...broken }]), cm(), deps),
    (e: StatusError) => e.code === 403 && e.message === `configmaps "x" is forbidden: expression 'object.spec.replicas > 1' resulted in error: no such key: spec`);
  await dispatchValidating(webhooks('m', [{ name: 'lenient', failurePolicy: 'Ignore', ...broken }]), cm(), deps);
  await dispatchValidating(webhooks('m', [{ name: 'unmatched', matchConditions: [{ name: 'never', expression: 'false' }] }]), cm(), deps);
  assert.equal(hook.reviews.length, 0);
});

test('dry run: a webhook without sideEffects, or with Some, is not called; without known review versions the call fails', async () => {
  hook.reviews.length = 0;
  hook.answer = () => ({ allowed: true });
  const dry = () => {
    const a = attrs('', 'v1', 'configmaps', { object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } });
    a.ctx.dryRun = true;
    return a;
  };
  await assert.rejects(dispatchValidating(webhooks('s', [{ name: 'unset', sideEffects: undefined }]), dry(), deps),
    (e: StatusError) => e.code === 500 && e.message === 'Internal error occurred: failed calling webhook "unset": Webhook SideEffects is nil');
  await assert.rejects(dispatchValidating(webhooks('s', [{ name: 'some', sideEffects: 'Some' }]), dry(), deps),
    (e: StatusError) => e.code === 400 && e.message === 'admission webhook "some" does not support dry run');
  await dispatchValidating(webhooks('s', [{ name: 'free', sideEffects: 'NoneOnDryRun' }]), dry(), deps);
  assert.deepEqual(hook.reviews.map((r) => [r.path.split('?')[0], r.review.request.dryRun]), [['/free', true]]);

  const cm = attrs('', 'v1', 'configmaps', { object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } });
  await assert.rejects(dispatchValidating(webhooks('s', [{ name: 'v2-only', admissionReviewVersions: ['v2'] }]), cm, deps),
    (e: StatusError) => e.code === 500 && e.message === 'Internal error occurred: failed calling webhook "v2-only": could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)');
  await dispatchValidating(webhooks('s', [{ name: 'v2-only', admissionReviewVersions: ['v2'], failurePolicy: 'Ignore' }]), cm, deps);
  assert.equal(hook.reviews.length, 1);
});

const annotationsOf = (a: AdmissionAttributes) => Object.fromEntries([...(a.auditAnnotations ?? [])].map(([k, v]) => [k, `${v.level} ${v.value}`]));

test('audit annotations: every mutating call by round and index, its patch at Request level, calls that failed open, webhooks\' own annotations', async () => {
  hook.answer = (review, path) => {
    const name = path.slice(1, path.indexOf('?'));
    if (name === 'labeller') return { allowed: true, auditAnnotations: { 'labelled-by': 'labeller', 'bad key': 'dropped' }, ...(labelsOf(review).again ? {} : jsonPatch([{ path: '/metadata/labels', op: 'add', value: { ...labelsOf(review), again: '<yes>' } }])) };
    if (name === 'down') return { raw: { status: 500, body: 'down', contentType: 'text/plain' } };
    return { allowed: true };
  };
  const hooks = [
    ...webhooks('a-config', [{ name: 'quiet', reinvocationPolicy: 'IfNeeded' }, { name: 'down', failurePolicy: 'Ignore' }]),
    ...webhooks('b-config', [{ name: 'labeller' }]),
  ];
  const a = attrs('', 'v1', 'configmaps', { object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } });
  await dispatchMutating(hooks, a, deps);
  assert.deepEqual(annotationsOf(a), {
    'mutation.webhook.admission.svc.io/round_0_index_0': 'Metadata {"configuration":"a-config","webhook":"quiet","mutated":false}',
    'mutation.webhook.admission.svc.io/round_0_index_1': 'Metadata {"configuration":"a-config","webhook":"down","mutated":false}',
    'failed-open.mutation.webhook.admission.svc.io/round_0_index_1': 'Metadata down',
    'labeller/labelled-by': 'Metadata labeller',
    // Go marshals each operation as a map: keys sorted, and < > & escaped.
    'patch.webhook.admission.svc.io/round_0_index_2': 'Request {"configuration":"b-config","webhook":"labeller","patch":[{"op":"add","path":"/metadata/labels","value":{"again":"\\u003cyes\\u003e"}}],"patchType":"JSONPatch"}',
    'mutation.webhook.admission.svc.io/round_0_index_2': 'Metadata {"configuration":"b-config","webhook":"labeller","mutated":true}',
    // Called again because a later webhook changed the object; keeps its index.
    'mutation.webhook.admission.svc.io/round_1_index_0': 'Metadata {"configuration":"a-config","webhook":"quiet","mutated":false}',
  });

  // Validating: a call that failed open is numbered among the webhooks called.
  const v = attrs('', 'v1', 'configmaps', { object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } });
  await dispatchValidating(webhooks('v', [{ name: 'quiet' }, { name: 'skipped', objectSelector: { matchLabels: { never: 'x' } } }, { name: 'down', failurePolicy: 'Ignore' }]), v, deps);
  assert.deepEqual(annotationsOf(v), { 'failed-open.validating.webhook.admission.svc.io/round_0_index_1': 'Metadata down' });
});
