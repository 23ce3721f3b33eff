import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auditUser, eventJson, eventLegacy, microTime, type AuditEvent } from './event.ts';

const event = (over: Partial<AuditEvent> = {}): AuditEvent => ({
  kind: 'Event', apiVersion: 'audit.svc.io/v1', level: 'Metadata', auditID: 'id-1', stage: 'ResponseComplete',
  requestURI: '/api/v1/namespaces/a/configmaps?limit=1', verb: 'list',
  user: { username: 'alice', groups: ['dev', 'system:authenticated'] }, sourceIPs: ['10.0.0.1', '127.0.0.1'], userAgent: 'kubectl/v1.32.0',
  objectRef: { resource: 'configmaps', namespace: 'a', apiVersion: 'v1' }, responseStatus: { metadata: {}, code: 200 },
  requestReceivedTimestamp: '2026-01-02T03:04:05.120000Z', stageTimestamp: '2026-01-02T03:04:05.130000Z', ...over,
});

test('events are written with Kubernetes field order, empty fields and annotations left out', () => {
  const text = eventJson(event({ annotations: {}, impersonatedUser: undefined }));
  assert.equal(text, '{"kind":"Event","apiVersion":"audit.svc.io/v1","level":"Metadata","auditID":"id-1","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/a/configmaps?limit=1","verb":"list","user":{"username":"alice","groups":["dev","system:authenticated"]},"sourceIPs":["10.0.0.1","127.0.0.1"],"userAgent":"kubectl/v1.32.0","objectRef":{"resource":"configmaps","namespace":"a","apiVersion":"v1"},"responseStatus":{"metadata":{},"code":200},"requestReceivedTimestamp":"2026-01-02T03:04:05.120000Z","stageTimestamp":"2026-01-02T03:04:05.130000Z"}');
  assert.match(eventJson(event({ annotations: { 'svc.io/deprecated': 'true' } })), /"stageTimestamp":"[^"]+","annotations":\{"svc\.io\/deprecated":"true"\}\}$/);
});

test('the legacy line', () => {
  assert.equal(eventLegacy(event()), '2026-01-02T03:04:05.12Z AUDIT: id="id-1" stage="ResponseComplete" ip="10.0.0.1" method="list" user="alice" groups="\\"dev\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl/v1.32.0" namespace="a" uri="/api/v1/namespaces/a/configmaps?limit=1" response="200"');
  const other = eventLegacy(event({ stage: 'RequestReceived', user: {}, impersonatedUser: { username: 'bob', groups: ['x'] }, objectRef: undefined, responseStatus: undefined, sourceIPs: undefined, requestReceivedTimestamp: '2026-01-02T03:04:05.000000Z' }));
  assert.equal(other, '2026-01-02T03:04:05Z AUDIT: id="id-1" stage="RequestReceived" ip="<unknown>" method="list" user="<none>" groups="<none>" as="bob" asgroups="\\"x\\"" user-agent="kubectl/v1.32.0" namespace="<none>" uri="/api/v1/namespaces/a/configmaps?limit=1" response="<deferred>"');
  // Quoted as Go's %q quotes: control characters as \x escapes, printable non-ASCII kept.
  assert.match(eventLegacy(event({ userAgent: 'curl\x01/ü' })), / user-agent="curl\\x01\/ü" /);
});

test('users keep only what is set; times have microseconds', () => {
  assert.deepEqual(auditUser({ username: 'u', uid: '', groups: [], extra: {} }), { username: 'u' });
  assert.deepEqual(auditUser(undefined), {});
  assert.equal(microTime(Date.UTC(2026, 0, 2, 3, 4, 5, 120) + 0.456), '2026-01-02T03:04:05.120456Z');
});
