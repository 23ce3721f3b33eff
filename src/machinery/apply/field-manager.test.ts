// The field manager case by case: managedFields entries, ownership rules, pruning, conflicts and force.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../apis/meta/v1.ts';
import { StatusError } from '../status.ts';
import { applyObject, checkApplyBody, LAST_APPLIED_ANNOTATION, managerFromUserAgent, managerOrUserAgent, recordUpdate, type FieldManagerScope } from './field-manager.ts';
import type { ManagedFieldsEntry } from './managers.ts';
import { widgetScope } from './widget.fixture.ts';

const scope = widgetScope();

function widget(body: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): ApiObject {
  return { apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns', ...meta }, ...body } as ApiObject;
}

/** Stands in for the store: an applied or updated object gets identity once it exists. */
function stored(obj: ApiObject): ApiObject {
  return { ...obj, metadata: { uid: 'u-1', creationTimestamp: '2024-01-01T00:00:00Z', resourceVersion: '1', ...obj.metadata } };
}

function apply(live: ApiObject | undefined, config: ApiObject, manager: string, force = false, s: FieldManagerScope = scope): ApiObject {
  return stored(applyObject(s, live, config, { manager, force }));
}

function update(live: ApiObject | undefined, obj: ApiObject, manager: string, s: FieldManagerScope = scope): ApiObject {
  const next = structuredClone(obj);
  recordUpdate(s, live, next, manager);
  return stored(next);
}

function entries(obj: ApiObject): ManagedFieldsEntry[] {
  return (obj.metadata.managedFields ?? []) as ManagedFieldsEntry[];
}

function entry(obj: ApiObject, manager: string, operation = 'Apply'): ManagedFieldsEntry | undefined {
  return entries(obj).find((e) => e.manager === manager && e.operation === operation);
}

function conflictOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return err;
  }
  assert.fail('expected a conflict');
}

