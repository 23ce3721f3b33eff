import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import https from 'node:https';
import { serviceAddress, WebhookClient } from './webhook-client.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { startAdmissionWebhook, type AdmissionWebhookServer } from '../../test/support/admission-webhook.ts';
import { generateCertificateAuthority } from '../pki/authority.ts';
import { issueServingCertificate } from '../pki/sign.ts';

let hook: AdmissionWebhookServer;
let other: AdmissionWebhookServer;
const services = new Map<string, ApiObject>();
const client = new WebhookClient(async (ns, name) => services.get(`${ns}/${name}`));
before(async () => {
  hook = await startAdmissionWebhook({ dnsNames: ['hooks.system.svc'] });
  other = await startAdmissionWebhook();
});
after(async () => { client.close(); await hook.close(); await other.close(); });

const svc = (spec: Record<string, unknown>): ApiObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'hooks', namespace: 'system' }, spec });
const failure = async (p: Promise<unknown>): Promise<string> => {
  try { await p; } catch (err) { return (err as Error).message; }
  throw new Error('no failure');
};

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

test('a URL: the review is posted to its path with the timeout, the answer parsed', async () => {
  hook.answer = () => ({ allowed: true });
  const body = JSON.stringify({ kind: 'AdmissionReview', apiVersion: 'admission.svc.io/v1', request: { uid: 'u' } });
  const answer = await client.post({ url: `${hook.origin}/admit/`, caBundle: hook.caBundle }, body, 7);
  assert.deepEqual(answer, { apiVersion: 'admission.svc.io/v1', kind: 'AdmissionReview', response: { uid: 'u', allowed: true } });
  assert.equal(hook.reviews.at(-1)!.path, '/admit?timeout=7s');
});

test('a Service: its cluster IP and port, TLS checked against <name>.<namespace>.svc; ExternalName at its name', async () => {
  hook.answer = () => ({ allowed: true });
  const before = hook.reviews.length;
  services.set('system/hooks', svc({ type: 'ClusterIP', clusterIP: '127.0.0.1', ports: [{ port: hook.port }] }));
  await client.post({ service: { namespace: 'system', name: 'hooks', path: '/v', port: hook.port }, caBundle: hook.caBundle }, '{}', 10);
  services.set('system/hooks', svc({ type: 'ExternalName', externalName: 'localhost' }));
  await client.post({ service: { namespace: 'system', name: 'hooks', port: hook.port }, caBundle: hook.caBundle }, '{}', 10);
  assert.deepEqual(hook.reviews.slice(before).map((r) => r.path), ['/v?timeout=10s', '/?timeout=10s']);
  // The other server's certificate does not name the service.
  services.set('system/hooks', svc({ clusterIP: '127.0.0.1', ports: [{ port: other.port }] }));
  assert.equal(await failure(client.post({ service: { namespace: 'system', name: 'hooks', port: other.port }, caBundle: other.caBundle }, '{}', 10)),
    `failed to call webhook: Post "https://hooks.system.svc:${other.port}/?timeout=10s": tls: failed to verify certificate: x509: certificate is valid for localhost, not hooks.system.svc`);
});

test('Services that cannot be reached', () => {
  assert.throws(() => serviceAddress(undefined, 'hooks', 443), /^Error: service "hooks" not found$/);
  assert.throws(() => serviceAddress(svc({ clusterIP: 'None', ports: [{ port: 443 }] }), 'hooks', 443), /cannot route to service with ClusterIP "None"/);
  assert.throws(() => serviceAddress(svc({ clusterIP: '10.0.0.1', ports: [{ port: 80 }] }), 'hooks', 443), /no service port 443 found for service "hooks"/);
  assert.throws(() => serviceAddress(svc({ ports: [{ port: 443 }] }), 'hooks', 443), /service "hooks" has no cluster IP/);
  assert.deepEqual(serviceAddress(svc({ type: 'NodePort', clusterIP: '10.0.0.1', ports: [{ port: 443 }] }), 'hooks', 443), { host: '10.0.0.1', port: 443 });
});

test('failures worded as Go\'s client: refused, unknown authority, timeout, a bad CA bundle', async () => {
  const port = await closedPort();
  assert.equal(await failure(client.post({ url: `https://127.0.0.1:${port}` }, '{}', 10)),
    `failed to call webhook: Post "https://127.0.0.1:${port}/?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused`);
  assert.equal(await failure(client.post({ url: `${hook.origin}/x` }, '{}', 10)),
    `failed to call webhook: Post "${hook.origin}/x?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`);
  hook.delayMs = 1500;
  try {
    assert.equal(await failure(client.post({ url: `${hook.origin}/slow`, caBundle: hook.caBundle }, '{}', 1)),
      `failed to call webhook: Post "${hook.origin}/slow?timeout=1s": context deadline exceeded`);
  } finally { hook.delayMs = 0; }
  assert.equal(await failure(client.post({ url: hook.origin, caBundle: Buffer.from('junk').toString('base64') }, '{}', 10)),
    'could not get REST client: unable to load root certificates: unable to parse bytes as PEM block');
});

