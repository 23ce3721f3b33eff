import { test } from 'node:test';
import assert from 'node:assert/strict';
import { warnWhenValid } from './warnings.ts';
import { apiServerContext } from './kind.ts';
import { required } from '../machinery/field-errors.ts';

test('warnings are added only when validation found nothing, and the errors are returned', () => {
  const ctx = apiServerContext();
  const errs = [required('spec')];
  assert.equal(warnWhenValid(errs, ctx, () => ['never']), errs);
  assert.deepEqual(ctx.warnings, []);
  assert.deepEqual(warnWhenValid([], ctx, () => ['once']), []);
  assert.deepEqual(ctx.warnings, ['once']);
});
