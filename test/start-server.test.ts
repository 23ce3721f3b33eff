// startServer() for embedding programs and tests: in-memory servers of one process share one generated PKI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../src/index.ts';
import YAML from 'yaml';
import { startTestServer } from './support/capstan.ts';

test('in-memory servers in one process share one CA and admin certificate; each has its own folder and kubeconfig', async () => {
  const a = await startTestServer();
  const b = await startTestServer();
  try {
    assert.equal(a.caCertPem, b.caCertPem);
    assert.equal(a.credentials.cert, b.credentials.cert);
    assert.notEqual(a.dataDir, b.dataDir);
    assert.notEqual(a.kubeconfigPath, b.kubeconfigPath);
    assert.match(await readFile(a.kubeconfigPath, 'utf8'), new RegExp(`server: "${a.url}"`));
    assert.match(await readFile(b.kubeconfigPath, 'utf8'), new RegExp(`server: "${b.url}"`));
    for (const s of [a, b]) {
      assert.equal((await s.request('GET', '/readyz')).status, 200);
      assert.equal((await s.request('GET', '/api/v1/namespaces/kube-system')).status, 200);
    }
  } finally {
    await a.stop();
    await b.stop();
  }
});

test('a server bound to another address gets a serving certificate for it, signed by the shared CA', async () => {
  const a = await startTestServer();
  const b = await startTestServer({ bindAddress: '127.0.0.2' });
  try {
    const serving = new X509Certificate(await readFile(`${b.dataDir}/pki/apiserver.crt`));
    assert.equal(serving.checkIP('127.0.0.2'), '127.0.0.2');
    assert.ok(serving.checkIssued(new X509Certificate(a.caCertPem)));
    assert.equal((await b.request('GET', '/readyz')).status, 200);
  } finally {
    await a.stop();
    await b.stop();
  }
});

test('startServer() hands out the admin certificate and key its kubeconfig holds; a client with them is system:masters', async () => {
  const s = await startTestServer();
  try {
    const user = YAML.parse(s.kubeconfig).users[0].user;
    const fromKubeconfig = (data: string) => Buffer.from(data, 'base64').toString('utf8');
    assert.equal(s.adminCertPem, fromKubeconfig(user['client-certificate-data']));
    assert.equal(s.adminKeyPem, fromKubeconfig(user['client-key-data']));
    // The test client's requests carry exactly these two.
    assert.deepEqual(s.credentials, { ca: s.caCertPem, cert: s.adminCertPem, key: s.adminKeyPem });
    const review = await s.request('POST', '/apis/authentication.svc.io/v1/selfsubjectreviews', { body: JSON.stringify({ apiVersion: 'authentication.svc.io/v1', kind: 'SelfSubjectReview' }) });
    assert.equal(review.status, 201);
    assert.equal(review.json().status.userInfo.username, 'capstan-admin');
    assert.deepEqual(review.json().status.userInfo.groups, ['system:masters', 'system:authenticated']);
  } finally {
    await s.stop();
  }
});

test('a start whose certificates cannot be made fails with the reason and leaves its store closed for the next start', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'capstan-bad-pki-'));
  try {
    await mkdir(join(dataDir, 'pki'), { recursive: true });
    await writeFile(join(dataDir, 'pki', 'ca.crt'), 'not a certificate');
    await assert.rejects(startServer({ dataDir, port: 0 }), /pki: .*ca\.crt exists but .*ca\.key does not/);
    await rm(join(dataDir, 'pki', 'ca.crt'));
    const s = await startServer({ dataDir, port: 0 });
    await s.stop();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
