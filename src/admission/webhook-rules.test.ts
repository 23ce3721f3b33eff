import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Equivalents, matchingResource, ruleMatches, targetOf, type WebhookRule } from './webhook-rules.ts';
import { allKinds } from '../apis/index.ts';
import { ApiSurface, isServed, type ServedResource } from '../server/apis.ts';
import { ResourceStore } from '../registry/store.ts';
import { SqliteStorage } from '../storage/sqlite.ts';

const storage = SqliteStorage.open(':memory:');
after(() => storage.close());
const surface = new ApiSurface();
for (const def of allKinds()) {
  const store = new ResourceStore(def, storage);
  for (const version of def.versions) if (isServed(def, version, {})) surface.add({ def, version, store });
}
const served = (group: string, version: string, resource: string): ServedResource => surface.lookup(group, version, resource)!;
const equivalents = new Equivalents(surface.served);

const rule = (r: Partial<WebhookRule>): WebhookRule => ({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: '*', ...r });
const pods = targetOf(served('', 'v1', 'pods'), '');
const podStatus = targetOf(served('', 'v1', 'pods'), 'status');
const namespaces = targetOf(served('', 'v1', 'namespaces'), '');

test('operations, groups and versions: a listed value or *', () => {
  assert.equal(ruleMatches(rule({ operations: ['CREATE', 'UPDATE'] }), 'UPDATE', pods), true);
  assert.equal(ruleMatches(rule({ operations: ['CREATE'] }), 'DELETE', pods), false);
  assert.equal(ruleMatches(rule({ apiGroups: [''] }), 'CREATE', pods), true);
  assert.equal(ruleMatches(rule({ apiGroups: ['apps'] }), 'CREATE', pods), false);
  assert.equal(ruleMatches(rule({ apiVersions: ['v2'] }), 'CREATE', pods), false);
});

test('resources: plain names match no sub-resource; res/*, */sub and */* reach sub-resources', () => {
  assert.equal(ruleMatches(rule({ resources: ['pods'] }), 'CREATE', pods), true);
  assert.equal(ruleMatches(rule({ resources: ['pods'] }), 'UPDATE', podStatus), false);
  assert.equal(ruleMatches(rule({ resources: ['*'] }), 'UPDATE', podStatus), false);
  assert.equal(ruleMatches(rule({ resources: ['pods/status'] }), 'UPDATE', podStatus), true);
  assert.equal(ruleMatches(rule({ resources: ['pods/*'] }), 'UPDATE', podStatus), true);
  assert.equal(ruleMatches(rule({ resources: ['*/status'] }), 'UPDATE', podStatus), true);
  assert.equal(ruleMatches(rule({ resources: ['*/scale'] }), 'UPDATE', podStatus), false);
  assert.equal(ruleMatches(rule({ resources: ['*/*'] }), 'UPDATE', podStatus), true);
  assert.equal(ruleMatches(rule({ resources: ['*/*'] }), 'CREATE', pods), true);
});

test('scope: a Namespace is cluster-scoped', () => {
  assert.equal(ruleMatches(rule({ scope: 'Namespaced' }), 'CREATE', pods), true);
  assert.equal(ruleMatches(rule({ scope: 'Cluster' }), 'CREATE', pods), false);
  assert.equal(ruleMatches(rule({ scope: 'Cluster' }), 'CREATE', namespaces), true);
  assert.equal(ruleMatches(rule({ scope: 'Namespaced' }), 'CREATE', namespaces), false);
});

test('Equivalent: another version or group storing the same objects, earlier rules first; Exact: only the addressed one', () => {
  const hpaV1 = served('autoscaling', 'v1', 'horizontalpodautoscalers');
  const hpaV2 = served('autoscaling', 'v2', 'horizontalpodautoscalers');
  const v2Rule = [rule({ apiGroups: ['autoscaling'], apiVersions: ['v2'], resources: ['horizontalpodautoscalers'] })];
  assert.equal(matchingResource(v2Rule, 'Equivalent', 'CREATE', hpaV1, '', equivalents), hpaV2);
  assert.equal(matchingResource(v2Rule, 'Exact', 'CREATE', hpaV1, '', equivalents), undefined);
  assert.equal(matchingResource(v2Rule, 'Equivalent', 'CREATE', hpaV2, '', equivalents), hpaV2);
  // Status is offered by both versions, so it matches through the other one too.
  const statusRule = [rule({ apiGroups: ['autoscaling'], apiVersions: ['v2'], resources: ['horizontalpodautoscalers/status'] })];
  assert.equal(matchingResource(statusRule, 'Equivalent', 'UPDATE', hpaV1, 'status', equivalents), hpaV2);

  const coreEvents = served('', 'v1', 'events');
  const newEvents = served('events.svc.io', 'v1', 'events');
  const eventsRule = [rule({ apiGroups: ['events.svc.io'], resources: ['events'] })];
  assert.equal(matchingResource(eventsRule, 'Equivalent', 'CREATE', coreEvents, '', equivalents), newEvents);
  assert.equal(matchingResource([rule({ apiGroups: [''], resources: ['events'] })], 'Equivalent', 'CREATE', newEvents, '', equivalents), coreEvents);
  // A kind with one version and no other group has no equivalent.
  assert.deepEqual(equivalents.of(served('', 'v1', 'configmaps'), ''), []);
});
