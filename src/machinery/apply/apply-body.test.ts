import { it } from 'node:test';
import assert from 'node:assert/strict';
import { checkDuplicateKeys, decodeApplyBody } from './apply-body.ts';
import { StatusError } from '../status.ts';

it('reads YAML and JSON bodies; a repeated key keeps its last value and is listed as yaml.v2 lists it', () => {
  assert.deepEqual(decodeApplyBody('{"kind":"ConfigMap","data":{"k":"v"}}'), { value: { kind: 'ConfigMap', data: { k: 'v' } }, duplicateKeys: [] });
  assert.deepEqual(decodeApplyBody('kind: ConfigMap\ndata:\n  k: a\n  k: b\n'), { value: { kind: 'ConfigMap', data: { k: 'b' } }, duplicateKeys: ['line 4: key "k" already set in map'] });
  assert.deepEqual(decodeApplyBody('{"data":{"k":"a",\n"k":"b"}}'), { value: { data: { k: 'b' } }, duplicateKeys: ['line 2: key "k" already set in map'] });
  assert.deepEqual(decodeApplyBody(''), { value: {}, duplicateKeys: [] });
  assert.throws(() => decodeApplyBody('[1]'), { code: 400, message: 'error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}' });
});

it('fails a repeated key under Strict, warns once per repeat under Warn, and says nothing under Ignore', () => {
  const body = decodeApplyBody('data:\n  k: a\n  k: b\n  j: a\n  j: b\n');
  assert.throws(() => checkDuplicateKeys(body, 'Strict', []), (e: unknown) => e instanceof StatusError && e.code === 400 && e.reason === 'BadRequest'
    && e.message === 'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 3: key "k" already set in map\n  line 5: key "j" already set in map');
  const warnings = ['earlier'];
  checkDuplicateKeys(body, 'Warn', warnings);
  checkDuplicateKeys(body, 'Warn', warnings);
  assert.deepEqual(warnings, ['earlier', 'line 3: key "k" already set in map', 'line 5: key "j" already set in map']);
  const none: string[] = [];
  checkDuplicateKeys(body, 'Ignore', none);
  checkDuplicateKeys(decodeApplyBody('a: 1'), 'Strict', none);
  assert.deepEqual(none, []);
});
