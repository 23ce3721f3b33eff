import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../status.ts';
import { applyMergePatch, decodeMergePatch } from './merge-patch.ts';

test('RFC 7386 appendix A examples', () => {
  const cases: [unknown, unknown, unknown][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [target, patch, result] of cases) {
    const before = structuredClone(target);
    const patchBefore = structuredClone(patch);
    assert.deepEqual(applyMergePatch(target, patch), result, JSON.stringify([target, patch]));
    assert.deepEqual(target, before, 'target untouched');
    assert.deepEqual(patch, patchBefore, 'patch untouched');
  }
});

test('Kubernetes prunes nulls in new values, also inside lists, except where a non-object replaces an object', () => {
  assert.deepEqual(applyMergePatch({}, { a: [{ b: null, c: 1 }, null] }), { a: [{ c: 1 }, null] });
  assert.deepEqual(applyMergePatch({ a: 'x' }, { a: { b: null, c: { d: null } } }), { a: { c: {} } });
  assert.deepEqual(applyMergePatch({ a: { x: 1 } }, { a: [{ b: null }] }), { a: [{ b: null }] });
  assert.deepEqual(applyMergePatch({ a: null }, { a: { b: null, c: 1 } }), { a: { c: 1 } });
  assert.deepEqual(applyMergePatch({ a: 1 }, [{ x: null }, null]), [{}, null]);
});

test('typical object patches merge labels and replace lists', () => {
  const live = { metadata: { name: 'a', labels: { app: 'web', tier: 'fe' } }, spec: { replicas: 1, containers: [{ name: 'c', image: 'v1' }] } };
  const result = applyMergePatch(live, { metadata: { labels: { tier: null, env: 'prod' } }, spec: { containers: [{ name: 'c', image: 'v2' }] } });
  assert.deepEqual(result, { metadata: { name: 'a', labels: { app: 'web', env: 'prod' } }, spec: { replicas: 1, containers: [{ name: 'c', image: 'v2' }] } });
  const patch = { spec: { template: { a: [1] } } };
  const r1 = applyMergePatch({ spec: {} }, patch) as { spec: { template: { a: number[] } } };
  r1.spec.template.a.push(2);
  assert.deepEqual(patch, { spec: { template: { a: [1] } } });
});

test('a null or scalar patch is 400 Invalid JSON Patch', () => {
  for (const patch of [null, 'x', 5, true]) {
    assert.throws(() => applyMergePatch({ a: 1 }, patch), (e: unknown) => e instanceof StatusError && e.code === 400 && e.message === 'Invalid JSON Patch');
  }
});

function badRequest(body: string, fieldValidation: 'Strict' | 'Warn' | 'Ignore', message: string): void {
  assert.throws(() => decodeMergePatch(body, fieldValidation), (e: unknown) => {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 400);
    assert.equal(e.message, message, `${fieldValidation} ${body}`);
    return true;
  });
}

test('decoding a merge patch body', () => {
  assert.deepEqual(decodeMergePatch('{"a":{"b":1}}'), { patch: { a: { b: 1 } }, strictErrors: [] });
  assert.deepEqual(decodeMergePatch('[1]'), { patch: [1], strictErrors: [] });
  assert.deepEqual(decodeMergePatch('{"a":1,"a":2,"m":{"k":1,"k":2}}', 'Strict').strictErrors, ['duplicate field "a"', 'duplicate field "m.k"']);
  assert.deepEqual(decodeMergePatch('{"a":1,"a":2}', 'Ignore').strictErrors, []);
  badRequest('{x', 'Ignore', 'Invalid JSON Patch');
  badRequest('{x', 'Strict', "error decoding patch: invalid character 'x' looking for beginning of object key string");
  badRequest('null', 'Ignore', 'Invalid JSON Patch');
  badRequest('null', 'Strict', 'Invalid JSON Patch');
  badRequest('5', 'Ignore', 'Invalid JSON Patch');
  badRequest('5', 'Warn', 'error decoding patch: json: cannot unmarshal number into Go value of type map[string]interface {}');
  badRequest('[1]', 'Strict', 'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}');
});
