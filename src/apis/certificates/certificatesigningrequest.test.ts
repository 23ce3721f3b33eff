import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { certificateSigningRequestKind as kind, conditionText } from './certificatesigningrequest.ts';
import { goBytes } from './csr-validation.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';
import { fixtures, b64, type Fixtures } from './testdata/pki.ts';

let h: KindHarness;
let f: Fixtures;
before(async () => { h = await kindHarness(kind); f = await fixtures(); });
after(async () => { await h.close(); });

const USER = { username: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a', 'b'] } };
let n = 0;
const csr = (spec: Record<string, unknown> = {}, name = `csr-${++n}`): ApiObject => ({
  apiVersion: 'certificates.svc.io/v1', kind: 'CertificateSigningRequest', metadata: { name },
  spec: { request: b64(f.ecdsaRequest), signerName: 'example.com/signer', usages: ['client auth'], ...spec },
});
const causes = async (obj: ApiObject) => (await rejection(h.create(obj, { user: USER }))).causes;
type Status = { conditions?: Record<string, string>[]; certificate?: string };
const statusOf = (o: ApiObject) => o.status as Status;
const withStatus = (o: ApiObject, status: Status): ApiObject => ({ ...structuredClone(o), status });

test('declaration: cluster-scoped, short name csr, /status and /approval, signerName field selector', () => {
  assert.equal(kind.group, 'certificates.svc.io');
  assert.equal(kind.plural, 'certificatesigningrequests');
  assert.equal(kind.namespaced, false);
  assert.deepEqual(kind.shortNames, ['csr']);
  assert.deepEqual(kind.status, { variants: ['approval'] });
  assert.deepEqual(Object.keys(kind.fieldSelectors!), ['spec.signerName']);
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']);
});

test('schema: request and certificate atomic, conditions a map by type, protobuf numbers', () => {
  const props = (kind.versions[0].schema as unknown as { properties: Record<string, any> }).properties;
  const spec = props.spec.properties, status = props.status.properties;
  assert.equal(spec.request['x-platform-list-type'], 'atomic');
  assert.equal(spec.request.format, 'byte');
  assert.equal(spec.usages['x-platform-list-type'], 'atomic');
  assert.equal(status.certificate['x-platform-list-type'], 'atomic');
  assert.equal(status.conditions['x-platform-list-type'], 'map');
  assert.deepEqual(status.conditions['x-platform-list-map-keys'], ['type']);
  assert.deepEqual(['request', 'username', 'uid', 'groups', 'usages', 'extra', 'signerName', 'expirationSeconds'].map((k) => spec[k]['x-proto']), [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual([props.metadata['x-proto'], props.spec['x-proto'], props.status['x-proto']], [1, 2, 3]);
  const cond = status.conditions.items.properties;
  assert.deepEqual(['type', 'reason', 'message', 'lastUpdateTime', 'lastTransitionTime', 'status'].map((k) => cond[k]['x-proto']), [1, 2, 3, 4, 5, 6]);
});

test('create records the requesting user, whatever the client wrote, and starts with an empty status', async () => {
  const obj = await h.create(withStatus(csr({ username: 'mallory', uid: 'x', groups: ['system:masters'], extra: { k: ['v'] } }), { conditions: [{ type: 'Approved', status: 'True' }] }), { user: USER });
  const spec = obj.spec as Record<string, unknown>;
  assert.equal(spec.username, 'alice');
  assert.equal(spec.uid, 'u-1');
  assert.deepEqual(spec.groups, ['devs', 'system:authenticated']);
  assert.deepEqual(spec.extra, { scopes: ['a', 'b'] });
  assert.deepEqual(obj.status, {});
  assert.equal(obj.metadata.generation, undefined);
  const bare = await h.create(csr(), { user: { username: 'bob', groups: [] } });
  assert.deepEqual(Object.keys(bare.spec as object).sort(), ['request', 'signerName', 'usages', 'username']);
});

test('requests signed with ECDSA, RSA and Ed25519 keys are accepted', async () => {
  for (const pem of [f.ecdsaRequest, f.rsaRequest, f.ed25519Request]) {
    const obj = await h.create(csr({ request: b64(pem) }), { user: USER });
    assert.ok(obj.metadata.uid);
  }
});

test('the request must be a CERTIFICATE REQUEST PEM block whose signature verifies', async () => {
  const junk = 'not pem';
  assert.deepEqual(await causes(csr({ request: b64(junk) })), [`spec.request: Invalid value: ${goBytes(Buffer.from(junk))}: PEM block type must be CERTIFICATE REQUEST`]);
  assert.deepEqual(await causes(csr({ request: b64(f.caCert) })), [`spec.request: Invalid value: ${goBytes(Buffer.from(f.caCert))}: PEM block type must be CERTIFICATE REQUEST`]);
  assert.deepEqual(await causes(csr({ request: b64(f.tamperedRequest) })), [`spec.request: Invalid value: ${goBytes(Buffer.from(f.tamperedRequest))}: x509: ECDSA verification failure`]);
  const missing = csr();
  delete (missing.spec as Record<string, unknown>).request;
  assert.deepEqual(await causes(missing), ['spec.request: Invalid value: []byte(nil): PEM block type must be CERTIFICATE REQUEST']);
});

test('usages: required, known values only, no duplicates', async () => {
  assert.deepEqual(await causes(csr({ usages: [] })), ['spec.usages: Required value']);
  const unknown = await causes(csr({ usages: ['client auth', 'teleport'] }));
  assert.equal(unknown.length, 1);
  assert.match(unknown[0], /^spec\.usages\[1\]: Unsupported value: "teleport": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", /);
  assert.deepEqual(await causes(csr({ usages: ['client auth', 'digital signature', 'client auth'] })), ['spec.usages[2]: Duplicate value: "client auth"']);
});

test('signerName: required, a domain and a path, never the legacy signer', async () => {
  assert.deepEqual(await causes(csr({ signerName: '' })), ['spec.signerName: Required value']);
  assert.deepEqual(await causes(csr({ signerName: 'platform.io/legacy-unknown' })), ['spec.signerName: Invalid value: "platform.io/legacy-unknown": the legacy signerName is not allowed via this API version']);
  assert.deepEqual(await causes(csr({ signerName: 'signer' })), [`spec.signerName: Invalid value: "signer": must be a fully qualified domain and path of the form 'example.com/signer-name'`]);
  assert.deepEqual(await causes(csr({ signerName: 'example/signer' })), ['spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots']);
  const bad = await causes(csr({ signerName: 'Example.com/x' }));
  assert.equal(bad.length, 1);
  assert.match(bad[0], /^spec\.signerName: Invalid value: "Example\.com": validating label "Example": a lowercase RFC 1123 label must consist of/);
  const ok = await h.create(csr({ signerName: 'platform.io/apiserver-client' }), { user: USER });
  assert.equal(kind.fieldSelectors!['spec.signerName'](ok), 'platform.io/apiserver-client');
});

test('expirationSeconds: at least 600', async () => {
  assert.deepEqual(await causes(csr({ expirationSeconds: 599 })), ['spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)']);
  const ok = await h.create(csr({ expirationSeconds: 600 }), { user: USER });
  assert.equal(kind.tableColumns![4].cell(ok), '10m');
});

test('the spec is fixed: a main write changes metadata only, whatever spec it sends', async () => {
  const made = await h.create(csr({}, 'fixed'), { user: USER });
  const { username: _u, uid: _i, groups: _g, extra: _e, ...given } = made.spec as Record<string, unknown>;
  const relabelled = await h.update({ ...made, metadata: { ...made.metadata, labels: { a: 'b' } }, spec: given });
  assert.equal(relabelled.metadata.labels?.a, 'b');
  assert.deepEqual(relabelled.spec, made.spec);
  const changed = await h.update({ ...relabelled, spec: { ...(made.spec as object), signerName: 'example.com/other', username: 'mallory', usages: ['server auth'] } });
  assert.deepEqual(changed.spec, made.spec);
});

test('a main write cannot approve or issue: status is kept', async () => {
  const made = await h.create(csr(), { user: USER });
  const after = await h.update(withStatus(made, { conditions: [{ type: 'Approved', status: 'True' }] }));
  assert.deepEqual(after.status, {});
});

test('approval: adds Approved with defaulted times; Pending becomes Approved', async () => {
  const made = await h.create(csr(), { user: USER });
  assert.equal(conditionText(made), 'Pending');
  const approved = await h.update(withStatus(made, { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'ok' }] }), { subresource: 'approval' });
  const c = statusOf(approved).conditions![0];
  assert.ok(c.lastTransitionTime && c.lastUpdateTime);
  assert.equal(kind.tableColumns![5].cell(approved), 'Approved');
  // The approval write changes nothing but the conditions.
  assert.deepEqual(approved.spec, made.spec);
});

test('approval: only True, Approved and Denied exclusive, one per type, never removed', async () => {
  const made = await h.create(csr(), { user: USER });
  const approve = (conditions: Record<string, string>[]) => h.update(withStatus(made, { conditions }), { subresource: 'approval' });
  assert.deepEqual((await rejection(approve([{ type: 'Approved', status: 'False' }]))).causes, ['status.conditions[0].status: Unsupported value: "False": supported values: "True"']);
  assert.deepEqual((await rejection(approve([{ type: 'Approved' }]))).causes, ['status.conditions[0].status: Required value']);
  assert.deepEqual((await rejection(approve([{ status: 'True' }]))).causes, ['status.conditions[0].type: Required value']);
  assert.deepEqual((await rejection(approve([{ type: 'Approved', status: 'True' }, { type: 'Denied', status: 'True' }]))).causes, [
    'status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive',
  ]);
  assert.deepEqual((await rejection(approve([{ type: 'Approved', status: 'True' }, { type: 'Approved', status: 'True' }]))).causes, ['status.conditions[1].type: Duplicate value: "Approved"']);
  const approved = await approve([{ type: 'Approved', status: 'True' }]);
  assert.deepEqual((await rejection(h.update(withStatus(approved, { conditions: [] }), { subresource: 'approval' }))).causes, [
    'status.conditions: Forbidden: updates may not remove a condition of type "Approved"',
  ]);
});

test('approval changes only Approved and Denied: not Failed, not the certificate', async () => {
  const made = await h.create(csr(), { user: USER });
  assert.deepEqual((await rejection(h.update(withStatus(made, { conditions: [{ type: 'Failed', status: 'True' }] }), { subresource: 'approval' }))).causes, [
    'status.conditions: Forbidden: updates may not add a condition of type "Failed"',
  ]);
  const denied = await h.update(withStatus(made, { conditions: [{ type: 'Denied', status: 'True' }], certificate: b64(f.leafCert) }), { subresource: 'approval' });
  assert.equal(statusOf(denied).certificate, undefined);
  assert.equal(conditionText(denied), 'Denied');
});

test('status: the signer issues a certificate, which then never changes', async () => {
  const made = await h.create(csr(), { user: USER });
  const approved = await h.update(withStatus(made, { conditions: [{ type: 'Approved', status: 'True' }] }), { subresource: 'approval' });
  const issued = await h.update(withStatus(approved, { ...statusOf(approved), certificate: b64(f.leafCert + f.caCert) }), { subresource: 'status' });
  assert.equal(conditionText(issued), 'Approved,Issued');
  assert.deepEqual((await rejection(h.update(withStatus(issued, { ...statusOf(issued), certificate: b64(f.caCert) }), { subresource: 'status' }))).causes, [
    'status.certificate: Forbidden: updates may not modify existing certificate content',
  ]);
});

test('status: the certificate holds only CERTIFICATE blocks, at least one', async () => {
  const made = await h.create(csr(), { user: USER });
  const issue = (text: string) => rejection(h.update(withStatus(made, { certificate: b64(text) }), { subresource: 'status' }));
  assert.deepEqual((await issue('hello')).causes, ['status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block']);
  assert.deepEqual((await issue(f.ecdsaRequest)).causes, ['status.certificate: Invalid value: "<certificate data>": only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"']);
  const withHeader = f.leafCert.replace('-----BEGIN CERTIFICATE-----\n', '-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\n\n');
  assert.deepEqual((await issue(withHeader)).causes, ['status.certificate: Invalid value: "<certificate data>": no PEM block headers are permitted']);
  // Text around the blocks is allowed.
  const ok = await h.update(withStatus(made, { certificate: b64('issued by example\n' + f.leafCert + 'trailing\n') }), { subresource: 'status' });
  assert.equal(conditionText(ok), 'Pending,Issued');
});

test('status: Failed is added there; Approved and Denied are not', async () => {
  const made = await h.create(csr(), { user: USER });
  assert.deepEqual((await rejection(h.update(withStatus(made, { conditions: [{ type: 'Approved', status: 'True' }] }), { subresource: 'status' }))).causes, [
    'status.conditions: Forbidden: updates may not add a condition of type "Approved"',
  ]);
  const failed = await h.update(withStatus(made, { conditions: [{ type: 'Failed', status: 'True', reason: 'SignerError' }] }), { subresource: 'status' });
  assert.equal(conditionText(failed), 'Pending,Failed');
  assert.deepEqual((await rejection(h.update(withStatus(failed, { conditions: [] }), { subresource: 'status' }))).causes, [
    'status.conditions: Forbidden: updates may not remove a condition of type "Failed"',
  ]);
});

test('lastTransitionTime is kept while type and status stay, and a main write cannot set a certificate', async () => {
  const made = await h.create(csr(), { user: USER });
  const approved = await h.update(withStatus(made, { conditions: [{ type: 'Approved', status: 'True' }] }), { subresource: 'approval' });
  const first = statusOf(approved).conditions![0];
  const again = await h.update(withStatus(approved, { conditions: [{ type: 'Approved', status: 'True', reason: 'Again' }] }), { subresource: 'approval' });
  assert.equal(statusOf(again).conditions![0].lastTransitionTime, first.lastTransitionTime);
  const main = await h.update(withStatus(again, { ...statusOf(again), certificate: b64(f.leafCert) }));
  assert.equal(statusOf(main).certificate, undefined);
});

test('table: signer, requestor, requested duration and condition', async () => {
  const obj = await h.create(csr({ expirationSeconds: 86400 }), { user: USER });
  assert.deepEqual(kind.tableColumns!.slice(2).map((c) => c.cell(obj)), ['example.com/signer', 'alice', '24h', 'Pending']);
  const noDuration = await h.create(csr(), { user: USER });
  assert.equal(kind.tableColumns![4].cell(noDuration), '<none>');
});

test('update: problems stored before the rules (legacy signer, unknown usages) are tolerated', async () => {
  const made = await h.create(csr({}, 'legacy'), { user: USER });
  const legacy = structuredClone(made);
  Object.assign(legacy.spec as object, { signerName: 'platform.io/legacy-unknown', usages: ['client auth', 'teleport', 'teleport'] });
  await h.seed(legacy);
  const relabelled = await h.update({ ...legacy, metadata: { ...legacy.metadata, labels: { kept: 'yes' } } });
  assert.equal(relabelled.metadata.labels?.kept, 'yes');
});