describe('managedFields entries', () => {
  it('apply creates the object with one Apply entry in Kubernetes form', () => {
    const obj = apply(undefined, widget({ data: { a: '1' } }, { labels: { app: 'x' } }), 'mgr');
    assert.deepEqual(obj.data, { a: '1' });
    assert.deepEqual(entries(obj), [{
      manager: 'mgr', operation: 'Apply', apiVersion: 'example.io/v1', time: '2024-05-01T10:00:00Z', fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { 'f:a': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } },
    }]);
  });

  it('an update records what it added, with "." for new containers', () => {
    const obj = update(undefined, widget({ data: { a: '1' } }, { labels: { app: 'x' } }), 'kubectl-create');
    assert.deepEqual(entries(obj), [{
      manager: 'kubectl-create', operation: 'Update', apiVersion: 'example.io/v1', time: '2024-05-01T10:00:00Z', fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { '.': {}, 'f:a': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
    }]);
  });

  it('creations of one shape record the same fields; list items are named by their own values', () => {
    const one = update(undefined, widget({ data: { a: '1' }, spec: { containers: [{ name: 'web', image: 'x' }] } }), 'm');
    const two = update(undefined, widget({ data: { a: '2' }, spec: { containers: [{ name: 'web', image: 'y' }] } }), 'm');
    const other = update(undefined, widget({ data: { a: '1' }, spec: { containers: [{ name: 'db', image: 'x' }] } }), 'm');
    const containers = { 'f:containers': { '.': {}, 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } } };
    assert.deepEqual(entries(one)[0].fieldsV1, { 'f:data': { '.': {}, 'f:a': {} }, 'f:spec': containers });
    assert.deepEqual(entries(two)[0].fieldsV1, entries(one)[0].fieldsV1);
    assert.deepEqual(entries(other)[0].fieldsV1, { 'f:data': { '.': {}, 'f:a': {} }, 'f:spec': { 'f:containers': { '.': {}, 'k:{"name":"db"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } });
  });

  it('an empty manager is recorded as unknown; a status write records its subresource', () => {
    let obj = update(undefined, widget({ data: { a: '1' } }), '');
    assert.equal(entries(obj)[0].manager, 'unknown');
    obj = update(obj, { ...obj, status: { phase: 'Up' } }, 'ctrl', widgetScope({ subresource: 'status', resetFields: undefined }));
    assert.deepEqual(entry(obj, 'ctrl', 'Update'), {
      manager: 'ctrl', operation: 'Update', apiVersion: 'example.io/v1', time: '2024-05-01T10:00:00Z', fieldsType: 'FieldsV1',
      // status is a by-value struct in Go: always there, so never "added" itself.
      fieldsV1: { 'f:status': { 'f:phase': {} } }, subresource: 'status',
    });
  });

  it('a field set under a by-value struct (spec, template, strategy) does not make the struct "added"', () => {
    const obj = update(undefined, widget({ spec: { replicas: 1, options: { a: '1' } } }), 'm');
    assert.deepEqual(entries(obj)[0].fieldsV1, { 'f:spec': { 'f:options': { '.': {}, 'f:a': {} }, 'f:replicas': {} } });
  });

  it('update entries are kept per apiVersion; the time moves only when the write changed something', () => {
    let obj = update(undefined, widget({ data: { a: '1' } }), 'm');
    obj = update(obj, { ...obj, data: { a: '2' } }, 'm', widgetScope({ apiVersion: 'example.io/v2', now: () => new Date('2024-06-01T00:00:00Z') }));
    assert.deepEqual(entries(obj).map((e) => [e.apiVersion, e.time]), [['example.io/v1', '2024-05-01T10:00:00Z'], ['example.io/v2', '2024-06-01T00:00:00Z']]);
    // The newer entry took .data.a; the older keeps only what is still its own.
    assert.deepEqual(entries(obj)[0].fieldsV1, { 'f:data': {} });
    const again = update(obj, structuredClone(obj), 'm', widgetScope({ now: () => new Date('2025-01-01T00:00:00Z') }));
    assert.deepEqual(entries(again), entries(obj), 'a write that changes nothing leaves the entries as they were');
  });

  it('an owner rewriting its own fields keeps its entry and moves its time; others lose what it changed or removed', () => {
    let obj = update(undefined, widget({ data: { a: '1', b: '1', c: '1' } }), 'm');
    obj = update(obj, { ...obj, data: { ...obj.data as Record<string, string>, c: '2' } }, 'n', widgetScope({ now: () => new Date('2024-06-01T00:00:00Z') }));
    // A PUT sends back the entries it read: they decode as the live ones.
    const later = widgetScope({ now: () => new Date('2024-07-01T00:00:00Z') });
    obj = update(obj, { ...structuredClone(obj), data: { ...obj.data as Record<string, string>, b: '2' } }, 'm', later);
    assert.deepEqual(entries(obj).map((e) => [e.manager, e.time, e.fieldsV1]), [
      ['n', '2024-06-01T00:00:00Z', { 'f:data': { 'f:c': {} } }],
      ['m', '2024-07-01T00:00:00Z', { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } }],
    ]);
    // Removing a field takes it from whoever owned it; the remover owns nothing new and keeps its time.
    const { c: _c, ...withoutC } = obj.data as Record<string, string>;
    obj = update(obj, { ...obj, data: withoutC }, 'm', widgetScope({ now: () => new Date('2024-08-01T00:00:00Z') }));
    assert.deepEqual(entries(obj).map((e) => [e.manager, e.time, e.fieldsV1]), [
      ['m', '2024-07-01T00:00:00Z', { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } }],
    ]);
  });

  it('sorts Apply before Update, then by time and manager', () => {
    let obj = update(undefined, widget({ data: { z: '1' } }), 'zeta', widgetScope({ now: () => new Date('2024-01-01T00:00:00Z') }));
    obj = update(obj, { ...obj, data: { ...obj.data as object, y: '1' } }, 'alpha', widgetScope({ now: () => new Date('2024-01-01T00:00:00Z') }));
    obj = apply(obj, widget({ data: { x: '1' } }), 'applier');
    assert.deepEqual(entries(obj).map((e) => `${e.operation}:${e.manager}`), ['Apply:applier', 'Update:alpha', 'Update:zeta']);
  });

  it('keeps at most 10 Update entries, the oldest merged into ancient-changes', () => {
    let obj = update(undefined, widget({ data: { m0: '0' } }), 'm0', widgetScope({ now: () => new Date(Date.UTC(2024, 0, 1)) }));
    for (let i = 1; i <= 11; i++) {
      obj = update(obj, { ...obj, data: { ...obj.data as object, [`m${i}`]: String(i) } }, `m${i}`, widgetScope({ now: () => new Date(Date.UTC(2024, 0, 1 + i)) }));
    }
    const updates = entries(obj).filter((e) => e.operation === 'Update');
    assert.equal(updates.length, 10);
    const ancient = updates.find((e) => e.manager === 'ancient-changes')!;
    assert.deepEqual(ancient.fieldsV1, { 'f:data': { '.': {}, 'f:m0': {}, 'f:m1': {}, 'f:m2': {} } });
    assert.equal(ancient.time, '2024-01-03T00:00:00Z', 'the bucket takes the newest merged time');
    assert.ok(!updates.some((e) => ['m0', 'm1', 'm2'].includes(e.manager!)));
  });

  it('a client may clear every entry with [{}] or []; without the list the live entries stay', () => {
    const obj = update(undefined, widget({ data: { a: '1' } }), 'm');
    const { managedFields: _omitted, ...metaWithout } = obj.metadata;
    const kept = update(obj, { ...obj, metadata: metaWithout, data: { a: '2' } }, 'n');
    assert.deepEqual(entries(kept).map((e) => e.manager).sort(), ['m', 'n']);
    assert.equal(update(obj, { ...obj, metadata: { ...obj.metadata, managedFields: [] }, data: { a: '3' } }, 'n').metadata.managedFields, undefined);
    const cleared = update(obj, { ...obj, metadata: { ...obj.metadata, managedFields: [{}] as never }, data: { a: '3' } }, 'n');
    assert.equal(cleared.metadata.managedFields, undefined);
    // An object without entries is not tracked by updates any more, only by creates and applies; the first
    // apply records what the object already held as an Update by before-first-apply.
    const later = update(cleared, { ...cleared, data: { a: '4' } }, 'n');
    assert.equal(later.metadata.managedFields, undefined);
    const applied = apply(later, widget({ data: { b: '1' } }), 'a');
    assert.deepEqual(entries(applied).map((e) => `${e.manager}:${e.operation}`), ['a:Apply', 'before-first-apply:Update']);
    assert.deepEqual(entry(applied, 'before-first-apply', 'Update')!.fieldsV1, { 'f:data': { '.': {}, 'f:a': {} } });
  });

  it('a client may replace the entries on update; undecodable entries keep the live ones', () => {
    const obj = update(undefined, widget({ data: { a: '1' } }), 'm');
    const own = [{ manager: 'x', operation: 'Update', apiVersion: 'example.io/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } }];
    const replaced = update(obj, { ...obj, metadata: { ...obj.metadata, managedFields: own as never } }, 'n');
    assert.deepEqual(entries(replaced).map((e) => e.manager), ['x']);
    const bad = [{ manager: 'x', operation: 'Nope', apiVersion: 'example.io/v1', fieldsType: 'FieldsV1', fieldsV1: {} }];
    const kept = update(obj, { ...obj, metadata: { ...obj.metadata, managedFields: bad as never } }, 'n');
    assert.deepEqual(entries(kept).map((e) => e.manager), ['m']);
  });

  it('never owns type information or server-set metadata', () => {
    const obj = apply(undefined, widget({}, { name: 'w', namespace: 'ns', uid: 'x', resourceVersion: '5', generation: 3, creationTimestamp: '2024-01-01T00:00:00Z' }), 'm');
    assert.equal(obj.metadata.managedFields, undefined, 'an apply of nothing but identity owns nothing');
  });
});

describe('apply ownership', () => {
  it('applying the same configuration again changes nothing and keeps the time', () => {
    const first = apply(undefined, widget({ data: { a: '1' } }), 'm');
    const again = applyObject(widgetScope({ now: () => new Date('2030-01-01T00:00:00Z') }), first, widget({ data: { a: '1' } }), { manager: 'm', force: false });
    assert.deepEqual(again, first);
  });

  it('a changed value is written and the time moves', () => {
    const first = apply(undefined, widget({ data: { a: '1' } }), 'm');
    const next = apply(first, widget({ data: { a: '2' } }), 'm', false, widgetScope({ now: () => new Date('2030-01-01T00:00:00Z') }));
    assert.equal((next.data as Record<string, string>).a, '2');
    assert.equal(entry(next, 'm')!.time, '2030-01-01T00:00:00Z');
  });

  it('a field the manager applied before and omits now is removed', () => {
    const first = apply(undefined, widget({ data: { a: '1', b: '2' }, spec: { replicas: 3 } }, { labels: { x: '1' } }), 'm');
    const next = apply(first, widget({ data: { a: '1' } }), 'm');
    assert.deepEqual(next.data, { a: '1' });
    assert.equal(next.spec, undefined);
    assert.equal(next.metadata.labels, undefined);
    assert.deepEqual(entry(next, 'm')!.fieldsV1, { 'f:data': { 'f:a': {} } });
  });

  it('a field another applier still owns stays when one manager omits it (shared ownership)', () => {
    let obj = apply(undefined, widget({ data: { a: '1' } }), 'one');
    obj = apply(obj, widget({ data: { a: '1' } }), 'two');
    assert.deepEqual(entry(obj, 'one')!.fieldsV1, { 'f:data': { 'f:a': {} } });
    assert.deepEqual(entry(obj, 'two')!.fieldsV1, { 'f:data': { 'f:a': {} } });
    obj = apply(obj, widget({ data: { b: '1' } }), 'one');
    assert.deepEqual(obj.data, { a: '1', b: '1' });
    assert.deepEqual(entry(obj, 'two')!.fieldsV1, { 'f:data': { 'f:a': {} } });
  });

  it('a field an Update manager owns stays when the applier omits it', () => {
    let obj = apply(undefined, widget({ data: { a: '1' } }), 'applier');
    obj = update(obj, { ...obj, data: { a: '1', b: 'edited' } }, 'kubectl-edit');
    obj = update(obj, { ...obj, data: { a: 'edited', b: 'edited' } }, 'kubectl-edit');
    // kubectl-edit took .data.a from the applier, so dropping it is not the applier's to do.
    assert.equal(entry(obj, 'applier'), undefined);
    obj = apply(obj, widget({ data: { c: '1' } }), 'applier');
    assert.deepEqual(obj.data, { a: 'edited', b: 'edited', c: '1' });
  });

  it('fields nobody owns stay unless the applier owned them', () => {
    let obj = stored(widget({ data: { orphan: '1' } }));
    obj = apply(obj, widget({ data: { mine: '1' } }), 'm');
    obj = apply(obj, widget({ data: { other: '1' } }), 'm');
    assert.deepEqual(obj.data, { orphan: '1', other: '1' });
  });

  it('an apply that omits everything it applied drops its entry', () => {
    let obj = apply(undefined, widget({ data: { a: '1' } }), 'm');
    obj = update(obj, { ...obj, data: { a: '1', b: '2' } }, 'u');
    obj = apply(obj, widget(), 'm');
    assert.deepEqual(obj.data, { b: '2' });
    assert.deepEqual(entries(obj).map((e) => e.manager), ['u']);
  });
});

describe('conflicts', () => {
  it('changing a field another applier owns is a 409 naming the field and the manager', () => {
    const obj = apply(undefined, widget({ data: { a: '1' } }), 'one');
    const err = conflictOf(() => apply(obj, widget({ data: { a: '2' } }), 'two'));
    assert.equal(err.code, 409);
    assert.equal(err.reason, 'Conflict');
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "one": .data.a');
    assert.deepEqual(err.toStatus().details, { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "one"', field: '.data.a' }] });
  });

  it('conflicts with Update managers name their apiVersion, and subresources theirs', () => {
    let obj = update(undefined, widget({ data: { a: '1' }, status: { phase: 'x' } }), 'kubectl-edit');
    obj = update(obj, { ...obj, status: { phase: 'y' } }, 'ctrl', widgetScope({ subresource: 'status', resetFields: undefined }));
    let err = conflictOf(() => apply(obj, widget({ data: { a: '2' } }), 'm'));
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "kubectl-edit" using example.io/v1: .data.a');
    err = conflictOf(() => apply(obj, widget({ status: { phase: 'z' } }), 'm', false, widgetScope({ subresource: 'status', resetFields: undefined })));
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "ctrl" with subresource "status" using example.io/v1: .status.phase');
  });

  it('several conflicts are grouped by manager', () => {
    let obj = apply(undefined, widget({ data: { a: '1', b: '1' } }), 'one');
    obj = update(obj, { ...obj, spec: { replicas: 1 } }, 'edit');
    const err = conflictOf(() => apply(obj, widget({ data: { a: '2', b: '2' }, spec: { replicas: 2 } }), 'two'));
    assert.equal(err.message, 'Apply failed with 3 conflicts: conflicts with "edit" using example.io/v1:\n- .spec.replicas\nconflicts with "one":\n- .data.a\n- .data.b');
    assert.deepEqual(err.details!.causes!.map((c) => c.field).sort(), ['.data.a', '.data.b', '.spec.replicas']);
  });

  it('force takes the fields and removes them from the other managers', () => {
    let obj = apply(undefined, widget({ data: { a: '1', b: '1' } }), 'one');
    obj = apply(obj, widget({ data: { a: '2' } }), 'two', true);
    assert.deepEqual(obj.data, { a: '2', b: '1' });
    assert.deepEqual(entry(obj, 'one')!.fieldsV1, { 'f:data': { 'f:b': {} } });
    assert.deepEqual(entry(obj, 'two')!.fieldsV1, { 'f:data': { 'f:a': {} } });
    obj = apply(obj, widget({ data: { b: '2' } }), 'two', true);
    assert.equal(entry(obj, 'one'), undefined, 'a manager left with nothing is dropped');
  });

  it('setting the live value is no conflict and shares the field', () => {
    let obj = apply(undefined, widget({ spec: { replicas: 3 } }), 'one');
    obj = apply(obj, widget({ spec: { replicas: 3 } }), 'two');
    assert.ok(entry(obj, 'one') && entry(obj, 'two'));
    const err = conflictOf(() => apply(obj, widget({ spec: { replicas: 4 } }), 'three'));
    assert.match(err.message, /^Apply failed with 2 conflicts: conflicts with "one":\n- \.spec\.replicas\nconflicts with "two":\n- \.spec\.replicas$/);
  });

  it('updates never conflict: they take the fields', () => {
    let obj = apply(undefined, widget({ data: { a: '1' } }), 'one');
    obj = update(obj, { ...obj, data: { a: '2' } }, 'edit');
    assert.equal(entry(obj, 'one'), undefined);
    assert.deepEqual(entry(obj, 'edit', 'Update')!.fieldsV1, { 'f:data': { 'f:a': {} } });
  });
});

describe('list and map types under apply', () => {
  it('atomic lists are owned and replaced whole', () => {
    let obj = apply(undefined, widget({ spec: { args: ['a', 'b'] } }), 'one');
    const err = conflictOf(() => apply(obj, widget({ spec: { args: ['a'] } }), 'two'));
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "one": .spec.args');
    obj = apply(obj, widget({ spec: { args: ['c'] } }), 'two', true);
    assert.deepEqual((obj.spec as { args: string[] }).args, ['c']);
    assert.deepEqual(entry(obj, 'two')!.fieldsV1, { 'f:spec': { 'f:args': {} } });
  });

  it('set lists keep unique values, each owned by whoever applied it', () => {
    let obj = apply(undefined, widget({ spec: { tags: ['a', 'shared'] } }), 'one');
    obj = apply(obj, widget({ spec: { tags: ['shared', 'b'] } }), 'two');
    assert.deepEqual((obj.spec as { tags: string[] }).tags, ['a', 'shared', 'b']);
    assert.deepEqual(entry(obj, 'two')!.fieldsV1, { 'f:spec': { 'f:tags': { 'v:"b"': {}, 'v:"shared"': {} } } });
    obj = apply(obj, widget({ spec: { tags: [] } }), 'one');
    assert.deepEqual((obj.spec as { tags: string[] }).tags, ['shared', 'b'], '"shared" stays with two');
  });

  it('map lists merge by key; an item the applier drops goes, items of others stay', () => {
    let obj = apply(undefined, widget({ spec: { containers: [{ name: 'a', image: '1' }] } }), 'one');
    obj = apply(obj, widget({ spec: { containers: [{ name: 'b', image: '2' }] } }), 'two');
    assert.deepEqual((obj.spec as { containers: unknown[] }).containers, [{ name: 'a', image: '1' }, { name: 'b', image: '2' }]);
    const err = conflictOf(() => apply(obj, widget({ spec: { containers: [{ name: 'b', image: '3' }] } }), 'one'));
    assert.equal(err.message, 'Apply failed with 1 conflict: conflict with "two": .spec.containers[name="b"].image');
    obj = apply(obj, widget({ spec: { containers: [] } }), 'one');
    assert.deepEqual((obj.spec as { containers: unknown[] }).containers, [{ name: 'b', image: '2' }]);
  });

  it('map lists with several keys and a defaulted key field', () => {
    let obj = apply(undefined, widget({ spec: { containers: [{ name: 'a', ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }] }] } }), 'one');
    assert.deepEqual(entry(obj, 'one')!.fieldsV1, { 'f:spec': { 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:name': {}, 'f:ports': {
      'k:{"containerPort":53,"protocol":"UDP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} },
      'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} },
    } } } } });
    obj = apply(obj, widget({ spec: { containers: [{ name: 'a', ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] }] } }), 'one');
    assert.deepEqual((obj.spec as { containers: { ports: unknown[] }[] }).containers[0].ports, [{ containerPort: 80, protocol: 'TCP', name: 'http' }]);
  });

  it('lists with patch strategy merge and no list type merge by their merge key', () => {
    let obj = apply(undefined, widget({ spec: { env: [{ name: 'A', value: '1' }] } }), 'one');
    obj = apply(obj, widget({ spec: { env: [{ name: 'B', value: '2' }] } }), 'two');
    assert.deepEqual((obj.spec as { env: unknown[] }).env, [{ name: 'A', value: '1' }, { name: 'B', value: '2' }]);
  });

  it('granular maps merge by key; atomic maps and structs are replaced whole by one owner', () => {
    let obj = apply(undefined, widget({ spec: { options: { a: '1' }, pinned: { a: '1' }, selector: { matchLabels: { a: '1' } } } }), 'one');
    obj = apply(obj, widget({ spec: { options: { b: '2' } } }), 'two');
    assert.deepEqual((obj.spec as { options: unknown }).options, { a: '1', b: '2' });
    assert.match(conflictOf(() => apply(obj, widget({ spec: { pinned: { b: '2' } } }), 'two')).message, /conflict with "one": \.spec\.pinned$/);
    assert.match(conflictOf(() => apply(obj, widget({ spec: { selector: { matchLabels: { b: '2' } } } }), 'two')).message, /conflict with "one": \.spec\.selector$/);
    obj = apply(obj, widget({ spec: { pinned: { b: '2' } } }), 'two', true);
    assert.deepEqual((obj.spec as { pinned: unknown }).pinned, { b: '2' });
  });

  it('free-form values: maps merge by key, lists are atomic', () => {
    let obj = apply(undefined, widget({ spec: { config: { a: 1, list: [1] } } }), 'one');
    obj = apply(obj, widget({ spec: { config: { b: 2 } } }), 'two');
    assert.deepEqual((obj.spec as { config: unknown }).config, { a: 1, list: [1], b: 2 });
    assert.match(conflictOf(() => apply(obj, widget({ spec: { config: { list: [2] } } }), 'two')).message, /conflict with "one": \.spec\.config\.list$/);
  });
});

