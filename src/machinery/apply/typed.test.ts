// toFieldSet, compare, merge and removeItems over every merge shape of the Widget fixture.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compare } from './compare.ts';
import { FieldSet } from './fieldset.ts';
import { merge } from './merge.ts';
import { fieldElement as f, keyElement, pathString, valueElement } from './path.ts';
import { removeItems } from './remove.ts';
import { ensureNamedFieldsAreMembers, toFieldSet, TypedValueError } from './tofieldset.ts';
import { WIDGET } from './widget.fixture.ts';

const paths = (s: FieldSet) => s.paths().map(pathString).sort();

describe('toFieldSet', () => {
  it('owns leaves, map entries and list items; declared fields only when empty or null', () => {
    const set = toFieldSet({
      apiVersion: 'example.io/v1', kind: 'Widget',
      metadata: { name: 'w', labels: { app: 'x' }, annotations: {} },
      spec: { replicas: 2, options: { a: '1' } },
    }, WIDGET);
    assert.deepEqual(set.toFieldsV1(), {
      'f:apiVersion': {}, 'f:kind': {},
      'f:metadata': { 'f:annotations': {}, 'f:labels': { 'f:app': {} }, 'f:name': {} },
      'f:spec': { 'f:options': { 'f:a': {} }, 'f:replicas': {} },
    });
  });

  it('map lists: items by key, with defaulted key fields; set lists: items by value; atomic lists whole', () => {
    const set = toFieldSet({ spec: {
      containers: [{ name: 'c', image: 'i', args: ['x'], ports: [{ containerPort: 80 }] }],
      tags: ['b', 'a'], args: ['1', '2'],
    } }, WIDGET);
    assert.deepEqual(set.toFieldsV1(), { 'f:spec': {
      'f:args': {},
      'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:args': {}, 'f:image': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } } },
      'f:tags': { 'v:"a"': {}, 'v:"b"': {} },
    } });
  });

  it('patch strategy merge without a list type makes lists associative (by merge key, or a set)', () => {
    const set = toFieldSet({ spec: { env: [{ name: 'A', value: '1' }], hosts: ['h'] } }, WIDGET);
    assert.deepEqual(set.toFieldsV1(), { 'f:spec': {
      'f:env': { 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
      'f:hosts': { 'v:"h"': {} },
    } });
  });

  it('atomic structs and maps are leaves; free-form maps are granular with atomic lists', () => {
    const set = toFieldSet({ spec: { selector: { matchLabels: { a: 'b' } }, pinned: { x: 'y' }, config: { deep: { k: 1 }, list: [1, 2] } } }, WIDGET);
    assert.deepEqual(set.toFieldsV1(), { 'f:spec': {
      // Free-form keys are not declared fields, so they are members even with children.
      'f:config': { 'f:deep': { '.': {}, 'f:k': {} }, 'f:list': {} },
      'f:pinned': {},
      'f:selector': {},
    } });
  });

  it('refuses map-list items without their key and duplicated keys in merges', () => {
    assert.throws(() => toFieldSet({ spec: { containers: [{ image: 'x' }] } }, WIDGET), (e: Error) => e instanceof TypedValueError && /\.spec\.containers: element 0: associative list with keys has an element that omits key field "name" \(and doesn't have default value\)/.test(e.message));
    assert.throws(() => merge({}, { spec: { containers: [{ name: 'a' }, { name: 'a' }] } }, WIDGET), /duplicate entries for key \[name="a"\]/);
    assert.throws(() => toFieldSet({ spec: { tags: [{ a: 1 }] } }, WIDGET), /associative list without keys has an element that's a map type/);
  });
});

describe('compare', () => {
  it('reports added, modified and removed leaves and containers', () => {
    const c = compare(
      { data: { a: '1', b: '2' }, spec: { replicas: 1, options: { x: '1' } } },
      { data: { a: '1', b: '3', c: '4' }, spec: { replicas: 1 }, metadata: { labels: { l: 'v' } } },
      WIDGET,
    );
    assert.deepEqual(paths(c.added), ['.data.c', '.metadata', '.metadata.labels', '.metadata.labels.l']);
    assert.deepEqual(paths(c.modified), ['.data.b']);
    assert.deepEqual(paths(c.removed), ['.spec.options', '.spec.options.x']);
    // Changes together: added and modified in one set.
    const t = compare(
      { data: { a: '1', b: '2' }, spec: { replicas: 1, options: { x: '1' } } },
      { data: { a: '1', b: '3', c: '4' }, spec: { replicas: 1 }, metadata: { labels: { l: 'v' } } },
      WIDGET, true,
    );
    assert.equal(t.added, t.modified);
    assert.deepEqual(paths(t.added), ['.data.b', '.data.c', '.metadata', '.metadata.labels', '.metadata.labels.l']);
    assert.deepEqual(paths(t.removed), ['.spec.options', '.spec.options.x']);
  });

  it('compares atomic values whole and associative lists item by item', () => {
    const c = compare(
      { spec: { args: ['a'], tags: ['x', 'y'], containers: [{ name: 'a', image: '1' }, { name: 'b', image: '1' }], selector: { matchLabels: { a: '1' } } } },
      { spec: { args: ['a', 'b'], tags: ['y', 'z'], containers: [{ name: 'a', image: '2' }], selector: { matchLabels: { a: '2' } } } },
      WIDGET,
    );
    assert.deepEqual(paths(c.modified), ['.spec.args', '.spec.containers[name="a"].image', '.spec.selector']);
    assert.deepEqual(paths(c.added), ['.spec.tags[="z"]']);
    assert.deepEqual(paths(c.removed), ['.spec.containers[name="b"]', '.spec.containers[name="b"].image', '.spec.containers[name="b"].name', '.spec.tags[="x"]']);
  });

  it('tolerates duplicated items in either object, treating them as one atomic unit', () => {
    const c = compare({ spec: { tags: ['a', 'a'] } }, { spec: { tags: ['a', 'a', 'b'] } }, WIDGET);
    assert.deepEqual(paths(c.added), ['.spec.tags[="b"]']);
    const d = compare({ spec: { tags: ['a'] } }, { spec: { tags: ['a', 'a'] } }, WIDGET);
    assert.deepEqual(paths(d.added), ['.spec.tags[="a"]']);
  });
});

describe('merge', () => {
  it('takes the configuration on leaves and merges granular maps by key', () => {
    const out = merge({ data: { a: '1', b: '2' }, spec: { replicas: 1 } }, { data: { b: '3', c: '4' } }, WIDGET);
    assert.deepEqual(out, { data: { a: '1', b: '3', c: '4' }, spec: { replicas: 1 } });
  });

  it('replaces atomic lists, structs and maps whole', () => {
    const out = merge(
      { spec: { args: ['a', 'b'], selector: { matchLabels: { a: '1', b: '2' } }, pinned: { a: '1', b: '2' } } },
      { spec: { args: ['c'], selector: { matchLabels: { c: '3' } }, pinned: { c: '3' } } },
      WIDGET,
    );
    assert.deepEqual(out, { spec: { args: ['c'], selector: { matchLabels: { c: '3' } }, pinned: { c: '3' } } });
  });

  it('merges set lists as a union and map lists item by item, configuration order first', () => {
    const out = merge(
      { spec: { tags: ['a', 'b'], containers: [{ name: 'x', image: '1', args: ['p'] }, { name: 'y', image: '1' }] } },
      { spec: { tags: ['c', 'a'], containers: [{ name: 'z', image: '3' }, { name: 'x', image: '2' }] } },
      WIDGET,
    );
    assert.deepEqual(out, { spec: {
      tags: ['c', 'a', 'b'],
      containers: [{ name: 'z', image: '3' }, { name: 'x', image: '2', args: ['p'] }, { name: 'y', image: '1' }],
    } });
  });

  it('keeps live-only items in place between configured ones', () => {
    const out = merge(
      { spec: { containers: [{ name: 'a' }, { name: 'live' }, { name: 'b' }] } },
      { spec: { containers: [{ name: 'a', image: '1' }, { name: 'b', image: '2' }] } },
      WIDGET,
    ) as { spec: { containers: { name: string }[] } };
    assert.deepEqual(out.spec.containers.map((c) => c.name), ['a', 'live', 'b']);
  });

  it('merges free-form maps by key and replaces their lists', () => {
    const out = merge({ spec: { config: { a: 1, l: [1, 2] } } }, { spec: { config: { b: 2, l: [3] } } }, WIDGET);
    assert.deepEqual(out, { spec: { config: { a: 1, l: [3], b: 2 } } });
  });
});

describe('removeItems', () => {
  it('removes fields, map entries and list items, and empties become null', () => {
    const obj = { data: { a: '1', b: '2' }, spec: { tags: ['x', 'y'], containers: [{ name: 'c', image: 'i' }], args: ['z'] } };
    const out = removeItems(obj, FieldSet.of(
      [f('data'), f('a')], [f('data'), f('b')],
      [f('spec'), f('tags'), valueElement('x')],
      [f('spec'), f('containers'), keyElement([['name', 'c']]), f('image')],
    ), WIDGET);
    assert.deepEqual(out, { data: null, spec: { tags: ['y'], containers: [{ name: 'c' }], args: ['z'] } });
    assert.deepEqual(obj.data, { a: '1', b: '2' }, 'the input is not modified');
  });

  it('ignores paths below atomic values', () => {
    const obj = { spec: { selector: { matchLabels: { a: '1' } } } };
    assert.deepEqual(removeItems(obj, FieldSet.of([f('spec'), f('selector'), f('matchLabels')]), WIDGET), obj);
  });
});

describe('ensureNamedFieldsAreMembers', () => {
  it('adds struct fields that have children, not map keys', () => {
    const s = ensureNamedFieldsAreMembers(FieldSet.of([f('metadata'), f('labels'), f('a')], [f('data'), f('x')]), WIDGET);
    assert.deepEqual(paths(s), ['.data', '.data.x', '.metadata', '.metadata.labels', '.metadata.labels.a']);
  });
});
