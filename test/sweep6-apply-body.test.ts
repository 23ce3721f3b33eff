// End-to-end: what server-side apply makes of its body before merging it, compared with Kubernetes v1.32.
// - Kubernetes reads every apply body (JSON too) with its YAML decoder: a key set twice in one map keeps its
//   last value, and fieldValidation judges the repeats as yaml.v2's strict decoding lists them, naming the
//   line where the repeated key's value starts: Strict fails with 400 `error strict decoding YAML: ...`,
//   Warn (the default) sends one Warning per repeat, Ignore says nothing.
// - Kubernetes types the body against the schema first: a value of the wrong type fails as a plain error
//   (500 without a reason), whatever fieldValidation says, printing the value as Go prints it; int-or-string
//   and quantity fields take any scalar.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './support/capstan.ts';

const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };
const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';

/** A Status as Kubernetes writes an error that is not one (code 500, no reason). */
const plainError = (message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
const strictError = (...repeats: string[]) => ({
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'BadRequest', code: 400,
  message: `error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  ${repeats.join('\n  ')}`,
});

function deployment(name: string, spec: Record<string, unknown> = {}, container: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'i', ...container }] } },
      ...spec,
    },
  };
}

describe('server-side apply: a body that repeats a key', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });
  const apply = (path: string, body: string, query = '') => s.request('PATCH', `${path}?fieldManager=m${query}`, { body, headers: APPLY });

  const REPEATING = [
    'apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: NAME', '  labels:', '    a: x', '    a: y', 'data:', '  k: first', '  k:', '    last', '',
  ].join('\n');

  it('fails under Strict with each repeat by the line its value starts on, and stores nothing', async () => {
    const r = await apply(`${CM}/strict`, REPEATING.replace('NAME', 'strict'), '&fieldValidation=Strict');
    assert.equal(r.status, 400, r.body);
    assert.deepEqual(r.json(), strictError('line 7: key "a" already set in map', 'line 11: key "k" already set in map'));
    assert.equal((await s.request('GET', `${CM}/strict`)).status, 404);
  });

  it('reads a JSON body as YAML too: one line, one line number; nested repeats come before their map\'s', async () => {
    const oneLine = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"json"},"data":{"k":"a","k":"b"}}';
    const r = await apply(`${CM}/json`, oneLine, '&fieldValidation=Strict');
    assert.equal(r.status, 400, r.body);
    assert.deepEqual(r.json(), strictError('line 1: key "k" already set in map'));
    const pretty = '{\n  "apiVersion": "v1",\n  "kind": "ConfigMap",\n  "metadata": {"name": "json"},\n  "data": {"k": "a"},\n  "data": {\n    "j": "a",\n    "j": "b"\n  }\n}';
    const p = await apply(`${CM}/json`, pretty, '&fieldValidation=Strict');
    assert.deepEqual(p.json(), strictError('line 8: key "j" already set in map', 'line 6: key "data" already set in map'));
  });

  it('warns once per repeat under Warn, the default, and keeps the last value', async () => {
    const warned = await apply(`${CM}/warn`, REPEATING.replace('NAME', 'warn'), '&fieldValidation=Warn');
    assert.equal(warned.status, 201, warned.body);
    assert.equal(warned.headers.warning, '299 - "line 7: key \\"a\\" already set in map", 299 - "line 11: key \\"k\\" already set in map"');
    assert.deepEqual([warned.json().metadata.labels, warned.json().data], [{ a: 'y' }, { k: 'last' }]);
    const byDefault = await apply(`${CM}/warn`, REPEATING.replace('NAME', 'warn'));
    assert.equal(byDefault.status, 200, byDefault.body);
    assert.equal(byDefault.headers.warning, warned.headers.warning);
  });

  it('says nothing under Ignore and keeps the last value, which is the one typed', async () => {
    const r = await apply(`${CM}/ignore`, REPEATING.replace('NAME', 'ignore'), '&fieldValidation=Ignore');
    assert.equal(r.status, 201, r.body);
    assert.equal(r.headers.warning, undefined);
    assert.deepEqual(r.json().data, { k: 'last' });
    const lastIsNumber = await apply(`${CM}/ignore`, REPEATING.replace('NAME', 'ignore').replace('    last', '    7'), '&fieldValidation=Ignore');
    assert.equal(lastIsNumber.status, 500, lastIsNumber.body);
    assert.deepEqual(lastIsNumber.json(), plainError('failed to create typed patch object (/ignore; /v1, Kind=ConfigMap): .data.k: expected string, got &value.valueUnstructured{Value:7}'));
  });

  it('judges the repeats after typing the body: a typing error answers first', async () => {
    const r = await apply(`${CM}/typed`, REPEATING.replace('NAME', 'typed') + 'immutable: "yes"\n', '&fieldValidation=Strict');
    assert.equal(r.status, 500, r.body);
    assert.deepEqual(r.json(), plainError('failed to create typed patch object (/typed; /v1, Kind=ConfigMap): .immutable: expected boolean, got &{yes}'));
  });

  it('judges the repeats of an apply to a Scale too, after its conflicts', async () => {
    const created = await apply(`${DEPLOY}/scaled`, JSON.stringify(deployment('scaled')));
    assert.equal(created.status, 201, created.body);
    const scale = 'apiVersion: autoscaling/v1\nkind: Scale\nmetadata:\n  name: scaled\nspec:\n  replicas: 2\n  replicas: 3\n';
    const conflict = await apply(`${DEPLOY}/scaled/scale`, scale, '&fieldValidation=Strict');
    assert.equal(conflict.status, 409, conflict.body);
    const r = await apply(`${DEPLOY}/scaled/scale`, scale, '&fieldValidation=Strict&force=true');
    assert.equal(r.status, 400, r.body);
    assert.deepEqual(r.json(), strictError('line 7: key "replicas" already set in map'));
    const warned = await apply(`${DEPLOY}/scaled/scale`, scale, '&force=true');
    assert.equal(warned.status, 200, warned.body);
    assert.equal(warned.headers.warning, '299 - "line 7: key \\"replicas\\" already set in map"');
    assert.equal(warned.json().spec.replicas, 3);
  });
});

