// The bootstrap token controllers: tokencleaner removes expired tokens, bootstrapsigner publishes the signed
// cluster-info ConfigMap that anyone may read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compactVerify } from 'jose';
import YAML from 'yaml';
import { startTestServer } from './support/capstan.ts';
import { admin, eventually, requestAs } from './support/auth.ts';
import { controllerEnabled } from '../src/controllers/bootstrap-tokens.ts';

const secret = (id: string, data: Record<string, string>) => ({
  apiVersion: 'v1', kind: 'Secret', metadata: { name: `bootstrap-token-${id}` }, type: 'bootstrap.platform.io/token',
  stringData: { 'token-id': id, 'token-secret': '0123456789abcdef', ...data },
});

test('--controllers: tokencleaner and bootstrapsigner are off unless named', () => {
  assert.equal(controllerEnabled('tokencleaner'), false);
  assert.equal(controllerEnabled('tokencleaner', ['*', 'tokencleaner']), true);
  assert.equal(controllerEnabled('clusterrole-aggregation', ['*']), true);
  assert.equal(controllerEnabled('clusterrole-aggregation', ['*', '-clusterrole-aggregation']), false);
});

test('tokencleaner deletes expired bootstrap tokens; bootstrapsigner signs cluster-info for signing tokens', async () => {
  const s = await startTestServer({ controllers: ['*', 'tokencleaner', 'bootstrapsigner'], access: { enableBootstrapTokenAuth: true } });
  try {
    const post = (o: object) => requestAs(s, admin(s), 'POST', '/api/v1/namespaces/kube-system/secrets', o);
    assert.equal((await post(secret('expird', { expiration: '2020-01-01T00:00:00Z', 'usage-bootstrap-signing': 'true' }))).status, 201);
    assert.equal((await post(secret('signer', { 'usage-bootstrap-signing': 'true', 'usage-bootstrap-authentication': 'true' }))).status, 201);
    assert.equal((await post(secret('nosign', { 'usage-bootstrap-authentication': 'true' }))).status, 201);

    await eventually(async () => (await requestAs(s, admin(s), 'GET', '/api/v1/namespaces/kube-system/secrets/bootstrap-token-expird')).status === 404);
    assert.equal((await requestAs(s, admin(s), 'GET', '/api/v1/namespaces/kube-system/secrets/bootstrap-token-signer')).status, 200);

    let info: any;
    await eventually(async () => {
      const r = await requestAs(s, {}, 'GET', '/api/v1/namespaces/kube-public/configmaps/cluster-info');
      info = r.status === 200 ? r.json() : undefined;
      return !!info?.data?.['jws-kubeconfig-signer'];
    });
    assert.deepEqual(Object.keys(info.data).sort(), ['jws-kubeconfig-signer', 'kubeconfig']);
    const kubeconfig = YAML.parse(info.data.kubeconfig);
    assert.equal(kubeconfig.clusters[0].cluster.server, s.url);
    assert.equal(Buffer.from(kubeconfig.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), s.credentials.ca);
    // A detached JWS: the payload is the kubeconfig, the key the whole token.
    const [header, empty, signature] = info.data['jws-kubeconfig-signer'].split('.');
    assert.equal(empty, '');
    assert.deepEqual(JSON.parse(Buffer.from(header, 'base64url').toString()), { alg: 'HS256', kid: 'signer' });
    const payload = Buffer.from(info.data.kubeconfig).toString('base64url');
    await compactVerify(`${header}.${payload}.${signature}`, new TextEncoder().encode('signer.0123456789abcdef'));
    // Anonymous may read cluster-info, and nothing else there.
    assert.equal((await requestAs(s, {}, 'GET', '/api/v1/namespaces/kube-public/configmaps')).status, 403);

    // Deleting the signing token removes its signature.
    await requestAs(s, admin(s), 'DELETE', '/api/v1/namespaces/kube-system/secrets/bootstrap-token-signer');
    await eventually(async () => !(await requestAs(s, {}, 'GET', '/api/v1/namespaces/kube-public/configmaps/cluster-info')).json().data['jws-kubeconfig-signer']);
  } finally {
    await s.stop();
  }
});
