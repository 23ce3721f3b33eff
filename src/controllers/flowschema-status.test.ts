import { test } from 'node:test';
import assert from 'node:assert/strict';
import { danglingCondition, withDangling } from './flowschema-status.ts';

test('the Dangling condition: True when the priority level is missing, False when it exists, in Kubernetes\' words', () => {
  assert.deepEqual(danglingCondition('x', true), { type: 'Dangling', status: 'False', reason: 'Found', message: 'This FlowSchema references the PriorityLevelConfiguration object named "x" and it exists' });
  assert.deepEqual(danglingCondition('x', false), { type: 'Dangling', status: 'True', reason: 'NotFound', message: 'This FlowSchema references the PriorityLevelConfiguration object named "x" but there is no such object' });
});

test('a condition is written only when it changes, with the time of the change, beside the others', () => {
  const other = { type: 'Other', status: 'True', reason: 'R', message: 'm' };
  const first = withDangling({ status: { conditions: [other] } }, danglingCondition('x', false), 'T1')!;
  assert.deepEqual(first.conditions, [other, { ...danglingCondition('x', false), lastTransitionTime: 'T1' }]);
  assert.equal(withDangling({ status: first }, danglingCondition('x', false), 'T2'), undefined);
  const second = withDangling({ status: first }, danglingCondition('x', true), 'T3')!;
  assert.deepEqual(second.conditions, [other, { ...danglingCondition('x', true), lastTransitionTime: 'T3' }]);
  assert.deepEqual(withDangling({}, danglingCondition('y', true), 'T4')!.conditions, [{ ...danglingCondition('y', true), lastTransitionTime: 'T4' }]);
});
