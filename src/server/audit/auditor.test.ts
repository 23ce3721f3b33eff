import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Auditor, type RequestAudit } from './auditor.ts';
import { openAuditLog } from './log-backend.ts';
import { parseAuditPolicy } from './policy.ts';
import { bindRequestAudit, requestAuditOf } from './request-context.ts';
import { parseRequestInfo } from '../requestinfo.ts';
import { readBody, send } from '../respond.ts';

const POLICY = `
apiVersion: audit.svc.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: [/healthz]
- level: RequestResponse
  resources: [{group: "", resources: [configmaps]}]
  omitManagedFields: true
- level: Request
  resources: [{group: "", resources: [secrets]}]
- level: Metadata
`;

type Handler = (req: IncomingMessage, res: ServerResponse, audit: RequestAudit) => Promise<void>;

/** A real HTTP server whose requests go through the audit stage, then `handler`. */
async function withServer(handler: Handler, fn: (call: (method: string, path: string, body?: string, headers?: Record<string, string>) => Promise<{ status: number; headers: Record<string, unknown>; body: string }>, events: (...ids: unknown[]) => Promise<any[]>) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'auditor-'));
  const logPath = join(dir, 'audit.log');
  const auditor = new Auditor({ policy: parseAuditPolicy(POLICY), sink: openAuditLog({ path: logPath }) });
  const server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const audit = auditor.begin(req, res, parseRequestInfo(req.method!, url.pathname, url.searchParams));
    audit.trace.user = { username: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'] };
    if (req.headers['impersonate-user']) audit.trace.impersonatedUser = { username: String(req.headers['impersonate-user']), groups: ['system:authenticated'] };
    audit.trace.decision = 'allow';
    audit.trace.reason = 'RBAC: allowed';
    audit.start();
    handler(req, res, audit).catch((err) => { audit.panic(err); send(res, 500, 'application/json', '{}'); });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  const call = (method: string, path: string, body?: string, headers: Record<string, string> = {}) => new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { 'user-agent': 'test/1.0', ...(body ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      let text = '';
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
  // The last event of a request is written when its response closes, which may be just after the client has
  // the answer: wait until each named request has its last event.
  const events = async (...ids: unknown[]) => {
    for (;;) {
      const all = (await readFile(logPath, 'utf8')).trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
      if (ids.every((id) => all.some((e) => e.auditID === id && (e.stage === 'ResponseComplete' || e.stage === 'Panic')))) return all;
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  try {
    await fn(call, events);
  } finally {
    server.close();
    auditor.close();
  }
}

const byId = (events: any[], id: unknown) => events.filter((e) => e.auditID === id);

test('Metadata level: received and complete events with user, objectRef, status and annotations, no bodies', async () => {
  await withServer(async (req, res, audit) => {
    audit.annotate('svc.io/deprecated', 'true');
    // A key keeps its first value, as Kubernetes' audit context keeps it.
    audit.annotate('svc.io/deprecated', 'false');
    // Admission finds the event from the handler's context, once the handler has tied it to the request.
    const ctx = {};
    assert.equal(requestAuditOf(ctx), undefined);
    bindRequestAudit(ctx, req);
    assert.equal(requestAuditOf(ctx), audit);
    assert.equal(audit.level, 'Metadata');
    send(res, 200, 'application/json', '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"}}');
  }, async (call, events) => {
    const r = await call('GET', '/api/v1/namespaces/a/pods/p', undefined, { 'x-forwarded-for': '10.1.2.3, bogus' });
    assert.equal(r.status, 200);
    assert.match(String(r.headers['audit-id']), /^[0-9a-f-]{36}$/);
    const [received, complete] = byId(await events(r.headers['audit-id']), r.headers['audit-id']);
    assert.equal(received.stage, 'RequestReceived');
    assert.equal(received.annotations, undefined);
    assert.deepEqual({ ...complete, requestReceivedTimestamp: 'T', stageTimestamp: 'T' }, {
      kind: 'Event', apiVersion: 'audit.svc.io/v1', level: 'Metadata', auditID: r.headers['audit-id'], stage: 'ResponseComplete',
      requestURI: '/api/v1/namespaces/a/pods/p', verb: 'get', user: { username: 'alice', uid: 'u-1', groups: ['dev', 'system:authenticated'] },
      sourceIPs: ['10.1.2.3', '127.0.0.1'], userAgent: 'test/1.0', objectRef: { resource: 'pods', namespace: 'a', name: 'p', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 200 }, requestReceivedTimestamp: 'T', stageTimestamp: 'T',
      annotations: { 'authorization.svc.io/decision': 'allow', 'authorization.svc.io/reason': 'RBAC: allowed', 'svc.io/deprecated': 'true' },
    });
    assert.match(complete.stageTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });
});

test('an error answer records its Status; an Audit-ID given by the client is kept', async () => {
  await withServer(async (req, res) => {
    send(res, 404, 'application/json', JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'pods "p" not found', reason: 'NotFound', details: { name: 'p', kind: 'pods' }, code: 404 }));
  }, async (call, events) => {
    const r = await call('GET', '/api/v1/namespaces/a/pods/p', undefined, { 'audit-id': 'mine' });
    assert.equal(r.headers['audit-id'], 'mine');
    const complete = byId(await events('mine'), 'mine').find((e) => e.stage === 'ResponseComplete');
    assert.deepEqual(complete.responseStatus, { metadata: {}, status: 'Failure', message: 'pods "p" not found', reason: 'NotFound', details: { name: 'p', kind: 'pods' }, code: 404 });
  });
});

test('Request and RequestResponse levels record the bodies (managedFields left out when the rule says so)', async () => {
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', managedFields: [{ manager: 'm' }] }, data: { a: '1' } });
  await withServer(async (req, res) => {
    const got = await readBody(req);
    send(res, 201, 'application/json', got.toString('utf8').replace('"data"', '"metadata2":{},"data"'));
  }, async (call, events) => {
    const cm = await call('POST', '/api/v1/namespaces/a/configmaps', body);
    const secret = await call('POST', '/api/v1/namespaces/a/secrets', JSON.stringify({ metadata: { name: 's' }, data: { k: 'dg==' } }), { 'impersonate-user': 'bob' });
    const all = await events(cm.headers['audit-id'], secret.headers['audit-id']);
    const cmDone = byId(all, cm.headers['audit-id']).find((e) => e.stage === 'ResponseComplete');
    assert.equal(cmDone.level, 'RequestResponse');
    assert.deepEqual(cmDone.objectRef, { resource: 'configmaps', namespace: 'a', name: 'c', apiVersion: 'v1' });
    assert.deepEqual(cmDone.requestObject, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } });
    assert.deepEqual(cmDone.responseObject, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, metadata2: {}, data: { a: '1' } });
    assert.deepEqual(cmDone.responseStatus, { metadata: {}, code: 201 });
    const sDone = byId(all, secret.headers['audit-id']).find((e) => e.stage === 'ResponseComplete');
    // Request level: the Secret's data is in the log (as Kubernetes logs it), the answer is not.
    assert.equal(sDone.level, 'Request');
    assert.deepEqual(sDone.requestObject, { metadata: { name: 's' }, data: { k: 'dg==' } });
    assert.equal(sDone.responseObject, undefined);
    assert.deepEqual(sDone.impersonatedUser, { username: 'bob', groups: ['system:authenticated'] });
    assert.equal(sDone.user.username, 'alice');
  });
});

