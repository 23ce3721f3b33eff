import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { clusterTrustBundleKind as kind, bundleNameErrors } from './clustertrustbundle.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';
import { fixtures, type Fixtures } from './testdata/pki.ts';

let h: KindHarness;
let f: Fixtures;
before(async () => { h = await kindHarness(kind); f = await fixtures(); });
after(async () => { await h.close(); });

const bundle = (name: string, spec: Record<string, unknown>): ApiObject => ({ apiVersion: 'certificates.svc.io/v1alpha1', kind: 'ClusterTrustBundle', metadata: { name }, spec });
const causes = async (obj: ApiObject) => (await rejection(h.create(obj))).causes;

test('declaration: alpha v1alpha1 only, cluster-scoped, signerName field selector, Name and SignerName columns', () => {
  assert.deepEqual(kind.versions.map((v) => [v.name, v.stability]), [['v1alpha1', 'alpha']]);
  assert.equal(kind.namespaced, false);
  assert.deepEqual(Object.keys(kind.fieldSelectors!), ['spec.signerName']);
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'SignerName']);
  const spec = (kind.versions[0].schema as unknown as { properties: Record<string, any> }).properties.spec;
  assert.deepEqual([spec['x-proto'], spec.properties.signerName['x-proto'], spec.properties.trustBundle['x-proto']], [2, 1, 2]);
});

test('a bundle of distinct CA certificates, with or without a signer', async () => {
  const plain = await h.create(bundle('roots', { trustBundle: f.caCert + f.otherCaCert }));
  assert.equal(kind.tableColumns![1].cell(plain), '<none>');
  const signed = await h.create(bundle('example.com:signer:roots', { signerName: 'example.com/signer', trustBundle: f.caCert }));
  assert.equal(kind.tableColumns![1].cell(signed), 'example.com/signer');
  assert.equal(kind.fieldSelectors!['spec.signerName'](signed), 'example.com/signer');
});

test('the name carries the signer name as prefix, and only then', async () => {
  assert.deepEqual(await causes(bundle('roots', { signerName: 'example.com/signer', trustBundle: f.caCert })), [
    'metadata.name: Invalid value: "roots": ClusterTrustBundle for signerName example.com/signer must be named with prefix example.com:signer:',
  ]);
  assert.deepEqual(await causes(bundle('example.com:signer:roots', { trustBundle: f.caCert })), [
    'metadata.name: Invalid value: "example.com:signer:roots": ClusterTrustBundle without signer name must not have ":" in its name',
  ]);
  assert.deepEqual(bundleNameErrors('a:b:Bad', false, 'a/b').length, 1);
});

test('signerName must be a valid signer name', async () => {
  assert.deepEqual(await causes(bundle('nodomain:roots', { signerName: 'nodomain', trustBundle: f.caCert })), [
    `spec.signerName: Invalid value: "nodomain": must be a fully qualified domain and path of the form 'example.com/signer-name'`,
  ]);
});

test('the trust bundle: CA certificates only, no headers, no duplicates, at least one', async () => {
  assert.deepEqual(await causes(bundle('a', { trustBundle: '' })), ['spec.trustBundle: Invalid value: "<value omitted>": at least one trust anchor must be provided']);
  assert.deepEqual(await causes(bundle('a', {})), ['spec.trustBundle: Invalid value: "<value omitted>": at least one trust anchor must be provided']);
  assert.deepEqual(await causes(bundle('a', { trustBundle: f.leafCert })), ['spec.trustBundle: Invalid value: "<value omitted>": entry 0 does not have the CA bit set']);
  assert.deepEqual(await causes(bundle('a', { trustBundle: f.caCert + f.ecdsaRequest })), ['spec.trustBundle: Invalid value: "<value omitted>": entry 1 has bad block type: CERTIFICATE REQUEST']);
  const withHeader = f.caCert.replace('-----BEGIN CERTIFICATE-----\n', '-----BEGIN CERTIFICATE-----\nComment: x\n\n');
  assert.deepEqual(await causes(bundle('a', { trustBundle: withHeader })), ['spec.trustBundle: Invalid value: "<value omitted>": entry 0 has PEM block headers']);
  assert.deepEqual(await causes(bundle('a', { trustBundle: f.caCert + f.otherCaCert + f.caCert })), ['spec.trustBundle: Invalid value: "<value omitted>": duplicate trust anchor (indices [0 2])']);
});

test('signerName is immutable; the bundle may change', async () => {
  await h.create(bundle('example.com:s:b', { signerName: 'example.com/s', trustBundle: f.caCert }));
  const updated = await h.update(bundle('example.com:s:b', { signerName: 'example.com/s', trustBundle: f.otherCaCert }));
  assert.equal((updated.spec as { trustBundle: string }).trustBundle, f.otherCaCert);
  const r = await rejection(h.update(bundle('example.com:s:b', { signerName: 'example.com/t', trustBundle: f.otherCaCert })));
  assert.deepEqual(r.causes, [
    'metadata.name: Invalid value: "example.com:s:b": ClusterTrustBundle for signerName example.com/t must be named with prefix example.com:t:',
    'spec.signerName: Invalid value: "example.com/t": field is immutable',
  ]);
});

test('update: an unchanged bundle is not parsed again', async () => {
  const made = await h.create(bundle('kept', { trustBundle: f.caCert }));
  await h.seed({ ...made, spec: { trustBundle: f.leafCert } });
  const relabelled = await h.update({ ...made, metadata: { ...made.metadata, labels: { a: 'b' } }, spec: { trustBundle: f.leafCert } });
  assert.equal(relabelled.metadata.labels?.a, 'b');
  assert.deepEqual((await rejection(h.update({ ...made, spec: { trustBundle: f.leafCert + f.caCert } }))).causes, ['spec.trustBundle: Invalid value: "<value omitted>": entry 0 does not have the CA bit set']);
});
