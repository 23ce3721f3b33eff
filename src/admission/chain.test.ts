import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdmissionChain, type AdmissionAttributes, type AdmissionPlugin, type DynamicAdmission } from './chain.ts';
import { addAnnotation, annotationKeyError } from './audit-annotations.ts';
import { requestContext } from '../apis/kind-harness.ts';
import { bindRequestAudit, rememberRequestAudit, type AuditAnnotationSink } from '../server/audit/request-context.ts';
import type { Level } from '../server/audit/policy.ts';
import * as status from '../machinery/status.ts';
import type { ServedResource } from '../server/apis.ts';

const attrs = (): AdmissionAttributes => ({ operation: 'CREATE', served: {} as ServedResource, namespace: 'ns', name: 'x', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }, ctx: requestContext() });

function recorder(configured: boolean, opts: { webhooksRefuse?: boolean } = {}) {
  const calls: string[] = [];
  const dynamic: DynamicAdmission = {
    get mutating() { return configured; },
    get validating() { return configured; },
    mutate: async () => { calls.push('webhooks mutate'); },
    validate: async () => {
      calls.push('webhooks validate');
      if (opts.webhooksRefuse) throw status.forbidden({ group: '', resource: 'configmaps' }, 'x', 'no');
    },
  };
  const quota: AdmissionPlugin = { name: 'quota', admit: () => { calls.push('quota admit'); }, validate: async () => { calls.push('quota validate'); } };
  const chain = new AdmissionChain([
    { name: 'a', admit: () => { calls.push('a admit'); }, validate: async () => { calls.push('a validate'); } },
    { name: 'b', admit: async () => { calls.push('b admit'); } },
  ], dynamic, [quota]);
  return { calls, chain };
}

test('plugins mutate, then the mutating webhooks, then plugins validate; validating webhooks then the plugins after them when the registry asks', async () => {
  const { calls, chain } = recorder(true);
  await chain.admit(attrs());
  assert.equal(chain.validates, true);
  await chain.validate(attrs());
  // A plugin after the webhooks only validates (Kubernetes' ResourceQuota).
  assert.deepEqual(calls, ['a admit', 'b admit', 'webhooks mutate', 'a validate', 'webhooks validate', 'quota validate']);
});

test('a request a validating webhook refuses never reaches the plugins after the webhooks', async () => {
  const { calls, chain } = recorder(true, { webhooksRefuse: true });
  await assert.rejects(chain.validate(attrs())!, (e: status.StatusError) => e.code === 403);
  assert.deepEqual(calls, ['webhooks validate']);
});

test('with no webhook configured, the dynamic phases are skipped; the plugins after them still validate', async () => {
  const { calls, chain } = recorder(false);
  await chain.admit(attrs());
  assert.equal(chain.validates, true);
  await chain.validate(attrs());
  assert.deepEqual(calls, ['a admit', 'b admit', 'a validate', 'quota validate']);
  const bare = new AdmissionChain([]);
  assert.equal(bare.validates, false);
  assert.equal(bare.validate(attrs()), undefined);
});

class RecordedAudit implements AuditAnnotationSink {
  readonly level: Level;
  readonly annotations: Record<string, string> = {};
  constructor(level: Level) {
    this.level = level;
  }
  annotate(key: string, value: string): void {
    if (!(key in this.annotations)) this.annotations[key] = value;
  }
}

function audited(level: Level): { a: AdmissionAttributes; audit: RecordedAudit } {
  const a = attrs();
  const audit = new RecordedAudit(level);
  const req = {};
  rememberRequestAudit(req, audit);
  bindRequestAudit(a.ctx, req);
  return { a, audit };
}

test('annotations reach the request\'s audit event after each phase, refused or not, those above its level left out', async () => {
  const annotating: AdmissionPlugin = {
    name: 'annotating',
    admit: (a) => {
      addAnnotation(a, 'example.svc.io/seen', 'yes');
      addAnnotation(a, 'example.svc.io/patch', '[]', 'Request');
    },
  };
  const refusing: AdmissionPlugin = { name: 'refusing', validate: (a) => { addAnnotation(a, 'example.svc.io/refused', 'true'); throw status.forbidden({ group: '', resource: 'configmaps' }, 'x', 'no'); } };
  const metadata = audited('Metadata');
  await new AdmissionChain([annotating]).admit(metadata.a);
  assert.deepEqual(metadata.audit.annotations, { 'example.svc.io/seen': 'yes' });
  const request = audited('Request');
  await new AdmissionChain([annotating]).admit(request.a);
  assert.deepEqual(request.audit.annotations, { 'example.svc.io/seen': 'yes', 'example.svc.io/patch': '[]' });
  const refused = audited('Metadata');
  assert.throws(() => new AdmissionChain([], undefined, [refusing]).validate(refused.a), (e: status.StatusError) => e.code === 403);
  assert.deepEqual(refused.audit.annotations, { 'example.svc.io/refused': 'true' });
  // A request that is not audited: nothing to hand over, nothing fails.
  await new AdmissionChain([annotating]).admit(attrs());
});

test('annotation keys: a qualified name with a prefix; a key keeps its first value', () => {
  const a = attrs();
  assert.equal(addAnnotation(a, 'hook.example.com/key', 'one'), undefined);
  assert.equal(addAnnotation(a, 'hook.example.com/key', 'one'), undefined);
  assert.match(addAnnotation(a, 'hook.example.com/key', 'two')!, /not allowed to be overwritten/);
  assert.equal(a.auditAnnotations!.get('hook.example.com/key')!.value, 'one');
  assert.match(annotationKeyError('nokey')!, /^annotation key has invalid format, the right format is a DNS subdomain prefix and '\/' and key name/);
  assert.match(annotationKeyError('a/b/c')!, /the right format is a DNS subdomain prefix/);
  assert.match(annotationKeyError('hook.example.com/bad key')!, /^annotation key has invalid format name part must consist of alphanumeric characters/);
  assert.match(annotationKeyError('Bad_Prefix/key')!, /prefix part a lowercase RFC 1123 subdomain/);
  assert.equal(a.auditAnnotations!.size, 1);
});
