import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { S } from '../apis/meta/schema.ts';
import { allKinds } from '../apis/index.ts';
import { zeroIsUnset, zeroIsUnsetFields } from './go-zero-values.ts';
import { normalizeAsGoEncodes } from './go-encoding.ts';

function storageSchema(group: string, kind: string) {
  const k = allKinds().find((x) => x.group === group && x.kind === kind)!;
  return (k.storedAs?.schema ?? k.versions.find((v) => v.name === 'v1')?.schema ?? k.versions[0].schema);
}

test('the table: non-pointer omitempty fields by definition name; pointers and unknown types are not in it', () => {
  assert.equal(zeroIsUnset('apps.v1.DeploymentSpec', 'paused'), true);
  assert.equal(zeroIsUnset('apps.v1.DeploymentSpec', 'minReadySeconds'), true);
  assert.equal(zeroIsUnset('apps.v1.DeploymentSpec', 'replicas'), false, 'a *int32');
  assert.equal(zeroIsUnset('apps.v1.DeploymentSpec', 'progressDeadlineSeconds'), false, 'a *int32');
  assert.equal(zeroIsUnset(undefined, 'paused'), false);
  assert.deepEqual(zeroIsUnsetFields('no.such.Type'), []);
  assert.deepEqual(zeroIsUnsetFields(undefined), []);
});

test('Deployment: zeros of non-pointer omitempty fields go at every depth; pointer zeros and non-zeros stay', () => {
  const d = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', generation: 0 },
    spec: {
      replicas: 0, paused: false, minReadySeconds: 0, revisionHistoryLimit: 0, progressDeadlineSeconds: 600,
      template: {
        spec: {
          hostNetwork: false, hostPID: true, terminationGracePeriodSeconds: 0,
          containers: [
            { name: 'a', stdin: false, tty: true, ports: [{ containerPort: 80, hostPort: 0 }], livenessProbe: { timeoutSeconds: 0, periodSeconds: 5 } },
            { name: 'b', stdinOnce: false, volumeMounts: [{ name: 'v', mountPath: '/v', readOnly: false }] },
          ],
          initContainers: [{ name: 'i', tty: false }],
        },
      },
    },
    status: { replicas: 0, readyReplicas: 2, observedGeneration: 0, collisionCount: 0 },
  };
  normalizeAsGoEncodes(d, storageSchema('apps', 'Deployment'));
  assert.deepEqual(d, {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
    spec: {
      replicas: 0, revisionHistoryLimit: 0, progressDeadlineSeconds: 600,
      template: {
        spec: {
          hostPID: true, terminationGracePeriodSeconds: 0,
          containers: [
            { name: 'a', tty: true, ports: [{ containerPort: 80 }], livenessProbe: { periodSeconds: 5 } },
            { name: 'b', volumeMounts: [{ name: 'v', mountPath: '/v' }] },
          ],
          initContainers: [{ name: 'i' }],
        },
      },
    },
    status: { readyReplicas: 2, collisionCount: 0 },
  });
});

test('only 0 and false go: null, strings and wrongly typed values are left for validation', () => {
  const d = { spec: { paused: 'false', minReadySeconds: null, template: { spec: { hostNetwork: 0, hostPID: false, containers: 'x' } } } };
  normalizeAsGoEncodes(d, storageSchema('apps', 'Deployment'));
  assert.deepEqual(d, { spec: { paused: 'false', minReadySeconds: null, template: { spec: { hostNetwork: 0, containers: 'x' } } } });
  const numbers = { spec: { minReadySeconds: false } };
  normalizeAsGoEncodes(numbers, storageSchema('apps', 'Deployment'));
  assert.deepEqual(numbers, { spec: { minReadySeconds: false } });
  assert.equal(normalizeAsGoEncodes(null, storageSchema('apps', 'Deployment')), null);
});

test('Service and Event: node ports, publishNotReadyAddresses and count', () => {
  const svc = { spec: { publishNotReadyAddresses: false, healthCheckNodePort: 0, ports: [{ port: 80, nodePort: 0, targetPort: 0 }] } };
  normalizeAsGoEncodes(svc, storageSchema('', 'Service'));
  assert.deepEqual(svc, { spec: { ports: [{ port: 80, targetPort: 0 }] } });
  const ev = { involvedObject: {}, count: 0, reason: 'R' };
  normalizeAsGoEncodes(ev, storageSchema('', 'Event'));
  assert.deepEqual(ev, { involvedObject: {}, reason: 'R' });
});

test('schemas without a listed type (custom resources, ConfigMaps) are left as they are', () => {
  const cr = S.object({ spec: S.object({ paused: S.bool(), n: S.int32() }) });
  const obj = { spec: { paused: false, n: 0 } };
  normalizeAsGoEncodes(obj, cr);
  assert.deepEqual(obj, { spec: { paused: false, n: 0 } });
  const cm = { data: { a: '' }, immutable: false };
  normalizeAsGoEncodes(cm, storageSchema('', 'ConfigMap'));
  assert.deepEqual(cm, { data: { a: '' }, immutable: false });
});

test('maps of typed values and recursive schemas are walked', () => {
  const probe = S.object({ timeoutSeconds: S.int32(), periodSeconds: S.int32() }, { ref: 'core.v1.Probe' });
  const withMap = S.object({ probes: Type.Record(Type.String(), probe) });
  const m = { probes: { a: { timeoutSeconds: 0, periodSeconds: 1 } } };
  normalizeAsGoEncodes(m, withMap);
  assert.deepEqual(m, { probes: { a: { periodSeconds: 1 } } });

  const tree = Type.Recursive((self) => S.object({ tty: S.bool(), children: Type.Array(self) }, { ref: 'core.v1.Container' }));
  const t = { tty: false, children: [{ tty: true, children: [{ tty: false }] }] };
  normalizeAsGoEncodes(t, tree);
  assert.deepEqual(t, { children: [{ tty: true, children: [{}] }] });
});
