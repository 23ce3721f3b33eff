// The Webhook authorizer against a real HTTPS webhook server, and the authorization configuration file:
// match conditions, failure policies, caches, reload on change, and its start-up errors.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import { writeFile, rename } from 'node:fs/promises';
import YAML from 'yaml';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { eventually, requestAs, tempFile, type Credentials } from './support/auth.ts';
import { generateCertificateAuthority } from '../src/pki/authority.ts';
import { issueServingCertificate } from '../src/pki/sign.ts';

const bob: Credentials = { token: 'token-bob' };
const TOKENS = 'token-bob,bob,1,"devs"\n';

/** A SubjectAccessReview webhook: `decide` answers each review's status; every review received is kept. */
interface Webhook {
  url: string;
  kubeconfig: string;
  reviews: any[];
  decide: (review: any) => object | 'garbage';
  close(): Promise<void>;
}

async function startWebhook(): Promise<Webhook> {
  const ca = await generateCertificateAuthority({ commonName: 'webhook-ca' });
  const serving = await issueServingCertificate(ca, { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
  const hook: Webhook = { url: '', kubeconfig: '', reviews: [], decide: () => ({ allowed: false }), close: async () => {} };
  const server: Server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      hook.reviews.push(review);
      void Promise.resolve(hook.decide(review)).then((status) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(status === 'garbage' ? '{"status": "not an object"' : JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status }));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  hook.url = `https://127.0.0.1:${(server.address() as { port: number }).port}/authorize`;
  hook.kubeconfig = await tempFile('webhook.kubeconfig', YAML.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'webhook',
    clusters: [{ name: 'authz', cluster: { server: hook.url, 'certificate-authority-data': Buffer.from(ca.certPem).toString('base64') } }],
    users: [{ name: 'apiserver', user: {} }],
    contexts: [{ name: 'webhook', context: { cluster: 'authz', user: 'apiserver' } }],
  }));
  hook.close = () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); });
  return hook;
}

/** Decides by resource: configmaps allowed, secrets denied, anything else no opinion. */
function byResource(review: any): object {
  const r = review.spec.resourceAttributes?.resource;
  if (r === 'configmaps') return { allowed: true, reason: 'webhook likes configmaps' };
  if (r === 'secrets') return { allowed: false, denied: true, reason: 'webhook guards secrets' };
  return { allowed: false };
}

describe('Webhook mode from flags', () => {
  let hook: Webhook;
  let s: TestServer;
  before(async () => {
    hook = await startWebhook();
    hook.decide = byResource;
    s = await startTestServer({ access: { modes: ['Webhook', 'RBAC'], webhookConfigFile: hook.kubeconfig, webhookVersion: 'v1', tokenAuthFile: await tempFile('t.csv', TOKENS) } });
  });
  after(async () => { await s.stop(); await hook.close(); });

  test('allow, deny and no opinion, with the review the webhook receives', async () => {
    assert.equal((await requestAs(s, bob, 'GET', '/api/v1/namespaces/default/configmaps')).status, 200);
    const review = hook.reviews.find((r) => r.spec.resourceAttributes?.resource === 'configmaps');
    assert.deepEqual(review, {
      apiVersion: 'authorization.svc.io/v1', kind: 'SubjectAccessReview', metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'default', verb: 'list', version: 'v1', resource: 'configmaps' }, user: 'bob', groups: ['devs', 'system:authenticated'], uid: '1' },
      status: { allowed: false },
    });
    const denied = await requestAs(s, bob, 'GET', '/api/v1/namespaces/default/secrets');
    assert.equal(denied.status, 403);
    assert.equal(denied.json().message, 'secrets is forbidden: User "bob" cannot list resource "secrets" in API group "" in the namespace "default": webhook guards secrets');
    // No opinion: RBAC decides (discovery is allowed, namespaces are not).
    assert.equal((await requestAs(s, bob, 'GET', '/apis')).status, 200);
    assert.equal((await requestAs(s, bob, 'GET', '/api/v1/namespaces')).status, 403);
    // system:masters never reaches the webhook.
    const before = hook.reviews.length;
    assert.equal((await s.request('GET', '/api/v1/namespaces/default/secrets')).status, 200);
    assert.equal(hook.reviews.length, before);
  });

  test('answers are cached: an allowed review is not asked again', async () => {
    await requestAs(s, bob, 'GET', '/api/v1/namespaces/kube-system/configmaps');
    const count = hook.reviews.length;
    await requestAs(s, bob, 'GET', '/api/v1/namespaces/kube-system/configmaps');
    await requestAs(s, bob, 'GET', '/api/v1/namespaces/kube-system/configmaps');
    assert.equal(hook.reviews.length, count);
  });
});