test('answers that are not a review: a Status, another error code, a body that is not JSON', async () => {
  const call = () => failure(client.post({ url: hook.origin, caBundle: hook.caBundle }, '{}', 10));
  hook.answer = () => ({ raw: { status: 403, body: JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'go away', code: 403 }) } });
  assert.equal(await call(), 'failed to call webhook: go away');
  hook.answer = () => ({ raw: { status: 500, body: 'it broke\n', contentType: 'text/plain' } });
  assert.equal(await call(), 'failed to call webhook: an error on the server ("it broke") has prevented the request from succeeding');
  // Quoted as Go's %q quotes: a control character as \x01, a tab as \t.
  hook.answer = () => ({ raw: { status: 500, body: 'it\x01broke\tbadly', contentType: 'text/plain' } });
  assert.equal(await call(), 'failed to call webhook: an error on the server ("it\\x01broke\\tbadly") has prevented the request from succeeding');
  hook.answer = () => ({ raw: { status: 502, body: '{"no":"status"}' } });
  assert.equal(await call(), 'failed to call webhook: an error on the server ("unknown") has prevented the request from succeeding');
  hook.answer = () => ({ raw: { status: 404, body: '' } });
  assert.equal(await call(), 'failed to call webhook: the server could not find the requested resource');
  hook.answer = () => ({ raw: { status: 200, body: '{"kind":' } });
  assert.match(await call(), /^failed to call webhook: couldn't get version\/kind; json parse error: /);
});

/** A real HTTPS webhook that answers or hangs up per request, recording each request's connection and its
 *  place on that connection (1 for a fresh connection, 2 and on for a kept-alive one). */
async function startHangingUpWebhook() {
  const ca = await generateCertificateAuthority({ commonName: 'stale-test-ca' });
  const serving = await issueServingCertificate(ca, { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
  const requestsOn = new WeakMap<object, { id: number; count: number }>();
  let connections = 0;
  const state = {
    /** none: every request answered; 'reused': hang up on a request that arrives on a kept-alive connection; all: hang up on every request. */
    hangUp: 'none' as 'none' | 'reused' | 'all',
    seen: [] as { connection: number; nth: number }[],
  };
  const server = https.createServer({ cert: serving.certPem, key: serving.keyPem, keepAlive: true }, (req, res) => {
    let conn = requestsOn.get(req.socket);
    if (!conn) requestsOn.set(req.socket, conn = { id: ++connections, count: 0 });
    conn.count += 1;
    state.seen.push({ connection: conn.id, nth: conn.count });
    // The server's side of a connection it closed while idle: the request finds it gone, no response.
    if (state.hangUp === 'all' || (state.hangUp === 'reused' && conn.count > 1)) { req.socket.destroy(); return; }
    req.resume();
    req.on('end', () => {
      // No `Connection: close`: the client keeps the connection for the next review.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'AdmissionReview', apiVersion: 'admission.svc.io/v1', response: { uid: 'u', allowed: true } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  const stop = () => new Promise<void>((r) => { if (!server.listening) return r(); server.closeAllConnections(); server.close(() => r()); });
  return { state, port, caBundle: Buffer.from(ca.certPem).toString('base64'), stop };
}

test('a kept-alive connection the server closed: the review is sent once more on a new connection; a fresh connection that fails is not retried', async () => {
  const hook = await startHangingUpWebhook();
  const stale = new WebhookClient(async () => undefined);
  const cc = { url: `https://127.0.0.1:${hook.port}/`, caBundle: hook.caBundle };
  // Lets the agent take the answered connection back into its idle pool before the next call.
  const settle = () => new Promise((r) => setImmediate(r));
  try {
    await stale.post(cc, '{}', 10);
    await settle();
    hook.state.hangUp = 'reused';
    const answer = await stale.post(cc, '{}', 10);
    assert.deepEqual(answer, { kind: 'AdmissionReview', apiVersion: 'admission.svc.io/v1', response: { uid: 'u', allowed: true } });
    // The second review went out on connection 1 (closed by the server), then once more on connection 2.
    assert.deepEqual(hook.state.seen, [{ connection: 1, nth: 1 }, { connection: 1, nth: 2 }, { connection: 2, nth: 1 }]);

    // Retried once only: a webhook that hangs up on every request fails after the stale try and one fresh try.
    await settle();
    hook.state.hangUp = 'all';
    hook.state.seen = [];
    const down = `failed to call webhook: Post "https://127.0.0.1:${hook.port}/?timeout=10s": EOF`;
    assert.equal(await failure(stale.post(cc, '{}', 10)), down);
    assert.deepEqual(hook.state.seen, [{ connection: 2, nth: 2 }, { connection: 3, nth: 1 }]);

    // A fresh connection that fails is the webhook's failure: not sent again.
    hook.state.seen = [];
    assert.equal(await failure(stale.post(cc, '{}', 10)), down);
    assert.deepEqual(hook.state.seen, [{ connection: 4, nth: 1 }]);

    // The webhook stops with a connection kept alive: whether the agent saw it close or sends on it and
    // retries, the call fails as Go's dialer words a refused connection.
    hook.state.hangUp = 'none';
    await stale.post(cc, '{}', 10);
    await hook.stop();
    assert.equal(await failure(stale.post(cc, '{}', 10)),
      `failed to call webhook: Post "https://127.0.0.1:${hook.port}/?timeout=10s": dial tcp 127.0.0.1:${hook.port}: connect: connection refused`);
  } finally {
    stale.close();
    await hook.stop();
  }
});