describe('server-side apply: a body with values of the wrong type', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });
  const apply = (name: string, body: unknown, query = '') =>
    s.request('PATCH', `${DEPLOY}/${name}?fieldManager=m${query}`, { body: JSON.stringify(body), headers: APPLY });
  const typed = (name: string, message: string) => plainError(`failed to create typed patch object (default/${name}; apps/v1, Kind=Deployment): ${message}`);

  it('fails a string where a number is expected with a plain 500, whatever fieldValidation says, and stores nothing', async () => {
    for (const fv of ['', '&fieldValidation=Strict', '&fieldValidation=Ignore']) {
      const r = await apply('d', deployment('d', { replicas: 'x' }), fv);
      assert.equal(r.status, 500, r.body);
      assert.deepEqual(r.json(), typed('d', '.spec.replicas: expected numeric (int or float), got string'));
    }
    assert.equal((await s.request('GET', `${DEPLOY}/d`)).status, 404);
  });

  it('prints each wrong value as Go prints it and lists several errors in one message', async () => {
    const body = deployment('d', { selector: 'app=d', paused: 'yes', minReadySeconds: { a: 1 } }, { image: 5, args: { x: 1 }, command: ['sh', 2] });
    (body.metadata as Record<string, unknown>).labels = { tier: 1.5e-7 };
    const r = await apply('d', body);
    assert.equal(r.status, 500, r.body);
    assert.deepEqual(r.json(), typed('d', [
      'errors:',
      '  .metadata.labels.tier: expected string, got &value.valueUnstructured{Value:1.5e-07}',
      '  .spec.selector: expected map, got &{app=d}',
      '  .spec.template.spec.containers[name="c"].image: expected string, got &value.valueUnstructured{Value:5}',
      '  .spec.template.spec.containers[name="c"].args: expected list, got &{map[x:1]}',
      '  .spec.template.spec.containers[name="c"].command[1]: expected string, got &value.valueUnstructured{Value:2}',
      '  .spec.paused: expected boolean, got &{yes}',
      '  .spec.minReadySeconds: expected numeric (int or float), got map[string]interface {}',
    ].join('\n')));
  });

  it('takes a number or a string in int-or-string and quantity fields, and refuses a map or a list there', async () => {
    const strategy = (maxSurge: unknown) => ({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable: 0 } } });
    const limits = (cpu: unknown) => ({ resources: { limits: { cpu, memory: '1Gi' } } });
    const first = await apply('d', deployment('d', strategy(1), limits(1)));
    assert.equal(first.status, 201, first.body);
    const second = await apply('d', deployment('d', strategy('25%'), limits('500m')));
    assert.equal(second.status, 200, second.body);
    assert.deepEqual([second.json().spec.strategy.rollingUpdate.maxSurge, second.json().spec.template.spec.containers[0].resources.limits.cpu], ['25%', '500m']);
    const r = await apply('d', deployment('d', strategy({ percent: 25 }), limits([1])));
    assert.equal(r.status, 500, r.body);
    assert.deepEqual(r.json(), typed('d', [
      'errors:',
      '  .spec.template.spec.containers[name="c"].resources.limits.cpu: expected any scalar, got &{[1]}',
      '  .spec.strategy.rollingUpdate.maxSurge: expected any scalar, got &{map[percent:25]}',
    ].join('\n')));
  });

  it('kubectl apply --server-side shows the typing error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apply-body-'));
    const file = join(dir, 'deployment.json');
    writeFileSync(file, JSON.stringify(deployment('kd', { replicas: 'two' })));
    const r = await s.kubectl(['apply', '--server-side', '-f', file]);
    assert.notEqual(r.code, 0);
    assert.equal(r.stderr.trim(), 'Error from server: failed to create typed patch object (default/kd; apps/v1, Kind=Deployment): .spec.replicas: expected numeric (int or float), got string');
  });
});
