// Zeros of Kubernetes' non-pointer `omitempty` fields (a Deployment's `paused: false`, `minReadySeconds: 0`,
// a pod's `hostNetwork: false`, a container's `stdin: false`) are Go's "unset": whatever format and verb
// carried them, they are neither stored nor answered. Pointer fields (`replicas`) keep their zero.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import YAML from 'yaml';
import { startTestServer, type TestServer } from './support/capstan.ts';

const BASE = '/apis/apps/v1/namespaces/default/deployments';

function deployment(name: string): Record<string, any> {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: {
      replicas: 0, paused: false, minReadySeconds: 0,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { hostNetwork: false, containers: [{ name: 'c', image: 'nginx', stdin: false, tty: false }] },
      },
    },
  };
}

/** The zeros are gone, replicas keeps its 0 and progressDeadlineSeconds its default. */
function assertGoShape(d: any, where: string): void {
  assert.equal(d.spec.replicas, 0, `${where}: replicas is a pointer, its 0 stays`);
  assert.equal(d.spec.progressDeadlineSeconds, 600, `${where}: the default`);
  assert.equal('paused' in d.spec, false, `${where}: paused`);
  assert.equal('minReadySeconds' in d.spec, false, `${where}: minReadySeconds`);
  assert.equal('hostNetwork' in d.spec.template.spec, false, `${where}: hostNetwork`);
  for (const f of ['stdin', 'tty']) assert.equal(f in d.spec.template.spec.containers[0], false, `${where}: ${f}`);
}

describe('zeros of non-pointer omitempty fields', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  const get = async (name: string) => {
    const r = await s.request('GET', `${BASE}/${name}`);
    assert.equal(r.status, 200, r.body);
    return r.json();
  };

  it('JSON create and update: not in the answer nor in a later GET', async () => {
    const created = await s.request('POST', BASE, { body: JSON.stringify(deployment('json')) });
    assert.equal(created.status, 201, created.body);
    assertGoShape(created.json(), 'create');
    assertGoShape(await get('json'), 'get after create');

    const current = await get('json');
    Object.assign(current.spec, { paused: false, minReadySeconds: 0 });
    current.spec.template.spec.hostNetwork = false;
    current.spec.template.spec.containers[0].stdin = false;
    const updated = await s.request('PUT', `${BASE}/json`, { body: JSON.stringify(current) });
    assert.equal(updated.status, 200, updated.body);
    assertGoShape(updated.json(), 'update');
    // Nothing Go would encode changed: the update is a no-op, as it is in Kubernetes.
    assert.equal(updated.json().metadata.resourceVersion, current.metadata.resourceVersion);
    assertGoShape(await get('json'), 'get after update');
  });

  it('YAML create, merge and strategic merge patches', async () => {
    const created = await s.request('POST', BASE, { body: YAML.stringify(deployment('yaml')), headers: { 'content-type': 'application/yaml' } });
    assert.equal(created.status, 201, created.body);
    assertGoShape(created.json(), 'yaml create');

    const patch = { spec: { paused: false, minReadySeconds: 0, template: { spec: { hostNetwork: false } } } };
    for (const type of ['application/merge-patch+json', 'application/strategic-merge-patch+json']) {
      const patched = await s.request('PATCH', `${BASE}/yaml`, { body: JSON.stringify(patch), headers: { 'content-type': type } });
      assert.equal(patched.status, 200, patched.body);
      assertGoShape(patched.json(), type);
    }
    const json = await s.request('PATCH', `${BASE}/yaml`, {
      body: JSON.stringify([{ op: 'add', path: '/spec/template/spec/containers/0/stdin', value: false }]),
      headers: { 'content-type': 'application/json-patch+json' },
    });
    assert.equal(json.status, 200, json.body);
    assertGoShape(json.json(), 'json patch');
    assertGoShape(await get('yaml'), 'get after patches');
  });

  it('a true or a non-zero number stays, and a later zero unsets it', async () => {
    const d = deployment('set');
    Object.assign(d.spec, { paused: true, minReadySeconds: 5 });
    d.spec.template.spec.containers[0].stdin = true;
    const created = await s.request('POST', BASE, { body: JSON.stringify(d) });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.json().spec.paused, true);
    assert.equal(created.json().spec.minReadySeconds, 5);
    assert.equal(created.json().spec.template.spec.containers[0].stdin, true);
    const patched = await s.request('PATCH', `${BASE}/set`, {
      body: JSON.stringify({ spec: { paused: false, minReadySeconds: 0 } }), headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patched.status, 200, patched.body);
    assert.equal('paused' in patched.json().spec, false);
    assert.equal('minReadySeconds' in patched.json().spec, false);
  });

  it('a zero read as unset is defaulted as if absent: a probe timeoutSeconds of 0 is stored as 1', async () => {
    const d = deployment('probe');
    d.spec.template.spec.containers[0].livenessProbe = { exec: { command: ['true'] }, timeoutSeconds: 0, periodSeconds: 0, initialDelaySeconds: 0 };
    const created = await s.request('POST', BASE, { body: JSON.stringify(d) });
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(created.json().spec.template.spec.containers[0].livenessProbe, {
      exec: { command: ['true'] }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3,
    });
  });

  it('kubectl apply (client-side) of a manifest with the zeros', async () => {
    const r = await s.kubectl(['apply', '-f', '-', '-o', 'json'], YAML.stringify(deployment('kubectl')));
    assert.equal(r.code, 0, r.stderr);
    assertGoShape(JSON.parse(r.stdout), 'kubectl apply');
    assertGoShape(await get('kubectl'), 'get after kubectl apply');
    // Applying it again: kubectl still patches the zeros the live object lacks (it says "configured", as
    // against Kubernetes), and the server finds nothing to store.
    const before = (await get('kubectl')).metadata.resourceVersion;
    const again = await s.kubectl(['apply', '-f', '-'], YAML.stringify(deployment('kubectl')));
    assert.equal(again.code, 0, again.stderr);
    const live = await get('kubectl');
    assertGoShape(live, 'get after a second kubectl apply');
    assert.equal(live.metadata.resourceVersion, before);
  });

  it('server-side apply: the zeros are not stored; the applier owns what it sent, as Kubernetes records it', async () => {
    const manifest = YAML.stringify(deployment('ssa'));
    const r = await s.kubectl(['apply', '--server-side', '--field-manager=first', '-f', '-', '-o', 'json', '--show-managed-fields'], manifest);
    assert.equal(r.code, 0, r.stderr);
    const applied = JSON.parse(r.stdout);
    assertGoShape(applied, 'server-side apply');
    // Kubernetes types the apply configuration as sent (not through its Go structs): the applier owns paused.
    const entry = applied.metadata.managedFields.find((m: any) => m.manager === 'first');
    assert.equal(entry.operation, 'Apply');
    assert.deepEqual(entry.fieldsV1['f:spec']['f:paused'], {});
    assert.deepEqual(entry.fieldsV1['f:spec']['f:minReadySeconds'], {});

    // The same manager applying the same configuration: no conflict, nothing changes.
    const again = await s.kubectl(['apply', '--server-side', '--field-manager=first', '-f', '-', '-o', 'json'], manifest);
    assert.equal(again.code, 0, again.stderr);
    assertGoShape(JSON.parse(again.stdout), 'server-side apply again');
    assert.equal(JSON.parse(again.stdout).metadata.resourceVersion, applied.metadata.resourceVersion);
    assertGoShape(await get('ssa'), 'get after server-side apply');
  });
});
