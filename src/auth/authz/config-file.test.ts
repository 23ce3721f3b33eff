import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAuthorizationConfiguration, AuthorizationConfigError } from './config-file.ts';
import { validateAuthorizationFlags } from './build.ts';

const kubeconfig = join(mkdtempSync(join(tmpdir(), 'authz-')), 'hook.kubeconfig');
writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\n');

test('a valid file: order kept, webhook defaults filled, match conditions compiled', () => {
  const c = parseAuthorizationConfiguration(`
apiVersion: apiserver.config.svc.io/v1
kind: AuthorizationConfiguration
authorizers:
- type: Webhook
  name: hook
  webhook:
    timeout: 3s
    subjectAccessReviewVersion: v1beta1
    matchConditionSubjectAccessReviewVersion: v1
    failurePolicy: Deny
    connectionInfo: {type: KubeConfigFile, kubeConfigFile: ${kubeconfig}}
    matchConditions:
    - expression: "!('system:masters' in request.groups)"
- {type: Node, name: node}
- {type: RBAC, name: rbac}
`);
  assert.deepEqual(c.authorizers.map((a) => a.type), ['Webhook', 'Node', 'RBAC']);
  const w = c.authorizers[0].webhook!;
  assert.equal(w.authorizedTTLMs, 300_000);
  assert.equal(w.unauthorizedTTLMs, 30_000);
  assert.equal(w.timeoutMs, 3_000);
  assert.equal(w.subjectAccessReviewVersion, 'v1beta1');
  assert.equal(w.failurePolicy, 'Deny');
  assert.equal(w.matchConditions[0].evaluate({ request: { groups: ['system:masters'] } }), false);
});

test('every problem is reported at once, in field-error form', () => {
  try {
    parseAuthorizationConfiguration(`
apiVersion: apiserver.config.svc.io/v1
kind: AuthorizationConfiguration
authorizers:
- {type: RBAC}
- {type: Webhook, name: w, webhook: {timeout: 0s, subjectAccessReviewVersion: v1, matchConditionSubjectAccessReviewVersion: v1, failurePolicy: Deny, connectionInfo: {type: InClusterConfig, kubeConfigFile: /x}}}
`);
    assert.fail('no error');
  } catch (err) {
    assert.ok(err instanceof AuthorizationConfigError);
    assert.deepEqual(err.errors, [
      'authorizers[0].name: Required value',
      'authorizers[1].webhook.timeout: Required value',
      'authorizers[1].webhook.connectionInfo.kubeConfigFile: Invalid value: "/x": can only be set when type=KubeConfigFile',
    ]);
  }
  assert.throws(() => parseAuthorizationConfiguration('apiVersion: v1\nkind: Config\n'), /apiVersion and kind must be "apiserver.config.svc.io\/v1" and "AuthorizationConfiguration"/);
  assert.throws(() => parseAuthorizationConfiguration('authorizers: [\n'), /error parsing the file/);
});

test('flag checks', () => {
  assert.doesNotThrow(() => validateAuthorizationFlags({}));
  assert.throws(() => validateAuthorizationFlags({ modes: [] }), /at least one authorization-mode must be passed/);
  assert.throws(() => validateAuthorizationFlags({ modes: ['RBAC'], policyFile: '/p' }), /cannot specify --authorization-policy-file without mode ABAC/);
  assert.throws(() => validateAuthorizationFlags({ modes: ['RBAC'], webhookConfigFile: '/w' }), /cannot specify --authorization-webhook-config-file without mode Webhook/);
  assert.throws(() => validateAuthorizationFlags({ configFile: '/c', webhookVersion: 'v1' }), /--authorization-config can not be specified/);
});
