import { it } from 'node:test';
import assert from 'node:assert/strict';
import { S } from '../../apis/meta/schema.ts';
import { typingErrors, typingErrorsMessage } from './body-typing.ts';
import { rootType } from './schema-view.ts';
import { WIDGET } from './widget.fixture.ts';

it('names each undeclared field by its structured-merge path; maps, free-form values and declared fields pass', () => {
  assert.deepEqual(typingErrors({
    apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name: 'w', labels: { any: 'key' } },
    spec: { options: { k: 'v' }, config: { deep: { x: 1 } }, containers: [{ name: 'a', ports: [{ containerPort: 80, extra: 1 }] }] },
    data: { k: 'v' },
  }, WIDGET), ['.spec.containers[name="a"].ports[containerPort=80,protocol="TCP"].extra: field not declared in schema']);
});

it('stops a struct at its first undeclared field, goes on in other structs, and names atomic list items by index', () => {
  const errs = typingErrors({ metadata: { bogus: 1, other: 2 }, spec: { tags: ['x'], selector: { matchExpressions: [{ key: 'k', nope: 1 }] } } }, WIDGET);
  assert.deepEqual(errs, ['.metadata.bogus: field not declared in schema', '.spec.selector.matchExpressions[0].nope: field not declared in schema']);
  assert.equal(typingErrorsMessage(errs), 'errors:\n  .metadata.bogus: field not declared in schema\n  .spec.selector.matchExpressions[0].nope: field not declared in schema');
  assert.equal(typingErrorsMessage(errs.slice(0, 1)), '.metadata.bogus: field not declared in schema');
});

it('stops a keyed list at an item it cannot name, and reports a second item with one key', () => {
  assert.deepEqual(typingErrors({ spec: { containers: [{ name: 'a', bogus: 1 }, { image: 'i' }, { name: 'b', bogus: 1 }] } }, WIDGET), [
    '.spec.containers[name="a"].bogus: field not declared in schema',
    '.spec.containers: element 1: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
  ]);
  assert.deepEqual(typingErrors({ spec: { containers: [{ name: 'a' }, 'x'] } }, WIDGET), ['.spec.containers: element 1: associative list with keys may not have non-map elements']);
  assert.deepEqual(typingErrors({ spec: { tags: ['x', null] } }, WIDGET), [".spec.tags: element 1: associative list without keys has an element that's an explicit null"]);
  assert.deepEqual(typingErrors({ spec: { containers: [{ name: 'a' }, { name: 'a', replicas: 1 }], tags: ['x', 'x'] } }, WIDGET), [
    '.spec.containers: duplicate entries for key [name="a"]',
    '.spec.containers[name="a"].replicas: field not declared in schema',
    '.spec.tags: duplicate entries for key [="x"]',
  ]);
});

it('prints a scalar of the wrong type as structured merge prints the decoded Go value', () => {
  assert.deepEqual(typingErrors({ spec: { replicas: 'x' } }, WIDGET), ['.spec.replicas: expected numeric (int or float), got string']);
  assert.deepEqual(typingErrors({ spec: { replicas: true, args: [1, 2.5, true, 1e6] } }, WIDGET), [
    '.spec.replicas: expected numeric (int or float), got bool',
    '.spec.args[0]: expected string, got &value.valueUnstructured{Value:1}',
    '.spec.args[1]: expected string, got &value.valueUnstructured{Value:2.5}',
    '.spec.args[2]: expected string, got &value.valueUnstructured{Value:true}',
    '.spec.args[3]: expected string, got &value.valueUnstructured{Value:1e+06}',
  ]);
  assert.deepEqual(typingErrors({ spec: { replicas: { a: 1 }, options: { k: ['x', null] } } }, WIDGET), [
    '.spec.replicas: expected numeric (int or float), got map[string]interface {}',
    '.spec.options.k: expected string, got &value.valueUnstructured{Value:[]interface {}{"x", interface {}(nil)}}',
  ]);
  assert.deepEqual(typingErrors({ data: { k: { b: 'q"', a: 1 } } }, WIDGET), ['.data.k: expected string, got &value.valueUnstructured{Value:map[string]interface {}{"a":1, "b":"q\\""}}']);
});

it('prints a map or list of the wrong shape with %v, and lets null through everywhere', () => {
  assert.deepEqual(typingErrors({ spec: 'x', status: ['a', 1] }, WIDGET), ['.spec: expected map, got &{x}', '.status: expected map, got &{[a 1]}']);
  assert.deepEqual(typingErrors({ spec: { containers: { name: 'a' }, options: 5, args: 'a b' } }, WIDGET), [
    '.spec.containers: expected list, got &{map[name:a]}',
    '.spec.options: expected map, got &{5}',
    '.spec.args: expected list, got &{a b}',
  ]);
  assert.deepEqual(typingErrors({ spec: { replicas: null, containers: null, options: { k: null }, args: [null] }, status: null }, WIDGET), []);
});

it('types int-or-string, quantities and times as any scalar, and free-form values as anything', () => {
  const t = rootType(S.object({
    port: S.intOrString(), size: S.quantity(), at: S.time(), ok: S.bool(), free: S.any(),
    crd: { 'x-platform-int-or-string': true } as never,
  }));
  assert.deepEqual(typingErrors({ port: 'http', size: 1.5, at: 3, ok: true, free: { a: [1] }, crd: { a: 1 } }, t), []);
  assert.deepEqual(typingErrors({ port: 80, size: '1Gi', at: true, crd: [1] }, t), []);
  assert.deepEqual(typingErrors({ port: { a: 1 }, size: [1, 'x'], at: {}, ok: 'yes' }, t), [
    '.port: expected any scalar, got &{map[a:1]}',
    '.size: expected any scalar, got &{[1 x]}',
    '.at: expected any scalar, got &{map[]}',
    '.ok: expected boolean, got &{yes}',
  ]);
});
