import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { validatingWebhookConfigurationKind as kind } from './validatingwebhookconfiguration.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

let n = 0;
const hook = (extra: Record<string, unknown> = {}) => ({
  name: 'policy.example.com',
  clientConfig: { url: 'https://policy.example.com/validate' },
  rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], scope: 'Namespaced' }],
  sideEffects: 'NoneOnDryRun',
  admissionReviewVersions: ['v1', 'v1beta1'],
  ...extra,
});
const config = (webhooks: unknown[]): ApiObject => ({ apiVersion: 'admissionregistration.svc.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: `vwc-${++n}` }, webhooks });
const causes = async (webhooks: unknown[]) => (await rejection(h.create(config(webhooks)))).causes;
type Hook = Record<string, any>;

test('declaration: cluster-scoped, api-extensions, no reinvocation policy, protobuf numbers of a validating webhook', () => {
  assert.equal(kind.plural, 'validatingwebhookconfigurations');
  assert.deepEqual(kind.categories, ['api-extensions']);
  const w = (kind.versions[0].schema as unknown as { properties: Record<string, any> }).properties.webhooks.items.properties;
  assert.equal(w.reinvocationPolicy, undefined);
  assert.deepEqual([w.objectSelector['x-proto'], w.matchConditions['x-proto']], [10, 11]);
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'Webhooks', 'Age']);
});

test('defaults: as for mutating webhooks, without a reinvocation policy', async () => {
  const obj = await h.create(config([hook()]));
  const w = (obj.webhooks as Hook[])[0];
  assert.deepEqual([w.failurePolicy, w.matchPolicy, w.timeoutSeconds, w.reinvocationPolicy], ['Fail', 'Equivalent', 10, undefined]);
  assert.deepEqual([w.namespaceSelector, w.objectSelector, w.rules[0].scope], [{}, {}, 'Namespaced']);
});

test('the same rules: sideEffects and admissionReviewVersions required, url or service', async () => {
  assert.deepEqual(await causes([hook({ sideEffects: undefined, admissionReviewVersions: undefined })]), [
    'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
    'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
  ]);
  assert.deepEqual(await causes([hook({ clientConfig: { service: { name: 's', namespace: 'n' }, url: 'https://x.example.com' } })]), ['webhooks[0].clientConfig: Required value: exactly one of url or service is required']);
  assert.deepEqual(await causes([hook({ timeoutSeconds: 45 })]), ['webhooks[0].timeoutSeconds: Invalid value: 45: the timeout value must be between 1 and 30 seconds']);
});
