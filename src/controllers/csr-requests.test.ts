import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import type { ApiObject } from '../apis/meta/v1.ts';
import { x509 } from '../pki/x509.ts';
import { generateKeyPair } from '../pki/keys.ts';
import { generateCertificateAuthority } from '../pki/authority.ts';
import { apiserverClientProblem, nodeClientProblem, nodeServingProblem, parseRequest, signerProblem, NODE_SERVING_SIGNER } from './csr-requests.ts';
import { certificateDurationMs, issueForRequest } from './csr-signing.ts';

const HOUR = 3600_000;

async function csrObject(cn: string, o: string[], names: { type: 'dns' | 'ip' | 'email' | 'url'; value: string }[] = []): Promise<ApiObject> {
  const keys = await generateKeyPair();
  const req = await x509.Pkcs10CertificateRequestGenerator.create({
    name: [...o.map((v) => ({ O: [v] })), { CN: [cn] }],
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions: names.length ? [new x509.SubjectAlternativeNameExtension(names)] : [],
  });
  return { apiVersion: 'certificates.svc.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'x' }, spec: { request: Buffer.from(req.toString('pem')).toString('base64') } } as ApiObject;
}

test('parseRequest reads the subject and the alternative names', async () => {
  const req = parseRequest(await csrObject('system:node:n1', ['system:nodes'], [
    { type: 'dns', value: 'n1.example' }, { type: 'ip', value: '10.0.0.1' }, { type: 'email', value: 'a@b.c' }, { type: 'url', value: 'spiffe://x/y' },
  ]));
  assert.equal(req.commonName, 'system:node:n1');
  assert.deepEqual(req.organizations, ['system:nodes']);
  assert.deepEqual([req.dnsNames, req.ipAddresses, req.emailAddresses, req.uris], [['n1.example'], ['10.0.0.1'], ['a@b.c'], ['spiffe://x/y']]);
  assert.throws(() => parseRequest({ metadata: {}, spec: { request: Buffer.from('nope').toString('base64') } } as ApiObject), { message: 'PEM block type must be CERTIFICATE REQUEST' });
});

test('node client rules, in Kubernetes\' order and words', async () => {
  const ok = parseRequest(await csrObject('system:node:n1', ['system:nodes']));
  assert.equal(nodeClientProblem(ok, ['digital signature', 'client auth']), undefined);
  assert.equal(nodeClientProblem(ok, ['client auth', 'key encipherment', 'digital signature']), undefined);
  assert.equal(nodeClientProblem(ok, ['client auth']), 'usages did not match [client auth digital signature key encipherment]');
  assert.equal(nodeClientProblem(parseRequest(await csrObject('system:node:n1', [])), ['client auth']), 'subject organization is not system:nodes');
  assert.equal(nodeClientProblem(parseRequest(await csrObject('n1', ['system:nodes'])), ['digital signature', 'client auth']), 'subject common name does not begin with system:node:');
  assert.equal(nodeClientProblem(parseRequest(await csrObject('system:node:n1', ['system:nodes'], [{ type: 'ip', value: '10.0.0.1' }])), []), 'IP subjectAltNames are not allowed');
  assert.equal(nodeClientProblem(parseRequest(await csrObject('system:node:n1', ['system:nodes'], [{ type: 'url', value: 'spiffe://a/b' }])), []), 'URI subjectAltNames are not allowed');
});

test('node serving rules', async () => {
  const ok = parseRequest(await csrObject('system:node:n1', ['system:nodes'], [{ type: 'ip', value: '10.0.0.1' }]));
  assert.equal(nodeServingProblem(ok, ['digital signature', 'key encipherment', 'server auth']), undefined);
  assert.equal(nodeServingProblem(ok, ['digital signature', 'server auth']), undefined);
  assert.equal(nodeServingProblem(ok, ['server auth']), 'usages did not match [digital signature key encipherment server auth]');
  assert.equal(nodeServingProblem(parseRequest(await csrObject('system:node:n1', ['system:nodes'], [{ type: 'url', value: 'spiffe://a/b' }])), []), 'DNS or IP subjectAltName is required');
  assert.equal(signerProblem(NODE_SERVING_SIGNER, ok, ['digital signature', 'server auth']), undefined);
  assert.equal(signerProblem('example.com/custom', ok, []), undefined);
});

test('apiserver client usages', () => {
  assert.equal(apiserverClientProblem(['client auth']), undefined);
  assert.equal(apiserverClientProblem(['key encipherment', 'digital signature', 'client auth']), undefined);
  assert.equal(apiserverClientProblem(['digital signature']), 'missing required usage for client certificate: client auth');
  assert.equal(apiserverClientProblem(['client auth', 'code signing']), 'invalid usage for client certificate: code signing');
});

test('the lifetime issued: the request within [10 minutes, the maximum]', () => {
  assert.equal(certificateDurationMs(undefined, 24 * HOUR), 24 * HOUR);
  assert.equal(certificateDurationMs(null, 24 * HOUR), 24 * HOUR);
  assert.equal(certificateDurationMs(3600, 24 * HOUR), HOUR);
  assert.equal(certificateDurationMs(60, 24 * HOUR), 10 * 60_000);
  assert.equal(certificateDurationMs(7 * 24 * 3600, 24 * HOUR), 24 * HOUR);
});

test('issueForRequest: backdated 5 minutes, short certificates not shortened at the end, never past the CA', async () => {
  const ca = await generateCertificateAuthority({ days: 1 });
  const req = parseRequest(await csrObject('system:node:n1', ['system:nodes'], [{ type: 'dns', value: 'n1.example' }]));
  const at = Math.floor(Date.now() / 1000) * 1000;
  const short = new X509Certificate(await issueForRequest(ca, req, ['digital signature', 'key encipherment', 'server auth', 's/mime', 'email protection'], HOUR, at));
  assert.equal(Date.parse(short.validFrom), at - 5 * 60_000);
  assert.equal(Date.parse(short.validTo), at + HOUR);
  assert.deepEqual(short.keyUsage, ['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.4']);
  assert.equal(short.subjectAltName, 'DNS:n1.example');
  const long = new X509Certificate(await issueForRequest(ca, req, ['client auth'], 10 * HOUR, at));
  assert.equal(Date.parse(long.validTo), at + 10 * HOUR - 5 * 60_000);
  const capped = new X509Certificate(await issueForRequest(ca, req, ['client auth'], 365 * 24 * HOUR, at));
  assert.equal(Date.parse(capped.validTo), Math.floor(ca.certificate.notAfter.getTime() / 1000) * 1000);
  await assert.rejects(issueForRequest(ca, req, ['client auth'], HOUR, ca.certificate.notAfter.getTime() + 1000), /refusing to sign a certificate that expired in the past/);
});
