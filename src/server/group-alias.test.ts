import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as status from '../machinery/status.ts';
import { bindingGroupReferencesIn } from '../apis/rbac/policy.ts';
import { GroupAlias, apiVersionFromAlias, kubernetesGroupOf, renamedGroupOf } from './group-alias.ts';

describe('group names', () => {
  it('maps k8s.io names to svc.io and back', () => {
    assert.equal(renamedGroupOf('rbac.authorization.k8s.io'), 'rbac.authorization.svc.io');
    assert.equal(renamedGroupOf('apps'), undefined);
    assert.equal(renamedGroupOf(''), undefined);
    assert.equal(kubernetesGroupOf('networking.svc.io'), 'networking.k8s.io');
    assert.equal(kubernetesGroupOf('autoscaling'), undefined);
  });

  it('reads an apiVersion in Kubernetes\' name of a group as the group', () => {
    assert.equal(apiVersionFromAlias('rbac.authorization.k8s.io/v1', 'rbac.authorization.svc.io'), 'rbac.authorization.svc.io/v1');
    assert.equal(apiVersionFromAlias('rbac.authorization.svc.io/v1', 'rbac.authorization.svc.io'), 'rbac.authorization.svc.io/v1');
    assert.equal(apiVersionFromAlias('networking.k8s.io/v1', 'rbac.authorization.svc.io'), 'networking.k8s.io/v1');
    assert.equal(apiVersionFromAlias('v1', ''), 'v1');
  });
});

describe('GroupAlias', () => {
  const alias = new GroupAlias('rbac.authorization.svc.io', 'rbac.authorization.k8s.io');

  it('rewrites the apiVersion of objects in the served group only, and the group references its kind names', () => {
    const obj = {
      apiVersion: 'rbac.authorization.svc.io/v1', kind: 'RoleBinding', roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name: 'r' },
      subjects: [{ apiGroup: 'rbac.authorization.svc.io', kind: 'User', name: 'u' }, { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' }],
      data: { group: 'rbac.authorization.svc.io' },
    };
    // Data is left as it is unless the kind says which fields name its group.
    assert.deepEqual(alias.object(obj), { ...obj, apiVersion: 'rbac.authorization.k8s.io/v1' });
    const out = alias.object(obj, bindingGroupReferencesIn);
    assert.deepEqual(out, {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'u' }, { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' }],
      data: { group: 'rbac.authorization.svc.io' },
    });
    assert.equal(obj.apiVersion, 'rbac.authorization.svc.io/v1', 'the input is left as it is');
    assert.equal(obj.roleRef.apiGroup, 'rbac.authorization.svc.io', 'the input is left as it is');
    assert.deepEqual(Object.keys(out), ['apiVersion', 'kind', 'roleRef', 'subjects', 'data']);
    const scale = { apiVersion: 'autoscaling/v1', kind: 'Scale' };
    assert.equal(alias.object(scale), scale);
    assert.equal(alias.object(null), null);
  });

  it('names the client\'s group in Status errors about the served group', () => {
    const nf = alias.error(status.notFound({ group: 'rbac.authorization.svc.io', resource: 'roles' }, 'x'));
    assert.equal(nf.message, 'roles.rbac.authorization.k8s.io "x" not found');
    assert.deepEqual(nf.details, { name: 'x', group: 'rbac.authorization.k8s.io', kind: 'roles' });
    const inv = alias.error(status.invalid('rbac.authorization.svc.io', 'Role', 'r', [{ type: 'FieldValueRequired', field: 'rules[0].apiGroups', hasValue: false, detail: 'roles.rbac.authorization.svc.io' }]));
    assert.equal(inv.message, 'Role.rbac.authorization.k8s.io "r" is invalid: rules[0].apiGroups: Required value: roles.rbac.authorization.svc.io');
    assert.equal(inv.code, 422);
    // Errors about other groups, and anything that is not a Status, pass through.
    const other = status.notFound({ group: '', resource: 'configmaps' }, 'x');
    assert.equal(alias.error(other), other);
    const plain = new Error('boom');
    assert.equal(alias.error(plain), plain);
  });
});
