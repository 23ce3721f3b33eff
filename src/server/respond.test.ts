import { test } from 'node:test';
import assert from 'node:assert/strict';
import { warningHeader } from './respond.ts';

test('Warning headers: 299 with the quoted text, each text once, none for no warnings', () => {
  assert.deepEqual(warningHeader([]), {});
  assert.deepEqual(warningHeader(['unknown field "x"', 'b', 'unknown field "x"']), { warning: ['299 - "unknown field \\"x\\""', '299 - "b"'] });
});
