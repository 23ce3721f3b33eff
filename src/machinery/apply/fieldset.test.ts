import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FieldSet, FieldsV1Error } from './fieldset.ts';
import { comparePathElements, fieldElement as f, indexElement, keyElement, parsePathElement, pathString, valueElement } from './path.ts';

describe('path elements', () => {
  it('spell keys with sorted fields and JSON values, values as JSON, indexes as numbers', () => {
    assert.equal(f('spec').id, 'f:spec');
    assert.equal(keyElement([['protocol', 'TCP'], ['containerPort', 80]]).id, 'k:{"containerPort":80,"protocol":"TCP"}');
    assert.equal(valueElement('foregroundDeletion').id, 'v:"foregroundDeletion"');
    assert.equal(valueElement(3).id, 'v:3');
    assert.equal(indexElement(2).id, 'i:2');
    // Go's encoder escapes HTML-sensitive characters.
    assert.equal(keyElement([['name', 'a<b&c>']]).id, 'k:{"name":"a\\u003cb\\u0026c\\u003e"}');
  });

  it('order fields, then keys, then values, then indexes', () => {
    const els = [indexElement(0), valueElement('a'), keyElement([['name', 'x']]), f('b'), f('a'), valueElement(1), keyElement([['name', 'a']])];
    assert.deepEqual(els.sort(comparePathElements).map((e) => e.id), ['f:a', 'f:b', 'k:{"name":"a"}', 'k:{"name":"x"}', 'v:1', 'v:"a"', 'i:0']);
  });

  it('print paths as conflict messages do', () => {
    assert.equal(pathString([f('spec'), f('containers'), keyElement([['name', 'nginx']]), f('image')]), '.spec.containers[name="nginx"].image');
    assert.equal(pathString([f('spec'), f('ports'), keyElement([['port', 80], ['protocol', 'TCP']])]), '.spec.ports[port=80,protocol="TCP"]');
    assert.equal(pathString([f('metadata'), f('finalizers'), valueElement('x')]), '.metadata.finalizers[="x"]');
    assert.equal(pathString([f('a'), indexElement(3)]), '.a[3]');
  });

  it('parse what they print and drop unknown prefixes', () => {
    for (const pe of [f('x'), keyElement([['a', 1], ['b', 'c']]), valueElement(true), indexElement(7)]) {
      assert.equal(parsePathElement(pe.id)!.id, pe.id);
    }
    assert.equal(parsePathElement('z:whatever'), undefined);
    assert.equal(parsePathElement('zz'), undefined);
    assert.throws(() => parsePathElement('k:{'));
    assert.throws(() => parsePathElement('i:x'));
  });
});