test('a level of None writes nothing; a failure writes Panic instead of ResponseComplete; a watch writes ResponseStarted', async () => {
  await withServer(async (req, res) => {
    if (req.url === '/api/v1/namespaces/a/pods/boom') throw new Error('kaboom');
    if (req.url?.includes('watch')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"type":"ADDED"}\n');
      setTimeout(() => res.end(), 5);
      return;
    }
    send(res, 200, 'text/plain', 'ok');
  }, async (call, events) => {
    const health = await call('GET', '/healthz');
    const boom = await call('GET', '/api/v1/namespaces/a/pods/boom');
    const watch = await call('GET', '/api/v1/namespaces/a/pods?watch=true');
    const all = await events(boom.headers['audit-id'], watch.headers['audit-id']);
    assert.deepEqual(byId(all, health.headers['audit-id']), []);
    const boomEvents = byId(all, boom.headers['audit-id']);
    assert.deepEqual(boomEvents.map((e) => e.stage), ['RequestReceived', 'Panic']);
    assert.deepEqual(boomEvents[1].responseStatus, { metadata: {}, status: 'Failure', message: "APIServer panic'd: kaboom", reason: 'InternalError', code: 500 });
    const watchEvents = byId(all, watch.headers['audit-id']);
    assert.deepEqual(watchEvents.map((e) => [e.stage, e.responseStatus?.code]), [['RequestReceived', undefined], ['ResponseStarted', 200], ['ResponseComplete', 200]]);
    assert.equal(watchEvents[2].verb, 'watch');
    assert.equal(watchEvents[2].responseObject, undefined);
  });
});