describe('Webhook mode, v1beta1 reviews', () => {
  test('the review carries `group` instead of `groups`', async () => {
    const hook = await startWebhook();
    hook.decide = () => ({ allowed: true });
    const s = await startTestServer({ access: { modes: ['Webhook'], webhookConfigFile: hook.kubeconfig, tokenAuthFile: await tempFile('t.csv', TOKENS) } });
    try {
      assert.equal((await requestAs(s, bob, 'GET', '/api/v1/nodes')).status, 200);
      assert.equal(hook.reviews[0].apiVersion, 'authorization.svc.io/v1beta1');
      assert.deepEqual(hook.reviews[0].spec.group, ['devs', 'system:authenticated']);
      assert.equal(hook.reviews[0].spec.groups, undefined);
    } finally {
      await s.stop();
      await hook.close();
    }
  });
});

function config(authorizers: object[]): string {
  return YAML.stringify({ apiVersion: 'apiserver.config.svc.io/v1', kind: 'AuthorizationConfiguration', authorizers });
}

function webhookEntry(hook: Webhook, o: Record<string, unknown> = {}) {
  return {
    type: 'Webhook', name: 'hook',
    webhook: {
      timeout: '3s', subjectAccessReviewVersion: 'v1', matchConditionSubjectAccessReviewVersion: 'v1', failurePolicy: 'NoOpinion',
      connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: hook.kubeconfig }, ...o,
    },
  };
}