describe('reset fields and sub-resources', () => {
  it('an apply to the main resource does not own status', () => {
    const obj = apply(undefined, widget({ data: { a: '1' }, status: { phase: 'x' } }), 'm');
    assert.deepEqual(entry(obj, 'm')!.fieldsV1, { 'f:data': { 'f:a': {} } });
  });

  it('an apply to status owns status only and conflicts only there', () => {
    const statusScope = widgetScope({ subresource: 'status', resetFields: undefined });
    let obj = apply(undefined, widget({ spec: { replicas: 1 } }), 'owner');
    obj = apply(obj, widget({ status: { phase: 'Up' } }), 'ctrl', false, statusScope);
    assert.deepEqual(entry(obj, 'ctrl'), {
      manager: 'ctrl', operation: 'Apply', apiVersion: 'example.io/v1', time: '2024-05-01T10:00:00Z', fieldsType: 'FieldsV1',
      fieldsV1: { 'f:status': { 'f:phase': {} } }, subresource: 'status',
    });
  });
});

describe('apply body checks', () => {
  it('refuses another kind or version, and a body with managedFields', () => {
    assert.throws(() => checkApplyBody(scope, { apiVersion: 'example.io/v2', kind: 'Widget' }), { code: 400, message: 'invalid object type: example.io/v2, Kind=Widget' });
    assert.throws(() => checkApplyBody(scope, { apiVersion: 'v1', kind: 'ConfigMap' }), { code: 400, message: 'invalid object type: /v1, Kind=ConfigMap' });
    assert.throws(() => checkApplyBody(scope, { kind: 'Widget' }), { message: 'invalid object type: /, Kind=Widget' });
    assert.throws(() => checkApplyBody(scope, { apiVersion: 'example.io/v1', kind: 'Widget', metadata: { managedFields: [] } }), { code: 400, message: 'metadata.managedFields must be nil' });
    checkApplyBody(scope, { apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name: 'x' } });
  });
});

