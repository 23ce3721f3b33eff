import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../status.ts';
import { applyJsonPatch, decodeJsonPatch } from './json-patch.ts';

const doc = () => ({
  metadata: { name: 'a', labels: { app: 'web', 'x/y': '1', 'a~b': '2' } },
  spec: { replicas: 1, list: ['a', 'b', 'c'], items: [{ n: 1 }, { n: 2 }], nothing: null as unknown },
});

test('operations apply as Kubernetes applies them', () => {
  const cases: [string, unknown[], (d: ReturnType<typeof doc>) => void][] = [
    ['add a key', [{ op: 'add', path: '/metadata/labels/tier', value: 'db' }], (d) => { (d.metadata.labels as Record<string, string>).tier = 'db'; }],
    ['add replaces an existing key', [{ op: 'add', path: '/spec/replicas', value: 3 }], (d) => { d.spec.replicas = 3; }],
    ['add inserts into a list', [{ op: 'add', path: '/spec/list/1', value: 'x' }], (d) => { d.spec.list.splice(1, 0, 'x'); }],
    ['add appends with -', [{ op: 'add', path: '/spec/list/-', value: 'z' }], (d) => { d.spec.list.push('z'); }],
    ['add at the end index', [{ op: 'add', path: '/spec/list/3', value: 'z' }], (d) => { d.spec.list.push('z'); }],
    ['negative index counts from the end', [{ op: 'add', path: '/spec/list/-1', value: 'z' }], (d) => { d.spec.list.push('z'); }],
    ['add without value writes null', [{ op: 'add', path: '/spec/empty' }], (d) => { (d.spec as Record<string, unknown>).empty = null; }],
    ['escaped tokens', [{ op: 'replace', path: '/metadata/labels/x~1y', value: '9' }, { op: 'remove', path: '/metadata/labels/a~0b' }], (d) => { d.metadata.labels['x/y'] = '9'; delete (d.metadata.labels as Record<string, string>)['a~b']; }],
    ['remove a key', [{ op: 'remove', path: '/metadata/labels/app' }], (d) => { delete (d.metadata.labels as Record<string, string>).app; }],
    ['remove a list item', [{ op: 'remove', path: '/spec/items/0' }], (d) => { d.spec.items.shift(); }],
    ['remove with a negative index', [{ op: 'remove', path: '/spec/list/-1' }], (d) => { d.spec.list.pop(); }],
    ['replace of a missing object key adds it', [{ op: 'replace', path: '/spec/paused', value: true }], (d) => { (d.spec as Record<string, unknown>).paused = true; }],
    ['replace a list item', [{ op: 'replace', path: '/spec/items/1/n', value: 5 }], (d) => { d.spec.items[1].n = 5; }],
    ['replace the whole document', [{ op: 'replace', path: '', value: { x: 1 } }], (d) => { for (const k of Object.keys(d)) delete (d as Record<string, unknown>)[k]; (d as Record<string, unknown>).x = 1; }],
    ['move', [{ op: 'move', from: '/metadata/labels/app', path: '/metadata/labels/role' }], (d) => { const l = d.metadata.labels as Record<string, string>; delete l.app; l.role = 'web'; }],
    ['copy', [{ op: 'copy', from: '/spec/items/0', path: '/spec/items/-' }], (d) => { d.spec.items.push({ n: 1 }); }],
    ['copy of a missing key writes null', [{ op: 'copy', from: '/spec/absent', path: '/spec/copied' }], (d) => { (d.spec as Record<string, unknown>).copied = null; }],
    ['test that passes', [{ op: 'test', path: '/spec/items/1', value: { n: 2 } }, { op: 'test', path: '/metadata/name', value: 'a' }], () => {}],
    ['test of a missing path against null passes', [{ op: 'test', path: '/spec/absent', value: null }, { op: 'test', path: '/spec/nothing' }], () => {}],
    ['test of the whole document', [{ op: 'test', path: '', value: doc() }], () => {}],
    ['an empty patch', [], () => {}],
  ];
  for (const [name, ops, expect] of cases) {
    const input = doc();
    const want = doc();
    expect(want);
    assert.deepEqual(applyJsonPatch(input, JSON.stringify(ops)), want, name);
    assert.deepEqual(input, doc(), `${name}: input untouched`);
  }
  assert.deepEqual(applyJsonPatch(doc(), 'null'), doc());
});