describe('FieldSet', () => {
  const p = (...names: string[]) => names.map((n) => f(n));

  it('serialises to FieldsV1 with "." for members that have children, in Kubernetes order', () => {
    const s = FieldSet.of(
      p('metadata', 'labels', 'app'),
      p('metadata', 'labels'),
      p('data', 'b'),
      p('data', 'a'),
      [f('spec'), f('containers'), keyElement([['name', 'nginx']])],
      [f('spec'), f('containers'), keyElement([['name', 'nginx']]), f('image')],
      [f('spec'), f('containers'), keyElement([['name', 'nginx']]), f('name')],
    );
    const fields = s.toFieldsV1();
    assert.equal(JSON.stringify(fields),
      '{"f:data":{"f:a":{},"f:b":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}},' +
      '"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:name":{}}}}}');
    assert.ok(FieldSet.fromFieldsV1(fields).equals(s));
    assert.deepEqual(FieldSet.fromFieldsV1(fields).toFieldsV1(), fields);
  });

  it('reads FieldsV1 leniently: unknown prefixes dropped, malformed keys refused', () => {
    const s = FieldSet.fromFieldsV1({ 'f:a': {}, 'x:y': {}, 'f:b': { '.': {} } });
    assert.deepEqual(s.paths().map(pathString), ['.a', '.b']);
    assert.throws(() => FieldSet.fromFieldsV1({ 'k:{bad': {} }), FieldsV1Error);
    assert.throws(() => FieldSet.fromFieldsV1({ 'f:a': 1 }), FieldsV1Error);
    assert.ok(FieldSet.fromFieldsV1(undefined).empty());
  });

  it('has, union, intersection and difference treat parents and children as distinct paths', () => {
    const a = FieldSet.of(p('a'), p('a', 'b'), p('c', 'd'));
    const b = FieldSet.of(p('a', 'b'), p('e'));
    assert.ok(a.has(p('a')) && a.has(p('a', 'b')) && !a.has(p('c')) && a.has(p('c', 'd')));
    assert.deepEqual(a.union(b).paths().map(pathString), ['.a', '.e', '.a.b', '.c.d']);
    assert.deepEqual(a.intersection(b).paths().map(pathString), ['.a.b']);
    assert.deepEqual(a.difference(b).paths().map(pathString), ['.a', '.c.d']);
    // parent - child = parent; child - parent = child (plain difference).
    assert.deepEqual(FieldSet.of(p('x', 'y')).difference(FieldSet.of(p('x'))).paths().map(pathString), ['.x.y']);
  });

  it('recursiveDifference removes a path and everything below it', () => {
    const s = FieldSet.of(p('status'), p('status', 'phase'), p('status', 'conditions', 'x'), p('spec', 'a'));
    assert.deepEqual(s.recursiveDifference(FieldSet.of(p('status'))).paths().map(pathString), ['.spec.a']);
    assert.deepEqual(s.recursiveDifference(FieldSet.of(p('status', 'conditions'))).paths().map(pathString), ['.status', '.spec.a', '.status.phase']);
  });

  it('writes back the very FieldsV1 it was read from when that is in Kubernetes\' form, else rewrites it', () => {
    const canonical = { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} }, 'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:port': {} } } } };
    assert.equal(FieldSet.fromFieldsV1(canonical).toFieldsV1(), canonical);
    const rewritten = [
      { 'f:spec': { 'f:x': {} }, 'f:data': { 'f:a': {} } }, // keys out of order
      { 'f:data': { 'f:a': {}, '.': {} } }, // "." not first
      { 'f:data': { '.': {} } }, // a lone "." reads as a leaf
      { 'f:data': { 'f:a': {} }, 'x:y': {} }, // an unknown prefix is dropped
      { 'f:a': { 'i:+1': {} } }, // another spelling of i:1
      { 'f:a': { 'k:{"protocol":"TCP","port":80}': {} } }, // key fields out of order
      { '.': {}, 'f:a': {} }, // the root is never a member
      { 'f:a': { '.': { 'f:b': {} }, 'f:c': {} } }, // "." is always {}
    ];
    for (const fields of rewritten) {
      const set = FieldSet.fromFieldsV1(fields);
      const out = set.toFieldsV1();
      assert.notEqual(out, fields);
      assert.ok(FieldSet.fromFieldsV1(out).equals(set));
      assert.equal(FieldSet.fromFieldsV1(out).toFieldsV1(), out, JSON.stringify(out));
    }
    // A set changed after reading is written from what it holds.
    const grown = FieldSet.fromFieldsV1({ 'f:a': {} });
    grown.insert([f('b')]);
    assert.deepEqual(grown.toFieldsV1(), { 'f:a': {}, 'f:b': {} });
  });

  it('isSubsetOf compares paths, parents and children apart', () => {
    const a = FieldSet.of(p('a'), p('a', 'b'), p('c', 'd'));
    assert.ok(FieldSet.of(p('a', 'b')).isSubsetOf(a));
    assert.ok(FieldSet.of(p('c', 'd'), p('a')).isSubsetOf(a));
    assert.ok(new FieldSet().isSubsetOf(a));
    assert.ok(!FieldSet.of(p('c')).isSubsetOf(a));
    assert.ok(!FieldSet.of(p('a', 'b', 'x')).isSubsetOf(a));
    assert.ok(!a.isSubsetOf(FieldSet.of(p('a'), p('a', 'b'))));
  });

  it('never keeps empty children', () => {
    const s = FieldSet.of(p('a', 'b')).difference(FieldSet.of(p('a', 'b')));
    assert.ok(s.empty());
    assert.deepEqual(s.toFieldsV1(), {});
    assert.equal(s.children.size, 0);
  });
});
