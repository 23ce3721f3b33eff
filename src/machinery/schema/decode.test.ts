import { test } from 'node:test';
import assert from 'node:assert/strict';
import { S } from '../../apis/meta/schema.ts';
import { LabelSelector, ObjectMeta } from '../../apis/meta/v1.ts';
import { decodeObject } from './decode.ts';
import { ErrFormatWrong as QUANTITY_FORMAT_ERROR } from '../quantity.ts';

const ConfigMap = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: ObjectMeta,
  data: S.map(S.string()),
  binaryData: S.map(S.bytes()),
  immutable: S.bool(),
}, { ref: 'core.v1.ConfigMap' });

const ContainerPort = S.object({ name: S.string(), containerPort: S.int32(), protocol: S.string() }, { ref: 'core.v1.ContainerPort' });
const Container = S.object({
  name: S.string(),
  image: S.string(),
  ports: S.list(ContainerPort),
  resources: S.object({ limits: S.map(S.quantity()) }, { ref: 'core.v1.ResourceRequirements' }),
  args: S.list(S.string()),
}, { ref: 'core.v1.Container' });
const PodSpec = S.object({ containers: S.list(Container), activeDeadlineSeconds: S.int64(), overhead: S.number() }, { ref: 'core.v1.PodSpec' });
const Deployment = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: ObjectMeta,
  spec: S.object({
    replicas: S.int32(),
    paused: S.bool(),
    selector: LabelSelector,
    template: S.object({ metadata: ObjectMeta, spec: PodSpec }, { ref: 'core.v1.PodTemplateSpec' }),
    strategy: S.object({
      type: S.string(),
      rollingUpdate: S.object({ maxSurge: S.intOrString(), maxUnavailable: S.intOrString() }, { ref: 'apps.v1.RollingUpdateDeployment' }),
    }, { ref: 'apps.v1.DeploymentStrategy' }),
    extension: S.any(),
    config: S.object({ known: S.string() }, { preserveUnknownFields: true }),
  }, { ref: 'apps.v1.DeploymentSpec' }),
}, { ref: 'apps.v1.Deployment' });

const cm = (v: unknown) => decodeObject(v, ConfigMap, { kind: 'ConfigMap', apiVersion: 'v1' });
const deploy = (v: unknown) => decodeObject(v, Deployment, { kind: 'Deployment', apiVersion: 'apps/v1' });

test('a well-formed body decodes unchanged and in place', () => {
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { x: 'y' }, creationTimestamp: '2024-01-01T00:00:00Z' }, data: { k: 'v' }, binaryData: { b: 'YWJj' }, immutable: true };
  const copy = structuredClone(body);
  const r = cm(body);
  assert.equal(r.object, body);
  assert.deepEqual(r.object, copy);
  assert.deepEqual(r.unknownFields, []);
  assert.equal(r.typeError, undefined);
});

test('undeclared fields are dropped and reported with their paths, in body order', () => {
  const r = deploy({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', unknownMeta: 1, labels: { 'any.key/x': 'v' } },
    spec: {
      foo: 1,
      template: { spec: { containers: [{ name: 'a' }, { name: 'b', bar: 2 }] } },
      extension: { anything: { goes: [1, null] } },
      config: { known: 'k', extra: { x: null } },
    },
    extra: true,
  });
  assert.deepEqual(r.unknownFields, ['metadata.unknownMeta', 'spec.foo', 'spec.template.spec.containers[1].bar', 'extra']);
  assert.equal(r.typeError, undefined);
  assert.deepEqual(r.object, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', labels: { 'any.key/x': 'v' } },
    spec: {
      template: { spec: { containers: [{ name: 'a' }, { name: 'b' }] } },
      extension: { anything: { goes: [1, null] } },
      config: { known: 'k', extra: { x: null } },
    },
  });
});

