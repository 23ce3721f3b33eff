// csrapproving and csrsigning end to end: a node agent's client certificate request is approved when its
// requester may ask for one and issued by the server's CA; the other well-known signers issue what an
// administrator approved, or mark the request Failed when it breaks the signer's rules.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { until } from './support/until.ts';
import { admin, requestAs, userCertificate, type Credentials } from './support/auth.ts';
import { x509 } from '../src/pki/x509.ts';
import { exportPrivateKeyPem, generateKeyPair } from '../src/pki/keys.ts';

const CSRS = '/apis/certificates.svc.io/v1/certificatesigningrequests';
const CRB = '/apis/rbac.authorization.svc.io/v1/clusterrolebindings';
const HOUR = 3600_000;
const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

interface RequestSpec {
  cn: string;
  o?: string[];
  dns?: string[];
  ips?: string[];
  emails?: string[];
}

/** A fresh key and a PEM certificate request for it. */
async function certificateRequest(spec: RequestSpec): Promise<{ pem: string; keyPem: string }> {
  const keys = await generateKeyPair();
  const names = [
    ...(spec.dns ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(spec.ips ?? []).map((value) => ({ type: 'ip' as const, value })),
    ...(spec.emails ?? []).map((value) => ({ type: 'email' as const, value })),
  ];
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: [...(spec.o ?? []).map((o) => ({ O: [o] })), { CN: [spec.cn] }],
    keys,
    signingAlgorithm: ALG,
    extensions: names.length ? [new x509.SubjectAlternativeNameExtension(names)] : [],
  });
  return { pem: csr.toString('pem'), keyPem: await exportPrivateKeyPem(keys.privateKey) };
}

const NODE_CLIENT = 'platform.io/apiserver-client-nodeagent';
const NODE_SERVING = 'platform.io/nodeagent-serving';
const CLIENT = 'platform.io/apiserver-client';

