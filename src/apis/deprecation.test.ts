import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deprecated, deprecationWarning } from './deprecation.ts';

test('a core version names only the version, as Kubernetes prints v1 ComponentStatus', () => {
  assert.equal(deprecationWarning({ group: '', version: 'v1', kind: 'ComponentStatus', deprecatedIn: '1.19' }), 'v1 ComponentStatus is deprecated in v1.19+');
});

test('removal release and replacement are appended when known', () => {
  const d = { group: 'batch', version: 'v1beta1', kind: 'CronJob', deprecatedIn: '1.21', removedIn: '1.25', replacement: { group: 'batch', version: 'v1', kind: 'CronJob' } };
  assert.equal(deprecationWarning(d), 'batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob');
  assert.deepEqual(deprecated(d), { warning: 'batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob', removedRelease: '1.25' });
});

test('a replacement without a removal release', () => {
  const d = { group: 'policy', version: 'v1beta1', kind: 'PodDisruptionBudget', deprecatedIn: '1.21', replacement: { group: 'policy', version: 'v1', kind: 'PodDisruptionBudget' } };
  assert.equal(deprecationWarning(d), 'policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+; use policy/v1 PodDisruptionBudget');
  assert.equal(deprecated(d).removedRelease, undefined);
});