test('patch values are copied into the result', () => {
  const patch = decodeJsonPatch('[{"op":"add","path":"/spec/obj","value":{"a":[1]}}]');
  const first = applyJsonPatch<unknown>(doc(), patch) as { spec: { obj: { a: number[] } } };
  first.spec.obj.a.push(2);
  const second = applyJsonPatch<unknown>(doc(), patch) as { spec: { obj: { a: number[] } } };
  assert.deepEqual(second.spec.obj, { a: [1] });
});

function rejects(ops: unknown, cause: string): void {
  assert.throws(() => applyJsonPatch(doc(), typeof ops === 'string' ? ops : JSON.stringify(ops)), (e: unknown) => {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 422);
    assert.equal(e.reason, 'Invalid');
    assert.equal(e.message, 'the server rejected our request due to an error in our request');
    assert.deepEqual(e.details?.causes, [{ reason: 'UnexpectedServerResponse', message: cause }], JSON.stringify(ops));
    return true;
  });
}

test('operations that do not apply are 422 with the library message as the cause', () => {
  const cases: [unknown, string][] = [
    [[{ op: 'test', path: '/metadata/name', value: 'b' }], 'testing value /metadata/name failed: test failed'],
    [[{ op: 'test', path: '/metadata/name' }], 'testing value /metadata/name failed: test failed'],
    [[{ op: 'test', path: '/spec/absent', value: 1 }], 'testing value /spec/absent failed: test failed'],
    [[{ op: 'test', path: '', value: {} }], 'testing value  failed: test failed'],
    [[{ op: 'test', path: '/nope/deeper', value: 1 }], 'test operation does not apply: is missing path: /nope/deeper: missing value'],
    [[{ op: 'test', path: '/spec/list/9', value: 1 }], "error in test for path: '/spec/list/9': Unable to access invalid index: 9: invalid index referenced"],
    [[{ op: 'add', path: '/nope/deeper', value: 1 }], 'add operation does not apply: doc is missing path: "/nope/deeper": missing value'],
    [[{ op: 'add', path: '/spec/nothing/x', value: 1 }], 'add operation does not apply: doc is missing path: "/spec/nothing/x": missing value'],
    [[{ op: 'add', path: '/metadata/name/x', value: 1 }], 'add operation does not apply: doc is missing path: "/metadata/name/x": missing value'],
    [[{ op: 'add', path: '', value: 1 }], 'add operation does not apply: doc is missing path: "": missing value'],
    [[{ op: 'add', value: 1 }], 'add operation failed to decode path: missing value'],
    [[{ op: 'add', path: 5 }], 'add operation failed to decode path: missing value'],
    [[{ op: 'add', path: '/spec/list/9', value: 1 }], "error in add for path: '/spec/list/9': Unable to access invalid index: 9: invalid index referenced"],
    [[{ op: 'add', path: '/spec/list/-5', value: 1 }], "error in add for path: '/spec/list/-5': Unable to access invalid index: -5: invalid index referenced"],
    [[{ op: 'add', path: '/spec/list/x', value: 1 }], `error in add for path: '/spec/list/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`],
    [[{ op: 'remove', path: '/metadata/labels/none' }], "error in remove for path: '/metadata/labels/none': Unable to remove nonexistent key: none: missing value"],
    [[{ op: 'remove', path: '/spec/list/3' }], "error in remove for path: '/spec/list/3': Unable to access invalid index: 3: invalid index referenced"],
    [[{ op: 'remove', path: '/spec/list/-' }], `error in remove for path: '/spec/list/-': strconv.Atoi: parsing "-": invalid syntax`],
    [[{ op: 'remove', path: '/a/b' }], 'remove operation does not apply: doc is missing path: "/a/b": missing value'],
    [[{ op: 'remove' }], 'remove operation failed to decode path: missing value'],
    [[{ op: 'replace', path: '/spec/list/7', value: 1 }], 'replace operation does not apply: doc is missing key: /spec/list/7: missing value'],
    [[{ op: 'replace', path: '/a/b', value: 1 }], 'replace operation does not apply: doc is missing path: /a/b: missing value'],
    [[{ op: 'replace', path: '', value: 'x' }], 'replace operation value must be object or array: %!w(<nil>)'],
    [[{ op: 'replace', value: 1 }], 'replace operation failed to decode path: operation missing path field: missing value'],
    [[{ op: 'replace', path: 1, value: 1 }], 'replace operation failed to decode path: json: cannot unmarshal number into Go value of type string'],
    [[{ op: 'move', from: '/metadata/labels/none', path: '/x' }], "error in move for path: 'none': Unable to remove nonexistent key: none: missing value"],
    [[{ op: 'move', from: '/a/b', path: '/x' }], 'move operation does not apply: doc is missing from path: /a/b: missing value'],
    [[{ op: 'move', path: '/x' }], 'move operation failed to decode from: operation, missing from field: missing value'],
    [[{ op: 'move', from: '/spec/replicas', path: '/a/b' }], 'move operation does not apply: doc is missing destination path: /a/b: missing value'],
    [[{ op: 'copy', from: '/spec/list/8', path: '/x' }], "error in copy for from: '/spec/list/8': Unable to access invalid index: 8: invalid index referenced"],
    [[{ op: 'copy', from: '/spec/replicas', path: '/a/b' }], 'copy operation does not apply: doc is missing destination path: /a/b: missing value'],
    [[{ op: 'copy', from: '/spec/replicas' }], 'copy operation failed to decode path: missing value'],
    [[{ op: 'copy', from: '/spec/replicas', path: '/spec/list/9' }], 'error while adding value during copy: Unable to access invalid index: 9: invalid index referenced'],
    [[{ op: 'merge', path: '/x' }], 'Unexpected kind: merge'],
    [[{ path: '/x' }], 'Unexpected kind: unknown'],
    [[{ op: 7, path: '/x' }], 'Unexpected kind: unknown'],
    [[null], 'Unexpected kind: unknown'],
    [[{ op: 'add', path: '/ok', value: 1 }, { op: 'test', path: '/ok', value: 2 }], 'testing value /ok failed: test failed'],
  ];
  for (const [ops, cause] of cases) rejects(ops, cause);
});