describe('CSR approving and signing', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ controllers: ['*'], controllerResyncMs: 200, clusterSigningDurationMs: 24 * HOUR });
    // What a cluster bootstrap (kubeadm) binds: bootstrappers may ask for node client certificates, and
    // nodes may renew their own.
    const bind = (name: string, role: string, group: string) => requestAs(s, admin(s), 'POST', CRB, {
      metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: role },
      subjects: [{ apiGroup: 'rbac.authorization.svc.io', kind: 'Group', name: group }],
    });
    for (const r of await Promise.all([
      bind('bootstrappers-create-csrs', 'system:node-bootstrapper', 'system:bootstrappers'),
      bind('bootstrappers-nodeclient', 'system:certificates.svc.io:certificatesigningrequests:nodeclient', 'system:bootstrappers'),
      bind('nodes-create-csrs', 'system:node-bootstrapper', 'system:nodes'),
      bind('nodes-selfnodeclient', 'system:certificates.svc.io:certificatesigningrequests:selfnodeclient', 'system:nodes'),
    ])) assert.equal(r.status, 201, r.body);
  });
  after(async () => { await s.stop(); });

  const submit = async (who: Credentials, name: string, signerName: string, pem: string, usages: string[], extra: object = {}) => {
    const r = await requestAs(s, who, 'POST', CSRS, { metadata: { name }, spec: { request: Buffer.from(pem).toString('base64'), signerName, usages, ...extra } });
    assert.equal(r.status, 201, r.body);
    return r.json();
  };
  const read = async (name: string) => (await requestAs(s, admin(s), 'GET', `${CSRS}/${name}`)).json();
  const approve = async (name: string) => {
    const csr = await read(name);
    csr.status.conditions = [...(csr.status.conditions ?? []), { type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' }];
    const r = await requestAs(s, admin(s), 'PUT', `${CSRS}/${name}/approval`, csr);
    assert.equal(r.status, 200, r.body);
  };
  const issued = async (name: string): Promise<X509Certificate> => {
    await until(async () => !!(await read(name)).status.certificate, `${name} to be issued`);
    return new X509Certificate(Buffer.from((await read(name)).status.certificate, 'base64'));
  };
  const conditions = async (name: string) => ((await read(name)).status.conditions ?? []).map((c: any) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message }));
  const span = (cert: X509Certificate) => Date.parse(cert.validTo) - Date.parse(cert.validFrom);

  it('a node agent bootstrapping: its client certificate is approved and issued, and it authenticates as the node', async () => {
    const bootstrapper = await userCertificate(s, 'system:bootstrap:abcdef', ['system:bootstrappers']);
    const req = await certificateRequest({ cn: 'system:node:worker-1', o: ['system:nodes'] });
    await submit(bootstrapper, 'node-client', NODE_CLIENT, req.pem, ['digital signature', 'client auth']);
    const cert = await issued('node-client');
    assert.deepEqual(await conditions('node-client'), [
      { type: 'Approved', status: 'True', reason: 'AutoApproved', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' },
    ]);
    const ca = new X509Certificate(s.caCertPem);
    assert.ok(cert.verify(ca.publicKey));
    assert.equal(cert.issuer, ca.subject);
    assert.equal(cert.subject, 'O=system:nodes\nCN=system:node:worker-1');
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
    assert.equal(cert.subjectAltName, undefined);
    assert.equal(cert.ca, false);
    // Without expirationSeconds: the whole --cluster-signing-duration, from 5 minutes ago.
    assert.equal(span(cert), 24 * HOUR);
    const node: Credentials = { cert: cert.toString(), key: req.keyPem };
    const who = await requestAs(s, node, 'POST', '/apis/authentication.svc.io/v1/selfsubjectreviews', { apiVersion: 'authentication.svc.io/v1', kind: 'SelfSubjectReview' });
    assert.equal(who.status, 201, who.body);
    assert.equal(who.json().status.userInfo.username, 'system:node:worker-1');
    assert.ok(who.json().status.userInfo.groups.includes('system:nodes'));
  });

  it('a node renewing its own certificate needs only selfnodeclient; another node\'s identity is not its to ask', async () => {
    const node = await userCertificate(s, 'system:node:worker-2', ['system:nodes']);
    const own = await certificateRequest({ cn: 'system:node:worker-2', o: ['system:nodes'] });
    await submit(node, 'renewal', NODE_CLIENT, own.pem, ['digital signature', 'key encipherment', 'client auth'], { expirationSeconds: 3600 });
    const cert = await issued('renewal');
    assert.deepEqual(await conditions('renewal'), [
      { type: 'Approved', status: 'True', reason: 'AutoApproved', message: 'Auto approving self kubelet client certificate after SubjectAccessReview.' },
    ]);
    // A short lifetime is not backdated at its end.
    assert.equal(span(cert), HOUR + 5 * 60_000);
    const other = await certificateRequest({ cn: 'system:node:worker-3', o: ['system:nodes'] });
    await submit(node, 'not-mine', NODE_CLIENT, other.pem, ['digital signature', 'client auth']);
    // Handled in order: once a later request is issued, this one was looked at and left pending.
    const later = await certificateRequest({ cn: 'system:node:worker-2', o: ['system:nodes'] });
    await submit(node, 'later', NODE_CLIENT, later.pem, ['digital signature', 'client auth']);
    await issued('later');
    assert.deepEqual(await conditions('not-mine'), []);
  });

  it('a requester without the permission waits until it is granted', async () => {
    const stranger = await userCertificate(s, 'stranger', ['strangers']);
    assert.equal((await requestAs(s, admin(s), 'POST', CRB, {
      metadata: { name: 'strangers-create-csrs' }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'system:node-bootstrapper' },
      subjects: [{ apiGroup: 'rbac.authorization.svc.io', kind: 'Group', name: 'strangers' }],
    })).status, 201);
    const req = await certificateRequest({ cn: 'system:node:worker-4', o: ['system:nodes'] });
    await submit(stranger, 'waiting', NODE_CLIENT, req.pem, ['digital signature', 'client auth']);
    const marker = await certificateRequest({ cn: 'system:node:worker-5', o: ['system:nodes'] });
    await submit(await userCertificate(s, 'system:bootstrap:fedcba', ['system:bootstrappers']), 'marker', NODE_CLIENT, marker.pem, ['digital signature', 'client auth']);
    await issued('marker');
    assert.deepEqual(await conditions('waiting'), []);
    assert.equal((await requestAs(s, admin(s), 'POST', CRB, {
      metadata: { name: 'strangers-nodeclient' }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'system:certificates.svc.io:certificatesigningrequests:nodeclient' },
      subjects: [{ apiGroup: 'rbac.authorization.svc.io', kind: 'Group', name: 'strangers' }],
    })).status, 201);
    await issued('waiting');
  });

  it('never auto-approved: apiserver-client and nodeagent-serving requests, and node client requests that are not a node\'s', async () => {
    const client = await certificateRequest({ cn: 'jane', o: ['devs'] });
    await submit(admin(s), 'plain-client', CLIENT, client.pem, ['digital signature', 'client auth']);
    const serving = await certificateRequest({ cn: 'system:node:worker-1', o: ['system:nodes'], dns: ['worker-1.example'] });
    await submit(admin(s), 'serving', NODE_SERVING, serving.pem, ['digital signature', 'server auth']);
    const wrongOrg = await certificateRequest({ cn: 'system:node:worker-1', o: ['devs'] });
    await submit(admin(s), 'wrong-org', NODE_CLIENT, wrongOrg.pem, ['digital signature', 'client auth']);
    const marker = await certificateRequest({ cn: 'system:node:worker-6', o: ['system:nodes'] });
    await submit(await userCertificate(s, 'system:bootstrap:aaaaaa', ['system:bootstrappers']), 'marker-2', NODE_CLIENT, marker.pem, ['digital signature', 'client auth']);
    await issued('marker-2');
    for (const name of ['plain-client', 'serving', 'wrong-org']) assert.deepEqual(await conditions(name), [], name);
  });

  it('approved by an administrator, apiserver-client and nodeagent-serving requests are issued', async () => {
    const client = await certificateRequest({ cn: 'jane', o: ['devs', 'ops'] });
    await submit(admin(s), 'jane', CLIENT, client.pem, ['client auth'], { expirationSeconds: 600 });
    await approve('jane');
    const jane = await issued('jane');
    assert.equal(jane.subject, 'O=devs\nO=ops\nCN=jane');
    assert.deepEqual(jane.keyUsage, ['1.3.6.1.5.5.7.3.2']);
    assert.equal(span(jane), 15 * 60_000);
    const who = await requestAs(s, { cert: jane.toString(), key: client.keyPem }, 'POST', '/apis/authentication.svc.io/v1/selfsubjectreviews', { apiVersion: 'authentication.svc.io/v1', kind: 'SelfSubjectReview' });
    assert.equal(who.json().status.userInfo.username, 'jane');

    const serving = await certificateRequest({ cn: 'system:node:worker-1', o: ['system:nodes'], dns: ['worker-1.example'], ips: ['10.0.0.7'] });
    await submit(admin(s), 'worker-1-serving', NODE_SERVING, serving.pem, ['digital signature', 'key encipherment', 'server auth'], { expirationSeconds: 100 * 24 * 3600 });
    await approve('worker-1-serving');
    const cert = await issued('worker-1-serving');
    assert.equal(cert.subjectAltName, 'DNS:worker-1.example, IP Address:10.0.0.7');
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.1']);
    // Longer than --cluster-signing-duration asks for too much: the maximum is issued.
    assert.equal(span(cert), 24 * HOUR);
  });

  it('a request that breaks its signer\'s rules is marked Failed, never issued', async () => {
    const cases: [string, string, RequestSpec, string[], string][] = [
      ['fail-usages', NODE_SERVING, { cn: 'system:node:w', o: ['system:nodes'], dns: ['w.example'] }, ['digital signature', 'client auth'], 'usages did not match [digital signature key encipherment server auth]'],
      ['fail-no-san', NODE_SERVING, { cn: 'system:node:w', o: ['system:nodes'] }, ['digital signature', 'server auth'], 'DNS or IP subjectAltName is required'],
      ['fail-email', NODE_SERVING, { cn: 'system:node:w', o: ['system:nodes'], dns: ['w.example'], emails: ['w@example.com'] }, ['digital signature', 'server auth'], 'Email subjectAltNames are not allowed'],
      ['fail-cn', NODE_SERVING, { cn: 'w', o: ['system:nodes'], dns: ['w.example'] }, ['digital signature', 'server auth'], 'subject common name does not begin with system:node:'],
      ['fail-org', NODE_CLIENT, { cn: 'system:node:w', o: ['system:nodes', 'extra'] }, ['digital signature', 'client auth'], 'subject organization is not system:nodes'],
      ['fail-dns', NODE_CLIENT, { cn: 'system:node:w', o: ['system:nodes'], dns: ['w.example'] }, ['digital signature', 'client auth'], 'DNS subjectAltNames are not allowed'],
      ['fail-client-usage', CLIENT, { cn: 'jane' }, ['client auth', 'server auth'], 'invalid usage for client certificate: server auth'],
      ['fail-client-missing', CLIENT, { cn: 'jane' }, ['digital signature'], 'missing required usage for client certificate: client auth'],
    ];
    for (const [name, signer, spec, usages] of cases) {
      await submit(admin(s), name, signer, (await certificateRequest(spec)).pem, usages);
      await approve(name);
    }
    for (const [name, , , , message] of cases) {
      await until(async () => (await conditions(name)).some((c: any) => c.type === 'Failed'), `${name} to fail`);
      const csr = await read(name);
      assert.equal(csr.status.certificate, undefined, name);
      const failed = csr.status.conditions.find((c: any) => c.type === 'Failed');
      assert.deepEqual({ status: failed.status, reason: failed.reason, message: failed.message }, { status: 'True', reason: 'SignerValidationFailure', message }, name);
      assert.ok(failed.lastUpdateTime && failed.lastTransitionTime, name);
    }
    const table = await s.kubectl(['get', 'csr', 'fail-usages', '--no-headers']);
    assert.match(table.stdout, /Approved,Failed/);
  });

  it('denied requests and requests of other signers are left alone', async () => {
    const denied = await certificateRequest({ cn: 'jane' });
    await submit(admin(s), 'denied', CLIENT, denied.pem, ['client auth']);
    const csr = await read('denied');
    csr.status.conditions = [{ type: 'Denied', status: 'True', reason: 'Test', message: 'no' }];
    assert.equal((await requestAs(s, admin(s), 'PUT', `${CSRS}/denied/approval`, csr)).status, 200);
    const custom = await certificateRequest({ cn: 'jane' });
    await submit(admin(s), 'custom', 'example.com/my-signer', custom.pem, ['client auth']);
    await approve('custom');
    const marker = await certificateRequest({ cn: 'jane' });
    await submit(admin(s), 'marker-3', CLIENT, marker.pem, ['client auth']);
    await approve('marker-3');
    await issued('marker-3');
    assert.equal((await read('denied')).status.certificate, undefined);
    assert.equal((await read('custom')).status.certificate, undefined);
    assert.deepEqual((await conditions('custom')).map((c: any) => c.type), ['Approved']);
  });
});
