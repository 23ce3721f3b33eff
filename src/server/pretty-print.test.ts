import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPrettyPrint } from './pretty-print.ts';

test('the pretty parameter decides by strconv.ParseBool; a value it cannot parse means compact', () => {
  for (const v of ['1', 't', 'T', 'true', 'TRUE', 'True']) assert.equal(isPrettyPrint(`/api?pretty=${v}`, {}), true, v);
  for (const v of ['0', 'f', 'false', 'yes', 'on', 'tRUE']) assert.equal(isPrettyPrint(`/api?pretty=${v}`, { 'user-agent': 'curl/8.5.0' }), false, v);
});

test('without a pretty value, curl, Wget and browsers get indented JSON, other clients compact', () => {
  assert.equal(isPrettyPrint('/api/v1/namespaces', { 'user-agent': 'curl/8.5.0' }), true);
  assert.equal(isPrettyPrint('/api/v1/namespaces?pretty=', { 'user-agent': 'Wget/1.21' }), true);
  assert.equal(isPrettyPrint('/api', { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' }), true);
  assert.equal(isPrettyPrint('/api', { 'user-agent': 'kubectl/v1.32.0 (linux/amd64) kubernetes/abc' }), false);
  assert.equal(isPrettyPrint('/api', { 'user-agent': 'Mozilla/4.0' }), false);
  assert.equal(isPrettyPrint('/api', {}), false);
  assert.equal(isPrettyPrint(undefined, {}), false);
});
