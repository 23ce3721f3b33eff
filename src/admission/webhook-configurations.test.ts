import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { compileConfiguration, WebhookConfigurations } from './webhook-configurations.ts';
import { mutatingWebhookConfigurationKind } from '../apis/admissionregistration/mutatingwebhookconfiguration.ts';
import { ResourceStore } from '../registry/store.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { requestContext } from '../apis/kind-harness.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { renamedGroupOf } from '../server/group-alias.ts';

const storage = SqliteStorage.open(':memory:');
const store = new ResourceStore(mutatingWebhookConfigurationKind, storage);
before(() => store.cache.start());
after(async () => { store.cache.stop(); await storage.close(); });

const hook = (name: string, extra: Record<string, unknown> = {}) => ({
  name, clientConfig: { url: 'https://127.0.0.1:1/' }, sideEffects: 'None', admissionReviewVersions: ['v1'],
  rules: [{ operations: ['CREATE'], apiGroups: ['rbac.authorization.k8s.io', 'apps'], apiVersions: ['v1'], resources: ['*'] }], ...extra,
});
const config = (name: string, webhooks: unknown[]): ApiObject => ({ apiVersion: 'admissionregistration.svc.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name }, webhooks });
const servedGroup = (g: string) => renamedGroupOf(g) ?? g;
const settle = async () => { await store.cache.waitFor(await storage.currentRevision(), 1000); };

test('compiling: defaults, Kubernetes group names read as the served ones, selectors parsed or their error kept', () => {
  const [a, b] = compileConfiguration(config('c', [hook('a.example.com'), hook('b.example.com', {
    failurePolicy: 'Ignore', matchPolicy: 'Exact', timeoutSeconds: 3, reinvocationPolicy: 'IfNeeded',
    objectSelector: { matchExpressions: [{ key: 'k', operator: 'Bogus' }] }, namespaceSelector: { matchLabels: { team: 'x' } },
  })]), servedGroup);
  assert.deepEqual([a!.uid, a!.failurePolicy, a!.matchPolicy, a!.timeoutSeconds, a!.reinvocationPolicy], ['c/a.example.com/0', 'Fail', 'Equivalent', 10, 'Never']);
  assert.deepEqual(a!.rules[0]!.apiGroups, ['rbac.authorization.svc.io', 'apps']);
  assert.equal(a!.rules[0]!.scope, '*');
  assert.deepEqual([b!.uid, b!.failurePolicy, b!.matchPolicy, b!.timeoutSeconds, b!.reinvocationPolicy], ['c/b.example.com/1', 'Ignore', 'Exact', 3, 'IfNeeded']);
  assert.ok(b!.objectSelector instanceof Error);
  assert.ok(!(b!.namespaceSelector instanceof Error) && b!.namespaceSelector.matches({ team: 'x' }));
});

test('the cache is read on each call: configurations in name order, recompiled only when one changes', async () => {
  const source = new WebhookConfigurations(() => store, servedGroup);
  assert.equal(source.any, false);
  assert.deepEqual(source.webhooks(), []);
  const opts = { ctx: requestContext(), dryRun: false };
  await store.create('', config('zz', [hook('z.example.com')]), opts);
  await store.create('', config('aa', [hook('a1.example.com'), hook('a2.example.com')]), opts);
  await settle();
  assert.equal(source.any, true);
  const first = source.webhooks();
  assert.deepEqual(first.map((h) => h.name), ['a1.example.com', 'a2.example.com', 'z.example.com']);
  assert.equal(source.webhooks(), first);
  await store.update('', () => config('zz', [hook('z2.example.com')]), { ...opts, subresource: '', allowCreate: false, name: 'zz' });
  await settle();
  assert.deepEqual(source.webhooks().map((h) => h.name), ['a1.example.com', 'a2.example.com', 'z2.example.com']);
  await store.delete('', 'aa', opts);
  await settle();
  assert.deepEqual(source.webhooks().map((h) => h.name), ['z2.example.com']);
});