describe('authorization configuration file', () => {
  let hook: Webhook;
  before(async () => {
    hook = await startWebhook();
    hook.decide = byResource;
  });
  after(() => hook.close());

  test('match conditions choose which requests reach the webhook', async () => {
    const file = await tempFile('authz.yaml', config([
      webhookEntry(hook, { matchConditions: [{ expression: 'has(request.resourceAttributes)' }, { expression: "request.resourceAttributes.namespace == 'hooked'" }] }),
      { type: 'Node', name: 'node' }, { type: 'RBAC', name: 'rbac' },
    ]));
    const s = await startTestServer({ access: { configFile: file, tokenAuthFile: await tempFile('t.csv', TOKENS) } });
    try {
      hook.reviews.length = 0;
      assert.equal((await requestAs(s, bob, 'GET', '/api/v1/namespaces/hooked/configmaps')).status, 200);
      assert.equal((await requestAs(s, bob, 'GET', '/api/v1/namespaces/other/configmaps')).status, 403);
      assert.equal((await requestAs(s, bob, 'GET', '/apis')).status, 200);
      assert.deepEqual(hook.reviews.map((r) => r.spec.resourceAttributes?.namespace), ['hooked']);
    } finally { await s.stop(); }
  });

  test('failurePolicy: Deny refuses when the webhook fails or a condition errors; NoOpinion moves on', async () => {
    const down = await startWebhook();
    await down.close();
    const deny = await tempFile('authz.yaml', config([webhookEntry(down, { failurePolicy: 'Deny' }), { type: 'RBAC', name: 'rbac' }]));
    let s = await startTestServer({ access: { configFile: deny, tokenAuthFile: await tempFile('t.csv', TOKENS) } });
    try {
      assert.equal((await requestAs(s, bob, 'GET', '/apis')).status, 403);
      assert.equal((await s.request('GET', '/api/v1/namespaces')).status, 200, 'system:masters is not subject to the webhook');
    } finally { await s.stop(); }
    const noOpinion = await tempFile('authz.yaml', config([webhookEntry(down), { type: 'RBAC', name: 'rbac' }]));
    s = await startTestServer({ access: { configFile: noOpinion, tokenAuthFile: await tempFile('t.csv', TOKENS) } });
    try {
      assert.equal((await requestAs(s, bob, 'GET', '/apis')).status, 200);
    } finally { await s.stop(); }
    // A condition that errors (a missing extra key) follows the failure policy too; a malformed answer as well.
    const erroring = await tempFile('authz.yaml', config([webhookEntry(hook, { failurePolicy: 'Deny', matchConditions: [{ expression: "request.extra['team'][0] == 'x'" }] }), { type: 'RBAC', name: 'rbac' }]));
    s = await startTestServer({ access: { configFile: erroring, tokenAuthFile: await tempFile('t.csv', TOKENS) } });
    try {
      assert.equal((await requestAs(s, bob, 'GET', '/apis')).status, 403);
    } finally { await s.stop(); }
    // A webhook that never answers: the timeout ends the call, and the failure policy decides.
    const silent = await startWebhook();
    silent.decide = () => new Promise(() => {}) as unknown as object;
    const slow = await tempFile('authz.yaml', config([webhookEntry(silent, { failurePolicy: 'Deny', timeout: '1s' }), { type: 'RBAC', name: 'rbac' }]));
    s = await startTestServer({ access: { configFile: slow, tokenAuthFile: await tempFile('t.csv', TOKENS) } });
    try {
      assert.equal((await requestAs(s, bob, 'GET', '/apis')).status, 403);
    } finally { await s.stop(); await silent.close(); }
    const garbage = await startWebhook();
    garbage.decide = () => 'garbage';
    const malformed = await tempFile('authz.yaml', config([webhookEntry(garbage, { failurePolicy: 'Deny' }), { type: 'RBAC', name: 'rbac' }]));
    s = await startTestServer({ access: { configFile: malformed, tokenAuthFile: await tempFile('t.csv', TOKENS) } });
    try {
      assert.equal((await requestAs(s, bob, 'GET', '/apis')).status, 403);
    } finally { await s.stop(); await garbage.close(); }
  });

  test('the file is reloaded when it changes; a bad new file keeps the old configuration and says so', async () => {
    const file = await tempFile('authz.yaml', config([{ type: 'RBAC', name: 'rbac' }]));
    const lines: string[] = [];
    const s = await startTestServer({ log: (l) => lines.push(l), access: { configFile: file, configReloadIntervalMs: 200, tokenAuthFile: await tempFile('t.csv', TOKENS) } });
    try {
      assert.equal((await requestAs(s, bob, 'GET', '/api/v1/namespaces/default/configmaps')).status, 403);
      // Replace the file (as config management does) with one that asks the webhook first.
      await writeFile(`${file}.new`, config([webhookEntry(hook), { type: 'RBAC', name: 'rbac' }]));
      await rename(`${file}.new`, file);
      await eventually(async () => (await requestAs(s, bob, 'GET', '/api/v1/namespaces/default/configmaps')).status === 200);
      assert.ok(lines.some((l) => l.includes('authorization configuration reloaded')));

      await writeFile(file, config([{ type: 'Magic', name: 'x' }]));
      await eventually(async () => lines.some((l) => /error reloading authorization configuration file .* keeping the previous configuration: .*authorizers\[0\]\.type: Unsupported value: "Magic"/.test(l)));
      assert.equal((await requestAs(s, bob, 'GET', '/api/v1/namespaces/default/configmaps')).status, 200);

      await writeFile(file, config([{ type: 'RBAC', name: 'rbac' }]));
      await eventually(async () => (await requestAs(s, bob, 'GET', '/api/v1/namespaces/default/configmaps')).status === 403);
    } finally { await s.stop(); }
  });

  test('start-up errors: combined with --authorization-mode or --authorization-webhook-*, and every invalid field', async () => {
    const good = await tempFile('authz.yaml', config([{ type: 'RBAC', name: 'rbac' }]));
    const combined = /--authorization-config can not be specified when --authorization-mode or --authorization-webhook-\* flags are defined/;
    await assert.rejects(startTestServer({ access: { configFile: good, modes: ['RBAC'] } }), combined);
    await assert.rejects(startTestServer({ access: { configFile: good, webhookConfigFile: hook.kubeconfig } }), combined);
    await assert.rejects(startTestServer({ access: { configFile: good, webhookCacheAuthorizedTtlMs: 1000 } }), combined);

    const invalid = async (authorizers: object[]) => {
      const file = await tempFile('authz.yaml', config(authorizers));
      const err = await startTestServer({ access: { configFile: file } }).then((s) => { void s.stop(); return undefined; }, (e: Error) => e);
      assert.ok(err, 'the server should not start');
      return err.message;
    };
    assert.match(await invalid([]), /authorizers: Required value: at least one authorization mode must be defined/);
    assert.match(await invalid([{ type: 'ABAC', name: 'a' }]), /authorizers\[0\]\.type: Unsupported value: "ABAC": supported values: "Node", "RBAC", "Webhook"/);
    assert.match(await invalid([{ type: 'RBAC' }]), /authorizers\[0\]\.name: Required value/);
    assert.match(await invalid([{ type: 'RBAC', name: 'r' }, { type: 'RBAC', name: 's' }]), /authorizers\[1\]\.type: Duplicate value: "RBAC"/);
    assert.match(await invalid([webhookEntry(hook), { ...webhookEntry(hook) }]), /authorizers\[1\]\.name: Duplicate value: "hook"/);
    assert.match(await invalid([{ type: 'RBAC', name: 'Not_Valid' }]), /authorizers\[0\]\.name: Invalid value: "Not_Valid": authorizer name is invalid/);
    assert.match(await invalid([{ type: 'Webhook', name: 'w' }]), /authorizers\[0\]\.webhook: Required value: required when type=Webhook/);
    assert.match(await invalid([{ type: 'RBAC', name: 'r', webhook: {} }]), /authorizers\[0\]\.webhook: Invalid value: "non-null": may only be specified when type=Webhook/);
    assert.match(await invalid([webhookEntry(hook, { timeout: '31s' })]), /authorizers\[0\]\.webhook\.timeout: Invalid value: "31s": must be > 0s and <= 30s/);
    assert.match(await invalid([webhookEntry(hook, { timeout: undefined })]), /authorizers\[0\]\.webhook\.timeout: Required value/);
    assert.match(await invalid([webhookEntry(hook, { authorizedTTL: '-1s' })]), /authorizers\[0\]\.webhook\.authorizedTTL: Invalid value: "-1s": must be > 0s/);
    assert.match(await invalid([webhookEntry(hook, { subjectAccessReviewVersion: 'v2' })]), /subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1"/);
    assert.match(await invalid([webhookEntry(hook, { matchConditionSubjectAccessReviewVersion: 'v1beta1' })]), /matchConditionSubjectAccessReviewVersion: Unsupported value: "v1beta1": supported values: "v1"/);
    assert.match(await invalid([webhookEntry(hook, { failurePolicy: undefined })]), /webhook\.failurePolicy: Required value/);
    assert.match(await invalid([webhookEntry(hook, { failurePolicy: 'Allow' })]), /failurePolicy: Unsupported value: "Allow": supported values: "NoOpinion", "Deny"/);
    assert.match(await invalid([webhookEntry(hook, { connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: 'relative.yaml' } })]), /connectionInfo\.kubeConfigFile: Invalid value: "relative.yaml": must be an absolute path/);
    assert.match(await invalid([webhookEntry(hook, { connectionInfo: { type: 'KubeConfigFile' } })]), /connectionInfo\.kubeConfigFile: Required value/);
    assert.match(await invalid([webhookEntry(hook, { connectionInfo: { type: 'Carrier' } })]), /connectionInfo\.type: Unsupported value: "Carrier"/);
    const many = Array.from({ length: 65 }, (_, i) => ({ expression: `request.user != 'u${i}'` }));
    assert.match(await invalid([webhookEntry(hook, { matchConditions: many })]), /matchConditions: Too many: 65: must have at most 64 items/);
    assert.match(await invalid([webhookEntry(hook, { matchConditions: [{ expression: 'request.user ==' }] })]), /matchConditions\[0\]\.expression: Invalid value: "request.user ==": compilation failed: ERROR: <input>:1:15: Syntax error/);
    assert.match(await invalid([webhookEntry(hook, { matchConditions: [{ expression: 'request.user' }] })]), /compilation failed: must evaluate to bool/);
    assert.match(await invalid([webhookEntry(hook, { matchConditions: [{ expression: 'true' }, { expression: 'true' }] })]), /matchConditions\[1\]\.expression: Duplicate value: "true"/);
    assert.match(await invalid([webhookEntry(hook, { unknownField: 1 })]), /unknown field "authorizers\[0\]\.webhook\.unknownField"/);
    // 64 conditions are fine.
    const ok = await tempFile('authz.yaml', config([webhookEntry(hook, { matchConditions: many.slice(0, 64) }), { type: 'RBAC', name: 'rbac' }]));
    const s = await startTestServer({ access: { configFile: ok } });
    await s.stop();
  });
});
