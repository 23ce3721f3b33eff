import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FeatureGates, FeatureGateError, FEATURES_1_32 } from './feature-gates.ts';
import { parseServeFlags } from './flags.ts';
import { serverOptionsFromFlags } from './serve-options.ts';

test('defaults follow the stage: alpha off, beta on (unless marked off), GA on', () => {
  const g = new FeatureGates();
  assert.equal(g.enabled('CBORServingAndStorage'), false);
  assert.equal(g.enabled('CoordinatedLeaderElection'), false);
  assert.equal(g.enabled('ClusterTrustBundleProjection'), false);
  assert.equal(g.enabled('HPAScaleToZero'), false);
  assert.equal(g.enabled('APIResponseCompression'), true);
  assert.equal(g.enabled('ConsistentListFromCache'), true);
  assert.equal(g.enabled('WatchFromStorageWithoutResourceVersion'), false);
  assert.equal(g.enabled('RetryGenerateName'), true);
  for (const [name, spec] of Object.entries(FEATURES_1_32)) {
    if (spec.stage === 'ALPHA') assert.equal(spec.default, false, name);
    if (spec.stage === 'GA') assert.ok(spec.default && spec.lockToDefault, name);
  }
});

test('alpha gates can be enabled and beta gates disabled', () => {
  const g = new FeatureGates();
  assert.deepEqual(g.set({ CBORServingAndStorage: true, APIResponseCompression: false }), []);
  assert.equal(g.enabled('CBORServingAndStorage'), true);
  assert.equal(g.enabled('APIResponseCompression'), false);
  // set merges; reset starts from the defaults.
  g.set({ HPAScaleToZero: true });
  assert.equal(g.enabled('CBORServingAndStorage'), true);
  g.reset({ HPAScaleToZero: true });
  assert.equal(g.enabled('CBORServingAndStorage'), false);
  assert.equal(g.enabled('HPAScaleToZero'), true);
});

test('a GA gate set to true warns; set to false fails', () => {
  const g = new FeatureGates();
  assert.deepEqual(g.set({ RetryGenerateName: true }), ['Setting GA feature gate RetryGenerateName=true. It will be removed in a future release.']);
  assert.throws(() => g.set({ RetryGenerateName: false }), (err: Error) => err instanceof FeatureGateError && err.message === 'cannot set feature gate RetryGenerateName to false, feature is locked to true');
});

test('deprecated gates warn', () => {
  const g = new FeatureGates();
  assert.deepEqual(g.set({ KMSv1: true }), ['Setting deprecated feature gate KMSv1=true. It will be removed in a future release.']);
  assert.equal(g.enabled('KMSv1'), true);
});

test('unknown and removed gates are refused, and nothing of a refused call applies', () => {
  const g = new FeatureGates();
  assert.throws(() => g.set({ CBORServingAndStorage: true, NoSuchGate: true }), { message: 'unrecognized feature gate: NoSuchGate' });
  assert.equal(g.enabled('CBORServingAndStorage'), false);
  assert.throws(() => g.set({ ServerSideApply: true }), { message: /^unrecognized feature gate: ServerSideApply \(the feature is GA and its gate has been removed/ });
  assert.throws(() => g.set({ Bogus: true, ServerSideApply: false, WatchBookmark: false }), (err: Error) => {
    assert.equal(err.message.split('\n').length, 3);
    return true;
  });
  assert.throws(() => g.reset({ Bogus: true }), FeatureGateError);
  assert.throws(() => g.enabled('Bogus'), /not registered/);
});

test('AllAlpha and AllBeta switch every gate of that stage not set explicitly', () => {
  const g = new FeatureGates();
  g.set({ AllAlpha: true, HPAScaleToZero: false, AllBeta: false });
  assert.equal(g.enabled('CBORServingAndStorage'), true);
  assert.equal(g.enabled('HPAScaleToZero'), false);
  assert.equal(g.enabled('APIResponseCompression'), false);
  assert.equal(g.enabled('RetryGenerateName'), true);
});

test('describe lists the settable gates with stage and default', () => {
  const lines = new FeatureGates().describe();
  assert.ok(lines.includes('CBORServingAndStorage=true|false (ALPHA - default=false)'));
  assert.ok(lines.includes('APIResponseCompression=true|false (BETA - default=true)'));
  assert.ok(!lines.some((l) => l.startsWith('RetryGenerateName=')));
});

test('--feature-gates reaches the server options; a refused gate fails before start with the flag named', async () => {
  const ok = parseServeFlags(['--feature-gates=CBORServingAndStorage=true,APIResponseCompression=false']);
  const opts = await serverOptionsFromFlags(ok.options, ok.changed);
  assert.deepEqual(opts.featureGates, { CBORServingAndStorage: true, APIResponseCompression: false });
  const bad = parseServeFlags(['--feature-gates=RetryGenerateName=false']);
  await assert.rejects(serverOptionsFromFlags(bad.options, bad.changed), { message: 'invalid argument "RetryGenerateName=false" for "--feature-gates" flag: cannot set feature gate RetryGenerateName to false, feature is locked to true' });
  const unknown = parseServeFlags(['--feature-gates', 'NoSuchGate=true']);
  await assert.rejects(serverOptionsFromFlags(unknown.options, unknown.changed), { message: 'invalid argument "NoSuchGate=true" for "--feature-gates" flag: unrecognized feature gate: NoSuchGate' });
});

test('StorageVersionMigrator, the gate Kubernetes documents for storagemigration.svc.io/v1alpha1, is an alpha gate', () => {
  const gates = new FeatureGates();
  assert.equal(gates.enabled('StorageVersionMigrator'), false);
  gates.set({ StorageVersionMigrator: true });
  assert.equal(gates.enabled('StorageVersionMigrator'), true);
});