describe('client-side apply interplay', () => {
  it('kubectl may take the fields its last-applied configuration set, and rewrites that annotation', () => {
    const last = JSON.stringify({ apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns' }, data: { a: '1' } });
    let obj = update(undefined, widget({ data: { a: '1' } }, { annotations: { [LAST_APPLIED_ANNOTATION]: last } }), 'kubectl-client-side-apply');
    obj = apply(obj, widget({ data: { a: '2' } }), 'kubectl');
    assert.deepEqual(obj.data, { a: '2' });
    assert.equal(obj.metadata.annotations![LAST_APPLIED_ANNOTATION], '{"apiVersion":"example.io/v1","data":{"a":"2"},"kind":"Widget","metadata":{"name":"w","namespace":"ns"}}\n');
    // Another manager gets the conflict.
    assert.equal(conflictOf(() => apply(obj, widget({ data: { a: '3' } }), 'other')).code, 409);
  });
});

describe('manager names', () => {
  it('default to the User-Agent up to its first slash, printable, at most 128 bytes', () => {
    assert.equal(managerFromUserAgent('kubectl/v1.32.4 (linux/amd64) kubernetes/abc'), 'kubectl');
    assert.equal(managerFromUserAgent('my\u0007tool/1.0'), 'mytool');
    assert.equal(managerFromUserAgent('t\u00f6\u00a0\u{1f600}\u2028x/1'), 't\u00f6\u{1f600}x');
    assert.equal(managerFromUserAgent('\u00e9'.repeat(100)), '\u00e9'.repeat(64));
    assert.equal(managerFromUserAgent('x'.repeat(200)), 'x'.repeat(128));
    assert.equal(managerFromUserAgent(undefined), '');
    assert.equal(managerOrUserAgent('explicit', 'kubectl/v1'), 'explicit');
  });
});
