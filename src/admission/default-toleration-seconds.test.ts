import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addDefaultTolerations, defaultTolerationSeconds } from './default-toleration-seconds.ts';
import type { AdmissionAttributes } from './chain.ts';
import { podKind } from '../apis/core/pod.ts';
import { configMapKind } from '../apis/core/configmap.ts';
import { requestContext } from '../apis/kind-harness.ts';
import type { ServedResource } from '../server/apis.ts';
import type { ApiObject } from '../apis/meta/v1.ts';

const NOT_READY = { key: 'node.platform.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const UNREACHABLE = { key: 'node.platform.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };

const tolerationsAfter = (tolerations?: Record<string, unknown>[]) => {
  const spec: { tolerations?: Record<string, unknown>[] } = tolerations ? { tolerations } : {};
  addDefaultTolerations(spec);
  return spec.tolerations;
};

test('a pod without tolerations gets both, not-ready first', () => {
  assert.deepEqual(tolerationsAfter(), [NOT_READY, UNREACHABLE]);
});

test('a toleration of the taint (or of every key, or every effect) counts; another effect does not', () => {
  assert.deepEqual(tolerationsAfter([{ key: 'node.platform.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }]),
    [{ key: 'node.platform.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }, UNREACHABLE]);
  assert.deepEqual(tolerationsAfter([{ operator: 'Exists' }]), [{ operator: 'Exists' }]);
  assert.deepEqual(tolerationsAfter([{ key: 'node.platform.io/unreachable', operator: 'Exists' }]), [{ key: 'node.platform.io/unreachable', operator: 'Exists' }, NOT_READY]);
  assert.deepEqual(tolerationsAfter([{ operator: 'Exists', effect: 'NoSchedule' }]), [{ operator: 'Exists', effect: 'NoSchedule' }, NOT_READY, UNREACHABLE]);
});

test('the plugin: pods on create and update, not their sub-resources, nor other kinds, nor deletes', () => {
  const plugin = defaultTolerationSeconds();
  assert.equal(plugin.name, 'DefaultTolerationSeconds');
  const run = (operation: AdmissionAttributes['operation'], def = podKind, subresource = '') => {
    const object: ApiObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [] } };
    plugin.admit!({ operation, served: { def } as unknown as ServedResource, namespace: 'ns', name: 'p', object, ctx: requestContext(subresource) });
    return (object.spec as { tolerations?: unknown[] }).tolerations;
  };
  assert.deepEqual(run('CREATE'), [NOT_READY, UNREACHABLE]);
  assert.deepEqual(run('UPDATE'), [NOT_READY, UNREACHABLE]);
  assert.equal(run('DELETE'), undefined);
  assert.equal(run('UPDATE', podKind, 'status'), undefined);
  assert.equal(run('CREATE', configMapKind), undefined);
});
