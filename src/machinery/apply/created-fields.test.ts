// Creations worked out by shape record exactly what the full comparison records, over random objects of
// real kinds (the comparison runs when the creation carries an entry of its own, here an empty one).
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../apis/meta/v1.ts';
import { podKind } from '../../apis/core/pod.ts';
import { serviceKind } from '../../apis/core/service.ts';
import { configMapKind } from '../../apis/core/configmap.ts';
import { fieldManagerScope } from './kind-scope.ts';
import { recordUpdate } from './field-manager.ts';

let seed = 42;
const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)];
const maybe = (v: () => unknown) => { const r = rnd(); return r < 0.15 ? null : r < 0.2 ? undefined : r < 0.25 ? {} : v(); };
const map = () => Object.fromEntries(['a', 'b', 'c.d/e'].filter(() => rnd() < 0.5).map((k) => [k, pick(['1', '', 'v'])]));
const meta = () => ({
  name: pick(['x', 'y']), namespace: 'ns', uid: pick(['u1', 'u2']), creationTimestamp: pick(['2024-01-01T00:00:00Z', null, undefined]),
  ...(rnd() < 0.6 ? { labels: maybe(map) } : {}), ...(rnd() < 0.2 ? { finalizers: pick([['a/b'], ['a/b', 'a/b'], [], null]) } : {}),
});
const container = () => ({
  name: pick(['a', 'b', '']), image: pick(['x', undefined, null]),
  ...(rnd() < 0.4 ? { ports: pick([[{ containerPort: 80 }], [{ containerPort: 80, protocol: 'UDP' }, { containerPort: 80 }], [], null]) } : {}),
  ...(rnd() < 0.3 ? { args: pick([['a'], ['a', 'a'], []]) } : {}),
});
const makers: Array<[typeof podKind, () => Record<string, unknown>]> = [
  [configMapKind, () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(), ...(rnd() < 0.8 ? { data: maybe(map) } : {}) })],
  [podKind, () => ({ apiVersion: 'v1', kind: 'Pod', metadata: meta(), spec: maybe(() => ({ containers: maybe(() => Array.from({ length: Math.floor(rnd() * 3) }, container)) })), ...(rnd() < 0.3 ? { status: maybe(() => ({ phase: pick(['Running', null]) })) } : {}) })],
  [serviceKind, () => ({ apiVersion: 'v1', kind: 'Service', metadata: meta(), spec: maybe(() => ({ ports: maybe(() => pick([[{ port: 80 }], [{ port: 80 }, { port: 80 }], [{ name: 'x' }]])), selector: maybe(map) })) })],
];

it('a creation records by shape what the full comparison records', () => {
  const now = () => new Date('2024-05-01T10:00:00Z');
  for (let i = 0; i < 600; i++) {
    const [def, make] = pick(makers);
    const subresource = def === configMapKind || rnd() < 0.8 ? '' : 'status';
    const scope = { ...fieldManagerScope(def, 'v1', subresource), now };
    const obj = make() as ApiObject;
    const byShape = structuredClone(obj);
    recordUpdate(scope, undefined, byShape, 'm');
    const compared = structuredClone(obj);
    (compared.metadata as Record<string, unknown>).managedFields = [{ manager: 'other', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }];
    recordUpdate(scope, undefined, compared, 'm');
    assert.equal(JSON.stringify(byShape), JSON.stringify(compared), JSON.stringify(obj));
  }
});
