import { test } from 'node:test';
import assert from 'node:assert/strict';
import { patchedObjectInvalid, patchOperationFailed, tooManyPatchOperations } from './patch-errors.ts';

test('patch error statuses carry Kubernetes codes, reasons and messages', () => {
  const failed = patchOperationFailed('testing value /a failed: test failed').toStatus();
  assert.deepEqual(failed, {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 422, reason: 'Invalid',
    message: 'the server rejected our request due to an error in our request',
    details: { causes: [{ reason: 'UnexpectedServerResponse', message: 'testing value /a failed: test failed' }] },
  });
  assert.equal(tooManyPatchOperations(20000).code, 413);
  const invalid = patchedObjectInvalid({ spec: { x: 1 } }, 'strict decoding error: unknown field "spec.x"');
  assert.equal(invalid.code, 422);
  assert.equal(invalid.message, ' "" is invalid: patch: Invalid value: "{\\"spec\\":{\\"x\\":1}}": strict decoding error: unknown field "spec.x"');
});
