// The spec's deprecated-API request behaviour end to end, on ComponentStatus (core v1, deprecated since 1.19):
// the Warning header (raw HTTP and kubectl), apiserver_requested_deprecated_apis on /metrics (and who may
// read /metrics), and the audit log's events with the deprecation and authorization annotations.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { requestAs, userCertificate } from './support/auth.ts';
import { until } from './support/until.ts';
import { startServer } from '../src/index.ts';

const WARNING = '299 - "v1 ComponentStatus is deprecated in v1.19+"';
const DEPRECATED_SAMPLE = 'apiserver_requested_deprecated_apis{group="",removed_release="",resource="componentstatuses",subresource="",version="v1"} 1';

// Kubernetes' group name in the policy: the server reads it as its own.
const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ["/healthz*", "/readyz*", "/livez*"]
- level: RequestResponse
  resources: [{group: "", resources: [componentstatuses]}]
- level: Metadata
`;

interface AuditEvent { auditID: string; stage: string; verb: string; requestURI: string; level: string; user: { username?: string }; annotations?: Record<string, string>; responseStatus?: { code: number }; responseObject?: any; objectRef?: any }

describe('deprecated API requests, metrics and audit', () => {
  let s: TestServer;
  let auditLog: string;

  const events = async (): Promise<AuditEvent[]> => (await readFile(auditLog, 'utf8')).trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  /** The events of one request, once its ResponseComplete is written (just after the answer reached us). */
  const eventsOf = async (auditID: unknown): Promise<AuditEvent[]> => {
    await until(async () => (await events()).some((e) => e.auditID === auditID && e.stage === 'ResponseComplete'), `the audit events of ${auditID}`);
    return (await events()).filter((e) => e.auditID === auditID);
  };
  const metrics = async () => {
    const r = await s.request('GET', '/metrics');
    assert.equal(r.status, 200, r.body);
    assert.equal(r.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    return r.body;
  };

  before(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-audit-'));
    const policyFile = join(dir, 'policy.yaml');
    auditLog = join(dir, 'log', 'audit.log');
    await writeFile(policyFile, POLICY);
    s = await startTestServer({ audit: { policyFile, logPath: auditLog } });
    // The controller manager's health is its lease: wait until this server runs the controllers.
    await until(() => s.isLeader(), 'the controller lease');
  });
  after(() => s?.stop());

  test('before any deprecated request, /metrics has no apiserver_requested_deprecated_apis', async () => {
    const text = await metrics();
    assert.doesNotMatch(text, /apiserver_requested_deprecated_apis/);
    assert.match(text, /# HELP apiserver_storage_objects \[STABLE\] Number of stored objects at the time of last check split by kind\./);
    assert.match(text, /# HELP process_resident_memory_bytes Resident memory size in bytes\.\n# TYPE process_resident_memory_bytes gauge\n/);
  });

  test('a list answers the synthesised statuses with the deprecation Warning', async () => {
    const r = await s.request('GET', '/api/v1/componentstatuses');
    assert.equal(r.status, 200, r.body);
    assert.equal(r.headers.warning, WARNING);
    assert.deepEqual(r.json(), {
      kind: 'ComponentStatusList', apiVersion: 'v1', metadata: {},
      items: [
        { metadata: { name: 'controller-manager', creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] },
        { metadata: { name: 'etcd-0', creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] },
      ],
    });
    const [received, complete] = await eventsOf(r.headers['audit-id']);
    assert.equal(received.stage, 'RequestReceived');
    assert.equal(complete.level, 'RequestResponse');
    assert.equal(complete.verb, 'list');
    assert.equal(complete.user.username, 'capstan-admin');
    assert.deepEqual(complete.objectRef, { resource: 'componentstatuses', apiVersion: 'v1' });
    assert.deepEqual(complete.responseStatus, { metadata: {}, code: 200 });
    assert.equal(complete.responseObject.kind, 'ComponentStatusList');
    assert.deepEqual(complete.annotations, { 'authorization.svc.io/decision': 'allow', 'authorization.svc.io/reason': '', 'svc.io/deprecated': 'true' });
  });

  test('get, a missing name, and the verbs Kubernetes does not serve', async () => {
    const one = await s.request('GET', '/api/v1/componentstatuses/etcd-0');
    assert.equal(one.status, 200);
    assert.equal(one.headers.warning, WARNING);
    assert.deepEqual(one.json(), { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'etcd-0', creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] });
    const missing = await s.request('GET', '/api/v1/componentstatuses/scheduler');
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.warning, WARNING);
    assert.equal(missing.json().message, 'componentstatuses "scheduler" not found');
    for (const [method, path] of [['POST', '/api/v1/componentstatuses'], ['DELETE', '/api/v1/componentstatuses/etcd-0'], ['PUT', '/api/v1/componentstatuses/etcd-0'], ['DELETE', '/api/v1/componentstatuses']]) {
      const r = await s.request(method, path, method === 'POST' || method === 'PUT' ? { body: '{"metadata":{"name":"etcd-0"}}' } : {});
      assert.equal(r.status, 405, `${method} ${path}`);
      assert.equal(r.json().message, 'the server does not allow this method on the requested resource');
      assert.equal(r.headers.warning, undefined);
    }
    const watch = await s.request('GET', '/api/v1/componentstatuses?watch=true');
    assert.equal(watch.status, 405);
    assert.equal(watch.json().message, 'watch is not supported on resources of kind "componentstatuses"');
    assert.equal((await s.request('GET', '/api/v1/watch/componentstatuses')).status, 404);
    assert.equal((await s.request('GET', '/api/v1/componentstatuses/etcd-0/status')).status, 404);
    // A field selector narrows the list.
    const selected = await s.request('GET', '/api/v1/componentstatuses?fieldSelector=metadata.name%3Detcd-0');
    assert.deepEqual(selected.json().items.map((i: any) => i.metadata.name), ['etcd-0']);
  });

  test('metadata-only reads answer PartialObjectMetadata and an empty-metadata PartialObjectMetadataList', async () => {
    const as = (kind: string) => ({ headers: { accept: `application/json;as=${kind};g=meta.k8s.io;v=v1` } });
    const list = await s.request('GET', '/api/v1/componentstatuses', as('PartialObjectMetadataList'));
    assert.equal(list.status, 200, list.body);
    assert.deepEqual(list.json(), {
      kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: {},
      items: ['controller-manager', 'etcd-0'].map((name) => ({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name, creationTimestamp: null } })),
    });
    const one = await s.request('GET', '/api/v1/componentstatuses/etcd-0', as('PartialObjectMetadata'));
    assert.deepEqual(one.json(), { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'etcd-0', creationTimestamp: null } });
  });

  test('discovery lists componentstatuses with get and list only, short name cs, no storage hash', async () => {
    const resource = (await s.request('GET', '/api/v1')).json().resources.find((r: any) => r.name === 'componentstatuses');
    assert.deepEqual(resource, { name: 'componentstatuses', singularName: 'componentstatus', namespaced: false, kind: 'ComponentStatus', verbs: ['get', 'list'], shortNames: ['cs'] });
    const paths = (await s.request('GET', '/openapi/v3/api/v1')).json().paths;
    assert.deepEqual(Object.keys(paths['/api/v1/componentstatuses']).filter((k) => k !== 'parameters'), ['get']);
    assert.equal(paths['/api/v1/watch/componentstatuses'], undefined);
  });

  test('kubectl get cs prints Kubernetes columns and the deprecation warning on stderr', async () => {
    const r = await s.kubectl(['get', 'cs']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, 'Warning: v1 ComponentStatus is deprecated in v1.19+\n');
    assert.deepEqual(r.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/)), [
      ['NAME', 'STATUS', 'MESSAGE', 'ERROR'],
      ['controller-manager', 'Healthy', 'ok'],
      ['etcd-0', 'Healthy', 'ok'],
    ]);
    const one = await s.kubectl(['get', 'componentstatus', 'etcd-0', '-o', 'jsonpath={.conditions[0].status}']);
    assert.equal(one.stdout, 'True');
    assert.match(one.stderr, /Warning: v1 ComponentStatus is deprecated in v1\.19\+/);
  });

  test('after the deprecated requests, /metrics has the gauge with Kubernetes HELP and TYPE', async () => {
    const text = await metrics();
    assert.ok(text.includes([
      '# HELP apiserver_requested_deprecated_apis [STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
      '# TYPE apiserver_requested_deprecated_apis gauge',
      DEPRECATED_SAMPLE,
      '',
    ].join('\n')), text);
    assert.match(text, /# HELP apiserver_request_total \[STABLE\] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code\.\n/);
    assert.match(text, /apiserver_request_total\{code="200",component="apiserver",dry_run="",group="",resource="componentstatuses",scope="cluster",subresource="",verb="LIST",version="v1"\} \d+\n/);
    assert.match(text, /apiserver_storage_objects\{resource="namespaces"\} \d+\n/);
  });

  test('a request to a version that is not deprecated has neither warning nor annotation', async () => {
    const r = await s.request('GET', '/api/v1/namespaces/default/configmaps');
    assert.equal(r.status, 200);
    assert.equal(r.headers.warning, undefined);
    const complete = (await eventsOf(r.headers['audit-id'])).find((e) => e.stage === 'ResponseComplete')!;
    assert.equal(complete.level, 'Metadata');
    assert.equal(complete.annotations?.['svc.io/deprecated'], undefined);
    assert.equal(complete.annotations?.['authorization.svc.io/decision'], 'allow');
  });

  test('/metrics is for users allowed get on the non-resource URL: anonymous and others get 403', async () => {
    const anonymous = await s.request('GET', '/metrics', { anonymous: true });
    assert.equal(anonymous.status, 403);
    assert.equal(anonymous.json().message, 'forbidden: User "system:anonymous" cannot get path "/metrics"');
    const [events] = [await eventsOf(anonymous.headers['audit-id'])];
    const denied = events.find((e) => e.stage === 'ResponseComplete')!;
    assert.equal(denied.annotations?.['authorization.svc.io/decision'], 'forbid');
    assert.equal(denied.responseStatus?.code, 403);
    const dana = await requestAs(s, await userCertificate(s, 'dana', ['dev']), 'GET', '/metrics');
    assert.equal(dana.status, 403);
    assert.equal(dana.json().message, 'forbidden: User "dana" cannot get path "/metrics"');
    const monitor = await requestAs(s, await userCertificate(s, 'prometheus', ['system:monitoring']), 'GET', '/metrics');
    assert.equal(monitor.status, 200);
    assert.ok(monitor.body.includes(DEPRECATED_SAMPLE));
  });

  test('the audit log is readable by its owner only', async () => {
    assert.equal((await stat(auditLog)).mode & 0o777, 0o600);
  });
});

describe('audit and metrics configuration', () => {
  test('without an audit policy nothing is written; answers still carry an Audit-ID (WithAuditInit)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-noaudit-'));
    const s = await startTestServer({ audit: { logPath: join(dir, 'audit.log') } });
    try {
      const r = await s.request('GET', '/api/v1/componentstatuses');
      assert.equal(r.headers.warning, WARNING);
      assert.match(String(r.headers['audit-id']), /^[0-9a-f-]{36}$/);
      await assert.rejects(stat(join(dir, 'audit.log')), { code: 'ENOENT' });
    } finally {
      await s.stop();
    }
  });

  test('a bad audit policy or metrics version stops the start with Kubernetes messages', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-badaudit-'));
    const policyFile = join(dir, 'policy.yaml');
    await writeFile(policyFile, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Loud\n');
    await assert.rejects(startServer({ inMemory: true, port: 0, audit: { policyFile, logPath: join(dir, 'a.log') } }), {
      message: `loading audit policy file: rules[0].level: Unsupported value: "Loud": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${policyFile}`,
    });
    await assert.rejects(startServer({ inMemory: true, port: 0, showHiddenMetricsForVersion: '1.30' }), {
      message: "--show-hidden-metrics-for-version must be omitted or have the value '1.31'. Only the previous minor version is allowed",
    });
  });
});