test('apiVersion and kind are always known at the root', () => {
  const Bare = S.object({ spec: S.object({}) });
  const r = decodeObject({ apiVersion: 'x/v1', kind: 'Bare', spec: {} }, Bare, { kind: 'Bare', apiVersion: 'x/v1' });
  assert.deepEqual(r.unknownFields, []);
  assert.equal(decodeObject({ kind: 5 }, Bare, { kind: 'Bare', apiVersion: 'x/v1' }).typeError, 'json: cannot unmarshal number into Go struct field Bare.kind of type string');
});

test('null means absent for a field, the zero value inside lists and maps, and stays in free-form data', () => {
  const r = deploy({
    metadata: { name: null, labels: { a: null, b: 'x' }, finalizers: ['f', null] },
    spec: { replicas: null, template: { spec: { containers: [null, { name: 'c', ports: [{ containerPort: null }] }] } }, extension: { keep: null } },
  });
  assert.equal(r.typeError, undefined);
  assert.deepEqual(r.object, {
    metadata: { labels: { a: '', b: 'x' }, finalizers: ['f', ''] },
    spec: { template: { spec: { containers: [{}, { name: 'c', ports: [{}] }] } }, extension: { keep: null } },
  });
});

test('typed values are normalised the way a Go round trip stores them', () => {
  const r = deploy({
    metadata: { creationTimestamp: '2024-01-01T01:00:00+02:00', deletionTimestamp: '0001-01-01T00:00:00Z' },
    spec: { template: { spec: { containers: [{ resources: { limits: { cpu: 0.5, memory: '1Gi', storage: ' 1.5Gi ' } } }] } }, strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } } },
  });
  assert.equal(r.typeError, undefined);
  assert.deepEqual(r.object, {
    metadata: { creationTimestamp: '2023-12-31T23:00:00Z' },
    spec: { template: { spec: { containers: [{ resources: { limits: { cpu: '500m', memory: '1Gi', storage: '1536Mi' } } }] } }, strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } } },
  });
  assert.deepEqual(cm({ binaryData: { a: 'YR==', b: 'YW\nJj' } }).object, { binaryData: { a: 'YQ==', b: 'YWJj' } });
});

