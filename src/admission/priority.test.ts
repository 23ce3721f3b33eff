import { test } from 'node:test';
import assert from 'node:assert/strict';
import { priorityAdmission, resolvePriorityClass } from './priority.ts';
import type { AdmissionAttributes } from './chain.ts';
import { podKind } from '../apis/core/pod.ts';
import { requestContext } from '../apis/kind-harness.ts';
import type { ServedResource } from '../server/apis.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { StatusError } from '../machinery/status.ts';

const plugin = priorityAdmission();
const pod = (spec: Record<string, unknown> = {}): ApiObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [], ...spec } });
const admit = (object: ApiObject, operation: AdmissionAttributes['operation'] = 'CREATE', oldObject?: ApiObject, subresource = '') => {
  const served = { def: podKind, store: { gr: { group: '', resource: 'pods' } } } as unknown as ServedResource;
  plugin.admit!({ operation, served, namespace: 'ns', name: 'p', object, oldObject, ctx: requestContext(subresource) });
  return object.spec as Record<string, unknown>;
};
const refused = (object: ApiObject, message: string) => assert.throws(() => admit(object), (err: unknown) => {
  assert.ok(err instanceof StatusError);
  assert.equal(err.code, 403);
  assert.equal(err.message, `pods "p" is forbidden: ${message}`);
  return true;
});

test('classes: none is priority 0, the system classes their values, all PreemptLowerPriority; others unknown', () => {
  assert.deepEqual(resolvePriorityClass(''), { priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
  assert.deepEqual(resolvePriorityClass('system-node-critical'), { priority: 2000001000, preemptionPolicy: 'PreemptLowerPriority' });
  assert.deepEqual(resolvePriorityClass('system-cluster-critical'), { priority: 2000000000, preemptionPolicy: 'PreemptLowerPriority' });
  assert.equal(resolvePriorityClass('high'), undefined);
});

test('on create the pod gets its priority and preemption policy; the same values stated are accepted', () => {
  assert.equal(plugin.name, 'Priority');
  let spec = admit(pod());
  assert.equal(spec.priority, 0);
  assert.equal(spec.preemptionPolicy, 'PreemptLowerPriority');
  assert.equal(spec.priorityClassName, undefined);
  spec = admit(pod({ priorityClassName: 'system-cluster-critical', priority: 2000000000, preemptionPolicy: 'PreemptLowerPriority' }));
  assert.equal(spec.priority, 2000000000);
});

test('an unknown class, another priority or another preemption policy is refused with a 403', () => {
  refused(pod({ priorityClassName: 'high' }), 'no PriorityClass with name high was found');
  refused(pod({ priority: 7 }), 'the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name');
  refused(pod({ priorityClassName: 'system-node-critical', priority: 0 }), 'the integer value of priority (0) must not be provided in pod spec; priority admission controller computed 2000001000 from the given PriorityClass name');
  refused(pod({ preemptionPolicy: 'Never' }), 'the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name');
});

test('on update an omitted priority and policy are kept from the stored pod; sub-resources are left alone', () => {
  const stored = pod({ priority: 2000000000, preemptionPolicy: 'PreemptLowerPriority', priorityClassName: 'system-cluster-critical' });
  const spec = admit(pod({ priorityClassName: 'system-cluster-critical' }), 'UPDATE', stored);
  assert.equal(spec.priority, 2000000000);
  assert.equal(spec.preemptionPolicy, 'PreemptLowerPriority');
  assert.equal(admit(pod({ priority: 9 }), 'UPDATE', stored).priority, 9);
  assert.equal(admit(pod(), 'CREATE', undefined, 'binding').priority, undefined);
});