function badRequest(body: string, fieldValidation: 'Strict' | 'Warn' | 'Ignore', message: string): void {
  assert.throws(() => decodeJsonPatch(body, fieldValidation), (e: unknown) => {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 400, body);
    assert.equal(e.reason, 'BadRequest');
    assert.equal(e.message, message, `${fieldValidation} ${body}`);
    return true;
  });
}

test('a body that is not a list of operations is a 400 with the decoder\'s text', () => {
  badRequest('{"op":"add"}', 'Ignore', 'json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  badRequest('{"op":"add"}', 'Strict', 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp');
  badRequest('"x"', 'Ignore', 'json: cannot unmarshal string into Go value of type jsonpatch.Patch');
  badRequest('["add"]', 'Ignore', 'json: cannot unmarshal string into Go value of type jsonpatch.Operation');
  badRequest('[[1]]', 'Warn', 'error decoding patch: json: cannot unmarshal array into Go value of type handlers.jsonPatchOp');
  badRequest('[{"op":"add","path":5}]', 'Strict', 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string');
  badRequest('[{', 'Ignore', 'unexpected end of JSON input');
  badRequest('[x]', 'Strict', "error decoding patch: invalid character 'x' looking for beginning of value");
});

test('more than 10000 operations is 413', () => {
  const ops = JSON.stringify(Array.from({ length: 10001 }, () => ({ op: 'test', path: '/metadata/name', value: 'a' })));
  assert.throws(() => decodeJsonPatch(ops), (e: unknown) => {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 413);
    assert.equal(e.reason, 'RequestEntityTooLarge');
    assert.equal(e.message, 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
    return true;
  });
  const max = JSON.stringify(Array.from({ length: 10000 }, () => ({ op: 'test', path: '/metadata/name', value: 'a' })));
  assert.deepEqual(applyJsonPatch(doc(), max), doc());
});

test('strict field validation reports unknown and duplicate operation fields', () => {
  const body = '[{"op":"add","path":"/a","value":1,"extra":true},{"op":"add","op":"remove","path":"/a","value":{"k":1,"k":2}}]';
  assert.deepEqual(decodeJsonPatch(body, 'Strict').strictErrors, [
    'json patch unknown field "[0].extra"',
    'json patch duplicate field "[1].op"',
    'json patch duplicate field "[1].value.k"',
  ]);
  assert.deepEqual(decodeJsonPatch(body, 'Warn').strictErrors.length, 3);
  assert.deepEqual(decodeJsonPatch(body, 'Ignore').strictErrors, []);
  assert.deepEqual(decodeJsonPatch(body).operations.length, 2);
});
