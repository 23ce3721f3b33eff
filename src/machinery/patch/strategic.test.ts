// Strategic merge patch: Kubernetes' known cases over a Pod-like schema.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { S } from '../../apis/meta/schema.ts';
import { ObjectMeta } from '../../apis/meta/v1.ts';
import { decodeStrategicPatch, strategicMergePatch, StrategicPatchError } from './strategic.ts';

const EnvVar = S.object({ name: S.string(), value: S.string() });
const Port = S.object({ containerPort: S.int32(), protocol: S.string() });
const Container = S.object({
  name: S.string(),
  image: S.string(),
  args: S.list(S.string()),
  env: S.list(EnvVar, { patchStrategy: 'merge', patchMergeKey: 'name' }),
  ports: S.list(Port, { listType: 'map', listMapKeys: ['containerPort', 'protocol'], patchStrategy: 'merge', patchMergeKey: 'containerPort' }),
});
const Volume = S.object({ name: S.string(), emptyDir: S.object({ medium: S.string() }), hostPath: S.object({ path: S.string() }) });
const Schema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: ObjectMeta,
  spec: S.object({
    containers: S.list(Container, { listType: 'map', listMapKeys: ['name'], patchStrategy: 'merge', patchMergeKey: 'name' }),
    volumes: S.list(Volume, { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' }),
    /** listType map but no patch strategy: strategic merge replaces it. */
    conditions: S.list(S.object({ type: S.string(), status: S.string() }), { listType: 'map', listMapKeys: ['type'] }),
    podCIDRs: S.list(S.string(), { listType: 'set', patchStrategy: 'merge' }),
    strategy: S.object({ type: S.string(), rollingUpdate: S.object({ maxSurge: S.intOrString() }) }, {}),
    matrix: S.list(S.list(S.string()), { patchStrategy: 'merge' }),
  }),
});
// Deployment's strategy is a retainKeys union.
(Schema.properties.spec.properties.strategy as unknown as Record<string, unknown>)['x-platform-patch-strategy'] = 'retainKeys';

type Obj = Record<string, unknown>;
const smp = (original: Obj, patch: Obj) => strategicMergePatch(original, patch, Schema);

function patchError(fn: () => unknown): StrategicPatchError {
  try { fn(); } catch (err) { assert.ok(err instanceof StrategicPatchError, String(err)); return err; }
  assert.fail('expected a patch error');
}

describe('strategic merge patch: maps', () => {
  it('merges maps recursively and deletes keys set to null', () => {
    const out = smp({ metadata: { labels: { a: '1', b: '2' }, name: 'x' } }, { metadata: { labels: { b: null, c: '3' } } });
    assert.deepEqual(out, { metadata: { labels: { a: '1', c: '3' }, name: 'x' } });
  });

  it('$patch: replace replaces a map, $patch: delete empties it', () => {
    assert.deepEqual(smp({ metadata: { labels: { a: '1' } } }, { metadata: { labels: { $patch: 'replace', b: '2' } } }), { metadata: { labels: { b: '2' } } });
    assert.deepEqual(smp({ metadata: { labels: { a: '1' } } }, { metadata: { labels: { $patch: 'delete' } } }), { metadata: { labels: {} } });
    assert.equal(patchError(() => smp({ metadata: { labels: {} } }, { metadata: { labels: { $patch: 'bogus' } } })).message, 'unknown patch type: bogus in map: map[$patch:bogus]');
  });

  it('does not modify its inputs and drops nulls from new values', () => {
    const original = { metadata: { name: 'x' } };
    const patch = { metadata: { labels: { a: '1', b: null } } };
    assert.deepEqual(smp(original, patch), { metadata: { name: 'x', labels: { a: '1' } } });
    assert.deepEqual(original, { metadata: { name: 'x' } });
    assert.deepEqual(patch, { metadata: { labels: { a: '1', b: null } } });
  });

  it('$retainKeys clears the keys it does not list; the patch may set only listed keys', () => {
    const original = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } };
    assert.deepEqual(smp(original, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }), { spec: { strategy: { type: 'Recreate' } } });
    const err = patchError(() => smp(original, { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: { maxSurge: 2 } } } }));
    assert.equal(err.message, "patch content doesn't match retainKeys list");
    assert.equal(err.toStatus().code, 422);
    assert.equal(err.toStatus().message, 'the server rejected our request due to an error in our request');
    assert.equal(patchError(() => smp(original, { spec: { strategy: { $retainKeys: 'type' } } })).toStatus().code, 400);
  });
});

