import { it } from 'node:test';
import assert from 'node:assert/strict';
import { undeclaredFields, undeclaredFieldsMessage } from './undeclared-fields.ts';
import { WIDGET } from './widget.fixture.ts';

it('names each undeclared field by its structured-merge path; maps, free-form values and declared fields pass', () => {
  assert.deepEqual(undeclaredFields({
    apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name: 'w', labels: { any: 'key' } },
    spec: { options: { k: 'v' }, config: { deep: { x: 1 } }, containers: [{ name: 'a', ports: [{ containerPort: 80, extra: 1 }] }] },
    data: { k: 'v' },
  }, WIDGET), ['.spec.containers[name="a"].ports[containerPort=80,protocol="TCP"].extra: field not declared in schema']);
});

it('stops a struct at its first undeclared field, goes on in other structs, and names atomic list items by index', () => {
  const errs = undeclaredFields({ metadata: { bogus: 1, other: 2 }, spec: { tags: ['x'], selector: { matchExpressions: [{ key: 'k', nope: 1 }] } } }, WIDGET);
  assert.deepEqual(errs, ['.metadata.bogus: field not declared in schema', '.spec.selector.matchExpressions[0].nope: field not declared in schema']);
  assert.equal(undeclaredFieldsMessage(errs), 'errors:\n  .metadata.bogus: field not declared in schema\n  .spec.selector.matchExpressions[0].nope: field not declared in schema');
  assert.equal(undeclaredFieldsMessage(errs.slice(0, 1)), '.metadata.bogus: field not declared in schema');
});

it('leaves list items without their key to the merge, which names that error itself', () => {
  assert.deepEqual(undeclaredFields({ spec: { containers: [{ image: 'i', bogus: 1 }] } }, WIDGET), []);
});
