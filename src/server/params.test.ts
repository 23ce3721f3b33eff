import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBool, parseInt64, parseQuery, validateWriteOptions } from './params.ts';
import { StatusError } from '../machinery/status.ts';

const q = (s: string) => new URLSearchParams(s);

function refusal(fn: () => unknown): { code: number; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return { code: err.code, message: err.message };
    throw err;
  }
  assert.fail('accepted');
}

test('booleans: only 0, f and false (any case) are false; nothing is refused', () => {
  for (const v of ['0', 'f', 'F', 'false', 'FALSE', 'False']) assert.equal(parseBool(v), false, v);
  for (const v of ['', '1', 't', 'true', 'yes', 'no', 'x']) assert.equal(parseBool(v), true, v);
});

test('integers: strconv.ParseInt texts', () => {
  assert.equal(parseInt64('42'), 42);
  assert.equal(parseInt64('+7'), 7);
  assert.equal(parseInt64('-3'), -3);
  assert.deepEqual(refusal(() => parseInt64('1.5')), { code: 400, message: 'strconv.ParseInt: parsing "1.5": invalid syntax' });
  assert.deepEqual(refusal(() => parseInt64(' 1')), { code: 400, message: 'strconv.ParseInt: parsing " 1": invalid syntax' });
  assert.deepEqual(refusal(() => parseInt64('9223372036854775808')), { code: 400, message: 'strconv.ParseInt: parsing "9223372036854775808": value out of range' });
  assert.equal(parseInt64('-9223372036854775808'), -9223372036854775808);
});

test('defaults', () => {
  const p = parseQuery(q(''), 'create');
  assert.equal(p.fieldValidation, 'Warn');
  assert.equal(p.dryRun, false);
  assert.equal(p.includeObject, 'Metadata');
  assert.equal(parseQuery(q('fieldValidation='), 'create').fieldValidation, 'Warn');
});

test('each verb reads its own parameters and ignores the others', () => {
  const all = q('limit=x&timeoutSeconds=y&gracePeriodSeconds=z&fieldValidation=bad&propagationPolicy=bad&dryRun=bad&resourceVersionMatch=bad&includeObject=bad');
  assert.equal(refusal(() => parseQuery(all, 'create')).message, 'CreateOptions.meta.svc.io "" is invalid: dryRun: Unsupported value: []string{"bad"}: supported values: "All"');
  const create = parseQuery(q('limit=x&timeoutSeconds=y&gracePeriodSeconds=z&propagationPolicy=bad&watch=1&fieldValidation=Strict'), 'create');
  assert.equal(create.fieldValidation, 'Strict');
  assert.equal(create.limit, undefined);
  assert.equal(create.watch, false);
  const del = parseQuery(q('fieldValidation=bad&fieldManager=%07&force=1&gracePeriodSeconds=5&propagationPolicy=Orphan'), 'delete');
  assert.equal(del.fieldValidation, 'Warn');
  assert.equal(del.fieldManager, undefined);
  assert.equal(del.force, undefined);
  assert.equal(del.gracePeriodSeconds, 5);
  assert.equal(del.propagationPolicy, 'Orphan');
  const dc = parseQuery(q('limit=3&labelSelector=a%3Db&gracePeriodSeconds=1&dryRun=All'), 'deletecollection');
  assert.equal(dc.limit, 3);
  assert.equal(dc.labelSelector, 'a=b');
  assert.equal(dc.dryRun, true);
  assert.equal(parseQuery(q('force=false'), 'patch').force, false);
  assert.equal(parseQuery(q('resourceVersion=5&limit=2'), 'get').resourceVersion, '5');
});

test('unknown values of enumerated options are 422 for the verb\'s options kind, with the allowed values', () => {
  assert.deepEqual(refusal(() => parseQuery(q('fieldValidation=strict'), 'update')), { code: 422, message: 'UpdateOptions.meta.svc.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"' });
  assert.deepEqual(refusal(() => parseQuery(q('dryRun=All&dryRun=x'), 'patch')), { code: 422, message: 'PatchOptions.meta.svc.io "" is invalid: dryRun: Unsupported value: []string{"All", "x"}: supported values: "All"' });
  assert.deepEqual(refusal(() => parseQuery(q('propagationPolicy=nil'), 'delete')), { code: 422, message: 'DeleteOptions.meta.svc.io "" is invalid: propagationPolicy: Unsupported value: "nil": supported values: "Foreground", "Background", "Orphan", "nil"' });
  assert.equal(refusal(() => parseQuery(q('dryRun=x'), 'create')).message, 'CreateOptions.meta.svc.io "" is invalid: dryRun: Unsupported value: []string{"x"}: supported values: "All"');
  assert.equal(refusal(() => parseQuery(q('dryRun=x'), 'deletecollection')).code, 422);
  assert.deepEqual(refusal(() => parseQuery(q('resourceVersionMatch=exact'), 'deletecollection')), { code: 400, message: 'resourceVersionMatch: Unsupported value: "exact": supported values: "Exact", "NotOlderThan"' });
  // A list or watch passes it on to its ListOptions validation (a 422 naming the empty value too).
  assert.equal(parseQuery(q('resourceVersionMatch=exact'), 'list').resourceVersionMatch, 'exact');
  assert.equal(parseQuery(q('resourceVersionMatch=exact'), 'watch').resourceVersionMatch, 'exact');
  assert.equal(refusal(() => parseQuery(q('includeObject=all'), 'get')).code, 400);
  assert.equal(refusal(() => parseQuery(q('limit=1e2'), 'list')).message, 'strconv.ParseInt: parsing "1e2": invalid syntax');
});

test('write options: fieldManager length and printability, force only for apply, fieldManager required for apply', () => {
  const opts = (s: string) => parseQuery(q(s), 'patch');
  validateWriteOptions('PatchOptions', opts(`fieldManager=${'a'.repeat(128)}`));
  assert.deepEqual(refusal(() => validateWriteOptions('CreateOptions', opts(`fieldManager=${'a'.repeat(129)}`))),
    { code: 422, message: 'CreateOptions.meta.svc.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes' });
  assert.deepEqual(refusal(() => validateWriteOptions('UpdateOptions', opts('fieldManager=%7F'))),
    { code: 422, message: 'UpdateOptions.meta.svc.io "" is invalid: fieldManager: Invalid value: "\x7f": invalid character U+007F (at position 0)' });
  assert.deepEqual(refusal(() => validateWriteOptions('PatchOptions', opts('force=false'), { apply: false })),
    { code: 422, message: 'PatchOptions.meta.svc.io "" is invalid: force: Forbidden: may not be specified for non-apply patch' });
  assert.deepEqual(refusal(() => validateWriteOptions('PatchOptions', opts('force=true'), { apply: true })),
    { code: 422, message: 'PatchOptions.meta.svc.io "" is invalid: fieldManager: Required value: is required for apply patch' });
  validateWriteOptions('PatchOptions', opts('force=true&fieldManager=me'), { apply: true });
});