test('type mismatches give Go json decode errors with the Go struct and field path', () => {
  const cases: [unknown, (v: unknown) => ReturnType<typeof cm>, string][] = [
    [{ data: { a: 1 } }, cm, 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string'],
    [{ data: [] }, cm, 'json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string'],
    [{ metadata: 'x' }, cm, 'json: cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta'],
    [{ metadata: { labels: { a: true } } }, cm, 'json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string'],
    [{ metadata: { generation: 'one' } }, cm, 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.generation of type int64'],
    [{ metadata: { finalizers: 'a' } }, cm, 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.finalizers of type []string'],
    [{ metadata: { ownerReferences: [{ uid: 7 }] } }, cm, 'json: cannot unmarshal number into Go struct field OwnerReference.metadata.ownerReferences.uid of type string'],
    [{ immutable: 'yes' }, cm, 'json: cannot unmarshal string into Go struct field ConfigMap.immutable of type bool'],
    [{ binaryData: { a: 5 } }, cm, 'json: cannot unmarshal number into Go struct field ConfigMap.binaryData of type []uint8'],
    [{ binaryData: { a: 'abc' } }, cm, 'illegal base64 data at input byte 0'],
    [[], cm, 'json: cannot unmarshal array into Go value of type v1.ConfigMap'],
    ['x', cm, 'json: cannot unmarshal string into Go value of type v1.ConfigMap'],
    [{ spec: { replicas: '3' } }, deploy, 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32'],
    [{ spec: { replicas: 3000000000 } }, deploy, 'json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32'],
    [{ spec: { replicas: -2147483649 } }, deploy, 'json: cannot unmarshal number -2147483649 into Go struct field DeploymentSpec.spec.replicas of type int32'],
    [{ spec: { replicas: 1.5 } }, deploy, 'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32'],
    [{ spec: { template: { spec: { activeDeadlineSeconds: 1e19 } } } }, deploy, 'json: cannot unmarshal number 10000000000000000000 into Go struct field PodSpec.spec.template.spec.activeDeadlineSeconds of type int64'],
    [{ spec: { template: { spec: { overhead: 'x' } } } }, deploy, 'json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.overhead of type float64'],
    [{ spec: { paused: 0 } }, deploy, 'json: cannot unmarshal number into Go struct field DeploymentSpec.spec.paused of type bool'],
    [{ spec: { template: { spec: { containers: {} } } } }, deploy, 'json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container'],
    [{ spec: { template: { spec: { containers: [{ ports: 'x' }] } } } }, deploy, 'json: cannot unmarshal string into Go struct field Container.spec.template.spec.containers.ports of type []v1.ContainerPort'],
    [{ spec: { template: { spec: { containers: [{ name: 5 }] } } } }, deploy, 'json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.name of type string'],
    [{ spec: { template: { spec: { containers: [{ args: [1] }] } } } }, deploy, 'json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.args of type string'],
    [{ spec: { template: { spec: { containers: ['x'] } } } }, deploy, 'json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type v1.Container'],
    [{ spec: { strategy: { rollingUpdate: { maxSurge: true } } } }, deploy, 'json: cannot unmarshal bool into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32'],
    [{ spec: { strategy: { rollingUpdate: { maxSurge: 1.5 } } } }, deploy, 'json: cannot unmarshal number 1.5 into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32'],
    [{ spec: { strategy: { rollingUpdate: { maxSurge: {} } } } }, deploy, 'json: cannot unmarshal object into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32'],
    [{ spec: { template: { spec: { containers: [{ resources: { limits: { cpu: 'lots' } } }] } } } }, deploy, QUANTITY_FORMAT_ERROR],
    [{ spec: { template: { spec: { containers: [{ resources: { limits: { cpu: true } } }] } } } }, deploy, QUANTITY_FORMAT_ERROR],
    [{ spec: { template: { spec: { containers: [{ resources: { limits: { cpu: '1iG' } } }] } } } }, deploy, "unable to parse quantity's suffix"],
    [{ metadata: { creationTimestamp: 5 } }, deploy, 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string'],
    [{ metadata: { creationTimestamp: 'yesterday' } }, deploy, 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
    [{ spec: { template: { metadata: { managedFields: [{ time: '2024-01-01' }] } } } }, deploy, 'parsing time "2024-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"'],
  ];
  for (const [body, decode, message] of cases) assert.equal(decode(body).typeError, message, JSON.stringify(body));
});

test('the first ordinary type error wins, but a custom unmarshaler error ends decoding at once', () => {
  assert.equal(cm({ data: { a: 1 }, immutable: 'x' }).typeError, 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string');
  assert.equal(
    deploy({ spec: { replicas: 'x' }, metadata: { creationTimestamp: 'bad' } }).typeError,
    'parsing time "bad" as "2006-01-02T15:04:05Z07:00": cannot parse "bad" as "2006"',
  );
});

test('a root schema without a ref is named after the kind', () => {
  const Thing = S.object({ size: S.int32(), sub: S.object({ n: S.int32() }) });
  assert.equal(decodeObject({ size: 'x' }, Thing, { kind: 'Thing', apiVersion: 'example.svc.io/v1' }).typeError, 'json: cannot unmarshal string into Go struct field Thing.size of type int32');
  assert.equal(decodeObject([], Thing, { kind: 'Thing', apiVersion: 'example.svc.io/v1' }).typeError, 'json: cannot unmarshal array into Go value of type v1.Thing');
});

test('recursive schemas decode through $ref', async () => {
  const { Type } = await import('@sinclair/typebox');
  const Tree = Type.Recursive((Self) => S.object({ name: S.string(), children: S.list(Self) }), { $id: 'Tree' });
  const r = decodeObject({ name: 'a', children: [{ name: 'b', children: [{ name: 'c', x: 1 }] }] }, Tree, { kind: 'Tree', apiVersion: 'v1' });
  assert.deepEqual(r.unknownFields, ['children[0].children[0].x']);
  assert.equal(decodeObject({ children: [{ name: 1 }] }, Tree, { kind: 'Tree', apiVersion: 'v1' }).typeError, 'json: cannot unmarshal number into Go struct field Tree.children.name of type string');
});
