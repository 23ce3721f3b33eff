import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toTable, partialMetadata } from './table.ts';
import type { ServedResource } from '../apis.ts';
import type { ApiObject } from '../../apis/meta/v1.ts';

// A kind that declares no columns of its own.
const served = { def: { kind: 'Thing', plural: 'things', group: 'example.com' }, version: { name: 'v1' } } as unknown as ServedResource;
const rep = { mediaType: 'application/json', as: 'Table', group: 'meta.k8s.io', version: 'v1' } as const;

describe('toTable', () => {
  it('gives kinds without columns Name and Created At, as Kubernetes\' default table convertor does', () => {
    const obj = { kind: 'Thing', apiVersion: 'example.com/v1', metadata: { name: 'a', resourceVersion: '7', creationTimestamp: '2024-05-01T10:00:00Z' } } as ApiObject;
    const table = toTable(served, [obj], 'Metadata', rep, undefined) as any;
    assert.deepEqual(table.columnDefinitions.map((c: any) => [c.name, c.type, c.format]), [['Name', 'string', 'name'], ['Created At', 'date', '']]);
    assert.deepEqual(table.rows, [{ cells: ['a', '2024-05-01T10:00:00Z'], object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata } }]);
    assert.deepEqual(table.metadata, { resourceVersion: '7' });
  });

  it('prints a missing creationTimestamp as Go\'s zero time (a bookmark\'s row), and can leave the columns out', () => {
    const bookmark = { kind: 'Thing', apiVersion: 'example.com/v1', metadata: { resourceVersion: '9' } } as ApiObject;
    const table = toTable(served, [bookmark], 'None', rep, undefined, false) as any;
    assert.equal(table.columnDefinitions, undefined);
    assert.deepEqual(table.rows, [{ cells: ['', '0001-01-01T00:00:00Z'], object: null }]);
  });

  it('includeObject=None keeps each row\'s object key as null, as Go marshals an empty RawExtension', () => {
    const obj = { kind: 'Thing', apiVersion: 'example.com/v1', metadata: { name: 'a', resourceVersion: '7', creationTimestamp: '2024-05-01T10:00:00Z' } } as ApiObject;
    const text = JSON.stringify(toTable(served, [obj], 'None', rep, undefined));
    assert.ok(text.includes('"rows":[{"cells":["a","2024-05-01T10:00:00Z"],"object":null}]'), text);
  });

  it('PartialObjectMetadata names the group and version asked for', () => {
    assert.equal(partialMetadata({ metadata: { name: 'x' } } as ApiObject, { group: 'meta.svc.io', version: 'v1beta1' }).apiVersion, 'meta.svc.io/v1beta1');
  });
});
