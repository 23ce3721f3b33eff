import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { S } from '../../apis/meta/schema.ts';
import { ObjectMeta } from '../../apis/meta/v1.ts';
import { applyDefaults, hasDefaults } from './defaults.ts';

const Port = S.object({ port: S.int32(), protocol: S.string({ default: 'TCP' }) });
const Service = S.object({
  metadata: ObjectMeta,
  spec: S.object({
    type: S.string({ default: 'ClusterIP' }),
    sessionAffinity: S.string({ default: 'None' }),
    ports: S.list(Port),
    byName: S.map(Port),
    policy: S.object({ mode: S.string({ default: 'auto' }), limits: S.object({ max: S.int32({ default: 10 }) }) }),
    tags: S.list(S.string(), { default: ['a'] }),
    settings: S.object({ level: S.int32({ default: 1 }), inner: S.object({ flag: S.bool({ default: true }) }) }, { default: {} }),
  }),
});

test('absent fields of present objects get their defaults, recursively through lists and maps', () => {
  const obj = { spec: { type: 'NodePort', ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }], byName: { http: { port: 8080 } }, policy: {} } };
  applyDefaults(obj, Service);
  assert.deepEqual(obj, {
    spec: {
      type: 'NodePort',
      sessionAffinity: 'None',
      ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }],
      byName: { http: { port: 8080, protocol: 'TCP' } },
      policy: { mode: 'auto' },
      tags: ['a'],
      settings: { level: 1 },
    },
  });
});

test('an absent parent object is not created to hold a default', () => {
  const noSpec: Record<string, unknown> = { metadata: { name: 'x' } };
  assert.deepEqual(applyDefaults(noSpec, Service), { metadata: { name: 'x' } });
  const obj = { spec: { policy: { mode: 'm' } } };
  applyDefaults(obj, Service);
  assert.equal((obj.spec.policy as Record<string, unknown>).limits, undefined);
});

test('a defaulted object gets its own nested defaults, and every use gets a fresh copy', () => {
  const a: { spec: Record<string, unknown> } = { spec: { settings: { inner: {} } } };
  applyDefaults(a, Service);
  assert.deepEqual(a.spec.settings, { level: 1, inner: { flag: true } });
  const b: { spec: Record<string, unknown> } = { spec: {} };
  const c: { spec: Record<string, unknown> } = { spec: {} };
  applyDefaults(b, Service);
  applyDefaults(c, Service);
  assert.notEqual(b.spec.tags, c.spec.tags);
  assert.notEqual(b.spec.settings, c.spec.settings);
  (b.spec.tags as string[]).push('mutated');
  assert.deepEqual(c.spec.tags, ['a']);
  const d: { spec: Record<string, unknown> } = { spec: {} };
  applyDefaults(d, Service);
  assert.deepEqual(d.spec.tags, ['a']);
});

test('null counts as absent; present values are kept', () => {
  const obj = { spec: { type: null, sessionAffinity: '' } };
  applyDefaults(obj, Service);
  assert.equal(obj.spec.type, 'ClusterIP');
  assert.equal(obj.spec.sessionAffinity, '');
});

test('schemas without defaults are recognised, and recursive schemas terminate', () => {
  assert.equal(hasDefaults(ObjectMeta), false);
  assert.equal(hasDefaults(Service), true);
  const Tree = Type.Recursive((Self) => S.object({ kind: S.string({ default: 'leaf' }), children: S.list(Self) }), { $id: 'Tree' });
  const t = { children: [{ children: [{}] }] };
  applyDefaults(t, Tree);
  assert.deepEqual(t, { kind: 'leaf', children: [{ kind: 'leaf', children: [{ kind: 'leaf' }] }] });
});
