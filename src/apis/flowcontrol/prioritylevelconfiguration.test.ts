import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { priorityLevelConfigurationKind as kind, requiredEntropyBits } from './prioritylevelconfiguration.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

let n = 0;
const plc = (spec: Record<string, unknown>, name = `pl-${++n}`): ApiObject => ({ apiVersion: 'flowcontrol.apiserver.svc.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name }, spec });
const limited = (l: Record<string, unknown>, name?: string) => plc({ type: 'Limited', limited: l }, name);
const queue = (queuing: Record<string, unknown> = {}) => ({ limitResponse: { type: 'Queue', queuing } });
const causes = async (obj: ApiObject) => (await rejection(h.create(obj))).causes;
type Spec = { limited: Record<string, any>; exempt: Record<string, any> };
const spec = (o: ApiObject) => o.spec as Spec;
const cells = (o: ApiObject) => kind.tableColumns!.map((c) => c.cell(o));

test('declaration: v1 only, cluster-scoped, status sub-resource, unions published, protobuf numbers', () => {
  assert.deepEqual(kind.versions.map((v) => v.name), ['v1']);
  assert.equal(kind.namespaced, false);
  assert.deepEqual(kind.status, {});
  const props = (kind.versions[0].schema as unknown as { properties: Record<string, any> }).properties;
  assert.deepEqual(props.spec['x-kubernetes-unions'], [{ discriminator: 'type', 'fields-to-discriminateBy': { limited: 'Limited', exempt: 'Exempt' } }]);
  const l = props.spec.properties.limited.properties;
  assert.deepEqual(['nominalConcurrencyShares', 'limitResponse', 'lendablePercent', 'borrowingLimitPercent'].map((k) => l[k]['x-proto']), [1, 2, 3, 4]);
  const q = l.limitResponse.properties.queuing.properties;
  assert.deepEqual(['queues', 'handSize', 'queueLengthLimit'].map((k) => q[k]['x-proto']), [1, 2, 3]);
  assert.equal(props.status.properties.conditions['x-platform-patch-merge-key'], 'type');
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age']);
});

test('defaults: nominalConcurrencyShares 30 when unset, lendablePercent 0, queuing 8/64/50', async () => {
  const obj = await h.create(limited(queue()));
  assert.deepEqual(spec(obj).limited, { nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { handSize: 8, queues: 64, queueLengthLimit: 50 } } });
  assert.deepEqual(cells(obj).slice(1, 6), ['Limited', 30, 64, 8, 50]);
  assert.equal(obj.metadata.generation, 1);
});

test('defaults: an explicit nominalConcurrencyShares of 0 stays 0', async () => {
  const obj = await h.create(limited({ nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' } }));
  assert.equal(spec(obj).limited.nominalConcurrencyShares, 0);
  assert.deepEqual(cells(obj).slice(2, 6), [0, '<none>', '<none>', '<none>']);
});

test('defaults: exempt shares and lendable percent 0', async () => {
  const obj = await h.create(plc({ type: 'Exempt', exempt: {} }, 'exempt'));
  assert.deepEqual(spec(obj).exempt, { nominalConcurrencyShares: 0, lendablePercent: 0 });
  assert.deepEqual(cells(obj).slice(1, 3), ['Exempt', '<none>']);
});

test('type: Exempt exactly for the level named exempt; Limited needs limited and forbids exempt', async () => {
  assert.deepEqual(await causes(plc({ type: 'Exempt' })), ["spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'"]);
  assert.deepEqual(await causes(plc({ type: 'Unlimited' })), ['spec.type: Unsupported value: "Unlimited": supported values: "Exempt", "Limited"']);
  assert.deepEqual(await causes(plc({ type: 'Limited' })), ['spec.limited: Required value: must not be empty when type is Limited']);
  assert.deepEqual(await causes(plc({ type: 'Limited', exempt: {}, limited: { limitResponse: { type: 'Reject' } } })), ['spec.exempt: Forbidden: must be nil if the type is Limited']);
});

test('limited: shares not negative, lendablePercent 0..100, borrowingLimitPercent not negative', async () => {
  assert.deepEqual(await causes(limited({ nominalConcurrencyShares: -1, limitResponse: { type: 'Reject' } })), ['spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer']);
  assert.deepEqual(await causes(limited({ lendablePercent: 101, limitResponse: { type: 'Reject' } })), ['spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive']);
  assert.deepEqual(await causes(limited({ borrowingLimitPercent: -5, limitResponse: { type: 'Reject' } })), ['spec.limited.borrowingLimitPercent: Invalid value: -5: if specified, must be a non-negative integer']);
  const ok = await h.create(limited({ borrowingLimitPercent: 250, lendablePercent: 100, limitResponse: { type: 'Reject' } }));
  assert.equal(spec(ok).limited.borrowingLimitPercent, 250);
});

test('exempt: shares not negative, lendablePercent 0..100', async () => {
  assert.deepEqual(await causes(plc({ type: 'Exempt', exempt: { nominalConcurrencyShares: -2, lendablePercent: -1 } }, 'exempt')), [
    'spec.exempt.nominalConcurrencyShares: Invalid value: -2: must be a non-negative integer',
    'spec.exempt.lendablePercent: Invalid value: -1: must be between 0 and 100, inclusive',
  ]);
});

test('limitResponse: Queue needs queuing, Reject forbids it', async () => {
  assert.deepEqual(await causes(limited({ limitResponse: { type: 'Queue' } })), ['spec.limited.limitResponse.queuing: Required value: must not be empty if limited.limitResponse.type is Limited']);
  assert.deepEqual(await causes(limited({ limitResponse: { type: 'Reject', queuing: {} } })), ['spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited']);
  assert.deepEqual(await causes(limited({ limitResponse: { type: 'Drop' } })), ['spec.limited.limitResponse.type: Unsupported value: "Drop": supported values: "Queue", "Reject"']);
});

test('queuing: positive values, handSize at most queues, shuffle-sharding entropy at most 60 bits', async () => {
  assert.deepEqual(await causes(limited(queue({ queueLengthLimit: -1, queues: -1, handSize: -1 }))), [
    'spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: -1: must be positive',
    'spec.limited.limitResponse.queuing.queues: Invalid value: -1: must be positive',
    'spec.limited.limitResponse.queuing.handSize: Invalid value: -1: must be positive',
  ]);
  assert.deepEqual(await causes(limited(queue({ queues: 4, handSize: 5 }))), ['spec.limited.limitResponse.queuing.handSize: Invalid value: 5: should not be greater than queues (4)']);
  assert.deepEqual(await causes(limited(queue({ queues: 20_000_000, handSize: 1 }))), ['spec.limited.limitResponse.queuing.queues: Invalid value: 20000000: must not be greater than 10000000']);
  assert.equal(requiredEntropyBits(128, 9), 63);
  assert.deepEqual(await causes(limited(queue({ queues: 128, handSize: 9 }))), ['spec.limited.limitResponse.queuing.handSize: Invalid value: 9: required entropy bits of deckSize 128 and handSize 9 should not be greater than 60']);
  const ok = await h.create(limited(queue({ queues: 128, handSize: 8 })));
  assert.equal(spec(ok).limited.limitResponse.queuing.handSize, 8);
});

test('status: written through /status, conditions unique by type; main writes keep it', async () => {
  const made = await h.create(limited({ limitResponse: { type: 'Reject' } }, 'with-status'));
  const withStatus = await h.update({ ...made, status: { conditions: [{ type: 'ConcurrencyShared', status: 'True' }] } }, { subresource: 'status' });
  assert.deepEqual(withStatus.status, { conditions: [{ type: 'ConcurrencyShared', status: 'True' }] });
  const main = await h.update({ ...withStatus, status: {} });
  assert.deepEqual(main.status, withStatus.status);
  assert.deepEqual((await rejection(h.update({ ...made, status: { conditions: [{ type: 'A' }, { type: 'A' }, { status: 'True' }] } }, { subresource: 'status' }))).causes, [
    'status.conditions[1].type: Duplicate value: "A"',
    'status.conditions[2].type: Required value: must not be empty',
  ]);
});
