import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namespaceSelectorMatches, objectSelectorMatches, type SelectorRequest } from './webhook-selectors.ts';
import { labelSelectorFromObject } from '../machinery/labels.ts';
import { StatusError } from '../machinery/status.ts';
import type { ApiObject } from '../apis/meta/v1.ts';

const nsObject = (name: string, labels: Record<string, string>): ApiObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
const stored = new Map([['prod', nsObject('prod', { env: 'prod' })], ['dev', nsObject('dev', { env: 'dev' })]]);
const lookup = async (name: string) => stored.get(name);
const prod = labelSelectorFromObject({ matchLabels: { env: 'prod' } });
const req = (r: Partial<SelectorRequest>): SelectorRequest => ({ namespaceObject: false, operation: 'CREATE', subresource: '', namespace: '', object: null, ...r });

test('namespace selector: the namespace\'s labels; a Namespace\'s own; other cluster-scoped objects always pass', async () => {
  assert.equal(await namespaceSelectorMatches(prod, req({ namespace: 'prod' }), lookup), true);
  assert.equal(await namespaceSelectorMatches(prod, req({ namespace: 'dev' }), lookup), false);
  assert.equal(await namespaceSelectorMatches(prod, req({ namespace: '' }), lookup), true);
  // A Namespace being created or updated is matched on the labels it will have; deleted, on the stored ones.
  assert.equal(await namespaceSelectorMatches(prod, req({ namespaceObject: true, namespace: 'new', object: nsObject('new', { env: 'prod' }) }), lookup), true);
  assert.equal(await namespaceSelectorMatches(prod, req({ namespaceObject: true, operation: 'DELETE', namespace: 'dev' }), lookup), false);
  await assert.rejects(namespaceSelectorMatches(prod, req({ namespace: 'gone' }), lookup), (e: StatusError) => e.code === 404 && e.message === 'namespaces "gone" not found');
  // An empty selector needs no lookup.
  assert.equal(await namespaceSelectorMatches(labelSelectorFromObject({}), req({ namespace: 'gone' }), lookup), true);
  await assert.rejects(namespaceSelectorMatches(new Error('bad selector'), req({ namespace: 'prod' }), lookup), (e: StatusError) => e.code === 500);
});

test('object selector: the new or the old object; none matches nothing', () => {
  const web = labelSelectorFromObject({ matchLabels: { app: 'web' } });
  const o = (labels?: Record<string, string>): ApiObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', ...(labels ? { labels } : {}) } });
  assert.equal(objectSelectorMatches(web, o({ app: 'web' }), null), true);
  assert.equal(objectSelectorMatches(web, o(), o({ app: 'web' })), true);
  assert.equal(objectSelectorMatches(web, o({ app: 'db' }), o()), false);
  assert.equal(objectSelectorMatches(web, null, null), false);
  assert.equal(objectSelectorMatches(labelSelectorFromObject({}), null, null), true);
});
