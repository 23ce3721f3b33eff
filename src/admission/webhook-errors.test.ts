import { test } from 'node:test';
import assert from 'node:assert/strict';
import { denied, dryRunUnsupported, failedClosed, WebhookCallError } from './webhook-errors.ts';

test('a denial: the webhook\'s code (at least 400), reason and details, its message prefixed', () => {
  const e = denied('deny.example.com', { code: 403, reason: 'Forbidden', message: 'no ConfigMaps today', details: { name: 'x', causes: [{ field: 'data', message: 'm' }] } });
  assert.deepEqual([e.code, e.reason, e.message], [403, 'Forbidden', 'admission webhook "deny.example.com" denied the request: no ConfigMaps today']);
  assert.deepEqual(e.details, { name: 'x', causes: [{ field: 'data', message: 'm' }] });
  const plain = denied('d.example.com', { message: 'nope' });
  assert.deepEqual([plain.code, plain.reason, plain.toStatus().reason], [400, '', undefined]);
  assert.equal(denied('d.example.com', { code: 200, reason: 'NotAllowed' }).message, 'admission webhook "d.example.com" denied the request: NotAllowed');
  assert.equal(denied('d.example.com', { code: 200, reason: 'NotAllowed' }).code, 400);
  assert.equal(denied('d.example.com', undefined).message, 'admission webhook "d.example.com" denied the request without explanation');
});

test('a failed call under failurePolicy Fail is an internal error; a dry run to a webhook with side effects a bad request', () => {
  const e = failedClosed(new WebhookCallError('w.example.com', 'failed to call webhook: boom'));
  assert.deepEqual([e.code, e.reason, e.message], [500, 'InternalError', 'Internal error occurred: failed calling webhook "w.example.com": failed to call webhook: boom']);
  assert.deepEqual(e.details?.causes, [{ message: 'failed calling webhook "w.example.com": failed to call webhook: boom' }]);
  const d = dryRunUnsupported('w.example.com');
  assert.deepEqual([d.code, d.reason, d.message], [400, 'BadRequest', 'admission webhook "w.example.com" does not support dry run']);
});
