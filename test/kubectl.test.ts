// End-to-end: the real kubectl against a real Capstan.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { startTestServer, type TestServer } from './support/capstan.ts';

describe('kubectl against Capstan', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('lists the system namespaces', async () => {
    const r = await s.kubectl(['get', 'ns', '-o', 'name']);
    assert.equal(r.code, 0, r.stderr);
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) assert.match(r.stdout, new RegExp(`namespace/${ns}\\b`));
  });

  it('api-resources and api-versions list what is served', async () => {
    const r = await s.kubectl(['api-resources']);
    assert.equal(r.code, 0, r.stderr);
    for (const name of ['configmaps', 'secrets', 'serviceaccounts', 'nodes', 'namespaces', 'leases']) assert.match(r.stdout, new RegExp(`^${name}\\s`, 'm'));
    assert.match(r.stdout, /^configmaps\s+cm\s+v1\s+true\s+ConfigMap/m);
    const v = await s.kubectl(['api-versions']);
    assert.equal(v.code, 0, v.stderr);
    assert.match(v.stdout, /^v1$/m);
    assert.match(v.stdout, /^coordination\.svc\.io\/v1$/m);
  });

  it('create -f, get, describe, replace, label, annotate and delete a configmap', async () => {
    const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\n  namespace: default\ndata:\n  a: "1"\n';
    let r = await s.kubectl(['create', '-f', '-'], manifest);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /configmap\/demo created/);
    r = await s.kubectl(['get', 'cm', 'demo', '-o', 'jsonpath={.data.a}']);
    assert.equal(r.stdout, '1');
    r = await s.kubectl(['describe', 'configmap', 'demo']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Name:\s+demo/);
    r = await s.kubectl(['replace', '-f', '-'], manifest.replace('"1"', '"2"'));
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['label', 'cm', 'demo', 'tier=web']);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['annotate', 'cm', 'demo', 'note=hello']);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['get', 'cm', 'demo', '-o', 'json']);
    const cm = JSON.parse(r.stdout);
    assert.equal(cm.data.a, '2');
    assert.equal(cm.metadata.labels.tier, 'web');
    assert.equal(cm.metadata.annotations.note, 'hello');
    r = await s.kubectl(['get', 'cm', '-l', 'tier=web', '-o', 'name']);
    assert.equal(r.stdout.trim(), 'configmap/demo');
    r = await s.kubectl(['delete', 'cm', 'demo']);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['get', 'cm', 'demo']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /NotFound.*configmaps "demo" not found/);
  });

  it('secrets, serviceaccounts, nodes and leases round-trip', async () => {
    let r = await s.kubectl(['create', '-f', '-'], 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: sec\nstringData:\n  k: v\n');
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['get', 'secret', 'sec', '-o', 'jsonpath={.data.k}']);
    assert.equal(Buffer.from(r.stdout, 'base64').toString(), 'v');
    r = await s.kubectl(['create', '-f', '-'], 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: robot\n');
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['create', '-f', '-'], 'apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n');
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['create', '-f', '-'], 'apiVersion: coordination.svc.io/v1\nkind: Lease\nmetadata:\n  name: l1\n  namespace: kube-node-lease\nspec:\n  holderIdentity: n1\n  leaseDurationSeconds: 40\n');
    assert.equal(r.code, 0, r.stderr);
    for (const [kind, name, ns] of [['secret', 'sec', 'default'], ['sa', 'robot', 'default'], ['node', 'n1', ''], ['lease', 'l1', 'kube-node-lease']]) {
      r = await s.kubectl(['get', kind, name, ...(ns ? ['-n', ns] : [])]);
      assert.equal(r.code, 0, `${kind}: ${r.stderr}`);
      assert.match(r.stdout, new RegExp(`^${name}\\s`, 'm'));
    }
  });

  const manifests: [kind: string, name: string, namespace: string, yaml: string][] = [
    ['namespace', 'team-a', '', 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n'],
    ['configmap', 'cfg', 'default', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  k: v\n'],
    ['secret', 'creds', 'default', 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\nstringData:\n  password: hunter2\n'],
    ['serviceaccount', 'bot', 'default', 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: bot\n'],
    ['node', 'worker-1', '', 'apiVersion: v1\nkind: Node\nmetadata:\n  name: worker-1\nspec:\n  podCIDR: 10.0.1.0/24\n'],
    ['lease', 'lock', 'default', 'apiVersion: coordination.svc.io/v1\nkind: Lease\nmetadata:\n  name: lock\nspec:\n  holderIdentity: me\n  leaseDurationSeconds: 30\n'],
  ];
  for (const [kind, name, namespace, yaml] of manifests) {
    it(`${kind}: create -f, get, describe, replace, label, annotate, delete`, async () => {
      const ns = namespace ? ['-n', namespace] : [];
      let r = await s.kubectl(['create', '-f', '-', ...ns], yaml);
      assert.equal(r.code, 0, r.stderr);
      r = await s.kubectl(['get', kind, name, ...ns]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^${name}\\s`, 'm'));
      r = await s.kubectl(['describe', kind, name, ...ns]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`Name:\\s+${name}`));
      const live = JSON.parse((await s.kubectl(['get', kind, name, ...ns, '-o', 'json'])).stdout);
      live.metadata.labels = { ...live.metadata.labels, replaced: 'yes' };
      r = await s.kubectl(['replace', '-f', '-', ...ns], JSON.stringify(live));
      assert.equal(r.code, 0, r.stderr);
      r = await s.kubectl(['label', kind, name, ...ns, 'tier=gold']);
      assert.equal(r.code, 0, r.stderr);
      r = await s.kubectl(['annotate', kind, name, ...ns, 'note=checked']);
      assert.equal(r.code, 0, r.stderr);
      const after = JSON.parse((await s.kubectl(['get', kind, name, ...ns, '-o', 'json'])).stdout);
      assert.equal(after.metadata.labels.replaced, 'yes');
      assert.equal(after.metadata.labels.tier, 'gold');
      assert.equal(after.metadata.annotations.note, 'checked');
      if (kind === 'secret') assert.equal(after.stringData, undefined);
      r = await s.kubectl(['delete', kind, name, ...ns, '--timeout=30s']);
      assert.equal(r.code, 0, r.stderr);
      r = await s.kubectl(['get', kind, name, ...ns]);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /NotFound/);
    });
  }

  it('get --chunk-size pages through a long list', async () => {
    for (let i = 0; i < 25; i++) {
      const r = await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ metadata: { name: `page-${String(i).padStart(2, '0')}`, labels: { set: 'paging' } } }) });
      assert.equal(r.status, 201, r.body);
    }
    const r = await s.kubectl(['get', 'cm', '-l', 'set=paging', '--chunk-size', '7', '-o', 'name']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n').length, 25);
  });

  it('get -w streams changes', async () => {
    const child = spawn('kubectl', ['--kubeconfig', s.kubeconfigPath, 'get', 'cm', '-w', '-o', 'name', '-l', 'watch=me'], { env: { ...process.env, HOME: s.dataDir } });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    const waitFor = async (re: RegExp) => {
      for (let i = 0; i < 200 && !re.test(out); i++) await new Promise((r) => setTimeout(r, 50));
      assert.match(out, re);
    };
    await new Promise((r) => setTimeout(r, 1500));
    const c = await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ metadata: { name: 'watched', labels: { watch: 'me' } } }) });
    assert.equal(c.status, 201);
    await waitFor(/configmap\/watched/);
    child.kill();
  });
});
