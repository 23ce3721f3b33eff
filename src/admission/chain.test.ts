import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdmissionChain, type AdmissionAttributes, type DynamicAdmission } from './chain.ts';
import { requestContext } from '../apis/kind-harness.ts';
import type { ServedResource } from '../server/apis.ts';

const attrs = (): AdmissionAttributes => ({ operation: 'CREATE', served: {} as ServedResource, namespace: 'ns', name: 'x', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }, ctx: requestContext() });

function recorder(configured: boolean) {
  const calls: string[] = [];
  const dynamic: DynamicAdmission = {
    get mutating() { return configured; },
    get validating() { return configured; },
    mutate: async () => { calls.push('webhooks mutate'); },
    validate: async () => { calls.push('webhooks validate'); },
  };
  const chain = new AdmissionChain([
    { name: 'a', admit: () => { calls.push('a admit'); }, validate: async () => { calls.push('a validate'); } },
    { name: 'b', admit: async () => { calls.push('b admit'); } },
  ], dynamic);
  return { calls, chain };
}

test('plugins mutate, then the mutating webhooks, then plugins validate; validating webhooks when the registry asks', async () => {
  const { calls, chain } = recorder(true);
  await chain.admit(attrs());
  assert.equal(chain.validates, true);
  await chain.validate(attrs());
  assert.deepEqual(calls, ['a admit', 'b admit', 'webhooks mutate', 'a validate', 'webhooks validate']);
});

test('with no webhook configured, the dynamic phases are skipped and validate has nothing to wait for', async () => {
  const { calls, chain } = recorder(false);
  await chain.admit(attrs());
  assert.equal(chain.validates, false);
  assert.equal(chain.validate(attrs()), undefined);
  assert.deepEqual(calls, ['a admit', 'b admit', 'a validate']);
  assert.equal(new AdmissionChain([]).validate(attrs()), undefined);
});
