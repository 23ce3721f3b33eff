import { it } from 'node:test';
import assert from 'node:assert/strict';
import { invalid } from './status.ts';

it('an Invalid message names a repeated error text once, its causes keep every error', () => {
  const reason = { type: 'FieldValueRequired' as const, field: 'reason', hasValue: false, detail: '' };
  const note = { type: 'FieldValueTooLong' as const, field: 'note', hasValue: false, detail: 'must have at most 1024 bytes' };
  const once = invalid('events.svc.io', 'Event', 'e', [reason, reason]);
  assert.equal(once.message, 'Event.events.svc.io "e" is invalid: reason: Required value');
  assert.equal(once.toStatus().details?.causes?.length, 2);
  const two = invalid('events.svc.io', 'Event', 'e', [reason, note, reason]);
  assert.equal(two.message, 'Event.events.svc.io "e" is invalid: [reason: Required value, note: Too long: must have at most 1024 bytes]');
  assert.equal(two.toStatus().details?.causes?.length, 3);
});