describe('strategic merge patch: lists', () => {
  const pod = (containers: Obj[]) => ({ spec: { containers } });

  it('merges lists of objects on the merge key; matched items merge, new items go first', () => {
    const out = smp(pod([{ name: 'a', image: '1' }, { name: 'b', image: '1' }]), pod([{ name: 'b', image: '2' }, { name: 'c', image: '3' }]));
    assert.deepEqual(out, pod([{ name: 'a', image: '1' }, { name: 'b', image: '2' }, { name: 'c', image: '3' }]));
    assert.deepEqual(smp(pod([{ name: 'a' }]), pod([{ name: 'new' }])), pod([{ name: 'new' }, { name: 'a' }]));
  });

  it('merges nested merge lists and replaces lists without a strategy', () => {
    const out = smp(
      pod([{ name: 'a', args: ['x', 'y'], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }]),
      pod([{ name: 'a', args: ['z'], env: [{ name: 'B', value: '3' }] }]),
    );
    assert.deepEqual(out, pod([{ name: 'a', args: ['z'], env: [{ name: 'A', value: '1' }, { name: 'B', value: '3' }] }]));
  });

  it('replaces listType=map lists that have no patch strategy', () => {
    const out = smp({ spec: { conditions: [{ type: 'A', status: 'True' }] } }, { spec: { conditions: [{ type: 'B', status: 'False' }] } });
    assert.deepEqual(out, { spec: { conditions: [{ type: 'B', status: 'False' }] } });
  });

  it('$patch: delete removes every item with the key; $patch: replace replaces the list', () => {
    assert.deepEqual(smp(pod([{ name: 'a' }, { name: 'b' }]), pod([{ name: 'a', $patch: 'delete' }])), pod([{ name: 'b' }]));
    assert.deepEqual(smp(pod([{ name: 'a' }, { name: 'b' }]), pod([{ name: 'c' }, { $patch: 'replace' }])), pod([{ name: 'c' }]));
    assert.equal(patchError(() => smp(pod([{ name: 'a' }]), pod([{ $patch: 'merge' }]))).message, 'merging lists cannot yet be specified in the patch');
    assert.equal(patchError(() => smp(pod([{ name: 'a' }]), pod([{ $patch: 'delete' }]))).message, 'map: map[$patch:delete] does not contain declared merge key: name');
  });

  it('refuses items without the merge key', () => {
    const err = patchError(() => smp(pod([{ name: 'a' }]), pod([{ image: 'x' }])));
    assert.equal(err.message, 'map: map[image:x] does not contain declared merge key: name');
    assert.equal(err.toStatus().code, 400);
  });

  it('merges lists of scalars as a set union and deletes with $deleteFromPrimitiveList', () => {
    assert.deepEqual(smp({ spec: { podCIDRs: ['a', 'b'] } }, { spec: { podCIDRs: ['b', 'c'] } }), { spec: { podCIDRs: ['a', 'b', 'c'] } });
    assert.deepEqual(smp({ metadata: { finalizers: ['x', 'y', 'z'] } }, { metadata: { '$deleteFromPrimitiveList/finalizers': ['y'] } }), { metadata: { finalizers: ['x', 'z'] } });
    assert.deepEqual(smp({ metadata: {} }, { metadata: { '$deleteFromPrimitiveList/finalizers': ['y'] } }), { metadata: {} });
    const err = patchError(() => smp({ metadata: { finalizers: ['x'] } }, { metadata: { $deleteFromPrimitiveList: ['x'] } }));
    assert.equal(err.message, 'invalid patch format of primitive list');
    assert.equal(err.toStatus().code, 400);
  });

  it('$setElementOrder fixes the final order of the list', () => {
    const out = smp(
      pod([{ name: 'a', image: '1' }, { name: 'b', image: '1' }, { name: 'c', image: '1' }]),
      { spec: { '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }, { name: 'b' }], containers: [{ name: 'a', image: '2' }] } },
    );
    assert.deepEqual(out, pod([{ name: 'c', image: '1' }, { name: 'a', image: '2' }, { name: 'b', image: '1' }]));
    const prim = smp({ spec: { podCIDRs: ['a', 'b'] } }, { spec: { '$setElementOrder/podCIDRs': ['c', 'b', 'a'], podCIDRs: ['c'] } });
    assert.deepEqual(prim, { spec: { podCIDRs: ['c', 'b', 'a'] } });
    const err = patchError(() => smp(pod([{ name: 'a' }]), { spec: { '$setElementOrder/containers': [{ name: 'a' }], containers: [{ name: 'zzz' }] } }));
    assert.match(err.message, /^The order in patch list:\n.*\n doesn't match \$setElementOrder list:\n/);
    assert.equal(patchError(() => smp(pod([]), { spec: { $setElementOrder: [] } })).message, 'invalid patch format of setElementOrder list');
  });

  it('merge,retainKeys lists merge by key and honour $retainKeys inside items', () => {
    const out = smp(
      { spec: { volumes: [{ name: 'v', emptyDir: { medium: 'Memory' } }] } },
      { spec: { volumes: [{ name: 'v', $retainKeys: ['name', 'hostPath'], hostPath: { path: '/x' } }] } },
    );
    assert.deepEqual(out, { spec: { volumes: [{ name: 'v', hostPath: { path: '/x' } }] } });
  });

  it('refuses lists of lists with a 422', () => {
    const err = patchError(() => smp({ spec: { matrix: [['a']] } }, { spec: { matrix: [['b']] } }));
    assert.equal(err.message, 'lists of lists are not supported');
    assert.equal(err.toStatus().code, 422);
    assert.equal(err.toStatus().reason, 'Invalid');
  });

  it('a value of another type replaces the original', () => {
    assert.deepEqual(smp({ spec: { containers: [{ name: 'a' }] } }, { spec: { containers: 'x' } }), { spec: { containers: 'x' } });
  });
});

describe('strategic merge patch bodies', () => {
  it('must be JSON objects', () => {
    assert.deepEqual(decodeStrategicPatch('{"a":1}').patch, { a: 1 });
    assert.throws(() => decodeStrategicPatch('[1]'), { code: 400, message: 'json: cannot unmarshal array into Go value of type map[string]interface {}' });
    assert.throws(() => decodeStrategicPatch('{'), { code: 400, message: 'unexpected end of JSON input' });
    assert.deepEqual(decodeStrategicPatch('{"a":1,"a":2}', 'Strict').strictErrors, ['duplicate field "a"']);
  });
});
